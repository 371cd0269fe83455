// The `aotc` command line: `aotc inspect`, `aotc opt`, `aotc eval`,
// `aotc compile`, `aotc run`, `aotc conform`.
//
// Flags are parsed with llvm::cl subcommands; each subcommand's work lives in
// its own *_command.cc, and main dispatches through a table of subcommands,
// each with a function that turns its flags into options. Exit codes: 0
// success, 1 error in the input, 2 usage.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "codegen/backend/target_machine.h"
#include "compiler/ir/limits.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "tools/commands.h"

namespace cl = llvm::cl;

namespace {

cl::OptionCategory aotc_category("aotc options");

cl::SubCommand inspect_cmd("inspect",
                           "Parse and verify a model; print it and a summary");
cl::SubCommand opt_cmd(
    "opt", "Run optimization passes on a model (all, or --passes in order) "
           "and print the result as HLO text");
cl::SubCommand eval_cmd(
    "eval", "Run a model with the reference evaluator (the correctness oracle)");

cl::SubCommand compile_cmd(
    "compile", "Compile a model into an object file, a C/C++ header and JSON");
cl::SubCommand run_cmd(
    "run", "Compile a model for this machine and run it (optionally --check "
           "it against the reference evaluator)");
cl::SubCommand conform_cmd(
    "conform", "Run self-checking programs (e.g. the StableHLO test data) and "
               "report PASS, FAIL or UNSUPPORTED per file");

cl::opt<std::string> inspect_model(cl::Positional, cl::Required,
                                   cl::desc("<model: HLO text or HloModuleProto>"),
                                   cl::sub(inspect_cmd), cl::cat(aotc_category));

cl::list<std::string> eval_positional(
    cl::Positional, cl::OneOrMore,
    cl::desc("<model> [input.npy ...] (inputs bind to parameters 0, 1, ..., "
             "tuple parameters leaf by leaf)"),
    cl::sub(eval_cmd), cl::cat(aotc_category));
cl::list<std::string> eval_inputs(
    "input", cl::value_desc("NAME=FILE"),
    cl::desc("Input for the parameter with that instruction name or number, "
             "or for a leaf of a tuple parameter (NAME.1.0) (.npy); may "
             "repeat"),
    cl::sub(eval_cmd), cl::cat(aotc_category));
cl::opt<uint64_t> eval_random(
    "random-inputs", cl::value_desc("SEED"),
    cl::desc("Seeded random values for every parameter (or tuple leaf) "
             "without an input"),
    cl::sub(eval_cmd), cl::cat(aotc_category));
cl::opt<std::string> eval_output_dir(
    "output-dir", cl::value_desc("DIR"),
    cl::desc("Write results as DIR/result0.npy, DIR/result1.npy, ... "
             "(default: print only)"),
    cl::sub(eval_cmd), cl::cat(aotc_category));

cl::opt<int64_t> eval_max_work(
    "max-work", cl::value_desc("N"), cl::init(0),
    cl::desc("Stop after about N element operations (0: no limit); models "
             "may loop forever"),
    cl::sub(eval_cmd), cl::cat(aotc_category));

// aotc opt
cl::opt<std::string> opt_model(
    cl::Positional, cl::Required,
    cl::desc("<model: HLO text, HloModuleProto or StableHLO>"),
    cl::sub(opt_cmd), cl::cat(aotc_category));
cl::list<std::string> opt_passes(
    "passes", cl::value_desc("NAME,..."), cl::CommaSeparated,
    cl::desc("Run exactly these passes, in this order, by the names "
             "--pass-timing prints (default: the whole pipeline compile "
             "runs)"),
    cl::sub(opt_cmd), cl::cat(aotc_category));
cl::opt<std::string> opt_output(
    "o", cl::value_desc("FILE"),
    cl::desc("Write the module to FILE instead of stdout"), cl::sub(opt_cmd),
    cl::cat(aotc_category));

// aotc compile
cl::opt<std::string> compile_model(cl::Positional, cl::Required,
                                   cl::desc("<model: HLO text or HloModuleProto>"),
                                   cl::sub(compile_cmd), cl::cat(aotc_category));
cl::opt<std::string> compile_output(
    "o", cl::value_desc("DIR"), cl::Required,
    cl::desc("Output directory (created if missing)"), cl::sub(compile_cmd),
    cl::cat(aotc_category));
cl::opt<std::string> compile_name(
    "name", cl::value_desc("N"),
    cl::desc("Model name: symbol prefix and file names (default: the model "
             "file's stem as a C identifier)"),
    cl::sub(compile_cmd), cl::cat(aotc_category));
cl::opt<std::string> compile_namespace(
    "namespace", cl::value_desc("NS"),
    cl::desc("C++ namespace of the generated class, e.g. models::v1"),
    cl::sub(compile_cmd), cl::cat(aotc_category));
cl::opt<std::string> compile_triple(
    "target-triple", cl::value_desc("TRIPLE"),
    cl::desc("Target triple (default: this host)"), cl::sub(compile_cmd),
    cl::cat(aotc_category));
cl::opt<std::string> compile_cpu(
    "cpu", cl::value_desc("CPU"),
    cl::desc("Target CPU (default: this host's, or generic for another "
             "triple)"),
    cl::sub(compile_cmd), cl::cat(aotc_category));
cl::opt<std::string> compile_features(
    "features", cl::value_desc("+f1,-f2"),
    cl::desc("Target CPU features (default: this host's when --cpu and "
             "--target-triple are not given)"),
    cl::sub(compile_cmd), cl::cat(aotc_category));
cl::opt<std::string> compile_reloc(
    "reloc", cl::value_desc("pic|static"), cl::init("pic"),
    cl::desc("Relocation model (default: pic)"), cl::sub(compile_cmd),
    cl::cat(aotc_category));
cl::opt<std::string> compile_constants_section(
    "constants-section", cl::value_desc("NAME"),
    cl::desc("Put the model's constant arrays into this section (e.g. "
             ".flash_weights) for a linker script to place"),
    cl::sub(compile_cmd), cl::cat(aotc_category));
cl::opt<std::string> compile_emit(
    "emit", cl::value_desc("KINDS"), cl::init("obj,header,json"),
    cl::desc("Outputs, comma-separated: obj, header, json, llvm, asm "
             "(default: obj,header,json)"),
    cl::sub(compile_cmd), cl::cat(aotc_category));

cl::opt<int> compile_threads(
    "compile-threads", cl::value_desc("N"), cl::init(0),
    cl::desc("Threads that optimize and compile a large model's partitions "
             "(default: the hardware's threads); the object is the same for "
             "any N"),
    cl::sub(compile_cmd), cl::cat(aotc_category));
cl::opt<int> compile_partitions(
    "compile-partitions", cl::value_desc("N"), cl::init(0),
    cl::desc("Split the module into N partitions (default: by its size; 1: "
             "never split)"),
    cl::sub(compile_cmd), cl::cat(aotc_category));

// The cache sizes the GEMM blocks for, shared by compile and run.
cl::list<unsigned> cache_kib(
    "cache-kib", cl::value_desc("L1,L2"), cl::CommaSeparated,
    cl::desc("Level-1 data and level-2 cache sizes per core in KiB, which "
             "size the matrix products' cache blocks (default: typical "
             "sizes for the target CPU's class)"),
    cl::sub(compile_cmd), cl::sub(run_cmd), cl::cat(aotc_category));

// The two cache sizes of --cache-kib in bytes (0 when not given); false
// after printing a usage error.
bool CacheBytes(int64_t* l1, int64_t* l2) {
  *l1 = *l2 = 0;
  if (cache_kib.getNumOccurrences() == 0) return true;
  if (cache_kib.size() != 2 || cache_kib[0] == 0 || cache_kib[1] == 0 ||
      cache_kib[0] > (1u << 20) || cache_kib[1] > (1u << 20)) {
    std::fprintf(stderr,
                 "aotc: error: --cache-kib takes two sizes in KiB, L1,L2, "
                 "each 1..1048576 (e.g. --cache-kib=48,1024)\n");
    return false;
  }
  *l1 = int64_t{cache_kib[0]} << 10;
  *l2 = int64_t{cache_kib[1]} << 10;
  return true;
}

// -O0..-O3, shared by compile and run.
cl::opt<std::string> opt_level("O", cl::Prefix, cl::init("2"),
                            cl::value_desc("N"),
                            cl::desc("Optimization level 0..3, or s or z to "
                                     "optimize for size (compile only; "
                                     "default: 2)"),
                            cl::sub(compile_cmd), cl::sub(run_cmd),
                            cl::cat(aotc_category));

// The optimization pipeline's switches, shared by inspect, opt, compile
// and run.
cl::opt<bool> no_fusion(
    "no-fusion",
    cl::desc("Skip fusion: one loop nest per instruction (for comparison and "
             "bisecting)"),
    cl::sub(inspect_cmd), cl::sub(opt_cmd), cl::sub(compile_cmd),
    cl::sub(run_cmd), cl::cat(aotc_category));
cl::list<std::string> disable_pass(
    "disable-pass", cl::value_desc("NAME,..."), cl::CommaSeparated,
    cl::desc("Skip these optimization passes (see docs/passes.md)"),
    cl::sub(inspect_cmd), cl::sub(opt_cmd), cl::sub(compile_cmd),
    cl::sub(run_cmd), cl::cat(aotc_category));
cl::opt<bool> print_ir_after_all(
    "print-ir-after-all",
    cl::desc("Print the module on stderr after every optimization pass"),
    cl::sub(inspect_cmd), cl::sub(opt_cmd), cl::sub(compile_cmd),
    cl::sub(run_cmd), cl::cat(aotc_category));
cl::opt<bool> pass_timing(
    "pass-timing", cl::desc("Print the time of every pass on stderr"),
    cl::sub(inspect_cmd), cl::sub(opt_cmd), cl::sub(compile_cmd),
    cl::sub(run_cmd), cl::cat(aotc_category));
cl::opt<bool> strict_fp(
    "strict-fp",
    cl::desc("Keep the sequential order of floating-point reductions (no "
             "reassociation into vector accumulators)"),
    cl::sub(inspect_cmd), cl::sub(opt_cmd), cl::sub(compile_cmd),
    cl::sub(run_cmd), cl::cat(aotc_category));

cl::list<std::string> composite_kernel(
    "composite-kernel", cl::value_desc("NAME=SYMBOL"),
    cl::desc("Compile every composite named NAME as a call of the C function "
             "SYMBOL (docs/codegen.md#composite-kernels); may repeat"),
    cl::sub(inspect_cmd), cl::sub(opt_cmd), cl::sub(compile_cmd),
    cl::sub(run_cmd), cl::cat(aotc_category));

// The input limit every subcommand applies (compiler/ir/limits.h).
cl::opt<int64_t> max_buffer_bytes(
    "max-buffer-bytes", cl::value_desc("N"),
    cl::init(aotc::kDefaultMaxBufferBytes),
    cl::desc("Refuse a model with any single array larger than N bytes "
             "(default: 16 GiB)"),
    cl::sub(inspect_cmd), cl::sub(opt_cmd), cl::sub(eval_cmd),
    cl::sub(compile_cmd), cl::sub(run_cmd), cl::cat(aotc_category));

// aotc inspect's reports
cl::opt<std::string> inspect_after(
    "after", cl::value_desc("PASS"),
    cl::desc("Print the module after this optimization pass (e.g. fusion) "
             "instead of as read"),
    cl::sub(inspect_cmd), cl::cat(aotc_category));
cl::opt<bool> inspect_fusion(
    "fusion",
    cl::desc("Print each fused region: kind, absorbed instructions, bytes "
             "read and written, bytes saved"),
    cl::sub(inspect_cmd), cl::cat(aotc_category));
cl::opt<bool> inspect_memory(
    "memory",
    cl::desc("Print the buffer plan of the optimized entry as compile makes "
             "it for this host: buffers and scratch, sizes, offsets, live "
             "ranges, peak bytes (TEMP_BYTES)"),
    cl::sub(inspect_cmd), cl::cat(aotc_category));
cl::opt<bool> inspect_strategies(
    "strategies",
    cl::desc("Print the codegen strategy of each instruction compile writes "
             "code for, with its fused region"),
    cl::sub(inspect_cmd), cl::cat(aotc_category));
cl::opt<std::string> inspect_dot(
    "dot", cl::value_desc("FILE"),
    cl::desc("Write the optimized entry as a Graphviz graph, one cluster per "
             "fused region"),
    cl::sub(inspect_cmd), cl::cat(aotc_category));

aotc::PassFlags PassFlagsFromCommandLine() {
  aotc::PassFlags flags;
  flags.no_fusion = no_fusion;
  flags.disabled.assign(disable_pass.begin(), disable_pass.end());
  flags.print_ir_after_all = print_ir_after_all;
  flags.pass_timing = pass_timing;
  flags.strict_fp = strict_fp;
  for (const std::string& k : composite_kernel) {
    // Checked when the command line was parsed.
    (void)aotc::AddCompositeKernel(k, &flags.composite_kernels);
  }
  return flags;
}

// aotc run
cl::list<std::string> run_positional(
    cl::Positional, cl::OneOrMore,
    cl::desc("<model> [input.npy ...] (inputs bind to parameters 0, 1, ..., "
             "tuple parameters leaf by leaf)"),
    cl::sub(run_cmd), cl::cat(aotc_category));
cl::list<std::string> run_inputs(
    "input", cl::value_desc("NAME=FILE"),
    cl::desc("Input for the parameter with that instruction name or number, "
             "or for a leaf of a tuple parameter (NAME.1.0) (.npy); may "
             "repeat"),
    cl::sub(run_cmd), cl::cat(aotc_category));
cl::list<std::string> run_libraries(
    "library", cl::value_desc("FILE"),
    cl::desc("Load this shared library first, so that its functions serve "
             "the model's external calls (custom-calls, docs/codegen.md); "
             "may repeat"),
    cl::sub(run_cmd), cl::cat(aotc_category));
cl::opt<uint64_t> run_random(
    "random-inputs", cl::value_desc("SEED"),
    cl::desc("Seeded random values for every parameter (or tuple leaf) "
             "without an input"),
    cl::sub(run_cmd), cl::cat(aotc_category));
cl::opt<std::string> run_output_dir(
    "output-dir", cl::value_desc("DIR"),
    cl::desc("Write results as DIR/result0.npy, DIR/result1.npy, ..."),
    cl::sub(run_cmd), cl::cat(aotc_category));
cl::opt<bool> run_check(
    "check",
    cl::desc("Also run the reference evaluator and compare (exit 1 on a "
             "mismatch beyond the tolerance, see docs/cli.md)"),
    cl::sub(run_cmd), cl::cat(aotc_category));
cl::list<std::string> run_expect(
    "expect", cl::value_desc("FILE"),
    cl::desc("A .npy file the next result must match within the per-type "
             "tolerance (exit 1 otherwise); one per result, in order"),
    cl::sub(run_cmd), cl::cat(aotc_category));
cl::opt<int64_t> run_bench(
    "bench", cl::value_desc("N"), cl::init(0),
    cl::desc("Time N more runs and print the minimum and median"),
    cl::sub(run_cmd), cl::cat(aotc_category));
cl::opt<int64_t> run_threads(
    "threads", cl::value_desc("N"), cl::init(1),
    cl::desc("Run the model's parallel loops on a pool of N threads, the "
             "calling one included (default: 1, no pool)"),
    cl::sub(run_cmd), cl::cat(aotc_category));
cl::opt<bool> profile(
    "profile",
    cl::desc("Compile profile counters around every region (compile: the "
             "object defines NAME_profile; run: print time per region, "
             "calls, share and GFLOP/s or GB/s, see docs/cli.md)"),
    cl::sub(compile_cmd), cl::sub(run_cmd), cl::cat(aotc_category));
cl::opt<int64_t> run_max_work(
    "max-work", cl::value_desc("N"), cl::init(0),
    cl::desc("Evaluator budget for --check (0: no limit)"), cl::sub(run_cmd),
    cl::cat(aotc_category));

// aotc conform
cl::list<std::string> conform_files(
    cl::Positional, cl::OneOrMore,
    cl::desc("<file or folder ...> (a folder: its *.mlir, *.hlo, *.pb files)"),
    cl::sub(conform_cmd), cl::cat(aotc_category));
cl::opt<bool> conform_evaluator(
    "evaluator",
    cl::desc("Run the programs with the reference evaluator instead of "
             "compiled code"),
    cl::sub(conform_cmd), cl::cat(aotc_category));
cl::opt<int64_t> conform_jobs(
    "jobs", cl::value_desc("N"), cl::init(0),
    cl::desc("Files run at the same time, each in a process of its own "
             "(default: one per core)"),
    cl::sub(conform_cmd), cl::cat(aotc_category));
cl::opt<double> conform_timeout(
    "timeout", cl::value_desc("SECONDS"), cl::init(300),
    cl::desc("Fail a file that takes longer (default 300; 0: no limit)"),
    cl::sub(conform_cmd), cl::cat(aotc_category));

void PrintVersion(llvm::raw_ostream& os) {
  os << "aotc " << AOTC_VERSION << " (LLVM " << LLVM_VERSION_STRING << ")\n";
}

constexpr char kOverview[] =
    "aotc: ahead-of-time compiler for XLA HLO models\n\n"
    "  aotc inspect MODEL [--after PASS] [--fusion] [--memory] "
    "[--strategies] [--dot FILE]\n"
    "  aotc opt MODEL [--passes P,...] [-o FILE] [--strict-fp] "
    "[--print-ir-after-all] [--pass-timing]\n"
    "  aotc eval MODEL [--input NAME=FILE]... [--random-inputs SEED] "
    "[--output-dir DIR]\n"
    "  aotc compile MODEL -o DIR [--name N] [--namespace NS] "
    "[--target-triple T] [--cpu C] [--features F] [-O0..3|-Os|-Oz] "
    "[--reloc pic|static] [--emit obj,header,json,llvm,asm]\n"
    "      [--constants-section NAME] [--cache-kib L1,L2] "
    "[--compile-threads N] [--no-fusion] [--disable-pass P,...] "
    "[--strict-fp] "
    "[--print-ir-after-all] [--pass-timing]\n"
    "      [--composite-kernel NAME=SYMBOL]... [--profile]\n"
    "  aotc run MODEL [--input NAME=FILE]... [--random-inputs SEED] "
    "[--output-dir DIR] [--check] [--expect FILE]... [--bench N]\n"
    "      [--threads N] [--library FILE]... "
    "[--composite-kernel NAME=SYMBOL]... [--profile]\n"
    "  aotc conform FILE|DIR... [--evaluator] [--jobs N] "
    "[--timeout SECONDS]\n\n"
    "Run 'aotc <subcommand> --help' for a subcommand's options.\n";

// -O0..-O3 into LLVM's optimization level; with `allow_size` (compile), -Os
// and -Oz are -O2 that also favours size. False after printing a usage
// error.
bool ParseOptLevel(bool allow_size, int* level, int* size_level) {
  const std::string& o = opt_level;
  *level = 2;
  *size_level = 0;
  if (o.size() == 1 && o[0] >= '0' && o[0] <= '3') {
    *level = o[0] - '0';
    return true;
  }
  if (allow_size && (o == "s" || o == "z")) {
    *size_level = o == "s" ? 1 : 2;
    return true;
  }
  std::fprintf(stderr, allow_size
                           ? "aotc: error: -O must be 0, 1, 2, 3, s or z\n"
                           : "aotc: error: -O must be 0, 1, 2 or 3\n");
  return false;
}

int DispatchInspect() {
  aotc::InspectOptions options;
  options.model = inspect_model;
  options.passes = PassFlagsFromCommandLine();
  options.after = inspect_after;
  options.fusion = inspect_fusion;
  options.memory = inspect_memory;
  options.strategies = inspect_strategies;
  options.dot = inspect_dot;
  return aotc::RunInspect(options);
}

int DispatchOpt() {
  aotc::OptOptions options;
  options.model = opt_model;
  options.passes = PassFlagsFromCommandLine();
  options.passes.passes.assign(opt_passes.begin(), opt_passes.end());
  options.output = opt_output;
  return aotc::RunOpt(options);
}

int DispatchEval() {
  aotc::EvalOptions options;
  options.model = eval_positional[0];
  options.inputs.positional.assign(eval_positional.begin() + 1,
                                   eval_positional.end());
  options.inputs.named.assign(eval_inputs.begin(), eval_inputs.end());
  if (eval_random.getNumOccurrences() > 0) {
    options.inputs.random_seed = eval_random.getValue();
  }
  options.output_dir = eval_output_dir;
  if (eval_max_work < 0) {
    std::fprintf(stderr, "aotc: error: --max-work must not be negative\n");
    return 2;
  }
  options.max_work = eval_max_work;
  return aotc::RunEval(options);
}

int DispatchCompile() {
  aotc::CompileCommandOptions options;
  if (!ParseOptLevel(/*allow_size=*/true, &options.codegen.opt_level,
                     &options.codegen.size_level)) {
    return 2;
  }
  options.model = compile_model;
  options.output_dir = compile_output;
  options.emit = compile_emit;
  options.codegen.name = compile_name;
  options.codegen.cpp_namespace = compile_namespace;
  options.codegen.target_triple = compile_triple;
  options.codegen.cpu = compile_cpu;
  options.codegen.features = compile_features;
  if (compile_reloc != "pic" && compile_reloc != "static") {
    std::fprintf(stderr,
                 "aotc: error: --reloc must be 'pic' or 'static', got '%s'\n",
                 compile_reloc.c_str());
    return 2;
  }
  options.codegen.pic = compile_reloc == "pic";
  options.codegen.constants_section = compile_constants_section;
  options.codegen.strict_fp = strict_fp;
  options.codegen.profile = profile;
  if (compile_threads < 0 || compile_threads > 1024 ||
      compile_partitions < 0 || compile_partitions > 16) {
    std::fprintf(stderr, "aotc: error: --compile-threads must be 0..1024 "
                         "and --compile-partitions 0..16\n");
    return 2;
  }
  options.codegen.compile_threads = compile_threads;
  options.codegen.partitions = compile_partitions;
  if (!CacheBytes(&options.codegen.l1_cache_bytes,
                  &options.codegen.l2_cache_bytes)) {
    return 2;
  }
  options.passes = PassFlagsFromCommandLine();
  return aotc::RunCompile(options);
}

int DispatchRun() {
  aotc::RunCommandOptions options;
  int size_level = 0;
  if (!ParseOptLevel(/*allow_size=*/false, &options.opt_level, &size_level)) {
    return 2;
  }
  options.model = run_positional[0];
  options.inputs.positional.assign(run_positional.begin() + 1,
                                   run_positional.end());
  options.inputs.named.assign(run_inputs.begin(), run_inputs.end());
  if (run_random.getNumOccurrences() > 0) {
    options.inputs.random_seed = run_random.getValue();
  }
  options.output_dir = run_output_dir;
  options.libraries.assign(run_libraries.begin(), run_libraries.end());
  options.check = run_check;
  options.expect.assign(run_expect.begin(), run_expect.end());
  if (run_threads < 1 || run_threads > 1024) {
    std::fprintf(stderr, "aotc: error: --threads must be 1..1024\n");
    return 2;
  }
  options.threads = static_cast<int>(run_threads);
  if (run_bench < 0 || run_max_work < 0) {
    std::fprintf(stderr,
                 "aotc: error: --bench and --max-work must not be negative\n");
    return 2;
  }
  options.bench = run_bench;
  options.profile = profile;
  options.max_work = run_max_work;
  if (!CacheBytes(&options.l1_cache_bytes, &options.l2_cache_bytes)) return 2;
  options.passes = PassFlagsFromCommandLine();
  return aotc::RunRun(options);
}

int DispatchConform() {
  aotc::ConformOptions options;
  options.files.assign(conform_files.begin(), conform_files.end());
  options.evaluator = conform_evaluator;
  if (conform_jobs < 0 || conform_jobs > 1024 || conform_timeout < 0) {
    std::fprintf(stderr, "aotc: error: --jobs must be 0..1024 and --timeout "
                         "not negative\n");
    return 2;
  }
  options.jobs = conform_jobs > 0
                     ? static_cast<int>(conform_jobs)
                     : std::max(1, static_cast<int>(
                                       std::thread::hardware_concurrency()));
  options.timeout_seconds = conform_timeout;
  return aotc::RunConform(options);
}

// The subcommands, each with the function that runs it once its flags are
// parsed.
struct Subcommand {
  cl::SubCommand* command;
  int (*dispatch)();
};
const Subcommand kSubcommands[] = {
    {&inspect_cmd, DispatchInspect}, {&opt_cmd, DispatchOpt},
    {&eval_cmd, DispatchEval},       {&compile_cmd, DispatchCompile},
    {&run_cmd, DispatchRun},         {&conform_cmd, DispatchConform},
};

// Parses the command line; false after printing a usage error.
bool ParseCommandLine(int argc, char** argv) {
  cl::HideUnrelatedOptions(aotc_category);
  for (const Subcommand& s : kSubcommands) {
    cl::HideUnrelatedOptions(aotc_category, *s.command);
  }
  cl::SetVersionPrinter(PrintVersion);
  std::string errors;
  llvm::raw_string_ostream errs(errors);
  if (!cl::ParseCommandLineOptions(argc, argv, kOverview, &errs)) {
    errs.flush();
    std::fprintf(stderr, "%s", errors.c_str());
    return false;
  }
  aotc::CompositeKernelMap kernels;
  for (const std::string& k : composite_kernel) {
    if (absl::Status st = aotc::AddCompositeKernel(k, &kernels); !st.ok()) {
      std::fprintf(stderr, "aotc: error: %s\n",
                   std::string(st.message()).c_str());
      return false;
    }
  }
  if (max_buffer_bytes <= 0) {
    std::fprintf(stderr, "aotc: error: --max-buffer-bytes must be positive\n");
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // LLVM's report_fatal_error would abort the process with "LLVM ERROR".
  aotc::codegen::InstallFatalErrorHandler();
  if (!ParseCommandLine(argc, argv)) return 2;
  aotc::SetMaxBufferBytes(max_buffer_bytes);
  for (const Subcommand& s : kSubcommands) {
    if (*s.command) return s.dispatch();
  }
  std::fprintf(stderr,
               "aotc: error: no subcommand given; use 'aotc inspect', "
               "'aotc opt', 'aotc eval', 'aotc compile', 'aotc run', "
               "'aotc conform', or 'aotc --help'\n");
  return 2;
}
