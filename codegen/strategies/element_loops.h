// The generic strategies (strategy.h), tried after every specialised one:
//   "allocate-buffer"  the AllocateBuffer custom-call: buffers of its own
//                      whose contents are unspecified until the program
//                      writes them (as in XLA), so no code at all;
//   "variadic-reduce"  all results of a reduce with several outputs at each
//                      index, in one pass over the reduced elements;
//   "element-loops"    one loop nest per output leaf, each element from the
//                      leaf's generator (ElementalEmitter): any instruction
//                      with an element-wise form (HasElementalForm).
#ifndef AOTC_CODEGEN_STRATEGIES_ELEMENT_LOOPS_H_
#define AOTC_CODEGEN_STRATEGIES_ELEMENT_LOOPS_H_

#include <optional>

#include "codegen/strategy.h"

namespace aotc::codegen {

std::optional<StrategyPlan> PlanAllocateBuffer(const Instruction& inst);
std::optional<StrategyPlan> PlanVariadicReduce(const Instruction& inst);
std::optional<StrategyPlan> PlanElementLoops(const Instruction& inst);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_ELEMENT_LOOPS_H_
