// Wide sums and error bounds of the evaluator's oracle mode (see oracle.h).
#include "compiler/evaluator/oracle.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "compiler/evaluator/index_util.h"
#include "compiler/evaluator/kernel_util.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/ir/native_type.h"
#include "compiler/ir/opcode.h"
#include "compiler/support/check.h"
#include "compiler/support/status_macros.h"

namespace aotc::eval {
namespace {

// Element i of a float array (IsRealFloat) as a double.
double GetD(const Literal& lit, int64_t i) {
  switch (lit.shape().element_type()) {
    case PrimitiveType::kF16:
      return static_cast<float>(lit.Get<Half>(i));
    case PrimitiveType::kBF16:
      return static_cast<float>(lit.Get<BFloat16>(i));
    case PrimitiveType::kF32:
      return lit.Get<float>(i);
    case PrimitiveType::kF64:
      return lit.Get<double>(i);
    default:
      break;
  }
  AOTC_CHECK(false, "GetD on a non-float literal");
  return 0;
}

// Stores v as the nearest value of the array's type (a value).
void SetD(Literal& lit, int64_t i, double v) {
  switch (lit.shape().element_type()) {
    case PrimitiveType::kF16:
      lit.Set<Half>(i, Half::FromBits(DoubleToHalf(v)));
      return;
    case PrimitiveType::kBF16:
      lit.Set<BFloat16>(i, BFloat16::FromBits(DoubleToBFloat16(v)));
      return;
    case PrimitiveType::kF32:
      lit.Set<float>(i, static_cast<float>(v));
      return;
    case PrimitiveType::kF64:
      lit.Set<double>(i, v);
      return;
    default:
      break;
  }
  AOTC_CHECK(false, "SetD on a non-float literal");
}

// Stores a bound b >= 0 rounded up in the array's type, so storing never
// makes it smaller.
void SetBound(Literal& lit, int64_t i, double b) {
  SetD(lit, i, b);
  if (GetD(lit, i) >= b || std::isnan(b)) return;
  const double grown = b * (1 + 4 * UnitRoundoff(lit.shape().element_type()));
  SetD(lit, i, grown);
}

// Bounds of an elementwise operation: `fn(values, bounds)` per element, where
// operand k's value and bound are values[k] and bounds[k] (0 when exact).
template <typename Fn>
std::optional<Literal> Elementwise(Operands operands,
                                   absl::Span<const Literal* const> bounds,
                                   const Literal& value, Fn&& fn) {
  const int64_t n = value.element_count();
  const size_t arity = operands.size();
  for (size_t k = 0; k < arity; ++k) {
    const PrimitiveType t = operands[k]->shape().element_type();
    if (!operands[k]->shape().IsArray() || operands[k]->element_count() != n ||
        (!IsRealFloat(t) && t != PrimitiveType::kPred)) {
      return std::nullopt;
    }
  }
  Literal out(value.shape());
  double x[3] = {0, 0, 0};
  double e[3] = {0, 0, 0};
  for (int64_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < arity && k < 3; ++k) {
      x[k] = operands[k]->shape().element_type() == PrimitiveType::kPred
                 ? operands[k]->Get<bool>(i)
                 : GetD(*operands[k], i);
      e[k] = bounds[k] != nullptr ? GetD(*bounds[k], i) : 0;
    }
    SetBound(out, i, fn(x, e, GetD(value, i)));
  }
  return out;
}

constexpr double kInf = std::numeric_limits<double>::infinity();

// Shape operations: the same instruction applied to the bounds, exact
// operands of the value's type replaced by zeros (index operands keep their
// values).
std::optional<Literal> MoveBounds(const Instruction& inst, Operands operands,
                                  absl::Span<const Literal* const> bounds,
                                  const Literal& value) {
  const PrimitiveType t = value.shape().element_type();
  std::vector<Literal> zeros;
  zeros.reserve(operands.size());
  std::vector<const Literal*> moved;
  for (size_t k = 0; k < operands.size(); ++k) {
    if (bounds[k] != nullptr) {
      moved.push_back(bounds[k]);
    } else if (operands[k]->shape().IsArray() &&
               operands[k]->shape().element_type() == t) {
      zeros.emplace_back(operands[k]->shape());
      moved.push_back(&zeros.back());
    } else {
      moved.push_back(operands[k]);
    }
  }
  absl::StatusOr<Literal> out = EvalMovement(inst, moved);
  if (!out.ok()) return std::nullopt;
  return *std::move(out);
}

}  // namespace

double UnitRoundoff(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kF16:
      return std::ldexp(1.0, -11);
    case PrimitiveType::kBF16:
      return std::ldexp(1.0, -8);
    case PrimitiveType::kF32:
      return std::ldexp(1.0, -24);
    case PrimitiveType::kF64:
      return std::ldexp(1.0, -53);
    default:
      return 0;
  }
}

bool IsFloatAddReduce(const Instruction& inst) {
  if (inst.opcode() != Opcode::kReduce || inst.operand_count() != 2 ||
      !inst.shape().IsArray() || inst.to_apply() == nullptr) {
    return false;
  }
  const Computation& reducer = *inst.to_apply();
  const Instruction* root = reducer.root();
  if (reducer.num_parameters() != 2 || reducer.instruction_count() != 3 ||
      root->opcode() != Opcode::kAdd) {
    return false;
  }
  const PrimitiveType t = root->shape().element_type();
  if (!root->shape().IsArray() ||
      (t != PrimitiveType::kF32 && t != PrimitiveType::kF64) ||
      !IsRealFloat(inst.shape().element_type())) {
    return false;
  }
  const Instruction* a = root->operand(0);
  const Instruction* b = root->operand(1);
  if (a->opcode() != Opcode::kParameter || b->opcode() != Opcode::kParameter ||
      a == b) {
    return false;
  }
  for (const Instruction* p : reducer.parameters()) {
    if (p->shape() != root->shape()) return false;
  }
  return inst.operand(0)->shape().IsArray() &&
         inst.operand(0)->shape().element_type() == t &&
         inst.operand(1)->shape().element_type() == t;
}

absl::StatusOr<Literal> EvalWideSum(const Instruction& inst, Operands operands,
                                    const Literal* input_bound,
                                    Literal* bound) {
  RETURN_IF_ERROR(CheckArrayOperands(inst, operands));
  const Literal& input = *operands[0];
  const Literal& init = *operands[1];
  const PrimitiveType acc_type = init.shape().element_type();
  const std::vector<int64_t>& in_dims = input.shape().dimensions();
  const int64_t rank = static_cast<int64_t>(in_dims.size());
  RETURN_IF_ERROR(
      CheckDimensionList(inst, "dimensions", inst.dimensions(), rank));
  std::vector<bool> is_reduced(rank, false);
  for (int64_t d : inst.dimensions()) is_reduced[d] = true;
  const std::vector<int64_t> strides = RowMajorStrides(in_dims);
  std::vector<int64_t> kept_dims, kept_strides, red_dims, red_strides;
  for (int64_t d = 0; d < rank; ++d) {
    (is_reduced[d] ? red_dims : kept_dims).push_back(in_dims[d]);
    (is_reduced[d] ? red_strides : kept_strides).push_back(strides[d]);
  }
  RETURN_IF_ERROR(CheckResultArray(inst, "result", inst.shape(),
                                   inst.shape().element_type(), kept_dims));
  Literal result(inst.shape());
  *bound = Literal(inst.shape());
  const double u = UnitRoundoff(acc_type);
  const double x0 = GetD(init, 0);
  int64_t out_index = 0;
  for (IndexWalker out(kept_dims, {kept_strides}); !out.done(); out.Next()) {
    // Neumaier: `sum + comp` carries the rounding error of every f64 step;
    // for f32 terms the double sum is exact enough and comp stays 0.
    double sum = x0, comp = 0, magnitude = std::fabs(x0), carried = 0;
    int64_t n = 1;
    for (IndexWalker red(red_dims, {red_strides}); !red.done(); red.Next()) {
      const int64_t i = out.offset(0) + red.offset(0);
      const double x = GetD(input, i);
      const double t = sum + x;
      if (acc_type == PrimitiveType::kF64 && std::isfinite(t)) {
        comp += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
      }
      sum = t;
      magnitude += std::fabs(x);
      if (input_bound != nullptr) carried += GetD(*input_bound, i);
      ++n;
    }
    SetD(result, out_index, sum + comp);
    SetBound(*bound, out_index,
             u * std::sqrt(static_cast<double>(n)) * magnitude + carried);
    ++out_index;
  }
  return result;
}

std::optional<Literal> PropagateBound(const Instruction& inst,
                                      Operands operands,
                                      absl::Span<const Literal* const> bounds,
                                      const Literal& value) {
  bool any = false;
  for (const Literal* b : bounds) any = any || b != nullptr;
  if (!any) return std::nullopt;
  const Opcode op = inst.opcode();
  if (op == Opcode::kTuple) {
    std::vector<Literal> parts;
    for (size_t k = 0; k < operands.size(); ++k) {
      // Shapes from the instruction: tuple may have moved its operands out.
      parts.push_back(bounds[k] != nullptr ? *bounds[k]
                                           : Literal(inst.operand(k)->shape()));
    }
    return Literal::MakeTuple(std::move(parts));
  }
  if (op == Opcode::kGetTupleElement) {
    return bounds[0]->tuple_elements()[inst.tuple_index()];
  }
  if (op == Opcode::kOptimizationBarrier) return *bounds[0];
  if (op == Opcode::kAddDependency) {
    if (bounds[0] == nullptr) return std::nullopt;
    return *bounds[0];
  }
  if (!value.shape().IsArray() ||
      !IsRealFloat(value.shape().element_type())) {
    return std::nullopt;
  }
  if (op == Opcode::kCopy || op == Opcode::kNegate || op == Opcode::kAbs ||
      (op == Opcode::kConvert &&
       IsRealFloat(operands[0]->shape().element_type()))) {
    return Elementwise(
        operands, bounds, value,
        [](const double*, const double* e, double) { return e[0]; });
  }
  if (op == Opcode::kBitcastConvert) return std::nullopt;
  if (IsMovement(op)) return MoveBounds(inst, operands, bounds, value);
  auto rule = [&](auto fn) { return Elementwise(operands, bounds, value, fn); };
  switch (op) {
    case Opcode::kAdd:
    case Opcode::kSubtract:
      return rule(
          [](const double*, const double* e, double) { return e[0] + e[1]; });
    case Opcode::kMultiply:
      return rule([](const double* x, const double* e, double) {
        return std::fabs(x[0]) * e[1] + std::fabs(x[1]) * e[0] + e[0] * e[1];
      });
    case Opcode::kDivide:
      // |a/b - (a+da)/(b+db)| <= (|da| + |a/b| |db|) / (|b| - |db|).
      return rule([](const double* x, const double* e, double) {
        const double b = std::fabs(x[1]);
        if (b <= e[1]) return kInf;
        return (e[0] + std::fabs(x[0] / x[1]) * e[1]) / (b - e[1]);
      });
    case Opcode::kMaximum:
    case Opcode::kMinimum:
      return rule([](const double*, const double* e, double) {
        return std::max(e[0], e[1]);
      });
    case Opcode::kSelect:
      return rule([](const double* x, const double* e, double) {
        return x[0] != 0 ? e[1] : e[2];
      });
    case Opcode::kSqrt:
      return rule([](const double* x, const double* e, double) {
        if (x[0] < e[0]) return std::sqrt(x[0] + e[0]);
        return std::sqrt(x[0]) - std::sqrt(x[0] - e[0]);
      });
    case Opcode::kExp:
      return rule([](const double*, const double* e, double v) {
        return std::fabs(v) * std::expm1(e[0]);
      });
    case Opcode::kLog:
      return rule([](const double* x, const double* e, double) {
        if (x[0] <= e[0]) return kInf;
        return -std::log1p(-e[0] / x[0]);
      });
    case Opcode::kTanh:
      return rule([](const double*, const double* e, double) { return e[0]; });
    case Opcode::kLogistic:
      return rule(
          [](const double*, const double* e, double) { return e[0] / 4; });
    default:
      return std::nullopt;
  }
}

std::vector<Literal> BoundLeaves(const Literal& value, const Literal* bound) {
  std::vector<Literal> out;
  const std::vector<const Literal*> leaves = value.Leaves();
  std::vector<const Literal*> bound_leaves;
  if (bound != nullptr && bound->shape().Compatible(value.shape())) {
    bound_leaves = bound->Leaves();
  }
  for (size_t k = 0; k < leaves.size(); ++k) {
    Literal b(
        Shape::Array(PrimitiveType::kF64, leaves[k]->shape().dimensions()));
    if (k < bound_leaves.size() &&
        IsRealFloat(bound_leaves[k]->shape().element_type())) {
      auto data = b.mutable_data<double>();
      for (int64_t i = 0; i < b.element_count(); ++i) {
        data[i] = GetD(*bound_leaves[k], i);
      }
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace aotc::eval
