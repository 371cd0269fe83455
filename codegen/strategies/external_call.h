// The `external-call` codegen strategy: a custom-call whose target aotc does
// not interpret itself becomes a call to an external C function of that
// name, which the user links in:
//
//   int TARGET(void* const* outputs, const void* const* inputs,
//              const char* opaque, size_t opaque_len);
//
// outputs[i] points at the i-th array leaf of the result (depth first for a
// tuple), inputs[i] at the i-th array leaf of the operands (operands in
// order, each depth first), every buffer in the physical layout of its shape
// (for an operand with an entry in operand_layout_constraints, the
// constrained layout: a copy in scratch when the operand's layout differs;
// the model's arguments and results are the caller's buffers, the others
// 64-byte aligned). Outputs overlap no input and no other output; inputs may
// share buffers. opaque is the custom-call's `opaque` string, else its
// `backend_config`, else "", NUL-terminated; opaque_len excludes the NUL. A
// nonzero return makes the model's run function return
// AOTC_ERROR_CUSTOM_CALL at once (aotc/runtime.h). docs/codegen.md is the
// user's description.
//
// Refused, with a located error naming the target: targets that only run
// on a device or in Python (DeviceOnlyTargetKind in
// compiler/ir/custom_call_targets.h); targets that are not C identifiers,
// or that name a runtime function, an entry point of the model, or memcpy,
// memmove or memset; custom-calls with called computations,
// output-to-operand aliasing, or layout constraints that do not match their
// operands' shapes.
#ifndef AOTC_CODEGEN_STRATEGIES_EXTERNAL_CALL_H_
#define AOTC_CODEGEN_STRATEGIES_EXTERNAL_CALL_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "codegen/strategy.h"

namespace aotc::codegen {

// Whether `inst` is a custom-call that code generation would make an
// external call, refused or not: its target is not one aotc interprets.
bool IsExternalCustomCall(const Instruction& inst);

// OK when the external custom-call `inst` can be emitted; otherwise the
// located error naming its target.
absl::Status CheckExternalCall(const Instruction& inst);

// The string passed as `opaque`: the `opaque` attribute, else
// `backend_config`, unquoted; "" when neither is given.
absl::StatusOr<std::string> ExternalCallOpaque(const Instruction& inst);

// The plan for an external custom-call that CheckExternalCall accepts.
std::optional<StrategyPlan> PlanExternalCall(const Instruction& inst);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_EXTERNAL_CALL_H_
