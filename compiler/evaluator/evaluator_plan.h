// Evaluation plans: the analysis of a computation that the evaluator's
// driver (evaluator.cc) walks on every call.
//
// A plan lists the instructions the root depends on (dead code is skipped,
// as XLA's evaluator does) in definition order, the slot of each value, the
// step after which each value is no longer read (through any alias), which
// operands an instruction may take over instead of copying, and why an
// instruction cannot be evaluated (opcode without the V property, element
// types that are not computable, elided constants, missing called
// computations). Building it is the only per-computation cost, so calling a
// small computation such as a reducer once per element stays cheap.
#ifndef AOTC_COMPILER_EVALUATOR_EVALUATOR_PLAN_H_
#define AOTC_COMPILER_EVALUATOR_EVALUATOR_PLAN_H_

#include <memory>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"

namespace aotc::eval {

// One evaluated instruction of a plan.
struct Step {
  const Instruction* inst = nullptr;
  int slot = 0;
  absl::InlinedVector<int, 4> operands;  // slots of the operands
  // Per operand: the value may be moved out of its slot (its last use, not
  // aliased by another operand of this instruction).
  absl::InlinedVector<bool, 4> movable;
  std::vector<int> release;  // slots whose last use is this step
  absl::Status refusal;      // not OK: evaluating the step fails with this
  // Element operations the step costs, estimated from shapes alone (see
  // EstimateWork); counted against EvaluateOptions::max_work.
  int64_t work = 0;
};

// A deterministic estimate of the element operations evaluating `inst` takes,
// from its shapes and attributes: the output elements, times the contraction
// size for dot and convolution or the window size for windowed ops; the input
// elements for reduce; n log n for sort and topk. Called computations
// (reducers, bodies) add their own steps' work when they run. Saturates at
// INT64_MAX.
int64_t EstimateWork(const Instruction& inst);

// Whether the value of `inst` is (a part of) its operand 0's value, never a
// copy: get-tuple-element, opt-barrier, and the identity custom-calls of
// compiler/ir/custom_call_targets.h. The driver points such a slot into the
// operand's value, and the plan keeps that value alive until the alias's
// last use.
bool AliasesOperand(const Instruction& inst);

// A value: either owned, or a pointer to a literal that outlives the slot
// (argument, constant, part of another slot's value).
struct Value {
  Literal owned;
  const Literal* ptr = nullptr;
  bool owns() const { return ptr == &owned; }
};

// Empties a slot, freeing an owned value's storage.
inline void Clear(Value& v) {
  if (v.owns()) v.owned = Literal();
  v.ptr = nullptr;
}

// The analysis of one computation, built once per evaluation and reused by
// every call of it.
struct Plan {
  std::vector<Step> steps;  // live instructions, in definition order
  int num_slots = 0;        // one per instruction
  int root_slot = 0;
  std::vector<const Instruction*> params;  // by parameter number
  // Slot vectors of finished calls, reused by the next call.
  std::vector<std::vector<Value>> spare_frames;
};

// Analyses `comp`; errors are located (a missing root, an operand defined
// elsewhere, bad parameter numbering). Refusals are recorded per step, not
// returned, so that only instructions actually evaluated fail.
absl::StatusOr<std::unique_ptr<Plan>> BuildPlan(const Computation& comp);

}  // namespace aotc::eval

#endif  // AOTC_COMPILER_EVALUATOR_EVALUATOR_PLAN_H_
