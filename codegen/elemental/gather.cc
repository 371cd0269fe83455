// Element generator for gather (see elemental_emitter.h), with the semantics of the
// reference evaluator (compiler/evaluator/gather_scatter.cc).
//
// An output element is found without any buffer of the gather's own: the
// output dimensions split into offset (window) dimensions, which walk the
// slice, and batch dimensions, which pick an index vector. The vector's
// components are read from the start-indices generator, widened to i64 and
// clamped so that the whole slice lies inside the operand; operand batching
// dimensions take their position from the matching batch dimension; the
// window offsets are added; the operand generator is read there. Since the
// generator only reads its operands, a gather fuses into its consumers like
// any element-wise value (an embedding lookup and the add after it are one
// loop nest).
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "codegen/elemental/elemental_emitter.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// The dimension numbers resolved against the shapes, all compile-time
// integers: what the generator needs for every output element.
struct GatherPlan {
  // Components of one index vector, and the indices dimension holding them
  // (-1 when index_vector_dim is the implicit trailing dimension).
  int64_t vector_size = 0;
  int64_t vector_dim = -1;
  // start_index_map[j]: the operand dimension component j starts, and the
  // largest start that keeps the slice inside it (dim - slice size).
  std::vector<int64_t> start_dims;
  std::vector<int64_t> start_limits;
  // For the k-th batch dimension of the output (ascending): the output
  // dimension and the indices dimension it walks.
  std::vector<int64_t> out_batch_dims;
  std::vector<int64_t> indices_batch_dims;
  // For the k-th offset dimension of the output: the output dimension and
  // the operand dimension it walks (operand dimensions neither collapsed
  // nor batching, ascending).
  std::vector<int64_t> out_offset_dims;
  std::vector<int64_t> operand_window_dims;
  // For each operand batching dimension: the output dimension whose
  // position it takes.
  std::vector<int64_t> batching_operand_dims;
  std::vector<int64_t> batching_out_dims;
};

bool Contains(const std::vector<int64_t>& dims, int64_t d) {
  return std::find(dims.begin(), dims.end(), d) != dims.end();
}

absl::Status GatherError(const Instruction& inst, std::string_view what) {
  return ErrorAt(inst.location(), absl::StrCat("gather: ", Sv(what)));
}

// Checks every dimension number the generator relies on, so that a module
// the verifier did not see gives a located error instead of a crash.
absl::StatusOr<GatherPlan> PlanGather(const Instruction& inst) {
  if (inst.operand_count() != 2 || !inst.operand(0)->shape().IsArray() ||
      !inst.operand(1)->shape().IsArray() || !inst.shape().IsArray()) {
    return GatherError(inst, "expected an array operand and array indices");
  }
  const Shape& operand = inst.operand(0)->shape();
  const Shape& indices = inst.operand(1)->shape();
  const Shape& out = inst.shape();
  const GatherDimensionNumbers& g = inst.gather_dnums();
  const std::vector<int64_t>& sizes = inst.slice_sizes();
  const int64_t r = operand.rank();
  const int64_t q = indices.rank();
  if (!IsInteger(indices.element_type())) {
    return GatherError(
        inst, absl::StrCat("start indices have element type ",
                           Sv(PrimitiveTypeName(indices.element_type())),
                           ", expected an integer type"));
  }
  if (g.index_vector_dim < 0 || g.index_vector_dim > q) {
    return GatherError(inst,
                       absl::StrCat("index_vector_dim=", g.index_vector_dim,
                                    " is out of range for indices of "
                                    "rank ",
                                    q));
  }
  if (static_cast<int64_t>(sizes.size()) != r) {
    return GatherError(inst, absl::StrCat("slice_sizes=", BracedList(sizes),
                                          " does not match an operand of "
                                          "rank ",
                                          r));
  }
  GatherPlan plan;
  plan.vector_dim = g.index_vector_dim == q ? -1 : g.index_vector_dim;
  plan.vector_size =
      plan.vector_dim < 0 ? 1 : indices.dimensions(plan.vector_dim);
  if (static_cast<int64_t>(g.start_index_map.size()) != plan.vector_size) {
    return GatherError(
        inst, absl::StrCat("start_index_map=", BracedList(g.start_index_map),
                           " does not match index vectors of ",
                           plan.vector_size, " components"));
  }
  for (int64_t d : g.start_index_map) {
    if (d < 0 || d >= r) {
      return GatherError(inst, absl::StrCat("start_index_map names dimension ",
                                            d, " of an operand of rank ", r));
    }
    // A batching dimension takes its position from the batch index; the
    // evaluator refuses a start index for it too.
    if (Contains(g.operand_batching_dims, d)) {
      return GatherError(inst, absl::StrCat("start_index_map names operand "
                                            "batching dimension ",
                                            d));
    }
    plan.start_dims.push_back(d);
    plan.start_limits.push_back(operand.dimensions(d) - sizes[d]);
  }
  for (int64_t d = 0; d < r; ++d) {
    if (sizes[d] < 0 || sizes[d] > operand.dimensions(d)) {
      return GatherError(
          inst, absl::StrCat("slice size ", sizes[d],
                             " does not fit operand dimension ", d, " of size ",
                             operand.dimensions(d)));
    }
    if (!Contains(g.collapsed_slice_dims, d) &&
        !Contains(g.operand_batching_dims, d)) {
      plan.operand_window_dims.push_back(d);
    } else if (sizes[d] != 1) {
      // A collapsed or batching dimension is read at exactly one position.
      return GatherError(inst, absl::StrCat("slice size ", sizes[d],
                                            " in collapsed or batching "
                                            "dimension ",
                                            d, " is not 1"));
    }
  }
  for (int64_t d = 0; d < q; ++d) {
    if (d != g.index_vector_dim) plan.indices_batch_dims.push_back(d);
  }
  for (int64_t d = 0; d < out.rank(); ++d) {
    if (Contains(g.offset_dims, d)) {
      plan.out_offset_dims.push_back(d);
    } else {
      plan.out_batch_dims.push_back(d);
    }
  }
  if (plan.out_offset_dims.size() != g.offset_dims.size() ||
      plan.out_offset_dims.size() != plan.operand_window_dims.size() ||
      plan.out_batch_dims.size() != plan.indices_batch_dims.size()) {
    return GatherError(
        inst, absl::StrCat("offset_dims=", BracedList(g.offset_dims),
                           " does not fit an operand of rank ", r, " with ",
                           plan.operand_window_dims.size(),
                           " window dimensions, indices of rank ", q,
                           " and a result of rank ", out.rank()));
  }
  // The result's extents bound the positions the generator reads.
  for (size_t k = 0; k < plan.out_batch_dims.size(); ++k) {
    if (out.dimensions(plan.out_batch_dims[k]) !=
        indices.dimensions(plan.indices_batch_dims[k])) {
      return GatherError(
          inst, absl::StrCat("result dimension ", plan.out_batch_dims[k],
                             " does not match indices "
                             "dimension ",
                             plan.indices_batch_dims[k]));
    }
  }
  for (size_t k = 0; k < plan.out_offset_dims.size(); ++k) {
    if (out.dimensions(plan.out_offset_dims[k]) !=
        sizes[plan.operand_window_dims[k]]) {
      return GatherError(
          inst, absl::StrCat("result dimension ", plan.out_offset_dims[k],
                             " does not match the slice size "
                             "of operand dimension ",
                             plan.operand_window_dims[k]));
    }
  }
  if (g.operand_batching_dims.size() != g.start_indices_batching_dims.size()) {
    return GatherError(inst,
                       "operand_batching_dims and start_indices_batching_dims "
                       "differ in length");
  }
  for (size_t i = 0; i < g.operand_batching_dims.size(); ++i) {
    const int64_t dop = g.operand_batching_dims[i];
    const int64_t di = g.start_indices_batching_dims[i];
    auto at = std::find(plan.indices_batch_dims.begin(),
                        plan.indices_batch_dims.end(), di);
    if (dop < 0 || dop >= r || at == plan.indices_batch_dims.end() ||
        operand.dimensions(dop) != indices.dimensions(di)) {
      return GatherError(
          inst, absl::StrCat("batching dimensions ", dop, " (operand) and ", di,
                             " (indices) do not pair up"));
    }
    plan.batching_operand_dims.push_back(dop);
    plan.batching_out_dims.push_back(
        plan.out_batch_dims[at - plan.indices_batch_dims.begin()]);
  }
  return plan;
}

// Start index value `v` (an integer of type `type`) as an i64 in
// [0, limit]. A signed start below zero clamps to 0; an unsigned one is
// never below zero, and comparing it unsigned also clamps u64 values above
// INT64_MAX to `limit`, as the evaluator does.
Value* ClampStart(llvm::IRBuilderBase& b, Value* v, PrimitiveType type,
                  int64_t limit) {
  const bool is_signed = IsSignedInt(type);
  v = b.CreateIntCast(v, b.getInt64Ty(), is_signed);
  Value* hi = b.getInt64(limit);
  if (is_signed) {
    v = b.CreateSelect(b.CreateICmpSLT(v, b.getInt64(0)), b.getInt64(0), v);
    return b.CreateSelect(b.CreateICmpSGT(v, hi), hi, v);
  }
  return b.CreateSelect(b.CreateICmpUGT(v, hi), hi, v);
}

}  // namespace

absl::StatusOr<Generator> ElementalEmitter::Gather(
    const Instruction& inst, const std::vector<LeafGenerators>& ops) {
  ASSIGN_OR_RETURN(GatherPlan plan, PlanGather(inst));
  llvm::IRBuilderBase& b = b_;
  const Shape* operand = &inst.operand(0)->shape();
  const Shape* indices = &inst.operand(1)->shape();
  const Generator read_operand = ops[0][0];
  const Generator read_indices = ops[1][0];
  return Generator([&b, plan, operand, indices, read_operand,
                    read_indices](const Index& o) -> absl::StatusOr<Value*> {
    // The index vector this output element uses: its batch position, and
    // component j along the index vector dimension.
    Index at;
    at.shape = indices;
    at.multi.assign(indices->rank(), nullptr);
    for (size_t k = 0; k < plan.indices_batch_dims.size(); ++k) {
      at.multi[plan.indices_batch_dims[k]] = o.multi[plan.out_batch_dims[k]];
    }
    Index i;
    i.shape = operand;
    i.multi.assign(operand->rank(), b.getInt64(0));
    for (int64_t j = 0; j < plan.vector_size; ++j) {
      if (plan.vector_dim >= 0) at.multi[plan.vector_dim] = b.getInt64(j);
      ASSIGN_OR_RETURN(Value * v, read_indices(at));
      i.multi[plan.start_dims[j]] =
          ClampStart(b, v, indices->element_type(), plan.start_limits[j]);
    }
    // Batching dimensions are not clamped: they pair with indices
    // dimensions of the same size, so the position is always in range.
    for (size_t k = 0; k < plan.batching_operand_dims.size(); ++k) {
      i.multi[plan.batching_operand_dims[k]] =
          o.multi[plan.batching_out_dims[k]];
    }
    for (size_t k = 0; k < plan.operand_window_dims.size(); ++k) {
      Value*& d = i.multi[plan.operand_window_dims[k]];
      d = b.CreateAdd(d, o.multi[plan.out_offset_dims[k]]);
    }
    return read_operand(i);
  });
}

}  // namespace aotc::codegen
