// The evaluator's oracle mode (oracle.h): wide sums, their error bounds and
// how the bounds follow values. Expected values are worked out by hand in the
// comments; bounds from the formula u * sqrt(n) * sum |x| written out here.
#include "compiler/evaluator/oracle.h"

#include <cmath>
#include <string>
#include <vector>

#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/evaluator_test_util.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using ::aotc::testing::Parse;
using ::aotc::testing::Vec;

constexpr char kSumF32[] = R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[18] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(x, z), dimensions={0}, to_apply=add
}
)";

// 1e8, sixteen ones, -1e8: the ulp of 1e8 in f32 is 8, so adding 1 to it
// rounds back to 1e8 and the sequential f32 sum is 0; the exact sum is 16.
std::vector<float> Cancelling() {
  std::vector<float> x(18, 1.0f);
  x.front() = 1e8f;
  x.back() = -1e8f;
  return x;
}

TEST(OracleTest, PlainModeSumsSequentiallyInF32) {
  // The constant folder's (and --strict-fp's) meaning is unchanged.
  AOTC_ASSERT_OK_AND_ASSIGN(auto module, Parse(kSumF32));
  std::vector<Literal> args;
  args.push_back(Vec<PrimitiveType::kF32>(Cancelling()));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal plain, EvaluateModule(*module, args));
  EXPECT_EQ(plain.Get<float>(0), 0.0f);
}

TEST(OracleTest, F32SumIsWideAndBounded) {
  AOTC_ASSERT_OK_AND_ASSIGN(auto module, Parse(kSumF32));
  std::vector<Literal> args;
  args.push_back(Vec<PrimitiveType::kF32>(Cancelling()));
  AOTC_ASSERT_OK_AND_ASSIGN(OracleValue oracle, EvaluateOracle(*module, args));
  EXPECT_EQ(oracle.value.Get<float>(0), 16.0f);
  ASSERT_EQ(oracle.bounds.size(), 1u);
  // n = 19 terms (the init value counts), sum |x| = 2e8 + 16:
  // 2^-24 * sqrt(19) * 200000016 = 51.96...
  const double expected = std::ldexp(1.0, -24) * std::sqrt(19.0) * 200000016.0;
  // Stored in f32, rounded up: never below the formula, within 2^-20 of it.
  EXPECT_GE(oracle.bounds[0].Get<double>(0), expected);
  EXPECT_LE(oracle.bounds[0].Get<double>(0), expected * (1 + 0x1p-20));
  EXPECT_GT(oracle.bounds[0].Get<double>(0), 51.9);
  EXPECT_LT(oracle.bounds[0].Get<double>(0), 52.0);
}

TEST(OracleTest, F64SumIsCompensated) {
  // 1, ten times 1e-16, -1: each 1e-16 is below half an ulp of 1 (1.1e-16),
  // so the sequential f64 sum is 0; the exact sum is 1e-15.
  AOTC_ASSERT_OK_AND_ASSIGN(auto module, Parse(R"(
HloModule m
add {
  a = f64[] parameter(0)
  b = f64[] parameter(1)
  ROOT s = f64[] add(a, b)
}
ENTRY e {
  x = f64[12] parameter(0)
  z = f64[] constant(0)
  ROOT r = f64[] reduce(x, z), dimensions={0}, to_apply=add
}
)"));
  std::vector<double> x(12, 1e-16);
  x.front() = 1;
  x.back() = -1;
  std::vector<Literal> args;
  args.push_back(Vec<PrimitiveType::kF64>(x));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal plain, EvaluateModule(*module, args));
  EXPECT_EQ(plain.Get<double>(0), 0.0);
  AOTC_ASSERT_OK_AND_ASSIGN(OracleValue oracle, EvaluateOracle(*module, args));
  EXPECT_NEAR(oracle.value.Get<double>(0), 1e-15, 1e-30);
}

TEST(OracleTest, BoundsFollowAMeanIntoATuple) {
  // mean of {1, -2, 3, -4} = -2 / 4 = -0.5. The sum's bound is
  // 2^-24 * sqrt(5) * 10; dividing by the exact 4 divides the bound by 4.
  // The tuple's second leaf (the input copied) carries no bound.
  AOTC_ASSERT_OK_AND_ASSIGN(auto module, Parse(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4] parameter(0)
  z = f32[] constant(0)
  s = f32[] reduce(x, z), dimensions={0}, to_apply=add
  four = f32[] constant(4)
  m = f32[] divide(s, four)
  mb = f32[2] broadcast(m), dimensions={}
  ROOT t = (f32[2], f32[4]) tuple(mb, x)
}
)"));
  std::vector<Literal> args;
  args.push_back(Vec<PrimitiveType::kF32>({1, -2, 3, -4}));
  AOTC_ASSERT_OK_AND_ASSIGN(OracleValue oracle, EvaluateOracle(*module, args));
  ASSERT_EQ(oracle.bounds.size(), 2u);
  EXPECT_EQ(oracle.value.tuple_elements()[0].Get<float>(1), -0.5f);
  const double sum_bound = std::ldexp(1.0, -24) * std::sqrt(5.0) * 10;
  for (int i = 0; i < 2; ++i) {
    EXPECT_GE(oracle.bounds[0].Get<double>(i), sum_bound / 4);
    EXPECT_LE(oracle.bounds[0].Get<double>(i), sum_bound / 4 * (1 + 0x1p-20));
  }
  for (int i = 0; i < 4; ++i) EXPECT_EQ(oracle.bounds[1].Get<double>(i), 0.0);
}

TEST(OracleTest, BoundsEndAtOperationsWithoutARule) {
  // cosine has no propagation rule: its result gets no bound (the default
  // tolerance alone applies), where the sum before it has one.
  AOTC_ASSERT_OK_AND_ASSIGN(auto module, Parse(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4] parameter(0)
  z = f32[] constant(0)
  s = f32[] reduce(x, z), dimensions={0}, to_apply=add
  c = f32[] cosine(s)
  ROOT t = (f32[], f32[]) tuple(s, c)
}
)"));
  std::vector<Literal> args;
  args.push_back(Vec<PrimitiveType::kF32>({1, 2, 3, 4}));
  AOTC_ASSERT_OK_AND_ASSIGN(OracleValue oracle, EvaluateOracle(*module, args));
  EXPECT_GT(oracle.bounds[0].Get<double>(0), 0.0);
  EXPECT_EQ(oracle.bounds[1].Get<double>(0), 0.0);
}

TEST(OracleTest, OnlyF32AndF64AddReducersAreWide) {
  // Integer sums are exact, multiply is not a sum, and bf16 sums are
  // compiled sequentially, rounded after every step, as the plain mode does.
  AOTC_ASSERT_OK_AND_ASSIGN(auto module, Parse(R"(
HloModule m
badd {
  a = bf16[] parameter(0)
  b = bf16[] parameter(1)
  ROOT s = bf16[] add(a, b)
}
add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
mul {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] multiply(a, b)
}
fadd {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = s32[4] parameter(0)
  y = f32[4] parameter(1)
  h = bf16[4] parameter(2)
  zh = bf16[] constant(0)
  d = bf16[] reduce(h, zh), dimensions={0}, to_apply=badd
  zi = s32[] constant(0)
  zf = f32[] constant(1)
  a = s32[] reduce(x, zi), dimensions={0}, to_apply=add
  b = f32[] reduce(y, zf), dimensions={0}, to_apply=mul
  c = f32[] reduce(y, zf), dimensions={0}, to_apply=fadd
  ROOT t = (s32[], f32[], f32[], bf16[]) tuple(a, b, c, d)
}
)"));
  const Instruction* root = module->entry()->root();
  EXPECT_FALSE(eval::IsFloatAddReduce(*root->operand(0)));
  EXPECT_FALSE(eval::IsFloatAddReduce(*root->operand(1)));
  EXPECT_TRUE(eval::IsFloatAddReduce(*root->operand(2)));
  EXPECT_FALSE(eval::IsFloatAddReduce(*root->operand(3)));
}

}  // namespace
}  // namespace aotc
