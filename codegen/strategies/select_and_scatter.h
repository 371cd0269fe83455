// The "select-and-scatter" strategy (strategy.h): HLO select-and-scatter
// (the gradient of a max-pool), with its select and scatter computations
// inlined, as one serial loop:
//
//   out = init                                      (every element)
//   for each source position s (row-major):
//     selected = none
//     for each window position of s (row-major, skipping padding and
//         base-dilation holes, as reduce-window does):
//       if selected is none or !select(operand[selected], operand[candidate]):
//         selected = candidate
//     if selected is not none:
//       out[selected] = scatter(out[selected], source[s])
//
// The semantics are the reference evaluator's (compiler/evaluator/
// reduce_window.cc): the first valid position is selected without calling
// select, so with a GE selector the first of equal maxima wins; a window that
// lies entirely in padding selects nothing. Windows may overlap (stride
// smaller than the window), so one output element can be scattered to
// several times, in source order: that is why the loop is never split. No
// scratch.
#ifndef AOTC_CODEGEN_STRATEGIES_SELECT_AND_SCATTER_H_
#define AOTC_CODEGEN_STRATEGIES_SELECT_AND_SCATTER_H_

#include <optional>

#include "codegen/strategy.h"

namespace aotc::codegen {

std::optional<StrategyPlan> PlanSelectAndScatter(const Instruction& inst);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_SELECT_AND_SCATTER_H_
