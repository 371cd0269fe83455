// Bit-exact f16 / bf16 conversions written from the IEEE 754 encodings.
#include "compiler/support/float16.h"

#include <cmath>
#include <cstring>

namespace aotc {
namespace {

uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float BitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint64_t DoubleBits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

// Rounds the magnitude |d| (finite, non-negative) to a binary format with
// `mant` stored mantissa bits and exponent bias `bias` whose largest finite
// exponent field is `max_exp_field` (all-ones is inf/nan). Returns the
// magnitude bits, or the infinity pattern on overflow.
uint32_t RoundMagnitude(double d, int mant, int bias, int max_exp_field) {
  const uint32_t inf_bits = static_cast<uint32_t>(max_exp_field + 1) << mant;
  if (d == 0) return 0;
  int e;
  double frac = std::frexp(d, &e);  // d = frac * 2^e, frac in [0.5, 1)
  // Unbiased exponent of the leading bit is e - 1.
  int exp_field = (e - 1) + bias;
  double scaled;
  if (exp_field <= 0) {
    // Subnormal: value = m * 2^(1 - bias - mant).
    scaled = std::ldexp(d, mant - 1 + bias);
    exp_field = 0;
  } else {
    scaled = std::ldexp(frac * 2.0, mant);  // in [2^mant, 2^(mant+1))
  }
  double ip = std::nearbyint(scaled);  // default rounding mode: to even
  uint64_t m = static_cast<uint64_t>(ip);
  uint32_t result;
  if (exp_field == 0) {
    // m may round up to 2^mant: that is exactly the smallest normal.
    result = static_cast<uint32_t>(m);
  } else {
    if (m == (uint64_t{1} << (mant + 1))) {
      m >>= 1;
      ++exp_field;
    }
    if (exp_field > max_exp_field) return inf_bits;
    result = (static_cast<uint32_t>(exp_field) << mant) |
             static_cast<uint32_t>(m & ((uint64_t{1} << mant) - 1));
  }
  return result;
}

uint16_t DoubleTo16(double d, int mant, int bias, int max_exp_field,
                    uint16_t quiet_nan) {
  uint16_t sign = (DoubleBits(d) >> 63) ? 0x8000 : 0;
  if (std::isnan(d)) return sign | quiet_nan;
  double a = std::fabs(d);
  if (std::isinf(a)) {
    return sign | static_cast<uint16_t>((max_exp_field + 1) << mant);
  }
  return sign | static_cast<uint16_t>(RoundMagnitude(a, mant, bias, max_exp_field));
}

}  // namespace

float HalfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0x1f) return BitsFloat(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  return BitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t FloatToHalf(float f) { return DoubleToHalf(static_cast<double>(f)); }

uint16_t DoubleToHalf(double d) { return DoubleTo16(d, 10, 15, 30, 0x7e00); }

float BFloat16ToFloat(uint16_t b) {
  return BitsFloat(static_cast<uint32_t>(b) << 16);
}

uint16_t FloatToBFloat16(float f) {
  uint32_t u = FloatBits(f);
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);
  // Round to nearest even on the 16 discarded bits.
  uint32_t lsb = (u >> 16) & 1;
  u += 0x7fff + lsb;
  return static_cast<uint16_t>(u >> 16);
}

uint16_t DoubleToBFloat16(double d) {
  return DoubleTo16(d, 7, 127, 254, 0x7fc0);
}

}  // namespace aotc
