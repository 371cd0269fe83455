// Optimizing and compiling a large module on several threads into one
// object.
//
// CompileInPartitions splits the verified module (module_split.h) and hands
// the partitions, largest first, to worker threads. Each worker has its own
// LLVMContext and TargetMachine; it reads a partition's bitcode, runs the
// optimization pipeline and emits assembly. The assembly is joined in
// partition order and assembled in process into one relocatable object
// (object_assembler.h). Which thread compiled which partition leaves no
// trace, so the object is the same for any number of threads.
//
// LLVM optimization and code generation are about 95% of the compile time
// of large models and are per function, so they scale with the threads;
// the price is that nothing is inlined across partitions (only `noinline`
// calls cross them) and that a constant array is visible to the optimizer
// in one partition only.
#ifndef AOTC_CODEGEN_BACKEND_PARALLEL_COMPILE_H_
#define AOTC_CODEGEN_BACKEND_PARALLEL_COMPILE_H_

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "codegen/backend/target_machine.h"
#include "codegen/compile.h"

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace aotc::codegen {

// Fills out->object (and llvm_ir / assembly when asked), the parallel
// timings and out->partitions / compile_threads. `end_stage` closes a
// wall-clock stage of out->stage_seconds. `m` is changed (split).
absl::Status CompileInPartitions(
    llvm::Module& m, int partitions, int threads,
    const ResolvedTarget& target, const CompileOptions& options,
    const llvm::TargetMachine& tm, CompiledModel* out,
    const std::function<void(const std::string&)>& end_stage);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_BACKEND_PARALLEL_COMPILE_H_
