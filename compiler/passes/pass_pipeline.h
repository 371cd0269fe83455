// PassPipeline: an ordered list of passes run over a module, with the
// checks and reports that make passes debuggable: the verifier after every
// pass, a callback after every pass (--print-ir-after-all), per-pass timing,
// and passes switched off by name (--disable-pass, --no-fusion).
#ifndef AOTC_COMPILER_PASSES_PASS_PIPELINE_H_
#define AOTC_COMPILER_PASSES_PASS_PIPELINE_H_

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "compiler/passes/pass.h"

namespace aotc {

struct PassTiming {
  std::string pass;
  double seconds = 0;
  bool changed = false;
};

struct PipelineOptions {
  // Runs the verifier after every pass; a failure names the pass (a compiler
  // bug, reported as an internal error rather than a crash).
  bool verify_after_each = false;
  // Names of passes not to run.
  std::set<std::string> disabled;
  // Called after every pass that ran, with its name and whether it changed
  // the module.
  std::function<void(std::string_view pass, bool changed, const Module&)>
      after_pass;
};

class PassPipeline {
 public:
  explicit PassPipeline(std::string name) : name_(std::move(name)) {}

  template <typename P, typename... Args>
  P& AddPass(Args&&... args) {
    auto pass = std::make_unique<P>(std::forward<Args>(args)...);
    P& ref = *pass;
    passes_.push_back(std::move(pass));
    return ref;
  }
  void AddPass(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }

  // The names of the passes, in order.
  std::vector<std::string> PassNames() const;

  // Runs the passes in order; returns whether any changed the module.
  absl::StatusOr<bool> Run(Module& module, const PipelineOptions& options);

  // The time each pass took in the last Run.
  const std::vector<PassTiming>& timings() const { return timings_; }

 private:
  std::string name_;
  std::vector<std::unique_ptr<Pass>> passes_;
  std::vector<PassTiming> timings_;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_PASS_PIPELINE_H_
