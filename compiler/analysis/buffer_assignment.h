// Buffer assignment: where every value of a computation lives while the
// generated code runs, decided once, before code generation, so that the
// generated header can state the scratch size and `aotc inspect --memory`
// can show the plan.
//
// Values are classified first (ValueKind): parameters are the caller's
// buffers, array constants are read-only globals, tuples, get-tuple-element,
// bitcasts, row-major reshapes and some bitcast-converts alias their
// operand's bytes, and everything else owns one buffer per array leaf.
// The schedule code generation follows is the instructions the root
// depends on, and those with side effects (SideEffects in side_effects.h)
// with what they depend on, in definition order. Owned buffers live from
// the instruction that writes them to the last instruction that reads them,
// directly or through aliases (to the writer itself when nothing reads
// them). Code generation may give an instruction scratch of its own (packed
// operands, a callee's temp), a buffer live only where the instruction runs.
// Buffers whose live ranges do not overlap share bytes of one arena, 64-byte
// aligned: each is placed at the lowest offset free for its whole range,
// once in definition order and once in decreasing size, and the smaller
// arena is kept.
// An element-wise instruction (or a fusion that reads the operand only at
// the output's own index) whose operand buffer dies there writes its result
// in place. A root leaf written by the instruction that owns it goes
// straight into the caller's result buffer and takes no scratch at all.
#ifndef AOTC_COMPILER_ANALYSIS_BUFFER_ASSIGNMENT_H_
#define AOTC_COMPILER_ANALYSIS_BUFFER_ASSIGNMENT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/computation.h"

namespace aotc {

// Alignment of every buffer in the scratch arena.
inline constexpr int64_t kBufferAlignment = 64;

// `bytes` rounded up to a multiple of kBufferAlignment.
inline constexpr int64_t AlignUp(int64_t bytes) {
  return (bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
}

enum class ValueKind {
  kParameter,    // the caller's buffers
  kConstant,     // array constants: read-only globals (scalars are kOwned
                 // and become immediates)
  kAlias,        // the operand's bytes under another shape
  kWhile,        // owns its state; the body's results go to a second set
  kConditional,  // owns its results, written by the branch taken
  kCall,         // owns its results, written by the callee
  kOwned,        // owns its results, computed by a loop nest
};

ValueKind ClassifyValue(const Instruction& inst);

// The computations `inst` runs as functions of their own with buffers of
// their own: a while's condition and body, a conditional's branches, a
// call's callee; none for any other kind.
std::vector<const Computation*> BufferFunctionCallees(const Instruction& inst);

// The instruction and leaf that produce leaf `leaf` of `inst`, looking
// through tuples and get-tuple-elements.
std::pair<const Instruction*, int> TraceLeaf(const Instruction* inst,
                                             int leaf);

struct Buffer {
  enum class Role { kValue, kWhileNext, kWhilePredicate, kScratch };
  const Instruction* instruction = nullptr;
  int leaf = 0;
  Role role = Role::kValue;
  int64_t size = 0;
  int64_t offset = 0;
  // Live range in positions of BufferPlan::schedule, inclusive.
  int64_t start = 0;
  int64_t end = 0;
  // The buffer whose bytes this one takes over in place, or -1.
  int in_place_of = -1;
};

struct BufferPlan {
  // Instructions the root depends on, in the order they run.
  std::vector<const Instruction*> schedule;
  std::vector<Buffer> buffers;
  // Per owning instruction and leaf: the buffer index, or -1 when the leaf
  // is written straight into result `result_index`.
  std::map<const Instruction*, std::vector<int>> leaf_buffers;
  std::map<const Instruction*, std::vector<int>> result_index;
  // While instructions: buffers of the body's results and of the
  // condition's predicate.
  std::map<const Instruction*, std::vector<int>> while_next;
  std::map<const Instruction*, int> while_predicate;
  // Instructions given scratch: the buffer index.
  std::map<const Instruction*, int> scratch_buffer;
  // Bytes of the arena (the peak), and what it would take without sharing.
  int64_t arena_bytes = 0;
  int64_t unshared_bytes = 0;
  // Per result leaf: the argument leaf whose buffer it is (donation), or -1.
  std::vector<int> donated;
  // Non-empty when the donation cannot be honoured: why.
  std::string unsupported;
};

// Plans the buffers of `comp` (which must verify). In a module's entry
// computation, a result leaf that input_output_alias donates an argument
// to (DonatedArgumentPerResult) has that argument's buffer: it is written
// straight into it only where no later instruction (and no final copy)
// reads the argument, and otherwise computed in temp and copied at the
// end, after the copies into other results.
//
// `scratch`, when given, is asked once per scheduled instruction, in
// schedule order, how many bytes of scratch it needs while it runs (0:
// none).
using ScratchBytesFn = std::function<int64_t(const Instruction&)>;
BufferPlan AssignBuffers(const Computation& comp,
                         const ScratchBytesFn& scratch = nullptr);

// The plan as a table: one line per buffer (instruction, leaf, size,
// offset, live range, in-place), then peak against unshared bytes.
std::string BufferPlanToString(const BufferPlan& plan);

}  // namespace aotc

#endif  // AOTC_COMPILER_ANALYSIS_BUFFER_ASSIGNMENT_H_
