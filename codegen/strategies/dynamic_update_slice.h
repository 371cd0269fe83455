// The dynamic-update-slice strategy: a dynamic-update-slice outside a
// fusion writes only the update's elements into its output, after copying
// the operand into the output unless buffer assignment placed the output on
// the operand's bytes (in place, e.g. a donated KV cache), so an in-place
// update costs the bytes of the update, not of the whole array.
#ifndef AOTC_CODEGEN_STRATEGIES_DYNAMIC_UPDATE_SLICE_H_
#define AOTC_CODEGEN_STRATEGIES_DYNAMIC_UPDATE_SLICE_H_

#include <optional>

#include "codegen/strategy.h"

namespace aotc::codegen {

std::optional<StrategyPlan> PlanDynamicUpdateSlice(const Instruction& inst);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_DYNAMIC_UPDATE_SLICE_H_
