// Conversions between double and the 8-, 6- and 4-bit float formats
// (f8e5m2, f8e4m3, f8e4m3fn, f8e4m3b11fnuz, f8e3m4, f8e5m2fnuz, f8e4m3fnuz,
// f8e8m0fnu, f6e3m2fn, f6e2m3fn, f4e2m1fn). Used to parse and print their
// literals; aotc does not compute with these types.
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
// one, else the largest finite value.
uint8_t DoubleToMinifloat(PrimitiveType t, double value);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_MINIFLOAT_H_
