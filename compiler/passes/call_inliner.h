// CallInliner ("call-inliner"): replaces every `call` by a copy of the
// instructions of the computation it applies, so that later passes (CSE,
// algebraic simplification, constant folding, fusion) see across the call
// boundary.
//
// The callee's parameters become the call's operands and its root takes the
// call's place; the copies get fresh names (as NameUniquer gives them) and
// keep the callee instructions' locations and metadata. When a parameter's
// or the root's layout differs from the call's, a `copy` with the expected
// shape is inserted so that no shape a user sees changes (a non-array whose
// layout differs keeps its call). Calls inside inlined code are inlined too,
// in every computation. A callee nothing calls any more is removed. Copying
// stops at a fixed budget of instructions per run (the remaining calls stay
// calls), since nested calls can multiply code exponentially. Runs first in
// the pipeline; its input is a verified module (no call cycles).
#ifndef AOTC_COMPILER_PASSES_CALL_INLINER_H_
#define AOTC_COMPILER_PASSES_CALL_INLINER_H_

#include "compiler/passes/pass.h"

namespace aotc {

class CallInliner : public Pass {
 public:
  std::string_view name() const override { return "call-inliner"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_CALL_INLINER_H_
