// Custom-call targets aotc gives a meaning to by name, and the ones it
// refuses by name.
//
// XLA writes sharding, SPMD and memory-placement annotations as custom-calls
// whose value is their operand: `Sharding`, `SPMDFullToShardShape`,
// `SPMDShardToFullShape`, `annotate_device_placement`, `MoveToHost`,
// `MoveToDevice`, `xla_mark_tensor` and Shardy's `xla.sdy.*` targets. For a
// single-device compile they are identities whenever they keep the shape.
// The evaluator reads them as their operand and the custom-call simplifier
// (compiler/passes/custom_call_simplifier.h) removes them; both ask the
// predicate below, so the list lives in one place.
//
// Code generation turns every other target into a call to an external C
// function of that name (codegen/strategies/external_call.h), except targets
// that can never run in ahead-of-time compiled host code: Python callbacks
// and GPU or TPU kernels (DeviceOnlyTargetKind below, docs/codegen.md).
#ifndef AOTC_COMPILER_IR_CUSTOM_CALL_TARGETS_H_
#define AOTC_COMPILER_IR_CUSTOM_CALL_TARGETS_H_

#include <string_view>

#include "compiler/ir/instruction.h"

namespace aotc {

// `custom_call_target="AllocateBuffer"`: a buffer of the result shape whose
// contents are unspecified until written (the evaluator gives zeros).
inline constexpr std::string_view kAllocateBufferTarget = "AllocateBuffer";

// Whether `target` names one of the annotation targets listed above.
bool IsIdentityCustomCallTarget(std::string_view target);

// A custom-call with an identity target, exactly one operand, and a result
// with the operand's element types and dimensions (layouts may differ: a
// MoveToHost result carries the host memory space). Its value is its
// operand's.
bool IsIdentityCustomCall(const Instruction& inst);

// Whether aotc itself gives `target` its meaning (TopK, AllocateBuffer, the
// identity annotations): such a target is never an external function.
bool IsBuiltinCustomCallTarget(std::string_view target);

// Why `target` can never run in ahead-of-time compiled host code: "a Python
// callback", "a GPU target" or "a TPU target"; empty for every other target.
std::string_view DeviceOnlyTargetKind(std::string_view target);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_CUSTOM_CALL_TARGETS_H_
