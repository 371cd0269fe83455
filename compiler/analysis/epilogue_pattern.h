// Names the epilogue of a product fusion (a dot or convolution with the
// element-wise instructions fused after it) the way exporters build it:
//
//   dot+bias+gelu_tanh, conv+scale+bias+residual+relu, dot+bias+silu, ...
//
// Walking up from the product, each add or multiply by a value that does
// not depend on it is a layer: `bias` (a broadcast along the product's
// feature dimension: the dot's last, the convolution's output feature),
// `scale` (a multiply by such a broadcast), `residual` (an add of anything
// else). The first value with several users, or the first other
// instruction, is the activation's input x; everything from x to the root
// must then depend on x and scalar constants only, through element-wise
// instructions, and is identified by evaluating it (with the reference
// evaluator, in f64) at sample points against the activations real models
// use:
// relu, relu6, gelu_erf (x * 0.5 * (1 + erf(x / sqrt 2))), gelu_tanh (with
// x*x*x or power(x, 3), and constants rounded to bf16 matched within 2e-3),
// sigmoid (logistic or 1 / (1 + exp(-x))), silu (x * sigmoid(x)) and tanh.
// Without the activation's own operation (erf, tanh, max...) the function
// must match within 1e-5: JAX writes erfc, and so the exact GELU, as
// polynomials chosen with compare and select.
// Anything else is named `epilogue`. The name is for people (`aotc inspect
// --fusion`): code generation computes every epilogue the same way, fused
// into the product's store.
#ifndef AOTC_COMPILER_ANALYSIS_EPILOGUE_PATTERN_H_
#define AOTC_COMPILER_ANALYSIS_EPILOGUE_PATTERN_H_

#include <string>

#include "compiler/ir/computation.h"

namespace aotc {

// The pattern of the fused computation `fused`, or "" when it holds no dot
// or convolution, or more than one.
std::string DescribeProductEpilogue(const Computation& fused);

}  // namespace aotc

#endif  // AOTC_COMPILER_ANALYSIS_EPILOGUE_PATTERN_H_
