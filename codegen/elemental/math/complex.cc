// Complex arithmetic and elementary functions (see math_emitter.h).
//
// Products and quotients follow libgcc's __mulXc3 and __divXc3 (Smith's
// algorithm with scaling for c128), and every function gives C99 Annex G's
// special values: results that come out NaN + NaNi are recomputed from
// "boxed" infinities, x / 0 is an infinity for nonzero x, exp(inf + 0i) =
// inf + 0i, and so on. The functions are scaled so that no intermediate
// overflows or underflows before the result does, for f32 and f64 parts
// alike. The reference evaluator computes them by other methods, in long
// double (docs/evaluator.md), so the two check each other. Everything is
// branch free: both sides of every case are computed and selected.
#include <cfloat>

#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/math/math_internal.h"

namespace aotc::codegen {
namespace {

using llvm::Value;
using math_internal::Fp;

struct Parts {
  Value* re;
  Value* im;
};

Parts Split(llvm::IRBuilderBase& b, Value* z) {
  return {b.CreateExtractElement(z, uint64_t{0}),
          b.CreateExtractElement(z, uint64_t{1})};
}

Value* Join(llvm::IRBuilderBase& b, Parts p) {
  Value* z =
      llvm::PoisonValue::get(llvm::FixedVectorType::get(p.re->getType(), 2));
  z = b.CreateInsertElement(z, p.re, uint64_t{0});
  return b.CreateInsertElement(z, p.im, uint64_t{1});
}

// Runs body(f, parts of z...) on the parts of complex values with the
// builder's fast-math flags cleared, and joins the resulting parts.
template <typename Body>
Value* OnParts(llvm::IRBuilderBase& b, Value* z, Body body) {
  llvm::IRBuilderBase::FastMathFlagGuard guard(b);
  b.clearFastMathFlags();
  Parts p = Split(b, z);
  Fp f(b, p.re->getType());
  return Join(b, body(f, p));
}

template <typename Body>
Value* OnParts(llvm::IRBuilderBase& b, Value* z, Value* w, Body body) {
  llvm::IRBuilderBase::FastMathFlagGuard guard(b);
  b.clearFastMathFlags();
  Parts p = Split(b, z);
  Parts q = Split(b, w);
  Fp f(b, p.re->getType());
  return Join(b, body(f, p, q));
}

Value* IsInf(const Fp& f, Value* x) { return f.Eq(f.Abs(x), f.Inf()); }
Value* IsFinite(const Fp& f, Value* x) { return f.Lt(f.Abs(x), f.Inf()); }
Value* Or(const Fp& f, Value* p, Value* q, Value* r) {
  return f.Or(f.Or(p, q), r);
}
// copysign(isinf(x) ? 1 : 0, x): an infinity "boxed" to a unit.
Value* Box(const Fp& f, Value* x) {
  return f.CopySign(f.Select(IsInf(f, x), f.C(1), f.C(0)), x);
}
// NaN becomes a zero of its sign.
Value* NanToZero(const Fp& f, Value* x) {
  return f.Select(f.IsNaN(x), f.CopySign(f.C(0), x), x);
}

Parts Multiply(const Fp& f, Parts x, Parts y) {
  Value *a = x.re, *b = x.im, *c = y.re, *d = y.im;
  Value* ac = f.Mul(a, c);
  Value* bd = f.Mul(b, d);
  Value* ad = f.Mul(a, d);
  Value* bc = f.Mul(b, c);
  Parts r = {f.Sub(ac, bd), f.Add(ad, bc)};
  // __mulXc3's recovery of infinities that came out NaN + NaNi.
  Value* x_inf = f.Or(IsInf(f, a), IsInf(f, b));
  a = f.Select(x_inf, Box(f, a), a);
  b = f.Select(x_inf, Box(f, b), b);
  c = f.Select(x_inf, NanToZero(f, c), c);
  d = f.Select(x_inf, NanToZero(f, d), d);
  Value* y_inf = f.Or(IsInf(f, c), IsInf(f, d));
  c = f.Select(y_inf, Box(f, c), c);
  d = f.Select(y_inf, Box(f, d), d);
  a = f.Select(y_inf, NanToZero(f, a), a);
  b = f.Select(y_inf, NanToZero(f, b), b);
  Value* overflow = f.And(
      f.Not(f.Or(x_inf, y_inf)),
      f.Or(Or(f, IsInf(f, ac), IsInf(f, bd), IsInf(f, ad)), IsInf(f, bc)));
  a = f.Select(overflow, NanToZero(f, a), a);
  b = f.Select(overflow, NanToZero(f, b), b);
  c = f.Select(overflow, NanToZero(f, c), c);
  d = f.Select(overflow, NanToZero(f, d), d);
  Value* recompute =
      f.And(f.And(f.IsNaN(r.re), f.IsNaN(r.im)), Or(f, x_inf, y_inf, overflow));
  Value* re = f.Mul(f.Inf(), f.Sub(f.Mul(a, c), f.Mul(b, d)));
  Value* im = f.Mul(f.Inf(), f.Add(f.Mul(a, d), f.Mul(b, c)));
  return {f.Select(recompute, re, r.re), f.Select(recompute, im, r.im)};
}

// x / y for float parts, as libgcc's __divsc3 on hosts with double
// hardware: the textbook formula in double (which cannot overflow for float
// operands), rounded once.
Parts DivideInDouble(const Fp& f, Parts x, Parts y) {
  Fp d(f.b(), f.b().getDoubleTy());
  auto wide = [&](Value* v) { return f.b().CreateFPExt(v, d.type()); };
  Value *aa = wide(x.re), *bb = wide(x.im), *cc = wide(y.re), *dd = wide(y.im);
  Value* denom = d.Add(d.Mul(cc, cc), d.Mul(dd, dd));
  Value* re = d.Div(d.Add(d.Mul(aa, cc), d.Mul(bb, dd)), denom);
  Value* im = d.Div(d.Sub(d.Mul(bb, cc), d.Mul(aa, dd)), denom);
  return {f.b().CreateFPTrunc(re, f.type()), f.b().CreateFPTrunc(im, f.type())};
}

// x / y for double parts: Smith's algorithm with libgcc's scaling, which
// keeps the denominator and the ratio from overflowing or underflowing
// ((1e300 + 1e300i) / (1e300 + 1e300i) is 1). Written for |c| >= |d|; the
// other case swaps the parts of both operands, which negates the imaginary
// part of the quotient. The scaled operands (in their own order) replace x
// and y, since libgcc's recovery of special values reads those.
Parts DivideSmith(const Fp& f, Parts& x, Parts& y) {
  Value* swap = f.Lt(f.Abs(y.re), f.Abs(y.im));
  Value* a = f.Select(swap, x.im, x.re);
  Value* b = f.Select(swap, x.re, x.im);
  Value* c = f.Select(swap, y.im, y.re);
  Value* d = f.Select(swap, y.re, y.im);
  const double kBig = DBL_MAX / 2;
  const double kMin = DBL_MIN;
  const double kMin2 = DBL_EPSILON;
  const double kMinScale = 1 / DBL_EPSILON;
  const double kMax2 = kBig * kMin2;
  auto scale = [&](Value* cond, double s) {
    a = f.Select(cond, f.Mul(a, f.C(s)), a);
    b = f.Select(cond, f.Mul(b, f.C(s)), b);
    c = f.Select(cond, f.Mul(c, f.C(s)), c);
    d = f.Select(cond, f.Mul(d, f.C(s)), d);
  };
  scale(f.Ge(f.Abs(c), f.C(kBig)), 0.5);
  Value* small_c = f.Lt(f.Abs(c), f.C(kMin2));
  Value* c_ok = f.Lt(f.Abs(c), f.C(kMax2));
  Value* small_a =
      f.And(f.Lt(f.Abs(a), f.C(kMin)), f.And(f.Lt(f.Abs(b), f.C(kMax2)), c_ok));
  Value* small_b =
      f.And(f.Lt(f.Abs(b), f.C(kMin)), f.And(f.Lt(f.Abs(a), f.C(kMax2)), c_ok));
  scale(Or(f, small_c, small_a, small_b), kMinScale);
  Value* ratio = f.Div(d, c);
  Value* denom = f.Add(f.Mul(d, ratio), c);
  // A subnormal ratio loses precision: divide by c first instead.
  Value* normal = f.Gt(f.Abs(ratio), f.C(kMin));
  Value* re = f.Select(normal, f.Add(f.Mul(b, ratio), a),
                       f.Add(a, f.Mul(d, f.Div(b, c))));
  Value* im = f.Select(normal, f.Sub(b, f.Mul(a, ratio)),
                       f.Sub(b, f.Mul(d, f.Div(a, c))));
  re = f.Div(re, denom);
  im = f.Div(im, denom);
  x = {f.Select(swap, b, a), f.Select(swap, a, b)};
  y = {f.Select(swap, d, c), f.Select(swap, c, d)};
  return {re, f.Select(swap, f.Neg(im), im)};
}

Parts Divide(const Fp& f, Parts x, Parts y) {
  Parts q = f.is_f64() ? DivideSmith(f, x, y) : DivideInDouble(f, x, y);
  // __divXc3's recovery of the cases that came out NaN + NaNi: nonzero / 0,
  // infinite / finite and finite / infinite (for c128 from the scaled
  // operands, where a part may have overflowed to infinity).
  Value *a = x.re, *b = x.im, *c = y.re, *d = y.im;
  Value* nan = f.And(f.IsNaN(q.re), f.IsNaN(q.im));
  Value* by_zero = f.And(f.And(f.Eq(c, f.C(0)), f.Eq(d, f.C(0))),
                         f.Not(f.And(f.IsNaN(a), f.IsNaN(b))));
  Value* inf_num = f.And(f.Or(IsInf(f, a), IsInf(f, b)),
                         f.And(IsFinite(f, c), IsFinite(f, d)));
  Value* inf_den = f.And(f.Or(IsInf(f, c), IsInf(f, d)),
                         f.And(IsFinite(f, a), IsFinite(f, b)));
  Value* signed_inf = f.CopySign(f.Inf(), c);
  Parts zero_case = {f.Mul(signed_inf, a), f.Mul(signed_inf, b)};
  Value* ba = Box(f, a);
  Value* bb = Box(f, b);
  Parts num_case = {f.Mul(f.Inf(), f.Add(f.Mul(ba, c), f.Mul(bb, d))),
                    f.Mul(f.Inf(), f.Sub(f.Mul(bb, c), f.Mul(ba, d)))};
  Value* bc = Box(f, c);
  Value* bd = Box(f, d);
  Parts den_case = {f.Mul(f.C(0), f.Add(f.Mul(a, bc), f.Mul(b, bd))),
                    f.Mul(f.C(0), f.Sub(f.Mul(b, bc), f.Mul(a, bd)))};
  auto pick = [&](Value*(Parts::*part)) {
    Value* v = f.Select(f.And(nan, inf_den), den_case.*part, q.*part);
    v = f.Select(f.And(nan, inf_num), num_case.*part, v);
    return f.Select(f.And(nan, by_zero), zero_case.*part, v);
  };
  return {pick(&Parts::re), pick(&Parts::im)};
}

// sqrt(x^2 + y^2) without overflow or underflow: max * sqrt(1 + r^2) with
// r = min / max <= 1; hypot(inf, NaN) = inf.
Value* Hypot(const Fp& f, Value* x, Value* y) {
  Value* ax = f.Abs(x);
  Value* ay = f.Abs(y);
  Value* big = f.Select(f.Gt(ay, ax), ay, ax);
  Value* small = f.Select(f.Gt(ay, ax), ax, ay);
  Value* r = f.Div(small, big);
  Value* h = f.Mul(big, f.Sqrt(f.Add(f.C(1), f.Mul(r, r))));
  h = f.Select(f.Eq(big, f.C(0)), f.C(0), h);
  h = f.Select(f.Or(f.IsNaN(x), f.IsNaN(y)), f.NaN(), h);
  return f.Select(f.Or(IsInf(f, x), IsInf(f, y)), f.Inf(), h);
}

// sinh(ax) and cosh(ax) for 0 <= ax <= 88 (f32) / 709 (f64), where neither
// overflows: through expm1, without cancellation near 0.
Parts SinhCoshAbs(const Fp& f, Value* ax) {
  Value* em1 = EmitExpm1(f.b(), ax);
  Value* e = f.Add(em1, f.C(1));
  Value* sinh = f.Mul(f.C(0.5), f.Add(em1, f.Div(em1, e)));
  Value* cosh = f.Mul(f.C(0.5), f.Add(e, f.Div(f.C(1), e)));
  return {sinh, cosh};
}

// u cosh(a) and v sinh(a) for a >= 0. Past the overflow threshold of exp,
// where cosh a itself may overflow although the product does not, as
// (u e^(a/2) / 2) e^(a/2).
Parts HyperbolicProducts(const Fp& f, Value* a, Value* u, Value* v) {
  Value* big = f.Gt(a, f.C(88, 709));
  Parts sc = SinhCoshAbs(f, f.Select(big, f.C(0), a));
  Value* h = EmitExp(f.b(), f.Mul(a, f.C(0.5)));
  Value* half_h = f.Mul(f.C(0.5), h);
  return {f.Select(big, f.Mul(f.Mul(u, half_h), h), f.Mul(u, sc.im)),
          f.Select(big, f.Mul(f.Mul(v, half_h), h), f.Mul(v, sc.re))};
}

Parts Exp(const Fp& f, Parts z) {
  llvm::IRBuilderBase& b = f.b();
  Value *x = z.re, *y = z.im;
  Value* sin = EmitSin(b, y);
  Value* cos = EmitCos(b, y);
  // exp(x) may overflow where exp(x) cos(y) does not: past (max exponent)
  // * ln 2, multiply by exp(x / 2) twice.
  Value* big = f.Gt(x, f.C(88.02, 709.08));
  Value* h = EmitExp(b, f.Select(big, f.Mul(x, f.C(0.5)), x));
  Value* re = f.Mul(h, cos);
  Value* im = f.Mul(h, sin);
  re = f.Select(big, f.Mul(re, h), re);
  im = f.Select(big, f.Mul(im, h), im);
  im = f.Select(f.Eq(y, f.C(0)), y, im);
  // An infinite x with an infinite or NaN y: inf + NaNi or 0 + 0i.
  Value* special = f.And(IsInf(f, x), f.Not(IsFinite(f, y)));
  Value* positive = f.Gt(x, f.C(0));
  re = f.Select(special, f.Select(positive, f.Inf(), f.C(0)), re);
  im =
      f.Select(special, f.Select(positive, f.NaN(), f.CopySign(f.C(0), y)), im);
  return {re, im};
}

Parts Log(const Fp& f, Parts z) {
  llvm::IRBuilderBase& b = f.b();
  Value *x = z.re, *y = z.im;
  // log|z| = log(max) + log1p((min / max)^2) / 2, which cannot overflow.
  Value* ax = f.Abs(x);
  Value* ay = f.Abs(y);
  Value* big = f.Select(f.Gt(ay, ax), ay, ax);
  Value* small = f.Select(f.Gt(ay, ax), ax, ay);
  Value* r = f.Select(f.Eq(big, f.C(0)), f.C(0), f.Div(small, big));
  Value* re =
      f.Add(EmitLog(b, big), f.Mul(f.C(0.5), EmitLog1p(b, f.Mul(r, r))));
  re = f.Select(f.Or(f.IsNaN(x), f.IsNaN(y)), f.NaN(), re);
  re = f.Select(f.Or(IsInf(f, x), IsInf(f, y)), f.Inf(), re);
  return {re, EmitAtan2(b, y, x)};
}

Parts Sqrt(const Fp& f, Parts z) {
  Value *x = z.re, *y = z.im;
  // Scaled by powers of 4, exactly, the result by powers of 2: by 1/4 near
  // overflow (so that |z| + |x| stays finite) and by 2^100 (2^600) below
  // 2^-100 (2^-960), where |z| and the halving would lose bits to
  // subnormal rounding.
  Value* m = f.Select(f.Gt(f.Abs(y), f.Abs(x)), f.Abs(y), f.Abs(x));
  Value* big = f.Gt(m, f.C(FLT_MAX / 4, DBL_MAX / 4));
  Value* small = f.Lt(m, f.C(0x1p-100, 0x1p-960));
  Value* scale = f.Select(big, f.C(0.25),
                          f.Select(small, f.C(0x1p100, 0x1p600), f.C(1)));
  Value* xs = f.Mul(x, scale);
  Value* ys = f.Mul(y, scale);
  Value* d = Hypot(f, xs, ys);
  // The larger part t = sqrt((|z| + |x|) / 2) without cancellation; the
  // other is |y| / (2 t).
  Value* t = f.Sqrt(f.Mul(f.C(0.5), f.Add(d, f.Abs(xs))));
  Value* u = f.Mul(f.C(0.5), f.Div(f.Abs(ys), t));
  u = f.Select(f.Eq(t, f.C(0)), f.C(0), u);
  Value* positive = f.Gt(xs, f.C(0));
  Value* re = f.Select(positive, t, u);
  Value* im = f.Select(positive, u, t);
  Value* unscale = f.Select(big, f.C(2),
                            f.Select(small, f.C(0x1p-50, 0x1p-300), f.C(1)));
  re = f.Mul(re, unscale);
  im = f.CopySign(f.Mul(im, unscale), y);
  // Infinities: sqrt(x + inf i) = inf + inf i; sqrt(+inf + yi) = inf + 0i;
  // sqrt(-inf + yi) = 0 + inf i (NaN y giving NaN for the finite part).
  Value* y_nan = f.IsNaN(y);
  Value* x_pos_inf = f.Eq(x, f.Inf());
  Value* x_neg_inf = f.Eq(x, f.Neg(f.Inf()));
  re = f.Select(x_pos_inf, f.Inf(), re);
  im = f.Select(x_pos_inf, f.Select(y_nan, f.NaN(), f.CopySign(f.C(0), y)), im);
  re = f.Select(x_neg_inf, f.Select(y_nan, f.NaN(), f.C(0)), re);
  im = f.Select(x_neg_inf, f.CopySign(f.Inf(), y), im);
  Value* y_inf = IsInf(f, y);
  return {f.Select(y_inf, f.Inf(), re), f.Select(y_inf, y, im)};
}

Parts Tanh(const Fp& f, Parts z) {
  llvm::IRBuilderBase& b = f.b();
  Value *x = z.re, *y = z.im;
  Value* sin = EmitSin(b, y);
  Value* cos = EmitCos(b, y);
  Value* ax = f.Abs(x);
  // Past (max exponent) * ln 2 / 2 the real part is +-1 and the imaginary
  // part 4 sin y cos y / exp(2|x|).
  Value* big = f.Gt(ax, f.C(44.01, 354.5));
  Parts sc = SinhCoshAbs(f, f.Select(big, f.C(0), ax));
  Value* sinh = f.CopySign(sc.re, x);
  Value* den = f.Add(f.Mul(sinh, sinh), f.Mul(cos, cos));
  Value* re = f.Div(f.Mul(sinh, sc.im), den);
  Value* im = f.Div(f.Mul(sin, cos), den);
  Value* big_im =
      f.Mul(f.Mul(f.Mul(f.C(4), sin), cos), EmitExp(b, f.Mul(f.C(-2), ax)));
  re = f.Select(big, f.CopySign(f.C(1), x), re);
  im = f.Select(big, big_im, im);
  im = f.Select(f.Eq(y, f.C(0)), y, im);
  Value* y_not_finite = f.Not(IsFinite(f, y));
  im = f.Select(f.And(IsInf(f, x), y_not_finite), f.CopySign(f.C(0), y), im);
  re = f.Select(f.And(f.Eq(x, f.C(0)), y_not_finite), x, re);
  return {re, im};
}

// sin(x + yi) = sin x cosh y + i cos x sinh y. A part with a zero factor
// (x = 0, y = 0) is that signed zero, not 0 * inf = NaN, as in C.
Parts Sin(const Fp& f, Parts z) {
  llvm::IRBuilderBase& b = f.b();
  Value *x = z.re, *y = z.im;
  Value* cos_x = EmitCos(b, x);
  Parts p = HyperbolicProducts(f, f.Abs(y), EmitSin(b, x), cos_x);
  Value* re = f.Select(f.Eq(x, f.C(0)), x, p.re);
  Value* im = f.Select(f.SignBit(y), f.Neg(p.im), p.im);
  im = f.Select(f.Eq(y, f.C(0)), f.Mul(y, f.CopySign(f.C(1), cos_x)), im);
  // sin(+-inf + inf i): NaN + inf i, as csin.
  Value* both_inf = f.And(IsInf(f, x), IsInf(f, y));
  return {re, f.Select(both_inf, y, im)};
}

// cos(x + yi) = cos x cosh y - i sin x sinh y, zeros as for Sin.
Parts Cos(const Fp& f, Parts z) {
  llvm::IRBuilderBase& b = f.b();
  Value *x = z.re, *y = z.im;
  Value* sin_x = EmitSin(b, x);
  Parts p = HyperbolicProducts(f, f.Abs(y), EmitCos(b, x), sin_x);
  Value* im = f.Neg(f.Select(f.SignBit(y), f.Neg(p.im), p.im));
  im = f.Select(f.Eq(y, f.C(0)),
                f.Neg(f.Mul(y, f.CopySign(f.C(1), sin_x))), im);
  im = f.Select(f.Eq(x, f.C(0)), f.Neg(f.Mul(x, f.CopySign(f.C(1), y))),
                im);
  // cos(+-inf + inf i): inf + NaN i, as ccos.
  Value* both_inf = f.And(IsInf(f, x), IsInf(f, y));
  return {f.Select(both_inf, f.Inf(), p.re), im};
}

// x^y for x = a + bi, y = c + di, as modulus and angle: with m = max(|a|,
// |b|), t = min / m and theta = atan2(b, a), |x^y| = m^c (1 + t^2)^(c/2)
// e^(-d theta) and arg x^y = c theta + d log|x|. m^c is the real pow,
// accurate to an ulp however large c log m is, where exp(y log x) carries
// the rounding of y log x (up to |c log m| ulps: 155 at (1e300 + 1e300i)^0.5
// in double). Where a factor is 0, subnormal or infinite (zero, huge or
// non-finite operands), the result comes from exp(y log x) with Log and Exp
// scaled against overflow instead.
Parts ModulusAndAngle(const Fp& f, Parts p, Parts q) {
  llvm::IRBuilderBase& b = f.b();
  Value* ax = f.Abs(p.re);
  Value* ay = f.Abs(p.im);
  Value* m = f.Select(f.Gt(ay, ax), ay, ax);
  Value* n = f.Select(f.Gt(ay, ax), ax, ay);
  Value* t = f.Div(n, m);
  Value* log1p_t2 = EmitLog1p(b, f.Mul(t, t));
  Value* theta = EmitAtan2(b, p.im, p.re);
  Value* p1 = EmitPow(b, m, q.re);
  Value* p23 = EmitExp(b, f.Sub(f.Mul(f.Mul(f.C(0.5), q.re), log1p_t2),
                                f.Mul(q.im, theta)));
  Value* log_abs = f.Add(EmitLog(b, m), f.Mul(f.C(0.5), log1p_t2));
  Value* phi = f.Add(f.Mul(q.re, theta), f.Mul(q.im, log_abs));
  Value* r = f.Mul(p1, p23);
  Value* re = f.Mul(r, EmitCos(b, phi));
  Value* im = f.Select(f.Eq(phi, f.C(0)), phi, f.Mul(r, EmitSin(b, phi)));
  auto normal = [&](Value* v) {
    return f.And(f.Ge(v, f.MinNormal()), f.Lt(v, f.Inf()));
  };
  Value* ok = f.And(normal(p1), normal(p23));
  Parts e = Exp(f, Multiply(f, q, Log(f, p)));
  return {f.Select(ok, re, e.re), f.Select(ok, im, e.im)};
}

// x^y with XLA's special cases: x^0 = 1 and 1^y = 1, inf^(a + 0i) = inf
// for a > 0 and 0 for a < 0, 0^y = 0 for Re y > 0.
Parts Power(const Fp& f, Parts p, Parts q) {
  Parts r = ModulusAndAngle(f, p, q);
  Value* zero = f.C(0);
  Value* one = f.C(1);
  Value* y_real = f.Eq(q.im, zero);
  Value* base_inf = f.And(f.Eq(p.re, f.Inf()), f.Eq(p.im, zero));
  Value* inf_case = f.And(f.And(base_inf, y_real), f.Gt(q.re, zero));
  Value* zero_case = f.Or(
      f.And(f.And(base_inf, y_real), f.Lt(q.re, zero)),
      f.And(f.And(f.Eq(p.re, zero), f.Eq(p.im, zero)), f.Gt(q.re, zero)));
  Value* one_case = f.Or(f.And(f.Eq(p.re, one), f.Eq(p.im, zero)),
                         f.And(f.Eq(q.re, zero), f.Eq(q.im, zero)));
  Value* re = f.Select(zero_case, zero, r.re);
  Value* im = f.Select(zero_case, zero, r.im);
  re = f.Select(inf_case, p.re, re);
  im = f.Select(inf_case, p.im, im);
  return Parts{f.Select(one_case, one, re), f.Select(one_case, zero, im)};
}

// exp(z) - 1 for z = x + yi. The real part e^x cos y - 1 is written
// expm1(x) - 2 e^x sin^2(y / 2), exact in form and free of cancellation
// where y is small. Past x = 80 (700), where e^x would overflow before the
// product does, it is Exp's (scaled) real part, the -1 being below its
// rounding. The imaginary part e^x sin y is y itself at y = 0 (no inf * 0),
// and exp(-inf + yi) - 1 is -1 for every y.
Parts Expm1(const Fp& f, Parts z) {
  llvm::IRBuilderBase& b = f.b();
  Value *x = z.re, *y = z.im;
  Value* big = f.Gt(x, f.C(80, 700));
  Value* xs = f.Select(big, f.C(0), x);
  Value* e = EmitExp(b, xs);
  Value* half_sin = EmitSin(b, f.Mul(y, f.C(0.5)));
  Value* re = f.Sub(EmitExpm1(b, xs),
                    f.Mul(f.Mul(e, half_sin), f.Mul(f.C(2), half_sin)));
  Value* im = f.Mul(e, EmitSin(b, y));
  Parts ez = Exp(f, z);
  re = f.Select(big, ez.re, re);
  im = f.Select(big, ez.im, im);
  im = f.Select(f.Eq(y, f.C(0)), y, im);
  Value* neg_inf = f.Eq(x, f.Neg(f.Inf()));
  return {f.Select(neg_inf, f.C(-1), re),
          f.Select(neg_inf, f.CopySign(f.C(0), y), im)};
}

// log(1 + z) for z = x + yi with u = 1 + x: log|1 + z| = log(m) +
// log1p(t^2) / 2 for m = max(|u|, |y|) and t = min / m <= 1, so no square
// is formed that could overflow or underflow. log(m) for m = |u| is
// log1p(x) above x = -0.5 (where u itself would drop the low bits of a
// small x) and log|u| below (u exact by Sterbenz down to -2, and no
// cancellation further out). Imaginary part atan2(y, 1 + x).
Parts Log1p(const Fp& f, Parts z) {
  llvm::IRBuilderBase& b = f.b();
  Value *x = z.re, *y = z.im;
  Value* u = f.Add(f.C(1), x);
  Value* au = f.Abs(u);
  Value* ay = f.Abs(y);
  Value* u_larger = f.Ge(au, ay);
  Value* big = f.Select(u_larger, au, ay);
  Value* small = f.Select(u_larger, ay, au);
  Value* t = f.Select(f.Eq(big, f.C(0)), f.C(0), f.Div(small, big));
  Value* log_u =
      f.Select(f.Gt(x, f.C(-0.5)), EmitLog1p(b, x), EmitLog(b, au));
  Value* log_big = f.Select(u_larger, log_u, EmitLog(b, ay));
  Value* re = f.Add(log_big, f.Mul(f.C(0.5), EmitLog1p(b, f.Mul(t, t))));
  re = f.Select(f.Or(f.IsNaN(x), f.IsNaN(y)), f.NaN(), re);
  re = f.Select(f.Or(IsInf(f, x), IsInf(f, y)), f.Inf(), re);
  return {re, EmitAtan2(b, y, u)};
}

// 1 / (1 + e^-z) for Re z >= 0 and e^z / (1 + e^z) below, with t = e^-|x|
// <= 1 either way, so nothing overflows, and for a very negative Re z the
// result keeps its tail e^z (subnormal included). Multiplied out by the
// conjugate of the denominator, with D = (1 + t cos y)^2 + (t sin y)^2:
// (1 + t cos y + i t sin y) / D for x >= 0, (t (t + cos y) + i t sin y) / D
// below.
Parts Logistic(const Fp& f, Parts z) {
  llvm::IRBuilderBase& b = f.b();
  Value *x = z.re, *y = z.im;
  Value* t = EmitExp(b, f.Neg(f.Abs(x)));
  Value* cos_y = EmitCos(b, y);
  Value* t_sin = f.Mul(t, EmitSin(b, y));
  Value* d_re = f.Add(f.C(1), f.Mul(t, cos_y));
  Value* d = f.Add(f.Mul(d_re, d_re), f.Mul(t_sin, t_sin));
  Value* re = f.Select(f.Lt(x, f.C(0)), f.Mul(t, f.Add(t, cos_y)), d_re);
  return {f.Div(re, d), f.Div(t_sin, d)};
}

// The principal cube root (0 for 0, as XLA defines it): |z|^(1/3)
// (cos(theta / 3) + i sin(theta / 3)), theta = atan2(y, x), with |z|^(1/3)
// = cbrt(m) cbrt(sqrt(1 + t^2)) for m the larger part's magnitude and t =
// min / m <= 1, so nothing overflows; the real cube root is accurate to an
// ulp, where exp((1/3) log z) would lose |log z| ulps.
Parts Cbrt(const Fp& f, Parts z) {
  llvm::IRBuilderBase& b = f.b();
  Value *x = z.re, *y = z.im;
  Value* ax = f.Abs(x);
  Value* ay = f.Abs(y);
  Value* m = f.Select(f.Gt(ay, ax), ay, ax);
  Value* n = f.Select(f.Gt(ay, ax), ax, ay);
  Value* t = f.Select(f.Eq(m, f.C(0)), f.C(0), f.Div(n, m));
  t = f.Select(IsInf(f, n), f.C(1), t);
  Value* r = f.Mul(EmitCbrt(b, m),
                   EmitCbrt(b, f.Sqrt(f.Add(f.C(1), f.Mul(t, t)))));
  Value* third = f.Div(EmitAtan2(b, y, x), f.C(3));
  Value* im = f.Mul(r, EmitSin(b, third));
  return {f.Mul(r, EmitCos(b, third)),
          f.Select(f.Eq(third, f.C(0)), y, im)};
}

// body(f, p, q) for c128, and for c64 on the parts widened to double and
// rounded once: pow's error grows with |y log x|, up to ~88 ulps of f32 in
// float, below one in double; logistic's real part cancels where
// cos y is near -e^x.
template <typename Body>
Parts InDouble(const Fp& f, Parts p, Parts q, Body body) {
  if (f.is_f64()) return body(f, p, q);
  llvm::IRBuilderBase& b = f.b();
  Fp d(b, b.getDoubleTy());
  auto wide = [&](Parts v) {
    return Parts{b.CreateFPExt(v.re, d.type()), b.CreateFPExt(v.im, d.type())};
  };
  Parts r = body(d, wide(p), wide(q));
  return {b.CreateFPTrunc(r.re, f.type()), b.CreateFPTrunc(r.im, f.type())};
}

}  // namespace

llvm::Value* EmitComplexMultiply(llvm::IRBuilderBase& b, llvm::Value* x,
                                 llvm::Value* y) {
  return OnParts(
      b, x, y, [](const Fp& f, Parts p, Parts q) { return Multiply(f, p, q); });
}

llvm::Value* EmitComplexDivide(llvm::IRBuilderBase& b, llvm::Value* x,
                               llvm::Value* y) {
  return OnParts(b, x, y,
                 [](const Fp& f, Parts p, Parts q) { return Divide(f, p, q); });
}

llvm::Value* EmitComplexAbs(llvm::IRBuilderBase& b, llvm::Value* z) {
  llvm::IRBuilderBase::FastMathFlagGuard guard(b);
  b.clearFastMathFlags();
  Parts p = Split(b, z);
  return Hypot(Fp(b, p.re->getType()), p.re, p.im);
}

llvm::Value* EmitComplexSign(llvm::IRBuilderBase& b, llvm::Value* z) {
  // z / |z|, with z first divided by its larger part's magnitude m: |z / m|
  // is in [1, sqrt 2], so neither the modulus nor the quotients overflow or
  // underflow (sign(1e300 + 1e300i) is (1 + i) / sqrt 2); 0 for 0. With an
  // infinite part the limit: infinities boxed to +-1, the other part to 0
  // (sign(inf + 1i) = 1); NaN with a NaN part.
  return OnParts(b, z, [](const Fp& f, Parts p) {
    Value* ax = f.Abs(p.re);
    Value* ay = f.Abs(p.im);
    Value* m = f.Select(f.Gt(ay, ax), ay, ax);
    Value* inf = f.Or(IsInf(f, p.re), IsInf(f, p.im));
    Value* xs = f.Select(inf, Box(f, p.re), f.Div(p.re, m));
    Value* ys = f.Select(inf, Box(f, p.im), f.Div(p.im, m));
    Value* h = Hypot(f, xs, ys);
    Value* zero = f.Eq(m, f.C(0));
    Value* nan = f.Or(f.IsNaN(p.re), f.IsNaN(p.im));
    auto part = [&](Value* v) {
      return f.Select(nan, f.NaN(), f.Select(zero, f.C(0), f.Div(v, h)));
    };
    return Parts{part(xs), part(ys)};
  });
}

llvm::Value* EmitComplexExp(llvm::IRBuilderBase& b, llvm::Value* z) {
  return OnParts(b, z, [](const Fp& f, Parts p) { return Exp(f, p); });
}

llvm::Value* EmitComplexExpm1(llvm::IRBuilderBase& b, llvm::Value* z) {
  return OnParts(b, z, [](const Fp& f, Parts p) { return Expm1(f, p); });
}

llvm::Value* EmitComplexLog(llvm::IRBuilderBase& b, llvm::Value* z) {
  return OnParts(b, z, [](const Fp& f, Parts p) { return Log(f, p); });
}

llvm::Value* EmitComplexLog1p(llvm::IRBuilderBase& b, llvm::Value* z) {
  return OnParts(b, z, [](const Fp& f, Parts p) { return Log1p(f, p); });
}

llvm::Value* EmitComplexSqrt(llvm::IRBuilderBase& b, llvm::Value* z) {
  return OnParts(b, z, [](const Fp& f, Parts p) { return Sqrt(f, p); });
}

llvm::Value* EmitComplexRsqrt(llvm::IRBuilderBase& b, llvm::Value* z) {
  return OnParts(b, z, [](const Fp& f, Parts p) {
    return Divide(f, Parts{f.C(1), f.C(0)}, Sqrt(f, p));
  });
}

llvm::Value* EmitComplexTanh(llvm::IRBuilderBase& b, llvm::Value* z) {
  return OnParts(b, z, [](const Fp& f, Parts p) { return Tanh(f, p); });
}

llvm::Value* EmitComplexLogistic(llvm::IRBuilderBase& b, llvm::Value* z) {
  return OnParts(b, z, [](const Fp& f, Parts p) {
    return InDouble(f, p, p, [](const Fp& d, Parts q, Parts) {
      return Logistic(d, q);
    });
  });
}

llvm::Value* EmitComplexSin(llvm::IRBuilderBase& b, llvm::Value* z) {
  return OnParts(b, z, [](const Fp& f, Parts p) { return Sin(f, p); });
}

llvm::Value* EmitComplexCos(llvm::IRBuilderBase& b, llvm::Value* z) {
  return OnParts(b, z, [](const Fp& f, Parts p) { return Cos(f, p); });
}

llvm::Value* EmitComplexTan(llvm::IRBuilderBase& b, llvm::Value* z) {
  // tan z = -i tanh(iz): with tanh(-y + xi) = p + qi, tan z = q - pi.
  return OnParts(b, z, [](const Fp& f, Parts p) {
    Parts t = Tanh(f, Parts{f.Neg(p.im), p.re});
    return Parts{t.im, f.Neg(t.re)};
  });
}

llvm::Value* EmitComplexPow(llvm::IRBuilderBase& b, llvm::Value* x,
                            llvm::Value* y) {
  return OnParts(b, x, y, [](const Fp& f, Parts p, Parts q) {
    return InDouble(f, p, q, Power);
  });
}

llvm::Value* EmitComplexCbrt(llvm::IRBuilderBase& b, llvm::Value* z) {
  return OnParts(b, z, [](const Fp& f, Parts p) { return Cbrt(f, p); });
}

}  // namespace aotc::codegen
