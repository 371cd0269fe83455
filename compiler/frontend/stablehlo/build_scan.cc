// StableHLO parser: chlo.scan, lowered to an HLO while loop.
//
//   %r:K+M = chlo.scan(%x_1, ..., %x_N) inits(%c_1, ..., %c_M) dimension=d
//       {is_reverse = false} { ^bb0(slices..., carries...): ...
//       stablehlo.return outputs..., carries... }
//
// Step i (from the end with is_reverse) takes slice i of every input along
// d (the dimension dropped), passes the slices and the carries to the body,
// stores the K outputs as slice i of the stacked results and carries the M
// new carries on; the results are the stacked outputs and the last
// carries. The loop state is (i, inputs..., carries..., outputs...); the
// body calls the scan's region on dynamic slices and writes its outputs
// with dynamic-update-slice. The spec's is_associative only permits a
// parallel evaluation order, which the sequential loop does not need.
#include <functional>

#include "compiler/frontend/stablehlo/op_builders.h"
#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {
namespace {

std::vector<int64_t> Without(std::vector<int64_t> dims, int64_t d) {
  dims.erase(dims.begin() + d);
  return dims;
}

std::vector<int64_t> With(std::vector<int64_t> dims, int64_t d, int64_t n) {
  dims.insert(dims.begin() + d, n);
  return dims;
}

// Emits into one computation at the operation's location.
struct ScanEmitter {
  // Parser::Emit with the operation's name and location.
  std::function<Instruction*(Computation*, Opcode, Shape,
                             std::vector<Instruction*>)>
      emit;

  Instruction* Emit(Computation* c, Opcode opcode, Shape s,
                    std::vector<Instruction*> v) {
    return emit(c, opcode, std::move(s), std::move(v));
  }
  Instruction* Index(Computation* c, int64_t value) {
    Literal l(Shape::Scalar(PrimitiveType::kS64));
    l.Set<int64_t>(0, value);
    Instruction* k = Emit(c, Opcode::kConstant, l.shape(), {});
    k->mutable_attrs().literal = std::move(l);
    return k;
  }
  Instruction* Element(Computation* c, Instruction* tuple, int64_t i) {
    Instruction* e =
        Emit(c, Opcode::kGetTupleElement,
             tuple->shape().tuple_shapes(static_cast<int>(i)), {tuple});
    e->mutable_attrs().tuple_index = i;
    return e;
  }
};

// The scanned length: every input's size along d, each input's slice the
// body's argument, each stacked result the body's output with d inserted.
absl::StatusOr<int64_t> ScanLength(const OpBuild& b, int64_t d, int64_t n,
                                   int64_t k,
                                   const std::vector<Instruction*>& params,
                                   const Shape& returned) {
  int64_t length = -1;
  for (int64_t i = 0; i < n; ++i) {
    const Shape& s = b.op.operands[i]->shape();
    if (!s.IsArray() || d < 0 || d >= s.rank() ||
        (length >= 0 && s.dimensions(d) != length) ||
        !params[static_cast<size_t>(i)]->shape().Compatible(Shape::Array(
            s.element_type(), Without(s.dimensions(), d)))) {
      return b.reader.Error(absl::StrCat(
          "chlo.scan input ", i, " of type ", s.ToString(false),
          " does not match the body's argument along dimension ", d));
    }
    length = s.dimensions(d);
  }
  for (int64_t j = 0; j < k; ++j) {
    const Shape& r = b.op.result_types[j];
    const Shape& v = returned.IsTuple() ? returned.tuple_shapes(j) : returned;
    if (!r.IsArray() || !v.IsArray() || d > v.rank() ||
        !r.Compatible(Shape::Array(v.element_type(),
                                   With(v.dimensions(), d, length)))) {
      return b.reader.Error(absl::StrCat(
          "chlo.scan result ", j, " is not the body's output ", j,
          " stacked along dimension ", d));
    }
  }
  return length;
}

}  // namespace

absl::StatusOr<Instruction*> OpBuilders::ChloScan(OpBuild& b) {
  Parser& p = b.parser;
  OpState& op = b.op;
  RETURN_IF_ERROR(b.reader.Regions(1));
  int64_t d = 0;
  RETURN_IF_ERROR(b.reader.OneInt("dimension", &d, true));
  std::vector<int64_t> segments;
  RETURN_IF_ERROR(b.reader.Ints("operandSegmentSizes", &segments, true));
  const int64_t total = static_cast<int64_t>(op.operands.size());
  if (segments.size() != 2 || segments[0] < 1 || segments[1] < 0 ||
      segments[0] + segments[1] != total) {
    return b.reader.Error("chlo.scan needs inputs and inits");
  }
  const int64_t n = segments[0], m = segments[1];
  const int64_t k = static_cast<int64_t>(op.result_types.size()) - m;
  const bool reverse = b.reader.Flag("is_reverse");
  Computation* region = op.regions[0];
  const Shape& returned = region->root()->shape();
  const int64_t returns = returned.IsTuple() ? returned.tuple_size() : 1;
  if (k < 0 || returns != k + m ||
      static_cast<int64_t>(region->parameters().size()) != n + m) {
    return b.reader.Error(absl::StrCat(
        "chlo.scan's body takes ", region->parameters().size(),
        " values and returns ", returns, "; the scan has ", n, " inputs, ", m,
        " inits and ", op.result_types.size(), " results"));
  }
  ASSIGN_OR_RETURN(const int64_t length,
                   ScanLength(b, d, n, k, region->parameters(), returned));

  ScanEmitter e{[&](Computation* c, Opcode opcode, Shape s,
                    std::vector<Instruction*> v) {
    return p.Emit(c, opcode, "scan", std::move(s), std::move(v), op.loc);
  }};
  Computation* outer = b.scope->comp;
  // The loop state: (i, inputs..., carries..., outputs...).
  std::vector<Instruction*> init = {e.Index(outer, 0)};
  for (int64_t i = 0; i < total; ++i) init.push_back(op.operands[i]);
  for (int64_t j = 0; j < k; ++j) {
    Instruction* zero =
        e.Emit(outer, Opcode::kConstant,
               Shape::Scalar(op.result_types[j].element_type()), {});
    zero->mutable_attrs().literal = Literal(zero->shape());
    init.push_back(e.Emit(outer, Opcode::kBroadcast, op.result_types[j],
                          {zero}));
  }
  std::vector<Shape> shapes;
  for (Instruction* v : init) shapes.push_back(v->shape());
  const Shape state = Shape::Tuple(shapes);

  p.owned_.push_back(
      std::make_unique<Computation>(p.RegionName("scan.cond"), op.loc));
  Computation* cond = p.owned_.back().get();
  Instruction* cp = e.Emit(cond, Opcode::kParameter, state, {});
  cp->mutable_attrs().parameter_number = 0;
  Instruction* lt = e.Emit(cond, Opcode::kCompare,
                           Shape::Scalar(PrimitiveType::kPred),
                           {e.Element(cond, cp, 0), e.Index(cond, length)});
  lt->mutable_attrs().comparison_direction = ComparisonDirection::kLt;
  cond->set_root(lt);

  p.owned_.push_back(
      std::make_unique<Computation>(p.RegionName("scan.body"), op.loc));
  Computation* body = p.owned_.back().get();
  Instruction* bp = e.Emit(body, Opcode::kParameter, state, {});
  bp->mutable_attrs().parameter_number = 0;
  Instruction* i = e.Element(body, bp, 0);
  Instruction* at = i;
  if (reverse) {
    at = e.Emit(body, Opcode::kSubtract, i->shape(),
                {e.Index(body, length - 1), i});
  }
  Instruction* zero = e.Index(body, 0);
  auto starts = [&](int rank) {
    std::vector<Instruction*> s(static_cast<size_t>(rank), zero);
    s[static_cast<size_t>(d)] = at;
    return s;
  };
  std::vector<Instruction*> args;
  for (int64_t j = 0; j < n; ++j) {
    Instruction* x = e.Element(body, bp, 1 + j);
    const Shape& s = x->shape();
    std::vector<Instruction*> v = {x};
    for (Instruction* st : starts(s.rank())) v.push_back(st);
    Instruction* slice =
        e.Emit(body, Opcode::kDynamicSlice,
               Shape::Array(s.element_type(), With(Without(s.dimensions(), d),
                                                   d, 1)),
               v);
    slice->mutable_attrs().dynamic_slice_sizes = slice->shape().dimensions();
    args.push_back(e.Emit(body, Opcode::kReshape,
                          region->parameter(j)->shape(), {slice}));
  }
  for (int64_t j = 0; j < m; ++j) args.push_back(e.Element(body, bp, 1 + n + j));
  Instruction* call = e.Emit(body, Opcode::kCall, returned, args);
  call->set_called_computations({region});
  auto value = [&](int64_t j) {
    return returned.IsTuple() ? e.Element(body, call, j) : call;
  };
  std::vector<Instruction*> next = {e.Emit(
      body, Opcode::kAdd, i->shape(), {i, e.Index(body, 1)})};
  for (int64_t j = 0; j < n; ++j) next.push_back(e.Element(body, bp, 1 + j));
  for (int64_t j = 0; j < m; ++j) next.push_back(value(k + j));
  for (int64_t j = 0; j < k; ++j) {
    Instruction* out = e.Element(body, bp, 1 + n + m + j);
    Instruction* v = value(j);
    Instruction* update = e.Emit(
        body, Opcode::kReshape,
        Shape::Array(v->shape().element_type(),
                     With(v->shape().dimensions(), d, 1)),
        {v});
    std::vector<Instruction*> operands = {out, update};
    for (Instruction* st : starts(out->shape().rank())) operands.push_back(st);
    next.push_back(e.Emit(body, Opcode::kDynamicUpdateSlice, out->shape(),
                          operands));
  }
  body->set_root(e.Emit(body, Opcode::kTuple, state, next));

  Instruction* w = e.Emit(outer, Opcode::kWhile, state,
                          {e.Emit(outer, Opcode::kTuple, state, init)});
  w->set_called_computations({cond, body});
  std::vector<Instruction*> results;
  for (int64_t j = 0; j < k; ++j) {
    results.push_back(e.Element(outer, w, 1 + n + m + j));
  }
  for (int64_t j = 0; j < m; ++j) results.push_back(e.Element(outer, w, 1 + n + j));
  if (results.size() == 1) return results[0];
  op.tuple_result = true;
  return e.Emit(outer, Opcode::kTuple, Shape::Tuple(op.result_types), results);
}

}  // namespace aotc::shlo
