// NormFusion ("norm-fusion"): every row normalisation the matcher of
// compiler/analysis/norm_pattern.h recognises (RMSNorm, LayerNorm, an L2
// normalisation, in their decomposed forms, with the scale, the bias and
// the cheap element-wise operations before and after them) becomes one
// fusion of kind kCustom, so that code generation computes it one row at a
// time (the `row-norm` strategy): the row's sums, then its outputs, the row
// read from memory once where fusion alone reads it once per sum and once
// more for the output.
//
// The fusion's computation holds copies of the region's members; its
// operands are the region's inputs. A region ends at the last value that
// still gives one (so the operations after the norm join it), and a member
// other than the root is read by members only (scalar constants aside,
// which are copied). The evaluator runs the fusion's computation as it runs
// any fusion, so results are checked against the decomposition itself.
//
// Runs after attention-fusion and before reduction-splitting and fusion.
#ifndef AOTC_COMPILER_PASSES_NORM_FUSION_H_
#define AOTC_COMPILER_PASSES_NORM_FUSION_H_

#include "compiler/passes/pass.h"

namespace aotc {

class NormFusion : public Pass {
 public:
  std::string_view name() const override { return "norm-fusion"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_NORM_FUSION_H_
