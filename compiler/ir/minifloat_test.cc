// Tests of the minifloat encodings against bit patterns worked out by hand
// from each format's exponent bits, mantissa bits and bias.
#include "compiler/ir/minifloat.h"

#include <gtest/gtest.h>

#include <cmath>

namespace aotc {
namespace {

using P = PrimitiveType;

TEST(MinifloatTest, Membership) {
  EXPECT_TRUE(IsMinifloat(P::kF8E5M2));
  EXPECT_TRUE(IsMinifloat(P::kF4E2M1FN));
  EXPECT_TRUE(IsMinifloat(P::kF8E8M0FNU));
  EXPECT_FALSE(IsMinifloat(P::kF16));
  EXPECT_FALSE(IsMinifloat(P::kBF16));
  EXPECT_FALSE(IsMinifloat(P::kS8));
}

TEST(MinifloatTest, FormatTable) {
  const MinifloatFormat& b11 = GetMinifloatFormat(P::kF8E4M3B11FNUZ);
  EXPECT_EQ(b11.exponent_bits, 4);
  EXPECT_EQ(b11.mantissa_bits, 3);
  EXPECT_EQ(b11.bias, 11);
  EXPECT_FALSE(b11.has_inf);
  EXPECT_EQ(b11.nan, MinifloatNan::kNegativeZero);
  const MinifloatFormat& e8m0 = GetMinifloatFormat(P::kF8E8M0FNU);
  EXPECT_FALSE(e8m0.has_sign);
  EXPECT_EQ(e8m0.mantissa_bits, 0);
  EXPECT_EQ(GetMinifloatFormat(P::kF8E5M2).nan, MinifloatNan::kIeee);
  EXPECT_EQ(GetMinifloatFormat(P::kF6E2M3FN).nan, MinifloatNan::kNone);
  EXPECT_EQ(MinifloatMaxFiniteBits(P::kF8E5M2), 0x7b);
  EXPECT_EQ(MinifloatMaxFiniteBits(P::kF8E8M0FNU), 0xfe);
  EXPECT_EQ(MinifloatMaxFiniteBits(P::kF4E2M1FN), 0x7);
  // Formats without NaN encode it as +0.
  EXPECT_EQ(DoubleToMinifloat(P::kF4E2M1FN, NAN), 0x0);
}

TEST(MinifloatTest, E4M3FN) {
  // bias 7, no inf, NaN only S.1111.111.
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FN, 448), 0x7e);  // 2^8 * 1.75
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FN, 1.0), 0x38);  // exp 7
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FN, -2.0), 0xc0);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FN, 464), 0x7e);  // tie, even mantissa
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FN, 480), 0x7f);  // overflow -> NaN
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FN, INFINITY), 0x7f);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FN, -INFINITY), 0xff);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FN, NAN), 0x7f);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FN, std::ldexp(1.0, -9)), 0x01);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FN, -0.0), 0x80);
  EXPECT_EQ(MinifloatToDouble(P::kF8E4M3FN, 0x01), std::ldexp(1.0, -9));
  EXPECT_EQ(MinifloatToDouble(P::kF8E4M3FN, 0x7e), 448.0);
  EXPECT_TRUE(std::isnan(MinifloatToDouble(P::kF8E4M3FN, 0x7f)));
  EXPECT_EQ(MinifloatToDouble(P::kF8E4M3FN, 0x78), 256.0);  // not inf
  EXPECT_EQ(MinifloatMaxFiniteBits(P::kF8E4M3FN), 0x7e);
}

TEST(MinifloatTest, E5M2) {
  // bias 15, IEEE-like.
  EXPECT_EQ(DoubleToMinifloat(P::kF8E5M2, INFINITY), 0x7c);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E5M2, -INFINITY), 0xfc);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E5M2, 57344), 0x7b);  // 2^15 * 1.75
  EXPECT_EQ(DoubleToMinifloat(P::kF8E5M2, 61440),
            0x7c);  // tie rounds up to inf
  EXPECT_EQ(DoubleToMinifloat(P::kF8E5M2, 1.0), 0x3c);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E5M2, NAN), 0x7e);
  EXPECT_TRUE(std::isnan(MinifloatToDouble(P::kF8E5M2, 0x7d)));
  EXPECT_EQ(MinifloatToDouble(P::kF8E5M2, 0x7c), INFINITY);
  EXPECT_EQ(MinifloatToDouble(P::kF8E5M2, 0x01), std::ldexp(1.0, -16));
}

TEST(MinifloatTest, E4M3AndE3M4) {
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3, 240), 0x77);  // 2^7 * 1.875
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3, INFINITY), 0x78);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3, 1.0), 0x38);
  EXPECT_TRUE(std::isnan(MinifloatToDouble(P::kF8E4M3, 0x79)));
  EXPECT_EQ(DoubleToMinifloat(P::kF8E3M4, 15.5), 0x6f);  // 2^3 * 1.9375
  EXPECT_EQ(DoubleToMinifloat(P::kF8E3M4, 1.0), 0x30);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E3M4, INFINITY), 0x70);
}

TEST(MinifloatTest, Fnuz) {
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FNUZ, 1.0), 0x40);   // bias 8
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FNUZ, -0.0), 0x00);  // no -0
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FNUZ, NAN), 0x80);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FNUZ, 240), 0x7f);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FNUZ, 300), 0x80);  // overflow -> NaN
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3FNUZ, -1e-30), 0x00);  // underflow
  EXPECT_TRUE(std::isnan(MinifloatToDouble(P::kF8E4M3FNUZ, 0x80)));
  EXPECT_EQ(MinifloatToDouble(P::kF8E4M3FNUZ, 0x00), 0.0);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E5M2FNUZ, 1.0), 0x40);  // bias 16
  EXPECT_EQ(DoubleToMinifloat(P::kF8E5M2FNUZ, 57344), 0x7f);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3B11FNUZ, 1.0), 0x58);  // bias 11
  EXPECT_EQ(DoubleToMinifloat(P::kF8E4M3B11FNUZ, 30), 0x7f);
  EXPECT_EQ(MinifloatToDouble(P::kF8E4M3B11FNUZ, 0xd8), -1.0);
}

TEST(MinifloatTest, E8M0) {
  EXPECT_EQ(DoubleToMinifloat(P::kF8E8M0FNU, 1.0), 0x7f);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E8M0FNU, std::ldexp(1.0, -127)), 0x00);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E8M0FNU, std::ldexp(1.0, 127)), 0xfe);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E8M0FNU, 0.0), 0x00);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E8M0FNU, NAN), 0xff);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E8M0FNU, -1.0), 0xff);
  EXPECT_EQ(DoubleToMinifloat(P::kF8E8M0FNU, 3.0), 0x81);  // 1.5 * 2 -> 4
  EXPECT_EQ(DoubleToMinifloat(P::kF8E8M0FNU, std::ldexp(1.0, 128)), 0xff);
  EXPECT_EQ(MinifloatToDouble(P::kF8E8M0FNU, 0x00), std::ldexp(1.0, -127));
  EXPECT_EQ(MinifloatToDouble(P::kF8E8M0FNU, 0x80), 2.0);
  EXPECT_TRUE(std::isnan(MinifloatToDouble(P::kF8E8M0FNU, 0xff)));
}

TEST(MinifloatTest, F6AndF4) {
  EXPECT_EQ(DoubleToMinifloat(P::kF6E3M2FN, 28), 0x1f);   // 2^4 * 1.75
  EXPECT_EQ(DoubleToMinifloat(P::kF6E3M2FN, 100), 0x1f);  // saturates
  EXPECT_EQ(DoubleToMinifloat(P::kF6E3M2FN, -28), 0x3f);
  EXPECT_EQ(DoubleToMinifloat(P::kF6E3M2FN, 1.0), 0x0c);
  EXPECT_EQ(DoubleToMinifloat(P::kF6E2M3FN, 7.5), 0x1f);
  EXPECT_EQ(DoubleToMinifloat(P::kF6E2M3FN, 1.0), 0x08);
  EXPECT_EQ(DoubleToMinifloat(P::kF6E2M3FN, 0.125), 0x01);
  const double f4_values[] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(DoubleToMinifloat(P::kF4E2M1FN, f4_values[i]), i);
    EXPECT_EQ(MinifloatToDouble(P::kF4E2M1FN, i), f4_values[i]);
    EXPECT_EQ(MinifloatToDouble(P::kF4E2M1FN, 8 + i), -f4_values[i]);
  }
  EXPECT_EQ(DoubleToMinifloat(P::kF4E2M1FN, 5), 0x6);     // tie -> even (4)
  EXPECT_EQ(DoubleToMinifloat(P::kF4E2M1FN, 0.25), 0x0);  // tie -> even (0)
  EXPECT_EQ(DoubleToMinifloat(P::kF4E2M1FN, 100), 0x7);
  EXPECT_EQ(DoubleToMinifloat(P::kF4E2M1FN, -6), 0xf);
}

TEST(MinifloatTest, EveryNonNanPatternRoundTrips) {
  for (P t : {P::kF8E5M2, P::kF8E4M3, P::kF8E3M4, P::kF8E4M3FN,
              P::kF8E4M3B11FNUZ, P::kF8E5M2FNUZ, P::kF8E4M3FNUZ, P::kF8E8M0FNU,
              P::kF6E3M2FN, P::kF6E2M3FN, P::kF4E2M1FN}) {
    int count = 1 << BitWidth(t);
    for (int b = 0; b < count; ++b) {
      double v = MinifloatToDouble(t, static_cast<uint8_t>(b));
      if (std::isnan(v)) continue;
      EXPECT_EQ(DoubleToMinifloat(t, v), b)
          << PrimitiveTypeName(t) << " pattern " << b;
    }
  }
}

}  // namespace
}  // namespace aotc
