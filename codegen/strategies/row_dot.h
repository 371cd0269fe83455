// Row-wise matrix products: a dot of f32[M,K] x f32[K,N] (or f64), alone or
// at the heart of a kOutput fusion, emitted as
//
//   for i:                       (the parallel dimension)
//     acc[0..N) = 0
//     for k: a = lhs[i,k]; for j: acc[j] += a * rhs[k,j]    (vectorized on j)
//     for j: out[i,j] = epilogue(acc[j])                  (bias, activation)
//
// instead of one inner product per output element. Each acc[j] still sums
// its products in increasing k from zero, the evaluator's order, so the
// results are the same bit for bit; only the loop order changes, which
// turns strided column reads into contiguous row reads LLVM vectorizes.
#ifndef AOTC_CODEGEN_STRATEGIES_ROW_DOT_H_
#define AOTC_CODEGEN_STRATEGIES_ROW_DOT_H_

#include <optional>

#include "codegen/strategies/dot_site.h"
#include "codegen/strategy.h"

namespace aotc::codegen {

// The "row-dot" strategy (strategy.h): the loops above, parallel over the
// rows, when `inst` is a plain 2-D dot contracting lhs dimension 1 (or 0,
// a transposed lhs folded into the dot) with rhs dimension 0, or a fusion
// whose one dot reads two of the fusion's parameters and whose root depends
// on the dot only through element-wise instructions of its shape; f32 or
// f64; a row-major result whose row of accumulators fits in 64 KiB.
std::optional<StrategyPlan> PlanRowDot(const Instruction& inst);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_ROW_DOT_H_
