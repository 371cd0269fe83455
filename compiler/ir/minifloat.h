// Conversions between double and the 8-, 6- and 4-bit float formats
// (f8e5m2, f8e4m3, f8e4m3fn, f8e4m3b11fnuz, f8e3m4, f8e5m2fnuz, f8e4m3fnuz,
// f8e8m0fnu, f6e3m2fn, f6e2m3fn, f4e2m1fn): literals, and every result the
// evaluator rounds (compiled code matches it, codegen/elemental/math/minifloat_*.cc).
#ifndef AOTC_COMPILER_IR_MINIFLOAT_H_
#define AOTC_COMPILER_IR_MINIFLOAT_H_

#include <cstdint>

#include "compiler/ir/primitive_type.h"

namespace aotc {

// True for the types above.
bool IsMinifloat(PrimitiveType t);
// The value encoded by the low BitWidth(t) bits of `bits`.
double MinifloatToDouble(PrimitiveType t, uint8_t bits);
// The nearest encoding of `value` (ties to even); values beyond the largest
// finite number become inf where the format has one, else NaN where it has
// one, else the largest finite value. Formats without NaN encode NaN as +0;
// f8e8m0fnu encodes negative values as NaN and zero as its smallest value
// 2^-127 (it has neither sign nor zero).
uint8_t DoubleToMinifloat(PrimitiveType t, double value);

// How a format spells NaN.
enum class MinifloatNan {
  kIeee,          // exponent all ones, mantissa non-zero (e5m2, e4m3, e3m4)
  kAllOnes,       // only exponent and mantissa all ones (e4m3fn, e8m0fnu)
  kNegativeZero,  // only the pattern 0x80, "negative zero" (the fnuz types)
  kNone,          // no NaN (f6e3m2fn, f6e2m3fn, f4e2m1fn)
};

// Bit layout and special values of a minifloat format. The text front end
// and printer use it for `nan(0x...)` payloads and range checks.
struct MinifloatFormat {
  int exponent_bits;
  int mantissa_bits;
  int bias;
  bool has_sign;  // false only for f8e8m0fnu
  bool has_inf;   // exponent all ones and mantissa zero is infinity
  MinifloatNan nan;
};

// The format of t; IsMinifloat(t) must hold.
const MinifloatFormat& GetMinifloatFormat(PrimitiveType t);
// The exponent and mantissa bits of the largest finite magnitude of `f`.
uint32_t MaxFiniteMagnitude(const MinifloatFormat& f);
// The encoding of the largest finite value (positive).
uint8_t MinifloatMaxFiniteBits(PrimitiveType t);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_MINIFLOAT_H_
