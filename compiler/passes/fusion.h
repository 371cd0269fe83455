// Fusion: groups producers with their consumers so that code generation
// emits one loop nest per group instead of one pass over memory per
// instruction.
//
// The pass works on the computations that run as sequences of array
// operations (the entry, while bodies and conditions, conditional branches,
// called computations); scalar computations applied by reduce, map, sort...
// are left alone. It visits consumers from the last instruction backwards
// and grows a group from each one, taking operands in decreasing definition
// order so that a producer is judged once all of its users are known. Each
// group of two or more instructions (constants aside) becomes a `fusion`
// instruction whose fused computation holds copies of the members under
// their original names. The rules (docs/passes.md has the table):
//   - consumers: elementwise ops, data movement (broadcast, reshape,
//     bitcast, transpose, slice, concatenate, pad, reverse, dynamic-slice,
//     dynamic-update-slice, gather), convert, iota, reduce and
//     reduce-window;
//   - producers: the same opcodes plus constants, and reduce, reduce-window,
//     dot and convolution into a consumer of the same shape that reads each
//     element once (a reduce, dot or convolution epilogue);
//   - a producer whose users are all in the group moves into it; a cheap
//     producer with users elsewhere is duplicated, and what it reads then
//     has a user elsewhere too (its original); an expensive one
//     (transcendental, divide, power, dot, convolution, reduce...) is never
//     duplicated;
//   - no member is reached through more than 8 paths from the root, unless
//     all of them read it at the root's own index (computed once there);
//   - an expensive producer never goes into a consumer that reads each
//     element many times (a broadcast that expands, an overlapping
//     reduce-window, a gather), and nothing goes into the operands of a dot
//     or a convolution;
//   - a gather is cheap, but is not evaluated repeatedly either (under an
//     expanding broadcast every copy would read its indices again).
// The fusion kind says what is at the heart of the group: kInput when it
// holds a reduce or reduce-window, kOutput when it holds a dot or a
// convolution, else kLoop.
#ifndef AOTC_COMPILER_PASSES_FUSION_H_
#define AOTC_COMPILER_PASSES_FUSION_H_

#include "compiler/passes/pass.h"

namespace aotc {

class FusionPass : public Pass {
 public:
  std::string_view name() const override { return "fusion"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

// Why `producer` may or may not be fused into `consumer` on cost grounds
// alone (users elsewhere are the pass's concern): empty when allowed, else
// the rule that refuses it. Exposed for tests and the fusion report.
std::string_view FusionRefusal(const Instruction& producer,
                               const Instruction& consumer);

// Producers whose duplication costs more than it saves.
bool IsExpensive(const Instruction& inst);

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_FUSION_H_
