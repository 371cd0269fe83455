// StableHLO parser: chlo.ragged_dot, a dot_general whose lhs is split into
// groups of consecutive rows along one "ragged" dimension by group_sizes
// (tensor<g x iN>), lowered into dot_general, masks and a reduction.
//
// The three modes, by where lhs_ragged_dimensions points:
//   - a non-contracting lhs dimension ([m, k] x [g, k, n] -> [m, n]): row r
//     of group j is multiplied by rhs's group j (rhs_group_dimensions). The
//     dot of lhs with every group gives [..., m, g, n]; each row keeps its
//     own group's product (select on start_j <= r < end_j, so a NaN in
//     another group's product does not leak) and the group dimension is
//     summed away, all other terms being zero. Rows past the last group
//     are zero.
//   - a contracting dimension ([m, k] x [k, n] -> [g, m, n]): result j is
//     the product over group j's part of k: lhs is broadcast to [g, m, k]
//     with the columns outside group j zeroed, then multiplied with rhs.
//     Batching dimensions are refused in this mode.
//   - a batching dimension: groups do not change the product, an ordinary
//     dot_general.
// Group j spans [start_j, start_j + size_j) with start_j the sum of the
// sizes before it (a reduction over a triangular mask).
#include <algorithm>
#include <functional>
#include <numeric>

#include "compiler/frontend/stablehlo/op_builders.h"
#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {
namespace {

bool Contains(const std::vector<int64_t>& v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The dimensions of `rank` not in `a` or `b`, in order.
std::vector<int64_t> FreeDims(int rank, const std::vector<int64_t>& a,
                              const std::vector<int64_t>& b) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(a, d) && !Contains(b, d)) free.push_back(d);
  }
  return free;
}

struct RaggedEmitter {
  std::function<Instruction*(Opcode, Shape, std::vector<Instruction*>)> emit;
  std::function<Computation*(PrimitiveType)> adder;

  Instruction* Emit(Opcode o, PrimitiveType t, std::vector<int64_t> dims,
                    std::vector<Instruction*> v) {
    return emit(o, Shape::Array(t, std::move(dims)), std::move(v));
  }
  Instruction* Broadcast(Instruction* x, std::vector<int64_t> dims,
                         std::vector<int64_t> map) {
    Instruction* b =
        Emit(Opcode::kBroadcast, x->shape().element_type(), std::move(dims),
             {x});
    b->mutable_attrs().dimensions = std::move(map);
    return b;
  }
  Instruction* Zero(PrimitiveType t, const std::vector<int64_t>& dims) {
    Instruction* z = Emit(Opcode::kConstant, t, {}, {});
    z->mutable_attrs().literal = Literal(z->shape());
    return Broadcast(z, dims, {});
  }
  Instruction* Compare(ComparisonDirection d, Instruction* a, Instruction* b) {
    Instruction* c =
        Emit(Opcode::kCompare, PrimitiveType::kPred, a->shape().dimensions(),
             {a, b});
    c->mutable_attrs().comparison_direction = d;
    return c;
  }
  Instruction* Iota(PrimitiveType t, const std::vector<int64_t>& dims,
                    int64_t d) {
    Instruction* i = Emit(Opcode::kIota, t, dims, {});
    i->mutable_attrs().dimensions = {d};
    return i;
  }
  Instruction* Sum(Instruction* x, int64_t d) {
    const PrimitiveType t = x->shape().element_type();
    std::vector<int64_t> dims = x->shape().dimensions();
    dims.erase(dims.begin() + d);
    Instruction* zero = Emit(Opcode::kConstant, t, {}, {});
    zero->mutable_attrs().literal = Literal(Shape::Scalar(t));
    Instruction* r = Emit(Opcode::kReduce, t, dims, {x, zero});
    r->mutable_attrs().dimensions = {d};
    r->set_called_computations({adder(t)});
    return r;
  }
  // For sizes s[g]: whether position p (dimension `axis` of `dims`) lies
  // in group j (dimension `group_axis`), as pred[dims].
  Instruction* InGroup(Instruction* sizes, const std::vector<int64_t>& dims,
                       int64_t axis, int64_t group_axis) {
    const PrimitiveType t = sizes->shape().element_type();
    const int64_t g = sizes->shape().dimensions(0);
    // start[j] = sum over h < j of s[h].
    Instruction* h = Iota(t, {g, g}, 1);
    Instruction* j = Iota(t, {g, g}, 0);
    Instruction* before = Emit(
        Opcode::kSelect, t, {g, g},
        {Compare(ComparisonDirection::kLt, h, j), Broadcast(sizes, {g, g}, {1}),
         Zero(t, {g, g})});
    Instruction* start = Sum(before, 1);
    Instruction* end = Emit(Opcode::kAdd, t, {g}, {start, sizes});
    Instruction* p = Iota(t, dims, axis);
    Instruction* in = Emit(
        Opcode::kAnd, PrimitiveType::kPred, dims,
        {Compare(ComparisonDirection::kGe, p,
                 Broadcast(start, dims, {group_axis})),
         Compare(ComparisonDirection::kLt, p,
                 Broadcast(end, dims, {group_axis}))});
    return in;
  }
};

}  // namespace

absl::StatusOr<Instruction*> OpBuilders::ChloRaggedDot(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(3));
  ASSIGN_OR_RETURN(const Attr* d,
                   b.reader.Dnums("ragged_dot_dimension_numbers"));
  DotDimensionNumbers dn;
  std::vector<int64_t> ragged, group;
  RETURN_IF_ERROR(b.reader.Field(*d, "lhs_batching_dimensions", &dn.lhs_batch));
  RETURN_IF_ERROR(b.reader.Field(*d, "rhs_batching_dimensions", &dn.rhs_batch));
  RETURN_IF_ERROR(
      b.reader.Field(*d, "lhs_contracting_dimensions", &dn.lhs_contracting));
  RETURN_IF_ERROR(
      b.reader.Field(*d, "rhs_contracting_dimensions", &dn.rhs_contracting));
  RETURN_IF_ERROR(b.reader.Field(*d, "lhs_ragged_dimensions", &ragged));
  RETURN_IF_ERROR(b.reader.Field(*d, "rhs_group_dimensions", &group));
  Instruction* lhs = b.op.operands[0];
  Instruction* rhs = b.op.operands[1];
  Instruction* sizes = b.op.operands[2];
  const Shape& ls = lhs->shape();
  const Shape& rs = rhs->shape();
  if (!ls.IsArray() || !rs.IsArray() || !b.shape.IsArray() ||
      !sizes->shape().IsArray() || sizes->shape().rank() != 1 ||
      !IsInteger(sizes->shape().element_type()) || ragged.size() != 1 ||
      ragged[0] < 0 || ragged[0] >= ls.rank() || group.size() > 1) {
    return b.reader.Error(
        "chlo.ragged_dot needs one lhs ragged dimension, at most one rhs "
        "group dimension and rank-1 integer group sizes");
  }
  const int64_t r = ragged[0];
  const int64_t g = sizes->shape().dimensions(0);
  const PrimitiveType t = b.shape.element_type();
  RaggedEmitter e{
      [&](Opcode o, Shape s, std::vector<Instruction*> v) {
        return b.EmitNamed(o, "ragged_dot", std::move(s), std::move(v));
      },
      [&](PrimitiveType type) {
        b.parser.owned_.push_back(std::make_unique<Computation>(
            b.parser.RegionName("ragged_dot.add"), b.op.loc));
        Computation* add = b.parser.owned_.back().get();
        std::vector<Instruction*> params;
        for (int64_t i = 0; i < 2; ++i) {
          Instruction* p =
              b.parser.Emit(add, Opcode::kParameter, absl::StrCat("p", i),
                            Shape::Scalar(type), {}, b.op.loc);
          p->mutable_attrs().parameter_number = i;
          params.push_back(p);
        }
        add->set_root(b.parser.Emit(add, Opcode::kAdd, "add",
                                    Shape::Scalar(type), params, b.op.loc));
        return add;
      }};
  auto dot = [&](Instruction* l, Instruction* rr, const DotDimensionNumbers& n,
                 std::vector<int64_t> dims) {
    Instruction* p = e.Emit(Opcode::kDot, t, std::move(dims), {l, rr});
    p->mutable_attrs().dot_dnums = n;
    return p;
  };
  // The dot's dimensions: batch, lhs free, rhs free.
  auto dot_dims = [](const Shape& l, const Shape& rr,
                     const DotDimensionNumbers& n) {
    std::vector<int64_t> dims;
    for (int64_t i : n.lhs_batch) dims.push_back(l.dimensions(i));
    for (int64_t i : FreeDims(l.rank(), n.lhs_batch, n.lhs_contracting)) {
      dims.push_back(l.dimensions(i));
    }
    for (int64_t i : FreeDims(rr.rank(), n.rhs_batch, n.rhs_contracting)) {
      dims.push_back(rr.dimensions(i));
    }
    return dims;
  };

  if (Contains(dn.lhs_batch, r)) {  // a batch dimension: a plain product
    if (!group.empty()) {
      return b.reader.Error(
          "chlo.ragged_dot over a batching dimension has no group dimension");
    }
    return dot(lhs, rhs, dn, b.shape.dimensions());
  }
  if (Contains(dn.lhs_contracting, r)) {
    if (!group.empty() || !dn.lhs_batch.empty()) {
      return b.reader.Error(
          "chlo.ragged_dot over a contracting dimension is supported without "
          "batching or group dimensions");
    }
    // lhs' = [g, lhs...] with the columns outside group j zeroed.
    std::vector<int64_t> wide = ls.dimensions();
    wide.insert(wide.begin(), g);
    std::vector<int64_t> map(static_cast<size_t>(ls.rank()));
    std::iota(map.begin(), map.end(), 1);
    Instruction* in = e.InGroup(sizes, wide, r + 1, 0);
    Instruction* masked = e.Emit(
        Opcode::kSelect, ls.element_type(), wide,
        {in, e.Broadcast(lhs, wide, map), e.Zero(ls.element_type(), wide)});
    DotDimensionNumbers n = dn;
    for (int64_t& c : n.lhs_contracting) ++c;
    const Shape masked_shape = masked->shape();
    std::vector<int64_t> dims = dot_dims(masked_shape, rs, n);
    if (dims != b.shape.dimensions()) {
      return b.reader.Error("chlo.ragged_dot result type does not match "
                            "[groups, lhs free..., rhs free...]");
    }
    return dot(masked, rhs, n, dims);
  }
  // The ragged dimension is lhs-free: the group dimension is a free rhs
  // dimension of the product with every group.
  if (group.size() != 1 || group[0] < 0 || group[0] >= rs.rank() ||
      rs.dimensions(group[0]) != g) {
    return b.reader.Error("chlo.ragged_dot needs an rhs group dimension of "
                          "the group sizes' length");
  }
  std::vector<int64_t> dims = dot_dims(ls, rs, dn);
  // Where lhs's ragged dimension and rhs's group dimension land.
  const std::vector<int64_t> lhs_free =
      FreeDims(ls.rank(), dn.lhs_batch, dn.lhs_contracting);
  const std::vector<int64_t> rhs_free =
      FreeDims(rs.rank(), dn.rhs_batch, dn.rhs_contracting);
  const int64_t batch = static_cast<int64_t>(dn.lhs_batch.size());
  const int64_t row_axis =
      batch + (std::find(lhs_free.begin(), lhs_free.end(), r) - lhs_free.begin());
  const int64_t group_axis =
      batch + static_cast<int64_t>(lhs_free.size()) +
      (std::find(rhs_free.begin(), rhs_free.end(), group[0]) - rhs_free.begin());
  std::vector<int64_t> out = dims;
  out.erase(out.begin() + group_axis);
  if (out != b.shape.dimensions()) {
    return b.reader.Error("chlo.ragged_dot result type does not match the "
                          "product without the group dimension");
  }
  Instruction* all = dot(lhs, rhs, dn, dims);
  Instruction* in = e.InGroup(sizes, dims, row_axis, group_axis);
  Instruction* kept =
      e.Emit(Opcode::kSelect, t, dims, {in, all, e.Zero(t, dims)});
  return e.Sum(kept, group_axis);
}

}  // namespace aotc::shlo
