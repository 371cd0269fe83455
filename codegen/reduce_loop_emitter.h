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
#ifndef AOTC_CODEGEN_REDUCE_LOOP_EMITTER_H_
#define AOTC_CODEGEN_REDUCE_LOOP_EMITTER_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "codegen/elemental.h"

namespace aotc::codegen {

// The loop above for one fusion. Its outputs are of two kinds:
// reduce-shaped ones (the reduces and values computed from them), written
// after the inner loop, and element-shaped ones (values of the reduces'
// operand shape that no reduce feeds), written inside it, which visits each
// of their elements exactly once.
struct ReduceLoop {
  std::vector<const Instruction*> reduces;
  std::vector<int> reduce_outputs;
  std::vector<int> element_outputs;
  const Shape* loop_shape = nullptr;   // the reduce-shaped outputs' shape
  int64_t work_per_element = 1;        // elements reduced per result
};

// The reduce loop of `inst` writing `out`, when it applies: a fusion with a
// tuple root whose reduces share operand dimensions, reduced dimensions and
// result dimensions, with at least one reduce-shaped output and either two
// reduces or an element-shaped output.
std::optional<ReduceLoop> MatchReduceLoop(const Instruction& inst,
                                          const std::vector<IrArray>& out);

// Emits the loops above for result indices whose outermost coordinate is in
// [begin, end) (all when null).
absl::Status EmitReduceLoop(ModuleContext& mc, llvm::IRBuilderBase& b,
                            const Instruction& inst, const ReduceLoop& loop,
                            const std::vector<IrArray>& out,
                            const std::vector<LeafGenerators>& ops,
                            llvm::Value* begin, llvm::Value* end);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_REDUCE_LOOP_EMITTER_H_
