// Tests of the evaluator's elementwise arithmetic through HLO text: integer
// edge cases (wrapping, division by zero, INT_MIN / -1, shifts, bit counts,
// power), float NaN and signed-zero rules, rounding, comparisons, select,
// clamp and complex numbers. Expected values are worked out by hand, with
// an independent <cmath> formula, or (complex functions at the extremes)
// with mpmath.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numbers>

#include "compiler/evaluator/complex_extremes_test_cases.h"
#include "compiler/evaluator/evaluator_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using ::aotc::testing::EvalOp;
using ::aotc::testing::ExpectEvalError;
using ::aotc::testing::HalfValues;
using ::aotc::testing::HalfVec;
using ::aotc::testing::OpModule;
using ::aotc::testing::Scalar;
using ::aotc::testing::Values;
using ::aotc::testing::Vec;
using ::testing::ElementsAre;

constexpr PrimitiveType kPred = PrimitiveType::kPred;
constexpr PrimitiveType kS8 = PrimitiveType::kS8;
constexpr PrimitiveType kS16 = PrimitiveType::kS16;
constexpr PrimitiveType kS32 = PrimitiveType::kS32;
constexpr PrimitiveType kS64 = PrimitiveType::kS64;
constexpr PrimitiveType kU8 = PrimitiveType::kU8;
constexpr PrimitiveType kU32 = PrimitiveType::kU32;
constexpr PrimitiveType kU64 = PrimitiveType::kU64;
constexpr PrimitiveType kF16 = PrimitiveType::kF16;
constexpr PrimitiveType kBF16 = PrimitiveType::kBF16;
constexpr PrimitiveType kF32 = PrimitiveType::kF32;
constexpr PrimitiveType kF64 = PrimitiveType::kF64;
constexpr PrimitiveType kC64 = PrimitiveType::kC64;
constexpr PrimitiveType kC128 = PrimitiveType::kC128;

constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax32 = std::numeric_limits<int32_t>::max();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
using C64 = std::complex<float>;

TEST(ElementwiseTest, IntegerArithmeticWraps) {
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s8, EvalOp("s8[3]", "add",
                         {Vec<kS8>({127, -128, 100}), Vec<kS8>({1, -1, 100})}));
  EXPECT_THAT(Values<kS8>(s8), ElementsAre(-128, 127, -56));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal u8,
      EvalOp("u8[2]", "add", {Vec<kU8>({255, 200}), Vec<kU8>({1, 100})}));
  EXPECT_THAT(Values<kU8>(u8), ElementsAre(0, 44));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal u8_sub,
      EvalOp("u8[2]", "subtract", {Vec<kU8>({0, 5}), Vec<kU8>({1, 10})}));
  EXPECT_THAT(Values<kU8>(u8_sub), ElementsAre(255, 251));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s16_sub,
      EvalOp("s16[1]", "subtract", {Vec<kS16>({-32768}), Vec<kS16>({1})}));
  EXPECT_THAT(Values<kS16>(s16_sub), ElementsAre(32767));
  // -1 * INT_MIN = 2^31, which wraps to INT_MIN.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s32,
      EvalOp("s32[3]", "multiply",
             {Vec<kS32>({kMax32, 65536, -1}), Vec<kS32>({2, 65536, kMin32})}));
  EXPECT_THAT(Values<kS32>(s32), ElementsAre(-2, 0, kMin32));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal u64, EvalOp("u64[1]", "add",
                          {Vec<kU64>({std::numeric_limits<uint64_t>::max()}),
                           Vec<kU64>({1})}));
  EXPECT_THAT(Values<kU64>(u64), ElementsAre(0u));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s64, EvalOp("s64[1]", "multiply",
                          {Vec<kS64>({std::numeric_limits<int64_t>::max()}),
                           Vec<kS64>({2})}));
  EXPECT_THAT(Values<kS64>(s64), ElementsAre(-2));
}

TEST(ElementwiseTest, IntegerDivision) {
  // x / 0 = -1, INT_MIN / -1 = INT_MIN, rounding toward zero.
  AOTC_ASSERT_OK_AND_ASSIGN(Literal s8,
                            EvalOp("s8[6]", "divide",
                                   {Vec<kS8>({7, -7, 7, -128, 5, -7}),
                                    Vec<kS8>({2, 2, 0, -1, -1, -2})}));
  EXPECT_THAT(Values<kS8>(s8), ElementsAre(3, -3, -1, -128, -5, 3));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal s32, EvalOp("s32[4]", "divide",
                                                {Vec<kS32>({7, kMin32, -1, 0}),
                                                 Vec<kS32>({0, -1, 0, 5})}));
  EXPECT_THAT(Values<kS32>(s32), ElementsAre(-1, kMin32, -1, 0));
  // Unsigned x / 0 is the maximum value.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal u32,
      EvalOp("u32[3]", "divide", {Vec<kU32>({7, 7, 0}), Vec<kU32>({0, 2, 0})}));
  EXPECT_THAT(Values<kU32>(u32), ElementsAre(0xFFFFFFFFu, 3u, 0xFFFFFFFFu));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal u8, EvalOp("u8[1]", "divide", {Vec<kU8>({7}), Vec<kU8>({0})}));
  EXPECT_THAT(Values<kU8>(u8), ElementsAre(255));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal f32, EvalOp("f32[4]", "divide",
                          {Vec<kF32>({1, -1, 0, 1}), Vec<kF32>({0, 0, 0, 4})}));
  auto f = Values<kF32>(f32);
  EXPECT_EQ(f[0], kInf);
  EXPECT_EQ(f[1], -kInf);
  EXPECT_TRUE(std::isnan(f[2]));
  EXPECT_EQ(f[3], 0.25f);
}

TEST(ElementwiseTest, Remainder) {
  // x % 0 = x, INT_MIN % -1 = 0, the sign follows the dividend.
  AOTC_ASSERT_OK_AND_ASSIGN(Literal s8,
                            EvalOp("s8[6]", "remainder",
                                   {Vec<kS8>({7, -7, 7, -128, 5, 7}),
                                    Vec<kS8>({2, 2, 0, -1, -3, -3})}));
  EXPECT_THAT(Values<kS8>(s8), ElementsAre(1, -1, 7, 0, 2, 1));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s32,
      EvalOp("s32[3]", "remainder",
             {Vec<kS32>({kMin32, kMin32, -9}), Vec<kS32>({-1, 0, 4})}));
  EXPECT_THAT(Values<kS32>(s32), ElementsAre(0, kMin32, -1));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal u32,
      EvalOp("u32[2]", "remainder", {Vec<kU32>({9, 9}), Vec<kU32>({0, 4})}));
  EXPECT_THAT(Values<kU32>(u32), ElementsAre(9u, 1u));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal f32,
      EvalOp("f32[4]", "remainder",
             {Vec<kF32>({5.5f, -5.5f, 5.5f, 1}), Vec<kF32>({2, 2, -2, 0})}));
  auto f = Values<kF32>(f32);
  EXPECT_EQ(f[0], 1.5f);
  EXPECT_EQ(f[1], -1.5f);
  EXPECT_EQ(f[2], 1.5f);
  EXPECT_TRUE(std::isnan(f[3]));
}

TEST(ElementwiseTest, Shifts) {
  // Amounts >= 32 (and -1, read as unsigned) shift everything out.
  AOTC_ASSERT_OK_AND_ASSIGN(Literal shl,
                            EvalOp("s32[6]", "shift-left",
                                   {Vec<kS32>({1, 1, 1, 1, 1, 3}),
                                    Vec<kS32>({0, 31, 32, 33, -1, 2})}));
  EXPECT_THAT(Values<kS32>(shl), ElementsAre(1, kMin32, 0, 0, 0, 12));
  // -8 is 0xFFFFFFF8: logically shifted by 31 it is 1.
  AOTC_ASSERT_OK_AND_ASSIGN(Literal shrl,
                            EvalOp("s32[5]", "shift-right-logical",
                                   {Vec<kS32>({-8, -8, -8, -8, -8}),
                                    Vec<kS32>({0, 31, 32, 33, -1})}));
  EXPECT_THAT(Values<kS32>(shrl), ElementsAre(-8, 1, 0, 0, 0));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal shra,
                            EvalOp("s32[6]", "shift-right-arithmetic",
                                   {Vec<kS32>({-8, -8, -8, -8, 8, 8}),
                                    Vec<kS32>({0, 1, 32, -1, 1, 33})}));
  EXPECT_THAT(Values<kS32>(shra), ElementsAre(-8, -4, -1, -1, 4, 0));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s8,
      EvalOp("s8[2]", "shift-left", {Vec<kS8>({1, 64}), Vec<kS8>({8, 1})}));
  EXPECT_THAT(Values<kS8>(s8), ElementsAre(0, -128));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal u8_shl,
      EvalOp("u8[1]", "shift-left", {Vec<kU8>({0xFF}), Vec<kU8>({4})}));
  EXPECT_THAT(Values<kU8>(u8_shl), ElementsAre(0xF0));
  // An arithmetic shift of an unsigned type copies its top bit.
  AOTC_ASSERT_OK_AND_ASSIGN(Literal u8_shra,
                            EvalOp("u8[2]", "shift-right-arithmetic",
                                   {Vec<kU8>({0x80, 0x40}), Vec<kU8>({1, 1})}));
  EXPECT_THAT(Values<kU8>(u8_shra), ElementsAre(0xC0, 0x20));
}

TEST(ElementwiseTest, PopulationCountAndLeadingZeros) {
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal popcnt,
      EvalOp("s32[5]", "popcnt", {Vec<kS32>({0, 1, -1, 0x7F, kMin32})}));
  EXPECT_THAT(Values<kS32>(popcnt), ElementsAre(0, 1, 32, 7, 1));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal popcnt_u8, EvalOp("u8[2]", "popcnt", {Vec<kU8>({0xFF, 0x0F})}));
  EXPECT_THAT(Values<kU8>(popcnt_u8), ElementsAre(8, 4));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal clz, EvalOp("s32[5]", "count-leading-zeros",
                          {Vec<kS32>({0, 1, -1, 0x00010000, kMax32})}));
  EXPECT_THAT(Values<kS32>(clz), ElementsAre(32, 31, 0, 15, 1));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal clz_u8,
      EvalOp("u8[3]", "count-leading-zeros", {Vec<kU8>({0, 1, 0x80})}));
  EXPECT_THAT(Values<kU8>(clz_u8), ElementsAre(8, 7, 0));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal clz_s64,
      EvalOp("s64[2]", "count-leading-zeros", {Vec<kS64>({1, 0})}));
  EXPECT_THAT(Values<kS64>(clz_s64), ElementsAre(63, 64));
}

TEST(ElementwiseTest, IntegerPower) {
  // x^0 = 1 and 1^x = 1; other negative exponents give 0, (-1)^-1 included.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s32,
      EvalOp("s32[12]", "power",
             {Vec<kS32>({2, 3, -2, 0, 1, -1, 2, 5, 2, 2, -1, -1}),
              Vec<kS32>({10, 0, 3, 0, -5, -1, -1, 3, 31, 32, 3, 2})}));
  EXPECT_THAT(Values<kS32>(s32),
              ElementsAre(1024, 1, -8, 1, 1, 0, 0, 125, kMin32, 0, -1, 1));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal u8,
      EvalOp("u8[2]", "power", {Vec<kU8>({3, 2}), Vec<kU8>({5, 8})}));
  EXPECT_THAT(Values<kU8>(u8), ElementsAre(243, 0));
}

TEST(ElementwiseTest, FloatPower) {
  AOTC_ASSERT_OK_AND_ASSIGN(Literal f32,
                            EvalOp("f32[5]", "power",
                                   {Vec<kF32>({2, 0, kNaN, 1, 4}),
                                    Vec<kF32>({0.5f, 0, 0, kNaN, -0.5f})}));
  EXPECT_THAT(Values<kF32>(f32),
              ElementsAre(std::sqrt(2.0f), 1.0f, 1.0f, 1.0f, 0.5f));
}

TEST(ElementwiseTest, MaximumMinimumPropagateNaN) {
  Literal a = Vec<kF32>({kNaN, 1, 1, -0.0f});
  Literal b = Vec<kF32>({1, kNaN, 2, 0.0f});
  AOTC_ASSERT_OK_AND_ASSIGN(Literal max, EvalOp("f32[4]", "maximum", {a, b}));
  auto mx = Values<kF32>(max);
  EXPECT_TRUE(std::isnan(mx[0]));
  EXPECT_TRUE(std::isnan(mx[1]));
  EXPECT_EQ(mx[2], 2.0f);
  EXPECT_EQ(mx[3], 0.0f);
  EXPECT_FALSE(std::signbit(mx[3]));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal min, EvalOp("f32[4]", "minimum", {a, b}));
  auto mn = Values<kF32>(min);
  EXPECT_TRUE(std::isnan(mn[0]));
  EXPECT_TRUE(std::isnan(mn[1]));
  EXPECT_EQ(mn[2], 1.0f);
  EXPECT_TRUE(std::signbit(mn[3]));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal u32, EvalOp("u32[2]", "maximum",
                          {Vec<kU32>({0xFFFFFFFFu, 1}), Vec<kU32>({0, 2})}));
  EXPECT_THAT(Values<kU32>(u32), ElementsAre(0xFFFFFFFFu, 2u));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s32,
      EvalOp("s32[2]", "minimum", {Vec<kS32>({-1, 5}), Vec<kS32>({3, 2})}));
  EXPECT_THAT(Values<kS32>(s32), ElementsAre(-1, 2));
  Literal p = Vec<kPred>({false, true, false});
  Literal q = Vec<kPred>({false, false, true});
  AOTC_ASSERT_OK_AND_ASSIGN(Literal pmax, EvalOp("pred[3]", "maximum", {p, q}));
  EXPECT_THAT(Values<kPred>(pmax), ElementsAre(false, true, true));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal pmin, EvalOp("pred[3]", "minimum", {p, q}));
  EXPECT_THAT(Values<kPred>(pmin), ElementsAre(false, false, false));
}

TEST(ElementwiseTest, CompareFloat) {
  Literal a = Vec<kF32>({kNaN, 1, -0.0f, 2});
  Literal b = Vec<kF32>({kNaN, 2, 0.0f, 2});
  auto cmp = [&](std::string_view dir) {
    return EvalOp("pred[4]", "compare", {a, b},
                  absl::StrCat(", direction=", Sv(dir)));
  };
  AOTC_ASSERT_OK_AND_ASSIGN(Literal eq, cmp("EQ"));
  EXPECT_THAT(Values<kPred>(eq), ElementsAre(false, false, true, true));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal ne, cmp("NE"));
  EXPECT_THAT(Values<kPred>(ne), ElementsAre(true, true, false, false));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal lt, cmp("LT"));
  EXPECT_THAT(Values<kPred>(lt), ElementsAre(false, true, false, false));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal le, cmp("LE"));
  EXPECT_THAT(Values<kPred>(le), ElementsAre(false, true, true, true));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal gt, cmp("GT"));
  EXPECT_THAT(Values<kPred>(gt), ElementsAre(false, false, false, false));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal ge, cmp("GE"));
  EXPECT_THAT(Values<kPred>(ge), ElementsAre(false, false, true, true));
}

TEST(ElementwiseTest, CompareTotalOrder) {
  // -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.
  Literal a = Vec<kF32>({-0.0f, kNaN, -kNaN, kInf, -kInf, 1});
  Literal b = Vec<kF32>({0.0f, kNaN, -kInf, kNaN, -kNaN, 1});
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal lt,
      EvalOp("pred[6]", "compare", {a, b}, ", direction=LT, type=TOTALORDER"));
  EXPECT_THAT(Values<kPred>(lt),
              ElementsAre(true, false, true, true, false, false));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal eq,
      EvalOp("pred[6]", "compare", {a, b}, ", direction=EQ, type=TOTALORDER"));
  EXPECT_THAT(Values<kPred>(eq),
              ElementsAre(false, true, false, false, false, true));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal bf16,
      EvalOp("pred[2]", "compare",
             {HalfVec<kBF16>({-0.0f, 1}), HalfVec<kBF16>({0.0f, 1})},
             ", direction=LT, type=TOTALORDER"));
  EXPECT_THAT(Values<kPred>(bf16), ElementsAre(true, false));
}

TEST(ElementwiseTest, CompareIntegers) {
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s32,
      EvalOp("pred[2]", "compare", {Vec<kS32>({-1, 5}), Vec<kS32>({1, 5})},
             ", direction=LT"));
  EXPECT_THAT(Values<kPred>(s32), ElementsAre(true, false));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal unsigned_s32,
      EvalOp("pred[2]", "compare", {Vec<kS32>({-1, 1}), Vec<kS32>({1, -1})},
             ", direction=LT, type=UNSIGNED"));
  EXPECT_THAT(Values<kPred>(unsigned_s32), ElementsAre(false, true));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal u32,
      EvalOp("pred[1]", "compare", {Vec<kU32>({0xFFFFFFFFu}), Vec<kU32>({1})},
             ", direction=GT"));
  EXPECT_THAT(Values<kPred>(u32), ElementsAre(true));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal signed_u32,
      EvalOp("pred[1]", "compare", {Vec<kU32>({0xFFFFFFFFu}), Vec<kU32>({1})},
             ", direction=GT, type=SIGNED"));
  EXPECT_THAT(Values<kPred>(signed_u32), ElementsAre(false));
}

TEST(ElementwiseTest, CompareComplex) {
  Literal a = Vec<kC64>({C64(1, 2), C64(1, 2)});
  Literal b = Vec<kC64>({C64(1, 2), C64(1, -2)});
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal eq, EvalOp("pred[2]", "compare", {a, b}, ", direction=EQ"));
  EXPECT_THAT(Values<kPred>(eq), ElementsAre(true, false));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal ne, EvalOp("pred[2]", "compare", {a, b}, ", direction=NE"));
  EXPECT_THAT(Values<kPred>(ne), ElementsAre(false, true));
  std::vector<Literal> args = {a, b};
  ExpectEvalError(
      OpModule("pred[2]", "compare", args, ", direction=LT"), args, "r",
      "comparison direction LT is not defined for element type c64");
}

TEST(ElementwiseTest, Rounding) {
  Literal x = Vec<kF32>({2.5f, -2.5f, 0.5f, 1.4f, -1.6f, 3.5f});
  AOTC_ASSERT_OK_AND_ASSIGN(Literal afz,
                            EvalOp("f32[6]", "round-nearest-afz", {x}));
  EXPECT_THAT(Values<kF32>(afz), ElementsAre(3, -3, 1, 1, -2, 4));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal even,
                            EvalOp("f32[6]", "round-nearest-even", {x}));
  EXPECT_THAT(Values<kF32>(even), ElementsAre(2, -2, 0, 1, -2, 4));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal floor, EvalOp("f64[2]", "floor", {Vec<kF64>({-1.5, 1.5})}));
  EXPECT_THAT(Values<kF64>(floor), ElementsAre(-2, 1));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal ceil,
                            EvalOp("f64[2]", "ceil", {Vec<kF64>({-1.5, 1.5})}));
  EXPECT_THAT(Values<kF64>(ceil), ElementsAre(-1, 2));
}

TEST(ElementwiseTest, TranscendentalFunctions) {
  const std::vector<float> x = {0.5f, -1.25f, 2.0f};
  auto check = [&](std::string_view op, const std::vector<float>& in,
                   float (*expected)(float)) {
    auto result = EvalOp("f32[3]", op, {Vec<kF32>(in)});
    ASSERT_TRUE(result.ok()) << result.status();
    auto got = Values<kF32>(*result);
    for (size_t i = 0; i < in.size(); ++i) {
      EXPECT_FLOAT_EQ(got[i], expected(in[i])) << op << "(" << in[i] << ")";
    }
  };
  check("exponential", x, [](float v) { return std::exp(v); });
  check("exponential-minus-one", x, [](float v) { return std::expm1(v); });
  check("log", {0.5f, 1.25f, 2.0f}, [](float v) { return std::log(v); });
  check("log-plus-one", {0.5f, -0.25f, 2.0f},
        [](float v) { return std::log1p(v); });
  check("logistic", x, [](float v) { return 1.0f / (1.0f + std::exp(-v)); });
  check("tanh", x, [](float v) { return std::tanh(v); });
  check("sine", x, [](float v) { return std::sin(v); });
  check("cosine", x, [](float v) { return std::cos(v); });
  check("tan", x, [](float v) { return std::tan(v); });
  check("erf", x, [](float v) { return std::erf(v); });
  check("sqrt", {0.25f, 2.0f, 9.0f}, [](float v) { return std::sqrt(v); });
  check("rsqrt", {0.25f, 4.0f, 16.0f},
        [](float v) { return 1.0f / std::sqrt(v); });
  check("cbrt", {-8.0f, 27.0f, 0.125f}, [](float v) { return std::cbrt(v); });
}

TEST(ElementwiseTest, Atan2AndF64AndF16Math) {
  AOTC_ASSERT_OK_AND_ASSIGN(Literal atan2, EvalOp("f32[3]", "atan2",
                                                  {Vec<kF32>({1, 1, -0.0f}),
                                                   Vec<kF32>({-1, 0, -1})}));
  auto a = Values<kF32>(atan2);
  EXPECT_FLOAT_EQ(a[0], 3 * std::numbers::pi_v<float> / 4);
  EXPECT_FLOAT_EQ(a[1], std::numbers::pi_v<float> / 2);
  EXPECT_FLOAT_EQ(a[2], -std::numbers::pi_v<float>);
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal exp64, EvalOp("f64[1]", "exponential", {Vec<kF64>({1.0})}));
  EXPECT_DOUBLE_EQ(Values<kF64>(exp64)[0], std::numbers::e);
  // e = 2.71828... rounds to the f16 grid of step 2^-9 near 2: 1392 * 2^-9.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal exp16, EvalOp("f16[1]", "exponential", {HalfVec<kF16>({1.0f})}));
  EXPECT_THAT(HalfValues<kF16>(exp16), ElementsAre(2.71875f));
}

TEST(ElementwiseTest, IsFinite) {
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal f32,
      EvalOp("pred[4]", "is-finite", {Vec<kF32>({1, kInf, -kInf, kNaN})}));
  EXPECT_THAT(Values<kPred>(f32), ElementsAre(true, false, false, false));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal f16,
      EvalOp("pred[2]", "is-finite", {HalfVec<kF16>({65504, kInf})}));
  EXPECT_THAT(Values<kPred>(f16), ElementsAre(true, false));
}

TEST(ElementwiseTest, SignAbsNegate) {
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal sign,
      EvalOp("f32[5]", "sign", {Vec<kF32>({-0.0f, 0.0f, kNaN, -3, 2})}));
  auto s = Values<kF32>(sign);
  EXPECT_EQ(s[0], 0.0f);
  EXPECT_TRUE(std::signbit(s[0]));
  EXPECT_EQ(s[1], 0.0f);
  EXPECT_FALSE(std::signbit(s[1]));
  EXPECT_TRUE(std::isnan(s[2]));
  EXPECT_EQ(s[3], -1.0f);
  EXPECT_EQ(s[4], 1.0f);
  AOTC_ASSERT_OK_AND_ASSIGN(Literal sign32,
                            EvalOp("s32[3]", "sign", {Vec<kS32>({-5, 0, 7})}));
  EXPECT_THAT(Values<kS32>(sign32), ElementsAre(-1, 0, 1));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal sign_u8,
                            EvalOp("u8[2]", "sign", {Vec<kU8>({0, 9})}));
  EXPECT_THAT(Values<kU8>(sign_u8), ElementsAre(0, 1));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal abs8,
                            EvalOp("s8[3]", "abs", {Vec<kS8>({-128, -5, 5})}));
  EXPECT_THAT(Values<kS8>(abs8), ElementsAre(-128, 5, 5));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal absf, EvalOp("f32[2]", "abs", {Vec<kF32>({-0.0f, -2.5f})}));
  auto af = Values<kF32>(absf);
  EXPECT_FALSE(std::signbit(af[0]));
  EXPECT_EQ(af[1], 2.5f);
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal neg32, EvalOp("s32[2]", "negate", {Vec<kS32>({kMin32, 5})}));
  EXPECT_THAT(Values<kS32>(neg32), ElementsAre(kMin32, -5));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal neg_u32,
                            EvalOp("u32[1]", "negate", {Vec<kU32>({1})}));
  EXPECT_THAT(Values<kU32>(neg_u32), ElementsAre(0xFFFFFFFFu));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal negf,
                            EvalOp("f32[1]", "negate", {Vec<kF32>({0.0f})}));
  EXPECT_TRUE(std::signbit(Values<kF32>(negf)[0]));
}

TEST(ElementwiseTest, LogicalAndBitwise) {
  AOTC_ASSERT_OK_AND_ASSIGN(Literal not32,
                            EvalOp("s32[3]", "not", {Vec<kS32>({0, -1, 5})}));
  EXPECT_THAT(Values<kS32>(not32), ElementsAre(-1, 0, -6));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal not_u8,
                            EvalOp("u8[1]", "not", {Vec<kU8>({0x0F})}));
  EXPECT_THAT(Values<kU8>(not_u8), ElementsAre(0xF0));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal not_pred, EvalOp("pred[2]", "not", {Vec<kPred>({true, false})}));
  EXPECT_THAT(Values<kPred>(not_pred), ElementsAre(false, true));
  Literal x = Vec<kS32>({12});
  Literal y = Vec<kS32>({10});
  AOTC_ASSERT_OK_AND_ASSIGN(Literal and32, EvalOp("s32[1]", "and", {x, y}));
  EXPECT_THAT(Values<kS32>(and32), ElementsAre(8));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal or32, EvalOp("s32[1]", "or", {x, y}));
  EXPECT_THAT(Values<kS32>(or32), ElementsAre(14));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal xor32, EvalOp("s32[1]", "xor", {x, y}));
  EXPECT_THAT(Values<kS32>(xor32), ElementsAre(6));
  Literal p = Vec<kPred>({true, true, false, false});
  Literal q = Vec<kPred>({true, false, true, false});
  AOTC_ASSERT_OK_AND_ASSIGN(Literal pand, EvalOp("pred[4]", "and", {p, q}));
  EXPECT_THAT(Values<kPred>(pand), ElementsAre(true, false, false, false));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal por, EvalOp("pred[4]", "or", {p, q}));
  EXPECT_THAT(Values<kPred>(por), ElementsAre(true, true, true, false));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal pxor, EvalOp("pred[4]", "xor", {p, q}));
  EXPECT_THAT(Values<kPred>(pxor), ElementsAre(false, true, true, false));
  // pred add and multiply are computed in integers and converted back.
  AOTC_ASSERT_OK_AND_ASSIGN(Literal padd, EvalOp("pred[4]", "add", {p, q}));
  EXPECT_THAT(Values<kPred>(padd), ElementsAre(true, true, true, false));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal pmul,
                            EvalOp("pred[4]", "multiply", {p, q}));
  EXPECT_THAT(Values<kPred>(pmul), ElementsAre(true, false, false, false));
}

TEST(ElementwiseTest, SelectAndClamp) {
  Literal on_true = Vec<kS32>({1, 2, 3});
  Literal on_false = Vec<kS32>({10, 20, 30});
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal select,
      EvalOp("s32[3]", "select",
             {Vec<kPred>({true, false, true}), on_true, on_false}));
  EXPECT_THAT(Values<kS32>(select), ElementsAre(1, 20, 3));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal scalar_pred,
      EvalOp("s32[3]", "select", {Scalar<kPred>(false), on_true, on_false}));
  EXPECT_THAT(Values<kS32>(scalar_pred), ElementsAre(10, 20, 30));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal clamp, EvalOp("f32[4]", "clamp",
                            {Scalar<kF32>(0), Vec<kF32>({-1, 0.5f, 2, kNaN}),
                             Scalar<kF32>(1)}));
  auto c = Values<kF32>(clamp);
  EXPECT_EQ(c[0], 0.0f);
  EXPECT_EQ(c[1], 0.5f);
  EXPECT_EQ(c[2], 1.0f);
  EXPECT_TRUE(std::isnan(c[3]));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal clamp32,
      EvalOp("s32[2]", "clamp",
             {Vec<kS32>({0, 5}), Vec<kS32>({-3, 10}), Vec<kS32>({2, 7})}));
  EXPECT_THAT(Values<kS32>(clamp32), ElementsAre(0, 7));
}

TEST(ElementwiseTest, ComplexArithmetic) {
  Literal a = Vec<kC64>({C64(1, 2)});
  Literal b = Vec<kC64>({C64(3, 4)});
  // (1+2i)(3+4i) = 3 + 4i + 6i + 8i^2 = -5 + 10i.
  AOTC_ASSERT_OK_AND_ASSIGN(Literal mul, EvalOp("c64[1]", "multiply", {a, b}));
  EXPECT_EQ(Values<kC64>(mul)[0], C64(-5, 10));
  // (1+2i)/(3+4i) = (1+2i)(3-4i)/25 = (11+2i)/25.
  AOTC_ASSERT_OK_AND_ASSIGN(Literal div, EvalOp("c64[1]", "divide", {a, b}));
  EXPECT_FLOAT_EQ(Values<kC64>(div)[0].real(), 0.44f);
  EXPECT_FLOAT_EQ(Values<kC64>(div)[0].imag(), 0.08f);
  AOTC_ASSERT_OK_AND_ASSIGN(Literal sub, EvalOp("c64[1]", "subtract", {a, b}));
  EXPECT_EQ(Values<kC64>(sub)[0], C64(-2, -2));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal abs, EvalOp("f32[1]", "abs", {b}));
  EXPECT_THAT(Values<kF32>(abs), ElementsAre(5.0f));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal real, EvalOp("f32[1]", "real", {b}));
  EXPECT_THAT(Values<kF32>(real), ElementsAre(3.0f));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal imag, EvalOp("f32[1]", "imag", {b}));
  EXPECT_THAT(Values<kF32>(imag), ElementsAre(4.0f));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal sign, EvalOp("c64[1]", "sign", {b}));
  EXPECT_FLOAT_EQ(Values<kC64>(sign)[0].real(), 0.6f);
  EXPECT_FLOAT_EQ(Values<kC64>(sign)[0].imag(), 0.8f);
  AOTC_ASSERT_OK_AND_ASSIGN(Literal neg, EvalOp("c64[1]", "negate", {a}));
  EXPECT_EQ(Values<kC64>(neg)[0], C64(-1, -2));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal complex,
      EvalOp("c64[2]", "complex", {Vec<kF32>({1, 3}), Vec<kF32>({2, -4})}));
  EXPECT_THAT(Values<kC64>(complex), ElementsAre(C64(1, 2), C64(3, -4)));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal sqrt, EvalOp("c64[1]", "sqrt", {Vec<kC64>({C64(-4, 0)})}));
  EXPECT_NEAR(Values<kC64>(sqrt)[0].real(), 0.0f, 1e-6);
  EXPECT_NEAR(Values<kC64>(sqrt)[0].imag(), 2.0f, 1e-6);
  // e^(i pi) = cos(pi) + i sin(pi) = -1.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal exp,
      EvalOp("c128[1]", "exponential",
             {Vec<kC128>({std::complex<double>(0, std::numbers::pi)})}));
  EXPECT_NEAR(Values<kC128>(exp)[0].real(), -1.0, 1e-12);
  EXPECT_NEAR(Values<kC128>(exp)[0].imag(), 0.0, 1e-12);
  // i^2 = -1; z^0 = 1.
  AOTC_ASSERT_OK_AND_ASSIGN(Literal pow,
                            EvalOp("c64[2]", "power",
                                   {Vec<kC64>({C64(0, 1), C64(5, 7)}),
                                    Vec<kC64>({C64(2, 0), C64(0, 0)})}));
  EXPECT_NEAR(Values<kC64>(pow)[0].real(), -1.0f, 1e-6);
  EXPECT_NEAR(Values<kC64>(pow)[0].imag(), 0.0f, 1e-6);
  EXPECT_EQ(Values<kC64>(pow)[1], C64(1, 0));
}

TEST(ElementwiseTest, ComplexCbrtIsThePrincipalCubeRoot) {
  // cbrt(-8) = 2 e^(i pi/3) = 1 + sqrt(3) i (not the real root -2);
  // cbrt(8i) = 2 e^(i pi/6) = sqrt(3) + i; cbrt(0) = 0.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal cbrt,
      EvalOp("c128[3]", "cbrt",
             {Vec<kC128>({std::complex<double>(-8, 0),
                          std::complex<double>(0, 8),
                          std::complex<double>(0, 0)})}));
  const std::vector<std::complex<double>> r = Values<kC128>(cbrt);
  EXPECT_NEAR(r[0].real(), 1.0, 1e-14);
  EXPECT_NEAR(r[0].imag(), std::sqrt(3.0), 1e-14);
  EXPECT_NEAR(r[1].real(), std::sqrt(3.0), 1e-14);
  EXPECT_NEAR(r[1].imag(), 1.0, 1e-14);
  EXPECT_EQ(r[2], std::complex<double>(0, 0));
}

TEST(ElementwiseTest, RealAndImagOfRealTypes) {
  AOTC_ASSERT_OK_AND_ASSIGN(Literal real,
                            EvalOp("f32[2]", "real", {Vec<kF32>({1.5f, -2})}));
  EXPECT_THAT(Values<kF32>(real), ElementsAre(1.5f, -2.0f));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal imag,
                            EvalOp("f32[2]", "imag", {Vec<kF32>({1.5f, -2})}));
  EXPECT_THAT(Values<kF32>(imag), ElementsAre(0.0f, 0.0f));
}

TEST(ElementwiseTest, UndefinedCombinationsAreLocatedErrors) {
  std::vector<Literal> preds = {Vec<kPred>({true}), Vec<kPred>({false})};
  ExpectEvalError(OpModule("pred[1]", "subtract", preds), preds, "r",
                  "opcode 'subtract' is not defined for element type pred");
  std::vector<Literal> ints = {Vec<kS32>({1})};
  ExpectEvalError(OpModule("s32[1]", "floor", ints), ints, "r",
                  "opcode 'floor' is not defined for element type s32; it "
                  "takes a floating-point type");
  std::vector<Literal> mixed = {Vec<kS32>({1}), Vec<kF32>({1})};
  ExpectEvalError(OpModule("s32[1]", "add", mixed), mixed, "r",
                  "operand 1 of 'add' has element type f32, expected s32");
}

// Every complex function at the extremes (complex_extremes_test_cases.h):
// huge and subnormal parts, both signs of zero on the branch cuts,
// infinities and NaN, each part within its bound in ulps of mpmath's value.
TEST(ElementwiseTest, ComplexFunctionsAtTheExtremes) {
  for (const auto& c : ::aotc::testing::ComplexExtremeCases()) {
    SCOPED_TRACE(::aotc::testing::Describe(c));
    const bool binary = std::string(c.op) == "power";
    std::vector<Literal> args;
    if (c.c64) {
      args.push_back(Vec<kC64>({C64(static_cast<float>(c.x),
                                    static_cast<float>(c.y))}));
      if (binary) {
        args.push_back(Vec<kC64>({C64(static_cast<float>(c.u),
                                      static_cast<float>(c.v))}));
      }
    } else {
      args.push_back(Vec<kC128>({std::complex<double>(c.x, c.y)}));
      if (binary) args.push_back(Vec<kC128>({std::complex<double>(c.u, c.v)}));
    }
    AOTC_ASSERT_OK_AND_ASSIGN(
        Literal r, EvalOp(c.c64 ? "c64[1]" : "c128[1]", c.op, std::move(args)));
    const std::complex<double> got =
        c.c64 ? std::complex<double>(Values<kC64>(r)[0])
              : Values<kC128>(r)[0];
    EXPECT_LE(::aotc::testing::CaseUlps(c, got.real(), c.re), c.ulps)
        << "real part " << got.real() << ", expected " << c.re;
    EXPECT_LE(::aotc::testing::CaseUlps(c, got.imag(), c.im), c.ulps)
        << "imaginary part " << got.imag() << ", expected " << c.im;
  }
}

}  // namespace
}  // namespace aotc
