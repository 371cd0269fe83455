// Complex arithmetic and elementary functions (see math_emitter.h).
//
// The reference evaluator computes with std::complex, i.e. GCC's complex
// arithmetic (libgcc's __mulXc3 and __divXc3) and glibc's cexp, clog, csqrt,
// ctanh, csin, ccos and cpow. These emitters follow the same algorithms and
// give the same special values (C99 Annex G): products and quotients that
// come out NaN + NaNi are recomputed from "boxed" infinities, x / 0 is an
// infinity for nonzero x, exp(inf + 0i) = inf + 0i, and so on. Everything is
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

// sinh(|x|) and cosh(|x|) for ax = |x|: through expm1 (no cancellation near
// 0), and as exp(ax / 2)^2 / 2 where exp(ax) would overflow.
Parts SinhCoshAbs(const Fp& f, Value* ax) {
  llvm::IRBuilderBase& b = f.b();
  Value* big = f.Gt(ax, f.C(88, 709));
  Value* em1 = EmitExpm1(b, f.Select(big, f.C(0), ax));
  Value* e = f.Add(em1, f.C(1));
  Value* sinh = f.Mul(f.C(0.5), f.Add(em1, f.Div(em1, e)));
  Value* cosh = f.Mul(f.C(0.5), f.Add(e, f.Div(f.C(1), e)));
  Value* h = EmitExp(b, f.Mul(ax, f.C(0.5)));
  Value* huge = f.Mul(f.Mul(f.C(0.5), h), h);
  return {f.Select(big, huge, sinh), f.Select(big, huge, cosh)};
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
  // Scaled by 1/4 near overflow (so that |z| + |x| stays finite), the
  // result scaled back by 2.
  Value* big = f.Gt(f.Select(f.Gt(f.Abs(y), f.Abs(x)), f.Abs(y), f.Abs(x)),
                    f.C(FLT_MAX / 4, DBL_MAX / 4));
  Value* xs = f.Select(big, f.Mul(x, f.C(0.25)), x);
  Value* ys = f.Select(big, f.Mul(y, f.C(0.25)), y);
  Value* d = Hypot(f, xs, ys);
  // The larger part t = sqrt((|z| + |x|) / 2) without cancellation; the
  // other is |y| / (2 t).
  Value* t = f.Sqrt(f.Mul(f.C(0.5), f.Add(d, f.Abs(xs))));
  Value* u = f.Mul(f.C(0.5), f.Div(f.Abs(ys), t));
  u = f.Select(f.Eq(t, f.C(0)), f.C(0), u);
  Value* positive = f.Gt(xs, f.C(0));
  Value* re = f.Select(positive, t, u);
  Value* im = f.Select(positive, u, t);
  Value* unscale = f.Select(big, f.C(2), f.C(1));
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

// sin(x + yi) = sin x cosh y + i cos x sinh y.
Parts Sin(const Fp& f, Parts z) {
  llvm::IRBuilderBase& b = f.b();
  Parts sc = SinhCoshAbs(f, f.Abs(z.im));
  Value* sinh = f.CopySign(sc.re, z.im);
  return {f.Mul(EmitSin(b, z.re), sc.im), f.Mul(EmitCos(b, z.re), sinh)};
}

// cos(x + yi) = cos x cosh y - i sin x sinh y.
Parts Cos(const Fp& f, Parts z) {
  llvm::IRBuilderBase& b = f.b();
  Parts sc = SinhCoshAbs(f, f.Abs(z.im));
  Value* sinh = f.CopySign(sc.re, z.im);
  return {f.Mul(EmitCos(b, z.re), sc.im), f.Neg(f.Mul(EmitSin(b, z.re), sinh))};
}

// x^y = exp(y log x) with the evaluator's special cases: x^0 = 1 and
// 1^y = 1, inf^(a + 0i) = inf for a > 0 and 0 for a < 0, 0^y = 0 for
// Re y > 0.
Parts Power(const Fp& f, Parts p, Parts q) {
  Parts r = Exp(f, Multiply(f, q, Log(f, p)));
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
  return OnParts(b, z, [](const Fp& f, Parts p) {
    Value* m = Hypot(f, p.re, p.im);
    Value* zero = f.Eq(m, f.C(0));
    return Parts{f.Select(zero, f.C(0), f.Div(p.re, m)),
                 f.Select(zero, f.C(0), f.Div(p.im, m))};
  });
}

llvm::Value* EmitComplexExp(llvm::IRBuilderBase& b, llvm::Value* z) {
  return OnParts(b, z, [](const Fp& f, Parts p) { return Exp(f, p); });
}

llvm::Value* EmitComplexExpm1(llvm::IRBuilderBase& b, llvm::Value* z) {
  // e^x cos y - 1 = expm1(x) cos y - 2 sin^2(y / 2), as the evaluator.
  return OnParts(b, z, [](const Fp& f, Parts p) {
    llvm::IRBuilderBase& b = f.b();
    Value* half_sin = EmitSin(b, f.Div(p.im, f.C(2)));
    Value* re = f.Sub(f.Mul(EmitExpm1(b, p.re), EmitCos(b, p.im)),
                      f.Mul(f.Mul(f.C(2), half_sin), half_sin));
    return Parts{re, f.Mul(EmitExp(b, p.re), EmitSin(b, p.im))};
  });
}

llvm::Value* EmitComplexLog(llvm::IRBuilderBase& b, llvm::Value* z) {
  return OnParts(b, z, [](const Fp& f, Parts p) { return Log(f, p); });
}

llvm::Value* EmitComplexLog1p(llvm::IRBuilderBase& b, llvm::Value* z) {
  // log(1 + z) = log1p(x(2 + x) + y^2) / 2 + i atan2(y, 1 + x), as the
  // evaluator: 2 + x is exact near x = -2, where 2x + x^2 would cancel, and
  // the product and the sum round once where the target fuses them.
  return OnParts(b, z, [](const Fp& f, Parts p) {
    llvm::IRBuilderBase& b = f.b();
    Value* arg = f.MulAdd(p.re, f.Add(f.C(2), p.re), f.Mul(p.im, p.im));
    return Parts{f.Mul(f.C(0.5), EmitLog1p(b, arg)),
                 EmitAtan2(b, p.im, f.Add(f.C(1), p.re))};
  });
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
  // 1 / (1 + exp(-z)), as the evaluator.
  return OnParts(b, z, [](const Fp& f, Parts p) {
    Parts e = Exp(f, Parts{f.Neg(p.re), f.Neg(p.im)});
    return Divide(f, Parts{f.C(1), f.C(0)},
                  Parts{f.Add(f.C(1), e.re), f.Add(f.C(0), e.im)});
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
    return Power(f, p, q);
  });
}

llvm::Value* EmitComplexCbrt(llvm::IRBuilderBase& b, llvm::Value* z) {
  // The principal cube root z^(1/3), as XLA defines it (0 for 0).
  return OnParts(b, z, [](const Fp& f, Parts p) {
    return Power(f, p, Parts{f.Div(f.C(1), f.C(3)), f.C(0)});
  });
}

}  // namespace aotc::codegen
