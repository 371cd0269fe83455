// LLVM's optimization pipeline and file emission for one module, shared by
// the whole-module path (compile.cc) and the partitions compiled on threads
// (parallel_compile.h).
#ifndef AOTC_CODEGEN_BACKEND_LLVM_PIPELINE_H_
#define AOTC_CODEGEN_BACKEND_LLVM_PIPELINE_H_

#include <cstdint>
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
// goes to `section`, one plain read-only section (none is left mergeable).
void PlaceConstants(llvm::Module& m, const std::string& section);

// A constant global as the object holds it: its bytes and alignment.
struct ConstantArray {
  int64_t bytes = 0;
  int64_t alignment = 1;
};

// The globals PlaceConstants moves, in module order, which is the order the
// assembler lays them out in the section. Zero-sized globals take one byte,
// as LLVM emits them.
std::vector<ConstantArray> ConstantArrays(const llvm::Module& m);

// The size of one section holding `arrays` in order: each starts at the next
// multiple of its alignment, and the section ends with the last one (ELF
// section sizes have no trailing padding).
int64_t SectionBytes(const std::vector<ConstantArray>& arrays);

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
