// The identity custom-call targets and the device-only targets, as lists.
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

// Targets that need a Python interpreter, a GPU or a TPU at run time, by
// prefix: JAX's and XLA's callback targets, XLA's GPU library calls
// (`__cublas$gemm`, `__cudnn$convForward`, `__cub$DeviceRadixSort`,
// `__gpu$...`, `__triton`), JAX's CUDA and ROCm kernels (`cu_threefry2x32`,
// `cusolver_getrf`, `hipblas_...`) and TPU kernels.
struct DeviceOnlyPrefix {
  std::string_view prefix;
  std::string_view kind;
};
constexpr DeviceOnlyPrefix kDeviceOnlyPrefixes[] = {
    {"xla_python_", "a Python callback"},
    {"xla_ffi_python_", "a Python callback"},
    {"xla_ffi_partial_python_", "a Python callback"},
    {"__cub", "a GPU target"},  // __cub$..., __cublas$..., __cublasLt$...
    {"__cudnn", "a GPU target"},
    {"__cusolver", "a GPU target"},
    {"__gpu", "a GPU target"},
    {"__triton", "a GPU target"},
    {"triton_kernel_call", "a GPU target"},
    {"mosaic_gpu", "a GPU target"},
    {"cu_", "a GPU target"},
    {"cublas", "a GPU target"},
    {"cudnn", "a GPU target"},
    {"cusolver", "a GPU target"},
    {"cusparse", "a GPU target"},
    {"hip_", "a GPU target"},
    {"hipblas", "a GPU target"},
    {"hipsolver", "a GPU target"},
    {"hipsparse", "a GPU target"},
    {"tpu_custom_call", "a TPU target"},
    {"MegaScale", "a TPU target"},
};

}  // namespace

bool IsIdentityCustomCallTarget(std::string_view target) {
  for (std::string_view name : kIdentityTargets) {
    if (target == name) return true;
  }
  return target.starts_with(kIdentityTargetPrefix);
}

bool IsIdentityCustomCall(const Instruction& inst) {
  return inst.opcode() == Opcode::kCustomCall &&
         IsIdentityCustomCallTarget(inst.custom_call_target()) &&
         inst.operand_count() == 1 &&
         inst.shape().Compatible(inst.operand(0)->shape());
}

bool IsBuiltinCustomCallTarget(std::string_view target) {
  return target == "TopK" || target == kAllocateBufferTarget ||
         IsIdentityCustomCallTarget(target);
}

std::string_view DeviceOnlyTargetKind(std::string_view target) {
  for (const DeviceOnlyPrefix& p : kDeviceOnlyPrefixes) {
    if (target.starts_with(p.prefix)) return p.kind;
  }
  return {};
}

}  // namespace aotc
