// The code generator's entry point: an HLO module in, a native object, its
// header and its JSON description out.
//
// CompileModule checks that every reachable instruction is supported, lowers
// the module to LLVM IR (computation_emitter.cc, elemental*.cc), adds the
// exported entry points NAME_run and NAME_run_packed, optimizes with LLVM's
// standard pipeline for the target, and emits the object in memory through
// the target's TargetMachine. A large module is split and compiled on
// several threads instead (parallel_compile.h). The same inputs and options
// give the same bytes, whatever the number of threads.
#ifndef AOTC_CODEGEN_COMPILE_H_
#define AOTC_CODEGEN_COMPILE_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "codegen/backend/target_info.h"
#include "codegen/header/signature.h"
#include "compiler/ir/module.h"

namespace llvm {
class TargetMachine;
}

namespace aotc::codegen {

struct CompileOptions {
  std::string name;           // model name: a C identifier, the symbol prefix
  std::string cpp_namespace;  // namespace of the generated C++ class
  // Target; empty means this host (its triple, CPU and CPU features). A
  // CPU left empty for another triple is "generic".
  std::string target_triple;
  std::string cpu;
  std::string features;       // "+avx2,-fma" style
  int opt_level = 2;          // 0..3
  // 1: -Os, 2: -Oz: LLVM's size-favouring pipelines and the optsize
  // (and minsize) function attributes; opt_level is then 2.
  int size_level = 0;
  bool pic = true;            // position-independent code (else static)
  // Section for the model's constant arrays (weights), e.g. ".flash_weights",
  // so that a linker script can place them; empty: the usual read-only
  // data sections. Letters, digits, '_', '.' and '$'.
  std::string constants_section;
  bool emit_llvm = false;     // keep the optimized LLVM IR text
  bool emit_asm = false;      // keep the assembly text
  // Floating-point reductions (add and multiply reducers) in the evaluator's
  // sequential order. Off by default: such reductions may be reassociated
  // into several vector accumulators (docs/codegen.md).
  bool strict_fp = false;
  // Level-1 data and level-2 cache bytes per core, which size the GEMM's
  // cache blocks; 0: the typical sizes for the target's class of core
  // (codegen/backend/target_info.h).
  int64_t l1_cache_bytes = 0;
  int64_t l2_cache_bytes = 0;
  // Threads that optimize and compile the partitions of a large module
  // (parallel_compile.h); 0: the hardware's threads. The object does not
  // depend on it.
  int compile_threads = 0;
  // Partitions of the module: 0 chooses by its size (module_split.h), 1
  // never splits. More than 1 needs an ELF x86-64 or AArch64 target.
  int partitions = 0;
  // Profile counters around every region (codegen/emit/profile.h): the
  // object then defines NAME_profile and the header lists the regions.
  bool profile = false;
};

struct CompiledModel {
  ModelSignature signature;
  std::string object;     // relocatable object file bytes
  std::string header;     // NAME.h
  std::string json;       // NAME.json
  std::string llvm_ir;    // when CompileOptions::emit_llvm
  std::string assembly;   // when CompileOptions::emit_asm
  // Wall time of each stage of code generation, in order: lowering to LLVM
  // IR, verifying it, LLVM's optimization pipeline, object emission (and
  // the assembly when asked for). `aotc compile --pass-timing` prints them.
  std::vector<std::pair<std::string, double>> stage_seconds;
  // A split module: its partitions, the threads that compiled them, and
  // the CPU time of the parallel stage's steps, summed over partitions.
  int partitions = 1;
  int compile_threads = 1;
  std::vector<std::pair<std::string, double>> thread_seconds;
  // The optimized module's constant arrays laid out in their sections
  // (SectionBytes): Footprint::constants_bytes without a constants section.
  int64_t constants_layout_bytes = 0;
};

// Located errors for the first instruction (reachable from the entry) that
// code generation does not support: operations no strategy plans (e.g.
// collectives) are "not supported yet", custom-calls that cannot be external
// calls name their target and why (external_call.h), and element
// types without a compute type here (s1, u1) are refused. The module is
// the one code generation receives, after the optimization pipeline: real
// acos, asinh, sinh... must have been expanded by then.
absl::Status CheckSupported(const Module& module);

absl::StatusOr<CompiledModel> CompileModule(const Module& module,
                                            const CompileOptions& options);

// The target the strategies plan for when `options` compile for `tm`: its
// vector registers and caches (DescribeTarget), with the cache sizes
// `options` override, and no bf16 pair products under strict_fp.
TargetInfo PlanningTarget(const llvm::TargetMachine& tm,
                          const CompileOptions& options);

// The host's triple, CPU name and CPU features ("+a,-b", sorted).
std::string HostTriple();
std::string HostCpu();
std::string HostFeatures();

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_COMPILE_H_
