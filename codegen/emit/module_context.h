// State shared while one HLO module is lowered into one llvm::Module: the
// symbol prefix, the constant pool, and the functions already emitted for
// called computations.
#ifndef AOTC_CODEGEN_EMIT_MODULE_CONTEXT_H_
#define AOTC_CODEGEN_EMIT_MODULE_CONTEXT_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "absl/status/statusor.h"
#include "codegen/backend/target_info.h"
#include "codegen/emit/profile.h"
#include "compiler/analysis/buffer_assignment.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/literal.h"
#include "llvm/IR/Module.h"

namespace aotc::codegen {

// A computation lowered to `i32 f(ptr params, ptr results, ptr temp)`:
// params and results are arrays of pointers to the array leaves of the
// parameters (flattened in parameter order) and of the root; temp is scratch
// of temp_bytes bytes, 64-byte aligned. f returns 0, or the aotc status of
// the first external function that failed (only when may_fail).
struct BufferFunction {
  llvm::Function* function = nullptr;
  int64_t temp_bytes = 0;
  bool may_fail = false;
};

using ::aotc::kBufferAlignment;  // compiler/analysis/buffer_assignment.h

class ModuleContext {
 public:
  // Whether floating-point add and multiply reductions keep the sequential
  // order (CompileOptions::strict_fp).
  bool strict_fp() const { return strict_fp_; }
  void set_strict_fp(bool strict) { strict_fp_ = strict; }

  // The target's vector unit and caches, which size the GEMM's tiles.
  const TargetInfo& target() const { return target_; }
  void set_target(const TargetInfo& target) { target_ = target; }

  // The profile counters regions add to (CompileOptions::profile), or null.
  ProfileCounters* profile() const { return profile_; }
  void set_profile(ProfileCounters* profile) { profile_ = profile; }

  ModuleContext(llvm::Module& module, std::string prefix)
      : module_(module), prefix_(std::move(prefix)) {}

  llvm::Module& module() { return module_; }
  llvm::LLVMContext& context() { return module_.getContext(); }
  const std::string& prefix() const { return prefix_; }

  // A read-only global holding the literal's bytes in the physical layout
  // of its shape, 64-byte aligned; identical contents share one global.
  llvm::GlobalVariable* ConstantGlobal(const Literal& literal);

  // The function computing a computation whose values are all scalars (a
  // reducer, a map or sort comparator): it takes and returns compute values
  // (a struct for a tuple root). Emitted once, marked always-inline.
  absl::StatusOr<llvm::Function*> ScalarFunction(const Computation& comp);

  // The buffer-level function of a computation (while bodies and
  // conditions, branches, calls, the entry).
  absl::StatusOr<BufferFunction> GetBufferFunction(const Computation& comp);

  // A fresh internal symbol name for a computation's function.
  std::string FunctionName(const Computation& comp, const char* kind);

  // The external functions the module calls (external_call.h),
  // which the generated header declares.
  const std::set<std::string>& external_functions() const {
    return external_functions_;
  }
  void AddExternalFunction(const std::string& name) {
    external_functions_.insert(name);
  }

 private:
  bool strict_fp_ = false;
  TargetInfo target_;
  ProfileCounters* profile_ = nullptr;
  llvm::Module& module_;
  std::string prefix_;
  std::map<std::string, llvm::GlobalVariable*> constants_;
  std::map<const Computation*, llvm::Function*> scalar_functions_;
  std::map<const Computation*, BufferFunction> buffer_functions_;
  std::set<std::string> external_functions_;
  int next_function_ = 0;
};

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_EMIT_MODULE_CONTEXT_H_
