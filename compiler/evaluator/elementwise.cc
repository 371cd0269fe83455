// Scaffold: evaluator kernels.
#include "compiler/evaluator/kernels.h"
namespace aotc::eval {
absl::StatusOr<Literal> EvalElementwise(const Instruction&, Operands) {
  return absl::UnimplementedError("not written yet");
}
}  // namespace aotc::eval
