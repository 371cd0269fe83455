// The corpus modules whose entry computation takes a tuple-shaped parameter:
// each goes through the optimization pipeline, is compiled for this host
// (the tuple's leaves become arguments, docs/header.md), run on seeded random
// inputs bound per parameter as `aotc run` binds them, and compared with the
// reference evaluator running the module as read. Modules stopped by another
// unsupported feature (tiled layouts, convolution, complex, ...) are skipped
// with the reason printed; the numbers found and compared are asserted, so a
// module that silently stops being compared fails the test.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/frontend/load_module.h"
#include "compiler/support/file_io.h"
#include "tests/corpus/corpus_compare.h"
#include "tests/corpus/corpus_files.h"

namespace aotc {
namespace {

// hlo_parser_13, hlo_parser_20, layout_assignment_1,
// memory_space_assignment_1 and tuple_1; all but memory_space_assignment_1
// (tiled layouts) must compile and match.
constexpr int kTupleModules = 5;
constexpr int kExpectedCompared = 4;

// A cheap filter before parsing: some line declares a parameter whose shape
// starts with '(' ("p = (f32[2], s32[]) parameter(0)").
bool MayHaveTupleParameter(std::string_view text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.find("parameter(") == std::string_view::npos) continue;
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    const size_t shape = line.find_first_not_of(' ', eq + 1);
    if (shape != std::string_view::npos && line[shape] == '(') return true;
  }
  return false;
}

bool EntryHasTupleParameter(const Module& module) {
  if (module.entry() == nullptr) return false;
  for (const Instruction* p : module.entry()->parameters()) {
    if (p->shape().IsTuple()) return true;
  }
  return false;
}

TEST(TupleParamsCorpusTest, CompileAndMatchTheEvaluator) {
  int tuple_modules = 0, compared = 0;
  std::map<std::string, std::string> skipped;
  for (const auto& path : CorpusFiles()) {
    const std::string name = path.filename().string();
    SCOPED_TRACE(name);
    auto text = ReadFile(path.string());
    ASSERT_TRUE(text.ok()) << text.status();
    if (!MayHaveTupleParameter(*text)) continue;
    auto module = LoadModuleFromString(*text, name);
    ASSERT_TRUE(module.ok()) << module.status();
    if (!EntryHasTupleParameter(**module)) continue;
    ++tuple_modules;
    const CorpusOutcome outcome = CompileAndCompare(*text, name);
    if (outcome.kind == CorpusOutcome::kFailed) {
      ADD_FAILURE() << name << ": " << outcome.detail;
    } else if (outcome.kind == CorpusOutcome::kMatched) {
      ++compared;
      std::printf("  matched: %s\n", name.c_str());
    } else {
      skipped[name] = outcome.detail;
    }
  }
  std::printf(
      "%d of %d corpus modules with tuple parameters compiled and "
      "matched\n",
      compared, tuple_modules);
  std::printf("skipped (%zu):\n", skipped.size());
  for (const auto& [name, why] : skipped) {
    std::printf("  %s: %s\n", name.c_str(), why.c_str());
  }
  EXPECT_EQ(tuple_modules, kTupleModules);
  EXPECT_EQ(compared, kExpectedCompared);
}

}  // namespace
}  // namespace aotc
