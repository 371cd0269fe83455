// Shape inference for gather and (variadic) scatter.
//
// Both index an operand through a start-index array whose `index_vector_dim`
// holds the index vectors; when index_vector_dim equals the index array's
// rank the vectors have one element and the dimension is implicit. The
// dimension numbers are checked as XLA's operation semantics describe them:
// window dimensions ascending, collapsed / inserted and batching dimensions
// ascending and disjoint, every index map entry a distinct operand dimension.
#include <algorithm>

#include "compiler/ir/shape_inference_internal.h"
#include "compiler/support/status_macros.h"

namespace aotc::shape_internal {
namespace {

// The index array's dimensions with the implicit index-vector dimension made
// explicit.
absl::StatusOr<std::vector<int64_t>> ExpandedIndexDims(const Shape& indices,
                                                       int64_t index_vector_dim,
                                                       int operand_number) {
  if (!IsInteger(indices.element_type())) {
    return ShapeError("operand ", operand_number, " has element type ",
                      Sv(PrimitiveTypeName(indices.element_type())),
                      ", expected an integer type");
  }
  if (index_vector_dim < 0 || index_vector_dim > indices.rank()) {
    return ShapeError("index_vector_dim ", index_vector_dim,
                      " is out of range for start indices of rank ",
                      indices.rank());
  }
  std::vector<int64_t> dims = indices.dimensions();
  if (index_vector_dim == indices.rank()) dims.push_back(1);
  return dims;
}

// The expanded index dimensions other than the index-vector dimension.
std::vector<int64_t> IndexBatchDims(const std::vector<int64_t>& expanded,
                                    int64_t index_vector_dim) {
  std::vector<int64_t> dims;
  for (int i = 0; i < static_cast<int>(expanded.size()); ++i) {
    if (i != index_vector_dim) dims.push_back(expanded[i]);
  }
  return dims;
}

bool Contains(absl::Span<const int64_t> dims, int64_t d) {
  return std::find(dims.begin(), dims.end(), d) != dims.end();
}

// Checks the attributes gather and scatter share: `excluded` (collapsed or
// inserted) and operand batching dimensions, the index map and the index
// batching dimensions.
absl::Status CheckIndexing(
    std::string_view excluded_name, absl::Span<const int64_t> excluded,
    std::string_view batching_name, absl::Span<const int64_t> batching,
    std::string_view map_name, absl::Span<const int64_t> index_map,
    std::string_view index_batching_name,
    absl::Span<const int64_t> index_batching, const Shape& operand,
    const std::vector<int64_t>& expanded, int64_t index_vector_dim) {
  int rank = operand.rank();
  RETURN_IF_ERROR(CheckSortedDimensions(excluded, rank, excluded_name));
  RETURN_IF_ERROR(CheckSortedDimensions(batching, rank, batching_name));
  for (int64_t d : batching) {
    if (Contains(excluded, d)) {
      return ShapeError(Sv(batching_name), " ", d, " is also in ",
                        Sv(excluded_name), "s");
    }
  }
  RETURN_IF_ERROR(CheckDistinctDimensions(index_map, rank, map_name));
  if (static_cast<int64_t>(index_map.size()) != expanded[index_vector_dim]) {
    return ShapeError(Sv(map_name), "s ", DimsText(index_map), " have ",
                      index_map.size(), " entries but index vectors have ",
                      expanded[index_vector_dim], " elements");
  }
  int index_rank = static_cast<int>(expanded.size());
  RETURN_IF_ERROR(
      CheckDistinctDimensions(index_batching, index_rank, index_batching_name));
  if (index_batching.size() != batching.size()) {
    return ShapeError(Sv(index_batching_name), "s ", DimsText(index_batching),
                      " do not pair with ", Sv(batching_name), "s ",
                      DimsText(batching));
  }
  for (size_t i = 0; i < batching.size(); ++i) {
    if (index_batching[i] == index_vector_dim) {
      return ShapeError(Sv(index_batching_name), " ", index_batching[i],
                        " is the index_vector_dim");
    }
    if (operand.dimensions(batching[i]) != expanded[index_batching[i]]) {
      return ShapeError(Sv(batching_name), " ", batching[i], " has size ",
                        operand.dimensions(batching[i]), " but ",
                        Sv(index_batching_name), " ", index_batching[i],
                        " has size ", expanded[index_batching[i]]);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Shape> InferGatherShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  ASSIGN_OR_RETURN(const Shape* indices, ArrayOperand(inst, 1));
  const GatherDimensionNumbers& dn = inst.gather_dnums();
  const std::vector<int64_t>& slice_sizes = inst.slice_sizes();
  ASSIGN_OR_RETURN(std::vector<int64_t> expanded,
                   ExpandedIndexDims(*indices, dn.index_vector_dim, 1));
  RETURN_IF_ERROR(CheckIndexing(
      "collapsed_slice_dim", dn.collapsed_slice_dims, "operand_batching_dim",
      dn.operand_batching_dims, "start_index_map entry", dn.start_index_map,
      "start_indices_batching_dim", dn.start_indices_batching_dims, *operand,
      expanded, dn.index_vector_dim));
  int rank = operand->rank();
  if (static_cast<int>(slice_sizes.size()) != rank) {
    return ShapeError("gather slice_sizes ", DimsText(slice_sizes),
                      " do not match operand rank ", rank);
  }
  for (int i = 0; i < rank; ++i) {
    if (slice_sizes[i] < 0 || slice_sizes[i] > operand->dimensions(i)) {
      return ShapeError("gather slice size ", slice_sizes[i], " in dimension ",
                        i, " is not within [0, ", operand->dimensions(i), "]");
    }
    bool dropped = Contains(dn.collapsed_slice_dims, i) ||
                   Contains(dn.operand_batching_dims, i);
    if (dropped && slice_sizes[i] > 1) {
      return ShapeError("gather collapses operand dimension ", i,
                        " whose slice size ", slice_sizes[i],
                        " is larger than 1");
    }
  }
  size_t window_rank =
      rank - dn.collapsed_slice_dims.size() - dn.operand_batching_dims.size();
  if (dn.offset_dims.size() != window_rank) {
    return ShapeError("gather offset_dims ", DimsText(dn.offset_dims),
                      " should have ", window_rank, " entries");
  }
  std::vector<int64_t> batch = IndexBatchDims(expanded, dn.index_vector_dim);
  int output_rank = static_cast<int>(dn.offset_dims.size() + batch.size());
  RETURN_IF_ERROR(
      CheckSortedDimensions(dn.offset_dims, output_rank, "offset_dim"));
  std::vector<int64_t> dims(output_rank);
  int next_window = 0;
  int next_batch = 0;
  for (int i = 0; i < output_rank; ++i) {
    if (!Contains(dn.offset_dims, i)) {
      dims[i] = batch[next_batch++];
      continue;
    }
    while (Contains(dn.collapsed_slice_dims, next_window) ||
           Contains(dn.operand_batching_dims, next_window)) {
      ++next_window;
    }
    dims[i] = slice_sizes[next_window++];
  }
  return Shape::Array(operand->element_type(), dims);
}

absl::StatusOr<Shape> InferScatterShape(const Instruction& inst) {
  int count = inst.operand_count();
  if (count < 3 || count % 2 == 0) {
    return ShapeError(
        "scatter needs 2N+1 operands (N inputs, indices, N "
        "updates), got ",
        count);
  }
  int n = count / 2;
  ASSIGN_OR_RETURN(const Shape* input, ArrayOperand(inst, 0));
  ASSIGN_OR_RETURN(const Shape* indices, ArrayOperand(inst, n));
  ASSIGN_OR_RETURN(const Shape* updates, ArrayOperand(inst, n + 1));
  std::vector<PrimitiveType> types;
  std::vector<Shape> results;
  for (int i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(const Shape* in, ArrayOperand(inst, i));
    ASSIGN_OR_RETURN(const Shape* up, ArrayOperand(inst, n + 1 + i));
    if (!in->SameDimensions(*input)) {
      return ShapeError("operand ", i, " has shape ", ShapeText(*in),
                        ", expected dimensions ",
                        DimsText(input->dimensions()));
    }
    Shape expected_update =
        Shape::Array(in->element_type(), updates->dimensions());
    if (!up->Compatible(expected_update)) {
      return ShapeError("operand ", n + 1 + i, " has shape ", ShapeText(*up),
                        ", expected ", ShapeText(expected_update));
    }
    types.push_back(in->element_type());
    results.push_back(Shape::Array(in->element_type(), in->dimensions()));
  }
  const ScatterDimensionNumbers& dn = inst.scatter_dnums();
  ASSIGN_OR_RETURN(std::vector<int64_t> expanded,
                   ExpandedIndexDims(*indices, dn.index_vector_dim, n));
  RETURN_IF_ERROR(CheckIndexing(
      "inserted_window_dim", dn.inserted_window_dims, "input_batching_dim",
      dn.input_batching_dims, "scatter_dims_to_operand_dims entry",
      dn.scatter_dims_to_operand_dims, "scatter_indices_batching_dim",
      dn.scatter_indices_batching_dims, *input, expanded, dn.index_vector_dim));
  RETURN_IF_ERROR(CheckSortedDimensions(dn.update_window_dims, updates->rank(),
                                        "update_window_dim"));
  size_t window_rank = input->rank() - dn.inserted_window_dims.size() -
                       dn.input_batching_dims.size();
  if (dn.update_window_dims.size() != window_rank) {
    return ShapeError("scatter update_window_dims ",
                      DimsText(dn.update_window_dims), " should have ",
                      window_rank, " entries");
  }
  std::vector<int64_t> batch = IndexBatchDims(expanded, dn.index_vector_dim);
  std::vector<int64_t> update_batch;
  int next_window = 0;
  for (int i = 0; i < updates->rank(); ++i) {
    if (!Contains(dn.update_window_dims, i)) {
      update_batch.push_back(updates->dimensions(i));
      continue;
    }
    while (Contains(dn.inserted_window_dims, next_window) ||
           Contains(dn.input_batching_dims, next_window)) {
      ++next_window;
    }
    if (updates->dimensions(i) > input->dimensions(next_window)) {
      return ShapeError("scatter update window dimension ", i, " has size ",
                        updates->dimensions(i),
                        ", larger than operand "
                        "dimension ",
                        next_window, " of size ",
                        input->dimensions(next_window));
    }
    ++next_window;
  }
  if (update_batch != batch) {
    return ShapeError("scatter updates have scatter dimensions ",
                      DimsText(update_batch), ", expected ", DimsText(batch),
                      " from the indices");
  }
  RETURN_IF_ERROR(ExpectCalledComputations(inst));
  std::vector<PrimitiveType> params = types;
  params.insert(params.end(), types.begin(), types.end());
  RETURN_IF_ERROR(CheckScalarSignature(*inst.called_computations()[0],
                                       "scatter combiner", params, types));
  if (n == 1) return results[0];
  return Shape::Tuple(std::move(results));
}

}  // namespace aotc::shape_internal
