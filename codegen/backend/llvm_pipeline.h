// LLVM's optimization pipeline and file emission for one module, shared by
// the whole-module path (compile.cc) and the partitions compiled on threads
// (parallel_compile.h).
#ifndef AOTC_CODEGEN_BACKEND_LLVM_PIPELINE_H_
#define AOTC_CODEGEN_BACKEND_LLVM_PIPELINE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "llvm/Support/CodeGen.h"

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
}  // namespace llvm

namespace aotc::codegen {

// LLVM's default pipeline for -O`level` (0..3), or -Os / -Oz when
// `size_level` is 1 / 2.
void Optimize(llvm::Module& m, llvm::TargetMachine& tm, int level,
              int size_level);

// Every constant global (the model's constant arrays, and tables LLVM made)
// goes to `section`.
void PlaceConstants(llvm::Module& m, const std::string& section);

absl::StatusOr<std::string> EmitFile(llvm::Module& m, llvm::TargetMachine& tm,
                                     llvm::CodeGenFileType type);

// Errors LLVM reports as diagnostics (a feature the target lacks, such as
// PIC on some targets or calls on BPF) would print and end the process;
// they are appended to `errors` instead. Warnings print on stderr.
void CollectDiagnostics(llvm::LLVMContext& ctx,
                        std::vector<std::string>* errors);

// The error for the collected `errors` of compiling for `target` (its
// description, ResolvedTarget::ToString).
absl::Status LlvmErrorStatus(const std::string& target,
                             const std::vector<std::string>& errors);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_BACKEND_LLVM_PIPELINE_H_
