// The optimization pipeline aotc runs between the front end and code
// generation: simplification, fusion, and clean-up, with the switches the
// command line exposes (--no-fusion, --disable-pass, --print-ir-after-all,
// --pass-timing), and any list of its passes by name (aotc opt --passes).
//
// pipelines.cc holds the one registry of passes: the full pipeline is that
// registry in order, and a named list picks from it, so a pass's name is
// written once, in its class's name().
#ifndef AOTC_COMPILER_PASSES_PIPELINES_H_
#define AOTC_COMPILER_PASSES_PIPELINES_H_

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/passes/composite_kernels.h"
#include "compiler/passes/pass_pipeline.h"

namespace aotc {

struct OptimizeOptions {
  // The passes to run, by name, in this order (a name may repeat); empty:
  // the whole pipeline, in its order.
  std::vector<std::string> passes;
  bool fusion = true;  // false: the unfused pipeline (--no-fusion)
  // Keep float reductions in sequential order (--strict-fp): no splitting.
  bool strict_fp = false;
  // Passes not to run, by name (--disable-pass); each must be a pass of the
  // pipeline.
  std::set<std::string> disabled;
  // The verifier after every pass (cheap next to code generation).
  bool verify_after_each = true;
  // Composites bound to C functions (--composite-kernel NAME=SYMBOL): when
  // not empty, the composite-kernels pass runs before all others
  // (composite_kernels.h), whatever `passes` says.
  CompositeKernelMap composite_kernels;
  // Told each bound name that no composite of the module has (a warning);
  // null: not told.
  std::function<void(const std::string& name)> unbound_composite;
  // Called after every pass that ran (--print-ir-after-all, inspect --after).
  std::function<void(std::string_view pass, bool changed, const Module&)>
      after_pass;
};

// The names of the pipeline's passes, in the order they run.
std::vector<std::string> OptimizationPassNames();

// OK when `name` is a pass of the optimization pipeline; else a usage error
// (InvalidArgument "unknown pass 'x' (passes: ...)").
absl::Status CheckPassName(std::string_view name);

// A pipeline of the named passes, in the given order (empty: the whole
// pipeline); `strict_fp` as in OptimizeOptions. A name that is no pass is
// CheckPassName's error.
absl::StatusOr<PassPipeline> BuildPassPipeline(
    const std::vector<std::string>& names, bool strict_fp);

// Runs the pipeline (or options.passes) on a verified module; returns each
// pass's timing. A name in options.passes or options.disabled that is no
// pass is a usage error (InvalidArgument).
absl::StatusOr<std::vector<PassTiming>> OptimizeModule(
    Module& module, const OptimizeOptions& options);

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_PIPELINES_H_
