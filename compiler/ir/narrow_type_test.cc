// Tests of the narrow-type value helpers against values worked out by hand.
#include "compiler/ir/narrow_type.h"

#include <gtest/gtest.h>

#include <cmath>

namespace aotc {
namespace {

using P = PrimitiveType;

TEST(NarrowTypeTest, Membership) {
  EXPECT_TRUE(IsNarrowType(P::kS4));
  EXPECT_TRUE(IsNarrowType(P::kU2));
  EXPECT_TRUE(IsNarrowType(P::kF8E4M3FN));
  EXPECT_TRUE(IsNarrowType(P::kF4E2M1FN));
  // s1/u1 are not computed with; s8 and f16 are ordinary types.
  EXPECT_FALSE(IsNarrowType(P::kS1));
  EXPECT_FALSE(IsNarrowType(P::kU1));
  EXPECT_FALSE(IsNarrowType(P::kS8));
  EXPECT_FALSE(IsNarrowType(P::kF16));
  EXPECT_FALSE(IsSubByteInt(P::kF8E5M2));
}

TEST(NarrowTypeTest, WrapAndValues) {
  // s4: 8 = 1000 is -8 (byte 0xf8, sign-extended); 17 = 1 0001 is 1;
  // -9 = ...1 0111 is 7.
  EXPECT_EQ(WrapSubByteInt(P::kS4, 8), 0xf8);
  EXPECT_EQ(WrapSubByteInt(P::kS4, 17), 0x01);
  EXPECT_EQ(WrapSubByteInt(P::kS4, -9), 0x07);
  // u4: -1 is 15 (0x0f, zero-extended); u2: 6 = 110 is 2.
  EXPECT_EQ(WrapSubByteInt(P::kU4, -1), 0x0f);
  EXPECT_EQ(WrapSubByteInt(P::kU2, 6), 0x02);
  // s2: 2 = 10 is -2 (0xfe).
  EXPECT_EQ(WrapSubByteInt(P::kS2, 2), 0xfe);
  // Only the low bits are read: 0x0f and 0xff are both s4 -1.
  EXPECT_EQ(SubByteIntValue(P::kS4, 0x0f), -1);
  EXPECT_EQ(SubByteIntValue(P::kS4, 0xff), -1);
  EXPECT_EQ(SubByteIntValue(P::kU4, 0xff), 15);
  EXPECT_EQ(SubByteIntValue(P::kU2, 0x07), 3);
}

TEST(NarrowTypeTest, FloatToSubByteSaturates) {
  EXPECT_EQ(DoubleToSubByteInt(P::kS4, 7.9), 0x07);
  EXPECT_EQ(DoubleToSubByteInt(P::kS4, -3.7), 0xfd);  // -3
  EXPECT_EQ(DoubleToSubByteInt(P::kS4, 1e9), 0x07);
  EXPECT_EQ(DoubleToSubByteInt(P::kS4, -INFINITY), 0xf8);
  EXPECT_EQ(DoubleToSubByteInt(P::kS4, NAN), 0x00);
  EXPECT_EQ(DoubleToSubByteInt(P::kU2, -5), 0x00);
  EXPECT_EQ(DoubleToSubByteInt(P::kU2, 3.99), 0x03);
}

TEST(NarrowTypeTest, ValuesAndCanonicalBits) {
  EXPECT_EQ(NarrowToDouble(P::kS4, 0xf8), -8);
  EXPECT_EQ(NarrowToDouble(P::kF8E4M3FN, 0x7e), 448);  // 2^8 * 1.75
  EXPECT_EQ(NarrowToDouble(P::kF4E2M1FN, 0xf7), 6);    // low bits 0111
  // Bitcast-convert keeps the low bits and re-extends them.
  EXPECT_EQ(CanonicalNarrowBits(P::kS4, 0x0f), 0xff);
  EXPECT_EQ(CanonicalNarrowBits(P::kU4, 0xff), 0x0f);
  EXPECT_EQ(CanonicalNarrowBits(P::kF4E2M1FN, 0xf7), 0x07);
  EXPECT_EQ(CanonicalNarrowBits(P::kF8E5M2, 0xf7), 0xf7);
}

}  // namespace
}  // namespace aotc
