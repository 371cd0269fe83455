// The `attention` codegen strategy: a kCustom fusion that the
// attention-fusion pass made around softmax(scale * Q K^T [causal]) V
// (compiler/analysis/attention_pattern.h), computed block by block with an
// online softmax, so the scores never exist beyond one block of them.
//
// A unit of the parallel loop is one batch index (all batch roles
// flattened) and a range of blocks of query rows (all row roles
// flattened); it has a scratch slot of its own, for
//   K^T packed once per unit in f32 (panels of the microkernel's width of
//   keys, each head x width contiguous; keys padded to the key block with
//   zeros), V packed once in f32 (keys x value head, padded)
//   unless V is f32 with its value dimension contiguous and a whole number
//   of panels, then read in place; and per block of R query rows: Q's rows
//   (in place when f32 with the head dimension contiguous, else packed), a
//   block of scores S (R x Bk), the running max m and sum l per row, and
//   the accumulators O (R x value head).
// For each block of Bk keys (up to the last one a causal block can see):
//   S = Q K^T on the GEMM microkernel, then per row, in vectors: scale,
//   mask (keys past the end, and for a causal mask keys after the row's
//   position), the block's max, m' = max(m, max), P = exp(S - m'), the
//   correction c = exp(m - m'), l = l c + sum P, O = O c; then O += P V on
//   the microkernel. The rows' results are O / l, rounded to the output's
//   type.
// Everything computes in f32 (bf16 and f16 operands are widened when
// packed). The sums run in another order than the decomposition's (by key
// block, with rescaling), which the oracle's dot budgets cover
// (docs/codegen.md#attention).
#ifndef AOTC_CODEGEN_STRATEGIES_ATTENTION_H_
#define AOTC_CODEGEN_STRATEGIES_ATTENTION_H_

#include <optional>

#include "codegen/strategy.h"

namespace aotc::codegen {

std::optional<StrategyPlan> PlanAttention(const Instruction& inst,
                                          const TargetInfo& target);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_ATTENTION_H_
