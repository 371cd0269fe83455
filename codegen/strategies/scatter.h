// The "scatter" strategy (strategy.h): HLO scatter of N operands and N
// updates, with the to_apply combiner inlined, as one serial loop:
//
//   out_k = operand_k                                   (every k)
//   for each scatter position p of the updates (row-major):
//     start = the index vector at p (any integer type), with batching
//             dimensions taking their position from p
//     if the whole window at start lies inside the operand:
//       for each window position w (row-major):
//         out_k[start + w] = to_apply(out_0.., upd_0[p, w]..)[k]   (every k)
//
// The semantics are the reference evaluator's (compiler/evaluator/
// gather_scatter.cc): an update window that is not entirely inside the
// operand is skipped, never clamped, and updates apply in the evaluator's
// order, so duplicate indices combine in a defined order and a
// non-commutative combiner (a replacement) gives the last update. That is
// why the loop is never split across threads; indices_are_sorted and
// unique_indices are hints this strategy does not need. Index values are
// widened to i64 by their signedness and compared unsigned with the largest
// valid start, so a negative start and a u64 above INT64_MAX both skip.
// No scratch: the outputs are the running values.
#ifndef AOTC_CODEGEN_STRATEGIES_SCATTER_H_
#define AOTC_CODEGEN_STRATEGIES_SCATTER_H_

#include <optional>

#include "codegen/strategy.h"

namespace aotc::codegen {

std::optional<StrategyPlan> PlanScatter(const Instruction& inst);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_SCATTER_H_
