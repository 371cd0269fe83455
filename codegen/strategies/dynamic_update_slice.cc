// The dynamic-update-slice strategy (see dynamic_update_slice.h).
#include "codegen/strategies/dynamic_update_slice.h"

#include <vector>

#include "codegen/elemental/elemental_emitter.h"
#include "codegen/emit/ir_array.h"
#include "compiler/analysis/op_facts.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

absl::Status EmitDynamicUpdateSlice(const LoopArgs& a) {
  llvm::IRBuilderBase& b = a.b;
  const IrArray& out = a.out[0];
  const Shape& update = a.inst.operand(1)->shape();
  // The output starts as the operand; in place it already is.
  llvm::BasicBlock* done = nullptr;
  if (a.ins != nullptr) {
    llvm::Function* f = b.GetInsertBlock()->getParent();
    auto* copy = llvm::BasicBlock::Create(b.getContext(), "dus.copy", f);
    done = llvm::BasicBlock::Create(b.getContext(), "dus.copied", f);
    b.CreateCondBr(b.CreateICmpEQ(out.base(), (*a.ins)[0][0].base()), done,
                   copy);
    b.SetInsertPoint(copy);
  }
  RETURN_IF_ERROR(EmitArrayLoop(
      b, out.shape(), a.inst.name(), [&](const Index& index) -> absl::Status {
        ASSIGN_OR_RETURN(Value * v, a.ops[0][0](index));
        out.Write(b, index, v);
        return absl::OkStatus();
      }));
  if (done != nullptr) {
    b.CreateBr(done);
    b.SetInsertPoint(done);
  }
  if (update.ElementCount() == 0) return absl::OkStatus();
  ElementalEmitter elemental(a.mc, b);
  ASSIGN_OR_RETURN(
      std::vector<Value*> starts,
      elemental.ClampedStarts(a.inst, a.ops, 2, update.dimensions()));
  return EmitBoxLoop(
      b, update.dimensions(), a.inst.name() + ".update",
      [&](const std::vector<Value*>& at) -> absl::Status {
        Index u;
        u.shape = &update;
        u.multi = at;
        ASSIGN_OR_RETURN(Value * v, a.ops[1][0](u));
        Index o;
        o.shape = &out.shape();
        for (size_t d = 0; d < at.size(); ++d) {
          o.multi.push_back(b.CreateAdd(starts[d], at[d]));
        }
        out.Write(b, o, v);
        return absl::OkStatus();
      });
}

}  // namespace

std::optional<StrategyPlan> PlanDynamicUpdateSlice(const Instruction& inst) {
  // A larger update is cheaper as one element loop over the output
  // (element-loops) when not in place.
  if (!inst.shape().IsArray() || !IsSmallDynamicUpdate(inst))
    return std::nullopt;
  // Serial: the copy and the update must not interleave across threads.
  StrategyPlan plan;
  plan.emit = EmitDynamicUpdateSlice;
  return plan;
}

}  // namespace aotc::codegen
