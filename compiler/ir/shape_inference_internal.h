// Pieces shared by the shape-inference files, one file per opcode family:
//   shape_inference.cc             dispatch, tuples, leaves (parameter...)
//   shape_inference_elementwise.cc unary, binary, ternary, conversions
//   shape_inference_movement.cc    broadcast, reshape, slice, pad, ...
//   shape_inference_gather.cc      gather, scatter
//   shape_inference_contraction.cc dot, convolution
//   shape_inference_window.cc      reduce-window, select-and-scatter
//   shape_inference_calls.cc       call, fusion, while, conditional, map,
//                                  reduce, sort
//   shape_inference_linalg.cc      fft, triangular-solve, cholesky
// Every function returns an unlocated message; InferShape's caller adds the
// location. None of them trusts attributes: indices are range-checked before
// use and sizes are computed with overflow checks.
#ifndef AOTC_COMPILER_IR_SHAPE_INFERENCE_INTERNAL_H_
#define AOTC_COMPILER_IR_SHAPE_INFERENCE_INTERNAL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/shape.h"
#include "compiler/support/strings.h"

namespace aotc::shape_internal {

// A shape as messages print it: "f32[2,3]", "(f32[], s32[4])", no layout.
std::string ShapeText(const Shape& shape);
// A dimension list as messages print it: "{0,1}".
std::string DimsText(absl::Span<const int64_t> dims);
// The operation's text name, for messages ("reduce-window").
absl::string_view OpName(const Instruction& inst);

// An InvalidArgument status whose message is the concatenation of `args`.
template <typename... Args>
absl::Status ShapeError(const Args&... args) {
  return absl::InvalidArgumentError(absl::StrCat(args...));
}

// Checks that `inst` has exactly `n` operands.
absl::Status ExpectOperandCount(const Instruction& inst, int n);
// Operand i, which must be an array ("operand 1 has shape (f32[]), expected
// an array"). i must be a valid operand index.
absl::StatusOr<const Shape*> ArrayOperand(const Instruction& inst, int i);
// Operand i, which must be a scalar of any element type.
absl::StatusOr<const Shape*> ScalarOperand(const Instruction& inst, int i);

// Element count of `dims`, or an error when it overflows int64 or a
// dimension is negative.
absl::StatusOr<int64_t> CheckedElementCount(absl::Span<const int64_t> dims);

// Checks that `dim` indexes a dimension of a rank-`rank` array; `what` names
// the attribute in the message ("reduce dimension").
absl::Status CheckDimensionIndex(int64_t dim, int rank, std::string_view what);
// Checks that every entry of `dims` indexes a dimension of a rank-`rank`
// array and that none repeats.
absl::Status CheckDistinctDimensions(absl::Span<const int64_t> dims, int rank,
                                     std::string_view what);
// Like CheckDistinctDimensions, and the entries must be increasing.
absl::Status CheckSortedDimensions(absl::Span<const int64_t> dims, int rank,
                                   std::string_view what);

// The declared element type of `inst` when its shape is an array, else
// `fallback`; used where the result element type is not implied by the
// operands (convert, dot, convolution...).
PrimitiveType DeclaredElementType(const Instruction& inst,
                                  PrimitiveType fallback);

// XLA accepts mixed floating-point precision in a few places (a reduction
// accumulating in f32 whose declared result is bf16, an f32 padding value for
// a bf16 pad). True when a and b are equal or both floating point.
bool SameTypeIgnoringFpPrecision(PrimitiveType a, PrimitiveType b);
// The element type of result `index` of `inst` (the array result, or tuple
// element `index`) when it differs from `computed` only in floating-point
// precision; else `computed`.
PrimitiveType FpPrecisionResultType(const Instruction& inst, int index,
                                    PrimitiveType computed);

// Checks that `inst` calls exactly `n` computations and that each exists and
// has a root.
absl::Status ExpectCalledComputations(const Instruction& inst, int n);
// The same with opcode.def's fixed count for the opcode.
absl::Status ExpectCalledComputations(const Instruction& inst);
// The declared parameters of `comp` ordered by number; an error when the
// numbers are not 0..n-1.
absl::StatusOr<std::vector<const Instruction*>> OrderedParameters(
    const Computation& comp);

// Checks the scalar signature of a reducer-like computation: parameter i has
// shape param_types[i][] and the root is a scalar of result_types[0] (one
// result) or a tuple of scalars of result_types (several). `role` names the
// computation in messages ("reducer", "comparator").
absl::Status CheckScalarSignature(const Computation& comp,
                                  std::string_view role,
                                  absl::Span<const PrimitiveType> param_types,
                                  absl::Span<const PrimitiveType> result_types);

// The result of reduce / reduce-window after checking the single reducer:
// parameters (init types..., input types...) returning the init types. One
// array of `dims` per init value (a tuple when there are several), each of
// the init's type up to floating-point precision (FpPrecisionResultType).
absl::StatusOr<Shape> ReducerResultShape(
    const Instruction& inst, const std::vector<PrimitiveType>& init_types,
    const std::vector<PrimitiveType>& input_types,
    const std::vector<int64_t>& dims);

// Output size of one window dimension applied to an input of size `input`
// (base dilation, padding, window dilation, stride), or an error naming
// window dimension `dim` when the attributes are out of range.
absl::StatusOr<int64_t> WindowedOutputSize(int64_t input, const WindowDim& w,
                                           int dim);

// Opcode-family entry points; each handles only the opcodes its file lists.
absl::StatusOr<Shape> InferElementwiseShape(const Instruction& inst);
absl::StatusOr<Shape> InferConversionShape(const Instruction& inst);
absl::StatusOr<Shape> InferBroadcastShape(const Instruction& inst);
absl::StatusOr<Shape> InferReshapeShape(const Instruction& inst);
absl::StatusOr<Shape> InferTransposeShape(const Instruction& inst);
absl::StatusOr<Shape> InferSliceShape(const Instruction& inst);
absl::StatusOr<Shape> InferConcatenateShape(const Instruction& inst);
absl::StatusOr<Shape> InferPadShape(const Instruction& inst);
absl::StatusOr<Shape> InferReverseShape(const Instruction& inst);
absl::StatusOr<Shape> InferIotaShape(const Instruction& inst);
absl::StatusOr<Shape> InferBitcastShape(const Instruction& inst);
absl::StatusOr<Shape> InferDynamicSliceShape(const Instruction& inst);
absl::StatusOr<Shape> InferDynamicUpdateSliceShape(const Instruction& inst);
absl::StatusOr<Shape> InferGatherShape(const Instruction& inst);
absl::StatusOr<Shape> InferScatterShape(const Instruction& inst);
absl::StatusOr<Shape> InferDotShape(const Instruction& inst);
absl::StatusOr<Shape> InferConvolutionShape(const Instruction& inst);
absl::StatusOr<Shape> InferReduceWindowShape(const Instruction& inst);
absl::StatusOr<Shape> InferSelectAndScatterShape(const Instruction& inst);
absl::StatusOr<Shape> InferCallShape(const Instruction& inst);
absl::StatusOr<Shape> InferWhileShape(const Instruction& inst);
absl::StatusOr<Shape> InferConditionalShape(const Instruction& inst);
absl::StatusOr<Shape> InferMapShape(const Instruction& inst);
absl::StatusOr<Shape> InferReduceShape(const Instruction& inst);
absl::StatusOr<Shape> InferSortShape(const Instruction& inst);
absl::StatusOr<Shape> InferFftShape(const Instruction& inst);
absl::StatusOr<Shape> InferTriangularSolveShape(const Instruction& inst);
absl::StatusOr<Shape> InferCholeskyShape(const Instruction& inst);

}  // namespace aotc::shape_internal

#endif  // AOTC_COMPILER_IR_SHAPE_INFERENCE_INTERNAL_H_
