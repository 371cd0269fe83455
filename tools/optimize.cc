// The optimization pipeline as the subcommands run it: flags in, reports
// on stderr, exit codes out.
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "codegen/header/c_names.h"
#include "compiler/support/strings.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/pipelines.h"
#include "tools/commands.h"

namespace aotc {

absl::Status AddCompositeKernel(std::string_view flag,
                                CompositeKernelMap* kernels) {
  const size_t eq = flag.rfind('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == flag.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--composite-kernel '", Sv(flag),
        "': expected NAME=SYMBOL (a composite's name and a C function)"));
  }
  const std::string name(flag.substr(0, eq));
  const std::string symbol(flag.substr(eq + 1));
  if (!codegen::IsValidCIdentifier(symbol) || symbol.starts_with("aotc_")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--composite-kernel '", Sv(flag), "': '", symbol,
        "' is not a C identifier an external function can have (letters, "
        "digits and '_', not a keyword, not starting with a digit or "
        "'aotc_')"));
  }
  auto [it, inserted] = kernels->emplace(name, symbol);
  if (!inserted && it->second != symbol) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--composite-kernel '", Sv(flag), "': composite '", name,
        "' is already bound to '", it->second, "'"));
  }
  return absl::OkStatus();
}

int OptimizeForCodegen(Module& module, const PassFlags& flags) {
  OptimizeOptions options;
  options.composite_kernels = flags.composite_kernels;
  options.unbound_composite = [&](const std::string& name) {
    std::fprintf(stderr,
                 "aotc: warning: --composite-kernel %s=%s: the module has no "
                 "composite named '%s'\n",
                 name.c_str(), flags.composite_kernels.at(name).c_str(),
                 name.c_str());
  };
  options.passes = flags.passes;
  options.fusion = !flags.no_fusion;
  options.strict_fp = flags.strict_fp;
  options.disabled.insert(flags.disabled.begin(), flags.disabled.end());
  if (flags.print_ir_after_all) {
    options.after_pass = [](std::string_view pass, bool changed,
                            const Module& m) {
      std::fprintf(stderr, "// ----- after %.*s (%s) -----\n%s\n",
                   static_cast<int>(pass.size()), pass.data(),
                   changed ? "changed" : "unchanged", PrintModule(m).c_str());
    };
  }
  absl::StatusOr<std::vector<PassTiming>> timings =
      OptimizeModule(module, options);
  if (!timings.ok()) {
    if (absl::IsInvalidArgument(timings.status())) {
      std::fprintf(stderr, "aotc: error: --disable-pass: %s\n",
                   std::string(timings.status().message()).c_str());
      return 2;
    }
    return ReportError(timings.status());
  }
  if (flags.pass_timing) {
    double total = 0;
    for (const PassTiming& t : *timings) total += t.seconds;
    std::fprintf(stderr, "pass timing (total %.3f ms):\n", total * 1e3);
    for (const PassTiming& t : *timings) {
      std::fprintf(stderr, "  %-20s %9.3f ms%s\n", t.pass.c_str(),
                   t.seconds * 1e3, t.changed ? "  changed" : "");
    }
  }
  return 0;
}

}  // namespace aotc
