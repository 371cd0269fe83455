// Products of a few rows with a weight matrix stored one output column per
// contiguous row, W[N, K] with the depth minor: the decode and short
// prefill products of language models (x[M, K] times Wᵀ for M <= 16, the
// logits against a tied embedding), where the gemm would pack, or the
// element loops re-read, the whole of W on every call. Emitted as
//
//   prologue:  A's M rows, widened to f32, into scratch (M x K)
//   for each group of kStreamColumns columns j (the parallel loop):
//     for each tile of up to mr rows of A:
//       acc[r][c] = 0                       (vectors of f32 lanes)
//       for k, a vector at a time:
//         w[c] = W[j + c, k..] widened     (f32, bf16 or f16 as stored)
//         acc[r][c] += A[r, k..] * w[c]    (fused multiply-add)
//       sum[r][c] = acc[r][c]'s lanes added pairwise, then the depths past
//                   the last whole vector one at a time
//       out[r, j + c] = epilogue(sum)       (bias, activation, residual)
//
// so W streams from memory once, in its stored type, over both threads;
// each vector of it serves a tile's rows from registers and later tiles
// from cache. Lane l sums the depths k = l mod lanes in increasing order,
// a different order from the evaluator's (within the dot bound of
// docs/math.md); with CompileOptions::strict_fp the vectors are one lane
// wide and each product is rounded before its add, the evaluator's numbers
// bit for bit.
#ifndef AOTC_CODEGEN_STRATEGIES_STREAM_DOT_H_
#define AOTC_CODEGEN_STRATEGIES_STREAM_DOT_H_

#include <cstdint>
#include <optional>

#include "codegen/backend/target_info.h"
#include "codegen/strategy.h"

namespace aotc::codegen {

inline constexpr int64_t kStreamMaxRows = 16;
inline constexpr int64_t kStreamColumns = 4;

// The "stream-dot" strategy (strategy.h): a dot, or the one dot of a
// fusion with an element-wise epilogue (dot_site.h), without batch
// dimensions, whose rhs contracts its last dimension in the default
// layout, with at most kStreamMaxRows rows (lhs free elements); f32, bf16
// or f16 operands and result.
std::optional<StrategyPlan> PlanStreamDot(const Instruction& inst,
                                          const TargetInfo& target);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_STREAM_DOT_H_
