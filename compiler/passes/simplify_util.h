// Facts and clean-up shared by the simplification passes (dce, cse,
// call-inliner, algsimp, constant-folding): which instructions have side
// effects once called computations are looked into, and removal of the
// instructions a rewrite left without users.
#ifndef AOTC_COMPILER_PASSES_SIMPLIFY_UTIL_H_
#define AOTC_COMPILER_PASSES_SIMPLIFY_UTIL_H_

#include <unordered_set>
#include <vector>

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

// Removes every instruction of `candidates` (and, transitively, operands of
// removed instructions) that has no users, is not the root of `comp`, is not
// a parameter and has no side effect. The candidates are instructions a
// rewrite just took the users away from; they must all be alive and belong
// to `comp`. Returns whether anything was removed.
bool RemoveDeadFrom(Computation& comp, const SideEffects& effects,
                    std::vector<Instruction*> candidates);

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_SIMPLIFY_UTIL_H_
