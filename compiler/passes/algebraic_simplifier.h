// AlgebraicSimplifier ("algsimp"): rewrites that remove work without
// changing any value, bit for bit.
//
// Rules (a "constant" is a constant or a broadcast of one, every element
// equal to the value named):
//   x * 1, 1 * x -> x           (not for complex: (a+bi)*1 is NaN for b=inf)
//   x + 0, 0 + x -> x           (integers; floats and complex need -0.0,
//                                since -0.0 + 0.0 is +0.0)
//   x - 0 -> x                  (floats: +0.0)
//   negate(negate(x)) -> x
//   reshape(reshape(x)) -> reshape(x); a reshape to x's own shape -> x
//   transpose(transpose(x)) -> one transpose with the composed permutation;
//     an identity transpose -> x
//   broadcast(broadcast(x)) -> one broadcast with the composed dimension
//     map; a broadcast mapping x's dimensions onto themselves -> x
//   convert to x's own type -> x
//   slice of all of x with stride 1 -> x
//   convolution(pad(x, +0), k) -> convolution(x, k) with the pad's edges
//     added to the window's padding (the window pads with zeros too), when
//     only spatial dimensions are padded, at the edges, by no negative
//     amount, and the base is not dilated
//   dot(transpose(x), y), dot(x, transpose(y)) -> the dot of x (y) itself,
//     its batch and contracting dimensions renumbered through the
//     permutation, when the operand's free dimensions keep their order (so
//     the result's order is the same); the products read any dimension
//     numbers, so no transpose is materialised for them
// A replacement is made only when the replacing value's shape equals the
// replaced one's exactly, layout included, so every user (and the root of
// every computation) keeps the shape it had; fusing two movement ops edits
// the outer one in place, keeping its shape. Parameters are never touched.
// Works in every computation, repeats until nothing changes (at most a fixed
// number of rounds), and removes the instructions its rewrites left unused.
#ifndef AOTC_COMPILER_PASSES_ALGEBRAIC_SIMPLIFIER_H_
#define AOTC_COMPILER_PASSES_ALGEBRAIC_SIMPLIFIER_H_

#include "compiler/passes/pass.h"

namespace aotc {

class AlgebraicSimplifier : public Pass {
 public:
  std::string_view name() const override { return "algsimp"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_PASSES_ALGEBRAIC_SIMPLIFIER_H_
