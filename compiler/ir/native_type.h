// The C++ type that holds one element of each computable PrimitiveType in
// aotc's literals, and a dispatcher from a runtime PrimitiveType to a template
// instantiation.
//
//   pred -> bool (one byte), s8..s64 -> int8_t..int64_t, u8..u64 -> uint*_t,
//   f16 -> Half, bf16 -> BFloat16 (raw bits), f32 -> float, f64 -> double,
//   c64 -> std::complex<float>, c128 -> std::complex<double>.
#ifndef AOTC_COMPILER_IR_NATIVE_TYPE_H_
#define AOTC_COMPILER_IR_NATIVE_TYPE_H_

#include <complex>
#include <cstdint>
#include <utility>

#include "compiler/ir/primitive_type.h"
#include "compiler/support/float16.h"

namespace aotc {

template <PrimitiveType T>
struct NativeTypeOf;
#define AOTC_NATIVE(P, C)          \
  template <>                      \
  struct NativeTypeOf<P> {         \
    using type = C;                \
  };
AOTC_NATIVE(PrimitiveType::kPred, bool)
AOTC_NATIVE(PrimitiveType::kS8, int8_t)
AOTC_NATIVE(PrimitiveType::kS16, int16_t)
AOTC_NATIVE(PrimitiveType::kS32, int32_t)
AOTC_NATIVE(PrimitiveType::kS64, int64_t)
AOTC_NATIVE(PrimitiveType::kU8, uint8_t)
AOTC_NATIVE(PrimitiveType::kU16, uint16_t)
AOTC_NATIVE(PrimitiveType::kU32, uint32_t)
AOTC_NATIVE(PrimitiveType::kU64, uint64_t)
AOTC_NATIVE(PrimitiveType::kF16, Half)
AOTC_NATIVE(PrimitiveType::kBF16, BFloat16)
AOTC_NATIVE(PrimitiveType::kF32, float)
AOTC_NATIVE(PrimitiveType::kF64, double)
AOTC_NATIVE(PrimitiveType::kC64, std::complex<float>)
AOTC_NATIVE(PrimitiveType::kC128, std::complex<double>)
#undef AOTC_NATIVE

template <PrimitiveType T>
using NativeType = typename NativeTypeOf<T>::type;

// Calls fn.template operator()<P>() for the computable type P == t, i.e.
//   DispatchComputableType(t, [&]<PrimitiveType P>() { ... });
// Returns false (without calling) when t is not computable.
template <typename Fn>
bool DispatchComputableType(PrimitiveType t, Fn&& fn) {
  switch (t) {
#define AOTC_CASE(P)                                 \
  case PrimitiveType::P:                             \
    fn.template operator()<PrimitiveType::P>();      \
    return true;
    AOTC_CASE(kPred)
    AOTC_CASE(kS8)
    AOTC_CASE(kS16)
    AOTC_CASE(kS32)
    AOTC_CASE(kS64)
    AOTC_CASE(kU8)
    AOTC_CASE(kU16)
    AOTC_CASE(kU32)
    AOTC_CASE(kU64)
    AOTC_CASE(kF16)
    AOTC_CASE(kBF16)
    AOTC_CASE(kF32)
    AOTC_CASE(kF64)
    AOTC_CASE(kC64)
    AOTC_CASE(kC128)
#undef AOTC_CASE
    default:
      return false;
  }
}

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_NATIVE_TYPE_H_
