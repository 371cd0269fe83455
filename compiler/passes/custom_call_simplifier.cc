// Identity custom-call removal.
#include "compiler/passes/custom_call_simplifier.h"

#include <vector>

#include "compiler/ir/custom_call_targets.h"

namespace aotc {
namespace {

// Whether `inst` can be replaced by its operand without any user or root
// seeing a different shape.
bool Removable(const Instruction& inst) {
  return IsIdentityCustomCall(inst) && inst.shape() == inst.operand(0)->shape();
}

}  // namespace

absl::StatusOr<bool> CustomCallSimplifier::Run(Module& module) {
  bool changed = false;
  for (const auto& comp : module.computations()) {
    // Definition order: in a chain of annotations each one's operand has
    // already been replaced, so the whole chain collapses in one sweep.
    std::vector<Instruction*> removed;
    for (const auto& inst : comp->instructions()) {
      if (!Removable(*inst)) continue;
      inst->ReplaceAllUsesWith(inst->operand(0));
      removed.push_back(inst.get());
    }
    if (removed.empty()) continue;
    comp->RemoveInstructions(removed);
    changed = true;
  }
  return changed;
}

}  // namespace aotc
