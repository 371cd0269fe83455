// TranscendentalExpander ("transcendental-expander"): rewrites the inverse
// trigonometric and hyperbolic opcodes code generation has no element-wise
// form for (acos, acosh, asin, asinh, atanh, cosh, sinh) into ones it has
// (log, log-plus-one, exponential, exponential-minus-one, sqrt, atan2,
// compare, select), with formulas chosen against cancellation and overflow;
// docs/passes.md lists them with their accuracy. Which instructions it
// rewrites is IsExpandedByTranscendentalExpander (compiler/analysis/
// op_facts.h), which code generation reads too.
//
// f32 and f64 are computed in their own type; f16 and bf16 are converted to
// f32 and back; c64 and c128 are computed on the real and imaginary parts
// in f64 (c64 rounded once at the end). Other element types are left
// alone: code generation then refuses the instruction with a located
// error. The
// evaluator computes these opcodes with the C++ library, so comparing the
// expansion with the evaluator tests the formulas against an independent
// implementation.
//
// Runs in every computation, first in the pipeline after the custom-call
// clean-up, so that the simplification passes and fusion see only the
// expanded operations. The result has the replaced instruction's shape,
// layout included, and its location.
#ifndef AOTC_COMPILER_PASSES_TRANSCENDENTAL_EXPANDER_H_
#define AOTC_COMPILER_PASSES_TRANSCENDENTAL_EXPANDER_H_

#include "compiler/passes/pass.h"

namespace aotc {

class TranscendentalExpander : public Pass {
 public:
  std::string_view name() const override { return "transcendental-expander"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_TRANSCENDENTAL_EXPANDER_H_
