// Depthwise convolutions (one input feature per group, as MobileNet-style
// blocks use), NHWC, as loops vectorized across the features:
//
//   for each output row (batch, first spatial coordinates), in parallel:
//     for each output position p along the innermost spatial dimension:
//       acc[0..C) = 0
//       for each kernel tap w (row-major) whose input position is inside:
//         for c: acc[c] += x[b, p * stride - pad + w * dilation, c] * k[w, c]
//       for c: out[b, p, c] = epilogue(acc[c])
//
// instead of one scalar sum per output element. Each acc[c] sums its taps in
// the evaluator's order (window positions row-major, one feature), product
// rounded then added, so the results are the evaluator's bit for bit; only
// the loop order changes, which makes the feature loop contiguous in the
// input, the kernel and the output.
#ifndef AOTC_CODEGEN_DEPTHWISE_EMITTER_H_
#define AOTC_CODEGEN_DEPTHWISE_EMITTER_H_

#include <optional>

#include "codegen/strategy.h"

namespace aotc::codegen {

// The "depthwise" strategy (strategy.h): an f32 or f64 convolution, alone
// or with an element-wise epilogue in a fusion (dot_emitter.h's DotSite),
// whose feature_group_count equals its input features with one output
// feature per group, batch_group_count 1, no input dilation, and whose
// input and result hold the features in their most minor dimension; at
// most 16384 features (the accumulators live on the stack).
std::optional<StrategyPlan> PlanDepthwise(const Instruction& inst);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_DEPTHWISE_EMITTER_H_
