// The loop nest of a multi-output fusion around reductions: sibling
// reduces of one input (layer normalization's sum and sum of squares), or a
// reduce together with the value it reduces (softmax's exp and its row sum),
// emitted as
//
//   for each result index o:                       (the parallel loop)
//     for each reduced position i:
//       element-shaped outputs [i] = their values at i
//       every reduce's accumulators += operand(i)
//     reduce-shaped outputs [o] = roots computed from the accumulators
//
// Generators are memoized per index and block, so each input element is
// loaded once and a value both written and reduced is computed once.
#ifndef AOTC_CODEGEN_STRATEGIES_REDUCE_LOOP_H_
#define AOTC_CODEGEN_STRATEGIES_REDUCE_LOOP_H_

#include <optional>

#include "codegen/strategy.h"

namespace aotc::codegen {

// The "reduce-loop" strategy (strategy.h): the loop above, parallel over
// the result indices, for a fusion with a tuple root whose reduces share
// operand dimensions, reduced dimensions and result dimensions, with at
// least one reduce-shaped output and either two reduces or an
// element-shaped output (a value of the reduces' operand shape that no
// reduce feeds, written inside the inner loop).
std::optional<StrategyPlan> PlanReduceLoop(const Instruction& inst);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_REDUCE_LOOP_H_
