#include "compiler/support/float16.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace aotc {
namespace {

// Expected bit patterns from the IEEE 754 binary16 encoding by hand:
// 1.0 = 0 01111 0000000000, 65504 = 0 11110 1111111111, 2^-24 = 0x0001.
TEST(Float16Test, HalfKnownValues) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);  // rounds up to inf
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -26)), 0x0000);  // below half ulp
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(HalfToFloat(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7e00)));
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));
}

TEST(Float16Test, HalfTiesToEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even -> 1.
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  // 1 + 3*2^-11 is halfway between 1+2^-10 (odd) and 1+2^-9 (even).
  EXPECT_EQ(FloatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
}

TEST(Float16Test, HalfRoundTripsEveryPattern) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    uint16_t h = static_cast<uint16_t>(b);
    float f = HalfToFloat(h);
    if (std::isnan(f)) continue;
    ASSERT_EQ(FloatToHalf(f), h) << b;
  }
}

TEST(Float16Test, BFloat16) {
  EXPECT_EQ(FloatToBFloat16(1.0f), 0x3f80);
  EXPECT_EQ(BFloat16ToFloat(0x4049), 3.140625f);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even.
  EXPECT_EQ(FloatToBFloat16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(FloatToBFloat16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
  EXPECT_EQ(DoubleToBFloat16(1.0 + 3 * std::ldexp(1.0, -8)), 0x3f82);
  EXPECT_TRUE(std::isnan(BFloat16ToFloat(FloatToBFloat16(NAN))));
}

}  // namespace
}  // namespace aotc
