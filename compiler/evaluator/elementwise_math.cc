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
// add = or, multiply = and, power(a, b) = a or not b. Every inexact
// function is computed in a wider type than its result, by another method
// than code generation's (below).
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

// ---- Inexact functions, computed wider than the result ------------------
//
// Code generation has its own polynomials and formulas
// (codegen/elemental/math/); the evaluator, its oracle, computes every
// inexact function by another method: f32 (and f16, bf16) through glibc's
// double functions, f64 through its long double ones, complex values through
// std::complex<long double> (glibc's cexpl, clogl, csqrtl, ...) or the
// formulas below written in long double. On x86-64 long double has a 64-bit
// mantissa and a 15-bit exponent, so a textbook formula cannot overflow or
// underflow for f64 operands, and one rounding to the result type follows.
// docs/evaluator.md lists the method of each operation.
static_assert(std::numeric_limits<long double>::digits >=
                  std::numeric_limits<double>::digits,
              "long double must be at least as wide as double");

template <typename T>
struct WideTypeOf {
  using type = long double;
};
template <>
struct WideTypeOf<float> {
  using type = double;
};
template <typename R>
struct WideTypeOf<std::complex<R>> {
  using type = std::complex<long double>;
};
template <typename T>
using Wide = typename WideTypeOf<T>::type;

// A wide value rounded once to T.
template <typename T, typename W>
T Narrow(W w) {
  if constexpr (kIsComplex<T>) {
    using R = typename T::value_type;
    return T(static_cast<R>(w.real()), static_cast<R>(w.imag()));
  } else {
    return static_cast<T>(w);
  }
}

// f(x) computed in Wide<T> and rounded once.
template <typename T, typename F>
T InWide(T x, F f) {
  return Narrow<T>(f(static_cast<Wide<T>>(x)));
}
template <typename T, typename F>
T InWide(T x, T y, F f) {
  return Narrow<T>(f(static_cast<Wide<T>>(x), static_cast<Wide<T>>(y)));
}

template <typename W>
W Logistic(W x) {
  return W(1) / (W(1) + std::exp(-x));
}

using LongComplex = std::complex<long double>;

// exp(z) - 1 for z = a + bi: e^a cos b - 1 = expm1(a) cos b - 2 sin^2(b / 2)
// has no cancellation in the real part where cos b is near 1; the imaginary
// part is exactly b when b = 0 (no inf * 0 at a huge a). Non-finite parts
// take cexp's special values (exp(-inf + bi) - 1 = -1 + 0i).
LongComplex ComplexExpm1(LongComplex z) {
  const long double a = z.real();
  const long double b = z.imag();
  if (!std::isfinite(a) || !std::isfinite(b)) {
    const LongComplex e = std::exp(z);
    return LongComplex(e.real() - 1, e.imag());
  }
  const long double half_sin = std::sin(b / 2);
  const long double im = b == 0 ? b : std::exp(a) * std::sin(b);
  return LongComplex(std::expm1(a) * std::cos(b) - 2 * half_sin * half_sin, im);
}

// log(1 + z): real part log|1 + z| = log1p(s) / 2 with s = a(2 + a) + b^2,
// a(2 + a) fused (2 + a is exact near a = -2, where 2a + a^2 cancels); the
// squares of f64 parts fit in long double's exponent. Where s < -1/2, near
// z = -1, s itself would round away b^2: there log((1 + a)^2 + b^2) / 2,
// 1 + a being exact. Imaginary part atan2(b, 1 + a).
LongComplex ComplexLog1p(LongComplex z) {
  const long double a = z.real();
  const long double b = z.imag();
  if (std::isinf(a) || std::isinf(b)) return std::log(LongComplex(1) + z);
  const long double s = std::fma(a, 2 + a, b * b);
  const long double u = 1 + a;
  const long double re =
      s < -0.5L ? 0.5L * std::log(u * u + b * b) : 0.5L * std::log1p(s);
  return LongComplex(re, std::atan2(b, u));
}

// Complex power with the special cases XLA's evaluator gives: x^0 = 1 and
// 1^x = 1, inf^(a+0i) is inf for a > 0 and 0 for a < 0, and 0^w is 0 for
// Re(w) > 0; otherwise exp(w log x) in long double.
LongComplex ComplexPower(LongComplex base, LongComplex exponent) {
  if (base == LongComplex(1) || exponent == LongComplex(0)) return 1;
  const bool exponent_real = exponent.imag() == 0;
  if (std::isinf(base.real()) && base.real() > 0 && base.imag() == 0 &&
      exponent_real) {
    if (exponent.real() > 0) return base;
    if (exponent.real() < 0) return 0;
  }
  if (base == LongComplex(0) && exponent.real() > 0) return 0;
  return std::pow(base, exponent);
}

// z / |z| (0 for 0), with |z| in long double so that it cannot overflow.
// With an infinite part (and no NaN) the limit: the infinities count as +-1
// and the finite part as 0, so sign(inf + 1i) = 1.
LongComplex ComplexSign(LongComplex z) {
  if (std::isnan(z.real()) || std::isnan(z.imag())) {
    const long double nan = std::numeric_limits<long double>::quiet_NaN();
    return LongComplex(nan, nan);
  }
  if (std::isinf(z.real()) || std::isinf(z.imag())) {
    auto box = [](long double v) {
      return std::copysign(std::isinf(v) ? 1.0L : 0.0L, v);
    };
    z = LongComplex(box(z.real()), box(z.imag()));
  }
  const long double magnitude = std::abs(z);
  if (magnitude == 0) return 0;
  return LongComplex(z.real() / magnitude, z.imag() / magnitude);
}

template <typename T>
T Sign(T x) {
  if constexpr (kIsInt<T>) {
    return static_cast<T>((T(0) < x) - (x < T(0)));
  } else if constexpr (kIsReal<T>) {
    if (std::isnan(x) || x == T(0)) return x;
    return std::copysign(T(1), x);
  } else {
    return InWide(x, [](LongComplex z) { return ComplexSign(z); });
  }
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
        return run(
            [](T x) { return InWide(x, [](auto v) { return std::cbrt(v); }); });
      case Opcode::kErf:
        return run(
            [](T x) { return InWide(x, [](auto v) { return std::erf(v); }); });
      case Opcode::kExpm1:
        return run([](T x) {
          return InWide(x, [](auto v) { return std::expm1(v); });
        });
      case Opcode::kLog1p:
        return run([](T x) {
          return InWide(x, [](auto v) { return std::log1p(v); });
        });
      default:
        break;
    }
  }
  if constexpr (kIsComplex<T>) {
    switch (op) {
      case Opcode::kCbrt:
        // The principal cube root, z^(1/3), as XLA defines it (0 for 0).
        return run([](T x) {
          return InWide(x, [](LongComplex v) {
            return ComplexPower(v, LongComplex(1.0L / 3));
          });
        });
      case Opcode::kExpm1:
        return run([](T x) { return InWide(x, ComplexExpm1); });
      case Opcode::kLog1p:
        return run([](T x) { return InWide(x, ComplexLog1p); });
      default:
        break;
    }
  }
  if constexpr (kFloatLike) {
    // sqrt of a real is correctly rounded as it is; the rest is inexact
    // and computed wide (see above). The inverse and hyperbolic functions
    // reach code generation through the transcendental-expander pass, so
    // the evaluator is an independent check of that expansion.
    switch (op) {
      case Opcode::kSqrt:
        if constexpr (kIsReal<T>) return run([](T x) { return std::sqrt(x); });
        return run(
            [](T x) { return InWide(x, [](auto v) { return std::sqrt(v); }); });
      case Opcode::kRsqrt:
        return run([](T x) {
          return InWide(x,
                        [](auto v) { return decltype(v)(1) / std::sqrt(v); });
        });
      case Opcode::kExp:
        return run(
            [](T x) { return InWide(x, [](auto v) { return std::exp(v); }); });
      case Opcode::kLog:
        return run(
            [](T x) { return InWide(x, [](auto v) { return std::log(v); }); });
      case Opcode::kLogistic:
        return run(
            [](T x) { return InWide(x, [](auto v) { return Logistic(v); }); });
      case Opcode::kTanh:
        return run(
            [](T x) { return InWide(x, [](auto v) { return std::tanh(v); }); });
      case Opcode::kSin:
        return run(
            [](T x) { return InWide(x, [](auto v) { return std::sin(v); }); });
      case Opcode::kCos:
        return run(
            [](T x) { return InWide(x, [](auto v) { return std::cos(v); }); });
      case Opcode::kTan:
        return run(
            [](T x) { return InWide(x, [](auto v) { return std::tan(v); }); });
      case Opcode::kAsin:
        return run(
            [](T x) { return InWide(x, [](auto v) { return std::asin(v); }); });
      case Opcode::kAcos:
        return run(
            [](T x) { return InWide(x, [](auto v) { return std::acos(v); }); });
      case Opcode::kAsinh:
        return run([](T x) {
          return InWide(x, [](auto v) { return std::asinh(v); });
        });
      case Opcode::kAcosh:
        return run([](T x) {
          return InWide(x, [](auto v) { return std::acosh(v); });
        });
      case Opcode::kAtanh:
        return run([](T x) {
          return InWide(x, [](auto v) { return std::atanh(v); });
        });
      case Opcode::kSinh:
        return run(
            [](T x) { return InWide(x, [](auto v) { return std::sinh(v); }); });
      case Opcode::kCosh:
        return run(
            [](T x) { return InWide(x, [](auto v) { return std::cosh(v); }); });
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
        if constexpr (kIsReal<T>) return run([](T a, T b) { return a / b; });
        // Complex quotients in long double: another algorithm (GCC's
        // __divxc3) at another precision than code generation's.
        return run([](T a, T b) {
          return InWide(a, b, [](auto x, auto y) { return x / y; });
        });
      default:
        break;
    }
  }
  if constexpr (kIsReal<T>) {
    switch (op) {
      case Opcode::kRemainder:
        return run([](T a, T b) { return std::fmod(a, b); });
      case Opcode::kAtan2:
        return run([](T a, T b) {
          return InWide(a, b, [](auto y, auto x) { return std::atan2(y, x); });
        });
      case Opcode::kPower:
        // std::pow already gives pow(x, 0) = 1 and pow(1, y) = 1, NaN
        // included.
        return run([](T a, T b) {
          return InWide(a, b, [](auto x, auto y) { return std::pow(x, y); });
        });
      default:
        return false;
    }
  }
  if constexpr (kIsComplex<T>) {
    if (op == Opcode::kPower) {
      return run([](T a, T b) { return InWide(a, b, ComplexPower); });
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
