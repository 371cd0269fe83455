// Element type changes of the reference evaluator: convert, bitcast-convert
// and reduce-precision.
//
// convert follows C++ value conversion where it is exact and defines the
// cases C++ leaves undefined:
//   - to pred: x != 0 (NaN is true; for complex the real part is tested);
//   - integer -> integer: modular (wraps), sign-extending signed sources;
//   - integer -> float: round to nearest even, once;
//   - float -> integer: truncation toward zero, NaN -> 0, values beyond the
//     destination range saturate to its minimum / maximum (aotc's choice,
//     matching XLA's CPU backend, which saturates instead of leaving the
//     result undefined);
//   - float -> narrower float: round to nearest even, once (f64 -> f16 and
//     f64 -> bf16 do not round through f32);
//   - complex -> real types: the real part; real -> complex: imaginary 0.
#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "compiler/evaluator/elementwise_internal.h"
#include "compiler/evaluator/kernel_util.h"
#include "compiler/ir/native_type.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/float16.h"
#include "compiler/support/strings.h"

namespace aotc::eval::internal {
namespace {

// A saturating float -> integer conversion (see the file comment).
template <typename I>
I FloatToInt(double d) {
  if (std::isnan(d)) return I(0);
  const double lo = static_cast<double>(std::numeric_limits<I>::min());
  // 2^(bits-1) for signed, 2^bits for unsigned: the first value past max().
  const double hi_exclusive = std::ldexp(1.0, std::numeric_limits<I>::digits);
  if (d <= lo) return std::numeric_limits<I>::min();
  if (d >= hi_exclusive) return std::numeric_limits<I>::max();
  return static_cast<I>(std::trunc(d));
}

// A real double as destination type To (float-like or complex).
template <typename To>
To DoubleToFloatLike(double d) {
  if constexpr (std::is_same_v<To, Half>) {
    return Half::FromBits(DoubleToHalf(d));
  } else if constexpr (std::is_same_v<To, BFloat16>) {
    return BFloat16::FromBits(DoubleToBFloat16(d));
  } else if constexpr (kIsComplex<To>) {
    using R = typename To::value_type;
    return To(static_cast<R>(d), R(0));
  } else {
    return static_cast<To>(d);
  }
}

template <typename To, typename From>
To ConvertElement(From v) {
  using F = ComputeType<From>;
  if constexpr (kIsComplex<From> && kIsComplex<To>) {
    using R = typename To::value_type;
    return To(static_cast<R>(v.real()), static_cast<R>(v.imag()));
  } else if constexpr (kIsComplex<From>) {
    return ConvertElement<To>(v.real());
  } else if constexpr (kIsPred<To>) {
    return Load(v) != F(0);
  } else if constexpr (kIsPred<From>) {
    return ConvertElement<To>(static_cast<uint8_t>(v ? 1 : 0));
  } else if constexpr (kIsInt<From>) {
    if constexpr (kIsInt<To>) {
      return static_cast<To>(v);
    } else if constexpr (kIsHalfLike<To>) {
      const bool negative = v < 0;
      const uint64_t mag = negative ? uint64_t{0} - static_cast<uint64_t>(v)
                                    : static_cast<uint64_t>(v);
      const int bits = std::is_same_v<To, Half> ? 11 : 8;
      return DoubleToFloatLike<To>(RoundIntegerToBits(mag, negative, bits));
    } else if constexpr (kIsComplex<To>) {
      using R = typename To::value_type;
      return To(static_cast<R>(v), R(0));
    } else {
      return static_cast<To>(v);
    }
  } else {
    // A real source: widening to double is exact.
    const double d = static_cast<double>(Load(v));
    if constexpr (kIsInt<To>) {
      return FloatToInt<To>(d);
    } else {
      return DoubleToFloatLike<To>(d);
    }
  }
}

// Rounds the float encoded by `bits` (src_exponent / src_mantissa bits) to
// exponent_bits / mantissa_bits the way XLA's reduce-precision does:
// mantissa rounded to nearest even (an overflow carries into the exponent);
// exponents above the reduced range become +-inf and exponents at or below
// its minimum (the reduced format's denormals included) become +-0; NaN
// stays the input NaN, or becomes +inf when no mantissa bits remain.
template <typename U>
U ReducePrecisionBits(U bits, int src_exponent, int src_mantissa,
                      int exponent_bits, int mantissa_bits) {
  constexpr int kBits = sizeof(U) * 8;
  const U sign_mask = U(U(1) << (kBits - 1));
  const U exp_mask = U(((U(1) << src_exponent) - 1) << src_mantissa);
  const bool is_nan = U(bits & U(~sign_mask)) > exp_mask;
  U x = bits;
  if (mantissa_bits < src_mantissa) {
    const int dropped = src_mantissa - mantissa_bits;
    const U last_kept = U(U(1) << dropped);
    const U base_bias = U((last_kept >> 1) - 1);
    const U bias = U(((x & last_kept) >> dropped) + base_bias);
    x = U(U(x + bias) & U(~U(last_kept - 1)));
  }
  if (exponent_bits < src_exponent) {
    const U bias = U((U(1) << (src_exponent - 1)) - 1);
    const U reduced_bias = U((U(1) << (exponent_bits - 1)) - 1);
    const U max_exp = U(U(bias + reduced_bias) << src_mantissa);
    const U min_exp = U(U(bias - reduced_bias) << src_mantissa);
    const U exponent = U(x & exp_mask);
    const U signed_zero = U(x & sign_mask);
    if (exponent > max_exp) x = U(signed_zero | exp_mask);
    if (exponent <= min_exp) x = signed_zero;
  }
  if (is_nan) return mantissa_bits > 0 ? bits : exp_mask;
  return x;
}

template <typename C>
struct FloatFormat;
template <>
struct FloatFormat<Half> {
  using Bits = uint16_t;
  static constexpr int kExponent = 5;
  static constexpr int kMantissa = 10;
};
template <>
struct FloatFormat<BFloat16> {
  using Bits = uint16_t;
  static constexpr int kExponent = 8;
  static constexpr int kMantissa = 7;
};
template <>
struct FloatFormat<float> {
  using Bits = uint32_t;
  static constexpr int kExponent = 8;
  static constexpr int kMantissa = 23;
};
template <>
struct FloatFormat<double> {
  using Bits = uint64_t;
  static constexpr int kExponent = 11;
  static constexpr int kMantissa = 52;
};

}  // namespace

absl::StatusOr<Literal> EvalConvert(const Instruction& inst, const Literal& x) {
  Literal out(inst.shape());
  DispatchComputableType(x.shape().element_type(), [&]<PrimitiveType From>() {
    DispatchComputableType(out.shape().element_type(), [&]<PrimitiveType To>() {
      using CFrom = NativeType<From>;
      using CTo = NativeType<To>;
      auto src = x.data<CFrom>();
      auto dst = out.mutable_data<CTo>();
      for (size_t i = 0; i < dst.size(); ++i) {
        dst[i] = ConvertElement<CTo>(src[i]);
      }
    });
  });
  return out;
}

// The bytes of the operand reinterpreted: literal data is dense, row-major
// and host-endian (little-endian on every host aotc supports), so a
// bitcast-convert that adds or removes a trailing dimension (XLA's rule for
// types of different widths: f32[N] <-> u8[N,4], element 0 of the new
// dimension holding the least significant bytes) is the same byte copy as a
// same-width one. pred results are normalized to 0 / 1.
absl::StatusOr<Literal> EvalBitcastConvert(const Instruction& inst,
                                           const Literal& x) {
  Literal out(inst.shape());
  if (out.raw_size() != x.raw_size()) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("bitcast-convert from ", x.shape().ToString(false), " to ",
                     inst.shape().ToString(false),
                     " changes the size in bytes"));
  }
  if (out.raw_size() == 0) return out;
  std::memcpy(out.mutable_raw(), x.raw(), static_cast<size_t>(x.raw_size()));
  if (out.shape().element_type() == PrimitiveType::kPred) {
    uint8_t* bytes = out.mutable_raw();
    for (int64_t i = 0; i < out.raw_size(); ++i) bytes[i] = bytes[i] != 0;
  }
  return out;
}

absl::StatusOr<Literal> EvalReducePrecision(const Instruction& inst,
                                            const Literal& x) {
  const int64_t exponent_bits = inst.exponent_bits();
  const int64_t mantissa_bits = inst.mantissa_bits();
  if (exponent_bits < 1 || mantissa_bits < 0) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("reduce-precision needs exponent_bits >= 1 and "
                     "mantissa_bits >= 0, got exponent_bits=",
                     exponent_bits, " mantissa_bits=", mantissa_bits));
  }
  const PrimitiveType type = x.shape().element_type();
  Literal out(inst.shape());
  bool defined = false;
  auto run = [&]<typename C>() {
    using F = FloatFormat<C>;
    using U = typename F::Bits;
    // Attributes wider than the source format leave that part unchanged.
    const int e =
        static_cast<int>(std::min<int64_t>(exponent_bits, F::kExponent));
    const int m =
        static_cast<int>(std::min<int64_t>(mantissa_bits, F::kMantissa));
    auto src = x.data<U>();
    auto dst = out.mutable_data<U>();
    for (size_t i = 0; i < dst.size(); ++i) {
      dst[i] = ReducePrecisionBits<U>(src[i], F::kExponent, F::kMantissa, e, m);
    }
    defined = true;
  };
  switch (type) {
    case PrimitiveType::kF16:
      run.template operator()<Half>();
      break;
    case PrimitiveType::kBF16:
      run.template operator()<BFloat16>();
      break;
    case PrimitiveType::kF32:
      run.template operator()<float>();
      break;
    case PrimitiveType::kF64:
      run.template operator()<double>();
      break;
    default:
      break;
  }
  if (!defined) return NotDefinedFor(inst, type);
  return out;
}

}  // namespace aotc::eval::internal
