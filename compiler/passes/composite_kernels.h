// CompositeKernels ("composite-kernels"): composites bound to the user's own
// C functions (`--composite-kernel NAME=SYMBOL`).
//
// Every composite call (compiler/analysis/composite.h) whose name the map
// binds becomes a custom-call of the bound symbol, which code generation
// turns into a call of the external C function of that name
// (codegen/strategies/external_call.h):
//
//   int SYMBOL(void* const* outputs, const void* const* inputs,
//              const char* opaque, size_t opaque_len);
//
// inputs are the composite's operands, outputs its result's leaves, and
// opaque is CompositeKernelOpaque: the composite's attributes as written,
// then ";version=N". The custom-call keeps the composite's
// frontend_attributes, so the printed module still says which composite it
// was; the decomposition is no longer called (dce drops it). Composites the
// map does not name are left as calls, for the inliner.
//
// Runs before every other pass, when the map is not empty: the inliner
// would otherwise dissolve the composites it binds. Works in every
// computation, loop bodies and decompositions of other composites included.
#ifndef AOTC_COMPILER_PASSES_COMPOSITE_KERNELS_H_
#define AOTC_COMPILER_PASSES_COMPOSITE_KERNELS_H_

#include <map>
#include <string>
#include <vector>

#include "compiler/analysis/composite.h"
#include "compiler/passes/pass.h"

namespace aotc {

// Composite name -> C symbol.
using CompositeKernelMap = std::map<std::string, std::string>;

// The opaque string the bound kernel receives: `{...};version=N`.
std::string CompositeKernelOpaque(const CompositeInfo& composite);

class CompositeKernels : public Pass {
 public:
  explicit CompositeKernels(CompositeKernelMap kernels)
      : kernels_(std::move(kernels)) {}
  std::string_view name() const override { return "composite-kernels"; }
  absl::StatusOr<bool> Run(Module& module) override;

  // The names of the map that no composite of the last Run had, in order.
  const std::vector<std::string>& unbound() const { return unbound_; }

 private:
  CompositeKernelMap kernels_;
  std::vector<std::string> unbound_;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_COMPOSITE_KERNELS_H_
