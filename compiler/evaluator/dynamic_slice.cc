// Reference evaluator kernels for dynamic-slice and dynamic-update-slice.
//
// The start indices are scalar operands of any integer type, signed or
// unsigned (or one integer vector operand, an older form). As in XLA, each
// start is clamped to [0, operand size - slice size] so that the slice always
// lies inside the operand; out-of-range starts therefore never fail and never
// touch memory outside the arrays.
#include <algorithm>
#include <cstring>
#include <vector>

#include "compiler/evaluator/index_util.h"
#include "compiler/evaluator/movement_internal.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::eval {
namespace {

using Dims = absl::Span<const int64_t>;

// Reads the start indices, which begin at operand `first`: one integer
// scalar per dimension, or (the older form some dumps still use) a single
// integer vector with one entry per dimension.
absl::StatusOr<std::vector<int64_t>> ReadStarts(const Instruction& inst,
                                                Operands operands, int first,
                                                int rank) {
  std::vector<int64_t> starts(rank);
  const int count = static_cast<int>(operands.size()) - first;
  if (count == 1 && operands[first]->shape().rank() == 1) {
    RETURN_IF_ERROR(CheckArrayOperand(inst, operands, first));
    const Shape& shape = operands[first]->shape();
    if (!IsIndexType(shape.element_type()) || shape.dimensions(0) != rank) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("operand ", first, " has shape ", shape.ToString(false),
                       ", expected ", rank, " integer start indices"));
    }
    for (int i = 0; i < rank; ++i) {
      starts[i] = ReadIndexValue(*operands[first], i);
    }
    return starts;
  }
  RETURN_IF_ERROR(CheckOperandCount(inst, operands, first + rank));
  for (int i = 0; i < rank; ++i) {
    RETURN_IF_ERROR(CheckScalarIndexOperand(inst, operands, first + i));
    starts[i] = ReadIndexValue(*operands[first + i], 0);
  }
  return starts;
}

// Clamps each start so that a window of `sizes` starting there lies inside
// `dims` (sizes[i] <= dims[i]).
void ClampStarts(Dims dims, Dims sizes, std::vector<int64_t>& starts) {
  for (size_t i = 0; i < dims.size(); ++i) {
    starts[i] = std::clamp<int64_t>(starts[i], 0, dims[i] - sizes[i]);
  }
}

}  // namespace

absl::StatusOr<Literal> EvalDynamicSlice(const Instruction& inst,
                                         Operands operands) {
  if (operands.empty()) {
    return ErrorAt(inst.location(), "dynamic-slice has no operands");
  }
  RETURN_IF_ERROR(CheckArrayOperand(inst, operands, 0));
  const Shape& in = operands[0]->shape();
  ASSIGN_OR_RETURN(std::vector<int64_t> starts,
                   ReadStarts(inst, operands, 1, in.rank()));
  RETURN_IF_ERROR(CheckArrayResult(inst));
  RETURN_IF_ERROR(CheckElementType(inst, "result", inst.shape().element_type(),
                                   in.element_type()));
  const std::vector<int64_t>& sizes = inst.dynamic_slice_sizes();
  if (static_cast<int64_t>(sizes.size()) != in.rank()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("dynamic_slice_sizes ", BracedList(sizes),
                                " has ", sizes.size(),
                                " entries for an operand of rank ", in.rank()));
  }
  for (int i = 0; i < in.rank(); ++i) {
    if (sizes[i] < 0 || sizes[i] > in.dimensions(i)) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("dynamic-slice size ", sizes[i], " in dimension ", i,
                       " does not fit the operand size ", in.dimensions(i)));
    }
  }
  RETURN_IF_ERROR(
      CheckDimensions(inst, "result", inst.shape().dimensions(), sizes));
  ClampStarts(in.dimensions(), sizes, starts);
  std::vector<int64_t> strides = RowMajorStrides(in.dimensions());
  Literal out(inst.shape());
  GatherStrided(operands[0]->raw(), LinearIndex(starts, strides), sizes,
                strides, StorageBytes(in.element_type()), out.mutable_raw());
  return out;
}

absl::StatusOr<Literal> EvalDynamicUpdateSlice(const Instruction& inst,
                                               Operands operands) {
  if (operands.size() < 2) {
    return ErrorAt(inst.location(),
                   "dynamic-update-slice needs an operand and an update");
  }
  RETURN_IF_ERROR(CheckArrayOperand(inst, operands, 0));
  RETURN_IF_ERROR(CheckArrayOperand(inst, operands, 1));
  const Shape& in = operands[0]->shape();
  const Shape& update = operands[1]->shape();
  ASSIGN_OR_RETURN(std::vector<int64_t> starts,
                   ReadStarts(inst, operands, 2, in.rank()));
  RETURN_IF_ERROR(CheckArrayResult(inst));
  RETURN_IF_ERROR(CheckElementType(inst, "result", inst.shape().element_type(),
                                   in.element_type()));
  RETURN_IF_ERROR(CheckElementType(inst, "operand 1", update.element_type(),
                                   in.element_type()));
  RETURN_IF_ERROR(CheckDimensions(inst, "result", inst.shape().dimensions(),
                                  in.dimensions()));
  if (update.rank() != in.rank()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("update of rank ", update.rank(),
                                " for an operand of rank ", in.rank()));
  }
  for (int i = 0; i < in.rank(); ++i) {
    if (update.dimensions(i) > in.dimensions(i)) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("update size ", update.dimensions(i), " in dimension ",
                       i, " exceeds the operand size ", in.dimensions(i)));
    }
  }
  ClampStarts(in.dimensions(), update.dimensions(), starts);
  std::vector<int64_t> strides = RowMajorStrides(in.dimensions());
  Literal out(inst.shape());
  CopyRawData(*operands[0], out);
  ScatterStrided(operands[1]->raw(), update.dimensions(),
                 LinearIndex(starts, strides), strides,
                 StorageBytes(in.element_type()), out.mutable_raw());
  return out;
}

}  // namespace aotc::eval
