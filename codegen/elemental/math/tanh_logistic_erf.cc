// tanh, logistic and erf: odd or point-symmetric functions built on exp.
//
// tanh is a polynomial below |x| = 0.55 and e / (e + 2) with e =
// expm1(2|x|) beyond (where that form has no cancellation). logistic
// evaluates exp(-|x|) only, so it never overflows and keeps its subnormal
// left tail. erf is x + x P(x^2) near 0 and 1 - exp(-x^2) G(x) beyond, with
// G = erfc(x) exp(x^2) fitted piecewise (one interval for f32, three for
// f64, the coefficients chosen by selects).
#include <algorithm>
#include <cmath>
#include <vector>

#include "codegen/elemental/math/math_builder.h"
#include "codegen/elemental/math/math_coefficients.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/math/math_internal.h"

namespace aotc::codegen {
namespace math_internal {
namespace {

// Below this |x| tanh is a polynomial; see kTanhPoly.
constexpr double kTanhPolyLimit = 0.55;

llvm::Value* TanhImpl(const Fp& f, llvm::Value* x) {
  llvm::Value* a = f.Abs(x);
  llvm::Value* z = f.Mul(a, a);
  llvm::Value* near_zero = f.MulAdd(
      f.Mul(a, z), f.Horner(z, f.Table(kTanhPolyF32, kTanhPolyF64)), a);
  // Beyond the clamp tanh rounds to 1 and expm1(2x) is still finite.
  llvm::Value* ac = f.Select(f.Gt(a, f.C(20, 40)), f.C(20, 40), a);
  llvm::Value* e = Expm1Impl(f, f.Add(ac, ac));
  llvm::Value* far = f.Div(e, f.Add(e, f.C(2)));
  llvm::Value* result = f.Select(f.Lt(a, f.C(kTanhPolyLimit)), near_zero, far);
  return f.CopySign(result, x);
}

llvm::Value* LogisticImpl(const Fp& f, llvm::Value* x) {
  llvm::Value* e = ExpImpl(f, f.Neg(f.Abs(x)));
  // 1 + e = s + err exactly (e <= 1); dividing by s and correcting by
  // -err/s removes the rounding of the sum. The correction is ~2^-24 of the
  // result, so the linear 1/s ~ 1.5 - s/2 (within 13% on [1, 2]) suffices.
  Dd den = f.FastTwoSum(f.C(1), e);
  llvm::Value* rel = f.Mul(den.lo, f.MulAdd(den.hi, f.C(-0.5), f.C(1.5)));
  auto divide = [&](llvm::Value* num) {
    llvm::Value* q = f.Div(num, den.hi);
    return f.MulAdd(f.Neg(q), rel, q);
  };
  // 1 / (1 + exp(-x)) for x >= 0, exp(x) / (1 + exp(x)) below.
  return f.Select(f.Ge(x, f.C(0)), divide(f.C(1)), divide(e));
}

struct ErfPiece {
  std::span<const double> coeffs;
  double lo;
  double hi;
};

std::vector<ErfPiece> ErfPieces(const Fp& f) {
  if (!f.is_f64()) return {{kErfPolyF32_0, kErfBoundsF32[0], kErfBoundsF32[1]}};
  return {{kErfPolyF64_0, kErfBoundsF64[0], kErfBoundsF64[1]},
          {kErfPolyF64_1, kErfBoundsF64[1], kErfBoundsF64[2]},
          {kErfPolyF64_2, kErfBoundsF64[2], kErfBoundsF64[3]}};
}

llvm::Value* ErfImpl(const Fp& f, llvm::Value* x) {
  std::vector<ErfPiece> pieces = ErfPieces(f);
  llvm::Value* a = f.Abs(x);
  llvm::Value* near_zero = f.MulAdd(
      a, f.Horner(f.Mul(a, a), f.Table(kErfSmallPolyF32, kErfSmallPolyF64)), a);
  // Past the last interval erf rounds to 1; clamping keeps NaN.
  llvm::Value* ac =
      f.Select(f.Gt(a, f.C(pieces.back().hi)), f.C(pieces.back().hi), a);
  // Pick each coefficient (and the interval centre) of the interval holding
  // ac; shorter tables are padded with zeros.
  size_t terms = 0;
  for (const ErfPiece& p : pieces) terms = std::max(terms, p.coeffs.size());
  std::vector<llvm::Value*> in_piece;
  for (size_t i = 1; i < pieces.size(); ++i) {
    in_piece.push_back(f.Ge(ac, f.C(pieces[i].lo)));
  }
  auto pick = [&](auto value_of) {
    llvm::Value* v = f.C(value_of(pieces[0]));
    for (size_t i = 1; i < pieces.size(); ++i) {
      v = f.Select(in_piece[i - 1], f.C(value_of(pieces[i])), v);
    }
    return v;
  };
  llvm::Value* t =
      f.Sub(ac, pick([](const ErfPiece& p) { return (p.lo + p.hi) / 2; }));
  llvm::Value* g = nullptr;
  for (size_t k = terms; k-- > 0;) {
    llvm::Value* c = pick([k](const ErfPiece& p) {
      return k < p.coeffs.size() ? p.coeffs[k] : 0.0;
    });
    g = g == nullptr ? c : f.MulAdd(g, t, c);
  }
  llvm::Value* tail = f.Mul(ExpImpl(f, f.Neg(f.Mul(ac, ac))), g);
  llvm::Value* far = f.Sub(f.C(1), tail);
  llvm::Value* result = f.Select(f.Lt(a, f.C(pieces[0].lo)), near_zero, far);
  return f.CopySign(result, x);
}

}  // namespace
}  // namespace math_internal

using math_internal::Fp;
using math_internal::WithFp;

llvm::Value* EmitTanh(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x,
                [&](const Fp& f) { return math_internal::TanhImpl(f, x); });
}

llvm::Value* EmitLogistic(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x,
                [&](const Fp& f) { return math_internal::LogisticImpl(f, x); });
}

llvm::Value* EmitErf(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x,
                [&](const Fp& f) { return math_internal::ErfImpl(f, x); });
}

}  // namespace aotc::codegen
