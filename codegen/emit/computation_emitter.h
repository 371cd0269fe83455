// Buffer-level lowering of a computation into
//   i32 f(ptr params, ptr results, ptr temp)
// (see BufferFunction in module_context.h). Internal to codegen/.
//
// Every live instruction gets a place for its value:
//   - parameters are the caller's buffers; constants are read-only globals;
//   - tuple, get-tuple-element, bitcast, opt-barrier, reshapes between
//     row-major layouts, and bitcast-converts (between row-major layouts,
//     or of the same width and layout) alias their operand's bytes (no
//     copy, every bit kept);
//   - while, conditional and call run the buffer functions of their
//     computations (control_flow_emitter.cc);
//   - a failing external call (a custom-call's function) or a failing
//     callee makes f return its status at once;
//   - everything else writes buffers of its own in `temp`, with the loops of
//     the first codegen strategy that plans it (strategy.h), split over
//     threads through the parallel-for hook when the work is large enough
//     (parallel_loops.h), and in a function of their own in computations
//     with many such instructions (so LLVM never optimizes one huge
//     function).
// A root leaf produced by an instruction with a buffer of its own is written
// straight into the result buffer; other root leaves are copied at the end.
// Where each buffer lives comes from buffer assignment
// (compiler/analysis/buffer_assignment.h): buffers with disjoint live ranges
// share bytes, and some results overwrite a dying operand in place. The
// region after the arena is shared by the called computations and the
// strategies' scratch, which are never in use at the same time.
#ifndef AOTC_CODEGEN_EMIT_COMPUTATION_EMITTER_H_
#define AOTC_CODEGEN_EMIT_COMPUTATION_EMITTER_H_

#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "codegen/emit/buffer_places.h"
#include "codegen/emit/module_context.h"
#include "codegen/strategy.h"
#include "compiler/analysis/buffer_assignment.h"
#include "compiler/ir/module.h"

namespace aotc::codegen {

class ComputationEmitter {
 public:
  ComputationEmitter(ModuleContext& mc, const Computation& comp)
      : mc_(mc),
        comp_(comp),
        places_(comp.parent() != nullptr && comp.parent()->entry() == &comp) {}

  absl::StatusOr<BufferFunction> Emit();

 private:
  struct Plan {
    ValueKind kind;
    std::vector<int64_t> offsets;       // own leaf buffers in temp, or -1
    std::vector<int> result_index;      // result pointer per leaf, or -1
    std::vector<int64_t> next_offsets;  // while: the body's result buffers
    int64_t pred_offset = -1;           // while: the condition's result
    std::optional<StrategyPlan> strategy;  // kOwned: how it is computed
    // The instruction's scratch in temp (its strategy's, or its callees'
    // temp), or -1.
    int64_t scratch_offset = -1;
  };

  absl::Status PlanAll();
  // Plans `inst` (its kind, its strategy or its callees' functions) and
  // returns the scratch it needs while it runs.
  absl::StatusOr<int64_t> PlanInstructionScratch(const Instruction& inst);
  absl::Status EmitInstruction(const Instruction& inst);
  // An instruction with buffers of its own, by its strategy.
  absl::Status EmitOwned(const Instruction& inst);
  // control_flow_emitter.cc
  absl::Status EmitWhile(const Instruction& inst);
  absl::Status EmitConditional(const Instruction& inst);
  absl::Status EmitCall(const Instruction& inst);
  // Calls `callee` with the given parameter and result leaves;
  // `caller` is the instruction whose scratch the callee's temp is.
  absl::Status CallBufferFunction(const Instruction& caller,
                                  const Computation& callee,
                                  const std::vector<IrArray>& params,
                                  const std::vector<IrArray>& results);
  llvm::Value* PointerArray(const std::vector<IrArray>& arrays);
  // When `failed` holds, the function returns `status`; the builder
  // continues on the other path.
  void ReturnIf(llvm::Value* failed, llvm::Value* status);
  void Copy(const IrArray& to, const IrArray& from);

  // Arrays over `offsets` in temp, or over the result pointers that
  // `result_index` names (-1: none).
  std::vector<IrArray> OwnLeaves(const Instruction& inst,
                                 const std::vector<int64_t>& offsets,
                                 const std::vector<int>& result_index);
  llvm::Value* TempAt(int64_t offset);

  ModuleContext& mc_;
  const Computation& comp_;
  BufferPlaces places_;
  std::vector<const Instruction*> live_;
  std::map<const Instruction*, Plan> plans_;
  int64_t temp_bytes_ = 0;  // the arena: values and scratch
  int owned_count_ = 0;     // instructions with buffers of their own
  bool may_fail_ = false;     // some path returns a nonzero status
  llvm::Function* function_ = nullptr;
  std::unique_ptr<llvm::IRBuilder<>> b_;
  llvm::Value* params_ = nullptr;
  llvm::Value* results_ = nullptr;
  llvm::Value* temp_ = nullptr;
  std::vector<llvm::Value*> param_leaves_;
  std::vector<llvm::Value*> result_ptrs_;
  // Per result leaf of the entry: the argument leaf whose buffer it is
  // (input_output_alias), or -1.
  std::vector<int> donated_;
  std::map<const Instruction*, std::vector<IrArray>> values_;
};

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_EMIT_COMPUTATION_EMITTER_H_
