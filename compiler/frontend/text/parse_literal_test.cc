// Tests of constant literals in HLO text: values of every element type,
// checked as raw bits worked out by hand from each format's encoding.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

// Parses `ROOT c = <shape> constant(<literal>)` and returns the literal.
Literal ParseConstant(std::string_view shape, std::string_view literal) {
  std::string text =
      absl::StrCat("HloModule m\nENTRY e {\n  ROOT c = ", Sv(shape),
                   " constant(", Sv(literal), ")\n}\n");
  auto m = ParseHloText(text, "t.hlo");
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (!m.ok()) return Literal();
  return (*m)->entry()->root()->literal();
}

// The element bytes of an array literal, little-endian per element.
template <typename T>
std::vector<T> Values(const Literal& l) {
  std::vector<T> out(l.raw_size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), l.raw(), l.raw_size());
  return out;
}

TEST(ParseLiteralTest, Integers) {
  EXPECT_EQ(
      Values<int32_t>(ParseConstant("s32[2,3]", "{ {1, 2, 3}, {4, 5, -6} }")),
      (std::vector<int32_t>{1, 2, 3, 4, 5, -6}));
  EXPECT_EQ(Values<int8_t>(ParseConstant("s8[2]", "{-128, 127}")),
            (std::vector<int8_t>{-128, 127}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("u8[]", "255")),
            (std::vector<uint8_t>{255}));
  EXPECT_EQ(Values<int16_t>(ParseConstant("s16[1]", "{-32768}")),
            (std::vector<int16_t>{-32768}));
  EXPECT_EQ(Values<uint16_t>(ParseConstant("u16[]", "65535")),
            (std::vector<uint16_t>{65535}));
  EXPECT_EQ(Values<uint32_t>(ParseConstant("u32[]", "4294967295")),
            (std::vector<uint32_t>{4294967295u}));
  EXPECT_EQ(Values<int64_t>(ParseConstant(
                "s64[2]", "{-9223372036854775808, 9223372036854775807}")),
            (std::vector<int64_t>{INT64_MIN, INT64_MAX}));
  EXPECT_EQ(Values<uint64_t>(ParseConstant("u64[]", "18446744073709551615")),
            (std::vector<uint64_t>{UINT64_MAX}));
}

TEST(ParseLiteralTest, SubByteIntegersTakeOneByteEach) {
  // Signed values are stored sign-extended in their byte.
  EXPECT_EQ(Values<uint8_t>(ParseConstant("s4[3]", "{-8, 7, -1}")),
            (std::vector<uint8_t>{0xf8, 0x07, 0xff}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("u4[2]", "{15, 0}")),
            (std::vector<uint8_t>{0x0f, 0x00}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("s2[2]", "{-2, 1}")),
            (std::vector<uint8_t>{0xfe, 0x01}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("u2[1]", "{3}")),
            (std::vector<uint8_t>{0x03}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("s1[2]", "{-1, 0}")),
            (std::vector<uint8_t>{0xff, 0x00}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("u1[1]", "{1}")),
            (std::vector<uint8_t>{0x01}));
}

TEST(ParseLiteralTest, Pred) {
  EXPECT_EQ(Values<uint8_t>(ParseConstant("pred[3]", "{true, false, true}")),
            (std::vector<uint8_t>{1, 0, 1}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("pred[]", "false")),
            (std::vector<uint8_t>{0}));
}

TEST(ParseLiteralTest, F32Bits) {
  EXPECT_EQ(
      Values<uint32_t>(ParseConstant(
          "f32[12]",
          "{0.1, -0, inf, -inf, nan, -nan, nan(0x1), 1e-45, 3.4028235e38, "
          "1e-50, 1, -2.5}")),
      (std::vector<uint32_t>{0x3dcccccd, 0x80000000, 0x7f800000, 0xff800000,
                             0x7fc00000, 0xffc00000, 0x7f800001, 0x00000001,
                             0x7f7fffff, 0x00000000, 0x3f800000, 0xc0200000}));
}

TEST(ParseLiteralTest, F64Bits) {
  EXPECT_EQ(
      Values<uint64_t>(ParseConstant("f64[4]", "{0.1, nan(0x1), -nan, 1e308}")),
      (std::vector<uint64_t>{0x3fb999999999999aull, 0x7ff0000000000001ull,
                             0xfff8000000000000ull, 0x7fe1ccf385ebc8a0ull}));
}

TEST(ParseLiteralTest, F16AndBF16Bits) {
  // f16: 1 sign, 5 exponent (bias 15), 10 mantissa bits.
  EXPECT_EQ(
      Values<uint16_t>(ParseConstant(
          "f16[8]", "{1, 65504, 0.1, inf, nan, nan(0x1), -2, 5.9604645e-8}")),
      (std::vector<uint16_t>{0x3c00, 0x7bff, 0x2e66, 0x7c00, 0x7e00, 0x7c01,
                             0xc000, 0x0001}));
  // bf16: 1 sign, 8 exponent (bias 127), 7 mantissa bits.
  EXPECT_EQ(Values<uint16_t>(
                ParseConstant("bf16[5]", "{1, 0.1, -inf, nan, 3.3895314e38}")),
            (std::vector<uint16_t>{0x3f80, 0x3dcd, 0xff80, 0x7fc0, 0x7f7f}));
}

TEST(ParseLiteralTest, MinifloatBits) {
  EXPECT_EQ(
      Values<uint8_t>(ParseConstant("f8e4m3fn[4]", "{448, -nan, nan, 1}")),
      (std::vector<uint8_t>{0x7e, 0xff, 0x7f, 0x38}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("f8e5m2[5]",
                                          "{inf, nan, nan(0x1), -inf, 57344}")),
            (std::vector<uint8_t>{0x7c, 0x7e, 0x7d, 0xfc, 0x7b}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("f8e4m3[2]", "{inf, 240}")),
            (std::vector<uint8_t>{0x78, 0x77}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("f8e3m4[1]", "{15.5}")),
            (std::vector<uint8_t>{0x6f}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("f8e4m3fnuz[3]", "{nan, 240, -1}")),
            (std::vector<uint8_t>{0x80, 0x7f, 0xc0}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("f8e5m2fnuz[1]", "{1}")),
            (std::vector<uint8_t>{0x40}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("f8e4m3b11fnuz[1]", "{30}")),
            (std::vector<uint8_t>{0x7f}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("f8e8m0fnu[2]", "{1, nan}")),
            (std::vector<uint8_t>{0x7f, 0xff}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("f4e2m1fn[3]", "{0.5, 6, -1}")),
            (std::vector<uint8_t>{0x1, 0x7, 0xa}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("f6e2m3fn[1]", "{7.5}")),
            (std::vector<uint8_t>{0x1f}));
  EXPECT_EQ(Values<uint8_t>(ParseConstant("f6e3m2fn[1]", "{-28}")),
            (std::vector<uint8_t>{0x3f}));
}

TEST(ParseLiteralTest, Complex) {
  EXPECT_EQ(Values<float>(ParseConstant("c64[2]", "{(1, 2), (-0.5, inf)}")),
            (std::vector<float>{1, 2, -0.5f, INFINITY}));
  EXPECT_EQ(Values<double>(ParseConstant("c128[]", "(1.5, -2)")),
            (std::vector<double>{1.5, -2}));
}

TEST(ParseLiteralTest, TuplesAndElided) {
  Literal t = ParseConstant("(s32[], (f32[2], pred[]))", "(1, ({2, 3}, true))");
  ASSERT_TRUE(t.IsTuple());
  ASSERT_EQ(t.tuple_elements().size(), 2u);
  EXPECT_EQ(Values<int32_t>(t.tuple_elements()[0]), (std::vector<int32_t>{1}));
  const Literal& inner = t.tuple_elements()[1];
  ASSERT_EQ(inner.tuple_elements().size(), 2u);
  EXPECT_EQ(Values<float>(inner.tuple_elements()[0]),
            (std::vector<float>{2, 3}));
  EXPECT_EQ(Values<uint8_t>(inner.tuple_elements()[1]),
            (std::vector<uint8_t>{1}));

  Literal e = ParseConstant("f32[2,3]", "{...}");
  EXPECT_TRUE(e.elided());
  EXPECT_EQ(e.shape().dimensions(), (std::vector<int64_t>{2, 3}));
  Literal te = ParseConstant("(s32[], f32[2])", "(1, {...})");
  EXPECT_FALSE(te.tuple_elements()[0].elided());
  EXPECT_TRUE(te.tuple_elements()[1].elided());
}

TEST(ParseLiteralTest, EmptyDimensionsCommentsAndSplat) {
  EXPECT_EQ(ParseConstant("f32[0]", "{}").raw_size(), 0);
  EXPECT_EQ(ParseConstant("f32[2,0]", "{ {}, {} }").raw_size(), 0);
  EXPECT_EQ(Values<int32_t>(ParseConstant("s32[2]", "{1, /*x*/ 2 // y\n}")),
            (std::vector<int32_t>{1, 2}));
  // One value for every element, as XLA accepts.
  EXPECT_EQ(Values<uint16_t>(ParseConstant("f16[3]", "0.5")),
            (std::vector<uint16_t>{0x3800, 0x3800, 0x3800}));
}

}  // namespace
}  // namespace aotc
