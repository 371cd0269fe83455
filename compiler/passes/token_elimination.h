// TokenElimination ("token-elimination"): removes the tokens that order
// side-effecting custom-calls.
//
// A token carries no data; it only orders side effects. Code generation
// runs side-effecting instructions in definition order (the schedule of
// buffer_assignment.h), and definition order already respects every token
// edge, so once the tokens are gone the calls still run in the order the
// tokens gave. The pass, in every computation:
//   - makes the users of `add-dependency(x, t)` read x;
//   - drops the token operands of custom-calls (an external function's
//     inputs are the array leaves of its operands, so no index moves);
//   - drops the token elements of a custom-call's tuple result and
//     renumbers the get-tuple-elements that read the others (a result of
//     just `token[]` becomes the empty tuple);
//   - removes after-all and the get-tuple-elements of tokens once nothing
//     reads them.
// It changes nothing else and never moves an instruction. A token that
// reaches anything else (an entry parameter or result, a tuple, the state
// of a while, conditional or call) stays, and code generation refuses it
// with a located error. Runs right after custom-call-simplifier, before
// anything can reorder side effects.
#ifndef AOTC_COMPILER_PASSES_TOKEN_ELIMINATION_H_
#define AOTC_COMPILER_PASSES_TOKEN_ELIMINATION_H_

#include "compiler/passes/pass.h"

namespace aotc {

class TokenElimination : public Pass {
 public:
  std::string_view name() const override { return "token-elimination"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_TOKEN_ELIMINATION_H_
