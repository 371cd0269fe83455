// Sibling multi-output fusion: two reductions that read the same input with
// the same loop structure (same operand dimensions, same reduced
// dimensions, same result shape) become one fusion with a tuple of both
// results, so the input is read once for both. Layer normalization's
// sum(x) and sum(x * x) are the classic case.
//
// Runs after FusionPass on the same computations. Candidates are plain
// single-result reduces and kInput fusions whose result comes from exactly
// one such reduce loop; two candidates merge when they share an operand
// that is not a constant and neither depends on the other. Merging repeats,
// so three or more siblings end up in one fusion. Users of each original
// read it through get-tuple-element.
#ifndef AOTC_COMPILER_PASSES_MULTI_OUTPUT_FUSION_H_
#define AOTC_COMPILER_PASSES_MULTI_OUTPUT_FUSION_H_

#include "compiler/passes/pass.h"

namespace aotc {

class MultiOutputFusion : public Pass {
 public:
  std::string_view name() const override { return "multi-output-fusion"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_MULTI_OUTPUT_FUSION_H_
