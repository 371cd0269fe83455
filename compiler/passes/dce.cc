// Dead instruction and dead computation removal.
#include "compiler/passes/dce.h"

#include "compiler/analysis/side_effects.h"
#include "compiler/rewrite/ir_rewrite.h"

namespace aotc {

absl::StatusOr<bool> DeadCodeElimination::Run(Module& module) {
  const SideEffects effects(module);
  bool changed = false;
  // Instructions first: a removed instruction may have been the last caller
  // of a computation.
  for (const auto& comp : module.computations()) {
    changed = RemoveDeadInstructions(*comp, effects) || changed;
  }
  changed = RemoveUnusedComputations(module) || changed;
  return changed;
}

}  // namespace aotc
