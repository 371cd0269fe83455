// IEEE half (f16) and bfloat16 bit conversions, round to nearest even.
//
// Both 16-bit types are stored as their raw bits (uint16_t) in aotc literals
// and buffers; arithmetic goes through float.
#ifndef AOTC_COMPILER_SUPPORT_FLOAT16_H_
#define AOTC_COMPILER_SUPPORT_FLOAT16_H_

#include <cstdint>

namespace aotc {

float HalfToFloat(uint16_t bits);
uint16_t FloatToHalf(float f);
// f64 -> f16 with a single rounding (no double rounding through f32).
uint16_t DoubleToHalf(double d);
float BFloat16ToFloat(uint16_t bits);
uint16_t FloatToBFloat16(float f);
uint16_t DoubleToBFloat16(double d);

// Strong types so that templates over element types can tell f16, bf16 and
// u16 apart. Layout-compatible with uint16_t.
struct Half {
  uint16_t bits = 0;
  Half() = default;
  explicit Half(float f) : bits(FloatToHalf(f)) {}
  static Half FromBits(uint16_t b) {
    Half h;
    h.bits = b;
    return h;
  }
  explicit operator float() const { return HalfToFloat(bits); }
};

struct BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  explicit BFloat16(float f) : bits(FloatToBFloat16(f)) {}
  static BFloat16 FromBits(uint16_t b) {
    BFloat16 h;
    h.bits = b;
    return h;
  }
  explicit operator float() const { return BFloat16ToFloat(bits); }
};

}  // namespace aotc

#endif  // AOTC_COMPILER_SUPPORT_FLOAT16_H_
