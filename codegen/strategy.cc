// The ordered strategy list (see strategy.h), planning by it, and the
// element-form rule the support check and the element loops share.
#include "codegen/strategy.h"

#include <algorithm>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/emit/ir_types.h"
#include "codegen/strategies/attention.h"
#include "codegen/strategies/depthwise.h"
#include "codegen/strategies/dynamic_update_slice.h"
#include "codegen/strategies/element_loops.h"
#include "codegen/strategies/external_call.h"
#include "codegen/strategies/factorization.h"
#include "codegen/strategies/fft.h"
#include "codegen/strategies/gemm/gemm.h"
#include "codegen/strategies/reduce_loop.h"
#include "codegen/strategies/row_dot.h"
#include "codegen/strategies/row_norm.h"
#include "codegen/strategies/scatter.h"
#include "codegen/strategies/select_and_scatter.h"
#include "codegen/strategies/sort.h"
#include "codegen/strategies/stream_dot.h"
#include "codegen/strategies/top_k.h"
#include "compiler/analysis/op_facts.h"
#include "compiler/ir/custom_call_targets.h"
#include "compiler/support/check.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::codegen {
namespace {

// A planner that does not look at the target.
template <std::optional<StrategyPlan> (*Plan)(const Instruction&)>
std::optional<StrategyPlan> AnyTarget(const Instruction& inst,
                                      const TargetInfo&) {
  return Plan(inst);
}

}  // namespace

const std::vector<Strategy>& Strategies() {
  static const std::vector<Strategy>* const kStrategies =
      new std::vector<Strategy>{
          {"attention", PlanAttention},
          {"row-norm", AnyTarget<PlanRowNorm>},
          {"stream-dot", PlanStreamDot},
          {"gemm", PlanGemm},
          {"depthwise", PlanDepthwise},
          {"depthwise-rows", PlanDepthwiseRows},
          {"row-dot", AnyTarget<PlanRowDot>},
          {"reduce-loop", AnyTarget<PlanReduceLoop>},
          {"sort", AnyTarget<PlanSort>},
          {"top-k", AnyTarget<PlanTopK>},
          {"allocate-buffer", AnyTarget<PlanAllocateBuffer>},
          {"external-call", AnyTarget<PlanExternalCall>},
          {"scatter", AnyTarget<PlanScatter>},
          {"dynamic-update-slice", AnyTarget<PlanDynamicUpdateSlice>},
          {"select-and-scatter", AnyTarget<PlanSelectAndScatter>},
          {"fft", AnyTarget<PlanFft>},
          {"triangular-solve", AnyTarget<PlanTriangularSolve>},
          {"cholesky", AnyTarget<PlanCholesky>},
          {"variadic-reduce", AnyTarget<PlanVariadicReduce>},
          {"element-loops", AnyTarget<PlanElementLoops>},
      };
  return *kStrategies;
}

absl::StatusOr<StrategyPlan> PlanInstruction(const Instruction& inst,
                                             const TargetInfo& target) {
  for (const Strategy& s : Strategies()) {
    if (std::optional<StrategyPlan> plan = s.plan(inst, target);
        plan.has_value()) {
      AOTC_CHECK(plan->name.empty(),
                 "a planner named its plan; the registry names strategies");
      plan->name = s.name;
      return *std::move(plan);
    }
  }
  if (IsExternalCustomCall(inst)) RETURN_IF_ERROR(CheckExternalCall(inst));
  std::string what = absl::StrCat("'", Sv(OpcodeName(inst.opcode())), "'");
  if (inst.opcode() == Opcode::kCustomCall) {
    absl::StrAppend(&what, " (", inst.custom_call_target(), ")");
  }
  return ErrorAt(inst.location(),
                 absl::StrCat(what, " is not supported yet by code generation"));
}

bool HasElementalForm(const Instruction& inst) {
  return HasProperty(inst.opcode(), kPropElementalForm) &&
         !IsWidthChangingBitcast(inst);
}

namespace {

using TempMemo = std::map<const Computation*, int64_t>;

absl::StatusOr<BufferPlan> PlanWithScratch(const Computation& comp,
                                           const TargetInfo& target,
                                           TempMemo& temp);

// The scratch `inst` needs while it runs (see PlanBuffersWithScratch).
absl::StatusOr<int64_t> ScratchOf(const Instruction& inst,
                                  const TargetInfo& target, TempMemo& temp) {
  if (ClassifyValue(inst) == ValueKind::kOwned) {
    ASSIGN_OR_RETURN(const StrategyPlan plan, PlanInstruction(inst, target));
    return plan.scratch_bytes;
  }
  int64_t bytes = 0;
  for (const Computation* callee : BufferFunctionCallees(inst)) {
    auto it = temp.find(callee);
    if (it == temp.end()) {
      ASSIGN_OR_RETURN(const BufferPlan plan,
                       PlanWithScratch(*callee, target, temp));
      it = temp.emplace(callee, plan.arena_bytes).first;
    }
    bytes = std::max(bytes, it->second);
  }
  return bytes;
}

absl::StatusOr<BufferPlan> PlanWithScratch(const Computation& comp,
                                           const TargetInfo& target,
                                           TempMemo& temp) {
  absl::Status status;
  BufferPlan plan =
      AssignBuffers(comp, [&](const Instruction& inst) -> int64_t {
        if (!status.ok()) return 0;
        absl::StatusOr<int64_t> bytes = ScratchOf(inst, target, temp);
        if (!bytes.ok()) {
          status = bytes.status();
          return 0;
        }
        return *bytes;
      });
  RETURN_IF_ERROR(status);
  return plan;
}

}  // namespace

absl::StatusOr<BufferPlan> PlanBuffersWithScratch(const Computation& comp,
                                                  const TargetInfo& target) {
  TempMemo temp;
  return PlanWithScratch(comp, target, temp);
}

}  // namespace aotc::codegen
