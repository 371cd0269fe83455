// Reference evaluator kernels for gather and scatter, with XLA's full
// dimension numbers including operand / indices batching dimensions.
//
// gather clamps every start index so that its slice lies inside the operand,
// as XLA does. scatter does not clamp: an update window that would not lie
// entirely inside the operand is skipped. scatter applies to_apply to
// (current values of the N operands..., the N update values...) one update
// element at a time, in row-major order of the scatter indices and, within a
// window, row-major order of the window, so non-commutative combiners and
// duplicate indices give a defined result.
//
// Gather and scatter share the index bookkeeping: an operand of rank r, an
// indices array whose dimension index_vector_dim holds index vectors (an
// implicit trailing dimension of size 1 when index_vector_dim equals its
// rank), and a result (gather) or updates array (scatter) whose "window"
// dimensions walk a slice of the operand and whose other dimensions walk the
// index vectors.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "compiler/evaluator/index_util.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::eval {
namespace {

using Dims = absl::Span<const int64_t>;

// The dimension numbers gather and scatter have in common, with the names
// their text form uses (for messages).
struct DimensionNumbers {
  Dims window_dims;      // offset_dims / update_window_dims
  Dims removed_dims;     // collapsed_slice_dims / inserted_window_dims
  Dims start_index_map;  // start_index_map / scatter_dims_to_operand_dims
  int64_t index_vector_dim = 0;
  Dims operand_batching_dims;  // operand_batching_dims / input_batching_dims
  Dims indices_batching_dims;  // start_indices_/scatter_indices_batching_dims
  const char* window_name;
  const char* removed_name;
  const char* start_map_name;
  const char* operand_batching_name;
  const char* indices_batching_name;
  const char* windowed_name;  // "result" / "updates"
};

// What the dimension numbers say once checked against the shapes.
struct IndexPlan {
  // Components of one index vector.
  int64_t vector_size = 0;
  // Distance between consecutive components in the indices array (0 for an
  // implicit index vector dimension).
  int64_t vector_stride = 0;
  // Row-major strides of the indices array.
  std::vector<int64_t> indices_strides;
  // The indices dimensions other than index_vector_dim, ascending.
  std::vector<int64_t> indices_batch_dims;
  // The windowed array's dimensions that are not window dimensions,
  // ascending; the k-th of them walks indices_batch_dims[k].
  std::vector<int64_t> batch_dims;
  // Operand dimensions neither removed nor batching, ascending; the k-th
  // is walked by window_dims[k].
  std::vector<int64_t> operand_window_dims;
  // For operand_batching_dims[i]: the position in batch_dims whose index it
  // takes.
  std::vector<int64_t> batching_positions;
};

// Claims `dims` for the attribute `name` in `owner` (one entry per dimension
// below `bound`, naming the attribute that claimed it); an error when a
// dimension is out of range or already claimed.
absl::Status ClaimDims(const Instruction& inst, const char* name, Dims dims,
                       int64_t bound, std::vector<const char*>& owner) {
  for (int64_t d : dims) {
    std::string prefix = absl::StrCat(name, "=", BracedList(dims));
    if (d < 0 || d >= bound) {
      return ErrorAt(inst.location(),
                     absl::StrCat(prefix, " names dimension ", d,
                                  ", outside [0, ", bound, ")"));
    }
    if (owner[d] != nullptr) {
      return ErrorAt(
          inst.location(),
          owner[d] == name
              ? absl::StrCat(prefix, " names dimension ", d, " twice")
              : absl::StrCat(prefix, " names dimension ", d, ", which ",
                             owner[d], " names too"));
    }
    owner[d] = name;
  }
  return absl::OkStatus();
}

absl::StatusOr<IndexPlan> PlanIndexing(const Instruction& inst,
                                       const DimensionNumbers& dn,
                                       const Shape& operand,
                                       const Shape& indices,
                                       int64_t windowed_rank) {
  const int64_t r = operand.rank();
  const int64_t q = indices.rank();
  const int64_t ivd = dn.index_vector_dim;
  if (!IsIndexType(indices.element_type())) {
    return ErrorAt(inst.location(),
                   absl::StrCat("indices have element type ",
                                Sv(PrimitiveTypeName(indices.element_type())),
                                ", expected an integer type"));
  }
  if (ivd < 0 || ivd > q) {
    return ErrorAt(inst.location(),
                   absl::StrCat("index_vector_dim=", ivd,
                                " is out of range for indices of rank ", q));
  }
  IndexPlan plan;
  plan.indices_strides = RowMajorStrides(indices.dimensions());
  plan.vector_size = ivd == q ? 1 : indices.dimensions(ivd);
  plan.vector_stride = ivd == q ? 0 : plan.indices_strides[ivd];
  for (int64_t d = 0; d < q; ++d) {
    if (d != ivd) plan.indices_batch_dims.push_back(d);
  }
  if (static_cast<int64_t>(dn.start_index_map.size()) != plan.vector_size) {
    return ErrorAt(
        inst.location(),
        absl::StrCat(dn.start_map_name, "=", BracedList(dn.start_index_map),
                     " has ", dn.start_index_map.size(),
                     " entries for index vectors of ", plan.vector_size,
                     " components"));
  }
  // Operand dimensions: removed and batching dimensions are disjoint, and
  // start_index_map names distinct non-batching dimensions.
  std::vector<const char*> not_window(r, nullptr);
  RETURN_IF_ERROR(
      ClaimDims(inst, dn.removed_name, dn.removed_dims, r, not_window));
  std::vector<const char*> started(r, nullptr);
  RETURN_IF_ERROR(ClaimDims(inst, dn.operand_batching_name,
                            dn.operand_batching_dims, r, started));
  RETURN_IF_ERROR(
      ClaimDims(inst, dn.start_map_name, dn.start_index_map, r, started));
  RETURN_IF_ERROR(ClaimDims(inst, dn.operand_batching_name,
                            dn.operand_batching_dims, r, not_window));
  for (int64_t d = 0; d < r; ++d) {
    if (not_window[d] == nullptr) plan.operand_window_dims.push_back(d);
  }
  // Indices batching dimensions pair up with the operand's.
  if (dn.indices_batching_dims.size() != dn.operand_batching_dims.size()) {
    return ErrorAt(inst.location(),
                   absl::StrCat(dn.indices_batching_name, "=",
                                BracedList(dn.indices_batching_dims), " and ",
                                dn.operand_batching_name, "=",
                                BracedList(dn.operand_batching_dims),
                                " differ in length"));
  }
  std::vector<const char*> indices_owner(q + 1, nullptr);
  if (ivd < q) indices_owner[ivd] = "index_vector_dim";
  RETURN_IF_ERROR(ClaimDims(inst, dn.indices_batching_name,
                            dn.indices_batching_dims, q, indices_owner));
  for (size_t i = 0; i < dn.indices_batching_dims.size(); ++i) {
    int64_t di = dn.indices_batching_dims[i];
    int64_t dop = dn.operand_batching_dims[i];
    if (indices.dimensions(di) != operand.dimensions(dop)) {
      return ErrorAt(inst.location(),
                     absl::StrCat("indices batching dimension ", di,
                                  " has size ", indices.dimensions(di),
                                  " but operand batching dimension ", dop,
                                  " has size ", operand.dimensions(dop)));
    }
    plan.batching_positions.push_back(di < ivd ? di : di - 1);
  }
  // Window dimensions of the windowed array: ascending, one per operand
  // window dimension; the rest are batch dimensions.
  int64_t expected_rank = static_cast<int64_t>(dn.window_dims.size()) +
                          static_cast<int64_t>(plan.indices_batch_dims.size());
  if (dn.window_dims.size() != plan.operand_window_dims.size() ||
      windowed_rank != expected_rank) {
    return ErrorAt(inst.location(),
                   absl::StrCat(dn.window_name, "=", BracedList(dn.window_dims),
                                " does not fit an operand of rank ", r,
                                " with ", plan.operand_window_dims.size(),
                                " window dimensions and a ", dn.windowed_name,
                                " of rank ", windowed_rank));
  }
  std::vector<bool> is_window(windowed_rank, false);
  for (size_t k = 0; k < dn.window_dims.size(); ++k) {
    int64_t d = dn.window_dims[k];
    if (d < 0 || d >= windowed_rank || (k > 0 && d <= dn.window_dims[k - 1])) {
      return ErrorAt(
          inst.location(),
          absl::StrCat(dn.window_name, "=", BracedList(dn.window_dims),
                       " is not an ascending list of dimensions "
                       "below ",
                       windowed_rank));
    }
    is_window[d] = true;
  }
  for (int64_t d = 0; d < windowed_rank; ++d) {
    if (!is_window[d]) plan.batch_dims.push_back(d);
  }
  return plan;
}

// Linear index in the indices array of component 0 of the index vector at
// batch position `batch` (one entry per plan.indices_batch_dims).
int64_t IndexVectorBase(const IndexPlan& plan, Dims batch) {
  int64_t base = 0;
  for (size_t k = 0; k < batch.size(); ++k) {
    base += batch[k] * plan.indices_strides[plan.indices_batch_dims[k]];
  }
  return base;
}

absl::StatusOr<Literal> Gather(const Instruction& inst, Operands operands) {
  RETURN_IF_ERROR(CheckOperandCount(inst, operands, 2));
  RETURN_IF_ERROR(CheckArrayOperand(inst, operands, 0));
  RETURN_IF_ERROR(CheckArrayOperand(inst, operands, 1));
  RETURN_IF_ERROR(CheckArrayResult(inst));
  const Literal& operand = *operands[0];
  const Literal& indices = *operands[1];
  const Shape& op_shape = operand.shape();
  const Shape& out_shape = inst.shape();
  RETURN_IF_ERROR(CheckElementType(inst, "result", out_shape.element_type(),
                                   op_shape.element_type()));
  const GatherDimensionNumbers& g = inst.gather_dnums();
  DimensionNumbers dn{g.offset_dims,
                      g.collapsed_slice_dims,
                      g.start_index_map,
                      g.index_vector_dim,
                      g.operand_batching_dims,
                      g.start_indices_batching_dims,
                      "offset_dims",
                      "collapsed_slice_dims",
                      "start_index_map",
                      "operand_batching_dims",
                      "start_indices_batching_dims",
                      "result"};
  ASSIGN_OR_RETURN(
      IndexPlan plan,
      PlanIndexing(inst, dn, op_shape, indices.shape(), out_shape.rank()));

  const std::vector<int64_t>& sizes = inst.slice_sizes();
  if (static_cast<int64_t>(sizes.size()) != op_shape.rank()) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("slice_sizes=", BracedList(sizes), " has ", sizes.size(),
                     " entries for an operand of rank ", op_shape.rank()));
  }
  std::vector<bool> window_dim(op_shape.rank(), false);
  for (int64_t d : plan.operand_window_dims) window_dim[d] = true;
  for (int64_t d = 0; d < op_shape.rank(); ++d) {
    const int64_t size = op_shape.dimensions(d);
    if (window_dim[d] && (sizes[d] < 0 || sizes[d] > size)) {
      return ErrorAt(inst.location(),
                     absl::StrCat("slice size ", sizes[d], " in dimension ", d,
                                  " does not fit the operand size ", size));
    }
    // A collapsed or batching dimension is indexed at exactly one element.
    if (!window_dim[d] && (sizes[d] != 1 || size < 1)) {
      return ErrorAt(inst.location(),
                     absl::StrCat("slice size ", sizes[d],
                                  " in collapsed or "
                                  "batching dimension ",
                                  d, " of size ", size, " is not 1"));
    }
  }
  std::vector<int64_t> expected(out_shape.rank());
  for (size_t k = 0; k < plan.batch_dims.size(); ++k) {
    expected[plan.batch_dims[k]] =
        indices.shape().dimensions(plan.indices_batch_dims[k]);
  }
  for (size_t k = 0; k < dn.window_dims.size(); ++k) {
    expected[dn.window_dims[k]] = sizes[plan.operand_window_dims[k]];
  }
  RETURN_IF_ERROR(
      CheckDimensions(inst, "result", out_shape.dimensions(), expected));

  Literal out(out_shape);
  const int64_t bytes = StorageBytes(op_shape.element_type());
  const std::vector<int64_t> op_strides =
      RowMajorStrides(op_shape.dimensions());
  std::vector<int64_t> batch(plan.batch_dims.size());
  std::vector<int64_t> index(op_shape.rank());
  int64_t o = 0;
  ForEachIndex(out_shape.dimensions(), [&](Dims out_index) {
    for (size_t k = 0; k < batch.size(); ++k) {
      batch[k] = out_index[plan.batch_dims[k]];
    }
    std::fill(index.begin(), index.end(), 0);
    int64_t base = IndexVectorBase(plan, batch);
    for (int64_t j = 0; j < plan.vector_size; ++j) {
      int64_t d = dn.start_index_map[j];
      int64_t v = ReadIndexValue(indices, base + j * plan.vector_stride);
      index[d] = std::clamp<int64_t>(v, 0, op_shape.dimensions(d) - sizes[d]);
    }
    for (size_t i = 0; i < plan.batching_positions.size(); ++i) {
      index[dn.operand_batching_dims[i]] = batch[plan.batching_positions[i]];
    }
    for (size_t k = 0; k < dn.window_dims.size(); ++k) {
      index[plan.operand_window_dims[k]] += out_index[dn.window_dims[k]];
    }
    std::memcpy(out.mutable_raw() + o * bytes,
                operand.raw() + LinearIndex(index, op_strides) * bytes, bytes);
    ++o;
  });
  return out;
}

// Applies scatter's to_apply to one element position: the current values
// of the N results and the N update values in, N scalars out. The argument
// literals are built once and overwritten for every call.
class Combiner {
 public:
  Combiner(const Instruction& inst, const CallFn& call,
           std::vector<PrimitiveType> types)
      : inst_(inst),
        call_(call),
        computation_(*inst.called_computations()[0]),
        types_(std::move(types)) {
    const size_t n = types_.size();
    args_.reserve(2 * n);
    for (size_t i = 0; i < 2 * n; ++i) {
      args_.emplace_back(Shape::Scalar(types_[i % n]));
    }
    for (const Literal& a : args_) arg_ptrs_.push_back(&a);
  }

  // results[i][result_index] = to_apply(results[...][result_index],
  // updates[...][update_index])[i].
  absl::Status Apply(std::vector<Literal>& results, Operands updates,
                     int64_t result_index, int64_t update_index) {
    const int n = static_cast<int>(types_.size());
    for (int i = 0; i < n; ++i) {
      Load(results[i], result_index, args_[i]);
      Load(*updates[i], update_index, args_[n + i]);
    }
    ASSIGN_OR_RETURN(Literal combined, call_(computation_, arg_ptrs_));
    if (n == 1 && combined.IsTuple() && combined.tuple_elements().size() == 1) {
      combined = Literal(combined.tuple_elements()[0]);
    }
    if (n > 1 && (!combined.IsTuple() ||
                  static_cast<int>(combined.tuple_elements().size()) != n)) {
      return ErrorAt(inst_.location(),
                     absl::StrCat("scatter combiner returned ",
                                  combined.shape().ToString(false),
                                  ", expected a tuple of ", n, " scalars"));
    }
    for (int i = 0; i < n; ++i) {
      const Literal& value = n == 1 ? combined : combined.tuple_elements()[i];
      const Shape& shape = value.shape();
      if (!shape.IsScalar() || shape.element_type() != types_[i] ||
          value.raw_size() != StorageBytes(types_[i])) {
        return ErrorAt(inst_.location(),
                       absl::StrCat("scatter combiner returned ",
                                    shape.ToString(false), ", expected ",
                                    Sv(PrimitiveTypeName(types_[i])), "[]"));
      }
      std::memcpy(results[i].mutable_raw() + result_index * value.raw_size(),
                  value.raw(), value.raw_size());
    }
    return absl::OkStatus();
  }

 private:
  // Copies element `index` of `src` into the scalar literal `dst`.
  static void Load(const Literal& src, int64_t index, Literal& dst) {
    const int64_t bytes = dst.raw_size();
    std::memcpy(dst.mutable_raw(), src.raw() + index * bytes, bytes);
  }

  const Instruction& inst_;
  const CallFn& call_;
  const Computation& computation_;
  std::vector<PrimitiveType> types_;
  std::vector<Literal> args_;
  std::vector<const Literal*> arg_ptrs_;
};

absl::StatusOr<Literal> Scatter(const Instruction& inst, Operands operands,
                                const CallFn& call) {
  const int count = static_cast<int>(operands.size());
  if (count < 3 || count % 2 == 0) {
    return ErrorAt(inst.location(),
                   absl::StrCat("scatter has ", count,
                                " operands, expected N operands, the indices "
                                "and N updates"));
  }
  const int n = (count - 1) / 2;
  for (int i = 0; i < count; ++i) {
    RETURN_IF_ERROR(CheckArrayOperand(inst, operands, i));
  }
  if (inst.called_computations().size() != 1) {
    return ErrorAt(inst.location(), "scatter needs one to_apply computation");
  }
  const Shape& op_shape = operands[0]->shape();
  const Literal& indices = *operands[n];
  const Shape& upd_shape = operands[n + 1]->shape();
  std::vector<PrimitiveType> types(n);
  for (int i = 0; i < n; ++i) {
    std::string what = absl::StrCat("operand ", i);
    std::string upd_what = absl::StrCat("operand ", n + 1 + i);
    types[i] = operands[i]->shape().element_type();
    RETURN_IF_ERROR(CheckDimensions(
        inst, what, operands[i]->shape().dimensions(), op_shape.dimensions()));
    RETURN_IF_ERROR(CheckDimensions(inst, upd_what,
                                    operands[n + 1 + i]->shape().dimensions(),
                                    upd_shape.dimensions()));
    RETURN_IF_ERROR(CheckElementType(
        inst, upd_what, operands[n + 1 + i]->shape().element_type(), types[i]));
    const Shape& result_i =
        n == 1 ? inst.shape()
               : (inst.shape().IsTuple() && inst.shape().tuple_size() == n
                      ? inst.shape().tuple_shapes(i)
                      : Shape());
    if (!result_i.IsArray() || !result_i.Compatible(operands[i]->shape())) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("scatter result shape ", inst.shape().ToString(false),
                       " does not match its operands"));
    }
  }
  const ScatterDimensionNumbers& s = inst.scatter_dnums();
  DimensionNumbers dn{s.update_window_dims,
                      s.inserted_window_dims,
                      s.scatter_dims_to_operand_dims,
                      s.index_vector_dim,
                      s.input_batching_dims,
                      s.scatter_indices_batching_dims,
                      "update_window_dims",
                      "inserted_window_dims",
                      "scatter_dims_to_operand_dims",
                      "input_batching_dims",
                      "scatter_indices_batching_dims",
                      "updates"};
  ASSIGN_OR_RETURN(
      IndexPlan plan,
      PlanIndexing(inst, dn, op_shape, indices.shape(), upd_shape.rank()));
  // Update scatter dimensions walk the index vectors; update window
  // dimensions may be smaller than the operand's.
  std::vector<int64_t> scatter_sizes(plan.batch_dims.size());
  for (size_t k = 0; k < plan.batch_dims.size(); ++k) {
    int64_t want = indices.shape().dimensions(plan.indices_batch_dims[k]);
    scatter_sizes[k] = upd_shape.dimensions(plan.batch_dims[k]);
    if (scatter_sizes[k] != want) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("updates dimension ", plan.batch_dims[k], " has size ",
                       scatter_sizes[k], ", the indices have ", want));
    }
  }
  std::vector<int64_t> window_sizes(dn.window_dims.size());
  std::vector<int64_t> extent(op_shape.rank(), 1);
  for (size_t k = 0; k < dn.window_dims.size(); ++k) {
    int64_t d = plan.operand_window_dims[k];
    window_sizes[k] = upd_shape.dimensions(dn.window_dims[k]);
    extent[d] = window_sizes[k];
    if (window_sizes[k] > op_shape.dimensions(d)) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("updates window dimension ", dn.window_dims[k],
                       " has size ", window_sizes[k],
                       ", larger than operand "
                       "dimension ",
                       d, " of size ", op_shape.dimensions(d)));
    }
  }

  std::vector<Literal> results;
  results.reserve(n);
  for (int i = 0; i < n; ++i) results.push_back(*operands[i]);
  Combiner combiner(inst, call, types);
  const std::vector<int64_t> op_strides =
      RowMajorStrides(op_shape.dimensions());
  const std::vector<int64_t> upd_strides =
      RowMajorStrides(upd_shape.dimensions());

  std::vector<int64_t> batch(scatter_sizes.size(), 0);
  std::vector<int64_t> start(op_shape.rank());
  std::vector<int64_t> window(window_sizes.size(), 0);
  if (HasZeroDimension(scatter_sizes) || HasZeroDimension(window_sizes)) {
    return n == 1 ? std::move(results[0])
                  : Literal::MakeTuple(std::move(results));
  }
  do {
    std::fill(start.begin(), start.end(), 0);
    int64_t base = IndexVectorBase(plan, batch);
    for (int64_t j = 0; j < plan.vector_size; ++j) {
      start[dn.start_index_map[j]] =
          ReadIndexValue(indices, base + j * plan.vector_stride);
    }
    for (size_t i = 0; i < plan.batching_positions.size(); ++i) {
      start[dn.operand_batching_dims[i]] = batch[plan.batching_positions[i]];
    }
    bool inside = true;
    for (int64_t d = 0; d < op_shape.rank(); ++d) {
      inside = inside && start[d] >= 0 &&
               start[d] <= op_shape.dimensions(d) - extent[d];
    }
    if (!inside) continue;
    int64_t op_base = LinearIndex(start, op_strides);
    int64_t upd_base = 0;
    for (size_t k = 0; k < batch.size(); ++k) {
      upd_base += batch[k] * upd_strides[plan.batch_dims[k]];
    }
    do {
      int64_t op_linear = op_base;
      int64_t upd_linear = upd_base;
      for (size_t k = 0; k < window.size(); ++k) {
        op_linear += window[k] * op_strides[plan.operand_window_dims[k]];
        upd_linear += window[k] * upd_strides[dn.window_dims[k]];
      }
      RETURN_IF_ERROR(combiner.Apply(results, operands.subspan(n + 1),
                                     op_linear, upd_linear));
    } while (NextIndex(window_sizes, absl::MakeSpan(window)));
  } while (NextIndex(scatter_sizes, absl::MakeSpan(batch)));
  if (n == 1) return std::move(results[0]);
  return Literal::MakeTuple(std::move(results));
}

}  // namespace

absl::StatusOr<Literal> EvalGatherScatter(const Instruction& inst,
                                          Operands operands,
                                          const CallFn& call) {
  switch (inst.opcode()) {
    case Opcode::kGather:
      return Gather(inst, operands);
    case Opcode::kScatter:
      return Scatter(inst, operands, call);
    default:
      return ErrorAt(inst.location(),
                     absl::StrCat(Sv(OpcodeName(inst.opcode())),
                                  " is not gather or scatter"));
  }
}

}  // namespace aotc::eval
