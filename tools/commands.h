// The subcommands of the `aotc` tool. Each returns the process exit code:
// 0 success, 1 an error in the input (reported on stderr), 2 a usage error.
#ifndef AOTC_TOOLS_COMMANDS_H_
#define AOTC_TOOLS_COMMANDS_H_

#include <string>

#include "tools/inputs.h"

namespace aotc {

struct InspectOptions {
  std::string model;
};
int RunInspect(const InspectOptions& options);

struct EvalOptions {
  std::string model;
  InputOptions inputs;
  std::string output_dir;  // empty: print results only
  int64_t max_work = 0;    // EvaluateOptions::max_work; 0: no limit
};
int RunEval(const EvalOptions& options);

// One-line summary of a module: instruction and computation counts, entry
// parameters with shapes, result shape, bytes of constants.
class Module;
std::string ModuleSummary(const Module& module);

}  // namespace aotc

#endif  // AOTC_TOOLS_COMMANDS_H_
