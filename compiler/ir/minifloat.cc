// Generic encode / decode of the small float formats, driven by one table of
// exponent bits, mantissa bits, bias and special-value conventions.
//
// The conventions follow the OCP / ml_dtypes definitions:
//   IEEE-like (e5m2, e4m3, e3m4): infinities and IEEE NaNs.
//   FN (e4m3fn): no infinity; only S.1111.111 is NaN.
//   FNUZ (e4m3fnuz, e5m2fnuz, e4m3b11fnuz): no infinity and no negative zero;
//     the pattern 0x80 is the only NaN. "b11" is an exponent bias of 11.
//   e8m0fnu: unsigned, exponent only (2^(e-127)), no zero, 0xff is NaN.
//   f6e3m2fn, f6e2m3fn, f4e2m1fn: no infinity and no NaN.
#include "compiler/ir/minifloat.h"

#include <cmath>

#include "compiler/support/check.h"

namespace aotc {
namespace {

struct Entry {
  PrimitiveType type;
  MinifloatFormat format;
};

constexpr Entry kFormats[] = {
    {PrimitiveType::kF8E5M2, {5, 2, 15, true, true, MinifloatNan::kIeee}},
    {PrimitiveType::kF8E4M3, {4, 3, 7, true, true, MinifloatNan::kIeee}},
    {PrimitiveType::kF8E3M4, {3, 4, 3, true, true, MinifloatNan::kIeee}},
    {PrimitiveType::kF8E4M3FN, {4, 3, 7, true, false, MinifloatNan::kAllOnes}},
    {PrimitiveType::kF8E4M3B11FNUZ,
     {4, 3, 11, true, false, MinifloatNan::kNegativeZero}},
    {PrimitiveType::kF8E5M2FNUZ,
     {5, 2, 16, true, false, MinifloatNan::kNegativeZero}},
    {PrimitiveType::kF8E4M3FNUZ,
     {4, 3, 8, true, false, MinifloatNan::kNegativeZero}},
    {PrimitiveType::kF8E8M0FNU,
     {8, 0, 127, false, false, MinifloatNan::kAllOnes}},
    {PrimitiveType::kF6E3M2FN, {3, 2, 3, true, false, MinifloatNan::kNone}},
    {PrimitiveType::kF6E2M3FN, {2, 3, 1, true, false, MinifloatNan::kNone}},
    {PrimitiveType::kF4E2M1FN, {2, 1, 1, true, false, MinifloatNan::kNone}},
};

const MinifloatFormat* Find(PrimitiveType t) {
  for (const Entry& e : kFormats) {
    if (e.type == t) return &e.format;
  }
  return nullptr;
}

uint32_t Mask(int bits) { return (uint32_t{1} << bits) - 1; }

uint32_t SignBit(const MinifloatFormat& f) {
  return f.has_sign ? uint32_t{1} << (f.exponent_bits + f.mantissa_bits) : 0;
}

}  // namespace

uint32_t MaxFiniteMagnitude(const MinifloatFormat& f) {
  uint32_t all_ones = Mask(f.exponent_bits + f.mantissa_bits);
  switch (f.nan) {
    case MinifloatNan::kIeee:
      // The all-ones exponent holds inf and NaN.
      return all_ones - Mask(f.mantissa_bits) - 1;
    case MinifloatNan::kAllOnes:
      return all_ones - 1;
    case MinifloatNan::kNegativeZero:
    case MinifloatNan::kNone:
      return all_ones;
  }
  return all_ones;
}

namespace {

uint8_t NanBits(const MinifloatFormat& f, bool negative) {
  uint32_t sign = negative ? SignBit(f) : 0;
  uint32_t exp_ones = Mask(f.exponent_bits) << f.mantissa_bits;
  switch (f.nan) {
    case MinifloatNan::kIeee:
      // The canonical quiet NaN: only the top mantissa bit set.
      return static_cast<uint8_t>(sign | exp_ones |
                                  (uint32_t{1} << (f.mantissa_bits - 1)));
    case MinifloatNan::kAllOnes:
      return static_cast<uint8_t>(sign | exp_ones | Mask(f.mantissa_bits));
    case MinifloatNan::kNegativeZero:
      return 0x80;
    case MinifloatNan::kNone:
      // Unrepresentable; callers that care (the text parser) refuse NaN first.
      return 0;
  }
  return 0;
}

// What a magnitude beyond the largest finite value becomes.
uint8_t OverflowBits(const MinifloatFormat& f, bool negative) {
  uint32_t sign = negative ? SignBit(f) : 0;
  if (f.has_inf) {
    return static_cast<uint8_t>(sign |
                                (Mask(f.exponent_bits) << f.mantissa_bits));
  }
  if (f.nan != MinifloatNan::kNone) return NanBits(f, negative);
  return static_cast<uint8_t>(sign | MaxFiniteMagnitude(f));
}

}  // namespace

bool IsMinifloat(PrimitiveType t) { return Find(t) != nullptr; }

const MinifloatFormat& GetMinifloatFormat(PrimitiveType t) {
  const MinifloatFormat* f = Find(t);
  AOTC_CHECK(f != nullptr,
             "GetMinifloatFormat on a type that is not a minifloat");
  return *f;
}

uint8_t MinifloatMaxFiniteBits(PrimitiveType t) {
  return static_cast<uint8_t>(MaxFiniteMagnitude(GetMinifloatFormat(t)));
}

double MinifloatToDouble(PrimitiveType t, uint8_t raw) {
  const MinifloatFormat& f = GetMinifloatFormat(t);
  const int m = f.mantissa_bits;
  const uint32_t bits = raw & Mask(f.exponent_bits + m + (f.has_sign ? 1 : 0));
  const bool negative = (bits & SignBit(f)) != 0;
  const uint32_t exp = (bits >> m) & Mask(f.exponent_bits);
  const uint32_t man = bits & Mask(m);
  const bool exp_all_ones = exp == Mask(f.exponent_bits);
  switch (f.nan) {
    case MinifloatNan::kIeee:
      if (exp_all_ones && man != 0) return negative ? -NAN : NAN;
      break;
    case MinifloatNan::kAllOnes:
      if (exp_all_ones && man == Mask(m)) return negative ? -NAN : NAN;
      break;
    case MinifloatNan::kNegativeZero:
      if (bits == 0x80) return NAN;
      break;
    case MinifloatNan::kNone:
      break;
  }
  if (f.has_inf && exp_all_ones && man == 0) {
    return negative ? -INFINITY : INFINITY;
  }
  double magnitude;
  if (m == 0) {
    // e8m0fnu: a pure power of two, no subnormals and no zero.
    magnitude = std::ldexp(1.0, static_cast<int>(exp) - f.bias);
  } else if (exp == 0) {
    magnitude = std::ldexp(static_cast<double>(man), 1 - f.bias - m);
  } else {
    magnitude = std::ldexp(static_cast<double>((uint32_t{1} << m) | man),
                           static_cast<int>(exp) - f.bias - m);
  }
  return negative ? -magnitude : magnitude;
}

uint8_t DoubleToMinifloat(PrimitiveType t, double value) {
  const MinifloatFormat& f = GetMinifloatFormat(t);
  const int m = f.mantissa_bits;
  const bool negative = std::signbit(value);
  if (std::isnan(value)) return NanBits(f, negative);
  // An unsigned format has no negative numbers: they become NaN.
  if (!f.has_sign && negative && value != 0) return NanBits(f, false);
  if (std::isinf(value)) return OverflowBits(f, negative);
  const double a = std::fabs(value);
  const uint32_t sign = negative ? SignBit(f) : 0;
  // FNUZ formats have no negative zero (0x80 is NaN), so -0 is +0.
  const uint8_t zero =
      static_cast<uint8_t>(f.nan == MinifloatNan::kNegativeZero ? 0 : sign);
  if (a == 0) return m == 0 ? 0 : zero;

  int e;
  std::frexp(a, &e);  // a = frac * 2^e with frac in [0.5, 1)
  int exp_field = (e - 1) + f.bias;
  const int min_normal_field = m == 0 ? 0 : 1;
  uint32_t magnitude;
  if (exp_field < min_normal_field) {
    if (m == 0) return 0;  // below 2^-127: the smallest value e8m0fnu has
    // Subnormal: a = q * 2^(1 - bias - m) with q < 2^m; q == 2^m after
    // rounding is exactly the smallest normal, which the encoding gives.
    double q = std::nearbyint(std::ldexp(a, m - 1 + f.bias));
    magnitude = static_cast<uint32_t>(q);
    if (magnitude == 0) return zero;
  } else {
    // Normal: a = q * 2^(e - 1 - m) with q in [2^m, 2^(m+1)).
    double q = std::nearbyint(std::ldexp(a, m - (e - 1)));
    uint64_t qi = static_cast<uint64_t>(q);
    if (qi == (uint64_t{1} << (m + 1))) {
      qi >>= 1;
      ++exp_field;
    }
    if (exp_field > static_cast<int>(Mask(f.exponent_bits))) {
      return OverflowBits(f, negative);
    }
    magnitude = (static_cast<uint32_t>(exp_field) << m) |
                (static_cast<uint32_t>(qi) & Mask(m));
  }
  if (magnitude > MaxFiniteMagnitude(f)) return OverflowBits(f, negative);
  return static_cast<uint8_t>(sign | magnitude);
}

}  // namespace aotc
