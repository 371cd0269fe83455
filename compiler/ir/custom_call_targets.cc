// The identity custom-call targets, as one ordered list.
#include "compiler/ir/custom_call_targets.h"

namespace aotc {
namespace {

// Exact target names. Shardy (`xla.sdy.*`) adds targets over time, so its
// whole namespace counts; the shape condition of IsIdentityCustomCall keeps
// out the ones that are not identities (a sharding group returns nothing).
constexpr std::string_view kIdentityTargets[] = {
    "Sharding",
    "SPMDFullToShardShape",
    "SPMDShardToFullShape",
    "annotate_device_placement",
    "MoveToHost",
    "MoveToDevice",
    "xla_mark_tensor",
};
constexpr std::string_view kIdentityTargetPrefix = "xla.sdy.";

}  // namespace

bool IsIdentityCustomCallTarget(std::string_view target) {
  for (std::string_view name : kIdentityTargets) {
    if (target == name) return true;
  }
  return target.starts_with(kIdentityTargetPrefix);
}

bool IsIdentityCustomCall(const Instruction& inst) {
  return inst.opcode() == Opcode::kCustomCall &&
         IsIdentityCustomCallTarget(inst.attrs().custom_call_target) &&
         inst.operand_count() == 1 &&
         inst.shape().Compatible(inst.operand(0)->shape());
}

}  // namespace aotc
