// Tests of the evaluator's type-changing kernels through HLO text: convert
// (wrapping, saturation, NaN -> 0, single rounding to f16 / bf16),
// bitcast-convert (bit patterns worked out by hand, width-changing forms),
// reduce-precision, and the rounding of f16 / bf16 arithmetic.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

#include "compiler/evaluator/evaluator_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using ::aotc::testing::EvalOp;
using ::aotc::testing::ExpectEvalError;
using ::aotc::testing::HalfValues;
using ::aotc::testing::HalfVec;
using ::aotc::testing::MakeArray;
using ::aotc::testing::OpModule;
using ::aotc::testing::Values;
using ::aotc::testing::Vec;
using ::testing::ElementsAre;

constexpr PrimitiveType kPred = PrimitiveType::kPred;
constexpr PrimitiveType kS8 = PrimitiveType::kS8;
constexpr PrimitiveType kS32 = PrimitiveType::kS32;
constexpr PrimitiveType kS64 = PrimitiveType::kS64;
constexpr PrimitiveType kU8 = PrimitiveType::kU8;
constexpr PrimitiveType kU16 = PrimitiveType::kU16;
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

TEST(ConvertTest, FloatToIntegerSaturatesAndMapsNaNToZero) {
  // 2147483520 is the largest float below 2^31.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s32, EvalOp("s32[8]", "convert",
                          {Vec<kF32>({kNaN, 3e9f, -3e9f, 2.9f, -2.9f, kInf,
                                      -kInf, 2147483520.0f})}));
  EXPECT_THAT(Values<kS32>(s32), ElementsAre(0, kMax32, kMin32, 2, -2, kMax32,
                                             kMin32, 2147483520));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal u8,
      EvalOp("u8[5]", "convert", {Vec<kF32>({-1, 300, 255.9f, kNaN, -0.5f})}));
  EXPECT_THAT(Values<kU8>(u8), ElementsAre(0, 255, 255, 0, 0));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s64, EvalOp("s64[2]", "convert", {Vec<kF32>({9.3e18f, -1e19f})}));
  EXPECT_THAT(Values<kS64>(s64),
              ElementsAre(std::numeric_limits<int64_t>::max(),
                          std::numeric_limits<int64_t>::min()));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal u64, EvalOp("u64[2]", "convert", {Vec<kF64>({1.8e19, 2e19})}));
  EXPECT_THAT(
      Values<kU64>(u64),
      ElementsAre(18000000000000000000u, std::numeric_limits<uint64_t>::max()));
}

TEST(ConvertTest, IntegerToIntegerWraps) {
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s8,
      EvalOp("s8[4]", "convert", {Vec<kS32>({200, -129, 256, -1})}));
  EXPECT_THAT(Values<kS8>(s8), ElementsAre(-56, 127, 0, -1));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s32,
      EvalOp("s32[2]", "convert", {Vec<kU32>({0xFFFFFFFFu, 0x80000000u})}));
  EXPECT_THAT(Values<kS32>(s32), ElementsAre(-1, kMin32));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal u32,
                            EvalOp("u32[1]", "convert", {Vec<kS8>({-1})}));
  EXPECT_THAT(Values<kU32>(u32), ElementsAre(0xFFFFFFFFu));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal s64,
                            EvalOp("s64[1]", "convert", {Vec<kS8>({-5})}));
  EXPECT_THAT(Values<kS64>(s64), ElementsAre(-5));
}

TEST(ConvertTest, PredConversions) {
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal from_int, EvalOp("pred[3]", "convert", {Vec<kS32>({0, 5, -1})}));
  EXPECT_THAT(Values<kPred>(from_int), ElementsAre(false, true, true));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal from_float,
      EvalOp("pred[4]", "convert", {Vec<kF32>({0, -0.0f, kNaN, 0.5f})}));
  EXPECT_THAT(Values<kPred>(from_float), ElementsAre(false, false, true, true));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal to_float,
      EvalOp("f32[2]", "convert", {Vec<kPred>({true, false})}));
  EXPECT_THAT(Values<kF32>(to_float), ElementsAre(1.0f, 0.0f));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal to_int,
                            EvalOp("s32[1]", "convert", {Vec<kPred>({true})}));
  EXPECT_THAT(Values<kS32>(to_int), ElementsAre(1));
}

TEST(ConvertTest, ComplexConversions) {
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal real,
      EvalOp("f32[1]", "convert", {Vec<kC64>({std::complex<float>(3, 4)})}));
  EXPECT_THAT(Values<kF32>(real), ElementsAre(3.0f));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal complex,
                            EvalOp("c64[1]", "convert", {Vec<kF32>({2})}));
  EXPECT_THAT(Values<kC64>(complex), ElementsAre(std::complex<float>(2, 0)));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal wide, EvalOp("c128[1]", "convert",
                           {Vec<kC64>({std::complex<float>(1.5f, -2.5f)})}));
  EXPECT_THAT(Values<kC128>(wide),
              ElementsAre(std::complex<double>(1.5, -2.5)));
}

TEST(ConvertTest, FloatNarrowingRoundsOnceToNearestEven) {
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal f32,
      EvalOp("f32[1]", "convert", {Vec<kF64>({1 + std::ldexp(1.0, -30)})}));
  EXPECT_THAT(Values<kF32>(f32), ElementsAre(1.0f));
  // 1 + 2^-11 + 2^-40 is just above the midpoint of 1 and 1 + 2^-10, so it
  // rounds up; rounding through f32 first would lose 2^-40 and round to 1.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal f16,
      EvalOp("f16[1]", "convert",
             {Vec<kF64>({1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)})}));
  EXPECT_THAT(HalfValues<kF16>(f16), ElementsAre(1.0009765625f));
  // f16 ties go to even; 65520 is the midpoint of 65504 and 2^16 and
  // overflows; 1e-8 is below half the smallest subnormal 2^-24.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal ties, EvalOp("f16[5]", "convert",
                           {Vec<kF32>({2049, 2051, 65519, 65520, 1e-8f})}));
  EXPECT_THAT(HalfValues<kF16>(ties), ElementsAre(2048, 2052, 65504, kInf, 0));
  // bf16 keeps 7 mantissa bits: 1 + 2^-8 ties down, 1 + 3 * 2^-8 ties up.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal bf16, EvalOp("bf16[2]", "convert",
                           {Vec<kF32>({1 + std::ldexp(1.0f, -8),
                                       1 + 3 * std::ldexp(1.0f, -8)})}));
  EXPECT_THAT(HalfValues<kBF16>(bf16),
              ElementsAre(1.0f, 1 + std::ldexp(1.0f, -6)));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal widen, EvalOp("f32[1]", "convert", {HalfVec<kF16>({65504})}));
  EXPECT_THAT(Values<kF32>(widen), ElementsAre(65504.0f));
}

TEST(ConvertTest, IntegerToFloatRoundsOnce) {
  // 2^60 + 2^52 + 1 lies just above the bf16 midpoint 2^60 (1 + 2^-8), so it
  // rounds up to 2^60 (1 + 2^-7); rounding through double first would drop
  // the 1 and tie down to 2^60.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal bf16,
      EvalOp("bf16[1]", "convert",
             {Vec<kS64>({(int64_t{1} << 60) + (int64_t{1} << 52) + 1})}));
  EXPECT_THAT(HalfValues<kBF16>(bf16),
              ElementsAre(std::ldexp(1.0f + 1.0f / 128, 60)));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal f16,
      EvalOp("f16[3]", "convert", {Vec<kS32>({2049, 2051, 70000})}));
  EXPECT_THAT(HalfValues<kF16>(f16), ElementsAre(2048, 2052, kInf));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal f32, EvalOp("f32[2]", "convert",
                          {Vec<kU64>({std::numeric_limits<uint64_t>::max(),
                                      uint64_t{1} << 63})}));
  EXPECT_THAT(Values<kF32>(f32),
              ElementsAre(std::ldexp(1.0f, 64), std::ldexp(1.0f, 63)));
}

TEST(ConvertTest, HalfArithmeticRoundsEveryResult) {
  // f16 has 11 significant bits: 2049 ties to 2048, 2051 to 2052.
  AOTC_ASSERT_OK_AND_ASSIGN(Literal f16, EvalOp("f16[2]", "add",
                                                {HalfVec<kF16>({2048, 2048}),
                                                 HalfVec<kF16>({1, 3})}));
  EXPECT_THAT(HalfValues<kF16>(f16), ElementsAre(2048, 2052));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal overflow, EvalOp("f16[1]", "multiply",
                               {HalfVec<kF16>({300}), HalfVec<kF16>({300})}));
  EXPECT_THAT(HalfValues<kF16>(overflow), ElementsAre(kInf));
  // bf16 has 8 significant bits: 257 ties to 256, 259 to 260.
  AOTC_ASSERT_OK_AND_ASSIGN(Literal bf16, EvalOp("bf16[2]", "add",
                                                 {HalfVec<kBF16>({256, 256}),
                                                  HalfVec<kBF16>({1, 3})}));
  EXPECT_THAT(HalfValues<kBF16>(bf16), ElementsAre(256, 260));
}

TEST(BitcastConvertTest, SameWidthReinterpretsBits) {
  AOTC_ASSERT_OK_AND_ASSIGN(Literal u32,
                            EvalOp("u32[4]", "bitcast-convert",
                                   {Vec<kF32>({1.0f, -2.0f, 0.0f, -0.0f})}));
  EXPECT_THAT(Values<kU32>(u32),
              ElementsAre(0x3F800000u, 0xC0000000u, 0u, 0x80000000u));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal f32,
                            EvalOp("f32[2]", "bitcast-convert",
                                   {Vec<kU32>({0x7FC00000u, 0x3F000000u})}));
  EXPECT_TRUE(std::isnan(Values<kF32>(f32)[0]));
  EXPECT_EQ(Values<kF32>(f32)[1], 0.5f);
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal s32_u32, EvalOp("u32[1]", "bitcast-convert", {Vec<kS32>({-1})}));
  EXPECT_THAT(Values<kU32>(s32_u32), ElementsAre(0xFFFFFFFFu));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal f16, EvalOp("u16[1]", "bitcast-convert",
                                                {HalfVec<kF16>({1.0f})}));
  EXPECT_THAT(Values<kU16>(f16), ElementsAre(0x3C00));
  AOTC_ASSERT_OK_AND_ASSIGN(Literal bf16, EvalOp("u16[1]", "bitcast-convert",
                                                 {HalfVec<kBF16>({1.0f})}));
  EXPECT_THAT(Values<kU16>(bf16), ElementsAre(0x3F80));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal pred, EvalOp("pred[2]", "bitcast-convert", {Vec<kU8>({0, 2})}));
  EXPECT_THAT(Values<kPred>(pred), ElementsAre(false, true));
}

TEST(BitcastConvertTest, WidthChangeAddsOrRemovesMinorDimension) {
  // 1.0f = 0x3F800000, least significant byte first.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal bytes, EvalOp("u8[1,4]", "bitcast-convert", {Vec<kF32>({1.0f})}));
  EXPECT_THAT(Values<kU8>(bytes), ElementsAre(0x00, 0x00, 0x80, 0x3F));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal u16, EvalOp("u16[2]", "bitcast-convert",
                          {MakeArray<kU8>({2, 2}, {0x34, 0x12, 0xFF, 0x00})}));
  EXPECT_THAT(Values<kU16>(u16), ElementsAre(0x1234, 0x00FF));
  std::vector<Literal> args = {Vec<kF32>({1, 2})};
  ExpectEvalError(OpModule("u32[3]", "bitcast-convert", args), args, "r",
                  "bitcast-convert from f32[2] to u32[3] changes the size in "
                  "bytes");
}

TEST(ReducePrecisionTest, BFloat16LikeRounding) {
  const float max_float = std::numeric_limits<float>::max();
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal r,
      EvalOp("f32[7]", "reduce-precision",
             {Vec<kF32>({1 + std::ldexp(1.0f, -8), 1 + 3 * std::ldexp(1.0f, -8),
                         1 + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20), kNaN,
                         kInf, max_float, -1.5f})},
             ", exponent_bits=8, mantissa_bits=7"));
  auto v = Values<kF32>(r);
  EXPECT_EQ(v[0], 1.0f);
  EXPECT_EQ(v[1], 1 + std::ldexp(1.0f, -6));
  EXPECT_EQ(v[2], 1 + std::ldexp(1.0f, -7));
  EXPECT_TRUE(std::isnan(v[3]));
  EXPECT_EQ(v[4], kInf);
  EXPECT_EQ(v[5], kInf);  // all-ones mantissa rounds up past the top exponent
  EXPECT_EQ(v[6], -1.5f);
}

TEST(ReducePrecisionTest, HalfLikeRangeOverflowsAndFlushes) {
  // Reduced exponents above 15 overflow; at or below -15 (denormals of the
  // reduced format) flush to signed zero.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal r, EvalOp("f32[5]", "reduce-precision",
                        {Vec<kF32>({65504, 65520, std::ldexp(1.0f, -14),
                                    std::ldexp(1.0f, -15), -1e-5f})},
                        ", exponent_bits=5, mantissa_bits=10"));
  auto v = Values<kF32>(r);
  EXPECT_EQ(v[0], 65504.0f);
  EXPECT_EQ(v[1], kInf);
  EXPECT_EQ(v[2], std::ldexp(1.0f, -14));
  EXPECT_EQ(v[3], 0.0f);
  EXPECT_EQ(v[4], 0.0f);
  EXPECT_TRUE(std::signbit(v[4]));
}

TEST(ReducePrecisionTest, NoMantissaBitsAndOtherTypes) {
  // With no mantissa bits the exponent's lowest bit decides ties: 3 = 1.5 *
  // 2^1 ties to 2, 6 = 1.5 * 2^2 ties to 8; NaN becomes +inf.
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal r, EvalOp("f32[3]", "reduce-precision", {Vec<kF32>({kNaN, 3, 6})},
                        ", exponent_bits=8, mantissa_bits=0"));
  EXPECT_THAT(Values<kF32>(r), ElementsAre(kInf, 2.0f, 8.0f));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal f64, EvalOp("f64[3]", "reduce-precision",
                          {Vec<kF64>({1 + std::ldexp(1.0, -8), 1e39, 1e-39})},
                          ", exponent_bits=8, mantissa_bits=7"));
  EXPECT_THAT(Values<kF64>(f64),
              ElementsAre(1.0, std::numeric_limits<double>::infinity(), 0.0));
  AOTC_ASSERT_OK_AND_ASSIGN(
      Literal bf16,
      EvalOp("bf16[2]", "reduce-precision", {HalfVec<kBF16>({65536, 1})},
             ", exponent_bits=5, mantissa_bits=7"));
  EXPECT_THAT(HalfValues<kBF16>(bf16), ElementsAre(kInf, 1.0f));
}

}  // namespace
}  // namespace aotc
