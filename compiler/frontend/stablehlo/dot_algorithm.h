// StableHLO parser: dot_general with an `algorithm` attribute
// (dot_algorithm.cc says which algorithms aotc honours and how).
#ifndef AOTC_COMPILER_FRONTEND_STABLEHLO_DOT_ALGORITHM_H_
#define AOTC_COMPILER_FRONTEND_STABLEHLO_DOT_ALGORITHM_H_

#include <functional>

#include "absl/status/statusor.h"
#include "compiler/frontend/stablehlo/op_builders.h"
#include "compiler/frontend/stablehlo/parser.h"

namespace aotc::shlo {

// Rounds the operands of `b` to the algorithm's precision, builds the
// product with `dot` (which reads b.op.operands and b.shape) in the
// accumulation type and converts it to the result type; a located error
// naming the algorithm when aotc cannot compute it as named.
absl::StatusOr<Instruction*> BuildDotWithAlgorithm(
    OpBuild& b, const Attr& algorithm,
    const std::function<absl::StatusOr<Instruction*>(OpBuild&)>& dot);

}  // namespace aotc::shlo

#endif  // AOTC_COMPILER_FRONTEND_STABLEHLO_DOT_ALGORITHM_H_
