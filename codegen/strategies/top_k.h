// The "top-k" strategy (strategy.h): the topk opcode and the TopK
// custom-call, by selection with a heap, never a full sort:
//
//   for each row (the parallel loop, over the batch dimensions):
//     heap = the row's first k elements with their indices, arranged so that
//            the element that would come last is on top       (in the output)
//     for i in k..n: if x[i] comes before the top: replace it, sift down
//     heapsort the k slots in place, first element first
//
// O(n log k) comparisons per row of n. "Comes before" is the order of the
// result: the total order -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN,
// descending for largest=true (the TopK custom-call always), ascending
// otherwise; or, for a TopK custom-call with a comparator computation, that
// comparator (values, or values then s32 indices). Ties go to the lower
// index, as the first k of a stable sort. The heap lives in the result's own
// k slots, so no scratch is needed.
#ifndef AOTC_CODEGEN_STRATEGIES_TOP_K_H_
#define AOTC_CODEGEN_STRATEGIES_TOP_K_H_

#include <optional>

#include "codegen/strategy.h"

namespace aotc::codegen {

std::optional<StrategyPlan> PlanTopK(const Instruction& inst);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_TOP_K_H_
