// Runs passes in order with verification, callbacks and timing.
#include "compiler/passes/pass_pipeline.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "compiler/ir/verifier.h"
#include "compiler/support/strings.h"

namespace aotc {

std::vector<std::string> PassPipeline::PassNames() const {
  std::vector<std::string> names;
  for (const auto& p : passes_) names.emplace_back(p->name());
  return names;
}

absl::StatusOr<bool> PassPipeline::Run(Module& module,
                                       const PipelineOptions& options) {
  timings_.clear();
  bool changed_any = false;
  for (const auto& pass : passes_) {
    const std::string name(pass->name());
    if (options.disabled.count(name)) continue;
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<bool> changed = pass->Run(module);
    const auto end = std::chrono::steady_clock::now();
    if (!changed.ok()) return changed.status();
    timings_.push_back(
        {name, std::chrono::duration<double>(end - start).count(), *changed});
    changed_any = changed_any || *changed;
    if (options.verify_after_each) {
      absl::Status verified = VerifyModule(module);
      if (!verified.ok()) {
        return absl::InternalError(
            absl::StrCat("the module fails verification after pass '", name,
                         "' of pipeline '", name_, "' (a compiler bug):\n",
                         verified.message()));
      }
    }
    if (options.after_pass) options.after_pass(name, *changed, module);
  }
  return changed_any;
}

}  // namespace aotc
