// Scaffold: the evaluator driver.
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/kernels.h"
namespace aotc {
absl::StatusOr<Literal> EvaluateModule(const Module&, absl::Span<const Literal>) {
  return absl::UnimplementedError("evaluator not written yet");
}
absl::StatusOr<Literal> EvaluateComputation(const Computation&, absl::Span<const Literal* const>) {
  return absl::UnimplementedError("evaluator not written yet");
}
}  // namespace aotc
