// The `aotc` command line: `aotc inspect`, `aotc eval`.
//
// Flags are parsed with llvm::cl subcommands; each subcommand's work lives in
// its own *_command.cc. Exit codes: 0 success, 1 error in the input, 2 usage.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "tools/commands.h"

namespace cl = llvm::cl;

namespace {

cl::OptionCategory aotc_category("aotc options");

cl::SubCommand inspect_cmd("inspect",
                           "Parse and verify a model; print it and a summary");
cl::SubCommand eval_cmd(
    "eval", "Run a model with the reference evaluator (the correctness oracle)");

cl::opt<std::string> inspect_model(cl::Positional, cl::Required,
                                   cl::desc("<model: HLO text or HloModuleProto>"),
                                   cl::sub(inspect_cmd), cl::cat(aotc_category));

cl::list<std::string> eval_positional(
    cl::Positional, cl::OneOrMore,
    cl::desc("<model> [input.npy ...] (inputs bind to parameters 0, 1, ...)"),
    cl::sub(eval_cmd), cl::cat(aotc_category));
cl::list<std::string> eval_inputs(
    "input", cl::value_desc("NAME=FILE"),
    cl::desc("Input for the parameter with that instruction name or number "
             "(.npy); may repeat"),
    cl::sub(eval_cmd), cl::cat(aotc_category));
cl::opt<uint64_t> eval_random(
    "random-inputs", cl::value_desc("SEED"),
    cl::desc("Seeded random values for every parameter without an input"),
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

void PrintVersion(llvm::raw_ostream& os) {
  os << "aotc " << AOTC_VERSION << " (LLVM " << LLVM_VERSION_STRING << ")\n";
}

}  // namespace

int main(int argc, char** argv) {
  cl::HideUnrelatedOptions(aotc_category);
  cl::HideUnrelatedOptions(aotc_category, inspect_cmd);
  cl::HideUnrelatedOptions(aotc_category, eval_cmd);
  cl::SetVersionPrinter(PrintVersion);
  std::string errors;
  llvm::raw_string_ostream errs(errors);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "aotc: ahead-of-time compiler for XLA HLO models\n\n"
          "  aotc inspect MODEL\n"
          "  aotc eval MODEL [--input NAME=FILE]... [--random-inputs SEED] "
          "[--output-dir DIR]\n\n"
          "Run 'aotc <subcommand> --help' for a subcommand's options.\n",
          &errs)) {
    errs.flush();
    std::fprintf(stderr, "%s", errors.c_str());
    return 2;
  }
  if (inspect_cmd) return aotc::RunInspect({inspect_model});
  if (eval_cmd) {
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
  std::fprintf(stderr,
               "aotc: error: no subcommand given; use 'aotc inspect', "
               "'aotc eval', or 'aotc --help'\n");
  return 2;
}
