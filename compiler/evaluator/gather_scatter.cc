// Scaffold: evaluator kernels.
#include "compiler/evaluator/kernels.h"
namespace aotc::eval {
absl::StatusOr<Literal> EvalGatherScatter(const Instruction&, Operands, const CallFn&) {
  return absl::UnimplementedError("not written yet");
}
}  // namespace aotc::eval
