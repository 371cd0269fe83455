// Shape inference for operations that call computations: call, fusion,
// while, conditional, map, reduce (variadic) and sort (variadic).
//
// Only the callee's parameter shapes and root shape are consulted, never its
// body, so inference does not recurse into callees (a call cycle cannot make
// it loop; the verifier reports cycles separately).
#include <algorithm>

#include "compiler/ir/shape_inference_internal.h"
#include "compiler/support/status_macros.h"

namespace aotc::shape_internal {
namespace {

// Checks that `comp` has exactly one parameter, of shape `expected`. `role`
// names the computation ("while body").
absl::Status CheckSingleParameter(const Computation& comp,
                                  std::string_view role,
                                  const Shape& expected) {
  ASSIGN_OR_RETURN(std::vector<const Instruction*> params,
                   OrderedParameters(comp));
  if (params.size() != 1) {
    return ShapeError(Sv(role), " '", comp.name(), "' has ", params.size(),
                      " parameters, expected 1");
  }
  if (!params[0]->shape().Compatible(expected)) {
    return ShapeError(Sv(role), " '", comp.name(), "' parameter 0 has shape ",
                      ShapeText(params[0]->shape()), ", expected ",
                      ShapeText(expected));
  }
  return absl::OkStatus();
}

// Checks that all array operands share the dimensions of operand 0 and
// returns their element types.
absl::StatusOr<std::vector<PrimitiveType>> SameDimensionOperands(
    const Instruction& inst, int count) {
  std::vector<PrimitiveType> types;
  ASSIGN_OR_RETURN(const Shape* first, ArrayOperand(inst, 0));
  for (int i = 0; i < count; ++i) {
    ASSIGN_OR_RETURN(const Shape* s, ArrayOperand(inst, i));
    if (!s->SameDimensions(*first)) {
      return ShapeError("operand ", i, " has shape ", ShapeText(*s),
                        ", expected dimensions ",
                        DimsText(first->dimensions()));
    }
    types.push_back(s->element_type());
  }
  return types;
}

}  // namespace

absl::StatusOr<Shape> InferCallShape(const Instruction& inst) {
  RETURN_IF_ERROR(ExpectCalledComputations(inst));
  const Computation& callee = *inst.called_computations()[0];
  ASSIGN_OR_RETURN(std::vector<const Instruction*> params,
                   OrderedParameters(callee));
  if (static_cast<int>(params.size()) != inst.operand_count()) {
    return ShapeError(OpName(inst), " passes ", inst.operand_count(),
                      " operands to '", callee.name(), "', which has ",
                      params.size(), " parameters");
  }
  for (int i = 0; i < inst.operand_count(); ++i) {
    const Shape& s = inst.operand(i)->shape();
    if (!s.Compatible(params[i]->shape())) {
      return ShapeError("operand ", i, " has shape ", ShapeText(s),
                        ", but parameter ", i, " of '", callee.name(),
                        "' has shape ", ShapeText(params[i]->shape()));
    }
  }
  return callee.root()->shape();
}

absl::StatusOr<Shape> InferWhileShape(const Instruction& inst) {
  RETURN_IF_ERROR(ExpectCalledComputations(inst));
  const Shape& state = inst.operand(0)->shape();
  const Computation& cond = *inst.called_computations()[0];
  const Computation& body = *inst.called_computations()[1];
  RETURN_IF_ERROR(CheckSingleParameter(cond, "while condition", state));
  Shape pred = Shape::Scalar(PrimitiveType::kPred);
  if (!cond.root()->shape().Compatible(pred)) {
    return ShapeError("while condition '", cond.name(), "' returns ",
                      ShapeText(cond.root()->shape()), ", expected pred[]");
  }
  RETURN_IF_ERROR(CheckSingleParameter(body, "while body", state));
  if (!body.root()->shape().Compatible(state)) {
    return ShapeError("while body '", body.name(), "' returns ",
                      ShapeText(body.root()->shape()),
                      ", expected the loop state shape ", ShapeText(state));
  }
  return state;
}

absl::StatusOr<Shape> InferConditionalShape(const Instruction& inst) {
  const std::vector<Computation*>& branches = inst.called_computations();
  int n = static_cast<int>(branches.size());
  if (n == 0) {
    return ShapeError("conditional needs at least one branch computation");
  }
  RETURN_IF_ERROR(ExpectCalledComputations(inst, n));
  if (inst.operand_count() != n + 1) {
    return ShapeError("conditional with ", n, " branches takes ", n + 1,
                      " operands, got ", inst.operand_count());
  }
  const Shape& index = inst.operand(0)->shape();
  bool is_pred = index.Compatible(Shape::Scalar(PrimitiveType::kPred));
  if (!(is_pred && n == 2) &&
      !index.Compatible(Shape::Scalar(PrimitiveType::kS32))) {
    return ShapeError(
        "operand 0 has shape ", ShapeText(index),
        n == 2 ? ", expected pred[] or s32[]" : ", expected s32[]");
  }
  for (int b = 0; b < n; ++b) {
    const Computation& branch = *branches[b];
    RETURN_IF_ERROR(CheckSingleParameter(branch, absl::StrCat("branch ", b),
                                         inst.operand(b + 1)->shape()));
    const Shape& result = branch.root()->shape();
    if (!result.Compatible(branches[0]->root()->shape())) {
      return ShapeError("branch ", b, " '", branch.name(), "' returns ",
                        ShapeText(result), ", but branch 0 '",
                        branches[0]->name(), "' returns ",
                        ShapeText(branches[0]->root()->shape()));
    }
  }
  return branches[0]->root()->shape();
}

absl::StatusOr<Shape> InferMapShape(const Instruction& inst) {
  if (inst.operand_count() == 0) return ShapeError("map needs an operand");
  ASSIGN_OR_RETURN(std::vector<PrimitiveType> types,
                   SameDimensionOperands(inst, inst.operand_count()));
  const Shape& first = inst.operand(0)->shape();
  const std::vector<int64_t>& dims = inst.dimensions();
  if (!dims.empty()) {
    bool identity = static_cast<int>(dims.size()) == first.rank();
    for (size_t i = 0; identity && i < dims.size(); ++i) {
      identity = dims[i] == static_cast<int64_t>(i);
    }
    if (!identity) {
      return ShapeError("map dimensions ", DimsText(dims),
                        " must list every operand dimension in order");
    }
  }
  RETURN_IF_ERROR(ExpectCalledComputations(inst));
  const Computation& callee = *inst.called_computations()[0];
  const Shape& root = callee.root()->shape();
  if (!root.IsScalar()) {
    return ShapeError("map computation '", callee.name(), "' returns ",
                      ShapeText(root), ", expected a scalar");
  }
  RETURN_IF_ERROR(CheckScalarSignature(callee, "map computation", types,
                                       {root.element_type()}));
  return Shape::Array(root.element_type(), first.dimensions());
}

absl::StatusOr<Shape> InferReduceShape(const Instruction& inst) {
  int count = inst.operand_count();
  if (count < 2 || count % 2 != 0) {
    return ShapeError(
        "reduce needs 2N operands (N inputs, N init values), "
        "got ",
        count);
  }
  int n = count / 2;
  ASSIGN_OR_RETURN(std::vector<PrimitiveType> input_types,
                   SameDimensionOperands(inst, n));
  std::vector<PrimitiveType> init_types;
  for (int i = n; i < count; ++i) {
    ASSIGN_OR_RETURN(const Shape* init, ScalarOperand(inst, i));
    init_types.push_back(init->element_type());
  }
  const Shape& input = inst.operand(0)->shape();
  const std::vector<int64_t>& reduced = inst.dimensions();
  RETURN_IF_ERROR(
      CheckDistinctDimensions(reduced, input.rank(), "reduce dimension"));
  std::vector<int64_t> dims;
  for (int i = 0; i < input.rank(); ++i) {
    if (std::find(reduced.begin(), reduced.end(), i) == reduced.end()) {
      dims.push_back(input.dimensions(i));
    }
  }
  return ReducerResultShape(inst, init_types, input_types, dims);
}

absl::StatusOr<Shape> InferSortShape(const Instruction& inst) {
  int n = inst.operand_count();
  if (n == 0) return ShapeError("sort needs an operand");
  ASSIGN_OR_RETURN(std::vector<PrimitiveType> types,
                   SameDimensionOperands(inst, n));
  const Shape& first = inst.operand(0)->shape();
  const std::vector<int64_t>& dims = inst.dimensions();
  if (dims.size() != 1) {
    return ShapeError("sort needs one dimension, got ", DimsText(dims));
  }
  RETURN_IF_ERROR(CheckDimensionIndex(dims[0], first.rank(), "sort dimension"));
  RETURN_IF_ERROR(ExpectCalledComputations(inst));
  std::vector<PrimitiveType> params;
  for (PrimitiveType t : types) {
    params.push_back(t);
    params.push_back(t);
  }
  RETURN_IF_ERROR(CheckScalarSignature(*inst.called_computations()[0],
                                       "comparator", params,
                                       {PrimitiveType::kPred}));
  if (n == 1) return Shape::Array(types[0], first.dimensions());
  std::vector<Shape> results;
  for (int i = 0; i < n; ++i) {
    results.push_back(Shape::Array(types[i], first.dimensions()));
  }
  return Shape::Tuple(std::move(results));
}

}  // namespace aotc::shape_internal
