// The kernels behind EvalReduction (kernels.h), one per opcode, split over
// reduction.cc (reduce), reduce_window.cc (reduce-window, select-and-scatter)
// and sort.cc (sort, topk, the TopK custom-call). EvalReduction dispatches to
// them, EvalCustomCall (custom_call.cc) to the TopK custom-call.
#ifndef AOTC_COMPILER_EVALUATOR_REDUCTION_INTERNAL_H_
#define AOTC_COMPILER_EVALUATOR_REDUCTION_INTERNAL_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"

namespace aotc::eval {

// The operands of a variadic reduce or reduce-window: N arrays of equal
// dimensions followed by N scalar initial values.
struct ReduceOperands {
  int n = 0;
  std::vector<const Literal*> inputs;
  std::vector<const Literal*> inits;
  // The reducer's parameter types: accumulators (the init types) first, then
  // the input element types.
  std::vector<PrimitiveType> param_types;
  // The accumulator (and result) element types.
  std::vector<PrimitiveType> acc_types;
};
absl::StatusOr<ReduceOperands> SplitReduceOperands(const Instruction& inst,
                                                   Operands operands);

// Zero-filled result arrays of a reduce-like instruction after checking that
// its shape holds N arrays (a tuple when N > 1) of dimensions `dims`, whose
// element types are `acc_types` when `exact_types`, else any computable type
// (the accumulator is converted when stored).
absl::StatusOr<std::vector<Literal>> MakeReduceResults(
    const Instruction& inst, absl::Span<const PrimitiveType> acc_types,
    absl::Span<const int64_t> dims, bool exact_types);

// The instruction's value: the single array, or a tuple of them.
Literal PackResults(std::vector<Literal> results);

absl::StatusOr<Literal> EvalReduce(const Instruction& inst, Operands operands,
                                   const CallFn& call);
absl::StatusOr<Literal> EvalReduceWindow(const Instruction& inst,
                                         Operands operands, const CallFn& call);
absl::StatusOr<Literal> EvalSelectAndScatter(const Instruction& inst,
                                             Operands operands,
                                             const CallFn& call);
absl::StatusOr<Literal> EvalSort(const Instruction& inst, Operands operands,
                                 const CallFn& call);
// The topk opcode.
absl::StatusOr<Literal> EvalTopK(const Instruction& inst, Operands operands);
// custom_call_target="TopK".
absl::StatusOr<Literal> EvalTopKCustomCall(const Instruction& inst,
                                           Operands operands,
                                           const CallFn& call);

}  // namespace aotc::eval

#endif  // AOTC_COMPILER_EVALUATOR_REDUCTION_INTERNAL_H_
