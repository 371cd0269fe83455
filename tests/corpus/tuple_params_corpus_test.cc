// The corpus modules whose entry computation takes a tuple-shaped parameter:
// each goes through the optimization pipeline, is compiled for this host
// (the tuple's leaves become arguments, docs/header.md), run on seeded random
// inputs bound per parameter as `aotc run` binds them, and compared with the
// reference evaluator running the module as read. Modules stopped by another
// unsupported feature (tiled layouts, ...) are skipped
// with the reason printed; the numbers found and compared are asserted, so a
// module that silently stops being compared fails the test.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/frontend/load_module.h"
#include "tests/corpus/corpus_compare.h"

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
  const CorpusSubset subset = CompareCorpusSubset(
      [](const std::string& text, const std::string& name) {
        if (!MayHaveTupleParameter(text)) return false;
        auto module = LoadModuleFromString(text, name);
        return module.ok() && EntryHasTupleParameter(**module);
      });
  std::printf(
      "%d of %d corpus modules with tuple parameters compiled and "
      "matched\n",
      subset.matched, subset.modules);
  EXPECT_THAT(subset.failures, ::testing::IsEmpty());
  EXPECT_EQ(subset.modules, kTupleModules);
  EXPECT_EQ(subset.matched, kExpectedCompared);
}

}  // namespace
}  // namespace aotc
