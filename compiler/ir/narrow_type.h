// Narrow element types: the sub-byte integers s2, s4, u2, u4 and the 8-, 6-
// and 4-bit float formats of minifloat.h.
//
// aotc stores every narrow element in one byte and computes with it in a
// wider type, as XLA's CPU backend does: sub-byte integers in 8 bits,
// wrapped back to their width after every operation; minifloats in f32,
// rounded to nearest even after every operation. A stored sub-byte integer
// is canonical when its byte is the value sign-extended (signed types) or
// zero-extended (unsigned types); readers look at the low BitWidth bits only.
// A stored minifloat has its encoding in the low bits and zeros above.
// s1 and u1 are not narrow types here: nothing computes with them yet.
#ifndef AOTC_COMPILER_IR_NARROW_TYPE_H_
#define AOTC_COMPILER_IR_NARROW_TYPE_H_

#include <cstdint>

#include "compiler/ir/primitive_type.h"

namespace aotc {

// s2, s4, u2, u4.
bool IsSubByteInt(PrimitiveType t);
// IsSubByteInt(t) or IsMinifloat(t).
bool IsNarrowType(PrimitiveType t);

// The canonical byte of sub-byte integer type t holding `value` modulo
// 2^BitWidth(t) (integer conversion wraps).
uint8_t WrapSubByteInt(PrimitiveType t, int64_t value);
// The value held by the low BitWidth(t) bits of `byte`.
int64_t SubByteIntValue(PrimitiveType t, uint8_t byte);
// Float -> sub-byte integer: truncation toward zero, NaN -> 0, values beyond
// the type's range saturate (the evaluator's rule for every integer type).
uint8_t DoubleToSubByteInt(PrimitiveType t, double value);

// The exact value of a stored narrow element.
double NarrowToDouble(PrimitiveType t, uint8_t byte);
// The canonical byte of narrow type t whose low BitWidth(t) bits are those
// of `byte` (bitcast-convert between types of the same width).
uint8_t CanonicalNarrowBits(PrimitiveType t, uint8_t byte);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_NARROW_TYPE_H_
