// Reduction splitting: a reduction of many elements into few results is
// rewritten as a reduction into partial results along its outermost
// reduced dimension, followed by a small reduction of the partials, so that
// the large part can run in parallel over the partials (code generation
// spreads loops over many elements of work across threads) and each
// partial is a short, vectorizable sum.
//
//   reduce(x[4096,4096], dims={0,1})  ->  reduce(reduce(x, dims={1}), dims={0})
//
// This changes the order of the reduction, so it only applies where that
// order does not matter or may be changed: integer add and multiply (exact,
// wrapping), and f32/f64 add and multiply unless strict floating point is
// asked for; the reducer must be the one add or multiply of its two
// parameters. The init value must be the reducer's identity (0 for add, 1
// for multiply), since both reductions start from it.
#ifndef AOTC_COMPILER_PASSES_REDUCTION_SPLITTING_H_
#define AOTC_COMPILER_PASSES_REDUCTION_SPLITTING_H_

#include <cstdint>

#include "compiler/passes/pass.h"

namespace aotc {

class ReductionSplitting : public Pass {
 public:
  explicit ReductionSplitting(bool strict_fp) : strict_fp_(strict_fp) {}
  std::string_view name() const override { return "reduction-splitting"; }
  absl::StatusOr<bool> Run(Module& module) override;

  // Reductions with fewer results than this and at least kMinInput
  // elements in are split.
  static constexpr int64_t kMaxOutput = 1024;
  static constexpr int64_t kMinInput = int64_t{1} << 16;

 private:
  bool strict_fp_;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_REDUCTION_SPLITTING_H_
