// The dynamic-slice kernels behind EvalMovement (kernels.h), kept in
// dynamic_slice.cc; EvalMovement in movement.cc dispatches to them.
#ifndef AOTC_COMPILER_EVALUATOR_MOVEMENT_INTERNAL_H_
#define AOTC_COMPILER_EVALUATOR_MOVEMENT_INTERNAL_H_

#include "absl/status/statusor.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"

namespace aotc::eval {

// dynamic-slice: operand 0 sliced at the scalar start indices of operands
// 1..rank, each clamped so that the slice lies inside the operand.
absl::StatusOr<Literal> EvalDynamicSlice(const Instruction& inst,
                                         Operands operands);

// dynamic-update-slice: a copy of operand 0 with operand 1 written at the
// scalar start indices of operands 2..rank+1, clamped the same way.
absl::StatusOr<Literal> EvalDynamicUpdateSlice(const Instruction& inst,
                                               Operands operands);

}  // namespace aotc::eval

#endif  // AOTC_COMPILER_EVALUATOR_MOVEMENT_INTERNAL_H_
