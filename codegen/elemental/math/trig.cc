// sin, cos, tan and atan2.
//
// sin, cos and tan run in double for both widths: x = n pi/2 + r with
// |r| <= pi/4, where pi/2 is split into four pieces whose first three have
// 30 significant bits, so n * piece is exact for |n| < 2^23 and r comes out
// as a double-double accurate to about 2^-120 relative to x. That bounds the
// accurate range to |x| < 2^23; beyond it r is clamped into [-pi/4, pi/4],
// keeping results finite (and sin, cos within [-1, 1]) but meaningless. Then
// sin(r) and cos(r) are polynomials (f32 uses the shorter f32 fits and one
// final rounding) and the quadrant n mod 4 picks and negates them.
//
// atan2 reduces |y|/|x| (or its inverse) to [0, 1], then to |u| <=
// tan(pi/8) via atan(a) = pi/4 + atan((a - 1) / (a + 1)), and adds the
// multiple of pi/4 that the reductions and the signs imply as hi + lo.
#include <cmath>
#include <numbers>

#include "codegen/elemental/math/math_builder.h"
#include "codegen/elemental/math/math_coefficients.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/math/math_internal.h"
#include "compiler/support/check.h"

namespace aotc::codegen {
namespace math_internal {
namespace {

// Largest |x| reduced exactly; see the file comment.
constexpr double kTrigLimit = 0x1p23;

struct TrigReduction {
  Dd r;
  llvm::Value* quadrant;  // n mod 4 (integer)
};

// `d` is a double Fp and x a double value.
TrigReduction ReduceTrig(const Fp& d, llvm::Value* x) {
  llvm::IRBuilderBase& b = d.b();
  llvm::Value* n = nullptr;
  llvm::Value* nf = d.RoundToInt(d.Mul(x, d.C(2 / std::numbers::pi)), &n);
  // x and nf * piece0 are within a factor of two (or nf is 0): exact.
  llvm::Value* a = d.Sub(x, d.Mul(nf, d.C(kPio2Pieces[0])));
  Dd s = d.TwoSum(a, d.Neg(d.Mul(nf, d.C(kPio2Pieces[1]))));
  Dd h = d.TwoSum(s.hi, d.Neg(d.Mul(nf, d.C(kPio2Pieces[2]))));
  llvm::Value* lo = d.Add(h.lo, d.Sub(s.lo, d.Mul(nf, d.C(kPio2Pieces[3]))));
  TrigReduction red;
  red.r = d.FastTwoSum(h.hi, lo);
  red.quadrant = b.CreateAnd(n, d.I(3));
  // Out of range (but finite): keep r a value in [-pi/4, pi/4], even where
  // n * piece0 overflowed and made it NaN.
  llvm::Value* ax = d.Abs(x);
  llvm::Value* out_of_range =
      d.And(d.Ge(ax, d.C(kTrigLimit)), d.Lt(ax, d.Inf()));
  llvm::Value* quarter = d.C(std::numbers::pi / 4);
  llvm::Value* clamped = d.Clamp(d.Select(d.IsNaN(red.r.hi), d.C(0), red.r.hi),
                                 d.Neg(quarter), quarter);
  red.r.hi = d.Select(out_of_range, clamped, red.r.hi);
  red.r.lo = d.Select(out_of_range, d.C(0), red.r.lo);
  return red;
}

struct SinCos {
  llvm::Value* sin;
  llvm::Value* cos;
};

// sin and cos of r.hi + r.lo for |r| <= pi/4, with the polynomials of width
// `f32` (the double evaluation then only has to be rounded to float once).
SinCos SinCosPoly(const Fp& d, Dd r, bool f32) {
  llvm::Value* z = d.Mul(r.hi, r.hi);
  // sin(h + l) = sin(h) + l cos(h), cos(h) ~ 1 - z/2.
  llvm::Value* s_poly = d.Horner(z, f32 ? std::span<const double>(kSinPolyF32)
                                        : std::span<const double>(kSinPolyF64));
  llvm::Value* lo = d.MulAdd(d.Mul(r.lo, d.C(-0.5)), z, r.lo);
  llvm::Value* sin = d.Add(r.hi, d.MulAdd(d.Mul(r.hi, z), s_poly, lo));
  // cos(h + l) = cos(h) - l sin(h); 1 - z/2 is split into w plus its exact
  // rounding error so that the small terms are added before w.
  llvm::Value* c_poly = d.Horner(z, f32 ? std::span<const double>(kCosPolyF32)
                                        : std::span<const double>(kCosPolyF64));
  llvm::Value* hz = d.Mul(d.C(0.5), z);
  llvm::Value* w = d.Sub(d.C(1), hz);
  llvm::Value* w_err = d.Sub(d.Sub(d.C(1), w), hz);
  llvm::Value* small = d.Sub(d.Mul(d.Mul(z, z), c_poly), d.Mul(r.hi, r.lo));
  llvm::Value* cos = d.Add(w, d.Add(w_err, small));
  return {sin, cos};
}

enum class TrigOp { kSin, kCos, kTan };

llvm::Value* TrigImpl(const Fp& f, llvm::Value* x, TrigOp op) {
  llvm::IRBuilderBase& b = f.b();
  Fp d = f.WithElement(b.getDoubleTy());
  llvm::Value* xd = f.is_f64() ? x : b.CreateFPExt(x, d.type());
  TrigReduction red = ReduceTrig(d, xd);
  SinCos sc = SinCosPoly(d, red.r, !f.is_f64());
  llvm::Value* result = nullptr;
  if (op == TrigOp::kTan) {
    // tan(r + n pi/2) is tan(r) for even n and -1/tan(r) for odd n.
    llvm::Value* odd =
        b.CreateICmpNE(b.CreateAnd(red.quadrant, d.I(1)), d.I(0));
    llvm::Value* num = d.Select(odd, d.Neg(sc.cos), sc.sin);
    llvm::Value* den = d.Select(odd, sc.sin, sc.cos);
    result = d.Div(num, den);
  } else {
    llvm::Value* quadrant = red.quadrant;
    llvm::Value* first = sc.sin;
    llvm::Value* second = sc.cos;
    if (op == TrigOp::kCos) {
      // cos(x) = sin(x + pi/2).
      quadrant = b.CreateAdd(quadrant, d.I(1));
    }
    llvm::Value* odd_q = b.CreateICmpNE(b.CreateAnd(quadrant, d.I(1)), d.I(0));
    llvm::Value* negate = b.CreateICmpNE(b.CreateAnd(quadrant, d.I(2)), d.I(0));
    result = d.Select(odd_q, second, first);
    result = d.Select(negate, d.Neg(result), result);
  }
  if (!f.is_f64()) result = b.CreateFPTrunc(result, f.type());
  // Keeps the sign of a zero argument for the odd functions.
  if (op == TrigOp::kCos) return result;
  return f.Select(f.Eq(x, f.C(0)), x, result);
}

llvm::Value* Atan2Impl(const Fp& f, llvm::Value* y, llvm::Value* x) {
  llvm::IRBuilderBase& b = f.b();
  llvm::Value* ax = f.Abs(x);
  llvm::Value* ay = f.Abs(y);
  llvm::Value* swap = f.Gt(ay, ax);
  llvm::Value* mn = f.Select(swap, ax, ay);
  llvm::Value* mx = f.Select(swap, ay, ax);
  llvm::Value* a = f.Div(mn, mx);
  // 0/0 and inf/inf: both zero is angle 0 (before the sign rules), both
  // infinite is pi/4.
  a = f.Select(f.And(f.Eq(ax, f.C(0)), f.Eq(ay, f.C(0))), f.C(0), a);
  llvm::Value* both_inf = f.And(f.Eq(ax, f.Inf()), f.Eq(ay, f.Inf()));
  a = f.Select(both_inf, f.C(1), a);
  llvm::Value* reduce = f.Gt(a, f.C(std::numbers::sqrt2 - 1));
  // (a - 1) / (a + 1) from mn and mx directly, which avoids a's rounding
  // error; halving both (exact: mn > 0.4 mx) keeps mn + mx finite.
  llvm::Value* half = f.Select(f.Gt(mx, f.C(1)), f.C(0.5), f.C(1));
  llvm::Value* mn_h = f.Mul(mn, half);
  llvm::Value* mx_h = f.Mul(mx, half);
  llvm::Value* u =
      f.Select(reduce, f.Div(f.Sub(mn_h, mx_h), f.Add(mn_h, mx_h)), a);
  u = f.Select(both_inf, f.C(0), u);
  llvm::Value* z = f.Mul(u, u);
  llvm::Value* v = f.MulAdd(
      f.Mul(u, z), f.Horner(z, f.Table(kAtanPolyF32, kAtanPolyF64)), u);
  // angle = j pi/4 + sign * v with j in 0..4.
  llvm::Value* j = b.CreateSelect(reduce, f.I(1), f.I(0));
  j = b.CreateSelect(swap, b.CreateSub(f.I(2), j), j);
  llvm::Value* negative_x = f.SignBit(x);
  j = b.CreateSelect(negative_x, b.CreateSub(f.I(4), j), j);
  llvm::Value* flip = b.CreateXor(swap, negative_x);
  v = f.Select(flip, f.Neg(v), v);
  std::span<const double> hi = f.Table(kQuarterPiHiF32, kQuarterPiHiF64);
  std::span<const double> lo = f.Table(kQuarterPiLoF32, kQuarterPiLoF64);
  llvm::Value* k_hi = f.C(0);
  llvm::Value* k_lo = f.C(0);
  for (int i = 1; i <= 4; ++i) {
    llvm::Value* is_i = b.CreateICmpEQ(j, f.I(i));
    k_hi = f.Select(is_i, f.C(hi[i]), k_hi);
    k_lo = f.Select(is_i, f.C(lo[i]), k_lo);
  }
  llvm::Value* angle = f.Add(k_hi, f.Add(v, k_lo));
  // NaN propagates through a and v; copysign keeps it NaN.
  return f.CopySign(angle, y);
}

}  // namespace
}  // namespace math_internal

using math_internal::Fp;
using math_internal::TrigOp;
using math_internal::WithFp;

llvm::Value* EmitSin(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x, [&](const Fp& f) {
    return math_internal::TrigImpl(f, x, TrigOp::kSin);
  });
}

llvm::Value* EmitCos(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x, [&](const Fp& f) {
    return math_internal::TrigImpl(f, x, TrigOp::kCos);
  });
}

llvm::Value* EmitTan(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x, [&](const Fp& f) {
    return math_internal::TrigImpl(f, x, TrigOp::kTan);
  });
}

llvm::Value* EmitAtan2(llvm::IRBuilderBase& b, llvm::Value* y, llvm::Value* x) {
  AOTC_CHECK(y->getType() == x->getType(), "atan2 operands differ in type");
  return WithFp(b, y,
                [&](const Fp& f) { return math_internal::Atan2Impl(f, y, x); });
}

}  // namespace aotc::codegen
