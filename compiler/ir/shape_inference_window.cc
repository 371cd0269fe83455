// Shape inference for windowed reductions: reduce-window (variadic) and
// select-and-scatter.
//
// A window has one WindowDim per operand dimension; each output dimension is
// WindowedOutputSize of the input dimension (base dilation, padding, window
// dilation, stride).
#include "compiler/ir/shape_inference_internal.h"
#include "compiler/support/status_macros.h"

namespace aotc::shape_internal {
namespace {

absl::StatusOr<std::vector<int64_t>> WindowedDims(const Instruction& inst,
                                                  const Shape& operand) {
  const std::vector<WindowDim>& window = inst.window();
  if (static_cast<int>(window.size()) != operand.rank()) {
    return ShapeError(OpName(inst), " has a window of rank ", window.size(),
                      " for operand rank ", operand.rank());
  }
  std::vector<int64_t> dims(window.size());
  for (int i = 0; i < operand.rank(); ++i) {
    ASSIGN_OR_RETURN(dims[i],
                     WindowedOutputSize(operand.dimensions(i), window[i], i));
  }
  return dims;
}

}  // namespace

absl::StatusOr<Shape> InferReduceWindowShape(const Instruction& inst) {
  int count = inst.operand_count();
  if (count < 2 || count % 2 != 0) {
    return ShapeError(
        "reduce-window needs 2N operands (N inputs, N init "
        "values), got ",
        count);
  }
  int n = count / 2;
  ASSIGN_OR_RETURN(const Shape* first, ArrayOperand(inst, 0));
  std::vector<PrimitiveType> init_types;
  std::vector<PrimitiveType> input_types;
  for (int i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(const Shape* input, ArrayOperand(inst, i));
    if (!input->SameDimensions(*first)) {
      return ShapeError("operand ", i, " has shape ", ShapeText(*input),
                        ", expected dimensions ",
                        DimsText(first->dimensions()));
    }
    ASSIGN_OR_RETURN(const Shape* init, ScalarOperand(inst, n + i));
    input_types.push_back(input->element_type());
    init_types.push_back(init->element_type());
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, WindowedDims(inst, *first));
  return ReducerResultShape(inst, init_types, input_types, dims);
}

absl::StatusOr<Shape> InferSelectAndScatterShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  ASSIGN_OR_RETURN(const Shape* init, ScalarOperand(inst, 2));
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, WindowedDims(inst, *operand));
  Shape expected_source = Shape::Array(init->element_type(), dims);
  if (!inst.operand(1)->shape().Compatible(expected_source)) {
    return ShapeError("operand 1 has shape ",
                      ShapeText(inst.operand(1)->shape()), ", expected ",
                      ShapeText(expected_source));
  }
  RETURN_IF_ERROR(ExpectCalledComputations(inst));
  PrimitiveType t = operand->element_type();
  PrimitiveType s = init->element_type();
  RETURN_IF_ERROR(CheckScalarSignature(*inst.called_computations()[0], "select",
                                       {t, t}, {PrimitiveType::kPred}));
  RETURN_IF_ERROR(CheckScalarSignature(*inst.called_computations()[1],
                                       "scatter", {s, s}, {s}));
  return Shape::Array(t, operand->dimensions());
}

}  // namespace aotc::shape_internal
