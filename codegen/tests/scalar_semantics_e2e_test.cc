// End-to-end tests of the scalar semantics code generation shares with the
// reference evaluator (docs/evaluator.md): integer division by zero and
// overflow, shifts past the bit width, NaN-propagating maximum and minimum,
// total-order compares, pred arithmetic, saturating and rounding converts,
// bit-exact bitcast-converts. Each compiles a small module for this host,
// runs it and checks values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "codegen/tests/codegen_test_util.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

TEST(ScalarSemanticsE2eTest, IntegerDivisionEdgeCases) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = s32[5] parameter(0)
  b = s32[5] parameter(1)
  q = s32[5] divide(a, b)
  r = s32[5] remainder(a, b)
  ROOT t = (s32[5], s32[5]) tuple(q, r)
})";
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  auto results = CompileAndRun(
      hlo, {Vec<P::kS32>({7, -7, 5, kMin, kMin}), Vec<P::kS32>({2, 2, 0, -1, 0})});
  ASSERT_TRUE(results.ok()) << results.status();
  // Truncating division; x / 0 = -1; INT_MIN / -1 = INT_MIN.
  EXPECT_EQ(Values<P::kS32>((*results)[0]),
            (std::vector<int32_t>{3, -3, -1, kMin, -1}));
  // Sign of the dividend; x % 0 = x; INT_MIN % -1 = 0.
  EXPECT_EQ(Values<P::kS32>((*results)[1]),
            (std::vector<int32_t>{1, -1, 5, 0, kMin}));
}

TEST(ScalarSemanticsE2eTest, UnsignedDivisionAndShifts) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = u8[4] parameter(0)
  b = u8[4] parameter(1)
  q = u8[4] divide(a, b)
  l = u8[4] shift-left(a, b)
  s = u8[4] shift-right-logical(a, b)
  ROOT t = (u8[4], u8[4], u8[4]) tuple(q, l, s)
})";
  auto results = CompileAndRun(
      hlo, {Vec<P::kU8>({200, 9, 255, 128}), Vec<P::kU8>({0, 2, 8, 7})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kU8>((*results)[0]),
            (std::vector<uint8_t>{255, 4, 31, 18}));
  // 200 << 0 = 200; 9 << 2 = 36; shifting by >= 8 gives 0; 128 << 7 wraps.
  EXPECT_EQ(Values<P::kU8>((*results)[1]), (std::vector<uint8_t>{200, 36, 0, 0}));
  EXPECT_EQ(Values<P::kU8>((*results)[2]), (std::vector<uint8_t>{200, 2, 0, 1}));
}

TEST(ScalarSemanticsE2eTest, ArithmeticShiftRightFillsWithSign) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = s16[3] parameter(0)
  b = s16[3] parameter(1)
  ROOT s = s16[3] shift-right-arithmetic(a, b)
})";
  auto results = CompileAndRun(
      hlo, {Vec<P::kS16>({-8, -8, 100}), Vec<P::kS16>({1, 16, 40})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kS16>((*results)[0]), (std::vector<int16_t>{-4, -1, 0}));
}

TEST(ScalarSemanticsE2eTest, MaxMinCompareWithNanAndInf) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  mx = f32[4] maximum(a, b)
  mn = f32[4] minimum(a, b)
  lt = pred[4] compare(a, b), direction=LT
  ne = pred[4] compare(a, b), direction=NE
  ROOT t = (f32[4], f32[4], pred[4], pred[4]) tuple(mx, mn, lt, ne)
})";
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  auto results = CompileAndRun(
      hlo, {Vec<P::kF32>({nan, 1, -inf, -0.0f}), Vec<P::kF32>({1, nan, 2, 0.0f})});
  ASSERT_TRUE(results.ok()) << results.status();
  std::vector<float> mx = Values<P::kF32>((*results)[0]);
  std::vector<float> mn = Values<P::kF32>((*results)[1]);
  EXPECT_TRUE(std::isnan(mx[0]) && std::isnan(mx[1]));
  EXPECT_TRUE(std::isnan(mn[0]) && std::isnan(mn[1]));
  EXPECT_EQ(mx[2], 2.0f);
  EXPECT_EQ(mn[2], -inf);
  // max(-0, +0) = +0 and min(-0, +0) = -0.
  EXPECT_FALSE(std::signbit(mx[3]));
  EXPECT_TRUE(std::signbit(mn[3]));
  // Ordered compares with NaN are false; NE is true.
  EXPECT_EQ(Values<P::kPred>((*results)[2]),
            (std::vector<bool>{false, false, true, false}));
  EXPECT_EQ(Values<P::kPred>((*results)[3]),
            (std::vector<bool>{true, true, true, false}));
}

TEST(ScalarSemanticsE2eTest, TotalOrderCompare) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = f32[3] parameter(0)
  b = f32[3] parameter(1)
  ROOT lt = pred[3] compare(a, b), direction=LT, type=TOTALORDER
})";
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  auto results = CompileAndRun(
      hlo, {Vec<P::kF32>({-0.0f, inf, -nan}), Vec<P::kF32>({0.0f, nan, -inf})});
  ASSERT_TRUE(results.ok()) << results.status();
  // -0 < +0; inf < NaN; -NaN < -inf.
  EXPECT_EQ(Values<P::kPred>((*results)[0]), (std::vector<bool>{true, true, true}));
}

TEST(ScalarSemanticsE2eTest, PredArithmeticAndNot) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = pred[4] parameter(0)
  b = pred[4] parameter(1)
  x = pred[4] xor(a, b)
  n = pred[4] not(x)
  s = pred[4] add(a, b)
  ROOT t = (pred[4], pred[4]) tuple(n, s)
})";
  auto results = CompileAndRun(hlo, {Vec<P::kPred>({false, false, true, true}),
                                     Vec<P::kPred>({false, true, false, true})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kPred>((*results)[0]),
            (std::vector<bool>{true, false, false, true}));
  EXPECT_EQ(Values<P::kPred>((*results)[1]),
            (std::vector<bool>{false, true, true, true}));
}

TEST(ScalarSemanticsE2eTest, ConvertSaturatesAndRoundsHalf) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  i = s8[4] convert(x)
  h = f16[4] convert(x)
  ROOT t = (s8[4], f16[4]) tuple(i, h)
})";
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // 1 + 2^-11 is halfway between f16 neighbours 1 and 1 + 2^-10: ties to even.
  const float tie = 1.0f + std::ldexp(1.0f, -11);
  auto results = CompileAndRun(hlo, {Vec<P::kF32>({300.0f, -2.9f, nan, tie})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kS8>((*results)[0]), (std::vector<int8_t>{127, -2, 0, 1}));
  std::vector<Half> h = Values<P::kF16>((*results)[1]);
  EXPECT_EQ(h[0].bits, 0x5CB0);  // 300 = 1.171875 * 2^8
  EXPECT_EQ(h[3].bits, 0x3C00);  // 1.0
}

TEST(ScalarSemanticsE2eTest, BitcastConvertKeepsEveryBit) {
  // 0xFFFF and 0xFFF8 are NaNs as f16 and as bf16; a chain of
  // bitcast-converts must give back the same bits.
  const char* hlo = R"(
HloModule m
ENTRY e {
  p = s16[3] parameter(0)
  b = bf16[3] bitcast-convert(p)
  u = u16[3] bitcast-convert(b)
  h = f16[3] bitcast-convert(u)
  ROOT s = s16[3] bitcast-convert(h)
})";
  auto results = CompileAndRun(hlo, {Vec<P::kS16>({-1, -8, 12345})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kS16>((*results)[0]), (std::vector<int16_t>{-1, -8, 12345}));
}

}  // namespace
}  // namespace aotc::codegen::testing
