// EvalLinalg: dispatch of dot and convolution, and the dot kernel.
//
// dot with general dimension numbers: the result dimensions are the batch
// dimensions (in lhs_batch_dims order), then the lhs free dimensions, then
// the rhs free dimensions (each in increasing dimension order). For each
// result element the products are summed sequentially, starting from zero,
// over the contracting positions in row-major order of the contracting
// dimension pairs (as listed in lhs/rhs_contracting_dims). Accumulation and
// mixed operand types follow linalg_internal.h. operand_precision and
// algorithm= do not change the oracle's arithmetic.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "compiler/evaluator/kernel_util.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/evaluator/linalg_internal.h"
#include "compiler/ir/native_type.h"
#include "compiler/ir/opcode.h"
#include "compiler/support/check.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::eval {
namespace {

// The shape of a dot after packing: both operands rearranged so that the
// contraction is contiguous, lhs as [batch][m][k] and rhs as [batch][n][k]
// (m: the lhs free dimensions, n: the rhs free ones, k: the contracting
// dimension pairs, each group row-major). The result [batch][m][n] is then
// the result's own row-major order.
struct DotPlan {
  std::vector<int64_t> result_dims;
  std::vector<int64_t> lhs_order;  // lhs dimensions, slowest first
  std::vector<int64_t> rhs_order;
  int64_t batch = 1, m = 1, n = 1, k = 1;
};

absl::StatusOr<DotPlan> PlanDot(const Instruction& inst, const Shape& lhs,
                                const Shape& rhs) {
  const DotDimensionNumbers& dn = inst.dot_dnums();
  if (dn.lhs_batch.size() != dn.rhs_batch.size()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("dot has ", dn.lhs_batch.size(),
                                " lhs batch dimensions but ",
                                dn.rhs_batch.size(), " rhs batch dimensions"));
  }
  if (dn.lhs_contracting.size() != dn.rhs_contracting.size()) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("dot has ", dn.lhs_contracting.size(),
                     " lhs contracting dimensions but ",
                     dn.rhs_contracting.size(), " rhs contracting dimensions"));
  }
  std::vector<int64_t> lhs_used = dn.lhs_batch;
  lhs_used.insert(lhs_used.end(), dn.lhs_contracting.begin(),
                  dn.lhs_contracting.end());
  std::vector<int64_t> rhs_used = dn.rhs_batch;
  rhs_used.insert(rhs_used.end(), dn.rhs_contracting.begin(),
                  dn.rhs_contracting.end());
  RETURN_IF_ERROR(CheckDimensionList(
      inst, "lhs batch and contracting dimensions", lhs_used, lhs.rank()));
  RETURN_IF_ERROR(CheckDimensionList(
      inst, "rhs batch and contracting dimensions", rhs_used, rhs.rank()));
  for (size_t i = 0; i < lhs_used.size(); ++i) {
    if (lhs.dimensions(lhs_used[i]) != rhs.dimensions(rhs_used[i])) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("dot pairs lhs dimension ", lhs_used[i], " of size ",
                       lhs.dimensions(lhs_used[i]), " with rhs dimension ",
                       rhs_used[i], " of size ", rhs.dimensions(rhs_used[i])));
    }
  }
  DotPlan plan;
  for (size_t i = 0; i < dn.lhs_batch.size(); ++i) {
    plan.result_dims.push_back(lhs.dimensions(dn.lhs_batch[i]));
    plan.batch *= lhs.dimensions(dn.lhs_batch[i]);
  }
  plan.lhs_order = dn.lhs_batch;
  plan.rhs_order = dn.rhs_batch;
  auto is_used = [](const std::vector<int64_t>& used, int64_t d) {
    for (int64_t u : used) {
      if (u == d) return true;
    }
    return false;
  };
  for (int64_t d = 0; d < lhs.rank(); ++d) {
    if (is_used(lhs_used, d)) continue;
    plan.result_dims.push_back(lhs.dimensions(d));
    plan.lhs_order.push_back(d);
    plan.m *= lhs.dimensions(d);
  }
  for (int64_t d = 0; d < rhs.rank(); ++d) {
    if (is_used(rhs_used, d)) continue;
    plan.result_dims.push_back(rhs.dimensions(d));
    plan.rhs_order.push_back(d);
    plan.n *= rhs.dimensions(d);
  }
  for (size_t i = 0; i < dn.lhs_contracting.size(); ++i) {
    plan.k *= lhs.dimensions(dn.lhs_contracting[i]);
  }
  plan.lhs_order.insert(plan.lhs_order.end(), dn.lhs_contracting.begin(),
                        dn.lhs_contracting.end());
  plan.rhs_order.insert(plan.rhs_order.end(), dn.rhs_contracting.begin(),
                        dn.rhs_contracting.end());
  return plan;
}

template <PrimitiveType R>
absl::StatusOr<Literal> DotTyped(const Instruction& inst, const Literal& lhs,
                                 const Literal& rhs, const DotPlan& plan) {
  using linalg::Accum;
  std::vector<Accum<R>> a, b;
  static constexpr const char* kNames[2] = {"lhs", "rhs"};
  RETURN_IF_ERROR(linalg::LoadOperands<R>(inst, lhs, rhs, plan.lhs_order,
                                          plan.rhs_order, kNames, &a, &b));
  Literal result(inst.shape());
  absl::Span<NativeType<R>> out = result.mutable_data<NativeType<R>>();
  const int64_t k_count = plan.k;
  int64_t out_index = 0;
  for (int64_t p = 0; p < plan.batch; ++p) {
    for (int64_t i = 0; i < plan.m; ++i) {
      const int64_t a_row = (p * plan.m + i) * k_count;
      for (int64_t j = 0; j < plan.n; ++j) {
        const int64_t b_row = (p * plan.n + j) * k_count;
        Accum<R> acc{};
        for (int64_t k = 0; k < k_count; ++k) {
          acc = linalg::MultiplyAdd<R>(acc, a[a_row + k], b[b_row + k]);
        }
        out[out_index++] = linalg::FromAccum<R>(acc);
      }
    }
  }
  return result;
}

}  // namespace

absl::StatusOr<Literal> EvalDot(const Instruction& inst, Operands operands) {
  RETURN_IF_ERROR(CheckArrayOperands(inst, operands));
  if (operands.size() != 2) {
    return ErrorAt(inst.location(), absl::StrCat("dot expects 2 operands, got ",
                                                 operands.size()));
  }
  const Literal& lhs = *operands[0];
  const Literal& rhs = *operands[1];
  ASSIGN_OR_RETURN(DotPlan plan, PlanDot(inst, lhs.shape(), rhs.shape()));
  const PrimitiveType type = inst.shape().element_type();
  RETURN_IF_ERROR(
      CheckResultArray(inst, "result", inst.shape(), type, plan.result_dims));
  absl::StatusOr<Literal> result;
  DispatchComputableType(type, [&]<PrimitiveType R>() {
    result = DotTyped<R>(inst, lhs, rhs, plan);
  });
  return result;
}

absl::StatusOr<Literal> EvalLinalg(const Instruction& inst, Operands operands) {
  switch (inst.opcode()) {
    case Opcode::kDot:
      return EvalDot(inst, operands);
    case Opcode::kConvolution:
      return EvalConvolution(inst, operands);
    default:
      break;
  }
  AOTC_CHECK(false, "EvalLinalg called on an opcode it does not handle");
  return absl::InternalError("unreachable");
}

}  // namespace aotc::eval
