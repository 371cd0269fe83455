// EvalCustomCall: the custom-call targets the evaluator gives a value to.
//
// Identity annotations (IsIdentityCustomCall,
// compiler/ir/custom_call_targets.h) never reach this kernel: the driver
// aliases them to their operand like get-tuple-element. AllocateBuffer's
// contents are unspecified until written; the evaluator returns zeros so that
// results are deterministic. Every other target is refused with an error naming
// it: code generation calls it as an external function, which the evaluator
// has no implementation of, so `aotc run --check` cannot check such a module.
#include <string>

#include "compiler/evaluator/kernel_util.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/evaluator/reduction_internal.h"
#include "compiler/ir/custom_call_targets.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"

namespace aotc::eval {
namespace {

absl::StatusOr<Literal> EvalAllocateBuffer(const Instruction& inst,
                                           Operands operands) {
  if (!operands.empty()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("AllocateBuffer takes no operands, got ",
                                operands.size()));
  }
  for (const Shape* leaf : inst.shape().Leaves()) {
    if (!leaf->IsArray()) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("AllocateBuffer result has shape ",
                       inst.shape().ToString(false), ", expected arrays"));
    }
    RETURN_IF_ERROR(CheckComputableType(inst, leaf->element_type()));
  }
  return Literal(inst.shape());  // zero-filled
}

}  // namespace

absl::StatusOr<Literal> EvalCustomCall(const Instruction& inst,
                                       Operands operands, const CallFn& call) {
  const std::string& target = inst.custom_call_target();
  if (target == "TopK") return EvalTopKCustomCall(inst, operands, call);
  if (target == kAllocateBufferTarget) {
    return EvalAllocateBuffer(inst, operands);
  }
  // A builtin target gets here when its operands or shape are wrong.
  const char* why = IsBuiltinCustomCallTarget(target)
                        ? ""
                        : " by the reference evaluator, which cannot run "
                          "external functions";
  return ErrorAt(inst.location(), absl::StrCat("custom-call target '", target,
                                               "' is not supported", why));
}

}  // namespace aotc::eval
