// The scatter strategy's serial update loop (see scatter.h).
//
// The dimension numbers are resolved once, at compile time, into integer
// tables (the mirror of gather.cc): the updates dimensions split
// into window dimensions, which walk a window of the operand, and scatter
// dimensions, which walk the index vectors. Everything the loop relies on is
// checked first, so a module the verifier did not see gives a located error
// rather than code that writes outside its buffers.
#include "codegen/strategies/scatter.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// The dimension numbers resolved against the shapes.
struct ScatterPlan {
  // Operands (and updates, and results).
  int n = 0;
  std::vector<PrimitiveType> types;
  // Components of one index vector, and the indices dimension holding them
  // (-1 when index_vector_dim is the implicit trailing dimension).
  int64_t vector_size = 0;
  int64_t vector_dim = -1;
  // scatter_dims_to_operand_dims: the operand dimension of component j.
  std::vector<int64_t> start_dims;
  // The k-th scatter dimension of the updates (ascending) walks the k-th
  // indices dimension other than index_vector_dim; scatter_sizes[k] is its
  // extent.
  std::vector<int64_t> update_scatter_dims;
  std::vector<int64_t> indices_batch_dims;
  std::vector<int64_t> scatter_sizes;
  // The k-th update window dimension walks the k-th operand dimension that
  // is neither inserted nor batching, over window_sizes[k] positions.
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> operand_window_dims;
  std::vector<int64_t> window_sizes;
  // Operand batching dimension i takes the position of scatter dimension
  // batching_positions[i].
  std::vector<int64_t> batching_operand_dims;
  std::vector<int64_t> batching_positions;
  // Per operand dimension: the largest start that keeps the window inside
  // (dimension size - window extent, the extent being 1 outside windows).
  std::vector<int64_t> start_limits;
};

absl::Status ScatterError(const Instruction& inst, std::string_view what) {
  return ErrorAt(inst.location(), absl::StrCat("scatter: ", Sv(what)));
}

// Claims `dims` for attribute `name` in `owner` (one entry per dimension
// below `bound`): an error when one is out of range or already claimed.
absl::Status ClaimDims(const Instruction& inst, const char* name,
                       const std::vector<int64_t>& dims, int64_t bound,
                       std::vector<const char*>& owner) {
  for (int64_t d : dims) {
    const std::string prefix = absl::StrCat(name, "=", BracedList(dims));
    if (d < 0 || d >= bound) {
      return ScatterError(inst, absl::StrCat(prefix, " names dimension ", d,
                                             ", outside [0, ", bound, ")"));
    }
    if (owner[d] != nullptr) {
      return ScatterError(
          inst, absl::StrCat(prefix, " names dimension ", d, ", which ",
                             owner[d], " names too"));
    }
    owner[d] = name;
  }
  return absl::OkStatus();
}

// The operands, results and combiner: N arrays of one shape, integer
// indices, N updates of one shape with the operands' element types, results
// like the operands, and a combiner of 2N scalars returning N.
absl::Status CheckOperands(const Instruction& inst, ScatterPlan& plan) {
  const int count = inst.operand_count();
  if (count < 3 || count % 2 == 0) {
    return ScatterError(inst, absl::StrCat("has ", count,
                                           " operands, expected N operands, "
                                           "the indices and N updates"));
  }
  for (const Instruction* o : inst.operands()) {
    if (!o->shape().IsArray()) {
      return ScatterError(
          inst, absl::StrCat("operand of shape ", o->shape().ToString(false),
                             ", expected an array"));
    }
  }
  const int n = (count - 1) / 2;
  plan.n = n;
  const Shape& operand = inst.operand(0)->shape();
  const Shape& updates = inst.operand(n + 1)->shape();
  const std::vector<const Shape*> results = inst.shape().Leaves();
  if (static_cast<int>(results.size()) != n ||
      (n > 1 && (!inst.shape().IsTuple() || inst.shape().tuple_size() != n))) {
    return ScatterError(inst,
                        absl::StrCat("result ", inst.shape().ToString(false),
                                     " does not hold ", n, " arrays"));
  }
  for (int k = 0; k < n; ++k) {
    const Shape& op = inst.operand(k)->shape();
    const Shape& upd = inst.operand(n + 1 + k)->shape();
    plan.types.push_back(op.element_type());
    if (!op.SameDimensions(operand) || !upd.SameDimensions(updates) ||
        upd.element_type() != op.element_type() ||
        !results[k]->SameDimensions(op) ||
        results[k]->element_type() != op.element_type()) {
      return ScatterError(
          inst, absl::StrCat("operand ", k, " ", op.ToString(false),
                             ", updates ", upd.ToString(false), " and result ",
                             results[k]->ToString(false),
                             " do not match the first operand ",
                             operand.ToString(false), " and updates ",
                             updates.ToString(false)));
    }
  }
  if (!IsInteger(inst.operand(n)->shape().element_type())) {
    return ScatterError(inst, "the indices are not integers");
  }
  if (inst.called_computations().size() != 1) {
    return ScatterError(inst, "needs exactly one to_apply computation");
  }
  const Computation& f = *inst.called_computations()[0];
  bool ok = f.num_parameters() == 2 * n;
  for (int i = 0; ok && i < 2 * n; ++i) {
    const Shape& p = f.parameter(i)->shape();
    ok = p.IsScalar() && p.element_type() == plan.types[i % n];
  }
  const std::vector<const Shape*> root = f.root()->shape().Leaves();
  ok = ok && static_cast<int>(root.size()) == n;
  for (int k = 0; ok && k < n; ++k) {
    ok = root[k]->IsScalar() && root[k]->element_type() == plan.types[k];
  }
  if (!ok) {
    return ScatterError(inst, absl::StrCat("to_apply computation '", f.name(),
                                           "' does not take ", 2 * n,
                                           " scalars of the operand types and "
                                           "return ",
                                           n));
  }
  return absl::OkStatus();
}

// Checks every dimension number the loop relies on and resolves them.
absl::StatusOr<ScatterPlan> MakeScatterPlan(const Instruction& inst) {
  ScatterPlan plan;
  RETURN_IF_ERROR(CheckOperands(inst, plan));
  const int n = plan.n;
  const Shape& operand = inst.operand(0)->shape();
  const Shape& indices = inst.operand(n)->shape();
  const Shape& updates = inst.operand(n + 1)->shape();
  const ScatterDimensionNumbers& s = inst.scatter_dnums();
  const int64_t r = operand.rank();
  const int64_t q = indices.rank();
  const int64_t ivd = s.index_vector_dim;
  if (ivd < 0 || ivd > q) {
    return ScatterError(inst, absl::StrCat("index_vector_dim=", ivd,
                                           " is out of range for indices of "
                                           "rank ",
                                           q));
  }
  plan.vector_dim = ivd == q ? -1 : ivd;
  plan.vector_size = ivd == q ? 1 : indices.dimensions(ivd);
  if (static_cast<int64_t>(s.scatter_dims_to_operand_dims.size()) !=
      plan.vector_size) {
    return ScatterError(inst,
                        absl::StrCat("scatter_dims_to_operand_dims=",
                                     BracedList(s.scatter_dims_to_operand_dims),
                                     " does not match index vectors of ",
                                     plan.vector_size, " components"));
  }
  plan.start_dims = s.scatter_dims_to_operand_dims;
  // Inserted and batching operand dimensions are disjoint, and so are the
  // started and batching ones; the rest are window dimensions.
  std::vector<const char*> not_window(r, nullptr);
  std::vector<const char*> started(r, nullptr);
  RETURN_IF_ERROR(ClaimDims(inst, "inserted_window_dims",
                            s.inserted_window_dims, r, not_window));
  RETURN_IF_ERROR(ClaimDims(inst, "input_batching_dims", s.input_batching_dims,
                            r, not_window));
  RETURN_IF_ERROR(ClaimDims(inst, "input_batching_dims", s.input_batching_dims,
                            r, started));
  RETURN_IF_ERROR(ClaimDims(inst, "scatter_dims_to_operand_dims",
                            s.scatter_dims_to_operand_dims, r, started));
  for (int64_t d = 0; d < r; ++d) {
    if (not_window[d] == nullptr) plan.operand_window_dims.push_back(d);
  }
  for (int64_t d = 0; d < q; ++d) {
    if (d != ivd) plan.indices_batch_dims.push_back(d);
  }
  // Update window dimensions: ascending, one per operand window dimension;
  // the other updates dimensions walk the index vectors.
  const int64_t u = updates.rank();
  plan.update_window_dims = s.update_window_dims;
  for (size_t k = 0; k < s.update_window_dims.size(); ++k) {
    const int64_t d = s.update_window_dims[k];
    if (d < 0 || d >= u || (k > 0 && d <= s.update_window_dims[k - 1])) {
      return ScatterError(
          inst,
          absl::StrCat("update_window_dims=", BracedList(s.update_window_dims),
                       " is not an ascending list of dimensions below ", u));
    }
  }
  for (int64_t d = 0; d < u; ++d) {
    if (std::find(s.update_window_dims.begin(), s.update_window_dims.end(),
                  d) == s.update_window_dims.end()) {
      plan.update_scatter_dims.push_back(d);
    }
  }
  if (plan.update_window_dims.size() != plan.operand_window_dims.size() ||
      plan.update_scatter_dims.size() != plan.indices_batch_dims.size()) {
    return ScatterError(
        inst,
        absl::StrCat("update_window_dims=", BracedList(s.update_window_dims),
                     " does not fit an operand of rank ", r, " with ",
                     plan.operand_window_dims.size(),
                     " window dimensions, indices of rank ", q,
                     " and updates of rank ", u));
  }
  for (size_t k = 0; k < plan.update_scatter_dims.size(); ++k) {
    const int64_t d = plan.update_scatter_dims[k];
    const int64_t want = indices.dimensions(plan.indices_batch_dims[k]);
    if (updates.dimensions(d) != want) {
      return ScatterError(
          inst,
          absl::StrCat("updates dimension ", d, " has size ",
                       updates.dimensions(d), ", the indices have ", want));
    }
    plan.scatter_sizes.push_back(want);
  }
  std::vector<int64_t> extent(r, 1);
  for (size_t k = 0; k < plan.update_window_dims.size(); ++k) {
    const int64_t d = plan.operand_window_dims[k];
    const int64_t size = updates.dimensions(plan.update_window_dims[k]);
    if (size > operand.dimensions(d)) {
      return ScatterError(
          inst,
          absl::StrCat("updates window dimension ", plan.update_window_dims[k],
                       " has size ", size, ", larger than operand dimension ",
                       d, " of size ", operand.dimensions(d)));
    }
    plan.window_sizes.push_back(size);
    extent[d] = size;
  }
  // Batching dimensions pair up: an indices dimension (not the index
  // vector's) with an operand dimension of the same size.
  if (s.scatter_indices_batching_dims.size() != s.input_batching_dims.size()) {
    return ScatterError(inst,
                        "input_batching_dims and scatter_indices_batching_dims "
                        "differ in length");
  }
  std::vector<const char*> indices_owner(q, nullptr);
  if (ivd < q) indices_owner[ivd] = "index_vector_dim";
  RETURN_IF_ERROR(ClaimDims(inst, "scatter_indices_batching_dims",
                            s.scatter_indices_batching_dims, q, indices_owner));
  for (size_t i = 0; i < s.input_batching_dims.size(); ++i) {
    const int64_t di = s.scatter_indices_batching_dims[i];
    const int64_t dop = s.input_batching_dims[i];
    if (indices.dimensions(di) != operand.dimensions(dop)) {
      return ScatterError(
          inst, absl::StrCat("indices batching dimension ", di, " has size ",
                             indices.dimensions(di),
                             " but operand batching dimension ", dop,
                             " has size ", operand.dimensions(dop)));
    }
    plan.batching_operand_dims.push_back(dop);
    plan.batching_positions.push_back(di < ivd ? di : di - 1);
  }
  for (int64_t d = 0; d < r; ++d) {
    plan.start_limits.push_back(operand.dimensions(d) - extent[d]);
  }
  return plan;
}

// Emits the loops of one scatter from its plan.
class ScatterLoops {
 public:
  ScatterLoops(const LoopArgs& a, const ScatterPlan& plan)
      : a_(a),
        b_(a.b),
        plan_(plan),
        indices_(&a.inst.operand(plan.n)->shape()),
        updates_(&a.inst.operand(plan.n + 1)->shape()),
        combiner_(*a.inst.called_computations()[0]),
        emitter_(a.mc, a.b) {}

  absl::Status Emit() {
    RETURN_IF_ERROR(CopyOperands());
    // An operand dimension smaller than the window (a size-0 dimension)
    // holds no window at all: every update is skipped.
    for (int64_t limit : plan_.start_limits) {
      if (limit < 0) return absl::OkStatus();
    }
    return EmitBoxLoop(b_, plan_.scatter_sizes, "scatter.update",
                       [&](const std::vector<Value*>& p) { return Update(p); });
  }

 private:
  // The outputs start as the operands. An output that buffer assignment
  // placed on its operand's bytes (in place) already holds them.
  absl::Status CopyOperands() {
    for (int k = 0; k < plan_.n; ++k) {
      const IrArray& out = a_.out[k];
      const Generator& g = a_.ops[k][0];
      llvm::BasicBlock* done = nullptr;
      if (a_.ins != nullptr) {
        llvm::Function* f = b_.GetInsertBlock()->getParent();
        auto* copy = llvm::BasicBlock::Create(b_.getContext(), "scatter.copy", f);
        done = llvm::BasicBlock::Create(b_.getContext(), "scatter.copied", f);
        b_.CreateCondBr(b_.CreateICmpEQ(out.base(), (*a_.ins)[k][0].base()),
                        done, copy);
        b_.SetInsertPoint(copy);
      }
      RETURN_IF_ERROR(EmitArrayLoop(
          b_, out.shape(), a_.inst.name(),
          [&](const Index& index) -> absl::Status {
            ASSIGN_OR_RETURN(Value * v, g(index));
            out.Write(b_, index, v);
            return absl::OkStatus();
          }));
      if (done != nullptr) {
        b_.CreateBr(done);
        b_.SetInsertPoint(done);
      }
    }
    return absl::OkStatus();
  }

  // The window of scatter position `p`, applied when it lies inside.
  absl::Status Update(const std::vector<Value*>& p) {
    // The window's start: index vector components where the vector names
    // them, the scatter position in batching dimensions, 0 elsewhere.
    std::vector<Value*> start(a_.out[0].shape().rank(), b_.getInt64(0));
    Index at;
    at.shape = indices_;
    at.multi.assign(indices_->rank(), nullptr);
    for (size_t k = 0; k < plan_.indices_batch_dims.size(); ++k) {
      at.multi[plan_.indices_batch_dims[k]] = p[k];
    }
    Value* inside = b_.getTrue();
    for (int64_t j = 0; j < plan_.vector_size; ++j) {
      if (plan_.vector_dim >= 0) at.multi[plan_.vector_dim] = b_.getInt64(j);
      ASSIGN_OR_RETURN(Value * v, a_.ops[plan_.n][0](at));
      // Widened by signedness and compared unsigned: a negative signed
      // start becomes a huge value, as does a u64 start above INT64_MAX,
      // and both lie past every limit.
      const int64_t d = plan_.start_dims[j];
      Value* wide = b_.CreateIntCast(v, b_.getInt64Ty(),
                                     IsSignedInt(indices_->element_type()));
      inside = b_.CreateAnd(
          inside, b_.CreateICmpULE(wide, b_.getInt64(plan_.start_limits[d])));
      start[d] = wide;
    }
    // Batching dimensions pair with indices dimensions of the same size,
    // so their position is always inside.
    for (size_t i = 0; i < plan_.batching_operand_dims.size(); ++i) {
      start[plan_.batching_operand_dims[i]] = p[plan_.batching_positions[i]];
    }
    llvm::Function* f = b_.GetInsertBlock()->getParent();
    auto* body = llvm::BasicBlock::Create(b_.getContext(), "scatter.inside", f);
    auto* skip = llvm::BasicBlock::Create(b_.getContext(), "scatter.next", f);
    b_.CreateCondBr(inside, body, skip);
    b_.SetInsertPoint(body);
    RETURN_IF_ERROR(EmitBoxLoop(
        b_, plan_.window_sizes, "scatter.window",
        [&](const std::vector<Value*>& w) { return Combine(p, start, w); }));
    b_.CreateBr(skip);
    b_.SetInsertPoint(skip);
    return absl::OkStatus();
  }

  // out_k[start + w] = to_apply(out_0[..].., upd_0[p, w]..)[k] for every
  // k, every current value read before any is written.
  absl::Status Combine(const std::vector<Value*>& p,
                       const std::vector<Value*>& start,
                       const std::vector<Value*>& w) {
    Index o;
    o.multi = start;
    Index upd;
    upd.shape = updates_;
    upd.multi.assign(updates_->rank(), nullptr);
    for (size_t k = 0; k < plan_.update_scatter_dims.size(); ++k) {
      upd.multi[plan_.update_scatter_dims[k]] = p[k];
    }
    for (size_t k = 0; k < plan_.window_sizes.size(); ++k) {
      Value*& d = o.multi[plan_.operand_window_dims[k]];
      d = b_.CreateAdd(d, w[k]);
      upd.multi[plan_.update_window_dims[k]] = w[k];
    }
    const int n = plan_.n;
    std::vector<Value*> args;
    for (int k = 0; k < n; ++k) args.push_back(a_.out[k].Read(b_, o));
    for (int k = 0; k < n; ++k) {
      ASSIGN_OR_RETURN(Value * v, a_.ops[n + 1 + k][0](upd));
      args.push_back(v);
    }
    ASSIGN_OR_RETURN(std::vector<Value*> r,
                     emitter_.CallScalar(combiner_, args));
    for (int k = 0; k < n; ++k) a_.out[k].Write(b_, o, r[k]);
    return absl::OkStatus();
  }

  const LoopArgs& a_;
  llvm::IRBuilderBase& b_;
  const ScatterPlan& plan_;
  const Shape* indices_;
  const Shape* updates_;
  const Computation& combiner_;
  ElementalEmitter emitter_;
};

absl::Status EmitScatter(const LoopArgs& a) {
  ASSIGN_OR_RETURN(const ScatterPlan plan, MakeScatterPlan(a.inst));
  return ScatterLoops(a, plan).Emit();
}

}  // namespace

std::optional<StrategyPlan> PlanScatter(const Instruction& inst) {
  if (inst.opcode() != Opcode::kScatter) return std::nullopt;
  // Every scatter is planned; inconsistent dimension numbers are reported,
  // located, when the loop is emitted. The loop stays serial: updates that
  // meet at one element must combine in order.
  StrategyPlan plan;
  plan.emit = EmitScatter;
  return plan;
}

}  // namespace aotc::codegen
