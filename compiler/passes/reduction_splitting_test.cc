// Tests of reduction splitting: the rewrite, its value on exact integers,
// and every case where it must not fire.
#include "compiler/passes/reduction_splitting.h"

#include <string>

#include "absl/strings/str_replace.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/passes/pass_test_util.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ParseVerified;
using testing::RunVerified;

// sum over dims {0,1} of T[256,512] (131072 elements >= kMinInput) into
// T[] with init INIT and reducer OP.
std::string SumModule(const std::string& type, const std::string& init,
                      const std::string& op = "add",
                      const std::string& dims = "{0,1}",
                      const std::string& out = "[]") {
  return absl::StrReplaceAll(R"(
HloModule m
r {
  a = $T[] parameter(0)
  b = $T[] parameter(1)
  ROOT s = $T[] $OP(a, b)
}
ENTRY e {
  x = $T[256,512] parameter(0)
  z = $T[] constant($INIT)
  ROOT s = $T$OUT reduce(x, z), dimensions=$DIMS, to_apply=r
}
)",
                             {{"$T", type},
                              {"$OUT", out},
                              {"$INIT", init},
                              {"$OP", op},
                              {"$DIMS", dims}});
}

TEST(ReductionSplittingTest, FullReductionBecomesRowPartialsThenAFinalSum) {
  std::unique_ptr<Module> m = ParseVerified(SumModule("f32", "0"));
  ASSERT_NE(m, nullptr);
  ReductionSplitting pass(/*strict_fp=*/false);
  EXPECT_TRUE(RunVerified(pass, *m));
  const Instruction* root = m->entry()->root();
  // The final reduction keeps the original's name and reduces the 256
  // row partials; the partials reduce dimension 1 of x.
  EXPECT_EQ(root->name(), "s");
  EXPECT_EQ(root->opcode(), Opcode::kReduce);
  EXPECT_EQ(root->attrs().dimensions, (std::vector<int64_t>{0}));
  const Instruction* partial = root->operand(0);
  EXPECT_EQ(partial->opcode(), Opcode::kReduce);
  EXPECT_EQ(partial->shape().ToString(false), "f32[256]");
  EXPECT_EQ(partial->attrs().dimensions, (std::vector<int64_t>{1}));
  EXPECT_EQ(partial->operand(0)->name(), "x");
}

TEST(ReductionSplittingTest, KeptDimensionsStayInOrder) {
  // T[8,256,64] reduced over {0,2} into T[256]: partials f32[8,256] (the
  // outermost reduced dim 0, then kept dim 1), final reduces dim 0.
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m
r {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
ENTRY e {
  x = s32[8,256,64] parameter(0)
  z = s32[] constant(0)
  ROOT s = s32[256] reduce(x, z), dimensions={0,2}, to_apply=r
}
)");
  ASSERT_NE(m, nullptr);
  ReductionSplitting pass(false);
  EXPECT_TRUE(RunVerified(pass, *m));
  const Instruction* partial = m->entry()->root()->operand(0);
  EXPECT_EQ(partial->shape().ToString(false), "s32[8,256]");
  EXPECT_EQ(partial->attrs().dimensions, (std::vector<int64_t>{2}));
  EXPECT_EQ(m->entry()->root()->attrs().dimensions, (std::vector<int64_t>{0}));
  // Integer sums are exact: x[i,j,k] = i + 2k summed over i < 8, k < 64 is
  // 64 * 28 + 8 * 2 * 2016 = 1792 + 32256 = 34048 for every j.
  Literal x(Shape::Array(PrimitiveType::kS32, {8, 256, 64}));
  for (int64_t i = 0; i < 8; ++i) {
    for (int64_t j = 0; j < 256; ++j) {
      for (int64_t k = 0; k < 64; ++k) {
        x.Set<int32_t>((i * 256 + j) * 64 + k, static_cast<int32_t>(i + 2 * k));
      }
    }
  }
  absl::StatusOr<Literal> r = EvaluateModule(*m, {x});
  ASSERT_TRUE(r.ok()) << r.status();
  for (int64_t j = 0; j < 256; ++j) EXPECT_EQ(r->Get<int32_t>(j), 34048);
}

TEST(ReductionSplittingTest, StrictFloatingPointKeepsFloatReductions) {
  std::unique_ptr<Module> m = ParseVerified(SumModule("f32", "0"));
  ASSERT_NE(m, nullptr);
  ReductionSplitting pass(/*strict_fp=*/true);
  EXPECT_FALSE(RunVerified(pass, *m));
  // Integers are exact, so they are split even then.
  std::unique_ptr<Module> ints = ParseVerified(SumModule("s32", "0"));
  ASSERT_NE(ints, nullptr);
  EXPECT_TRUE(RunVerified(pass, *ints));
}

TEST(ReductionSplittingTest, RefusesNonIdentityInitOtherReducersAndSmallCases) {
  ReductionSplitting pass(false);
  for (const std::string& text : {
           // init 1 for add: both reductions would add it.
           SumModule("f32", "1"),
           // max: not add or multiply.
           SumModule("f32", "0", "maximum"),
           // one reduced dimension: nothing to split off.
           SumModule("f32", "0", "add", "{1}", "[256]"),
           // f16 sums are rounded after every step.
           SumModule("f16", "0"),
       }) {
    std::unique_ptr<Module> m = ParseVerified(text);
    ASSERT_NE(m, nullptr);
    EXPECT_FALSE(RunVerified(pass, *m)) << text;
  }
  // Too small an input: 64x64 elements.
  std::unique_ptr<Module> small = ParseVerified(absl::StrReplaceAll(
      SumModule("f32", "0"), {{"256,512", "64,64"}}));
  ASSERT_NE(small, nullptr);
  EXPECT_FALSE(RunVerified(pass, *small));
}

TEST(ReductionSplittingTest, MultiplyWithIdentityOneIsSplit) {
  std::unique_ptr<Module> m = ParseVerified(SumModule("f64", "1", "multiply"));
  ASSERT_NE(m, nullptr);
  ReductionSplitting pass(false);
  EXPECT_TRUE(RunVerified(pass, *m));
}

}  // namespace
}  // namespace aotc
