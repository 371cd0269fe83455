// CommonSubexpressionElimination ("cse"): merges identical instructions of a
// computation into the first of them.
//
// Two instructions are identical when they have the same opcode, the same
// operands in the same order, the same shape including its layout, the same
// attributes (constants: bitwise-equal literals), the same raw attributes
// and the same called computations. Never merged: parameters, elided
// constants (their values are unknown), instructions with side effects or
// random draws (directly or in a called computation), and collectives.
// Visiting in definition order makes merges cascade: once two operands are
// one, their identical users are merged in the same run. Works in every
// computation. Merged copies are removed; their operands are the kept
// instruction's, so nothing else becomes unused.
#ifndef AOTC_COMPILER_PASSES_CSE_H_
#define AOTC_COMPILER_PASSES_CSE_H_

#include "compiler/passes/pass.h"

namespace aotc {

class CommonSubexpressionElimination : public Pass {
 public:
  std::string_view name() const override { return "cse"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_CSE_H_
