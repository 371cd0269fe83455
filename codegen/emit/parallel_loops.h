// Loops in functions of their own: run through the runtime's parallel-for
// hook, or called directly (outlined).
//
// A strategy's loops over a large enough output become a task function over
// a range [begin, end) of the outermost physical dimension of the plan's loop
// shape, called as aotc_parallel_for(task, context, extent, min_chunk); the
// runtime runs it serially on the caller's thread unless the application
// installed a hook (docs/runtime.md). The task finds its buffers again from
// the three pointers of the buffer function (params, results, temp) that the
// context carries (BufferPlaces::Rebase). Loops too small to split are
// emitted the same way, as one call over the whole loop, when their
// computation is large (EmitOutlinedLoops).
#ifndef AOTC_CODEGEN_EMIT_PARALLEL_LOOPS_H_
#define AOTC_CODEGEN_EMIT_PARALLEL_LOOPS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codegen/emit/buffer_places.h"
#include "codegen/strategy.h"

namespace aotc::codegen {

// How a plan's loop is split: `extent` iterations of the outermost loop, in
// chunks of at least `min_chunk` of them.
struct ParallelSplit {
  int64_t extent = 0;
  int64_t min_chunk = 1;
};

// The split of `plan`'s loop, or nullopt when the loop cannot be split
// (no loop shape, rank 0, a single outer iteration) or has too little work
// (output elements times the input elements each reads) to pay for it.
// The outer iterations are the outermost physical dimension's, or with
// split_skips_unit_dims the first one's with more than one element.
std::optional<ParallelSplit> ChooseParallelSplit(const StrategyPlan& plan);

// The three pointers of the buffer function being emitted.
struct BufferFunctionArgs {
  llvm::Value* params;
  llvm::Value* results;
  llvm::Value* temp;
};

// Emits `plan`'s loops for `inst` as a task function named
// `task_name` and, at `b`, the call through aotc_parallel_for. `out` are the
// output leaves, `ins` the operands' leaves, `scratch` the plan's scratch
// (recorded in `places`) or null.
absl::Status EmitParallelLoops(ModuleContext& mc, llvm::IRBuilderBase& b,
                               const BufferPlaces& places,
                               const BufferFunctionArgs& args,
                               const std::string& task_name,
                               const Instruction& inst, const StrategyPlan& plan,
                               const std::vector<IrArray>& out,
                               const std::vector<std::vector<IrArray>>& ins,
                               llvm::Value* scratch, const ParallelSplit& split);

// The same loops, all of them, in a function of their own (never inlined)
// called directly at `b`. Large computations emit their loop nests this way
// so that LLVM optimizes many small functions rather than one huge one.
absl::Status EmitOutlinedLoops(ModuleContext& mc, llvm::IRBuilderBase& b,
                               const BufferPlaces& places,
                               const BufferFunctionArgs& args,
                               const std::string& function_name,
                               const Instruction& inst, const StrategyPlan& plan,
                               const std::vector<IrArray>& out,
                               const std::vector<std::vector<IrArray>>& ins,
                               llvm::Value* scratch);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_EMIT_PARALLEL_LOOPS_H_
