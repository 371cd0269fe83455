// Reference evaluator: interprets aotc IR with simple, obviously correct
// loops. It is the oracle every codegen test compares against, so clarity
// and exactness beat speed.
//
// Supported element types: pred, s8..s64, u8..u64, f16, bf16 (computed in
// float and rounded to nearest even after every op), f32, f64, c64, c128.
// Anything else, elided constants and opcodes without the V property in
// opcode.def are refused with a located error.
#ifndef AOTC_COMPILER_EVALUATOR_EVALUATOR_H_
#define AOTC_COMPILER_EVALUATOR_EVALUATOR_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"

namespace aotc {

struct EvaluateOptions {
  // Stops evaluation with a located "evaluation stopped after N element
  // operations" error once the estimated work (eval::EstimateWork, summed
  // over every instruction evaluated, including inside loops and reducers)
  // exceeds this; 0 means no limit. Models may loop forever, so tools that
  // must finish set a budget.
  int64_t max_work = 0;
  // Stops evaluation with a located "evaluation stopped after N
  // instructions" error once more than this many instructions have been
  // evaluated (each loop iteration's and each reducer call's counted);
  // 0 means no limit. max_work counts element operations, which leaves a
  // loop over scalars nearly free while each instruction evaluated has a
  // fixed cost of its own: the constant folder bounds both.
  int64_t max_steps = 0;
  // If set, receives the number of instructions evaluated, whether the
  // evaluation finished or stopped: a caller running many evaluations
  // (the constant folder) shares one budget among them.
  int64_t* steps_taken = nullptr;
  // The evaluator as the test oracle (oracle.h): f32 and f64 add-reductions
  // sum in double (compensated for f64) instead of left to right in their
  // type.
  // Off, the evaluator is the constant folder and the meaning --strict-fp
  // code reproduces bit for bit: every reducer applied in row-major order.
  bool oracle = false;
  // EvaluateOracle only: false keeps the sequential sums (--strict-fp code
  // sums that way) and still computes every value's budget.
  bool wide_sums = true;
};

// Evaluates the entry computation of a verified module on `args` (one per
// entry parameter, in parameter order, shapes compatible with the
// parameters'). Returns the root's value (a tuple literal for tuple roots).
absl::StatusOr<Literal> EvaluateModule(const Module& module,
                                       absl::Span<const Literal> args,
                                       const EvaluateOptions& options = {});

// The oracle's answer: the value (EvaluateModule's with `oracle` on) and, per
// leaf of it, an f64 array of error budgets: the largest |compiled -
// expected| allowed per element (oracle.h; NaN where the oracle could not
// follow the value, 0 where compiled code must match exactly).
struct OracleValue {
  Literal value;
  std::vector<Literal> bounds;
};
absl::StatusOr<OracleValue> EvaluateOracle(const Module& module,
                                           absl::Span<const Literal> args,
                                           EvaluateOptions options = {});

// Evaluates one computation of a verified module.
absl::StatusOr<Literal> EvaluateComputation(
    const Computation& computation, absl::Span<const Literal* const> args);

}  // namespace aotc

#endif  // AOTC_COMPILER_EVALUATOR_EVALUATOR_H_
