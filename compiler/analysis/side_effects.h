// Side-effect analysis over the call graph: which instructions have side
// effects or draw random bits once the computations they call are looked
// into. Read by the simplification passes (dce, cse, call-inliner, algsimp,
// constant-folding), dead-code removal (ir_rewrite.h) and buffer
// assignment.
#ifndef AOTC_COMPILER_ANALYSIS_SIDE_EFFECTS_H_
#define AOTC_COMPILER_ANALYSIS_SIDE_EFFECTS_H_

#include <unordered_set>

#include "compiler/ir/module.h"

namespace aotc {

// Opcodes whose every execution draws new random bits: two of them with
// equal operands are still different values.
bool IsRandom(Opcode op);

// Which computations contain a side effect or a random draw, directly or
// through the computations they call. A `call` or `while` of such a
// computation must not be removed, merged or evaluated at compile time even
// though its own opcode has no side effect. Computed once per pass run; the
// simplification passes never add or remove side effects.
class SideEffects {
 public:
  explicit SideEffects(const Module& module);
  // The opcode has a side effect or is random, or a computation it calls
  // (transitively) contains such an instruction.
  bool Has(const Instruction& inst) const;

 private:
  // Lookup only; never iterated.
  std::unordered_set<const Computation*> impure_;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_ANALYSIS_SIDE_EFFECTS_H_
