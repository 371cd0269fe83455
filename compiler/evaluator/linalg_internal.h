// Arithmetic shared by the dot (linalg.cc) and convolution (convolution.cc)
// kernels: which type products are accumulated in, and how operands of
// another element type are brought to the result type.
//
// Operands whose element type differs from the result's are converted to the
// result type first, element by element, with the rules of the `convert`
// kernel (convert.cc): floats to integers truncate toward zero and saturate,
// NaN becomes 0; integers wrap; every rounding is to nearest even and
// happens once; to pred is `!= 0` (the real part for complex); complex to
// real keeps the real part. Then every product is accumulated in Accum<R>:
//   pred            -> bool (sum is OR, product is AND)
//   s8..s64, u8..u64 -> uint64_t (two's complement wrap-around, truncated to
//                      the result width at the end)
//   f16, bf16, f32  -> float (f16/bf16 round once, at the end)
//   f64 -> double, c64 -> complex<float>, c128 -> complex<double>
// Products are summed sequentially in the order each kernel documents.
#ifndef AOTC_COMPILER_EVALUATOR_LINALG_INTERNAL_H_
#define AOTC_COMPILER_EVALUATOR_LINALG_INTERNAL_H_

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/evaluator/kernel_util.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/native_type.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/float16.h"
#include "compiler/support/strings.h"

namespace aotc::eval {

absl::StatusOr<Literal> EvalDot(const Instruction& inst, Operands operands);
absl::StatusOr<Literal> EvalConvolution(const Instruction& inst,
                                        Operands operands);

namespace linalg {

template <typename T>
struct IsComplexT : std::false_type {};
template <typename T>
struct IsComplexT<std::complex<T>> : std::true_type {};

template <typename T>
inline constexpr bool kIsHalfLike =
    std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

template <PrimitiveType R>
using Accum = std::conditional_t<
    R == PrimitiveType::kPred, bool,
    std::conditional_t<
        std::is_integral_v<NativeType<R>>, uint64_t,
        std::conditional_t<kIsHalfLike<NativeType<R>> ||
                               std::is_same_v<NativeType<R>, float>,
                           float, NativeType<R>>>>;

// A float value to integer type To: truncation toward zero, saturating at
// the type's limits, NaN -> 0.
template <typename To>
To SaturatingFloatToInt(double v) {
  if (std::isnan(v)) return To{0};
  constexpr int kDigits = std::numeric_limits<To>::digits;
  const double upper = std::ldexp(1.0, kDigits);  // max + 1
  if (v >= upper) return std::numeric_limits<To>::max();
  if (v <= static_cast<double>(std::numeric_limits<To>::min())) {
    return std::numeric_limits<To>::min();
  }
  return static_cast<To>(v);
}

// One element of native type From converted to native type To (To is not
// complex unless From is real or complex; complex -> real is refused by the
// callers before this is instantiated for values).
template <typename From, typename To>
To ConvertElement(From x) {
  if constexpr (std::is_same_v<From, To>) {
    return x;
  } else if constexpr (kIsHalfLike<From>) {
    return ConvertElement<float, To>(static_cast<float>(x));
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (IsComplexT<From>::value) {
      return x.real() != 0;
    } else {
      return x != From{};
    }
  } else if constexpr (IsComplexT<To>::value) {
    using V = typename To::value_type;
    if constexpr (IsComplexT<From>::value) {
      return To(static_cast<V>(x.real()), static_cast<V>(x.imag()));
    } else {
      return To(ConvertElement<From, V>(x), V{0});
    }
  } else if constexpr (IsComplexT<From>::value) {
    return ConvertElement<typename From::value_type, To>(x.real());
  } else if constexpr (kIsHalfLike<To>) {
    double d;
    if constexpr (std::is_integral_v<From>) {
      // Round to the target's precision in integer arithmetic first: an
      // integer wider than a double's 53 bits would otherwise round twice.
      bool negative = false;
      if constexpr (std::is_signed_v<From>) negative = x < 0;
      const uint64_t mag = negative ? uint64_t{0} - static_cast<uint64_t>(x)
                                    : static_cast<uint64_t>(x);
      d = RoundIntegerToBits(mag, negative, std::is_same_v<To, Half> ? 11 : 8);
    } else {
      d = static_cast<double>(x);
    }
    if constexpr (std::is_same_v<To, Half>) {
      return Half::FromBits(DoubleToHalf(d));
    } else {
      return BFloat16::FromBits(DoubleToBFloat16(d));
    }
  } else if constexpr (std::is_integral_v<To> &&
                       std::is_floating_point_v<From>) {
    return SaturatingFloatToInt<To>(static_cast<double>(x));
  } else {
    return static_cast<To>(x);
  }
}

// A value of result type R widened to its accumulator type.
template <PrimitiveType R>
Accum<R> ToAccum(NativeType<R> v) {
  if constexpr (kIsHalfLike<NativeType<R>>) {
    return static_cast<float>(v);
  } else {
    return static_cast<Accum<R>>(v);
  }
}

// An accumulator narrowed to result type R (the one rounding of f16/bf16,
// the wrap of integers).
template <PrimitiveType R>
NativeType<R> FromAccum(Accum<R> a) {
  using T = NativeType<R>;
  if constexpr (kIsHalfLike<T>) {
    return T(a);
  } else {
    return static_cast<T>(a);
  }
}

template <PrimitiveType R>
Accum<R> MultiplyAdd(Accum<R> acc, Accum<R> a, Accum<R> b) {
  if constexpr (R == PrimitiveType::kPred) {
    return acc || (a && b);
  } else {
    // Two statements, so that no compiler contracts them into an FMA.
    const Accum<R> product = a * b;
    return acc + product;
  }
}

// Every element of `lit` converted to result type R, then widened to
// Accum<R>. False when the element type cannot be converted (complex to a
// real type, or not computable).
template <PrimitiveType R>
bool LoadAccum(const Literal& lit, std::vector<Accum<R>>* out) {
  const PrimitiveType from = lit.shape().element_type();
  if (IsComplex(from) && !IsComplex(R)) return false;
  out->resize(static_cast<size_t>(lit.element_count()));
  return DispatchComputableType(from, [&]<PrimitiveType F>() {
    absl::Span<const NativeType<F>> data = lit.data<NativeType<F>>();
    for (size_t i = 0; i < out->size(); ++i) {
      (*out)[i] =
          ToAccum<R>(ConvertElement<NativeType<F>, NativeType<R>>(data[i]));
    }
  });
}

// `data` (row-major over `dims`) rearranged so that dimension order[0]
// varies slowest and order.back() fastest; `order` is a permutation.
template <typename T>
std::vector<T> Permute(const std::vector<T>& data,
                       const std::vector<int64_t>& dims,
                       const std::vector<int64_t>& order) {
  const std::vector<int64_t> strides = RowMajorStrides(dims);
  std::vector<int64_t> walk_dims, walk_strides;
  for (int64_t d : order) {
    walk_dims.push_back(dims[d]);
    walk_strides.push_back(strides[d]);
  }
  std::vector<T> out;
  out.reserve(data.size());
  for (IndexWalker it(walk_dims, {walk_strides}); !it.done(); it.Next()) {
    out.push_back(data[it.offset(0)]);
  }
  return out;
}

// Row-major strides of the layout Permute produces, indexed by the original
// dimension number.
inline std::vector<int64_t> PermutedStrides(const std::vector<int64_t>& dims,
                                            const std::vector<int64_t>& order) {
  std::vector<int64_t> permuted_dims;
  for (int64_t d : order) permuted_dims.push_back(dims[d]);
  const std::vector<int64_t> permuted = RowMajorStrides(permuted_dims);
  std::vector<int64_t> strides(dims.size(), 0);
  for (size_t j = 0; j < order.size(); ++j) strides[order[j]] = permuted[j];
  return strides;
}

// Loads `lhs` and `rhs` converted to R's accumulator type, each rearranged
// by Permute into its order. Loaded one by one: both operands may be the same
// literal. `names` label the operands in errors.
template <PrimitiveType R>
absl::Status LoadOperands(const Instruction& inst, const Literal& lhs,
                          const Literal& rhs,
                          const std::vector<int64_t>& lhs_order,
                          const std::vector<int64_t>& rhs_order,
                          const char* const names[2],
                          std::vector<Accum<R>>* a, std::vector<Accum<R>>* b) {
  const Literal* sources[] = {&lhs, &rhs};
  std::vector<Accum<R>>* targets[] = {a, b};
  for (int i = 0; i < 2; ++i) {
    if (!LoadAccum<R>(*sources[i], targets[i])) {
      return ErrorAt(
          inst.location(),
          absl::StrCat(
              "cannot convert ", names[i], " element type ",
              Sv(PrimitiveTypeName(sources[i]->shape().element_type())),
              " to result type ", Sv(PrimitiveTypeName(R))));
    }
  }
  *a = Permute(*a, lhs.shape().dimensions(), lhs_order);
  *b = Permute(*b, rhs.shape().dimensions(), rhs_order);
  return absl::OkStatus();
}

}  // namespace linalg
}  // namespace aotc::eval

#endif  // AOTC_COMPILER_EVALUATOR_LINALG_INTERNAL_H_
