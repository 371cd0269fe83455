// Wide sums and error budgets of the evaluator's oracle mode (see oracle.h).
#include "compiler/evaluator/oracle.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "compiler/evaluator/index_util.h"
#include "compiler/evaluator/kernel_util.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/evaluator/oracle_internal.h"
#include "compiler/ir/minifloat.h"
#include "compiler/ir/native_type.h"
#include "compiler/ir/opcode.h"
#include "compiler/support/check.h"
#include "compiler/support/status_macros.h"

namespace aotc::eval {
namespace internal {


// Element types whose values carry budgets.
bool HasBudget(PrimitiveType t) { return IsRealFloat(t) || IsComplex(t); }

PrimitiveType PartType(PrimitiveType t) {
  if (t == PrimitiveType::kC64) return PrimitiveType::kF32;
  if (t == PrimitiveType::kC128) return PrimitiveType::kF64;
  return t;
}

int Parts(PrimitiveType t) { return IsComplex(t) ? 2 : 1; }

// Part p (0 real, 1 imaginary) of element i of a float or complex array.
double GetPart(const Literal& lit, int64_t i, int p) {
  switch (lit.shape().element_type()) {
    case PrimitiveType::kF16:
      return static_cast<float>(lit.Get<Half>(i));
    case PrimitiveType::kBF16:
      return static_cast<float>(lit.Get<BFloat16>(i));
    case PrimitiveType::kF32:
      return lit.Get<float>(i);
    case PrimitiveType::kF64:
      return lit.Get<double>(i);
    case PrimitiveType::kC64: {
      const std::complex<float> z = lit.Get<std::complex<float>>(i);
      return p == 0 ? z.real() : z.imag();
    }
    case PrimitiveType::kC128: {
      const std::complex<double> z = lit.Get<std::complex<double>>(i);
      return p == 0 ? z.real() : z.imag();
    }
    default:
      break;
  }
  AOTC_CHECK(false, "GetPart on a literal without float parts");
  return 0;
}

// Stores v into part p of element i as the nearest value of the part type.
void SetPart(Literal& lit, int64_t i, int p, double v) {
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
    case PrimitiveType::kC64: {
      std::complex<float> z = lit.Get<std::complex<float>>(i);
      (p == 0 ? z.real(static_cast<float>(v)) : z.imag(static_cast<float>(v)));
      lit.Set<std::complex<float>>(i, z);
      return;
    }
    case PrimitiveType::kC128: {
      std::complex<double> z = lit.Get<std::complex<double>>(i);
      (p == 0 ? z.real(v) : z.imag(v));
      lit.Set<std::complex<double>>(i, z);
      return;
    }
    default:
      break;
  }
  AOTC_CHECK(false, "SetPart on a literal without float parts");
}

// Stores a budget b >= 0 (or NaN) rounded up in the array's type, so that
// storing never makes it smaller.
void SetBudget(Literal& lit, int64_t i, int p, double b) {
  SetPart(lit, i, p, b);
  if (GetPart(lit, i, p) >= b || std::isnan(b)) return;
  const double grown =
      b * (1 + 4 * UnitRoundoff(lit.shape().element_type())) +
      Ulp(PartType(lit.shape().element_type()), 0);
  SetPart(lit, i, p, grown);
}

// Fills every float part of `lit` (recursively through tuples) with v.
void Fill(Literal& lit, double v) {
  if (lit.IsTuple()) {
    for (Literal& e : lit.mutable_tuple_elements()) Fill(e, v);
    return;
  }
  const PrimitiveType t = lit.shape().element_type();
  if (!HasBudget(t)) return;
  for (int64_t i = 0; i < lit.element_count(); ++i) {
    for (int p = 0; p < Parts(t); ++p) SetPart(lit, i, p, v);
  }
}

bool AnyFloat(const Shape& shape) {
  if (shape.IsTuple()) {
    for (const Shape& s : shape.tuple_shapes()) {
      if (AnyFloat(s)) return true;
    }
    return false;
  }
  return shape.IsArray() && HasBudget(shape.element_type());
}

}  // namespace internal

using internal::kInf;
using internal::kNaN;
using internal::HasBudget;
using internal::PartType;
using internal::Parts;
using internal::GetPart;
using internal::SetPart;
using internal::SetBudget;
using internal::Fill;
using internal::AnyFloat;
using internal::ElementwiseBudget;
using internal::ProductBudget;
using internal::ReduceBudget;
using internal::MoveBudgets;

bool IsCorrectlyRounded(Opcode op) {
  switch (op) {
    case Opcode::kAbs:
    case Opcode::kAdd:
    case Opcode::kSubtract:
    case Opcode::kMultiply:
    case Opcode::kDivide:
    case Opcode::kSqrt:
    case Opcode::kNegate:
    case Opcode::kCopy:
    case Opcode::kConvert:
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kSelect:
    case Opcode::kClamp:
    case Opcode::kFloor:
    case Opcode::kCeil:
    case Opcode::kRoundNearestAfz:
    case Opcode::kRoundNearestEven:
    case Opcode::kSign:
    case Opcode::kRemainder:
    case Opcode::kReducePrecision:
    case Opcode::kComplex:
    case Opcode::kReal:
    case Opcode::kImag:
    case Opcode::kCompare:
    case Opcode::kIsFinite:
      return true;
    default:
      return false;
  }
}

double UnitRoundoff(PrimitiveType type) {
  switch (PartType(type)) {
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

double Ulp(PrimitiveType type, double v) {
  int digits = 0, min_exponent = 0;  // of the leading bit
  switch (PartType(type)) {
    case PrimitiveType::kF16:
      digits = 11, min_exponent = -14;
      break;
    case PrimitiveType::kBF16:
      digits = 8, min_exponent = -126;
      break;
    case PrimitiveType::kF32:
      digits = 24, min_exponent = -126;
      break;
    case PrimitiveType::kF64:
      digits = 53, min_exponent = -1022;
      break;
    default:
      return 0;
  }
  if (!std::isfinite(v)) return kInf;
  int e = min_exponent;
  if (v != 0) {
    std::frexp(v, &e);
    e = std::max(e - 1, min_exponent);
  }
  return std::ldexp(1.0, e - (digits - 1));
}

bool IsFloatAddReduce(const Instruction& inst) {
  if (inst.opcode() != Opcode::kReduce || inst.operand_count() != 2 ||
      !inst.shape().IsArray() || internal::ReducerOp(inst) != Opcode::kAdd) {
    return false;
  }
  const Computation& reducer = *inst.to_apply();
  const Instruction* root = reducer.root();
  const PrimitiveType t = root->shape().element_type();
  if (!root->shape().IsArray() ||
      (t != PrimitiveType::kF32 && t != PrimitiveType::kF64) ||
      !IsRealFloat(inst.shape().element_type())) {
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
                                    const Literal* input_budget,
                                    Literal* budget) {
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
  *budget = Literal(inst.shape());
  const double u = UnitRoundoff(acc_type);
  const double x0 = GetPart(init, 0, 0);
  const PrimitiveType type = inst.shape().element_type();
  int64_t out_index = 0;
  for (IndexWalker out(kept_dims, {kept_strides}); !out.done(); out.Next()) {
    // Neumaier: `sum + comp` carries the rounding error of every f64 step;
    // for f32 terms the double sum is exact enough and comp stays 0.
    double sum = x0, comp = 0, magnitude = std::fabs(x0), carried = 0;
    int64_t n = 1;
    for (IndexWalker red(red_dims, {red_strides}); !red.done(); red.Next()) {
      const int64_t i = out.offset(0) + red.offset(0);
      const double x = GetPart(input, i, 0);
      const double t = sum + x;
      if (acc_type == PrimitiveType::kF64 && std::isfinite(t)) {
        comp += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
      }
      sum = t;
      magnitude += std::fabs(x);
      if (input_budget != nullptr) carried += GetPart(*input_budget, i, 0);
      ++n;
    }
    SetPart(result, out_index, 0, sum + comp);
    const double v = GetPart(result, out_index, 0);
    const double b =
        !std::isfinite(v)
            ? 0
            : u * std::sqrt(static_cast<double>(n)) * magnitude + carried +
                  Ulp(type, v);
    SetBudget(*budget, out_index, 0, b);
    ++out_index;
  }
  return result;
}

Literal UnknownBudget(const Shape& shape) {
  Literal out(shape);
  Fill(out, kNaN);
  return out;
}

std::optional<Literal> PropagateBudget(const Instruction& inst,
                                       Operands operands,
                                       absl::Span<const Literal* const> budgets,
                                       const Literal& value,
                                       const DispatchFn& dispatch) {
  bool any = false;
  for (const Literal* b : budgets) any = any || b != nullptr;
  const Opcode op = inst.opcode();
  // Iota's values are its indices converted, correctly rounded, on both
  // sides (JAX's arange and position tables are float iotas).
  if (op == Opcode::kParameter || op == Opcode::kConstant ||
      op == Opcode::kIota) {
    return std::nullopt;
  }
  if (op == Opcode::kTuple) {
    if (!any) return std::nullopt;
    std::vector<Literal> parts;
    for (size_t k = 0; k < operands.size(); ++k) {
      // Shapes from the instruction: tuple may have moved its operands out.
      parts.push_back(budgets[k] != nullptr
                          ? *budgets[k]
                          : Literal(inst.operand(k)->shape()));
    }
    return Literal::MakeTuple(std::move(parts));
  }
  if (op == Opcode::kGetTupleElement) {
    if (!any) return std::nullopt;
    return budgets[0]->tuple_elements()[inst.tuple_index()];
  }
  if (op == Opcode::kOptimizationBarrier || op == Opcode::kAddDependency) {
    if (budgets[0] == nullptr) return std::nullopt;
    return *budgets[0];
  }
  if (!AnyFloat(value.shape())) return std::nullopt;
  if (op == Opcode::kDot || op == Opcode::kConvolution) {
    return ProductBudget(inst, operands, budgets, value, dispatch);
  }
  if (op == Opcode::kReduce || op == Opcode::kReduceWindow) {
    return ReduceBudget(inst, operands, budgets, value, dispatch);
  }
  if (op == Opcode::kBitcastConvert) {
    return any ? std::optional<Literal>(UnknownBudget(value.shape()))
               : std::nullopt;
  }
  if (IsMovement(op)) {
    if (!any) return std::nullopt;
    return MoveBudgets(inst, operands, budgets, value, dispatch);
  }
  if (IsElementwise(op) && op != Opcode::kMap && value.shape().IsArray()) {
    return ElementwiseBudget(inst, operands, budgets, value, dispatch);
  }
  switch (op) {
    case Opcode::kSort:
    case Opcode::kTopK:
      // Exact keys give the same permutation on both sides.
      if (!any) return std::nullopt;
      break;
    default:
      break;
  }
  return UnknownBudget(value.shape());
}

std::vector<Literal> BudgetLeaves(const Literal& value, const Literal* budget) {
  std::vector<Literal> out;
  const std::vector<const Literal*> leaves = value.Leaves();
  std::vector<const Literal*> budget_leaves;
  if (budget != nullptr && budget->shape().Compatible(value.shape())) {
    budget_leaves = budget->Leaves();
  }
  for (size_t k = 0; k < leaves.size(); ++k) {
    Literal b(
        Shape::Array(PrimitiveType::kF64, leaves[k]->shape().dimensions()));
    const PrimitiveType t = leaves[k]->shape().element_type();
    auto data = b.mutable_data<double>();
    if (!HasBudget(t)) {
      if (IsMinifloat(t)) std::fill(data.begin(), data.end(), kNaN);
    } else if (k < budget_leaves.size()) {
      for (int64_t i = 0; i < b.element_count(); ++i) {
        data[i] = GetPart(*budget_leaves[k], i, 0);
        if (IsComplex(t)) {
          const double im = GetPart(*budget_leaves[k], i, 1);
          data[i] = std::isnan(im) ? im : std::max(data[i], im);
        }
      }
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace aotc::eval
