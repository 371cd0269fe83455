// Facts about single instructions that depend on more than the opcode (its
// types, its operands' shapes), asked by a pass and by code generation
// alike. Each rule lives here once, so the pass that relies on a fact and
// the code generator that relies on the same fact cannot drift apart.
// Facts of the opcode alone are opcode.def's properties (opcode.h).
#ifndef AOTC_COMPILER_ANALYSIS_OP_FACTS_H_
#define AOTC_COMPILER_ANALYSIS_OP_FACTS_H_

#include <cstdint>
#include <optional>

#include "absl/types/span.h"
#include "compiler/ir/instruction.h"

namespace aotc {

// A bitcast or bitcast-convert whose result element width differs from its
// operand's: it changes the number of elements, so no result element maps
// to one operand element and it has no element-wise form.
bool IsWidthChangingBitcast(const Instruction& inst);

// A dynamic-update-slice whose update is under a quarter of its operand:
// fusion leaves it alone, so that code generation's dynamic-update-slice
// strategy writes only the update, in place when its operand dies there.
bool IsSmallDynamicUpdate(const Instruction& inst);

// The opcodes the transcendental-expander pass rewrites (those code
// generation has no element-wise form for), in opcode order.
absl::Span<const Opcode> TranscendentalExpanderOpcodes();

// Whether the transcendental-expander pass rewrites `inst`: one of its
// opcodes on a real float (IsRealFloat) or complex type. Code generation
// refuses such an instruction when the pass has not run.
bool IsExpandedByTranscendentalExpander(const Instruction& inst);

// The value of a float scalar constant, or of a broadcast, convert or
// reshape of one; nullopt for anything else.
std::optional<double> ScalarFloatConstant(const Instruction& inst);
// The same for an s32, s64 or u32 constant, and for a pred one, under
// broadcasts and reshapes only.
std::optional<int64_t> ScalarIntegerConstant(const Instruction& inst);
std::optional<bool> ScalarPredConstant(const Instruction& inst);

// The opcode a reduce's two-parameter reducer applies to its parameters
// (kAdd for a sum, kMaximum for a max), or kParameter for any other
// reducer.
Opcode ReducerOpcode(const Instruction& reduce);

}  // namespace aotc

#endif  // AOTC_COMPILER_ANALYSIS_OP_FACTS_H_
