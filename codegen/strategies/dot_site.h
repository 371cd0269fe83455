// The product at the heart of an instruction, for the strategies that
// compute products (row-dot, gemm, depthwise): a dot or convolution alone,
// or the one product of a fusion whose root reads it only through
// element-wise instructions (the epilogue: bias, activation, residual), and
// the emission of that epilogue for one element of the product.
#ifndef AOTC_CODEGEN_STRATEGIES_DOT_SITE_H_
#define AOTC_CODEGEN_STRATEGIES_DOT_SITE_H_

#include <optional>

#include "codegen/elemental/elemental_emitter.h"
#include "codegen/strategy.h"

namespace aotc::codegen {

// A dot (or convolution) computed by a product strategy: `inst` itself, or
// the one dot or convolution of the fusion `inst` when it reads two of the
// fusion's parameters and the
// root depends on the dot only through element-wise instructions of its
// dimensions (the epilogue: bias, activation, residual). `lhs` and `rhs`
// are the operands of `inst` holding the dot's operands.
struct DotSite {
  const Instruction* dot = nullptr;
  int lhs = 0;
  int rhs = 1;
};
std::optional<DotSite> MatchDotSite(const Instruction& inst);

// The value of `inst`'s output at index `at` (an index of the dot's
// dimensions) given the dot's element there, `sum`: `sum` itself for a
// plain dot, the fusion's root through its epilogue otherwise.
absl::StatusOr<llvm::Value*> EmitDotEpilogue(ElementalEmitter& emitter,
                                             const LoopArgs& args,
                                             const DotSite& site,
                                             llvm::Value* sum,
                                             const Index& at);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_DOT_SITE_H_
