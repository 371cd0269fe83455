// The `row-norm` codegen strategy: a kCustom fusion that the norm-fusion
// pass made around a row normalisation (compiler/analysis/norm_pattern.h:
// RMSNorm, LayerNorm, an L2 normalisation, with what comes before and after
// them element-wise), computed one row at a time:
//
//   for each row r:                                   (the parallel loop)
//     for each reduce, in order (a mean before the centred variance):
//       sum_k(r) = the reduce over the row, its operand computed at each
//                  element from the inputs and the sums before it
//     row values (the mean, rsqrt(var + eps), ...) computed once from them
//     for each element j of the row:
//       out[r, j] = the root computed from the inputs, the row values and
//                   the per-column vectors (scale, bias)
//
// Every value is computed by the fusion's own element generators, so the
// numbers are the decomposition's up to the order of each row's sums (as in
// any fused reduce). The row is read from memory once; its later passes
// read it from cache.
#ifndef AOTC_CODEGEN_STRATEGIES_ROW_NORM_H_
#define AOTC_CODEGEN_STRATEGIES_ROW_NORM_H_

#include <optional>

#include "codegen/strategy.h"

namespace aotc::codegen {

// The "row-norm" strategy (strategy.h): the loops above, parallel over the
// rows, for a kCustom fusion whose root is a row normalisation's.
std::optional<StrategyPlan> PlanRowNorm(const Instruction& inst);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_ROW_NORM_H_
