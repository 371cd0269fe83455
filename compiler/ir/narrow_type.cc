// Value conversions of the narrow element types (see narrow_type.h).
#include "compiler/ir/narrow_type.h"

#include <cmath>

#include "compiler/ir/minifloat.h"
#include "compiler/support/check.h"

namespace aotc {
namespace {

uint8_t LowBits(PrimitiveType t, uint64_t v) {
  return static_cast<uint8_t>(v & ((uint64_t{1} << BitWidth(t)) - 1));
}

}  // namespace

bool IsSubByteInt(PrimitiveType t) {
  return t == PrimitiveType::kS2 || t == PrimitiveType::kS4 ||
         t == PrimitiveType::kU2 || t == PrimitiveType::kU4;
}

bool IsNarrowType(PrimitiveType t) { return IsSubByteInt(t) || IsMinifloat(t); }

int64_t SubByteIntValue(PrimitiveType t, uint8_t byte) {
  AOTC_CHECK(IsSubByteInt(t), "SubByteIntValue on a type that is not one");
  const int bits = BitWidth(t);
  const int64_t low = LowBits(t, byte);
  // Sign-extend: a set top bit means low - 2^bits.
  if (IsSignedInt(t) && (low >> (bits - 1)) != 0) {
    return low - (int64_t{1} << bits);
  }
  return low;
}

uint8_t WrapSubByteInt(PrimitiveType t, int64_t value) {
  return static_cast<uint8_t>(
      SubByteIntValue(t, LowBits(t, static_cast<uint64_t>(value))));
}

uint8_t DoubleToSubByteInt(PrimitiveType t, double value) {
  AOTC_CHECK(IsSubByteInt(t), "DoubleToSubByteInt on a type that is not one");
  if (std::isnan(value)) return 0;
  const int bits = BitWidth(t);
  const int64_t lo = IsSignedInt(t) ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t hi = IsSignedInt(t) ? (int64_t{1} << (bits - 1)) - 1
                                    : (int64_t{1} << bits) - 1;
  const double v = std::trunc(value);
  if (v <= static_cast<double>(lo)) return WrapSubByteInt(t, lo);
  if (v >= static_cast<double>(hi)) return WrapSubByteInt(t, hi);
  return WrapSubByteInt(t, static_cast<int64_t>(v));
}

double NarrowToDouble(PrimitiveType t, uint8_t byte) {
  if (IsMinifloat(t)) return MinifloatToDouble(t, byte);
  return static_cast<double>(SubByteIntValue(t, byte));
}

uint8_t CanonicalNarrowBits(PrimitiveType t, uint8_t byte) {
  if (IsSubByteInt(t)) return WrapSubByteInt(t, SubByteIntValue(t, byte));
  if (BitWidth(t) >= 8) return byte;
  return LowBits(t, byte);
}

}  // namespace aotc
