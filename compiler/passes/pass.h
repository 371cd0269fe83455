// Pass: one transformation of a module, the unit the pass pipeline runs,
// times, prints after, and lets the user switch off by name.
//
// A pass leaves a verified module verified: definition order stays
// topological, every shape stays what shape inference says, and nothing the
// entry's signature depends on changes.
#ifndef AOTC_COMPILER_PASSES_PASS_H_
#define AOTC_COMPILER_PASSES_PASS_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "compiler/ir/module.h"

namespace aotc {

class Pass {
 public:
  virtual ~Pass() = default;
  // A short, stable, lower-case name ("dce", "fusion"): what
  // --disable-pass and --print-ir-after-all show.
  virtual std::string_view name() const = 0;
  // Transforms `module`; returns whether anything changed. An error means
  // the module is left unchanged or the input is one the pass cannot handle.
  virtual absl::StatusOr<bool> Run(Module& module) = 0;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_PASS_H_
