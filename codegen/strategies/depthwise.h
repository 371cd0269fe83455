// Depthwise convolutions (one input feature per group, as MobileNet-style
// blocks use) as vectorized loops, in two strategies by layout.
//
// "depthwise": NHWC (the features the most minor dimension), vectorized
// across the features:
//
//   for each output row (batch, first spatial coordinates), in parallel:
//     for each output position p along the innermost spatial dimension:
//       acc[0..C) = 0
//       for each kernel tap w (row-major) whose input position is inside:
//         for c: acc[c] += x[b, p * stride - pad + w * dilation, c] * k[w, c]
//       for c: out[b, p, c] = epilogue(acc[c])
//
// instead of one scalar sum per output element. With few taps (at most 49)
// and f32 or f64 operands in memory, the features go in blocks of four
// vectors whose sums stay in registers over every tap (the taps unrolled,
// each skipped where it falls outside), then one block of the whole
// vectors left; only the features past the last whole vector take the
// accumulators on the stack. Each acc[c] sums its taps in
// the evaluator's order (window positions row-major, one feature), product
// rounded then added, so the results are the evaluator's bit for bit; only
// the loop order changes, which makes the feature loop contiguous in the
// input, the kernel and the output.
//
// "depthwise-rows": feature-major layouts (NCHW as PyTorch exports them),
// vectorized along the output's most minor spatial dimension W:
//
//   for each output row (batch, feature, other spatial coordinates),
//   in parallel:
//     k[w] = kernel[w, feature] for every tap w
//     acc[0..W) = 0
//     border: for each tap w (row-major) whose positions off W are inside:
//       for the x in [lo(w), hi(w)) outside [X0, X1):
//         acc[x] += in[b, feature / multiplier, .., x * stride - pad +
//                      w_W * dilation] * k[w]
//     interior [X0, X1), a vector of V lanes at a time (up to 4 vectors
//     together; the last one, overlapping the one before, stored apart):
//       sum = 0; for each tap w inside off W: sum += in[.., x0 ..] * k[w]
//       acc[x0 .. x0 + V) = sum
//     for x: out[b, feature, .., x] = epilogue(acc[x])
//
// The taps that fall outside the input (padding, negative padding) are not
// tested per element: for a W tap the x whose input position is inside
// form the interval [lo(w), hi(w)), and [X0, X1) (known at compile time)
// is where every W tap is inside, so the vector loop reads only inside the
// input: one contiguous run per vector (every stride-th element kept) when
// W is also the input's most minor dimension. Each acc[x] again sums its taps in the evaluator's order,
// product rounded then added, f16/bf16 in float rounded once at the end:
// the evaluator's numbers bit for bit.
#ifndef AOTC_CODEGEN_STRATEGIES_DEPTHWISE_H_
#define AOTC_CODEGEN_STRATEGIES_DEPTHWISE_H_

#include <optional>

#include "codegen/strategy.h"

namespace aotc::codegen {

// The "depthwise" strategy (strategy.h): an f32, f64, f16 or bf16
// convolution (operands and result of one type; f16/bf16 summed in float
// and rounded once), alone or with an element-wise epilogue in a fusion
// (row_dot.h's DotSite), whose feature_group_count equals its input
// features (at least two) with one output feature per group,
// batch_group_count 1, no input dilation, and whose input and result hold
// the features in their most minor dimension; at most 16384 features (the
// accumulators live on the stack).
std::optional<StrategyPlan> PlanDepthwise(const Instruction& inst,
                                          const TargetInfo& target);

// The "depthwise-rows" strategy: a convolution like the above (alone or
// with an epilogue, batch_group_count 1, no input dilation, at least two
// input features with feature_group_count equal to them) with any number of
// output features per group (a channel multiplier), whose result has a
// spatial dimension as its most minor one, of at most 16384 elements, with
// at most 4096 kernel taps, and whose input and result are not empty; the same types. The vectors are as
// wide as the target's (none on targets without vectors).
std::optional<StrategyPlan> PlanDepthwiseRows(const Instruction& inst,
                                              const TargetInfo& target);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_DEPTHWISE_H_
