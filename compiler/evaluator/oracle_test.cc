// The evaluator's oracle mode (oracle.h): wide sums, error budgets and how
// the budgets follow values. Expected values are worked out by hand in the
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

TEST(OracleTest, BudgetsFollowAMeanIntoATuple) {
  // mean of {1, -2, 3, -4} = -2 / 4 = -0.5. The sum's budget is
  // 2^-24 * sqrt(5) * 10 plus an ulp of -2 (2^-22); dividing by the exact 4
  // divides it by 4 and adds an ulp of -0.5 (2^-24) for the rounding of a
  // perturbed quotient. The tuple's second leaf (the input copied) is exact.
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
  const double sum_budget =
      std::ldexp(1.0, -24) * std::sqrt(5.0) * 10 + std::ldexp(1.0, -22);
  const double mean_budget = sum_budget / 4 + std::ldexp(1.0, -24);
  for (int i = 0; i < 2; ++i) {
    EXPECT_GE(oracle.bounds[0].Get<double>(i), mean_budget);
    EXPECT_LE(oracle.bounds[0].Get<double>(i), mean_budget * (1 + 0x1p-20));
  }
  for (int i = 0; i < 4; ++i) EXPECT_EQ(oracle.bounds[1].Get<double>(i), 0.0);
}

TEST(OracleTest, ElementaryFunctionsAddTheirOwnUlps) {
  // exp of an exact input: its own 2 ulps only (docs/math.md: 0.95 measured,
  // plus the C library's half ulp and a margin). exp(1) = 2.7182817 in f32,
  // whose ulp is 2^-22. cosine of the sum 1 + 2 + 3 + 4 = 10 (budget
  // b = 2^-24 sqrt(5) 10 + ulp(10) = 1.33e-6 + 9.5e-7): the corners 10 +- b,
  // rounded to f32, move cos by about |sin 10| = 0.544 times at most b, plus
  // an ulp for the perturbed rounding and cosine's own 2 ulps (ulp of
  // cos 10 = -0.839: 2^-24).
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
  one = f32[] constant(1)
  ex = f32[] exponential(one)
  ROOT t = (f32[], f32[], f32[]) tuple(s, c, ex)
}
)"));
  std::vector<Literal> args;
  args.push_back(Vec<PrimitiveType::kF32>({1, 2, 3, 4}));
  AOTC_ASSERT_OK_AND_ASSIGN(OracleValue oracle, EvaluateOracle(*module, args));
  const double b =
      std::ldexp(1.0, -24) * std::sqrt(5.0) * 10 + std::ldexp(1.0, -20);
  EXPECT_NEAR(oracle.bounds[0].Get<double>(0), b, b * 1e-6);
  EXPECT_GE(oracle.bounds[1].Get<double>(0), 3 * std::ldexp(1.0, -24));
  EXPECT_LE(oracle.bounds[1].Get<double>(0),
            0.6 * b + 4 * std::ldexp(1.0, -24));
  EXPECT_EQ(oracle.bounds[2].Get<double>(0), 2 * std::ldexp(1.0, -22));
}

TEST(OracleTest, CorrectlyRoundedOperationsOfExactInputsAreExact) {
  // x * y + z / w - sqrt(x) on parameters: every step correctly rounded on
  // both sides, so compiled code must give the same bits: budget 0.
  AOTC_ASSERT_OK_AND_ASSIGN(auto module, Parse(R"(
HloModule m
ENTRY e {
  x = f32[3] parameter(0)
  y = f32[3] parameter(1)
  m = f32[3] multiply(x, y)
  d = f32[3] divide(y, x)
  s = f32[3] sqrt(x)
  a = f32[3] add(m, d)
  ROOT r = f32[3] subtract(a, s)
}
)"));
  std::vector<Literal> args;
  args.push_back(Vec<PrimitiveType::kF32>({1, 2, 3}));
  args.push_back(Vec<PrimitiveType::kF32>({0.1f, -7, 1e-30f}));
  AOTC_ASSERT_OK_AND_ASSIGN(OracleValue oracle, EvaluateOracle(*module, args));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(oracle.bounds[0].Get<double>(i), 0.0);
}

TEST(OracleTest, FloatIotaIsExact) {
  // jnp.arange(4.0) * x: iota's values are its indices, correctly rounded on
  // both sides, so the product of exact inputs has budget 0 (not unknown).
  AOTC_ASSERT_OK_AND_ASSIGN(auto module, Parse(R"(
HloModule m
ENTRY e {
  i = f32[4] iota(), iota_dimension=0
  x = f32[4] parameter(0)
  ROOT r = f32[4] multiply(i, x)
}
)"));
  std::vector<Literal> args;
  args.push_back(Vec<PrimitiveType::kF32>({0.1f, 0.2f, 0.3f, 0.4f}));
  AOTC_ASSERT_OK_AND_ASSIGN(OracleValue oracle, EvaluateOracle(*module, args));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(oracle.bounds[0].Get<double>(i), 0.0);
}

TEST(OracleTest, ProductsAreBoundedByTheirMagnitudes) {
  // [1, -2, 3] . [4, 5, -6] = 4 - 10 - 18 = -24 with sum |a b| = 32 over
  // n = 3 terms: 2^-24 (2 sqrt(3) + 2) 32 (1 + 3 * 2^-24) + ulp(24) (2^-19).
  AOTC_ASSERT_OK_AND_ASSIGN(auto module, Parse(R"(
HloModule m
ENTRY e {
  a = f32[1,3] parameter(0)
  b = f32[3,1] parameter(1)
  ROOT d = f32[1,1] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)"));
  Literal a(Shape::Array(PrimitiveType::kF32, {1, 3}));
  Literal b(Shape::Array(PrimitiveType::kF32, {3, 1}));
  const float av[3] = {1, -2, 3}, bv[3] = {4, 5, -6};
  for (int i = 0; i < 3; ++i) {
    a.Set<float>(i, av[i]);
    b.Set<float>(i, bv[i]);
  }
  std::vector<Literal> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  AOTC_ASSERT_OK_AND_ASSIGN(OracleValue oracle, EvaluateOracle(*module, args));
  EXPECT_EQ(oracle.value.Get<float>(0), -24.0f);
  const double u = std::ldexp(1.0, -24);
  const double want =
      u * (2 * std::sqrt(3.0) + 2) * 32 * (1 + 3 * u) + std::ldexp(1.0, -19);
  EXPECT_GE(oracle.bounds[0].Get<double>(0), want);
  EXPECT_LE(oracle.bounds[0].Get<double>(0), want * (1 + 0x1p-20));
}

TEST(OracleTest, ProductsCarryBudgetsAsCommonAndIndependentParts) {
  // x = exp(0) = 1 four times, each with exp's budget b; then x . w for
  // w = [1, -1, 1, -1] (sum 0) and w = [1, 1, 1, 1] (sum 4). The carried
  // budget is max(|sum w_k b|, sqrt(sum w_k^2 b^2)): 2b for the alternating
  // column (the worst case would be 4b, and grow by the weights' l1 norm at
  // every layer) and 4b for the sum, whose errors may all be the same.
  // Each adds the product's own rounding: 2^-24 (2 sqrt(4) + 2) 4
  // (1 + 4 * 2^-24) plus an ulp of the result (0 and 4).
  AOTC_ASSERT_OK_AND_ASSIGN(auto module, Parse(R"(
HloModule m
ENTRY e {
  c = f32[4] parameter(0)
  x = f32[4] exponential(c)
  w = f32[4,2] parameter(1)
  d = f32[2] dot(x, w), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  ROOT t = (f32[4], f32[2]) tuple(x, d)
}
)"));
  Literal w(Shape::Array(PrimitiveType::kF32, {4, 2}));
  for (int k = 0; k < 4; ++k) {
    w.Set<float>(2 * k, k % 2 == 0 ? 1.0f : -1.0f);
    w.Set<float>(2 * k + 1, 1.0f);
  }
  std::vector<Literal> args;
  args.push_back(Vec<PrimitiveType::kF32>({0, 0, 0, 0}));
  args.push_back(std::move(w));
  AOTC_ASSERT_OK_AND_ASSIGN(OracleValue oracle, EvaluateOracle(*module, args));
  const double b = oracle.bounds[0].Get<double>(0);
  EXPECT_GT(b, 0.0);
  const double u = std::ldexp(1.0, -24);
  const double own = u * 6 * 4 * (1 + 4 * u);
  EXPECT_NEAR(oracle.bounds[1].Get<double>(0), own + 2 * b, 1e-6 * own);
  EXPECT_NEAR(oracle.bounds[1].Get<double>(1),
              own + 4 * b + std::ldexp(1.0, -21), 1e-6 * own);
}

TEST(OracleTest, BudgetsFollowCallsButNotLoops) {
  // exp inside a called computation keeps its 2 ulps (exp(0.5) = 1.6487212,
  // ulp 2^-23); the same value carried through a while loop has no budget
  // (NaN: the comparison's tolerance judges it).
  AOTC_ASSERT_OK_AND_ASSIGN(auto module, Parse(R"(
HloModule m
f {
  p = f32[] parameter(0)
  ROOT e = f32[] exponential(p)
}
cond {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(1)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT t = (s32[], f32[]) tuple(j, v)
}
ENTRY e {
  x = f32[] parameter(0)
  c = f32[] call(x), to_apply=f
  zero = s32[] constant(0)
  init = (s32[], f32[]) tuple(zero, c)
  w = (s32[], f32[]) while(init), condition=cond, body=body
  l = f32[] get-tuple-element(w), index=1
  ROOT t = (f32[], f32[]) tuple(c, l)
}
)"));
  std::vector<Literal> args;
  Literal x(Shape::Scalar(PrimitiveType::kF32));
  x.Set<float>(0, 0.5f);
  args.push_back(std::move(x));
  AOTC_ASSERT_OK_AND_ASSIGN(OracleValue oracle, EvaluateOracle(*module, args));
  EXPECT_EQ(oracle.bounds[0].Get<double>(0), 2 * std::ldexp(1.0, -23));
  EXPECT_TRUE(std::isnan(oracle.bounds[1].Get<double>(0)));
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
