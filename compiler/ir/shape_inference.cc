// Shape inference entry point: dispatch by opcode, the shared helpers of
// shape_inference_internal.h, and the opcodes whose result is a direct
// function of their operands (tuple, get-tuple-element, opt-barrier...).
//
// Opcodes whose result the IR does not determine (parameter, constant,
// custom-call, the collectives aotc never compiles) return the declared
// shape; the verifier checks what it can about them elsewhere.
#include "compiler/ir/shape_inference.h"

#include <algorithm>

#include "compiler/ir/shape_inference_internal.h"
#include "compiler/support/status_macros.h"

namespace aotc {
namespace shape_internal {

std::string ShapeText(const Shape& shape) { return shape.ToString(false); }

std::string DimsText(absl::Span<const int64_t> dims) {
  return absl::StrCat("{", absl::StrJoin(dims, ","), "}");
}

absl::string_view OpName(const Instruction& inst) {
  return Sv(OpcodeName(inst.opcode()));
}

absl::Status ExpectOperandCount(const Instruction& inst, int n) {
  if (inst.operand_count() == n) return absl::OkStatus();
  return ShapeError(OpName(inst), " takes ", n,
                    n == 1 ? " operand" : " operands", ", got ",
                    inst.operand_count());
}

absl::StatusOr<const Shape*> ArrayOperand(const Instruction& inst, int i) {
  const Shape& s = inst.operand(i)->shape();
  if (!s.IsArray()) {
    return ShapeError("operand ", i, " has shape ", ShapeText(s),
                      ", expected an array");
  }
  return &s;
}

absl::StatusOr<const Shape*> ScalarOperand(const Instruction& inst, int i) {
  const Shape& s = inst.operand(i)->shape();
  if (!s.IsScalar()) {
    return ShapeError("operand ", i, " has shape ", ShapeText(s),
                      ", expected a scalar");
  }
  return &s;
}

absl::StatusOr<int64_t> CheckedElementCount(absl::Span<const int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return ShapeError("negative dimension size ", d);
    if (!CheckedMul(n, d, &n)) {
      return ShapeError("dimensions ", DimsText(dims),
                        " have more elements than fit in 64 bits");
    }
  }
  return n;
}

absl::Status CheckDimensionIndex(int64_t dim, int rank, std::string_view what) {
  if (dim >= 0 && dim < rank) return absl::OkStatus();
  return ShapeError(Sv(what), " ", dim, " is out of range for rank ", rank);
}

absl::Status CheckDistinctDimensions(absl::Span<const int64_t> dims, int rank,
                                     std::string_view what) {
  std::vector<bool> seen(std::max(rank, 0), false);
  for (int64_t d : dims) {
    RETURN_IF_ERROR(CheckDimensionIndex(d, rank, what));
    if (seen[d]) {
      return ShapeError(Sv(what), "s ", DimsText(dims), " repeat dimension ",
                        d);
    }
    seen[d] = true;
  }
  return absl::OkStatus();
}

absl::Status CheckSortedDimensions(absl::Span<const int64_t> dims, int rank,
                                   std::string_view what) {
  RETURN_IF_ERROR(CheckDistinctDimensions(dims, rank, what));
  if (std::is_sorted(dims.begin(), dims.end())) return absl::OkStatus();
  return ShapeError(Sv(what), "s ", DimsText(dims), " are not sorted");
}

PrimitiveType DeclaredElementType(const Instruction& inst,
                                  PrimitiveType fallback) {
  return inst.shape().IsArray() ? inst.shape().element_type() : fallback;
}

bool SameTypeIgnoringFpPrecision(PrimitiveType a, PrimitiveType b) {
  return a == b || (IsFloat(a) && IsFloat(b));
}

PrimitiveType FpPrecisionResultType(const Instruction& inst, int index,
                                    PrimitiveType computed) {
  const Shape* declared = &inst.shape();
  if (declared->IsTuple()) {
    if (index >= declared->tuple_size()) return computed;
    declared = &declared->tuple_shapes(index);
  }
  if (!declared->IsArray() ||
      !SameTypeIgnoringFpPrecision(declared->element_type(), computed)) {
    return computed;
  }
  return declared->element_type();
}

absl::Status ExpectCalledComputations(const Instruction& inst, int n) {
  int got = static_cast<int>(inst.called_computations().size());
  if (got != n) {
    return ShapeError(OpName(inst), " calls ", got,
                      got == 1 ? " computation" : " computations",
                      ", expected ", n);
  }
  for (const Computation* c : inst.called_computations()) {
    if (c == nullptr)
      return ShapeError(OpName(inst), " calls a null computation");
    if (c->root() == nullptr) {
      return ShapeError("called computation '", c->name(),
                        "' has no root instruction");
    }
  }
  return absl::OkStatus();
}

absl::Status ExpectCalledComputations(const Instruction& inst) {
  const int n = OpcodeCalledComputationCount(inst.opcode());
  AOTC_CHECK(n != kVariadic,
             "ExpectCalledComputations(inst) on an opcode with a variadic "
             "called-computation count");
  return ExpectCalledComputations(inst, n);
}

absl::StatusOr<std::vector<const Instruction*>> OrderedParameters(
    const Computation& comp) {
  int n = comp.num_parameters();
  std::vector<const Instruction*> params(n, nullptr);
  for (const auto& inst : comp.instructions()) {
    if (inst->opcode() != Opcode::kParameter) continue;
    int64_t number = inst->attrs().parameter_number;
    if (number < 0 || number >= n || params[number] != nullptr) {
      return ShapeError("computation '", comp.name(),
                        "' has parameter numbers that are not 0..", n - 1);
    }
    params[number] = inst.get();
  }
  return params;
}

absl::StatusOr<Shape> ReducerResultShape(
    const Instruction& inst, const std::vector<PrimitiveType>& init_types,
    const std::vector<PrimitiveType>& input_types,
    const std::vector<int64_t>& dims) {
  RETURN_IF_ERROR(ExpectCalledComputations(inst));
  std::vector<PrimitiveType> params = init_types;
  params.insert(params.end(), input_types.begin(), input_types.end());
  RETURN_IF_ERROR(CheckScalarSignature(*inst.called_computations()[0],
                                       "reducer", params, init_types));
  std::vector<Shape> results;
  for (size_t i = 0; i < init_types.size(); ++i) {
    results.push_back(Shape::Array(
        FpPrecisionResultType(inst, static_cast<int>(i), init_types[i]), dims));
  }
  if (results.size() == 1) return results[0];
  return Shape::Tuple(std::move(results));
}

absl::Status CheckScalarSignature(
    const Computation& comp, std::string_view role,
    absl::Span<const PrimitiveType> param_types,
    absl::Span<const PrimitiveType> result_types) {
  ASSIGN_OR_RETURN(std::vector<const Instruction*> params,
                   OrderedParameters(comp));
  if (params.size() != param_types.size()) {
    return ShapeError(Sv(role), " '", comp.name(), "' has ", params.size(),
                      " parameters, expected ", param_types.size());
  }
  for (size_t i = 0; i < params.size(); ++i) {
    Shape expected = Shape::Scalar(param_types[i]);
    if (!params[i]->shape().Compatible(expected)) {
      return ShapeError(Sv(role), " '", comp.name(), "' parameter ", i,
                        " has shape ", ShapeText(params[i]->shape()),
                        ", expected ", ShapeText(expected));
    }
  }
  std::vector<Shape> results;
  for (PrimitiveType t : result_types) results.push_back(Shape::Scalar(t));
  Shape expected =
      results.size() == 1 ? results[0] : Shape::Tuple(std::move(results));
  const Shape& root = comp.root()->shape();
  if (!root.Compatible(expected)) {
    return ShapeError(Sv(role), " '", comp.name(), "' returns ",
                      ShapeText(root), ", expected ", ShapeText(expected));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> WindowedOutputSize(int64_t input, const WindowDim& w,
                                           int dim) {
  if (w.size < 1 || w.stride < 1 || w.window_dilation < 1 ||
      w.base_dilation < 1) {
    return ShapeError("window dimension ", dim, " has size ", w.size,
                      ", stride ", w.stride, ", lhs_dilate ", w.base_dilation,
                      " and rhs_dilate ", w.window_dilation,
                      "; each must be at least 1");
  }
  int64_t dilated_input = 0;
  int64_t dilated_window = 0;
  int64_t padded = 0;
  bool ok = true;
  if (input > 0) {
    ok = CheckedMul(input - 1, w.base_dilation, &dilated_input) &&
         CheckedAdd(dilated_input, 1, &dilated_input);
  }
  ok = ok && CheckedMul(w.size - 1, w.window_dilation, &dilated_window) &&
       CheckedAdd(dilated_window, 1, &dilated_window) &&
       CheckedAdd(dilated_input, w.pad_low, &padded) &&
       CheckedAdd(padded, w.pad_high, &padded);
  if (!ok) {
    return ShapeError("window dimension ", dim,
                      " overflows 64 bits for input size ", input);
  }
  if (padded < 0) {
    return ShapeError("window dimension ", dim, " pads input size ", input,
                      " to negative size ", padded);
  }
  if (padded < dilated_window) return 0;
  return (padded - dilated_window) / w.stride + 1;
}

namespace {

absl::StatusOr<Shape> InferTupleShape(const Instruction& inst) {
  std::vector<Shape> elements;
  elements.reserve(inst.operand_count());
  for (const Instruction* op : inst.operands()) elements.push_back(op->shape());
  return Shape::Tuple(std::move(elements));
}

absl::StatusOr<Shape> InferGetTupleElementShape(const Instruction& inst) {
  const Shape& tuple = inst.operand(0)->shape();
  if (!tuple.IsTuple()) {
    return ShapeError("operand 0 has shape ", ShapeText(tuple),
                      ", expected a tuple");
  }
  int64_t index = inst.tuple_index();
  if (index < 0 || index >= tuple.tuple_size()) {
    return ShapeError("get-tuple-element index ", index,
                      " is out of range for a tuple of ", tuple.tuple_size(),
                      " elements");
  }
  return tuple.tuple_shapes(static_cast<int>(index));
}

absl::StatusOr<Shape> InferAfterAllShape(const Instruction& inst) {
  for (int i = 0; i < inst.operand_count(); ++i) {
    const Shape& s = inst.operand(i)->shape();
    if (!s.IsToken()) {
      return ShapeError("operand ", i, " has shape ", ShapeText(s),
                        ", expected token[]");
    }
  }
  return Shape::Token();
}

absl::StatusOr<Shape> InferGetDimensionSizeShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  const std::vector<int64_t>& dims = inst.attrs().dimensions;
  if (dims.size() != 1) {
    return ShapeError("get-dimension-size needs one dimension, got ",
                      DimsText(dims));
  }
  RETURN_IF_ERROR(CheckDimensionIndex(dims[0], operand->rank(),
                                      "get-dimension-size dimension"));
  return Shape::Scalar(PrimitiveType::kS32);
}

// topk(x), k=K: (values, s32 indices) over the last dimension of x. XLA's
// parser requires k; the verifier does too, so that no later stage has to
// guess it from the declared shape.
absl::StatusOr<Shape> InferTopKShape(const Instruction& inst) {
  if (!inst.k().has_value()) return ShapeError("topk needs k=");
  const int64_t k = *inst.k();
  if (k < 0) return ShapeError("topk k=", k, " is negative");
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  if (operand->rank() == 0) {
    return ShapeError("operand 0 has shape ", ShapeText(*operand),
                      ", expected rank 1 or more");
  }
  std::vector<int64_t> dims = operand->dimensions();
  if (k > dims.back()) {
    return ShapeError("topk k=", k, " exceeds the last dimension size ",
                      dims.back());
  }
  dims.back() = k;
  return Shape::Tuple({Shape::Array(operand->element_type(), dims),
                       Shape::Array(PrimitiveType::kS32, dims)});
}

// True for opcodes whose result dimensions or element type are given only
// by the declared shape; without one (shapeless HLO text) nothing can be
// inferred for them.
bool NeedsDeclaredShape(const Instruction& inst) {
  switch (inst.opcode()) {
    case Opcode::kConvert:
    case Opcode::kBitcastConvert:
    case Opcode::kStochasticConvert:
    case Opcode::kBroadcast:
    case Opcode::kReshape:
    case Opcode::kIota:
    case Opcode::kBitcast:
      return true;
    default:
      return false;
  }
}

// Opcodes that are not elementwise (or are elementwise with a result type
// of their own) and have a dedicated inference.
absl::StatusOr<Shape> InferSpecialShape(const Instruction& inst) {
  switch (inst.opcode()) {
    case Opcode::kConvert:
    case Opcode::kBitcastConvert:
    case Opcode::kReducePrecision:
    case Opcode::kStochasticConvert:
      return InferConversionShape(inst);
    case Opcode::kCopy:
    case Opcode::kOptimizationBarrier:
    case Opcode::kDomain:
    case Opcode::kAddDependency:
      return inst.operand(0)->shape();
    case Opcode::kMap:
      return InferMapShape(inst);
    case Opcode::kBroadcast:
      return InferBroadcastShape(inst);
    case Opcode::kReshape:
      return InferReshapeShape(inst);
    case Opcode::kTranspose:
      return InferTransposeShape(inst);
    case Opcode::kSlice:
      return InferSliceShape(inst);
    case Opcode::kConcatenate:
      return InferConcatenateShape(inst);
    case Opcode::kPad:
      return InferPadShape(inst);
    case Opcode::kReverse:
      return InferReverseShape(inst);
    case Opcode::kIota:
      return InferIotaShape(inst);
    case Opcode::kBitcast:
      return InferBitcastShape(inst);
    case Opcode::kDynamicSlice:
      return InferDynamicSliceShape(inst);
    case Opcode::kDynamicUpdateSlice:
      return InferDynamicUpdateSliceShape(inst);
    case Opcode::kGather:
      return InferGatherShape(inst);
    case Opcode::kScatter:
      return InferScatterShape(inst);
    case Opcode::kDot:
      return InferDotShape(inst);
    case Opcode::kConvolution:
      return InferConvolutionShape(inst);
    case Opcode::kReduceWindow:
      return InferReduceWindowShape(inst);
    case Opcode::kSelectAndScatter:
      return InferSelectAndScatterShape(inst);
    case Opcode::kReduce:
      return InferReduceShape(inst);
    case Opcode::kSort:
      return InferSortShape(inst);
    case Opcode::kCall:
    case Opcode::kFusion:
      return InferCallShape(inst);
    case Opcode::kWhile:
      return InferWhileShape(inst);
    case Opcode::kConditional:
      return InferConditionalShape(inst);
    case Opcode::kTuple:
      return InferTupleShape(inst);
    case Opcode::kGetTupleElement:
      return InferGetTupleElementShape(inst);
    case Opcode::kAfterAll:
      return InferAfterAllShape(inst);
    case Opcode::kGetDimensionSize:
      return InferGetDimensionSizeShape(inst);
    case Opcode::kPartitionId:
    case Opcode::kReplicaId:
      return Shape::Scalar(PrimitiveType::kU32);
    case Opcode::kTopK:
      return InferTopKShape(inst);
    case Opcode::kFft:
      return InferFftShape(inst);
    case Opcode::kTriangularSolve:
      return InferTriangularSolveShape(inst);
    case Opcode::kCholesky:
      return InferCholeskyShape(inst);
    default:
      if (IsElementwise(inst.opcode())) return InferElementwiseShape(inst);
      return inst.shape();
  }
}

}  // namespace
}  // namespace shape_internal

absl::StatusOr<Shape> InferShape(const Instruction& inst) {
  int arity = OpcodeArity(inst.opcode());
  if (arity != kVariadic) {
    RETURN_IF_ERROR(shape_internal::ExpectOperandCount(inst, arity));
  }
  if (!inst.shape().IsValid() && shape_internal::NeedsDeclaredShape(inst)) {
    return inst.shape();
  }
  return shape_internal::InferSpecialShape(inst);
}

}  // namespace aotc
