// AttentionFusion ("attention-fusion"): every attention the matcher of
// compiler/analysis/attention_pattern.h recognises, softmax(scale * Q K^T
// [causal mask]) V in its decomposed form, becomes one fusion of kind
// kCustom around it, so that code generation computes it block by block
// with an online softmax (the `attention` strategy) and never writes the
// scores.
//
// The fusion's computation holds copies of the pattern's members (the two
// products, the scale, the mask, the softmax and the views between them);
// its operands are Q, K and V. A pattern is taken only when nothing outside
// reads one of its values (the scores, the probabilities, the softmax's
// sums), cheap members (constants, iotas, the mask's compares) aside, which
// are copied. The evaluator runs the fusion's computation as it runs any
// fusion, so results are checked against the decomposition itself.
//
// Runs after dce and before reduction-splitting (which would split the
// softmax's reductions) and fusion.
#ifndef AOTC_COMPILER_PASSES_ATTENTION_FUSION_H_
#define AOTC_COMPILER_PASSES_ATTENTION_FUSION_H_

#include "compiler/passes/pass.h"

namespace aotc {

class AttentionFusion : public Pass {
 public:
  std::string_view name() const override { return "attention-fusion"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_ATTENTION_FUSION_H_
