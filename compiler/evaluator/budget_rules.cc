// The rules of the oracle's error budgets (oracle.h, oracle_internal.h):
// own errors of element-wise operations, first-order propagation by closed
// forms or by the corners of the operands' budgets, the sums of products and
// windows, reductions and data movement.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "compiler/evaluator/oracle.h"
#include "compiler/evaluator/oracle_internal.h"
#include "compiler/ir/opcode.h"
#include "compiler/support/status_macros.h"

namespace aotc::eval::internal {
// ---------------------------------------------------------------------------
// Own errors

// How far aotc's code for an element-wise `op` may be from the evaluator's
// value when both read the same operands. Real results: ulps of the result.
// Complex results: multiples of u |v| on each part (plus an ulp of the
// part). 0: correctly rounded (or exact) on both sides.
// The functions the transcendental expander rewrites into a few others
// (compiler/analysis/op_facts.h lists the same; the evaluator cannot depend
// on the analyses).
bool IsExpanded(Opcode op) {
  switch (op) {
    case Opcode::kAcos:
    case Opcode::kAcosh:
    case Opcode::kAsin:
    case Opcode::kAsinh:
    case Opcode::kAtanh:
    case Opcode::kCosh:
    case Opcode::kSinh:
      return true;
    default:
      return false;
  }
}

double OwnError(Opcode op, bool complex_result) {
  if (IsExpanded(op)) return complex_result ? 32 : 8;
  if (complex_result) {
    switch (op) {
      case Opcode::kMultiply:
        return 2;
      case Opcode::kDivide:
        return 4;
      case Opcode::kAdd:
      case Opcode::kSubtract:
      case Opcode::kNegate:
      case Opcode::kCopy:
      case Opcode::kComplex:
      case Opcode::kConvert:
      case Opcode::kSelect:
        return 0;
      case Opcode::kPower:
      case Opcode::kTan:
      case Opcode::kTanh:
        return 32;
      default:
        return 16;
    }
  }
  switch (op) {
    case Opcode::kExp:
    case Opcode::kLog:
    case Opcode::kLog1p:
    case Opcode::kSin:
    case Opcode::kCos:
    case Opcode::kCbrt:
    case Opcode::kPower:
    case Opcode::kAbs:  // of a complex operand: a scaled hypot
      return 2;
    case Opcode::kExpm1:
    case Opcode::kTanh:
    case Opcode::kLogistic:
    case Opcode::kErf:
    case Opcode::kRsqrt:
    case Opcode::kTan:
    case Opcode::kAtan2:
      return 3;
    default:
      return 0;
  }
}

// ---------------------------------------------------------------------------
// Element-wise budgets

// The state of element i's operand budgets: any unknown, any infinite.
struct Flags {
  bool unknown = false;
  bool infinite = false;
};

Flags OperandFlags(absl::Span<const Literal* const> budgets, Operands operands,
                   int64_t i) {
  Flags f;
  for (size_t k = 0; k < budgets.size(); ++k) {
    if (budgets[k] == nullptr) continue;
    const PrimitiveType t = operands[k]->shape().element_type();
    if (!HasBudget(t)) continue;
    for (int p = 0; p < Parts(t); ++p) {
      const double b = GetPart(*budgets[k], i, p);
      f.unknown = f.unknown || std::isnan(b);
      f.infinite = f.infinite || std::isinf(b);
    }
  }
  return f;
}

// The budget of part p of element i of `value` given the spread its
// operands' budgets cause (`spread`, 0 when they are exact).
double Finish(const Literal& value, int64_t i, int p, double spread,
              bool perturbed, Flags flags, double own) {
  const double v = GetPart(value, i, p);
  if (!std::isfinite(v)) return 0;
  if (flags.unknown) return kNaN;
  if (flags.infinite || !std::isfinite(spread)) return kInf;
  const PrimitiveType type = value.shape().element_type();
  const PrimitiveType part = PartType(type);
  double b = spread + (perturbed ? Ulp(part, v) : 0);
  if (IsComplex(type)) {
    if (own > 0) {
      const double m =
          std::hypot(GetPart(value, i, 0), GetPart(value, i, 1));
      b += own * UnitRoundoff(part) * m + Ulp(part, v);
    }
  } else {
    b += own * Ulp(part, v);
  }
  return b;
}

// Closed-form first-order rules for common real operations: `fn(x, e, v)`
// is the spread of the result v given operand values x and budgets e.
template <typename Fn>
Literal RealRule(const Instruction& inst, Operands operands,
                 absl::Span<const Literal* const> budgets,
                 const Literal& value, bool perturbed, Fn&& fn) {
  const int64_t n = value.element_count();
  const size_t arity = std::min<size_t>(operands.size(), 3);
  const double own = OwnError(inst.opcode(), false);
  Literal out(value.shape());
  double x[3] = {0, 0, 0};
  double e[3] = {0, 0, 0};
  for (int64_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < arity; ++k) {
      const PrimitiveType t = operands[k]->shape().element_type();
      x[k] = HasBudget(t)                ? GetPart(*operands[k], i, 0)
             : t == PrimitiveType::kPred ? operands[k]->Get<bool>(i)
                                         : 0;
      e[k] = budgets[k] != nullptr && HasBudget(t)
                 ? GetPart(*budgets[k], i, 0)
                 : 0;
    }
    const Flags flags = OperandFlags(budgets, operands, i);
    const double spread =
        flags.unknown || flags.infinite ? 0 : fn(x, e, GetPart(value, i, 0));
    SetBudget(out, i, 0, Finish(value, i, 0, spread, perturbed, flags, own));
  }
  return out;
}

// Budget by evaluating the operation at the corners of its operands'
// budgets.
Literal CornerRule(const Instruction& inst, Operands operands,
                   absl::Span<const Literal* const> budgets,
                   const Literal& value, const DispatchFn& dispatch) {
  const PrimitiveType type = value.shape().element_type();
  const int parts = Parts(type);
  const int64_t n = value.element_count();
  const double own = OwnError(inst.opcode(), IsComplex(type));
  // The perturbed (operand, part) pairs.
  std::vector<std::pair<size_t, int>> axes;
  for (size_t k = 0; k < operands.size(); ++k) {
    const PrimitiveType t = operands[k]->shape().element_type();
    if (budgets[k] == nullptr || !HasBudget(t) ||
        operands[k]->element_count() != n) {
      continue;
    }
    for (int p = 0; p < Parts(t); ++p) axes.push_back({k, p});
  }
  Literal out(value.shape());
  if (axes.size() > 6) {  // more than 64 corners: not followed
    Fill(out, kNaN);
    return out;
  }
  std::vector<double> spread(n * parts, 0);
  bool failed = false;
  for (uint32_t corner = 0; !axes.empty() && corner < (1u << axes.size());
       ++corner) {
    std::vector<Literal> moved;
    moved.reserve(operands.size());
    std::vector<const Literal*> args(operands.begin(), operands.end());
    std::vector<int> copy_of(operands.size(), -1);
    for (size_t a = 0; a < axes.size(); ++a) {
      const auto [k, p] = axes[a];
      if (copy_of[k] < 0) {
        copy_of[k] = static_cast<int>(moved.size());
        moved.push_back(*operands[k]);
      }
    }
    for (size_t k = 0; k < operands.size(); ++k) {
      if (copy_of[k] >= 0) args[k] = &moved[copy_of[k]];
    }
    for (size_t a = 0; a < axes.size(); ++a) {
      const auto [k, p] = axes[a];
      const double sign = (corner >> a) & 1 ? -1 : 1;
      Literal& m = moved[copy_of[k]];
      for (int64_t i = 0; i < n; ++i) {
        const double b = GetPart(*budgets[k], i, p);
        if (std::isfinite(b) && b > 0) {
          SetPart(m, i, p, GetPart(*operands[k], i, p) + sign * b);
        }
      }
    }
    absl::StatusOr<Literal> at = dispatch(inst, args);
    if (!at.ok() || !at->shape().Compatible(value.shape())) {
      failed = true;
      break;
    }
    for (int64_t i = 0; i < n; ++i) {
      for (int p = 0; p < parts; ++p) {
        const double v = GetPart(value, i, p);
        const double c = GetPart(*at, i, p);
        double& s = spread[i * parts + p];
        s = std::isfinite(c) ? std::max(s, std::fabs(c - v)) : kInf;
      }
    }
  }
  if (failed) {
    Fill(out, kNaN);
    return out;
  }
  for (int64_t i = 0; i < n; ++i) {
    const Flags flags = OperandFlags(budgets, operands, i);
    for (int p = 0; p < parts; ++p) {
      SetBudget(out, i, p,
                Finish(value, i, p, spread[i * parts + p], !axes.empty(),
                       flags, own));
    }
  }
  return out;
}

std::optional<Literal> ElementwiseBudget(
    const Instruction& inst, Operands operands,
    absl::Span<const Literal* const> budgets, const Literal& value,
    const DispatchFn& dispatch) {
  bool perturbed = false;
  bool real_operands = true;
  for (size_t k = 0; k < operands.size(); ++k) {
    const PrimitiveType t = operands[k]->shape().element_type();
    if (!operands[k]->shape().IsArray() ||
        operands[k]->element_count() != value.element_count()) {
      return UnknownBudget(value.shape());
    }
    if (IsComplex(t)) real_operands = false;
    perturbed = perturbed || (budgets[k] != nullptr && HasBudget(t));
  }
  const PrimitiveType type = value.shape().element_type();
  const Opcode op = inst.opcode();
  if (!perturbed && real_operands && !IsComplex(type) && IsCorrectlyRounded(op)) {
    return std::nullopt;
  }
  if (!perturbed && IsComplex(type) && OwnError(op, true) == 0) {
    return std::nullopt;
  }
  if (IsComplex(type) || !real_operands) {
    return CornerRule(inst, operands, budgets, value, dispatch);
  }
  auto rule = [&](auto fn) {
    return RealRule(inst, operands, budgets, value, perturbed, fn);
  };
  using D = const double*;
  switch (op) {
    case Opcode::kCopy:
    case Opcode::kNegate:
    case Opcode::kAbs:
    case Opcode::kConvert:
    case Opcode::kTanh:
      return rule([](D, D e, double) { return e[0]; });
    case Opcode::kAdd:
    case Opcode::kSubtract:
      return rule([](D, D e, double) { return e[0] + e[1]; });
    case Opcode::kMultiply:
      return rule([](D x, D e, double) {
        return std::fabs(x[0]) * e[1] + std::fabs(x[1]) * e[0] + e[0] * e[1];
      });
    case Opcode::kDivide:
      // |a/b - (a+da)/(b+db)| <= (|da| + |a/b| |db|) / (|b| - |db|).
      return rule([](D x, D e, double) {
        const double b = std::fabs(x[1]);
        if (b <= e[1]) return kInf;
        return (e[0] + std::fabs(x[0] / x[1]) * e[1]) / (b - e[1]);
      });
    case Opcode::kMaximum:
    case Opcode::kMinimum:
      return rule([](D, D e, double) { return std::max(e[0], e[1]); });
    case Opcode::kSelect:
      return rule([](D x, D e, double) { return x[0] != 0 ? e[1] : e[2]; });
    case Opcode::kSqrt:
      return rule([](D x, D e, double) {
        if (x[0] < e[0]) return std::sqrt(x[0] + e[0]);
        return std::sqrt(x[0]) - std::sqrt(x[0] - e[0]);
      });
    case Opcode::kExp:
      return rule([](D, D e, double v) { return std::fabs(v) * std::expm1(e[0]); });
    case Opcode::kLog:
      return rule([](D x, D e, double) {
        if (x[0] <= e[0]) return kInf;
        return -std::log1p(-e[0] / x[0]);
      });
    case Opcode::kLogistic:
      return rule([](D, D e, double) { return e[0] / 4; });
    default:
      return CornerRule(inst, operands, budgets, value, dispatch);
  }
}

// ---------------------------------------------------------------------------
// Products, windows and reductions

// |x| element by element (complex: |z| + 0i), in x's type.
Literal Magnitudes(const Literal& x) {
  Literal out(x.shape());
  const PrimitiveType t = x.shape().element_type();
  for (int64_t i = 0; i < x.element_count(); ++i) {
    if (IsComplex(t)) {
      SetPart(out, i, 0, std::hypot(GetPart(x, i, 0), GetPart(x, i, 1)));
    } else {
      SetPart(out, i, 0, std::fabs(GetPart(x, i, 0)));
    }
  }
  return out;
}

// A budget as a magnitude of x's type: complex parts (b_re, b_im) become
// b_re + b_im >= |delta z|; null becomes zeros.
Literal BudgetMagnitudes(const Literal& x, const Literal* budget) {
  Literal out(x.shape());
  if (budget == nullptr) return out;
  const PrimitiveType t = x.shape().element_type();
  for (int64_t i = 0; i < x.element_count(); ++i) {
    double b = GetPart(*budget, i, 0);
    if (IsComplex(t)) b += GetPart(*budget, i, 1);
    SetBudget(out, i, 0, b);
  }
  return out;
}

// Terms per result element of a dot or convolution (for a convolution,
// taps times input features per group: padding only lowers it).
int64_t ProductTerms(const Instruction& inst, Operands operands) {
  if (inst.opcode() == Opcode::kDot) {
    int64_t n = 1;
    for (int64_t d : inst.dot_dnums().lhs_contracting) {
      n *= operands[0]->shape().dimensions(d);
    }
    return n;
  }
  const Shape& kernel = operands[1]->shape();
  const int64_t out_features =
      kernel.dimensions(inst.conv_dnums().kernel_output_feature);
  return out_features == 0 ? 0 : kernel.ElementCount() / out_features;
}

// Budget of a sum of n products (or terms) whose magnitudes sum to `mag`
// and whose operands' budgets carry `carried`, per element.
Literal SumBudget(const Literal& value, const Literal& mag,
                  const Literal* carried, int64_t n, PrimitiveType acc) {
  Literal out(value.shape());
  const PrimitiveType type = value.shape().element_type();
  const double u = UnitRoundoff(acc);
  // The magnitudes were summed in the value's type: allow for that too.
  const double gamma = u * (2 * std::sqrt(static_cast<double>(n)) + 2) *
                       (1 + n * UnitRoundoff(type));
  for (int64_t i = 0; i < value.element_count(); ++i) {
    const double m = GetPart(mag, i, 0);
    const double c = carried != nullptr ? GetPart(*carried, i, 0) : 0;
    for (int p = 0; p < Parts(type); ++p) {
      const double v = GetPart(value, i, p);
      double b = 0;
      if (std::isnan(c)) {
        b = kNaN;
      } else if (std::isfinite(v)) {
        b = gamma * m + c + Ulp(PartType(type), v);
      }
      SetBudget(out, i, p, b);
    }
  }
  return out;
}

// The accumulator of a product of `type` results (linalg_internal.h).
PrimitiveType AccumulatorType(PrimitiveType type) {
  const PrimitiveType part = PartType(type);
  return part == PrimitiveType::kF64 ? PrimitiveType::kF64
                                     : PrimitiveType::kF32;
}

// x_k^2 / s^2 with s = max |x_k| (1 when x is all zero), so that the squares
// neither overflow nor, but for elements 1e-19 below the largest, underflow in
// x's type. Returns s (+inf when x holds an infinity).
double ScaledSquares(const Literal& x, Literal* out) {
  double s = 0;
  for (int64_t i = 0; i < x.element_count(); ++i) {
    s = std::max(s, std::fabs(GetPart(x, i, 0)));
  }
  if (s == 0) s = 1;
  *out = Literal(x.shape());
  if (!std::isfinite(s)) return s;
  for (int64_t i = 0; i < x.element_count(); ++i) {
    const double r = GetPart(x, i, 0) / s;
    SetPart(*out, i, 0, r * r);
  }
  return s;
}

// The error a real product receives from one operand's budgets `b` (the
// lhs's when `lhs_budget`), the other operand's values being `w`: sum_k w_k
// e_k with |e_k| <= b_k. The worst case, sum |w_k| b_k, grows by the l1 norm
// of the weights at every layer (some 40x for a 3x3x256 convolution of
// random weights) while the values do not, so a budget that followed it
// would accept anything a few layers into a deep network. Errors of
// different elements do not line up with the weights' signs: the budget is
// the larger of |sum w_k b_k|, the errors' common part (the same error in
// every element, from a shared scale, say; the whole of it for sums and
// averages), and sqrt(sum w_k^2 b_k^2), their independent parts. Both grow
// as the values do.
absl::StatusOr<Literal> CarriedBudget(const Instruction& inst,
                                      const Literal& b, const Literal& w,
                                      bool lhs_budget,
                                      const DispatchFn& dispatch) {
  auto product = [&](const Literal& x, const Literal& y) {
    return lhs_budget ? dispatch(inst, {&x, &y}) : dispatch(inst, {&y, &x});
  };
  ASSIGN_OR_RETURN(Literal common, product(b, w));
  Literal b2, w2;
  const double sb = ScaledSquares(b, &b2), sw = ScaledSquares(w, &w2);
  if (!std::isfinite(sb) || !std::isfinite(sw)) {
    Fill(common, kInf);
    return common;
  }
  ASSIGN_OR_RETURN(const Literal squares, product(b2, w2));
  Literal out(common.shape());
  for (int64_t i = 0; i < out.element_count(); ++i) {
    SetBudget(out, i, 0,
              std::max(std::fabs(GetPart(common, i, 0)),
                       std::sqrt(GetPart(squares, i, 0)) * sb * sw));
  }
  return out;
}

std::optional<Literal> ProductBudget(const Instruction& inst, Operands operands,
                                     absl::Span<const Literal* const> budgets,
                                     const Literal& value,
                                     const DispatchFn& dispatch) {
  const Literal& a = *operands[0];
  const Literal& b = *operands[1];
  if (!HasBudget(a.shape().element_type()) ||
      !HasBudget(b.shape().element_type())) {
    return UnknownBudget(value.shape());
  }
  const Literal abs_a = Magnitudes(a), abs_b = Magnitudes(b);
  absl::StatusOr<Literal> mag = dispatch(inst, {&abs_a, &abs_b});
  if (!mag.ok()) return UnknownBudget(value.shape());
  std::optional<Literal> carried;
  if (budgets[0] != nullptr || budgets[1] != nullptr) {
    const Literal ba = BudgetMagnitudes(a, budgets[0]);
    const Literal bb = BudgetMagnitudes(b, budgets[1]);
    // Terms: a's budgets times b, b's times a, and the second-order product
    // of the two budgets. Complex products keep the worst case.
    std::vector<Literal> terms;
    const bool complex = IsComplex(a.shape().element_type()) ||
                         IsComplex(b.shape().element_type());
    for (int side = 0; side < 2; ++side) {
      if (budgets[side] == nullptr) continue;
      absl::StatusOr<Literal> t =
          complex ? (side == 0 ? dispatch(inst, {&ba, &abs_b})
                               : dispatch(inst, {&abs_a, &bb}))
                  : CarriedBudget(inst, side == 0 ? ba : bb,
                                  side == 0 ? b : a, side == 0, dispatch);
      if (!t.ok()) return UnknownBudget(value.shape());
      terms.push_back(*std::move(t));
    }
    if (budgets[0] != nullptr && budgets[1] != nullptr) {
      absl::StatusOr<Literal> t = dispatch(inst, {&ba, &bb});
      if (!t.ok()) return UnknownBudget(value.shape());
      terms.push_back(*std::move(t));
    }
    carried = Literal(value.shape());
    for (int64_t i = 0; i < value.element_count(); ++i) {
      double sum = 0;
      for (const Literal& t : terms) sum += GetPart(t, i, 0);
      SetBudget(*carried, i, 0, sum);
    }
  }
  return SumBudget(value, *mag, carried ? &*carried : nullptr,
                   ProductTerms(inst, operands),
                   AccumulatorType(value.shape().element_type()));
}

Opcode ReducerOp(const Instruction& inst) {
  const Computation* reducer = inst.to_apply();
  if (reducer == nullptr || reducer->num_parameters() != 2 ||
      reducer->instruction_count() != 3) {
    return Opcode::kParameter;
  }
  const Instruction* root = reducer->root();
  if (root->operand_count() != 2 ||
      root->operand(0)->opcode() != Opcode::kParameter ||
      root->operand(1)->opcode() != Opcode::kParameter ||
      root->operand(0) == root->operand(1)) {
    return Opcode::kParameter;
  }
  return root->opcode();
}

// Whether a reducer computes nothing inexact: only compares, selects,
// maxima, minima and logic (argmax-style reducers, max, min).
bool IsSelectingReducer(const Computation& reducer) {
  for (const auto& inst : reducer.instructions()) {
    switch (inst->opcode()) {
      case Opcode::kParameter:
      case Opcode::kConstant:
      case Opcode::kCompare:
      case Opcode::kSelect:
      case Opcode::kMaximum:
      case Opcode::kMinimum:
      case Opcode::kAnd:
      case Opcode::kOr:
      case Opcode::kNot:
      case Opcode::kTuple:
      case Opcode::kGetTupleElement:
        break;
      default:
        return false;
    }
  }
  return true;
}

// reduce and reduce-window other than the wide sums.
std::optional<Literal> ReduceBudget(const Instruction& inst, Operands operands,
                                    absl::Span<const Literal* const> budgets,
                                    const Literal& value,
                                    const DispatchFn& dispatch) {
  bool exact_inputs = true;
  for (const Literal* b : budgets) exact_inputs = exact_inputs && b == nullptr;
  const Computation* reducer = inst.to_apply();
  if (exact_inputs && reducer != nullptr && IsSelectingReducer(*reducer)) {
    return std::nullopt;
  }
  const Opcode op = ReducerOp(inst);
  if (operands.size() != 2 || !value.shape().IsArray() ||
      !HasBudget(value.shape().element_type())) {
    return exact_inputs ? std::nullopt
                        : std::optional<Literal>(UnknownBudget(value.shape()));
  }
  if (op == Opcode::kMaximum && !exact_inputs && budgets[1] == nullptr) {
    // The largest budget among the selected-from elements: the same
    // window or reduction of the budgets with max (budgets are >= 0).
    Literal zero(operands[1]->shape());
    return dispatch(inst, {budgets[0], &zero}).value_or(
        UnknownBudget(value.shape()));
  }
  if (op == Opcode::kAdd && exact_inputs && inst.opcode() == Opcode::kReduce) {
    // A sequential sum: of half floats, or of any float with wide sums off
    // (--strict-fp); compiled code sums in the same order.
    return std::nullopt;
  }
  if (op == Opcode::kAdd) {
    const Literal abs_x = Magnitudes(*operands[0]);
    const Literal zero(operands[1]->shape());
    absl::StatusOr<Literal> mag = dispatch(inst, {&abs_x, &zero});
    if (!mag.ok()) return UnknownBudget(value.shape());
    std::optional<Literal> carried;
    if (budgets[0] != nullptr) {
      absl::StatusOr<Literal> c = dispatch(inst, {budgets[0], &zero});
      if (!c.ok()) return UnknownBudget(value.shape());
      carried = *std::move(c);
    }
    int64_t n = 1;
    if (inst.opcode() == Opcode::kReduceWindow) {
      for (const WindowDim& w : inst.window()) n *= w.size;
    } else if (value.element_count() > 0) {
      n = operands[0]->element_count() / value.element_count();
    }
    return SumBudget(value, *mag, carried ? &*carried : nullptr, n + 1,
                     AccumulatorType(value.shape().element_type()));
  }
  return UnknownBudget(value.shape());
}

// Shape operations: the same instruction applied to the budgets, exact
// operands of the value's type replaced by zeros (index operands keep their
// values).
std::optional<Literal> MoveBudgets(const Instruction& inst, Operands operands,
                                   absl::Span<const Literal* const> budgets,
                                   const Literal& value,
                                   const DispatchFn& dispatch) {
  const PrimitiveType t = value.shape().element_type();
  std::vector<Literal> zeros;
  zeros.reserve(operands.size());
  std::vector<const Literal*> moved;
  for (size_t k = 0; k < operands.size(); ++k) {
    if (budgets[k] != nullptr) {
      moved.push_back(budgets[k]);
    } else if (operands[k]->shape().IsArray() &&
               operands[k]->shape().element_type() == t) {
      zeros.emplace_back(operands[k]->shape());
      moved.push_back(&zeros.back());
    } else {
      moved.push_back(operands[k]);
    }
  }
  absl::StatusOr<Literal> out = dispatch(inst, moved);
  if (!out.ok()) return UnknownBudget(value.shape());
  return *std::move(out);
}

}  // namespace aotc::eval::internal
