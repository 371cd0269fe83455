// pow(x, y) with C99 Annex F special cases.
//
// |x|^y = exp(y log|x|). An error e in y log|x| becomes a relative error e
// in the result, and y log|x| reaches 745 before the result under- or
// overflows, so log|x| needs about 10 bits more than the result type has.
// f32 gets them by evaluating log and exp in double. f64 computes log|x| as
// a double-double (s = (m - 1) / (m + 1) and the first two terms of
// 2 atanh(s) exact, the rest as a polynomial), multiplies by y exactly and
// hands the low part to exp as a correction. The special cases (zeros,
// infinities, NaN, negative x) are selects over the ordinary result.
#include "codegen/elemental/math/math_builder.h"
#include "codegen/elemental/math/math_coefficients.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/math/math_internal.h"
#include "compiler/support/check.h"

namespace aotc::codegen {
namespace math_internal {
namespace {

// log(x) for positive finite double x, relative error about 2^-66.
Dd LogDd(const Fp& d, llvm::Value* x) {
  LogReduction red = ReduceForLog(d, x);
  llvm::Value* f = d.Sub(red.m, d.C(1));  // exact
  // s = f / (m + 1) to double-double precision.
  Dd den = d.TwoSum(red.m, d.C(1));
  llvm::Value* sh = d.Div(f, den.hi);
  Dd p = d.TwoProd(sh, den.hi);
  // f - p.hi is exact: p.hi is within an ulp of f.
  llvm::Value* residual = d.Sub(d.Sub(d.Sub(f, p.hi), p.lo), d.Mul(sh, den.lo));
  llvm::Value* sl = d.Div(residual, den.hi);
  // log(m) = 2s + (2/3) s^3 + s^5 T(s^2); the second term is ~1% of the
  // first, so it is formed as a double-double too.
  Dd s2 = d.TwoProd(sh, sh);
  s2.lo = d.Add(s2.lo, d.Mul(d.Add(sh, sh), sl));
  Dd s3 = d.TwoProd(s2.hi, sh);
  s3.lo = d.Add(s3.lo, d.Add(d.Mul(s2.lo, sh), d.Mul(s2.hi, sl)));
  Dd t = d.TwoProd(s3.hi, d.C(kTwoThirds[0]));
  t.lo = d.Add(t.lo, d.Add(d.Mul(s3.lo, d.C(kTwoThirds[0])),
                           d.Mul(s3.hi, d.C(kTwoThirds[1]))));
  llvm::Value* z = s2.hi;
  llvm::Value* tail =
      d.Mul(d.Mul(sh, d.Mul(z, z)), d.Horner(z, kLogTailPolyF64));
  // k ln2_hi is exact; add the big parts with their rounding errors kept.
  Dd h1 = d.TwoSum(d.Mul(red.k, d.C(kLn2F64[0])), d.Add(sh, sh));
  Dd h2 = d.TwoSum(h1.hi, t.hi);
  llvm::Value* lo = d.Add(d.Add(h1.lo, h2.lo), d.Add(d.Add(sl, sl), t.lo));
  lo = d.Add(lo, d.Add(tail, d.Mul(red.k, d.C(kLn2F64[1]))));
  return d.FastTwoSum(h2.hi, lo);
}

// |x|^y for the lanes without a special case (others get stand-ins).
llvm::Value* MagnitudeF64(const Fp& d, llvm::Value* ax, llvm::Value* y) {
  llvm::Value* ordinary = d.And(d.Gt(ax, d.C(0)), d.Lt(ax, d.Inf()));
  llvm::Value* axs = d.Select(ordinary, ax, d.C(1));
  // |y log x| >= 2^-53 |y| for x != 1, so 2^960 already overflows exp, and
  // it keeps TwoProd's splitting finite.
  llvm::Value* ys =
      d.Clamp(d.Select(d.IsNaN(y), d.C(0), y), d.C(-0x1p960), d.C(0x1p960));
  Dd l = LogDd(d, axs);
  Dd p = d.TwoProd(ys, l.hi);
  llvm::Value* lo = d.Add(p.lo, d.Mul(ys, l.lo));
  // Past exp's range the correction would only be noise of a huge size.
  lo = d.Select(d.Lt(d.Abs(p.hi), d.C(1000)), lo, d.C(0));
  return ExpImpl(d, p.hi, lo);
}

llvm::Value* MagnitudeF32(const Fp& f, llvm::Value* ax, llvm::Value* y) {
  llvm::IRBuilderBase& b = f.b();
  Fp d = f.WithElement(b.getDoubleTy());
  llvm::Value* l = LogImpl(d, b.CreateFPExt(ax, d.type()));
  llvm::Value* p = d.Mul(b.CreateFPExt(y, d.type()), l);
  return b.CreateFPTrunc(ExpImpl(d, p), f.type());
}

llvm::Value* PowImpl(const Fp& f, llvm::Value* x, llvm::Value* y) {
  llvm::IRBuilderBase& b = f.b();
  llvm::Value* ax = f.Abs(x);
  llvm::Value* result =
      f.is_f64() ? MagnitudeF64(f, ax, y) : MagnitudeF32(f, ax, y);
  // Infinite y counts as an even integer here, as it does for C.
  llvm::Value* y_int = f.Eq(TruncImpl(f, y), y);
  llvm::Value* half = f.Mul(y, f.C(0.5));
  llvm::Value* y_odd = f.And(y_int, f.Not(f.Eq(TruncImpl(f, half), half)));
  llvm::Value* x_negative = f.Lt(x, f.C(0));
  result = f.Select(f.And(x_negative, y_odd), f.Neg(result), result);
  result = f.Select(f.And(x_negative, f.Not(y_int)), f.NaN(), result);
  // x = +-0 or +-inf: 0 or inf by the sign of y, negated for odd y and
  // negative x (-0 included).
  llvm::Value* x_zero = f.Eq(ax, f.C(0));
  llvm::Value* x_inf = f.Eq(ax, f.Inf());
  llvm::Value* y_negative = f.Lt(y, f.C(0));
  llvm::Value* vanishes = b.CreateXor(x_zero, y_negative);
  llvm::Value* edge = f.Select(vanishes, f.C(0), f.Inf());
  edge = f.Select(f.And(y_odd, f.SignBit(x)), f.Neg(edge), edge);
  result = f.Select(f.Or(x_zero, x_inf), edge, result);
  // y = +-inf: inf when |x| < 1 and y < 0 or |x| > 1 and y > 0; |x| = 1
  // gives 1.
  llvm::Value* y_inf = f.Eq(f.Abs(y), f.Inf());
  llvm::Value* blows_up = b.CreateXor(f.Lt(ax, f.C(1)), f.Gt(y, f.C(0)));
  result = f.Select(y_inf, f.Select(blows_up, f.Inf(), f.C(0)), result);
  result = f.Select(f.And(y_inf, f.Eq(ax, f.C(1))), f.C(1), result);
  result = f.Select(f.Or(f.IsNaN(x), f.IsNaN(y)), f.NaN(), result);
  // pow(x, +-0) = 1 and pow(1, y) = 1, even for NaN.
  return f.Select(f.Or(f.Eq(y, f.C(0)), f.Eq(x, f.C(1))), f.C(1), result);
}

}  // namespace
}  // namespace math_internal

llvm::Value* EmitPow(llvm::IRBuilderBase& b, llvm::Value* x, llvm::Value* y) {
  AOTC_CHECK(x->getType() == y->getType(), "pow operands differ in type");
  return math_internal::WithFp(b, x, [&](const math_internal::Fp& f) {
    return math_internal::PowImpl(f, x, y);
  });
}

}  // namespace aotc::codegen
