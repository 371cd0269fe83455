// The evaluator on narrow element types (narrow.h), against values worked
// out by hand: sub-byte integer wrap-around and the operations that read
// bits above the width, conversions, and minifloat rounding.
#include "compiler/evaluator/narrow.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/evaluator/evaluator_test_util.h"
#include "compiler/ir/minifloat.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::EvalText;

// The stored bytes of an array result, as signed values (sub-byte integers
// are stored sign- or zero-extended).
std::vector<int> Bytes(const Literal& r, bool is_signed) {
  std::vector<int> out;
  for (int64_t i = 0; i < r.raw_size(); ++i) {
    out.push_back(is_signed ? static_cast<int8_t>(r.raw()[i]) : r.raw()[i]);
  }
  return out;
}

// Evaluates `ROOT r = <expr>` after the given constant definitions.
absl::StatusOr<Literal> Eval(const std::string& body) {
  return EvalText(absl::StrCat("HloModule m\n\nENTRY e {\n", body, "\n}\n"));
}

std::vector<int> EvalBytes(const std::string& body, bool is_signed = true) {
  absl::StatusOr<Literal> r = Eval(body);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return {};
  return Bytes(*r, is_signed);
}

TEST(NarrowEvalTest, SubByteArithmeticWraps) {
  // s4 holds -8..7: 7 + 1 = 8 wraps to -8, -8 - 1 to 7, 3 + 4 = 7.
  EXPECT_EQ(EvalBytes("a = s4[3] constant({7, -8, 3})\n"
                      "b = s4[3] constant({1, 1, 4})\n"
                      "ROOT r = s4[3] add(a, b)"),
            (std::vector<int>{-8, -7, 7}));
  EXPECT_EQ(EvalBytes("a = s4[2] constant({-8, 7})\n"
                      "b = s4[2] constant({1, -1})\n"
                      "ROOT r = s4[2] subtract(a, b)"),
            (std::vector<int>{7, -8}));
  // u4: 15 + 1 = 16 = 0 (mod 16); 3 * 6 = 18 = 2; u2: 3 + 3 = 6 = 2 (mod 4).
  EXPECT_EQ(EvalBytes("a = u4[2] constant({15, 3})\n"
                      "b = u4[2] constant({1, 6})\n"
                      "ROOT r = u4[2] multiply(a, b)",
                      false),
            (std::vector<int>{15, 2}));
  EXPECT_EQ(EvalBytes("a = u2[2] constant({3, 1})\n"
                      "ROOT r = u2[2] add(a, a)",
                      false),
            (std::vector<int>{2, 2}));
  // negate(-8) = 8 wraps to -8, as in two's complement at 4 bits.
  EXPECT_EQ(EvalBytes("a = s4[2] constant({-8, 3})\nROOT r = s4[2] negate(a)"),
            (std::vector<int>{-8, -3}));
}

TEST(NarrowEvalTest, DivisionSpecialCases) {
  // INT_MIN / -1 = INT_MIN (-8); x / 0 = -1 for signed, the maximum (15) for
  // unsigned; 7 / -2 = -3 (toward zero).
  EXPECT_EQ(EvalBytes("a = s4[3] constant({-8, 5, 7})\n"
                      "b = s4[3] constant({-1, 0, -2})\n"
                      "ROOT r = s4[3] divide(a, b)"),
            (std::vector<int>{-8, -1, -3}));
  EXPECT_EQ(EvalBytes("a = u4[1] constant({9})\nb = u4[1] constant({0})\n"
                      "ROOT r = u4[1] divide(a, b)",
                      false),
            (std::vector<int>{15}));
}

TEST(NarrowEvalTest, OperationsThatReadHighBits) {
  // s4 -1 is 1111: logical right shift by 1 gives 0111 = 7 (not -1).
  EXPECT_EQ(
      EvalBytes("a = s4[2] constant({-1, -8})\nb = s4[2] constant({1, 3})\n"
                "ROOT r = s4[2] shift-right-logical(a, b)"),
      (std::vector<int>{7, 1}));
  // u4 8 is 1000: arithmetic right shift by 1 gives 1100 = 12.
  EXPECT_EQ(EvalBytes("a = u4[1] constant({8})\nb = u4[1] constant({1})\n"
                      "ROOT r = u4[1] shift-right-arithmetic(a, b)",
                      false),
            (std::vector<int>{12}));
  // Shifts by the width or more: 0, or the sign for arithmetic shifts.
  EXPECT_EQ(
      EvalBytes("a = s4[2] constant({5, -5})\nb = s4[2] constant({4, 6})\n"
                "ROOT r = s4[2] shift-right-arithmetic(a, b)"),
      (std::vector<int>{0, -1}));
  EXPECT_EQ(EvalBytes("a = s4[1] constant({3})\nb = s4[1] constant({5})\n"
                      "ROOT r = s4[1] shift-left(a, b)"),
            (std::vector<int>{0}));
  // popcnt(1111) = 4; popcnt(u2 3) = 2, which as u2 is 2.
  EXPECT_EQ(EvalBytes("a = s4[2] constant({-1, 5})\nROOT r = s4[2] popcnt(a)"),
            (std::vector<int>{4, 2}));
  // clz at 4 bits: 0001 -> 3, 0000 -> 4, 1000 -> 0.
  EXPECT_EQ(EvalBytes("a = u4[3] constant({1, 0, 8})\n"
                      "ROOT r = u4[3] count-leading-zeros(a)",
                      false),
            (std::vector<int>{3, 4, 0}));
  // UNSIGNED compare reads s4 -1 as 15 > 1; SIGNED reads u4 15 as -1 < 1.
  EXPECT_EQ(
      EvalBytes("a = s4[1] constant({-1})\nb = s4[1] constant({1})\n"
                "ROOT r = pred[1] compare(a, b), direction=GT, type=UNSIGNED"),
      (std::vector<int>{1}));
  EXPECT_EQ(
      EvalBytes("a = u4[1] constant({15})\nb = u4[1] constant({1})\n"
                "ROOT r = pred[1] compare(a, b), direction=LT, type=SIGNED"),
      (std::vector<int>{1}));
  EXPECT_EQ(EvalBytes("a = s4[1] constant({-1})\nb = s4[1] constant({1})\n"
                      "ROOT r = pred[1] compare(a, b), direction=GT"),
            (std::vector<int>{0}));
}

TEST(NarrowEvalTest, SubByteConversions) {
  // float -> s4 truncates toward zero and saturates; NaN -> 0.
  EXPECT_EQ(EvalBytes("a = f32[6] constant({100, -100, nan, 3.7, -3.7, 7.9})\n"
                      "ROOT r = s4[6] convert(a)"),
            (std::vector<int>{7, -8, 0, 3, -3, 7}));
  EXPECT_EQ(
      EvalBytes("a = f32[3] constant({-1, 20, 2.5})\nROOT r = u2[3] convert(a)",
                false),
      (std::vector<int>{0, 3, 2}));
  // Integers wrap: 9 = 1001 is -7 in s4; -1 is 15 in u4; u4 15 is s8 15;
  // s4 -8 is s32 -8.
  EXPECT_EQ(
      EvalBytes("a = s32[2] constant({9, -1})\nROOT r = s4[2] convert(a)"),
      (std::vector<int>{-7, -1}));
  EXPECT_EQ(
      EvalBytes("a = s32[1] constant({-1})\nROOT r = u4[1] convert(a)", false),
      (std::vector<int>{15}));
  absl::StatusOr<Literal> r =
      Eval("a = s4[2] constant({-8, 7})\nROOT r = s32[2] convert(a)");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(testing::Values<PrimitiveType::kS32>(*r),
            (std::vector<int32_t>{-8, 7}));
  // s4 -> u4 keeps the bits: -3 = 1101 = 13.
  EXPECT_EQ(
      EvalBytes("a = s4[1] constant({-3})\nROOT r = u4[1] convert(a)", false),
      (std::vector<int>{13}));
  // bitcast-convert u4 -> s4 re-reads 1111 as -1.
  EXPECT_EQ(
      EvalBytes("a = u4[1] constant({15})\nROOT r = s4[1] bitcast-convert(a)"),
      (std::vector<int>{-1}));
  // iota wraps: u2 counts 0 1 2 3 0 1.
  EXPECT_EQ(EvalBytes("ROOT r = u2[6] iota(), iota_dimension=0", false),
            (std::vector<int>{0, 1, 2, 3, 0, 1}));
}

TEST(NarrowEvalTest, ReduceAndDotWrap) {
  // 7 + 7 + 7 = 21 = 5 (mod 16), the reducer wrapping at each step.
  absl::StatusOr<Literal> r = EvalText(R"(HloModule m
add {
  x = s4[] parameter(0)
  y = s4[] parameter(1)
  ROOT s = s4[] add(x, y)
}
ENTRY e {
  a = s4[3] constant({7, 7, 7})
  z = s4[] constant(0)
  ROOT r = s4[] reduce(a, z), dimensions={0}, to_apply=add
})");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Bytes(*r, true), (std::vector<int>{5}));
  // 7*7 + 7*7 = 98 = 6*16 + 2.
  EXPECT_EQ(
      EvalBytes(
          "a = s4[1,2] constant({{7, 7}})\nb = s4[2,1] constant({{7}, {7}})\n"
          "ROOT r = s4[1,1] dot(a, b), lhs_contracting_dims={1}, "
          "rhs_contracting_dims={0}"),
      (std::vector<int>{2}));
  // u4 operands, u8 result: 15*15 + 15*15 = 450 = 194 (mod 256).
  EXPECT_EQ(EvalBytes("a = u4[2] constant({15, 15})\n"
                      "ROOT r = u8[] dot(a, a), lhs_contracting_dims={0}, "
                      "rhs_contracting_dims={0}",
                      false),
            (std::vector<int>{194}));
}

TEST(NarrowEvalTest, MinifloatArithmeticRoundsEachResult) {
  // f8e4m3fn: 448 + 32 = 480 rounds past the largest (448) to NaN, 0x7f;
  // 1 + 0.0625 is halfway between 1 (0x38) and 1.125 (0x39): even, 0x38;
  // 1 + 0.1875 = 1.1875 is halfway between 1.125 (0x39) and 1.25 (0x3a):
  // even again, 0x3a.
  EXPECT_EQ(EvalBytes("a = f8e4m3fn[3] constant({448, 1, 1})\n"
                      "b = f8e4m3fn[3] constant({32, 0.0625, 0.1875})\n"
                      "ROOT r = f8e4m3fn[3] add(a, b)",
                      false),
            (std::vector<int>{0x7f, 0x38, 0x3a}));
  // f8e4m3fnuz has no negative zero: -(0) is +0.
  EXPECT_EQ(EvalBytes("a = f8e4m3fnuz[1] constant({0})\n"
                      "ROOT r = f8e4m3fnuz[1] negate(a)",
                      false),
            (std::vector<int>{0}));
  // f8e5m2: 57344 * 2 overflows to inf (0x7c); compare sees the values.
  EXPECT_EQ(EvalBytes("a = f8e5m2[1] constant({57344})\n"
                      "ROOT r = f8e5m2[1] add(a, a)",
                      false),
            (std::vector<int>{0x7c}));
  EXPECT_EQ(EvalBytes("a = f8e5m2[2] constant({1.5, 2})\n"
                      "b = f8e5m2[2] constant({1.5, 1})\n"
                      "ROOT r = pred[2] compare(a, b), direction=GT",
                      false),
            (std::vector<int>{0, 1}));
}

TEST(NarrowEvalTest, MinifloatConversions) {
  // f32 -> f8e5m2 -> f8e4m3fn: 3.3 -> 3.5 (0x43: 2^1 * 1.75) -> 3.5 (0x46);
  // 57344 (0x7b) overflows e4m3fn: NaN 0x7f.
  EXPECT_EQ(EvalBytes("a = f32[2] constant({3.3, 57344})\n"
                      "b = f8e5m2[2] convert(a)\n"
                      "ROOT r = f8e4m3fn[2] convert(b)",
                      false),
            (std::vector<int>{0x46, 0x7f}));
  // f8e4m3fn -> s32 truncates: 3.5 -> 3, -448 -> -448.
  absl::StatusOr<Literal> r =
      Eval("a = f8e4m3fn[2] constant({3.5, -448})\nROOT r = s32[2] convert(a)");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(testing::Values<PrimitiveType::kS32>(*r),
            (std::vector<int32_t>{3, -448}));
  // s32 -> f4e2m1fn: 5 ties to 4 (0x6), 9 saturates to 6 (0x7), -1 = 0xa.
  EXPECT_EQ(EvalBytes("a = s32[3] constant({5, 9, -1})\n"
                      "ROOT r = f4e2m1fn[3] convert(a)",
                      false),
            (std::vector<int>{0x6, 0x7, 0xa}));
  // f8 -> bf16 is exact: e4m3fn 448 = bf16 448.
  r = Eval("a = f8e4m3fn[1] constant({448})\nROOT r = bf16[1] convert(a)");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(testing::HalfValues<PrimitiveType::kBF16>(*r),
            (std::vector<float>{448}));
  // reduce-precision is defined on f16..f64 bits only.
  EXPECT_FALSE(Eval("a = f8e5m2[1] constant({1})\n"
                    "ROOT r = f8e5m2[1] reduce-precision(a), exponent_bits=2, "
                    "mantissa_bits=1")
                   .ok());
}

}  // namespace
}  // namespace aotc
