// The subcommands of the `aotc` tool (inspect, opt, eval, compile, run,
// conform). Each returns the process exit code: 0 success, 1 an error in the
// input (reported on stderr), 2 a usage error.
#ifndef AOTC_TOOLS_COMMANDS_H_
#define AOTC_TOOLS_COMMANDS_H_

#include <string>
#include <vector>

#include "codegen/compile.h"
#include "compiler/ir/literal.h"
#include "compiler/passes/composite_kernels.h"
#include "tools/inputs.h"

namespace aotc {

class Module;

// The optimization pipeline's switches, shared by inspect, opt, compile and
// run.
struct PassFlags {
  // aotc opt --passes: exactly these passes, in this order (empty: the whole
  // pipeline); every name must be a pass of the pipeline.
  std::vector<std::string> passes;
  bool no_fusion = false;              // --no-fusion
  std::vector<std::string> disabled;   // --disable-pass NAME,...
  bool print_ir_after_all = false;     // --print-ir-after-all (stderr)
  bool pass_timing = false;            // --pass-timing (stderr)
  bool strict_fp = false;              // --strict-fp: no reduction splitting
  // --composite-kernel NAME=SYMBOL, each checked by AddCompositeKernel.
  CompositeKernelMap composite_kernels;
};

// Adds one --composite-kernel flag, `NAME=SYMBOL`, to `kernels`. A usage
// error (InvalidArgument) when it is not of that form, when SYMBOL is not a
// C identifier an external function can have, or when NAME is already bound
// to another symbol.
absl::Status AddCompositeKernel(std::string_view flag,
                                CompositeKernelMap* kernels);

// Runs the optimization pipeline (compiler/passes/pipelines.h) on `module`
// as `flags` say, printing the module after each pass and the pass timings
// on stderr when asked. Returns the exit code: 0, 1 (an error) or 2 (an
// unknown pass name).
int OptimizeForCodegen(Module& module, const PassFlags& flags);

struct InspectOptions {
  std::string model;
  PassFlags passes;
  std::string after;       // print the module after this pass ("" = input)
  bool fusion = false;     // print the fusion report
  bool memory = false;     // print the buffer plan
  bool strategies = false; // print the codegen strategy of each instruction
  std::string dot;         // write a Graphviz graph to this file
};
int RunInspect(const InspectOptions& options);

struct OptOptions {
  std::string model;
  PassFlags passes;    // passes.passes: --passes (empty: the whole pipeline)
  std::string output;  // -o FILE; empty: stdout
};
// Runs passes on a model and prints the result as HLO text. An unknown
// pass name is a usage error (2).
int RunOpt(const OptOptions& options);

struct EvalOptions {
  std::string model;
  InputOptions inputs;
  std::string output_dir;  // empty: print results only
  int64_t max_work = 0;    // EvaluateOptions::max_work; 0: no limit
};
int RunEval(const EvalOptions& options);

struct CompileCommandOptions {
  std::string model;
  std::string output_dir;
  std::string emit = "obj,header,json";  // comma-separated output kinds
  codegen::CompileOptions codegen;
  PassFlags passes;
};
int RunCompile(const CompileCommandOptions& options);

struct RunCommandOptions {
  std::string model;
  InputOptions inputs;
  std::string output_dir;  // empty: print results only
  // Shared libraries loaded before linking, for external calls.
  std::vector<std::string> libraries;
  bool check = false;      // compare with the reference evaluator
  int64_t max_work = 0;    // evaluator budget for --check; 0: no limit
  // .npy files the results must match (one per result, in order), within
  // the per-type tolerance: results of another compiler, a saved run.
  std::vector<std::string> expect;
  int64_t bench = 0;       // timed runs after the first; 0: none
  // Profile counters compiled in, and a report of the timed runs (one when
  // bench is 0) by region (tools/profile_report.h).
  bool profile = false;
  int threads = 1;         // > 1: a ThreadPool as the parallel-for hook
  int opt_level = 2;
  int64_t l1_cache_bytes = 0;  // CompileOptions::l1_cache_bytes
  int64_t l2_cache_bytes = 0;  // CompileOptions::l2_cache_bytes
  PassFlags passes;  // passes.strict_fp is also CompileOptions::strict_fp
};
int RunRun(const RunCommandOptions& options);

struct ConformOptions {
  std::vector<std::string> files;  // files, or folders of *.mlir/*.hlo/*.pb
  bool evaluator = false;          // the reference evaluator instead of codegen
  int jobs = 1;                    // files run at the same time
  double timeout_seconds = 0;      // per file; 0: no limit
};
// Runs self-checking programs (tools/conform.h), one child process per file.
// Exit code 1 when any file failed.
int RunConform(const ConformOptions& options);

// Prints the status's message on stderr; returns exit code 1.
int ReportError(const absl::Status& status);

// Prints every result as `resultN: shape values` (values for at most 64
// elements) and, when output_dir is not empty, writes DIR/resultN.npy
// atomically. Returns the exit code.
int ReportResults(const std::vector<const Literal*>& results,
                  const std::string& output_dir);

// One-line summary of a module: instruction and computation counts, entry
// parameters with shapes, result shape, bytes of constants.
std::string ModuleSummary(const Module& module);

}  // namespace aotc

#endif  // AOTC_TOOLS_COMMANDS_H_
