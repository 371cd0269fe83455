// Compiling the partitions of a module on worker threads (see
// parallel_compile.h).
#include "codegen/backend/parallel_compile.h"

#include <algorithm>
#include <atomic>
#include <ctime>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/backend/llvm_pipeline.h"
#include "codegen/backend/module_split.h"
#include "codegen/backend/object_assembler.h"
#include "compiler/support/status_macros.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

namespace aotc::codegen {
namespace {

struct PartitionResult {
  absl::Status status;
  std::string assembly;
  std::vector<ConstantArray> constants;  // in the order the assembly has them
  std::string optimized_bitcode;  // when the LLVM IR is asked for
  double optimize_seconds = 0;
  double emit_seconds = 0;
};

// CPU time of the calling thread: what a partition's step costs, whatever
// else the machine runs.
double ThreadCpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// One partition, start to assembly, in a context of its own.
void CompilePartition(const std::string& bitcode, llvm::TargetMachine& tm,
                      const ResolvedTarget& target,
                      const CompileOptions& options, PartitionResult* result) {
  llvm::LLVMContext ctx;
  std::vector<std::string> llvm_errors;
  CollectDiagnostics(ctx, &llvm_errors);
  llvm::Expected<std::unique_ptr<llvm::Module>> parsed =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "partition"), ctx);
  if (!parsed) {
    result->status = absl::InternalError(
        absl::StrCat("internal error: cannot read a partition: ",
                     llvm::toString(parsed.takeError())));
    return;
  }
  llvm::Module& m = **parsed;
  double start = ThreadCpuSeconds();
  Optimize(m, tm, options.opt_level, options.size_level);
  if (!options.constants_section.empty()) {
    PlaceConstants(m, options.constants_section);
  }
  result->constants = ConstantArrays(m);
  if (options.emit_llvm) {
    llvm::raw_string_ostream os(result->optimized_bitcode);
    llvm::WriteBitcodeToFile(m, os);
  }
  result->optimize_seconds = ThreadCpuSeconds() - start;
  start = ThreadCpuSeconds();
  absl::StatusOr<std::string> assembly =
      EmitFile(m, tm, llvm::CodeGenFileType::AssemblyFile);
  result->emit_seconds = ThreadCpuSeconds() - start;
  if (!assembly.ok()) {
    result->status = assembly.status();
    return;
  }
  if (!llvm_errors.empty()) {
    result->status = LlvmErrorStatus(target.ToString(), llvm_errors);
    return;
  }
  result->assembly = *std::move(assembly);
}

// The optimized partitions linked back into one module of `ctx`, its
// split locals local again: the LLVM IR that was compiled.
absl::StatusOr<std::string> LinkedIr(const ModulePartitions& split,
                                     const std::vector<PartitionResult>& parts,
                                     const llvm::Module& original) {
  llvm::LLVMContext& ctx = original.getContext();
  auto linked = std::make_unique<llvm::Module>(original.getName(), ctx);
  linked->setSourceFileName(original.getSourceFileName());
  linked->setTargetTriple(original.getTargetTriple());
  linked->setDataLayout(original.getDataLayout());
  llvm::Linker linker(*linked);
  for (const PartitionResult& part : parts) {
    llvm::Expected<std::unique_ptr<llvm::Module>> m = llvm::parseBitcodeFile(
        llvm::MemoryBufferRef(part.optimized_bitcode, "partition"), ctx);
    if (!m) {
      return absl::InternalError(
          absl::StrCat("internal error: cannot read a partition: ",
                       llvm::toString(m.takeError())));
    }
    if (linker.linkInModule(std::move(*m))) {
      return absl::InternalError(
          "internal error: cannot link the optimized partitions");
    }
  }
  for (size_t k = 0; k < split.externalized.size(); ++k) {
    llvm::GlobalValue* g = linked->getNamedValue(split.externalized[k]);
    if (g == nullptr) continue;  // optimized away
    g->setVisibility(llvm::GlobalValue::DefaultVisibility);
    g->setLinkage(split.original_linkage[k]);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  linked->print(os, nullptr);
  return text;
}

}  // namespace

absl::Status CompileInPartitions(
    llvm::Module& m, int partitions, int threads,
    const ResolvedTarget& target, const CompileOptions& options,
    const llvm::TargetMachine& tm, CompiledModel* out,
    const std::function<void(const std::string&)>& end_stage) {
  const ModulePartitions split = SplitModule(m, partitions);
  const int count = static_cast<int>(split.bitcode.size());
  threads = std::clamp(threads, 1, count);
  out->partitions = count;
  out->compile_threads = threads;
  end_stage(absl::StrCat("split into ", count, " partitions"));

  // Largest partitions first, so that the last ones to start are short.
  std::vector<int> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return split.instructions[a] > split.instructions[b];
  });
  std::vector<PartitionResult> results(count);
  std::atomic<int> next{0};
  auto work = [&]() {
    // LLVM's fatal errors name the target on this thread too.
    ScopedCodegenTarget fatal_error_context(target);
    absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> worker_tm =
        CreateTargetMachine(target, options.pic, options.opt_level);
    for (int k = next++; k < count; k = next++) {
      PartitionResult& result = results[order[k]];
      if (!worker_tm.ok()) {
        result.status = worker_tm.status();
        continue;
      }
      CompilePartition(split.bitcode[order[k]], **worker_tm, target, options,
                       &result);
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < threads; ++t) workers.emplace_back(work);
  work();
  for (std::thread& w : workers) w.join();
  double optimize_seconds = 0, emit_seconds = 0;
  for (const PartitionResult& r : results) {
    RETURN_IF_ERROR(r.status);
    optimize_seconds += r.optimize_seconds;
    emit_seconds += r.emit_seconds;
  }
  out->thread_seconds = {{"LLVM optimization", optimize_seconds},
                         {"assembly generation", emit_seconds}};
  end_stage("optimize and generate code");

  // JoinAssembly keeps the partitions' order, so their sections continue
  // each other in it.
  std::vector<std::string> assembly;
  std::vector<ConstantArray> constants;
  for (PartitionResult& r : results) {
    assembly.push_back(std::move(r.assembly));
    constants.insert(constants.end(), r.constants.begin(), r.constants.end());
  }
  out->constants_layout_bytes = SectionBytes(constants);
  std::string joined = JoinAssembly(assembly, split.externalized);
  ASSIGN_OR_RETURN(out->object, AssembleObject(joined, tm));
  if (options.emit_asm) out->assembly = std::move(joined);
  end_stage("assemble");
  if (options.emit_llvm) {
    ASSIGN_OR_RETURN(out->llvm_ir, LinkedIr(split, results, m));
    end_stage("link LLVM IR");
  }
  return absl::OkStatus();
}

}  // namespace aotc::codegen
