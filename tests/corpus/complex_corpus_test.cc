// The corpus modules that use the complex element types c64 and c128: each
// goes through the optimization pipeline, is compiled for this host, run on
// seeded random inputs and compared with the reference evaluator running the
// module as read. A module stopped by another unsupported feature would be
// skipped with the reason printed; the number compared is asserted, so a module that silently stops being compared
// fails the test. A few seconds: it runs with the unit tests, unlike the
// whole-corpus CorpusCodegen.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/corpus/corpus_compare.h"

namespace aotc {
namespace {

// The modules that use complex types, convolution_1 (a complex convolution)
// among them; all must compile and match.
constexpr int kComplexModules = 11;
constexpr int kExpectedCompared = 11;

TEST(ComplexCorpusTest, CompileAndMatchTheEvaluator) {
  const CorpusSubset subset =
      CompareCorpusSubsetMatching(R"(\bc(64|128)\[)", "complex");
  EXPECT_THAT(subset.failures, ::testing::IsEmpty());
  EXPECT_EQ(subset.modules, kComplexModules);
  EXPECT_EQ(subset.matched, kExpectedCompared);
}

}  // namespace
}  // namespace aotc
