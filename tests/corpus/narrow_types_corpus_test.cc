// The corpus modules that use narrow element types (s2, s4, u2, u4, f8, f6,
// f4): each goes through the optimization pipeline, is compiled for this
// host, run on seeded random inputs and compared with the reference
// evaluator running the module as read. Modules stopped by another
// unsupported feature (tiled layouts, ...) or too
// large for the evaluator are skipped with the reason printed; the number
// compared is asserted, so a module that silently stops being compared
// fails the test. Small enough (a few seconds) to run with the unit tests,
// unlike the whole-corpus CorpusCodegen.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/corpus/corpus_compare.h"

namespace aotc {
namespace {

// The modules that use narrow types; all of them but those skipped below
// must compile and match.
constexpr int kNarrowModules = 25;
constexpr int kExpectedCompared = 23;

TEST(NarrowTypesCorpusTest, CompileAndMatchTheEvaluator) {
  const CorpusSubset subset = CompareCorpusSubsetMatching(
      R"(s4\[|u4\[|s2\[|u2\[|f8e|f4e2m1fn|f6e)", "narrow-type");
  EXPECT_THAT(subset.failures, ::testing::IsEmpty());
  EXPECT_EQ(subset.modules, kNarrowModules);
  EXPECT_EQ(subset.matched, kExpectedCompared);
}

}  // namespace
}  // namespace aotc
