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
//
// Weights stored W[K, N] (the depth major, columns contiguous; the down
// projection of a Gemma MLP) from kStreamMinDepthMajorBytes on:
//
//   prologue:  A as above, and C (M x N f32 sums) after it in scratch
//   for each block of 64 depths:
//     for each strip of a cache line of columns (the parallel loop):
//       for each tile of rows: acc = C (0 in the first block)
//         for k in the block: w = W[k, strip] widened, acc[r] += A[r, k] * w
//         C = acc
//   out[m, j] = epilogue(C[m, j])
//
// so a block's rows are read left to right a few pages at a time, with the
// next strip prefetched; each output adds its products in depth order (the
// evaluator's order, bit for bit under strict_fp).
#ifndef AOTC_CODEGEN_STRATEGIES_STREAM_DOT_H_
#define AOTC_CODEGEN_STRATEGIES_STREAM_DOT_H_

#include <cstdint>
#include <optional>

#include "codegen/backend/target_info.h"
#include "codegen/strategy.h"

namespace aotc::codegen {

inline constexpr int64_t kStreamMaxRows = 16;
inline constexpr int64_t kStreamColumns = 4;
// W[K, N] takes the stream-dot from this size on. Smaller weights stay in
// the caches, where the gemm's packing costs little and its vector
// epilogue wins (the stream-dot applies the epilogue one element at a
// time: a Dense layer of 16 x 256 x 128 with an exact GELU took 4x the
// gemm's time).
inline constexpr int64_t kStreamMinDepthMajorBytes = 1024 * 1024;

// The "stream-dot" strategy (strategy.h): a dot, or the one dot of a
// fusion with an element-wise epilogue (dot_site.h), without batch
// dimensions, whose rhs contracts its last dimension in the default
// layout (or its first, from kStreamMinDepthMajorBytes on, f32 ones from
// kGemmMinRows rows on), with at most
// kStreamMaxRows rows (lhs free elements); f32, bf16 or f16 operands and
// result.
std::optional<StrategyPlan> PlanStreamDot(const Instruction& inst,
                                          const TargetInfo& target);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_STREAM_DOT_H_
