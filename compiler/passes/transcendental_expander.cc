// Expansion of acos, acosh, asin, asinh, atanh, cosh and sinh.
//
// Notation: a = |x|; eps = the compute type's machine epsilon (2^-23,
// 2^-52). Odd functions return x itself for a below kTiny (where the first
// neglected term, x^3/3 at most, is below half an ulp), which also keeps the
// sign of -0.
#include "compiler/passes/transcendental_expander.h"

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/passes/elementwise_builder.h"
#include "compiler/passes/ir_rewrite.h"
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

using Expansion = std::function<I*(E&, const Limits&, I*)>;

// The opcodes this pass expands, each with its formula.
const Expansion* FindExpansion(Opcode op) {
  static const auto* const kTable =
      new std::vector<std::pair<Opcode, Expansion>>{
          {Opcode::kAcos, Acos},   {Opcode::kAcosh, Acosh},
          {Opcode::kAsin, Asin},   {Opcode::kAsinh, Asinh},
          {Opcode::kAtanh, Atanh}, {Opcode::kCosh, Cosh},
          {Opcode::kSinh, Sinh},
      };
  for (const auto& [opcode, expansion] : *kTable) {
    if (opcode == op) return &expansion;
  }
  return nullptr;
}

bool ExpandableType(PrimitiveType t) {
  return t == PrimitiveType::kF16 || t == PrimitiveType::kBF16 ||
         t == PrimitiveType::kF32 || t == PrimitiveType::kF64;
}

// Builds the expansion of `inst` and returns the instruction that replaces
// it.
I* Expand(Instruction& inst, const Expansion& expansion, NameUniquer& names) {
  const PrimitiveType type = inst.shape().element_type();
  const bool narrow =
      type == PrimitiveType::kF16 || type == PrimitiveType::kBF16;
  E b(*inst.parent(), names, inst.shape(), inst.location(),
      absl::StrCat(Sv(inst.name()), ".x"));
  I* x = inst.operand(0);
  if (narrow) {
    b.set_type(PrimitiveType::kF32);
    x = b.Convert(x, PrimitiveType::kF32);
  }
  I* result = expansion(b, LimitsOf(b.type()), x);
  if (narrow) result = b.Convert(result, type);
  return result;
}

}  // namespace

bool IsExpandedByTranscendentalExpander(const Instruction& inst) {
  return FindExpansion(inst.opcode()) != nullptr &&
         ExpandableType(inst.shape().element_type());
}

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
      Instruction* result =
          Expand(*inst, *FindExpansion(inst->opcode()), names);
      inst->ReplaceAllUsesWith(result);
    }
    comp->RemoveInstructions(targets);
    comp->SortTopologically();
    changed = true;
  }
  return changed;
}

}  // namespace aotc
