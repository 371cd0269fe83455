// Scaffold: implemented with the verifier.
#include "compiler/ir/shape_inference.h"
namespace aotc {
absl::StatusOr<Shape> InferShape(const Instruction& inst) { return inst.shape(); }
}  // namespace aotc
