// exp, expm1, log and log1p.
//
// exp and expm1 reduce x = n ln2 + r with |r| <= ln2/2 (Cody-Waite: n ln2_hi
// is exact) and scale the polynomial by 2^n in two steps. log and log1p split
// x = 2^k m with m in [sqrt(1/2), sqrt(2)) and evaluate log(m) = 2 atanh(s),
// s = (m - 1) / (m + 1), as a polynomial in s^2.
#include <cmath>

#include "codegen/elemental/math/math_builder.h"
#include "codegen/elemental/math/math_coefficients.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/math/math_internal.h"

namespace aotc::codegen {
namespace math_internal {
namespace {

// Bits of sqrt(1/2) rounded down: the log reduction offsets the exponent
// field by them so that m lands in [sqrt(1/2), sqrt(2)) instead of [1, 2).
int64_t SqrtHalfBits(const Fp& f) {
  return f.is_f64() ? 0x3fe6a09e667f3bccLL : 0x3f3504f3LL;
}

struct ExpReduction {
  llvm::Value* n;  // integer
  llvm::Value* r;  // x - n ln2 (+ x_lo)
};

ExpReduction ReduceForExp(const Fp& f, llvm::Value* x, llvm::Value* x_lo) {
  std::span<const double> ln2 = f.Table(kLn2F32, kLn2F64);
  ExpReduction red;
  llvm::Value* nf = f.RoundToInt(f.Mul(x, f.C(1 / std::log(2.0))), &red.n);
  // x and nf * ln2_hi agree in sign and lie within a factor of two of each
  // other (or nf is 0), so the subtraction is exact (Sterbenz).
  llvm::Value* hi = f.Sub(x, f.Mul(nf, f.C(ln2[0])));
  llvm::Value* lo = f.Neg(f.Mul(nf, f.C(ln2[1])));
  if (x_lo != nullptr) lo = f.Add(lo, x_lo);
  red.r = f.Add(hi, lo);
  return red;
}

// r + r^2 Q(r) = expm1(r) for |r| <= ln2/2.
llvm::Value* Expm1Poly(const Fp& f, llvm::Value* r) {
  llvm::Value* q = f.Horner(r, f.Table(kExpPolyF32, kExpPolyF64));
  return f.MulAdd(f.Mul(r, r), q, r);
}

// The pieces of log(1 + f) for f = m - 1, kept apart so that callers add
// them smallest first: log(1 + f) = f - (hfsq - s_tail).
struct LogCore {
  llvm::Value* f;       // m - 1
  llvm::Value* hfsq;    // f^2 / 2
  llvm::Value* s_tail;  // s (hfsq + R(z)), s = f / (2 + f)
};

LogCore LogCoreOf(const Fp& f, llvm::Value* m) {
  LogCore c;
  c.f = f.Sub(m, f.C(1));  // exact: m is in [0.5, 2]
  llvm::Value* s = f.Div(c.f, f.Add(f.C(2), c.f));
  llvm::Value* z = f.Mul(s, s);
  llvm::Value* r = f.Mul(z, f.Horner(z, f.Table(kLogPolyF32, kLogPolyF64)));
  c.hfsq = f.Mul(f.C(0.5), f.Mul(c.f, c.f));
  c.s_tail = f.Mul(s, f.Add(c.hfsq, r));
  return c;
}

// k ln2 + log(m), plus `extra` (a small addend, or nullptr), ordered so that
// the large parts are added last: log(1+f) = f - (hfsq - s (hfsq + R)).
llvm::Value* CombineLog(const Fp& f, llvm::Value* k, const LogCore& c,
                        llvm::Value* extra) {
  std::span<const double> ln2 = f.Table(kLn2F32, kLn2F64);
  llvm::Value* low = f.Mul(k, f.C(ln2[1]));
  if (extra != nullptr) low = f.Add(low, extra);
  llvm::Value* inner = f.Sub(c.hfsq, f.Add(c.s_tail, low));
  return f.Add(f.Mul(k, f.C(ln2[0])), f.Sub(c.f, inner));
}

}  // namespace

llvm::Value* ExpImpl(const Fp& f, llvm::Value* x, llvm::Value* x_lo) {
  // Beyond these exp overflows or underflows to 0 in every rounding, and
  // inside them n fits the two-step scaling.
  llvm::Value* xc = f.Clamp(x, f.C(-104, -746), f.C(89, 710));
  ExpReduction red = ReduceForExp(f, xc, x_lo);
  llvm::Value* p = f.Add(f.C(1), Expm1Poly(f, red.r));
  // A NaN x makes r and p NaN, whatever scale the garbage n gives.
  return f.Ldexp(p, red.n);
}

llvm::Value* Expm1Impl(const Fp& f, llvm::Value* x) {
  // Below the lower clamp expm1 rounds to -1.
  llvm::Value* xc = f.Clamp(x, f.C(-20, -40), f.C(89, 710));
  ExpReduction red = ReduceForExp(f, xc, nullptr);
  llvm::Value* em = Expm1Poly(f, red.r);
  // expm1(x) = 2^n em + (2^n - 1); both parts are exact up to the last add.
  llvm::IRBuilderBase& b = f.b();
  llvm::Value* big = b.CreateICmpSGT(red.n, f.I(100, 1000));
  llvm::Value* n_small = b.CreateSelect(big, f.I(0), red.n);
  llvm::Value* t = f.Exp2Int(n_small);
  llvm::Value* small_result = f.MulAdd(t, em, f.Sub(t, f.C(1)));
  // For large n the -1 is negligible and 2^n may not be representable.
  llvm::Value* big_result = f.Ldexp(f.Add(em, f.C(1)), red.n);
  llvm::Value* result = f.Select(big, big_result, small_result);
  return f.Select(f.Eq(x, f.C(0)), x, result);
}

LogReduction ReduceForLog(const Fp& f, llvm::Value* x) {
  llvm::IRBuilderBase& b = f.b();
  // Subnormals are scaled into the normal range first.
  int scale_bits = f.is_f64() ? 54 : 24;
  llvm::Value* subnormal = f.Lt(x, f.MinNormal());
  llvm::Value* xs =
      f.Select(subnormal, f.Mul(x, f.C(std::ldexp(1.0, scale_bits))), x);
  int64_t sqrt_half = SqrtHalfBits(f);
  int64_t one = static_cast<int64_t>(f.bias()) << f.mantissa_bits();
  llvm::Value* ix = b.CreateAdd(f.ToBits(xs), f.I(one - sqrt_half));
  llvm::Value* k =
      b.CreateSub(b.CreateAShr(ix, f.mantissa_bits()), f.I(f.bias()));
  int64_t mantissa_mask = (int64_t{1} << f.mantissa_bits()) - 1;
  llvm::Value* m_bits =
      b.CreateAdd(b.CreateAnd(ix, f.I(mantissa_mask)), f.I(sqrt_half));
  LogReduction red;
  red.m = f.FromBits(m_bits);
  red.k = f.Sub(f.IntToFp(k), f.Select(subnormal, f.C(scale_bits), f.C(0)));
  return red;
}

llvm::Value* LogImpl(const Fp& f, llvm::Value* x) {
  LogReduction red = ReduceForLog(f, x);
  llvm::Value* result = CombineLog(f, red.k, LogCoreOf(f, red.m), nullptr);
  result = f.Select(f.Eq(x, f.Inf()), x, result);
  // x > 0 is false for NaN as well as for negative x: both give NaN.
  result = f.Select(f.Gt(x, f.C(0)), result, f.NaN());
  return f.Select(f.Eq(x, f.C(0)), f.Neg(f.Inf()), result);
}

namespace {

llvm::Value* Log1pImpl(const Fp& f, llvm::Value* x) {
  // log1p(x) = log(u) + log(1 + c/u), where u = 1 + x rounded and c is its
  // rounding error x - (u - 1): exact while u < 2^mantissa_bits, and far
  // below an ulp of the result beyond. For x > -1, u >= 2^-mantissa_bits is
  // never subnormal.
  llvm::Value* u = f.Add(f.C(1), x);
  llvm::Value* c = f.Div(f.Sub(x, f.Sub(u, f.C(1))), u);
  LogReduction red = ReduceForLog(f, u);
  llvm::Value* result = CombineLog(f, red.k, LogCoreOf(f, red.m), c);
  result = f.Select(f.Eq(x, f.Inf()), x, result);
  result = f.Select(f.Gt(x, f.C(-1)), result, f.NaN());
  result = f.Select(f.Eq(x, f.C(-1)), f.Neg(f.Inf()), result);
  return f.Select(f.Eq(x, f.C(0)), x, result);
}

}  // namespace
}  // namespace math_internal

using math_internal::Fp;
using math_internal::WithFp;

llvm::Value* EmitExp(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x,
                [&](const Fp& f) { return math_internal::ExpImpl(f, x); });
}

llvm::Value* EmitExpm1(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x,
                [&](const Fp& f) { return math_internal::Expm1Impl(f, x); });
}

llvm::Value* EmitLog(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x,
                [&](const Fp& f) { return math_internal::LogImpl(f, x); });
}

llvm::Value* EmitLog1p(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x,
                [&](const Fp& f) { return math_internal::Log1pImpl(f, x); });
}

}  // namespace aotc::codegen
