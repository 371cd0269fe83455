// Shared pieces of the elementwise evaluator kernels (elementwise.cc,
// elementwise_math.cc, convert.cc): the type each element type is computed
// in, loads and stores between storage and compute types, the loops that
// apply a scalar function over whole literals, and NaN-propagating
// maximum / minimum.
//
// f16 and bf16 elements are computed in float and rounded to nearest even
// when stored, so every operation on them rounds once, like XLA's CPU
// backend which upcasts them per operation.
#ifndef AOTC_COMPILER_EVALUATOR_ELEMENTWISE_INTERNAL_H_
#define AOTC_COMPILER_EVALUATOR_ELEMENTWISE_INTERNAL_H_

#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/native_type.h"

namespace aotc::eval::internal {

// The type element arithmetic happens in: float for f16 / bf16, the storage
// type itself otherwise.
template <typename C>
struct ComputeTypeOf {
  using type = C;
};
template <>
struct ComputeTypeOf<Half> {
  using type = float;
};
template <>
struct ComputeTypeOf<BFloat16> {
  using type = float;
};
template <typename C>
using ComputeType = typename ComputeTypeOf<C>::type;

template <typename C>
inline constexpr bool kIsHalfLike =
    std::is_same_v<C, Half> || std::is_same_v<C, BFloat16>;

template <typename C>
ComputeType<C> Load(C value) {
  if constexpr (kIsHalfLike<C>) {
    return static_cast<float>(value);
  } else {
    return value;
  }
}

template <typename C>
C Store(ComputeType<C> value) {
  if constexpr (kIsHalfLike<C>) {
    return C(value);
  } else {
    return value;
  }
}

// Categories of compute types.
template <typename T>
struct IsComplexT : std::false_type {};
template <typename T>
struct IsComplexT<std::complex<T>> : std::true_type {};
template <typename T>
inline constexpr bool kIsComplex = IsComplexT<T>::value;
template <typename T>
inline constexpr bool kIsPred = std::is_same_v<T, bool>;
template <typename T>
inline constexpr bool kIsInt = std::is_integral_v<T> && !kIsPred<T>;
template <typename T>
inline constexpr bool kIsReal = std::is_floating_point_v<T>;

// out[i] = Store(fn(Load(a[i]))) over the result's elements. An operand with
// a single element while the result has several is broadcast.
template <typename In, typename Out, typename Fn>
void Map1(const Literal& a, Literal* out, Fn fn) {
  auto src = a.data<In>();
  auto dst = out->mutable_data<Out>();
  const int64_t n = static_cast<int64_t>(dst.size());
  if (static_cast<int64_t>(src.size()) == n) {
    for (int64_t i = 0; i < n; ++i) dst[i] = Store<Out>(fn(Load(src[i])));
    return;
  }
  for (int64_t i = 0; i < n; ++i) dst[i] = Store<Out>(fn(Load(src[0])));
}

template <typename In, typename Out, typename Fn>
void Map2(const Literal& a, const Literal& b, Literal* out, Fn fn) {
  auto sa_data = a.data<In>();
  auto sb_data = b.data<In>();
  auto dst = out->mutable_data<Out>();
  const int64_t n = static_cast<int64_t>(dst.size());
  const int64_t sa = static_cast<int64_t>(sa_data.size()) == n ? 1 : 0;
  const int64_t sb = static_cast<int64_t>(sb_data.size()) == n ? 1 : 0;
  if (sa == 1 && sb == 1) {
    // The common same-shape case, written so that it vectorizes.
    for (int64_t i = 0; i < n; ++i) {
      dst[i] = Store<Out>(fn(Load(sa_data[i]), Load(sb_data[i])));
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    dst[i] = Store<Out>(fn(Load(sa_data[i * sa]), Load(sb_data[i * sb])));
  }
}

// HLO maximum / minimum: a NaN operand makes the result NaN (the first NaN
// operand is returned); otherwise the larger / smaller value, with
// max(-0, +0) = +0 and min(-0, +0) = -0.
template <typename T>
T MaxOf(T a, T b) {
  if constexpr (kIsReal<T>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
    if (a == b) return std::signbit(a) ? b : a;
  }
  return a > b ? a : b;
}

template <typename T>
T MinOf(T a, T b) {
  if constexpr (kIsReal<T>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
    if (a == b) return std::signbit(a) ? a : b;
  }
  return a < b ? a : b;
}

// Same-typed unary and binary arithmetic (elementwise_math.cc): every
// elementwise opcode whose result has the operands' element type.
absl::StatusOr<Literal> EvalUnaryMath(const Instruction& inst,
                                      const Literal& x);
absl::StatusOr<Literal> EvalBinaryMath(const Instruction& inst,
                                       const Literal& a, const Literal& b);

// Type changes (convert.cc).
absl::StatusOr<Literal> EvalConvert(const Instruction& inst, const Literal& x);
absl::StatusOr<Literal> EvalBitcastConvert(const Instruction& inst,
                                           const Literal& x);
absl::StatusOr<Literal> EvalReducePrecision(const Instruction& inst,
                                            const Literal& x);

}  // namespace aotc::eval::internal

#endif  // AOTC_COMPILER_EVALUATOR_ELEMENTWISE_INTERNAL_H_
