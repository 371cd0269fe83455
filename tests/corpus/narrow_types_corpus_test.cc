// The corpus modules that use narrow element types (s2, s4, u2, u4, f8, f6,
// f4): each goes through the optimization pipeline, is compiled for this
// host, run on seeded random inputs and compared with the reference
// evaluator running the module as read. Modules stopped by another
// unsupported feature (convolution, sort, complex, tiled layouts, ...) or too
// large for the evaluator are skipped with the reason printed; the number
// compared is asserted, so a module that silently stops being compared
// fails the test. Small enough (a few seconds) to run with the unit tests,
// unlike the whole-corpus CorpusCodegen.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "codegen/compile.h"
#include "codegen/jit_runner.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/load_module.h"
#include "compiler/passes/pipelines.h"
#include "compiler/support/file_io.h"
#include "tests/corpus/corpus_files.h"
#include "tools/compare.h"
#include "tools/inputs.h"

namespace aotc {
namespace {

constexpr int64_t kWorkBudget = 200'000'000;
constexpr int64_t kMaxRunBytes = int64_t{1} << 30;
// The modules that use narrow types; all of them but those skipped below
// must compile and match.
constexpr int kNarrowModules = 25;
constexpr int kExpectedCompared = 19;

std::string FirstLine(std::string_view message) {
  return std::string(message.substr(0, message.find('\n')));
}

TEST(NarrowTypesCorpusTest, CompileAndMatchTheEvaluator) {
  const std::regex narrow(R"(s4\[|u4\[|s2\[|u2\[|f8e|f4e2m1fn|f6e)");
  int narrow_modules = 0, compared = 0;
  std::map<std::string, std::string> skipped;
  for (const auto& path : CorpusFiles()) {
    const std::string name = path.filename().string();
    SCOPED_TRACE(name);
    auto text = ReadFile(path.string());
    ASSERT_TRUE(text.ok()) << text.status();
    if (!std::regex_search(*text, narrow)) continue;
    ++narrow_modules;
    auto module = LoadModuleFromString(*text, name);
    ASSERT_TRUE(module.ok()) << module.status();
    if (absl::Status st = codegen::CheckSupported(**module); !st.ok()) {
      skipped[name] = FirstLine(std::string(st.message()));
      continue;
    }
    auto optimized = LoadModuleFromString(*text, name);
    ASSERT_TRUE(optimized.ok()) << optimized.status();
    auto timings = OptimizeModule(**optimized, {});
    ASSERT_TRUE(timings.ok()) << timings.status();
    codegen::CompileOptions options;
    options.name = "model";
    auto compiled = codegen::CompileModule(**optimized, options);
    if (!compiled.ok()) {
      ADD_FAILURE() << name << " does not compile: " << compiled.status();
      continue;
    }
    int64_t bytes = 0;
    for (const auto& inst : (*module)->entry()->instructions()) {
      for (const Shape* leaf : inst->shape().Leaves()) {
        if (leaf->IsArray()) bytes += leaf->ByteSize();
      }
    }
    if (bytes > kMaxRunBytes) {
      skipped[name] = "compiled; buffers larger than 1 GiB, not run";
      continue;
    }
    InputOptions inputs;
    inputs.random_seed = 1;
    auto args = BindInputs(*(*module)->entry(), inputs);
    ASSERT_TRUE(args.ok()) << args.status();
    EvaluateOptions eval_options;
    eval_options.max_work = kWorkBudget;
    auto expected = EvaluateModule(**module, *args, eval_options);
    if (!expected.ok()) {
      ADD_FAILURE() << name << ": the evaluator failed: "
                    << FirstLine(std::string(expected.status().message()));
      continue;
    }
    auto loaded = codegen::LoadedModel::Load(*compiled);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    auto results = (*loaded)->Run(*args);
    ASSERT_TRUE(results.ok()) << results.status();
    const std::vector<const Literal*> leaves = expected->Leaves();
    ASSERT_EQ(leaves.size(), results->size());
    bool ok = true;
    for (size_t k = 0; k < leaves.size(); ++k) {
      const Comparison c =
          CompareLiterals((*results)[k], *leaves[k],
                          DefaultTolerance(leaves[k]->shape().element_type()));
      if (!c.ok()) {
        ADD_FAILURE() << name << " result " << k << ": " << c.mismatches
                      << " of " << c.elements << " elements differ; first "
                      << c.first_mismatch;
        ok = false;
      }
    }
    if (ok) {
      ++compared;
      std::printf("  matched: %s\n", name.c_str());
    }
  }
  std::printf("%d of %d narrow-type corpus modules compiled and matched\n",
              compared, narrow_modules);
  std::printf("skipped (%zu):\n", skipped.size());
  for (const auto& [name, why] : skipped) {
    std::printf("  %s: %s\n", name.c_str(), why.c_str());
  }
  EXPECT_EQ(narrow_modules, kNarrowModules);
  EXPECT_EQ(compared, kExpectedCompared);
}

}  // namespace
}  // namespace aotc
