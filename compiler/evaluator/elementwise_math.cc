// Same-typed elementwise arithmetic of the reference evaluator: negate, abs,
// sign, rounding, transcendental functions, bit counting, add ... power,
// logical and shift operations, for every element type where HLO defines
// them.
//
// Integer semantics follow XLA: arithmetic wraps (it is done in uint64_t and
// truncated, so C++ signed overflow never happens); x / 0 is -1 for signed
// and the maximum value for unsigned types; INT_MIN / -1 = INT_MIN; x % 0 = x;
// INT_MIN % -1 = 0; the remainder has the sign of the dividend. Shift amounts
// are read as unsigned: an amount >= the bit width (a negative amount
// included) gives 0 for shift-left and shift-right-logical, and 0 or -1 (by
// the sign of the shifted value) for shift-right-arithmetic. Integer power
// is exact repeated squaring modulo 2^bits; x^0 = 1 and 1^x = 1; a negative
// exponent gives 0 unless the base is 1 (so (-1)^-1 = 0, as in XLA).
// pred supports the logical operations, maximum / minimum, and (as in XLA)
// add = or, multiply = and, power(a, b) = a or not b.
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "compiler/evaluator/elementwise_internal.h"
#include "compiler/ir/native_type.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/strings.h"

namespace aotc::eval::internal {
namespace {

// Wrapping integer arithmetic through uint64_t; the final conversion to T is
// modular (well defined since C++20).
template <typename T>
T WrapAdd(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
template <typename T>
T WrapSub(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
template <typename T>
T WrapMul(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
template <typename T>
T WrapNeg(T a) {
  return static_cast<T>(uint64_t{0} - static_cast<uint64_t>(a));
}

template <typename T>
T IntDivide(T a, T b) {
  if (b == 0) {
    if constexpr (std::is_signed_v<T>) return T(-1);
    return std::numeric_limits<T>::max();
  }
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1) && a == std::numeric_limits<T>::min()) return a;
  }
  return static_cast<T>(a / b);
}

template <typename T>
T IntRemainder(T a, T b) {
  if (b == 0) return a;
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1) && a == std::numeric_limits<T>::min()) return T(0);
  }
  return static_cast<T>(a % b);
}

template <typename T>
T IntPower(T base, T exponent) {
  if (base == T(1) || exponent == T(0)) return T(1);
  if constexpr (std::is_signed_v<T>) {
    if (exponent < 0) return T(0);
  }
  using U = std::make_unsigned_t<T>;
  U e = static_cast<U>(exponent);
  uint64_t b = static_cast<uint64_t>(base);
  uint64_t result = 1;
  while (e != 0) {
    if (e & 1) result *= b;
    b *= b;
    e >>= 1;
  }
  return static_cast<T>(result);
}

template <typename T>
constexpr uint64_t kBits = sizeof(T) * 8;

template <typename T>
T ShiftLeft(T a, T amount) {
  using U = std::make_unsigned_t<T>;
  const U n = static_cast<U>(amount);
  if (n >= kBits<T>) return T(0);
  return static_cast<T>(static_cast<uint64_t>(static_cast<U>(a)) << n);
}

template <typename T>
T ShiftRightLogical(T a, T amount) {
  using U = std::make_unsigned_t<T>;
  const U n = static_cast<U>(amount);
  if (n >= kBits<T>) return T(0);
  return static_cast<T>(static_cast<U>(a) >> n);
}

template <typename T>
T ShiftRightArithmetic(T a, T amount) {
  using U = std::make_unsigned_t<T>;
  using S = std::make_signed_t<T>;
  const U n = static_cast<U>(amount);
  const S s = static_cast<S>(a);
  if (n >= kBits<T>) return static_cast<T>(s < 0 ? S(-1) : S(0));
  return static_cast<T>(static_cast<S>(s >> n));
}

// Round half to even without depending on the floating-point environment.
template <typename T>
T RoundHalfEven(T x) {
  T r = std::round(x);
  if (std::fabs(x - std::trunc(x)) == T(0.5)) r = T(2) * std::round(x / T(2));
  return r;
}

template <typename T>
T Sign(T x) {
  if constexpr (kIsInt<T>) {
    return static_cast<T>((T(0) < x) - (x < T(0)));
  } else if constexpr (kIsReal<T>) {
    if (std::isnan(x) || x == T(0)) return x;
    return std::copysign(T(1), x);
  } else {
    auto magnitude = std::abs(x);
    if (magnitude == 0) return T(0);
    return x / magnitude;
  }
}

template <typename T>
T Logistic(T x) {
  return T(1) / (T(1) + std::exp(-x));
}

// exp(z) - 1 for complex z = a + bi without cancellation in the real part:
// e^a cos b - 1 = expm1(a) cos b - 2 sin^2(b / 2).
template <typename T>
T ComplexExpm1(T z) {
  using R = typename T::value_type;
  const R a = z.real();
  const R b = z.imag();
  const R half_sin = std::sin(b / R(2));
  return T(std::expm1(a) * std::cos(b) - R(2) * half_sin * half_sin,
           std::exp(a) * std::sin(b));
}

// f(x), for c64 computed in c128 and rounded once: the C++ library's
// complex<float> inverse functions can be a few ulps off (asin by 4 in one
// element of the StableHLO test data).
template <typename T, typename F>
T Widened(T x, F f) {
  if constexpr (std::is_same_v<T, std::complex<float>>) {
    const std::complex<double> r = f(std::complex<double>(x));
    return T(static_cast<float>(r.real()), static_cast<float>(r.imag()));
  } else {
    return f(x);
  }
}

// log(1 + z): real part 0.5 * log1p(a(2 + a) + b^2), imaginary atan2(b, 1+a).
// a(2 + a) with one fused rounding (2 + a is exact near a = -2, where
// 2a + a^2 cancels), in double for c64.
template <typename T>
T ComplexLog1p(T z) {
  using R = typename T::value_type;
  using W = std::conditional_t<std::is_same_v<R, float>, double, R>;
  const W a = z.real();
  const W b = z.imag();
  return T(static_cast<R>(W(0.5) * std::log1p(std::fma(a, W(2) + a, b * b))),
           std::atan2(z.imag(), R(1) + z.real()));
}

// Complex power with the special cases XLA's evaluator gives: x^0 = 1 and
// 1^x = 1, inf^(a+0i) is inf for a > 0 and 0 for a < 0, and 0^w is 0 for
// Re(w) > 0.
template <typename T>
T ComplexPower(T base, T exponent) {
  using R = typename T::value_type;
  if (base == T(1) || exponent == T(0)) return T(1);
  const bool exponent_real = exponent.imag() == R(0);
  if (std::isinf(base.real()) && base.real() > 0 && base.imag() == R(0) &&
      exponent_real) {
    if (exponent.real() > 0) return base;
    if (exponent.real() < 0) return T(0);
  }
  if (base == T(0) && exponent.real() > 0) return T(0);
  return std::pow(base, exponent);
}

// Applies the unary opcode `op` through run(fn) when it is defined for
// compute type T; false when it is not.
template <typename T, typename Run>
bool DispatchUnary(Opcode op, Run&& run) {
  constexpr bool kFloatLike = kIsReal<T> || kIsComplex<T>;
  switch (op) {
    case Opcode::kNegate:
      if constexpr (kIsInt<T>) return run([](T x) { return WrapNeg(x); });
      if constexpr (kFloatLike) return run([](T x) { return -x; });
      return false;
    case Opcode::kAbs:
      if constexpr (kIsInt<T> && std::is_signed_v<T>) {
        return run([](T x) { return x < 0 ? WrapNeg(x) : x; });
      }
      if constexpr (kIsInt<T>) return run([](T x) { return x; });
      if constexpr (kIsReal<T>) return run([](T x) { return std::fabs(x); });
      return false;
    case Opcode::kSign:
      if constexpr (!kIsPred<T>) return run([](T x) { return Sign(x); });
      return false;
    case Opcode::kNot:
      if constexpr (kIsPred<T>) return run([](T x) { return !x; });
      if constexpr (kIsInt<T>) return run([](T x) { return T(~x); });
      return false;
    case Opcode::kPopulationCount:
      if constexpr (kIsInt<T>) {
        return run([](T x) {
          return T(std::popcount(static_cast<std::make_unsigned_t<T>>(x)));
        });
      }
      return false;
    case Opcode::kClz:
      if constexpr (kIsInt<T>) {
        return run([](T x) {
          return T(std::countl_zero(static_cast<std::make_unsigned_t<T>>(x)));
        });
      }
      return false;
    default:
      break;
  }
  if constexpr (kIsReal<T>) {
    switch (op) {
      case Opcode::kFloor:
        return run([](T x) { return std::floor(x); });
      case Opcode::kCeil:
        return run([](T x) { return std::ceil(x); });
      case Opcode::kRoundNearestAfz:
        return run([](T x) { return std::round(x); });
      case Opcode::kRoundNearestEven:
        return run([](T x) { return RoundHalfEven(x); });
      case Opcode::kCbrt:
        return run([](T x) { return std::cbrt(x); });
      case Opcode::kErf:
        return run([](T x) { return std::erf(x); });
      case Opcode::kExpm1:
        return run([](T x) { return std::expm1(x); });
      case Opcode::kLog1p:
        return run([](T x) { return std::log1p(x); });
      default:
        break;
    }
  }
  if constexpr (kIsComplex<T>) {
    switch (op) {
      case Opcode::kCbrt:
        // The principal cube root, z^(1/3), as XLA defines it (0 for 0).
        return run([](T x) {
          using R = typename T::value_type;
          return ComplexPower(x, T(R(1) / R(3)));
        });
      case Opcode::kExpm1:
        return run([](T x) { return ComplexExpm1(x); });
      case Opcode::kLog1p:
        return run([](T x) { return ComplexLog1p(x); });
      default:
        break;
    }
  }
  if constexpr (kFloatLike) {
    switch (op) {
      case Opcode::kSqrt:
        return run([](T x) { return std::sqrt(x); });
      case Opcode::kRsqrt:
        return run([](T x) { return T(1) / std::sqrt(x); });
      case Opcode::kExp:
        return run([](T x) { return std::exp(x); });
      case Opcode::kLog:
        return run([](T x) { return std::log(x); });
      case Opcode::kLogistic:
        return run([](T x) { return Logistic(x); });
      case Opcode::kTanh:
        return run([](T x) { return std::tanh(x); });
      case Opcode::kSin:
        return run([](T x) { return std::sin(x); });
      case Opcode::kCos:
        return run([](T x) { return std::cos(x); });
      case Opcode::kTan:
        return run([](T x) { return std::tan(x); });
      // The inverse and hyperbolic functions code generation gets through
      // the transcendental-expander pass; the evaluator keeps the C++
      // library's, an oracle independent of that expansion.
      case Opcode::kAsin:
        return run([](T x) {
          return Widened(x, [](auto v) { return std::asin(v); });
        });
      case Opcode::kAcos:
        return run([](T x) {
          return Widened(x, [](auto v) { return std::acos(v); });
        });
      case Opcode::kAsinh:
        return run([](T x) {
          return Widened(x, [](auto v) { return std::asinh(v); });
        });
      case Opcode::kAcosh:
        return run([](T x) {
          return Widened(x, [](auto v) { return std::acosh(v); });
        });
      case Opcode::kAtanh:
        return run([](T x) {
          return Widened(x, [](auto v) { return std::atanh(v); });
        });
      case Opcode::kSinh:
        return run([](T x) {
          return Widened(x, [](auto v) { return std::sinh(v); });
        });
      case Opcode::kCosh:
        return run([](T x) {
          return Widened(x, [](auto v) { return std::cosh(v); });
        });
      default:
        break;
    }
  }
  return false;
}

// Applies the binary opcode `op` through run(fn) when it is defined for
// compute type T; false when it is not.
template <typename T, typename Run>
bool DispatchBinary(Opcode op, Run&& run) {
  constexpr bool kFloatLike = kIsReal<T> || kIsComplex<T>;
  switch (op) {
    case Opcode::kAnd:
      if constexpr (kIsPred<T>) return run([](T a, T b) { return a && b; });
      if constexpr (kIsInt<T>) return run([](T a, T b) { return T(a & b); });
      return false;
    case Opcode::kOr:
      if constexpr (kIsPred<T>) return run([](T a, T b) { return a || b; });
      if constexpr (kIsInt<T>) return run([](T a, T b) { return T(a | b); });
      return false;
    case Opcode::kXor:
      if constexpr (kIsPred<T>) return run([](T a, T b) { return a != b; });
      if constexpr (kIsInt<T>) return run([](T a, T b) { return T(a ^ b); });
      return false;
    case Opcode::kMaximum:
      if constexpr (!kIsComplex<T>)
        return run([](T a, T b) { return MaxOf(a, b); });
      return false;
    case Opcode::kMinimum:
      if constexpr (!kIsComplex<T>)
        return run([](T a, T b) { return MinOf(a, b); });
      return false;
    default:
      break;
  }
  if constexpr (kIsPred<T>) {
    // As in XLA's evaluator, which computes pred arithmetic as integers
    // and converts back: add is or, multiply is and, a^b is a or not b.
    if (op == Opcode::kAdd) return run([](T a, T b) { return a || b; });
    if (op == Opcode::kMultiply) return run([](T a, T b) { return a && b; });
    if (op == Opcode::kPower) return run([](T a, T b) { return a || !b; });
    return false;
  }
  if constexpr (kIsInt<T>) {
    switch (op) {
      case Opcode::kAdd:
        return run([](T a, T b) { return WrapAdd(a, b); });
      case Opcode::kSubtract:
        return run([](T a, T b) { return WrapSub(a, b); });
      case Opcode::kMultiply:
        return run([](T a, T b) { return WrapMul(a, b); });
      case Opcode::kDivide:
        return run([](T a, T b) { return IntDivide(a, b); });
      case Opcode::kRemainder:
        return run([](T a, T b) { return IntRemainder(a, b); });
      case Opcode::kPower:
        return run([](T a, T b) { return IntPower(a, b); });
      case Opcode::kShiftLeft:
        return run([](T a, T b) { return ShiftLeft(a, b); });
      case Opcode::kShiftRightLogical:
        return run([](T a, T b) { return ShiftRightLogical(a, b); });
      case Opcode::kShiftRightArithmetic:
        return run([](T a, T b) { return ShiftRightArithmetic(a, b); });
      default:
        return false;
    }
  }
  if constexpr (kFloatLike) {
    switch (op) {
      case Opcode::kAdd:
        return run([](T a, T b) { return a + b; });
      case Opcode::kSubtract:
        return run([](T a, T b) { return a - b; });
      case Opcode::kMultiply:
        return run([](T a, T b) { return a * b; });
      case Opcode::kDivide:
        return run([](T a, T b) { return a / b; });
      default:
        break;
    }
  }
  if constexpr (kIsReal<T>) {
    switch (op) {
      case Opcode::kRemainder:
        return run([](T a, T b) { return std::fmod(a, b); });
      case Opcode::kAtan2:
        return run([](T a, T b) { return std::atan2(a, b); });
      case Opcode::kPower:
        // std::pow already gives pow(x, 0) = 1 and pow(1, y) = 1, NaN
        // included.
        return run([](T a, T b) { return std::pow(a, b); });
      default:
        return false;
    }
  }
  if constexpr (kIsComplex<T>) {
    if (op == Opcode::kPower) {
      return run([](T a, T b) { return ComplexPower(a, b); });
    }
  }
  return false;
}

}  // namespace

absl::StatusOr<Literal> EvalUnaryMath(const Instruction& inst,
                                      const Literal& x) {
  const PrimitiveType type = x.shape().element_type();
  Literal out(inst.shape());
  bool defined = false;
  DispatchComputableType(type, [&]<PrimitiveType P>() {
    using C = NativeType<P>;
    defined = DispatchUnary<ComputeType<C>>(inst.opcode(), [&](auto fn) {
      Map1<C, C>(x, &out, fn);
      return true;
    });
  });
  if (!defined) return NotDefinedFor(inst, type);
  return out;
}

absl::StatusOr<Literal> EvalBinaryMath(const Instruction& inst,
                                       const Literal& a, const Literal& b) {
  const PrimitiveType type = a.shape().element_type();
  Literal out(inst.shape());
  bool defined = false;
  DispatchComputableType(type, [&]<PrimitiveType P>() {
    using C = NativeType<P>;
    defined = DispatchBinary<ComputeType<C>>(inst.opcode(), [&](auto fn) {
      Map2<C, C>(a, b, &out, fn);
      return true;
    });
  });
  if (!defined) return NotDefinedFor(inst, type);
  return out;
}

}  // namespace aotc::eval::internal
