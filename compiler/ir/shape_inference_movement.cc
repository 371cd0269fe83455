// Shape inference for data-movement operations: broadcast, reshape,
// transpose, slice, concatenate, pad, reverse, iota, bitcast, dynamic-slice
// and dynamic-update-slice.
//
// broadcast, reshape, iota and bitcast carry their result dimensions only in
// the declared shape; for them inference checks the declared dimensions
// against the operand and attributes and returns them with the element type
// the operand implies.
#include "compiler/ir/shape_inference_internal.h"
#include "compiler/support/status_macros.h"

namespace aotc::shape_internal {
namespace {

absl::StatusOr<const Shape*> DeclaredArray(const Instruction& inst) {
  if (!inst.shape().IsArray()) {
    return ShapeError(OpName(inst), " needs an array result shape, got ",
                      ShapeText(inst.shape()));
  }
  return &inst.shape();
}

// Checks the start-index operands of dynamic-slice / dynamic-update-slice,
// operands [first, operand_count): either `rank` integer scalars or, in the
// older form, one integer vector of `rank` elements.
absl::Status CheckStartIndices(const Instruction& inst, int first, int rank) {
  int count = inst.operand_count() - first;
  bool vector_form = count == 1 && inst.operand(first)->shape().IsArray() &&
                     inst.operand(first)->shape().rank() == 1;
  if (vector_form) {
    const Shape& s = inst.operand(first)->shape();
    if (s.dimensions(0) != rank) {
      return ShapeError("operand ", first, " has shape ", ShapeText(s),
                        ", expected ", rank, " start indices");
    }
  } else if (count != rank) {
    return ShapeError(OpName(inst), " of a rank-", rank, " array needs ", rank,
                      " start indices, got ", count);
  }
  for (int i = first; i < inst.operand_count(); ++i) {
    const Shape& s = inst.operand(i)->shape();
    if (!s.IsArray() || (!vector_form && !s.IsScalar())) {
      return ShapeError("operand ", i, " has shape ", ShapeText(s),
                        ", expected an integer scalar");
    }
    if (!IsInteger(s.element_type())) {
      return ShapeError("operand ", i, " has element type ",
                        Sv(PrimitiveTypeName(s.element_type())),
                        ", expected an integer type");
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Shape> InferBroadcastShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  ASSIGN_OR_RETURN(const Shape* result, DeclaredArray(inst));
  const std::vector<int64_t>& dims = inst.dimensions();
  if (static_cast<int>(dims.size()) != operand->rank()) {
    return ShapeError("broadcast dimensions ", DimsText(dims),
                      " do not match operand rank ", operand->rank());
  }
  RETURN_IF_ERROR(
      CheckDistinctDimensions(dims, result->rank(), "broadcast dimension"));
  for (int i = 0; i < operand->rank(); ++i) {
    if (operand->dimensions(i) != result->dimensions(dims[i])) {
      return ShapeError("broadcast maps operand dimension ", i, " of size ",
                        operand->dimensions(i), " to result dimension ",
                        dims[i], " of size ", result->dimensions(dims[i]));
    }
  }
  return Shape::Array(operand->element_type(), result->dimensions());
}

absl::StatusOr<Shape> InferReshapeShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  ASSIGN_OR_RETURN(const Shape* result, DeclaredArray(inst));
  ASSIGN_OR_RETURN(int64_t from, CheckedElementCount(operand->dimensions()));
  ASSIGN_OR_RETURN(int64_t to, CheckedElementCount(result->dimensions()));
  Shape inferred = Shape::Array(operand->element_type(), result->dimensions());
  if (from != to) {
    return ShapeError("reshape from ", ShapeText(*operand), " to ",
                      ShapeText(inferred), " changes the element count");
  }
  return inferred;
}

absl::StatusOr<Shape> InferTransposeShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  const std::vector<int64_t>& perm = inst.dimensions();
  int rank = operand->rank();
  bool ok = static_cast<int>(perm.size()) == rank &&
            CheckDistinctDimensions(perm, rank, "dimension").ok();
  if (!ok) {
    return ShapeError("transpose dimensions ", DimsText(perm),
                      " are not a permutation of the ", rank,
                      " operand dimensions");
  }
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) dims[i] = operand->dimensions(perm[i]);
  return Shape::Array(operand->element_type(), dims);
}

absl::StatusOr<Shape> InferSliceShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  const std::vector<SliceDim>& slice = inst.slice();
  if (static_cast<int>(slice.size()) != operand->rank()) {
    return ShapeError("slice has ", slice.size(),
                      " dimension ranges for operand rank ", operand->rank());
  }
  std::vector<int64_t> dims(slice.size());
  for (int i = 0; i < operand->rank(); ++i) {
    const SliceDim& s = slice[i];
    if (s.stride < 1) {
      return ShapeError("slice dimension ", i, " has stride ", s.stride,
                        ", expected at least 1");
    }
    if (s.start < 0 || s.start > s.limit || s.limit > operand->dimensions(i)) {
      return ShapeError("slice dimension ", i, " range [", s.start, ":",
                        s.limit, "] is not within [0:", operand->dimensions(i),
                        "]");
    }
    int64_t n = s.limit - s.start;
    dims[i] = n == 0 ? 0 : (n - 1) / s.stride + 1;
  }
  return Shape::Array(operand->element_type(), dims);
}

absl::StatusOr<Shape> InferConcatenateShape(const Instruction& inst) {
  const std::vector<int64_t>& dimension = inst.dimensions();
  if (dimension.size() != 1) {
    return ShapeError("concatenate needs one dimension, got ",
                      DimsText(dimension));
  }
  if (inst.operand_count() == 0) {
    return ShapeError("concatenate needs at least one operand");
  }
  ASSIGN_OR_RETURN(const Shape* first, ArrayOperand(inst, 0));
  int64_t d = dimension[0];
  RETURN_IF_ERROR(
      CheckDimensionIndex(d, first->rank(), "concatenate dimension"));
  std::vector<int64_t> dims = first->dimensions();
  for (int i = 1; i < inst.operand_count(); ++i) {
    ASSIGN_OR_RETURN(const Shape* s, ArrayOperand(inst, i));
    bool fits = s->element_type() == first->element_type() &&
                s->rank() == first->rank();
    for (int j = 0; fits && j < s->rank(); ++j) {
      fits = j == d || s->dimensions(j) == first->dimensions(j);
    }
    if (!fits) {
      return ShapeError("operand ", i, " has shape ", ShapeText(*s),
                        ", which does not match operand 0 ", ShapeText(*first),
                        " outside dimension ", d);
    }
    if (!CheckedAdd(dims[d], s->dimensions(d), &dims[d])) {
      return ShapeError("concatenate dimension ", d, " overflows 64 bits");
    }
  }
  return Shape::Array(first->element_type(), dims);
}

absl::StatusOr<Shape> InferPadShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  const Shape& value = inst.operand(1)->shape();
  if (!value.IsScalar() || !SameTypeIgnoringFpPrecision(
                               value.element_type(), operand->element_type())) {
    return ShapeError("operand 1 has shape ", ShapeText(value), ", expected ",
                      ShapeText(Shape::Scalar(operand->element_type())));
  }
  const std::vector<PaddingDim>& padding = inst.padding();
  if (static_cast<int>(padding.size()) != operand->rank()) {
    return ShapeError("pad has ", padding.size(),
                      " padding dimensions for operand rank ", operand->rank());
  }
  std::vector<int64_t> dims(padding.size());
  for (int i = 0; i < operand->rank(); ++i) {
    const PaddingDim& p = padding[i];
    int64_t size = operand->dimensions(i);
    if (p.interior < 0) {
      return ShapeError("pad dimension ", i, " has negative interior padding ",
                        p.interior);
    }
    int64_t interior = 0;
    int64_t n = 0;
    bool ok = CheckedMul(size > 0 ? size - 1 : 0, p.interior, &interior) &&
              CheckedAdd(size, interior, &n) && CheckedAdd(n, p.low, &n) &&
              CheckedAdd(n, p.high, &n);
    if (!ok) return ShapeError("pad dimension ", i, " overflows 64 bits");
    if (n < 0) {
      return ShapeError("pad dimension ", i, " has negative size ", n);
    }
    dims[i] = n;
  }
  return Shape::Array(operand->element_type(), dims);
}

absl::StatusOr<Shape> InferReverseShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  RETURN_IF_ERROR(CheckDistinctDimensions(
      inst.dimensions(), operand->rank(), "reverse dimension"));
  return *operand;
}

absl::StatusOr<Shape> InferIotaShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* result, DeclaredArray(inst));
  const std::vector<int64_t>& dims = inst.dimensions();
  if (dims.size() != 1) {
    return ShapeError("iota needs one iota_dimension, got ", DimsText(dims));
  }
  RETURN_IF_ERROR(
      CheckDimensionIndex(dims[0], result->rank(), "iota_dimension"));
  return Shape::Array(result->element_type(), result->dimensions());
}

absl::StatusOr<Shape> InferBitcastShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  ASSIGN_OR_RETURN(const Shape* result, DeclaredArray(inst));
  Shape inferred = Shape::Array(result->element_type(), result->dimensions());
  // Tiled layouts pad the buffer (u32[10] and u32[5] both fill one
  // T(128) tile); without modelling tiles the sizes cannot be compared.
  if (!operand->layout().extension.empty() ||
      !result->layout().extension.empty()) {
    return inferred;
  }
  ASSIGN_OR_RETURN(int64_t from, CheckedElementCount(operand->dimensions()));
  ASSIGN_OR_RETURN(int64_t to, CheckedElementCount(result->dimensions()));
  int64_t from_bytes = 0;
  int64_t to_bytes = 0;
  if (!CheckedMul(from, StorageBytes(operand->element_type()), &from_bytes) ||
      !CheckedMul(to, StorageBytes(result->element_type()), &to_bytes)) {
    return ShapeError("bitcast byte size overflows 64 bits");
  }
  if (from_bytes != to_bytes) {
    return ShapeError("bitcast from ", ShapeText(*operand), " (", from_bytes,
                      " bytes) to ", ShapeText(*result), " (", to_bytes,
                      " bytes) changes the byte size");
  }
  return inferred;
}

absl::StatusOr<Shape> InferDynamicSliceShape(const Instruction& inst) {
  if (inst.operand_count() < 1) {
    return ShapeError("dynamic-slice needs an operand");
  }
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  RETURN_IF_ERROR(CheckStartIndices(inst, 1, operand->rank()));
  const std::vector<int64_t>& sizes = inst.dynamic_slice_sizes();
  if (static_cast<int>(sizes.size()) != operand->rank()) {
    return ShapeError("dynamic_slice_sizes ", DimsText(sizes),
                      " do not match operand rank ", operand->rank());
  }
  for (int i = 0; i < operand->rank(); ++i) {
    if (sizes[i] < 0 || sizes[i] > operand->dimensions(i)) {
      return ShapeError("dynamic-slice size ", sizes[i], " in dimension ", i,
                        " is not within [0, ", operand->dimensions(i), "]");
    }
  }
  return Shape::Array(operand->element_type(), sizes);
}

absl::StatusOr<Shape> InferDynamicUpdateSliceShape(const Instruction& inst) {
  if (inst.operand_count() < 2) {
    return ShapeError("dynamic-update-slice needs an operand and an update");
  }
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  ASSIGN_OR_RETURN(const Shape* update, ArrayOperand(inst, 1));
  bool fits = update->element_type() == operand->element_type() &&
              update->rank() == operand->rank();
  for (int i = 0; fits && i < update->rank(); ++i) {
    fits = update->dimensions(i) <= operand->dimensions(i);
  }
  if (!fits) {
    return ShapeError("operand 1 has shape ", ShapeText(*update),
                      ", which does not fit in operand 0 ",
                      ShapeText(*operand));
  }
  RETURN_IF_ERROR(CheckStartIndices(inst, 2, operand->rank()));
  return Shape::Array(operand->element_type(), operand->dimensions());
}

}  // namespace aotc::shape_internal
