// DeadCodeElimination ("dce"): removes the instructions nothing needs and
// the computations nothing calls.
//
// An instruction is needed when the root of its computation depends on it,
// or it has a side effect, directly or through a computation it calls (a
// `call` of a computation holding a custom-call stays even when its result
// is unused). Parameters always stay: they are the computation's signature.
// A computation is needed when it is the entry or an instruction of a
// needed computation calls it. Runs after every pass that leaves dead code
// behind (call inlining, CSE, algebraic simplification, constant folding).
#ifndef AOTC_COMPILER_PASSES_DCE_H_
#define AOTC_COMPILER_PASSES_DCE_H_

#include "compiler/passes/pass.h"

namespace aotc {

class DeadCodeElimination : public Pass {
 public:
  std::string_view name() const override { return "dce"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_DCE_H_
