// Expansion of acos, acosh, asin, asinh, atanh, cosh and sinh, for real and
// complex arguments.
//
// Notation: a = |x|; eps = the compute type's machine epsilon (2^-23,
// 2^-52). Odd functions return x itself for a below kTiny (where the first
// neglected term, x^3/3 at most, is below half an ulp), which also keeps the
// sign of -0.
#include "compiler/passes/transcendental_expander.h"

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/analysis/op_facts.h"
#include "compiler/rewrite/elementwise_builder.h"
#include "compiler/rewrite/ir_rewrite.h"
#include "compiler/support/check.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

using E = ElementwiseBuilder;
using I = Instruction;

constexpr double kLn2 = 0.693147180559945309417232121458176568;

// Thresholds of the compute type (f32 or f64).
struct Limits {
  double tiny;          // below: an odd function is x
  double large;         // above: 1 + x^2 == x^2, so asinh = log(2x)
  double exp_overflow;  // above: exp(x) overflows, exp(x) / 2 may not
};

Limits LimitsOf(PrimitiveType t) {
  if (t == PrimitiveType::kF32) {
    return {std::ldexp(1.0, -12), std::ldexp(1.0, 12), 88.0};
  }
  return {std::ldexp(1.0, -27), std::ldexp(1.0, 27), 709.0};
}

// For odd functions of a = |x|: f(x) = sign(x) f(a), and x itself where a is
// tiny.
I* OddResult(E& b, const Limits& lim, I* x, I* a, I* f_of_a) {
  I* signed_f = b.Select(b.Lt(x, b.Constant(0)), b.Neg(f_of_a), f_of_a);
  return b.Select(b.Lt(a, b.Constant(lim.tiny)), x, signed_f);
}

// asinh(a) = log1p(a + a^2 / (1 + sqrt(1 + a^2))) (no cancellation, a^2
// cannot overflow below `large`); above it asinh(a) = log(a) + ln 2 with an
// error of 1 / (4 a^2) < eps.
I* Asinh(E& b, const Limits& lim, I* x) {
  I* a = b.Abs(x);
  I* one = b.Constant(1);
  I* a2 = b.Mul(a, a);
  I* small = b.Log1p(b.Add(a, b.Div(a2, b.Add(one, b.Sqrt(b.Add(one, a2))))));
  I* big = b.Add(b.Log(a), b.Constant(kLn2));
  I* f = b.Select(b.Gt(a, b.Constant(lim.large)), big, small);
  return OddResult(b, lim, x, a, f);
}

// acosh(x) = log1p(t + sqrt(t (t + 2))) with t = x - 1 exact near 1; log(x)
// + ln 2 above `large`; NaN below 1.
I* Acosh(E& b, const Limits& lim, I* x) {
  I* one = b.Constant(1);
  I* t = b.Sub(x, one);
  I* small = b.Log1p(b.Add(t, b.Sqrt(b.Mul(t, b.Add(t, b.Constant(2))))));
  I* big = b.Add(b.Log(x), b.Constant(kLn2));
  I* r = b.Select(b.Gt(x, b.Constant(lim.large)), big, small);
  return b.Select(b.Lt(x, one), b.Constant(std::nan("")), r);
}

// atanh(a) = log1p(2a / (1 - a)) / 2: 1 - a is exact near 1, so the result
// keeps its accuracy up to the pole; a = 1 gives inf, a > 1 NaN.
I* Atanh(E& b, const Limits& lim, I* x) {
  I* a = b.Abs(x);
  I* q = b.Div(b.Mul(b.Constant(2), a), b.Sub(b.Constant(1), a));
  I* f = b.Mul(b.Constant(0.5), b.Log1p(q));
  return OddResult(b, lim, x, a, f);
}

// sqrt(1 - x^2) as sqrt((1 - x)(1 + x)): both factors exact where it
// matters (x near +-1).
I* SqrtOneMinusSquare(E& b, I* x) {
  I* one = b.Constant(1);
  return b.Sqrt(b.Mul(b.Sub(one, x), b.Add(one, x)));
}

// asin(x) = atan2(x, sqrt(1 - x^2)); NaN for |x| > 1.
I* Asin(E& b, const Limits&, I* x) {
  return b.Atan2(x, SqrtOneMinusSquare(b, x));
}

// acos(x) = atan2(sqrt(1 - x^2), x): pi at -1, 0 at 1, NaN for |x| > 1.
I* Acos(E& b, const Limits&, I* x) {
  return b.Atan2(SqrtOneMinusSquare(b, x), x);
}

// exp(a) / 2 where exp(a) itself may overflow: exp(a / 2) * (exp(a / 2) /
// 2) (a / 2 is exact).
I* HalfExpNoOverflow(E& b, I* a) {
  I* h = b.Exp(b.Mul(a, b.Constant(0.5)));
  return b.Mul(h, b.Mul(h, b.Constant(0.5)));
}

// sinh(a) = (e + e / (e + 1)) / 2 with e = expm1(a): no cancellation for
// small a; exp(a) / 2 without overflow above `exp_overflow`.
I* Sinh(E& b, const Limits& lim, I* x) {
  I* a = b.Abs(x);
  I* e = b.Expm1(a);
  I* small =
      b.Mul(b.Constant(0.5), b.Add(e, b.Div(e, b.Add(e, b.Constant(1)))));
  I* f = b.Select(b.Gt(a, b.Constant(lim.exp_overflow)),
                  HalfExpNoOverflow(b, a), small);
  return OddResult(b, lim, x, a, f);
}

// cosh(a) = exp(a) / 2 + 1 / (2 exp(a)) (a sum of positive terms);
// exp(a) / 2 without overflow above `exp_overflow`.
I* Cosh(E& b, const Limits& lim, I* x) {
  I* a = b.Abs(x);
  I* e = b.Exp(a);
  I* half = b.Constant(0.5);
  I* small = b.Add(b.Mul(half, e), b.Div(half, e));
  return b.Select(b.Gt(a, b.Constant(lim.exp_overflow)),
                  HalfExpNoOverflow(b, a), small);
}

// ---- Complex arguments ----------------------------------------------------
//
// Both complex types are computed in f64 (c64 is rounded once at the end).
// asin, acos and acosh follow Hull, Fairgrieve and Tang ("Implementing the
// complex arcsine and arccosine functions using exception handling", 1997):
// for w = a + ib in the first quadrant, with r = |w + 1|, s = |w - 1| and
// A = (r + s) / 2 >= 1, asin(w) = asin(a / A) + i log(A + sqrt(A^2 - 1)),
// each part rewritten where its direct form cancels. The other quadrants
// follow by symmetry; asinh(z) = -i asin(iz) and acosh comes from acos.

// A complex value as its real and imaginary parts.
struct Parts {
  I* re;
  I* im;
};

constexpr double kPi = 3.141592653589793238462643383279502884;

// Whether the sign bit of the f64 `x` is set (true for -0 and negative NaN).
I* SignBit(E& b, I* x) {
  return b.Lt(b.BitcastConvert(x, PrimitiveType::kS64),
              b.IntConstant(PrimitiveType::kS64, 0));
}

// `v` with the sign of `sign`.
I* CopySign(E& b, I* v, I* sign) {
  return b.Select(SignBit(b, sign), b.Neg(v), v);
}

I* Max(E& b, I* p, I* q) { return b.Select(b.Gt(p, q), p, q); }
I* Min(E& b, I* p, I* q) { return b.Select(b.Gt(p, q), q, p); }

// sqrt(p^2 + q^2): directly while the squares can neither overflow nor
// lose bits to underflow (the larger magnitude m in [2^-450, 2^450]), else
// as m sqrt(1 + (n / m)^2) with n the smaller magnitude.
I* Hypot(E& b, I* p, I* q) {
  p = b.Abs(p);
  q = b.Abs(q);
  I* m = Max(b, p, q);
  I* n = Min(b, p, q);
  I* t = b.Div(n, m);
  I* scaled = b.Mul(m, b.Sqrt(b.Add(b.Constant(1), b.Mul(t, t))));
  I* inf = b.Constant(std::numeric_limits<double>::infinity());
  // m = 0 gives 0 / 0 and m = inf inf / inf: both have the answer m.
  scaled = b.Select(b.Eq(m, b.Constant(0)), m,
                    b.Select(b.Eq(m, inf), m, scaled));
  I* direct = b.Sqrt(b.Add(b.Mul(p, p), b.Mul(q, q)));
  I* in_range = b.Op(Opcode::kAnd, {b.Gt(m, b.Constant(0x1p-450)),
                                    b.Gt(b.Constant(0x1p450), m)});
  return b.Select(in_range, direct, scaled);
}

// The parts of asin and acos of w = a + ib with a, b >= 0: asin(w) =
// asin_re + i im and acos(w) = acos_re - i im.
struct FirstQuadrant {
  I* asin_re;
  I* acos_re;
  I* im;
};

FirstQuadrant InverseSineCosine(E& b, I* a, I* y) {
  I* one = b.Constant(1);
  I* half = b.Constant(0.5);
  I* r = Hypot(b, b.Add(a, one), y);
  I* s = Hypot(b, b.Sub(a, one), y);
  I* big_a = b.Mul(half, b.Add(r, s));
  I* ratio = b.Div(a, big_a);
  I* yy = b.Mul(y, y);
  I* a_plus_1 = b.Add(a, one);
  I* r_term = b.Add(r, a_plus_1);  // r + (a + 1), no cancellation
  // The real parts where a / A is near 1 (asin(a / A) would lose digits):
  // asin = atan(a / d), acos = atan(d / a), d = sqrt(1 - (a / A)^2) A
  // written without the cancellation.
  I* aa = b.Add(big_a, a);
  I* d_inside = b.Sqrt(b.Mul(b.Mul(half, aa),
                             b.Add(b.Div(yy, r_term),
                                   b.Add(s, b.Sub(one, a)))));
  I* d_outside = b.Mul(
      y, b.Sqrt(b.Mul(half, b.Add(b.Div(aa, r_term),
                                  b.Div(aa, b.Add(s, b.Sub(a, one)))))));
  I* d = b.Select(b.Gt(a, one), d_outside, d_inside);
  // Where a / A <= 0.6417 the direct forms are accurate.
  I* direct_d = b.Sqrt(b.Mul(b.Sub(one, ratio), b.Add(one, ratio)));
  I* use_direct = b.Gt(b.Constant(0.6417), ratio);
  FirstQuadrant q;
  q.asin_re = b.Select(use_direct, b.Atan2(ratio, direct_d), b.Atan2(a, d));
  q.acos_re = b.Select(use_direct, b.Atan2(direct_d, ratio), b.Atan2(d, a));
  // im = log(A + sqrt(A^2 - 1)). Near A = 1 through A - 1 written without
  // cancellation; above 2^27 A^2 - 1 rounds to A^2, so im = log(2A).
  I* am1 = b.Mul(half, b.Add(b.Div(yy, r_term),
                             b.Select(b.Lt(a, one),
                                      b.Div(yy, b.Add(s, b.Sub(one, a))),
                                      b.Add(s, b.Sub(a, one)))));
  I* near_one = b.Log1p(b.Add(am1, b.Sqrt(b.Mul(am1, b.Add(big_a, one)))));
  I* middle = b.Log(b.Add(
      big_a, b.Sqrt(b.Mul(b.Sub(big_a, one), b.Add(big_a, one)))));
  I* large = b.Add(b.Log(big_a), b.Constant(kLn2));
  I* im = b.Select(b.Gt(b.Constant(1.5), big_a), near_one,
                   b.Select(b.Gt(big_a, b.Constant(0x1p27)), large, middle));
  // Below 2^-500, y^2 underflows (and y itself may be subnormal, with few
  // bits): there im = y / sqrt(1 - a^2) for a < 1, sqrt(y) for a = 1 and
  // acosh(a) for a > 1, each to within y relative.
  I* below_one = b.Div(y, b.Sqrt(b.Mul(b.Sub(one, a), a_plus_1)));
  I* a_minus_1 = b.Sub(a, one);
  I* above_one = b.Select(
      b.Gt(a, b.Constant(0x1p27)), b.Add(b.Log(a), b.Constant(kLn2)),
      b.Log1p(b.Add(a_minus_1, b.Sqrt(b.Mul(a_minus_1, a_plus_1)))));
  I* tiny_y = b.Select(b.Lt(a, one), below_one,
                       b.Select(b.Eq(a, one), b.Sqrt(y), above_one));
  im = b.Select(b.Gt(b.Constant(0x1p-500), y), tiny_y, im);
  // An infinite part: the limits are the angle of w and an infinite im.
  I* inf = b.Constant(std::numeric_limits<double>::infinity());
  I* infinite = b.Eq(Max(b, a, y), inf);
  q.asin_re = b.Select(infinite, b.Atan2(a, y), q.asin_re);
  q.acos_re = b.Select(infinite, b.Atan2(y, a), q.acos_re);
  q.im = b.Select(infinite, inf, im);
  return q;
}

Parts ComplexAsin(E& b, I* x, I* y) {
  FirstQuadrant q = InverseSineCosine(b, b.Abs(x), b.Abs(y));
  return {CopySign(b, q.asin_re, x), CopySign(b, q.im, y)};
}

// The real part of acos(x + iy) in [0, pi] and the magnitude of its
// imaginary part.
Parts AcosMagnitudes(E& b, I* x, I* y) {
  FirstQuadrant q = InverseSineCosine(b, b.Abs(x), b.Abs(y));
  I* re = b.Select(SignBit(b, x), b.Sub(b.Constant(kPi), q.acos_re),
                   q.acos_re);
  return {re, q.im};
}

// acos(z): the imaginary part has the opposite sign of y.
Parts ComplexAcos(E& b, I* x, I* y) {
  Parts m = AcosMagnitudes(b, x, y);
  return {m.re, b.Select(SignBit(b, y), m.im, b.Neg(m.im))};
}

// acosh(z) = +-i acos(z), the sign making the real part >= 0: the real
// part is acos's imaginary magnitude, the imaginary part acos's real part
// with the sign of y.
Parts ComplexAcosh(E& b, I* x, I* y) {
  Parts m = AcosMagnitudes(b, x, y);
  return {m.im, CopySign(b, m.re, y)};
}

// asinh(x + iy) = -i asin(-y + ix).
Parts ComplexAsinh(E& b, I* x, I* y) {
  FirstQuadrant q = InverseSineCosine(b, b.Abs(y), b.Abs(x));
  return {CopySign(b, q.im, x), CopySign(b, q.asin_re, y)};
}

// atanh(x + iy) = log1p(4a / ((1 - a)^2 + y^2)) / 4 (sign of x) +
// i atan2(2y, (1 - a)(1 + a) - y^2) / 2, a = |x|: 1 - a is exact near the
// poles and the real part has no cancellation. Above 2^500 in magnitude
// the real part is a / (a^2 + y^2) written without overflow.
Parts ComplexAtanh(E& b, I* x, I* y) {
  I* one = b.Constant(1);
  I* a = b.Abs(x);
  I* ay = b.Abs(y);
  I* one_minus_a = b.Sub(one, a);
  I* den = b.Add(b.Mul(one_minus_a, one_minus_a), b.Mul(y, y));
  I* four_a = b.Mul(b.Constant(4), a);
  I* re = b.Mul(b.Constant(0.25), b.Log1p(b.Div(four_a, den)));
  // Next to a pole both squares underflow; there 4a / den is huge, so
  // log1p(4a / den) = log(4a) - 2 log |(1 - a) + iy|.
  I* pole_distance = Hypot(b, one_minus_a, y);
  I* near_pole = b.Mul(
      b.Constant(0.25),
      b.Sub(b.Log(four_a), b.Mul(b.Constant(2), b.Log(pole_distance))));
  re = b.Select(b.Gt(b.Constant(0x1p-500), pole_distance), near_pole, re);
  // Far out: a / (a^2 + y^2) = 1 / (a + y (y / a)) for a >= |y|, and
  // (a / |y|) / (|y| + a (a / |y|)) otherwise; 0 when a part is infinite.
  I* far = b.Select(
      b.Gt(ay, a), b.Div(b.Div(a, ay), b.Add(ay, b.Mul(a, b.Div(a, ay)))),
      b.Div(one, b.Add(a, b.Mul(ay, b.Div(ay, a)))));
  I* inf = b.Constant(std::numeric_limits<double>::infinity());
  I* m = Max(b, a, ay);
  far = b.Select(b.Eq(m, inf), b.Constant(0), far);
  re = b.Select(b.Gt(m, b.Constant(0x1p500)), far, re);
  I* im_den = b.Sub(b.Mul(one_minus_a, b.Add(one, a)), b.Mul(y, y));
  I* im = b.Mul(b.Constant(0.5), b.Atan2(b.Mul(b.Constant(2), y), im_den));
  // With an infinite part the angle is +-pi/2 (the formula's inf - inf
  // would give 3pi/8 when y is infinite).
  im = b.Select(b.Eq(m, inf), CopySign(b, b.Constant(kPi / 2), y), im);
  return {CopySign(b, re, x), im};
}

// sinh(x + iy) = sinh x cos y + i cosh x sin y and cosh(x + iy) = cosh x
// cos y + i sinh x sin y, with the real expansions above. Past the f64
// overflow threshold of exp, e^|x| / 2 times cos y (or sin y) is formed as
// h (h cos(y) / 2), h = e^(|x|/2), so a product that fits in f64 does not
// overflow on the way. For y = 0 the imaginary part is a signed zero (an
// infinite x would otherwise give inf * 0).
Parts ComplexHyperbolic(E& b, I* x, I* y, bool is_sinh) {
  const Limits lim = LimitsOf(PrimitiveType::kF64);
  I* a = b.Abs(x);
  I* cos_y = b.Op(Opcode::kCos, {y});
  I* sin_y = b.Op(Opcode::kSin, {y});
  I* sh = Sinh(b, lim, x);
  I* ch = Cosh(b, lim, x);
  I* h = b.Exp(b.Mul(a, b.Constant(0.5)));
  I* half_h = b.Mul(h, b.Constant(0.5));
  I* big_cos = b.Mul(h, b.Mul(half_h, cos_y));
  I* big_sin = b.Mul(h, b.Mul(half_h, sin_y));
  I* big = b.Gt(a, b.Constant(lim.exp_overflow));
  Parts p;
  if (is_sinh) {
    p.re = b.Select(big, CopySign(b, big_cos, x), b.Mul(sh, cos_y));
    p.im = b.Select(big, big_sin, b.Mul(ch, sin_y));
    p.im = b.Select(b.Eq(y, b.Constant(0)), y, p.im);
  } else {
    p.re = b.Select(big, big_cos, b.Mul(ch, cos_y));
    p.im = b.Select(big, CopySign(b, big_sin, x), b.Mul(sh, sin_y));
    p.im = b.Select(b.Eq(y, b.Constant(0)),
                    b.Mul(y, CopySign(b, b.Constant(1), x)), p.im);
  }
  return p;
}

Parts ComplexSinh(E& b, I* x, I* y) {
  return ComplexHyperbolic(b, x, y, /*is_sinh=*/true);
}

Parts ComplexCosh(E& b, I* x, I* y) {
  return ComplexHyperbolic(b, x, y, /*is_sinh=*/false);
}

// The entry of `op` in an opcode table, or null.
template <typename F>
const F* FindIn(const std::vector<std::pair<Opcode, F>>& table, Opcode op) {
  for (const auto& [opcode, f] : table) {
    if (opcode == op) return &f;
  }
  return nullptr;
}

using ComplexExpansion = std::function<Parts(E&, I*, I*)>;

const ComplexExpansion* FindComplexExpansion(Opcode op) {
  static const auto* const kTable =
      new std::vector<std::pair<Opcode, ComplexExpansion>>{
          {Opcode::kAcos, ComplexAcos},   {Opcode::kAcosh, ComplexAcosh},
          {Opcode::kAsin, ComplexAsin},   {Opcode::kAsinh, ComplexAsinh},
          {Opcode::kAtanh, ComplexAtanh}, {Opcode::kCosh, ComplexCosh},
          {Opcode::kSinh, ComplexSinh},
      };
  return FindIn(*kTable, op);
}

using Expansion = std::function<I*(E&, const Limits&, I*)>;

// A formula for each of TranscendentalExpanderOpcodes() (op_facts.h, which
// says what the pass rewrites); transcendental_expander_test checks that
// the two agree.
const Expansion* FindExpansion(Opcode op) {
  static const auto* const kTable =
      new std::vector<std::pair<Opcode, Expansion>>{
          {Opcode::kAcos, Acos},   {Opcode::kAcosh, Acosh},
          {Opcode::kAsin, Asin},   {Opcode::kAsinh, Asinh},
          {Opcode::kAtanh, Atanh}, {Opcode::kCosh, Cosh},
          {Opcode::kSinh, Sinh},
      };
  return FindIn(*kTable, op);
}

// Builds the expansion of `inst` and returns the instruction that replaces
// it.
I* Expand(Instruction& inst, NameUniquer& names) {
  const PrimitiveType type = inst.shape().element_type();
  E b(*inst.parent(), names, inst.shape(), inst.location(),
      absl::StrCat(Sv(inst.name()), ".x"));
  I* x = inst.operand(0);
  if (IsComplex(type)) {
    const PrimitiveType part = type == PrimitiveType::kC64
                                   ? PrimitiveType::kF32
                                   : PrimitiveType::kF64;
    I* re = b.Op(Opcode::kReal, {x}, part);
    I* im = b.Op(Opcode::kImag, {x}, part);
    b.set_type(PrimitiveType::kF64);
    if (part != PrimitiveType::kF64) {
      re = b.Convert(re, PrimitiveType::kF64);
      im = b.Convert(im, PrimitiveType::kF64);
    }
    const ComplexExpansion* expansion = FindComplexExpansion(inst.opcode());
    AOTC_CHECK(expansion != nullptr, "no complex expansion for this opcode");
    Parts r = (*expansion)(b, re, im);
    if (part != PrimitiveType::kF64) {
      r.re = b.Convert(r.re, part);
      r.im = b.Convert(r.im, part);
    }
    return b.Op(Opcode::kComplex, {r.re, r.im}, type);
  }
  const bool narrow = IsHalfFloat(type);
  if (narrow) {
    b.set_type(PrimitiveType::kF32);
    x = b.Convert(x, PrimitiveType::kF32);
  }
  const Expansion* expansion = FindExpansion(inst.opcode());
  AOTC_CHECK(expansion != nullptr, "no expansion for this opcode");
  I* result = (*expansion)(b, LimitsOf(b.type()), x);
  if (narrow) result = b.Convert(result, type);
  return result;
}

}  // namespace

absl::StatusOr<bool> TranscendentalExpander::Run(Module& module) {
  NameUniquer names(module);
  bool changed = false;
  for (const auto& comp : module.computations()) {
    std::vector<Instruction*> targets;
    for (const auto& inst : comp->instructions()) {
      if (IsExpandedByTranscendentalExpander(*inst))
        targets.push_back(inst.get());
    }
    if (targets.empty()) continue;
    for (Instruction* inst : targets) {
      Instruction* result = Expand(*inst, names);
      inst->ReplaceAllUsesWith(result);
    }
    comp->RemoveInstructions(targets);
    comp->SortTopologically();
    changed = true;
  }
  return changed;
}

}  // namespace aotc
