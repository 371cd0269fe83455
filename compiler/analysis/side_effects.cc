// Side-effect analysis over the call graph.
#include "compiler/analysis/side_effects.h"

namespace aotc {

bool IsRandom(Opcode op) {
  return op == Opcode::kRng || op == Opcode::kRngBitGenerator ||
         op == Opcode::kRngGetAndUpdateState;
}

SideEffects::SideEffects(const Module& module) {
  // Computations are kept callees first, so one sweep usually settles every
  // computation; further sweeps cover any other order. Each sweep that
  // changes something marks at least one more computation, which bounds the
  // number of sweeps by the number of computations.
  const size_t count = module.computations().size();
  bool changed = true;
  for (size_t sweep = 0; changed && sweep <= count; ++sweep) {
    changed = false;
    for (const auto& comp : module.computations()) {
      if (impure_.count(comp.get())) continue;
      for (const auto& inst : comp->instructions()) {
        if (Has(*inst)) {
          impure_.insert(comp.get());
          changed = true;
          break;
        }
      }
    }
  }
}

bool SideEffects::Has(const Instruction& inst) const {
  if (HasSideEffect(inst.opcode()) || IsRandom(inst.opcode())) return true;
  for (const Computation* callee : inst.called_computations()) {
    if (impure_.count(callee)) return true;
  }
  return false;
}

}  // namespace aotc
