// Code generation strategies: how an instruction that writes buffers of its
// own (ValueKind::kOwned) becomes loops.
//
// Each strategy is a planner that looks at one instruction and either
// declines or returns a plan: the loop the parallel-for hook may split, the
// work per element (which decides whether splitting pays), the scratch bytes
// the loops need beyond the instruction's own buffers, and the emitter that
// writes the loops for a range of the parallel loop. Strategies are tried in
// the fixed order of Strategies(), so the list itself documents priorities
// (a matrix product's row loops before the generic element loop) and a new
// kind of loop nest is one more entry, not a new branch inside an emitter:
// a file pair under strategies/, one line of Strategies() (which also names
// it), and a golden test of `aotc inspect --strategies`.
//
// The same list answers "is this supported?" (CheckSupported in compile.h):
// an instruction emitted as a loop is supported when some strategy plans it,
// and an instruction inlined into a loop (inside a fusion, a reducer, a
// comparator) when it has an element-wise form (HasElementalForm).
#ifndef AOTC_CODEGEN_STRATEGY_H_
#define AOTC_CODEGEN_STRATEGY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "codegen/backend/target_info.h"
#include "codegen/elemental/elemental_emitter.h"
#include "compiler/analysis/buffer_assignment.h"

namespace aotc::codegen {

// What a strategy's emitter gets: the builder at the insertion point, the
// instruction's output leaves and its operands' leaf generators, the range
// [begin, end) of the outermost coordinate of the plan's loop shape (both
// null: the whole loop), and the start of the plan's scratch bytes in temp
// (null when the plan asked for none).
struct LoopArgs {
  ModuleContext& mc;
  llvm::IRBuilderBase& b;
  const Instruction& inst;
  const std::vector<IrArray>& out;
  const std::vector<LeafGenerators>& ops;
  llvm::Value* begin = nullptr;
  llvm::Value* end = nullptr;
  llvm::Value* scratch = nullptr;
  // The operands' leaves as arrays in memory (the buffers `ops` read), for
  // strategies that address an operand directly.
  const std::vector<std::vector<IrArray>>* ins = nullptr;
  // For plans that may fail (StrategyPlan::may_fail): emits "when `failed`
  // (an i1) holds, the buffer function returns aotc status `status`", and
  // leaves the builder on the path where it does not.
  std::function<void(llvm::Value* failed, int status)> fail_if;
};

struct StrategyPlan {
  // The strategy's name from the registry (Strategy::name), set by
  // PlanInstruction; planners leave it empty.
  std::string_view name;
  // The shape whose outermost physical dimension the parallel loop splits,
  // or null when the loops cannot be split. Must outlive the plan: a leaf of
  // the instruction's shape, or `own_loop_shape`.
  const Shape* loop_shape = nullptr;
  // The parallel loop splits the most major physical dimension of
  // loop_shape that has more than one element, skipping leading dimensions
  // of one (a batch of 1), as EmitArrayLoop's chunk does. Off, it splits
  // the outermost dimension, which a plan's own loops then take the range
  // of.
  bool split_skips_unit_dims = false;
  // A loop of the plan's own making (e.g. over blocks of rows), which
  // loop_shape then points to.
  std::shared_ptr<const Shape> own_loop_shape;
  // Emitted once before the loops, outside any parallel task, with the whole
  // range (begin and end null): work every range shares, such as packing an
  // operand into scratch. May be empty.
  std::function<absl::Status(const LoopArgs&)> prologue;
  // Input elements read per element of loop_shape, at least 1.
  int64_t work_per_element = 1;
  // Scratch the loops need (in temp, kBufferAlignment-aligned); with a
  // parallel loop, tasks must use disjoint parts of it.
  int64_t scratch_bytes = 0;
  std::function<absl::Status(const LoopArgs&)> emit;
  // The emitted code can fail at run time (an external function's status):
  // it is emitted once, inline in the buffer function (never split over
  // threads, never outlined), and gets LoopArgs::fail_if.
  bool may_fail = false;
};

struct Strategy {
  // The only place a strategy's name is written: PlanInstruction copies it
  // onto the plan, and `aotc inspect --strategies` and the golden tests
  // (tests/cli/strategies_*.test) read it there.
  std::string_view name;
  // The plan for `inst` on `target`, or nullopt when this strategy does not
  // apply. Whether a strategy applies never depends on the target, only the
  // plan's tiles and scratch do.
  std::function<std::optional<StrategyPlan>(const Instruction&,
                                            const TargetInfo&)>
      plan;
};

// Every strategy, in the order they are tried.
const std::vector<Strategy>& Strategies();

// The plan of the first strategy that applies to `inst`, named after it; a
// located error when none does.
absl::StatusOr<StrategyPlan> PlanInstruction(
    const Instruction& inst, const TargetInfo& target = TargetInfo());

// The buffer plan code generation makes for `comp` on `target`
// (AssignBuffers with scratch): an instruction's scratch is its strategy's
// and, for a while, conditional or call, the largest temp of the
// computations it runs, each planned the same way. Its arena is the
// computation's temp bytes (NAME_TEMP_BYTES for the entry).
absl::StatusOr<BufferPlan> PlanBuffersWithScratch(const Computation& comp,
                                                  const TargetInfo& target);

// Whether `inst` can be computed one element at a time from its operands'
// elements (ElementalEmitter::MakeGenerators), as it must be inside a fusion
// or a scalar computation.
bool HasElementalForm(const Instruction& inst);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGY_H_
