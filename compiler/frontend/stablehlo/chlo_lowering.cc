// CHLO lowering: each CHLO operation becomes one HLO opcode of the same
// meaning, or a decomposition into element-wise HLO operations.
//
// The special functions (lgamma, digamma, erf_inv, erfc, bessel_i1e) are
// computed in f64 whatever the element type and rounded once at the end:
// the f32, f16 and bf16 results are then within about half an ulp of the
// exact value, and one formula serves every type. docs/stablehlo.md states
// the algorithms and the accuracy measured.
#include "compiler/frontend/stablehlo/chlo_lowering.h"

#include <cmath>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/stablehlo/chlo_coefficients.h"
#include "compiler/ir/shape_inference.h"
#include "compiler/rewrite/elementwise_builder.h"
#include "compiler/rewrite/ir_rewrite.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

using E = ElementwiseBuilder;
using I = Instruction;

constexpr double kPi = 3.14159265358979323846264338327950288;

template <size_t N>
std::vector<double> Coefficients(const double (&c)[N]) {
  return std::vector<double>(c, c + N);
}

// p(u) for u = (t - center) / half_width.
I* PolynomialOn(E& b, I* t, double center, double half_width,
                const std::vector<double>& c) {
  I* u = b.Div(b.Sub(t, b.Constant(center)), b.Constant(half_width));
  return b.Polynomial(u, c);
}

// Distance to the nearest integer, x - round(x), in [-1/2, 1/2]: exact, and
// the argument that keeps sin(pi x) and tan(pi x) accurate for large |x|.
I* FractionToNearest(E& b, I* x) {
  return b.Sub(x, b.Op(Opcode::kRoundNearestAfz, {x}));
}

// Stirling's series for z >= 12,
//   (z - 1/2)(log z - 1) + (log(2 pi) - 1)/2 + sum B_2k/(2k(2k-1) z^(2k-1)),
// with seven terms (the next is below 1e-18 at z = 12); written with
// (log z - 1) so that z = inf gives inf.
I* Stirling(E& b, I* z) {
  I* w = b.Div(b.Constant(1), z);
  I* series = b.Mul(
      w,
      b.Polynomial(b.Mul(w, w), {1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680,
                                 1.0 / 1188, -691.0 / 360360, 1.0 / 156}));
  return b.Add(b.Mul(b.Sub(z, b.Constant(0.5)), b.Sub(b.Log(z), b.Constant(1))),
               b.Add(b.Constant(0.5 * std::log(2 * kPi) - 0.5), series));
}

// lgamma for y >= 0 (and +inf, NaN). Below 12 the argument is moved into
// [1.5, 2.5) by exact integer steps, lgamma(y) = lgamma(y - n) +
// log((y-1)...(y-n)) going down (at most 10 steps) or lgamma(y) =
// lgamma(y + 1) - log(y) (twice below 1/2) going up, where the Taylor
// series of lgamma around 2 converges fast. No cancellation at the zeros 1
// and 2: there the result is t * (series) - log1p(t) with t = y - 1 or
// y - 2 exact.
I* LgammaNonNegative(E& b, I* y) {
  I* one = b.Constant(1);
  I* half = b.Constant(0.5);
  // Going down from [2.5, 12).
  I* yc = y;
  I* product = one;
  for (int k = 0; k < 10; ++k) {
    I* step = b.Compare(ComparisonDirection::kGe, yc, b.Constant(2.5));
    I* down = b.Sub(yc, one);
    product = b.Select(step, b.Mul(product, down), product);
    yc = b.Select(step, down, yc);
  }
  I* t_high = b.Sub(yc, b.Constant(2));
  // Going up from [0, 1.5): y in [1/2, 3/2) needs log(y) = log1p(y - 1),
  // y in [0, 1/2) log(y) + log(y + 1).
  I* below_half = b.Lt(y, half);
  I* y_minus_one = b.Sub(y, one);
  I* t_low = b.Select(below_half, y, y_minus_one);
  I* log_low =
      b.Select(below_half, b.Add(b.Log(y), b.Log1p(y)), b.Log1p(y_minus_one));
  I* low = b.Lt(y, b.Constant(1.5));
  I* t = b.Select(low, t_low, t_high);
  I* series = b.Mul(t, b.Polynomial(t, Coefficients(chlo::kLgammaAround2)));
  I* reduced = b.Add(series, b.Select(low, b.Neg(log_low), b.Log(product)));
  return b.Select(b.Lt(y, b.Constant(12)), reduced, Stirling(b, y));
}

// lgamma(x) = log|Gamma(x)|. Negative x by reflection:
// lgamma(x) = log(pi) - log|sin(pi x)| - lgamma(1 - x); inf at 0, at the
// negative integers and at -inf.
I* Lgamma(E& b, I* x) {
  I* reflect = b.Lt(x, b.Constant(0));
  I* lg = LgammaNonNegative(b, b.Select(reflect, b.Sub(b.Constant(1), x), x));
  I* g = b.Abs(FractionToNearest(b, x));
  I* log_sin = b.Log(b.Op(Opcode::kSin, {b.Mul(b.Constant(kPi), g)}));
  I* reflected = b.Sub(b.Sub(b.Constant(std::log(kPi)), log_sin), lg);
  I* inf = b.Constant(INFINITY);
  I* pole = b.Op(Opcode::kOr, {b.Eq(g, b.Constant(0)), b.Eq(x, b.Neg(inf))},
                 PrimitiveType::kPred);
  return b.Select(reflect, b.Select(pole, inf, reflected), lg);
}

// digamma(x) = d/dx lgamma(x). For y >= 0: the recurrence
// psi(y) = psi(y + 10) - sum 1 / (y + k) below 10, then the asymptotic series
// log z - 1/(2z) - sum B_2k / (2k z^2k) with seven terms (next term below
// 5e-17 at z = 10). Negative x by reflection:
// psi(x) = psi(1 - x) - pi / tan(pi x). NaN at 0 and the negative integers:
// poles, where the limits from either side are infinities of both signs.
I* Digamma(E& b, I* x) {
  I* reflect = b.Lt(x, b.Constant(0));
  I* y = b.Select(reflect, b.Sub(b.Constant(1), x), x);
  I* shift = b.Lt(y, b.Constant(10));
  I* sum = b.Div(b.Constant(1), y);
  for (int k = 1; k < 10; ++k) {
    sum = b.Add(sum, b.Div(b.Constant(1), b.Add(y, b.Constant(k))));
  }
  I* z = b.Select(shift, b.Add(y, b.Constant(10)), y);
  I* w = b.Div(b.Constant(1), z);
  I* w2 = b.Mul(w, w);
  I* series =
      b.Mul(w2, b.Polynomial(w2, {1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240,
                                  1.0 / 132, -691.0 / 32760, 1.0 / 12}));
  I* psi = b.Sub(b.Sub(b.Log(z), b.Mul(b.Constant(0.5), w)), series);
  psi = b.Sub(psi, b.Select(shift, sum, b.Constant(0)));
  I* r = FractionToNearest(b, x);
  I* tan = b.Op(Opcode::kTan, {b.Mul(b.Constant(kPi), r)});
  I* reflected = b.Sub(psi, b.Div(b.Constant(kPi), tan));
  I* pole = b.Op(Opcode::kAnd,
                 {b.Compare(ComparisonDirection::kLe, x, b.Constant(0)),
                  b.Eq(r, b.Constant(0))},
                 PrimitiveType::kPred);
  return b.Select(pole, b.Constant(NAN), b.Select(reflect, reflected, psi));
}

// exp(-a^2) for a >= 0 without the rounding error of a^2 (which would cost
// up to a^2 ulps): a = hi + lo with hi holding the top 26 significand bits,
// so hi^2 is exact and a^2 = hi^2 + lo (a + hi).
I* ExpMinusSquare(E& b, I* a) {
  I* bits = b.BitcastConvert(a, PrimitiveType::kU64);
  I* hi = b.BitcastConvert(
      b.Op(Opcode::kAnd,
           {bits, b.IntConstant(PrimitiveType::kU64, 0xFFFFFFFFF8000000ull)}),
      PrimitiveType::kF64);
  I* lo = b.Sub(a, hi);
  return b.Mul(b.Exp(b.Neg(b.Mul(hi, hi))),
               b.Exp(b.Neg(b.Mul(lo, b.Add(a, hi)))));
}

// erfc(x) = 1 - erf(x) for |x| < 1/2 (no cancellation there); for
// a = |x| >= 1/2, exp(-a^2) times erfcx(a) from a fitted polynomial on
// [1/2, 4] and exp(-a^2) / a times a polynomial in 1/a^2 beyond;
// erfc(-a) = 2 - erfc(a).
I* Erfc(E& b, I* x) {
  I* a = b.Abs(x);
  // Past 30, erfc underflows; the clamp keeps inf out of the hi/lo split.
  I* ac = b.Op(Opcode::kMinimum, {a, b.Constant(30)});
  I* e = ExpMinusSquare(b, ac);
  I* mid =
      b.Mul(e, PolynomialOn(b, ac, 2.25, 1.75, Coefficients(chlo::kErfcxMid)));
  I* t = b.Sub(b.Div(b.Constant(32), b.Mul(ac, ac)), b.Constant(1));
  I* tail = b.Mul(b.Div(e, ac), b.Polynomial(t, Coefficients(chlo::kErfcTail)));
  I* positive = b.Select(b.Lt(ac, b.Constant(4)), mid, tail);
  I* large = b.Select(b.Lt(x, b.Constant(0)), b.Sub(b.Constant(2), positive),
                      positive);
  I* small = b.Sub(b.Constant(1), b.Op(Opcode::kErf, {x}));
  return b.Select(b.Lt(a, b.Constant(0.5)), small, large);
}

// erf_inv(y) = y f(w) with w = -log((1 - y)(1 + y)) (both factors exact
// near +-1): f is a fitted polynomial in w for w < 6.25 and in sqrt(w) on
// [2.5, 4] and [4, 6.5] (w up to 42, beyond the 36 of the f64 value closest
// to 1). +-inf at +-1; |y| > 1 gives the log of a negative number: NaN.
I* ErfInv(E& b, I* y) {
  I* one = b.Constant(1);
  I* w = b.Neg(b.Log(b.Mul(b.Sub(one, y), b.Add(one, y))));
  I* s = b.Sqrt(w);
  I* central =
      PolynomialOn(b, w, 3.125, 3.125, Coefficients(chlo::kErfInvCentral));
  I* tail = PolynomialOn(b, s, 3.25, 0.75, Coefficients(chlo::kErfInvTail));
  I* far = PolynomialOn(b, s, 5.25, 1.25, Coefficients(chlo::kErfInvFarTail));
  I* f = b.Select(b.Lt(w, b.Constant(6.25)), central,
                  b.Select(b.Lt(s, b.Constant(4)), tail, far));
  I* pole = b.Eq(b.Abs(y), one);
  return b.Select(pole, b.Mul(y, b.Constant(INFINITY)), b.Mul(y, f));
}

// bessel_i1e(x) = exp(-|x|) I1(x), odd. For |x| <= 8 the power series
// I1(x) = (x/2) sum (x^2/4)^k / (k! (k+1)!) (positive terms, 23 of them
// reach 1e-18 at 8); beyond, sqrt(|x|) i1e(|x|) is a fitted polynomial in
// 8 / |x|.
I* BesselI1e(E& b, I* x) {
  I* a = b.Abs(x);
  std::vector<double> series;
  double term = 1;
  for (int k = 0; k < 23; ++k) {
    series.push_back(term);
    term /= double(k + 1) * double(k + 2);
  }
  I* q = b.Mul(b.Mul(x, x), b.Constant(0.25));
  I* small = b.Mul(b.Mul(b.Mul(x, b.Constant(0.5)), b.Polynomial(q, series)),
                   b.Exp(b.Neg(a)));
  I* u = b.Sub(b.Div(b.Constant(16), a), b.Constant(1));
  I* tail = b.Div(b.Polynomial(u, Coefficients(chlo::kI1eTail)), b.Sqrt(a));
  I* signed_tail = b.Select(b.Lt(x, b.Constant(0)), b.Neg(tail), tail);
  return b.Select(b.Gt(a, b.Constant(8)), signed_tail, small);
}

// The unsigned integer type of a float type's width.
PrimitiveType BitsType(PrimitiveType t) {
  switch (BitWidth(t)) {
    case 16:
      return PrimitiveType::kU16;
    case 32:
      return PrimitiveType::kU32;
    default:
      return PrimitiveType::kU64;
  }
}

// nextafter(x, y) on the bit patterns: a step of one in the magnitude bits
// away from zero when y lies beyond x, towards it otherwise; the smallest
// subnormal with y's sign from zero; y when x == y (so nextafter(0, -0) is
// -0); NaN when either is NaN.
I* NextAfter(E& b, I* x, I* y) {
  const PrimitiveType t = x->shape().element_type();
  const PrimitiveType u = BitsType(t);
  const int bits = BitWidth(t);
  I* bx = b.BitcastConvert(x, u);
  I* by = b.BitcastConvert(y, u);
  I* sign =
      b.Op(Opcode::kAnd, {by, b.IntConstant(u, uint64_t{1} << (bits - 1))});
  I* from_zero = b.Op(Opcode::kOr, {sign, b.IntConstant(u, 1)});
  I* zero = b.Constant(0);
  I* away = b.Compare(ComparisonDirection::kEq, b.Lt(x, y), b.Gt(x, zero));
  I* one = b.IntConstant(u, 1);
  I* stepped = b.Select(away, b.Add(bx, one), b.Sub(bx, one));
  I* r = b.BitcastConvert(b.Select(b.Eq(x, zero), from_zero, stepped), t);
  r = b.Select(b.Eq(x, y), y, r);
  I* nan = b.Op(Opcode::kOr, {b.Ne(x, x), b.Ne(y, y)}, PrimitiveType::kPred);
  return b.Select(nan, b.Add(x, y), r);
}

// Builds `f` in f64 on operand `x` and rounds to the result type.
I* InDouble(E& b, I* x, I* (*f)(E&, I*)) {
  const PrimitiveType t = b.type();
  if (t == PrimitiveType::kF64) return f(b, x);
  b.set_type(PrimitiveType::kF64);
  I* r = f(b, b.Convert(x, PrimitiveType::kF64));
  b.set_type(t);
  return b.Convert(r, t);
}

absl::Status Error(const ChloOp& op, std::string_view message) {
  return ErrorAt(op.location,
                 absl::StrCat("chlo.", Sv(op.name), ": ", Sv(message)));
}

absl::Status CheckOperands(const ChloOp& op, int count) {
  if (static_cast<int>(op.operands.size()) != count) {
    return Error(op, absl::StrCat("expected ", count, " operand(s), got ",
                                  op.operands.size()));
  }
  return absl::OkStatus();
}

// Which element types an element-wise lowering takes.
enum class Types { kReal, kRealOrComplex, kInteger };

// An element-wise op: every operand has the result's array shape (types
// and dimensions; CHLO's broadcasting forms arrive already broadcast), of
// a floating-point type `types` allows.
absl::Status CheckElementwise(const ChloOp& op, int count, Types types) {
  RETURN_IF_ERROR(CheckOperands(op, count));
  if (!op.result_shape.IsArray()) {
    return Error(op, absl::StrCat("expected an array result, got ",
                                  op.result_shape.ToString()));
  }
  for (const Instruction* o : op.operands) {
    if (!o->shape().Compatible(op.result_shape)) {
      return Error(op, absl::StrCat("operand of type ", o->shape().ToString(),
                                    " does not match the result type ",
                                    op.result_shape.ToString()));
    }
  }
  const PrimitiveType t = op.result_shape.element_type();
  if (types == Types::kInteger) {
    if (IsInteger(t) && BitWidth(t) >= 8) return absl::OkStatus();
    return Error(op, absl::StrCat("element type ", Sv(PrimitiveTypeName(t)),
                                  " is not supported (integers of 8 to 64 "
                                  "bits are)"));
  }
  if (IsRealFloat(t)) return absl::OkStatus();
  if (types == Types::kRealOrComplex && IsComplex(t)) return absl::OkStatus();
  return Error(
      op, absl::StrCat(
              "element type ", Sv(PrimitiveTypeName(t)),
              " is not supported (f16, bf16, f32 and f64 are",
              types == Types::kRealOrComplex ? ", and c64 and c128)" : ")"));
}

// Adds the instructions of one CHLO op; the shape checks are its own.
using Lowering = std::function<absl::StatusOr<I*>(const ChloOp&, Computation&,
                                                  NameUniquer&)>;

E Builder(const ChloOp& op, Computation& computation, NameUniquer& names) {
  return E(computation, names, op.result_shape, op.location, op.name);
}

// The HLO opcode of the same meaning on the one operand.
Lowering SameOpcode(Opcode opcode, Types types) {
  return [=](const ChloOp& op, Computation& c,
             NameUniquer& names) -> absl::StatusOr<I*> {
    RETURN_IF_ERROR(CheckElementwise(op, 1, types));
    return Builder(op, c, names).Op(opcode, {op.operands[0]});
  };
}

// A decomposition built in f64 and rounded to the result type.
Lowering InF64(I* (*decomposition)(E&, I*)) {
  return [=](const ChloOp& op, Computation& c,
             NameUniquer& names) -> absl::StatusOr<I*> {
    RETURN_IF_ERROR(CheckElementwise(op, 1, Types::kReal));
    E b = Builder(op, c, names);
    return InDouble(b, op.operands[0], decomposition);
  };
}

// The real and imaginary parts of a complex z of `type`, and their type.
struct ComplexParts {
  I* re;
  I* im;
  PrimitiveType part;
};
ComplexParts SplitComplex(E& b, I* z, PrimitiveType type) {
  const PrimitiveType part =
      type == PrimitiveType::kC64 ? PrimitiveType::kF32 : PrimitiveType::kF64;
  return {b.Op(Opcode::kReal, {z}, part), b.Op(Opcode::kImag, {z}, part),
          part};
}

// Real: atan2(x, 1). Complex: atan(z) = -i atanh(iz), with iz = -y + ix
// and -i(u + iv) = v - iu built from the parts.
absl::StatusOr<I*> LowerAtan(const ChloOp& op, Computation& c,
                             NameUniquer& names) {
  RETURN_IF_ERROR(CheckElementwise(op, 1, Types::kRealOrComplex));
  E b = Builder(op, c, names);
  I* z = op.operands[0];
  const PrimitiveType type = op.result_shape.element_type();
  if (!IsComplex(type)) return b.Atan2(z, b.Constant(1));
  const auto [x, y, part] = SplitComplex(b, z, type);
  I* iz = b.Op(Opcode::kComplex, {b.Neg(y), x}, type);
  I* t = b.Op(Opcode::kAtanh, {iz}, type);
  I* u = b.Op(Opcode::kReal, {t}, part);
  I* v = b.Op(Opcode::kImag, {t}, part);
  return b.Op(Opcode::kComplex, {v, b.Neg(u)}, type);
}

// square: x * x. A complex z = x + iy squares to (x - y)(x + y) + 2xy i,
// whose real part does not cancel as x x - y y would when |x| ~ |y|.
absl::StatusOr<I*> LowerSquare(const ChloOp& op, Computation& c,
                               NameUniquer& names) {
  RETURN_IF_ERROR(CheckElementwise(op, 1, Types::kRealOrComplex));
  E b = Builder(op, c, names);
  I* z = op.operands[0];
  const PrimitiveType type = op.result_shape.element_type();
  if (!IsComplex(type)) return b.Mul(z, z);
  const auto [x, y, part] = SplitComplex(b, z, type);
  I* re = b.Op(Opcode::kMultiply, {b.Op(Opcode::kSubtract, {x, y}, part),
                                   b.Op(Opcode::kAdd, {x, y}, part)},
               part);
  I* xy = b.Op(Opcode::kMultiply, {x, y}, part);
  I* im = b.Op(Opcode::kAdd, {xy, xy}, part);
  return b.Op(Opcode::kComplex, {re, im}, type);
}

absl::StatusOr<I*> LowerNextAfter(const ChloOp& op, Computation& c,
                                  NameUniquer& names) {
  RETURN_IF_ERROR(CheckElementwise(op, 2, Types::kReal));
  E b = Builder(op, c, names);
  return NextAfter(b, op.operands[0], op.operands[1]);
}

// The integer type of `bits` bits with `t`'s signedness.
PrimitiveType IntegerType(PrimitiveType t, int bits) {
  const bool is_signed = IsSignedInt(t);
  switch (bits) {
    case 16:
      return is_signed ? PrimitiveType::kS16 : PrimitiveType::kU16;
    case 32:
      return is_signed ? PrimitiveType::kS32 : PrimitiveType::kU32;
    default:
      return is_signed ? PrimitiveType::kS64 : PrimitiveType::kU64;
  }
}

// The high 64 bits of the 128-bit product of two u64 values, from their
// 32-bit halves: x1 y1 2^64 + (x0 y1 + x1 y0) 2^32 + x0 y0, each partial
// product exact in u64, the middle column summed without overflow.
I* UnsignedMulhi64(E& b, I* x, I* y) {
  constexpr PrimitiveType u64 = PrimitiveType::kU64;
  I* mask = b.IntConstant(u64, 0xffffffffu);
  I* half = b.IntConstant(u64, 32);
  auto lo = [&](I* v) { return b.Op(Opcode::kAnd, {v, mask}); };
  auto hi = [&](I* v) { return b.Op(Opcode::kShiftRightLogical, {v, half}); };
  I* x0 = lo(x);
  I* x1 = hi(x);
  I* y0 = lo(y);
  I* y1 = hi(y);
  I* p00 = b.Mul(x0, y0);
  I* p01 = b.Mul(x0, y1);
  I* p10 = b.Mul(x1, y0);
  I* p11 = b.Mul(x1, y1);
  I* mid = b.Add(b.Add(hi(p00), lo(p01)), lo(p10));
  return b.Add(b.Add(b.Add(p11, hi(p01)), hi(p10)), hi(mid));
}

// chlo.mulhi: the high half of the product at twice the width, signed or
// unsigned as the element type is. Up to 32 bits the product is exact in
// the wider integer type and shifted down; 64-bit operands go through
// UnsignedMulhi64, and for signed ones the two's-complement correction
// hi(x y) = hi_u(x, y) - (x < 0 ? y : 0) - (y < 0 ? x : 0) (mod 2^64).
absl::StatusOr<I*> LowerMulhi(const ChloOp& op, Computation& c,
                              NameUniquer& names) {
  RETURN_IF_ERROR(CheckElementwise(op, 2, Types::kInteger));
  E b = Builder(op, c, names);
  const PrimitiveType t = op.result_shape.element_type();
  const int bits = BitWidth(t);
  I* x = op.operands[0];
  I* y = op.operands[1];
  if (bits <= 32) {
    const PrimitiveType wide = IntegerType(t, 2 * bits);
    I* product = b.Mul(b.Convert(x, wide), b.Convert(y, wide));
    I* high = b.Op(IsSignedInt(t) ? Opcode::kShiftRightArithmetic
                                  : Opcode::kShiftRightLogical,
                   {product, b.IntConstant(wide, static_cast<uint64_t>(bits))});
    return b.Convert(high, t);
  }
  if (!IsSignedInt(t)) return UnsignedMulhi64(b, x, y);
  constexpr PrimitiveType u64 = PrimitiveType::kU64;
  I* ux = b.BitcastConvert(x, u64);
  I* uy = b.BitcastConvert(y, u64);
  I* zero = b.IntConstant(PrimitiveType::kS64, 0);
  I* zero_u = b.IntConstant(u64, 0);
  I* high = UnsignedMulhi64(b, ux, uy);
  high = b.Sub(high, b.Select(b.Lt(x, zero), uy, zero_u));
  high = b.Sub(high, b.Select(b.Lt(y, zero), ux, zero_u));
  return b.BitcastConvert(high, t);
}

// top_k is topk with largest=true: values and s32 indices along the last
// dimension. Shape inference checks k and the result tuple.
absl::StatusOr<I*> LowerTopK(const ChloOp& op, Computation& c,
                             NameUniquer& names) {
  RETURN_IF_ERROR(CheckOperands(op, 1));
  if (!op.k.has_value()) return Error(op, "missing k");
  auto topk =
      Instruction::Create(Opcode::kTopK, names.Unique("top_k"), op.result_shape,
                          {op.operands[0]}, op.location);
  topk->mutable_attrs().k = *op.k;
  topk->mutable_attrs().largest = true;
  absl::StatusOr<Shape> inferred = InferShape(*topk);
  if (!inferred.ok())
    return Error(op, std::string(inferred.status().message()));
  if (!inferred->Compatible(op.result_shape)) {
    return Error(op, absl::StrCat("result type ", op.result_shape.ToString(),
                                  " does not match ", inferred->ToString()));
  }
  return c.AddInstruction(std::move(topk));
}

// Every CHLO op aotc lowers, with its lowering.
const std::vector<std::pair<std::string_view, Lowering>>& Lowerings() {
  static const auto* const kLowerings =
      new std::vector<std::pair<std::string_view, Lowering>>{
          {"tan", SameOpcode(Opcode::kTan, Types::kRealOrComplex)},
          {"erf", SameOpcode(Opcode::kErf, Types::kReal)},
          {"asin", SameOpcode(Opcode::kAsin, Types::kRealOrComplex)},
          {"acos", SameOpcode(Opcode::kAcos, Types::kRealOrComplex)},
          {"asinh", SameOpcode(Opcode::kAsinh, Types::kRealOrComplex)},
          {"acosh", SameOpcode(Opcode::kAcosh, Types::kRealOrComplex)},
          {"atanh", SameOpcode(Opcode::kAtanh, Types::kRealOrComplex)},
          {"sinh", SameOpcode(Opcode::kSinh, Types::kRealOrComplex)},
          {"cosh", SameOpcode(Opcode::kCosh, Types::kRealOrComplex)},
          {"atan", LowerAtan},
          {"square", LowerSquare},
          {"next_after", LowerNextAfter},
          {"top_k", LowerTopK},
          {"mulhi", LowerMulhi},
          {"lgamma", InF64(Lgamma)},
          {"digamma", InF64(Digamma)},
          {"erfc", InF64(Erfc)},
          {"erf_inv", InF64(ErfInv)},
          {"bessel_i1e", InF64(BesselI1e)},
      };
  return *kLowerings;
}

}  // namespace

absl::StatusOr<Instruction*> LowerChloOp(const ChloOp& op,
                                         Computation& computation) {
  for (const auto& [name, lower] : Lowerings()) {
    if (name != op.name) continue;
    NameUniquer names(computation);
    return lower(op, computation, names);
  }
  return ErrorAt(op.location, absl::StrCat("unknown CHLO operation 'chlo.",
                                           Sv(op.name), "'"));
}

}  // namespace aotc
