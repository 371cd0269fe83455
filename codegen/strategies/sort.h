// The "sort" strategy (strategy.h): HLO sort of any number of operands
// along one dimension, with the comparator computation inlined, as a stable
// bottom-up merge sort of every row:
//
//   for each row (the parallel loop, over the other dimensions):
//     out_k[row] = operand_k[row]                       (every operand k)
//     insertion-sort runs of kSortRun elements of out   (stable)
//     merge runs of width w = kSortRun, 2 kSortRun, ... ping-ponging
//       between out and scratch (each pass a loop of its own, since the
//       row length and so the number of passes is known at compile time):
//       a branch-free loop while both runs have elements, then the rest of
//       whichever run is left copied as it is
//     copy back to out when the last pass wrote scratch
//
// O(n log n) comparisons per row of n elements, whatever the input. An
// element is taken from the right run only when the comparator says it is
// strictly less than the left one, so equal elements keep their order and
// the result is stable whether or not is_stable is set. Elements move as
// their stored bits (f16 NaN payloads survive); the comparator sees compute
// values. Scratch: one more copy of the outputs, in the same layout, so that
// a row's scratch lies at its own offsets and parallel rows never share it.
#ifndef AOTC_CODEGEN_STRATEGIES_SORT_H_
#define AOTC_CODEGEN_STRATEGIES_SORT_H_

#include <optional>

#include "codegen/strategy.h"

namespace aotc::codegen {

std::optional<StrategyPlan> PlanSort(const Instruction& inst);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_SORT_H_
