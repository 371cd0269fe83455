// CustomCallSimplifier ("custom-call-simplifier"): removes the custom-calls
// that are identities for a single-device compile (sharding, SPMD and
// memory-placement annotations; the list is IsIdentityCustomCall in
// compiler/ir/custom_call_targets.h), making their users read the operand.
//
// Runs first in the pipeline: custom-calls count as side effects, so until
// they are gone they pin their computations against inlining clean-up, CSE
// and DCE, and code generation refuses them. A custom-call is replaced only
// when its shape equals its operand's exactly, layout included (as algsimp
// requires), so every user and every root keeps the shape it had; a
// MoveToHost whose result layout names the host memory space stays. Works in
// every computation; an identity custom-call nothing uses is removed too,
// and what it alone used is left to dce.
#ifndef AOTC_COMPILER_PASSES_CUSTOM_CALL_SIMPLIFIER_H_
#define AOTC_COMPILER_PASSES_CUSTOM_CALL_SIMPLIFIER_H_

#include "compiler/passes/pass.h"

namespace aotc {

class CustomCallSimplifier : public Pass {
 public:
  std::string_view name() const override { return "custom-call-simplifier"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_CUSTOM_CALL_SIMPLIFIER_H_
