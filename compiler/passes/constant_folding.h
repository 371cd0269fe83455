// ConstantFolding ("constant-folding"): replaces an instruction whose
// operands are all constants by a constant holding its value, computed by
// the reference evaluator.
//
// Folded: evaluable opcodes without side effects or random draws (also in
// called computations), with an array result of at most 1024 elements of a
// computable type, that compiled code would compute bit for bit as the
// evaluator does: data movement, integer and pred arithmetic, and the
// correctly rounded float operations (add, multiply, divide, sqrt, convert,
// compare, ...: eval::IsCorrectlyRounded). Elementary functions, float
// reductions, products and windows, complex multiply and divide, and called
// computations over floats are left to the compiled code: folded, they would
// reach it as the evaluator's numbers, and comparing compiled results with
// the evaluator (`aotc run --check`, the tests) would check nothing there.
// Not folded either: tuples (their elements are folded where
// used), iota and broadcasts that expand their operand (a big constant costs
// memory and bandwidth that index arithmetic does not), elided constants,
// optimization barriers, and anything whose evaluation fails or exceeds a
// work budget, or the step budget that one run's loops and reducer calls
// share (a loop that would run for long stays a loop). The new
// constant keeps the folded instruction's name, location and metadata, so
// diagnostics still name what the user wrote; the folded instruction, and
// operands that only it used, are removed. Works in every computation
// (a parameter of a reducer or fused computation is not a constant); visits
// in definition order, so chains of constant expressions fold in one run.
#ifndef AOTC_COMPILER_PASSES_CONSTANT_FOLDING_H_
#define AOTC_COMPILER_PASSES_CONSTANT_FOLDING_H_

#include "compiler/passes/pass.h"

namespace aotc {

class ConstantFolding : public Pass {
 public:
  std::string_view name() const override { return "constant-folding"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_CONSTANT_FOLDING_H_
