// StableHLO parser: the builders turning an OpState (pretty or generic form
// alike) into aotc instructions: the dispatch, CHLO, the element-wise
// operations and those with simple attributes, calls and custom calls.
// build_compound_ops.cc has the operations with dimension numbers, windows
// or reducers; build_regions.cc while, if and case.
//
// HLO and StableHLO agree on the semantics of the operations mapped here;
// the builders translate names and attribute encodings. Where they differ
// the builder adds instructions: broadcast_in_dim may expand size-1
// dimensions (HLO broadcast may not: a reshape drops them first), select may
// take a scalar predicate (broadcast to the operands' shape), and while
// carries its values as one tuple (see BuildWhile).
#include <algorithm>
#include <cctype>

#include "compiler/frontend/stablehlo/chlo_lowering.h"
#include "compiler/frontend/stablehlo/op_reader.h"
#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {
namespace {

// Operations that map to one opcode with operands in the same order and no
// attributes.
struct SimpleOp {
  std::string_view name;
  Opcode opcode;
};
constexpr SimpleOp kSimpleOps[] = {
    {"abs", Opcode::kAbs},
    {"add", Opcode::kAdd},
    {"and", Opcode::kAnd},
    {"atan2", Opcode::kAtan2},
    {"bitcast_convert", Opcode::kBitcastConvert},
    {"cbrt", Opcode::kCbrt},
    {"ceil", Opcode::kCeil},
    {"clamp", Opcode::kClamp},
    {"complex", Opcode::kComplex},
    {"convert", Opcode::kConvert},
    {"cosine", Opcode::kCos},
    {"count_leading_zeros", Opcode::kClz},
    {"divide", Opcode::kDivide},
    {"dynamic_update_slice", Opcode::kDynamicUpdateSlice},
    {"exponential", Opcode::kExp},
    {"exponential_minus_one", Opcode::kExpm1},
    {"floor", Opcode::kFloor},
    {"imag", Opcode::kImag},
    {"is_finite", Opcode::kIsFinite},
    {"log", Opcode::kLog},
    {"log_plus_one", Opcode::kLog1p},
    {"logistic", Opcode::kLogistic},
    {"maximum", Opcode::kMaximum},
    {"minimum", Opcode::kMinimum},
    {"multiply", Opcode::kMultiply},
    {"negate", Opcode::kNegate},
    {"not", Opcode::kNot},
    {"or", Opcode::kOr},
    {"popcnt", Opcode::kPopulationCount},
    {"power", Opcode::kPower},
    {"real", Opcode::kReal},
    {"remainder", Opcode::kRemainder},
    {"reshape", Opcode::kReshape},
    {"round_nearest_afz", Opcode::kRoundNearestAfz},
    {"round_nearest_even", Opcode::kRoundNearestEven},
    {"rsqrt", Opcode::kRsqrt},
    {"select", Opcode::kSelect},
    {"shift_left", Opcode::kShiftLeft},
    {"shift_right_arithmetic", Opcode::kShiftRightArithmetic},
    {"shift_right_logical", Opcode::kShiftRightLogical},
    {"sign", Opcode::kSign},
    {"sine", Opcode::kSin},
    {"sqrt", Opcode::kSqrt},
    {"subtract", Opcode::kSubtract},
    {"tan", Opcode::kTan},
    {"tanh", Opcode::kTanh},
    {"xor", Opcode::kXor},
};

std::optional<Opcode> SimpleOpcode(std::string_view name) {
  for (const SimpleOp& op : kSimpleOps) {
    if (op.name == name) return op.opcode;
  }
  return std::nullopt;
}

// Operations with attributes or regions, handled by BuildOp's switch.
constexpr std::string_view kOtherOps[] = {"broadcast_in_dim",
                                          "call",
                                          "case",
                                          "compare",
                                          "composite",
                                          "concatenate",
                                          "constant",
                                          "convolution",
                                          "custom_call",
                                          "dot",
                                          "dot_general",
                                          "dynamic_slice",
                                          "gather",
                                          "get_tuple_element",
                                          "if",
                                          "iota",
                                          "map",
                                          "optimization_barrier",
                                          "pad",
                                          "reduce",
                                          "reduce_precision",
                                          "reduce_window",
                                          "reverse",
                                          "scatter",
                                          "select_and_scatter",
                                          "slice",
                                          "sort",
                                          "transpose",
                                          "tuple",
                                          "while"};

// `text` as an HLO attribute string: quoted, with '"' and '\\' escaped.
std::string QuoteForHlo(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

// The source text of the bracket group that starts at `offset` ('{'),
// strings inside it skipped; the rest of the text when it never closes.
std::string_view SourceGroup(std::string_view text, size_t offset) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = offset; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[' || c == '(' || c == '<') {
      ++depth;
    } else if (c == '}' || c == ']' || c == ')' || c == '>') {
      if (--depth == 0) return text.substr(offset, i + 1 - offset);
    }
  }
  return text.substr(offset);
}

}  // namespace

bool IsKnownStableHloOp(std::string_view name) {
  if (name.rfind("stablehlo.", 0) != 0) return false;
  name.remove_prefix(10);
  if (SimpleOpcode(name).has_value()) return true;
  for (std::string_view other : kOtherOps) {
    if (other == name) return true;
  }
  return false;
}

std::string Parser::InstName(const OpState& op, Opcode opcode) const {
  const std::string& r = op.result_name;
  if (!r.empty() && !std::isdigit(static_cast<unsigned char>(r[0]))) return r;
  std::string base(OpcodeName(opcode));
  return r.empty() ? base : absl::StrCat(base, ".", r);
}

absl::StatusOr<Computation*> Parser::MakeApplyRegion(
    const Tok& op_tok, const std::vector<Shape>& args, const Location& loc) {
  std::string_view name = op_tok.text;
  if (name.rfind("stablehlo.", 0) == 0) name.remove_prefix(10);
  std::optional<Opcode> opcode = SimpleOpcode(name);
  if (!opcode.has_value() || OpcodeArity(*opcode) != 2 || args.size() != 2) {
    return ErrorAt(op_tok, absl::StrCat("cannot apply ", DescribeTok(op_tok),
                                        " as a reducer"));
  }
  owned_.push_back(std::make_unique<Computation>(RegionName("reduce"), loc));
  Computation* comp = owned_.back().get();
  std::vector<Instruction*> params;
  for (size_t i = 0; i < args.size(); ++i) {
    Instruction* p =
        Emit(comp, Opcode::kParameter, absl::StrCat("p", i), args[i], {}, loc);
    p->mutable_attrs().parameter_number = static_cast<int64_t>(i);
    params.push_back(p);
  }
  comp->set_root(Emit(comp, *opcode, std::string(OpcodeName(*opcode)), args[0],
                      params, loc));
  return comp;
}

absl::StatusOr<Instruction*> Parser::BuildOp(Scope* scope, OpState& op) {
  Computation* comp = scope->comp;
  const Location& loc = op.loc;
  std::string_view name = op.name;
  const bool is_chlo = name.rfind("chlo.", 0) == 0;
  if (name == "call" || name == "func.call") name = "stablehlo.call";
  if (!is_chlo && !IsKnownStableHloOp(name)) {
    return ErrorAt(op.name_tok,
                   absl::StrCat(name.rfind("stablehlo.", 0) == 0
                                    ? "unsupported StableHLO operation '"
                                    : "unsupported operation '",
                                op.name, "'"));
  }
  name.remove_prefix(is_chlo ? 5 : 10);
  Shape shape = op.result_types.size() == 1 ? op.result_types[0]
                                            : Shape::Tuple(op.result_types);
  const OpReader reader(op);
  auto emit = [&](Opcode opcode, Shape s,
                  std::vector<Instruction*> args) -> Instruction* {
    return Emit(comp, opcode, InstName(op, opcode), std::move(s),
                std::move(args), loc);
  };

  if (is_chlo) {
    ChloOp chlo;
    chlo.name = std::string(name);
    chlo.operands = op.operands;
    chlo.result_shape = shape;
    chlo.location = loc;
    if (reader.Find("k") != nullptr) {
      int64_t k = 0;
      RETURN_IF_ERROR(reader.OneInt("k", &k, true));
      chlo.k = k;
    }
    if (const Attr* d = reader.Find("comparison_direction")) {
      chlo.comparison_direction = ComparisonDirectionFromName(d->s);
    }
    op.tuple_result = op.result_types.size() > 1;
    return LowerChloOp(chlo, *comp);
  }

  if (std::optional<Opcode> simple = SimpleOpcode(name)) {
    const int arity = OpcodeArity(*simple);
    if (arity != kVariadic) {
      RETURN_IF_ERROR(reader.Operands(static_cast<size_t>(arity)));
    }
    std::vector<Instruction*> args = op.operands;
    if (*simple == Opcode::kSelect && args[0]->shape().IsArray() &&
        args[0]->shape().rank() == 0 && shape.IsArray() && shape.rank() > 0) {
      args[0] = Emit(comp, Opcode::kBroadcast, "broadcast.pred",
                     Shape::Array(PrimitiveType::kPred, shape.dimensions()),
                     {args[0]}, loc);
    }
    return emit(*simple, shape, std::move(args));
  }
  if (name == "constant") {
    const Attr* value = reader.Find("value");
    if (value == nullptr || value->kind != Attr::Kind::kDense) {
      return ErrorAt(op.name_tok, "constant needs a dense<...> value");
    }
    Instruction* c = emit(Opcode::kConstant, value->literal->shape(), {});
    c->mutable_attrs().literal = *value->literal;
    return c;
  }
  if (name == "iota") {
    int64_t d = 0;
    RETURN_IF_ERROR(reader.OneInt("iota_dimension", &d, true));
    Instruction* i = emit(Opcode::kIota, shape, {});
    i->mutable_attrs().dimensions = {d};
    return i;
  }
  if (name == "broadcast_in_dim") {
    RETURN_IF_ERROR(reader.Operands(1));
    std::vector<int64_t> dims;
    if (reader.Find("broadcast_dimensions") != nullptr) {
      RETURN_IF_ERROR(reader.Ints("broadcast_dimensions", &dims, true));
    } else {
      RETURN_IF_ERROR(reader.Ints("dimensions", &dims, true));
    }
    Instruction* x = op.operands[0];
    const Shape& in = x->shape();
    if (!in.IsArray() || !shape.IsArray() ||
        static_cast<int>(dims.size()) != in.rank()) {
      return ErrorAt(op.name_tok,
                     "broadcast_in_dim needs one dimension per "
                     "operand dimension");
    }
    // Size-1 dimensions that expand are dropped by a reshape first.
    std::vector<int64_t> kept_dims, kept_sizes;
    for (int i = 0; i < in.rank(); ++i) {
      const int64_t out_dim = dims[i];
      const bool expands = in.dimensions(i) == 1 && out_dim >= 0 &&
                           out_dim < shape.rank() &&
                           shape.dimensions(out_dim) != 1;
      if (expands) continue;
      kept_dims.push_back(out_dim);
      kept_sizes.push_back(in.dimensions(i));
    }
    if (kept_dims.size() != dims.size()) {
      x = Emit(comp, Opcode::kReshape, "reshape.degenerate",
               Shape::Array(in.element_type(), kept_sizes), {x}, loc);
    }
    Instruction* b = emit(Opcode::kBroadcast, shape, {x});
    b->mutable_attrs().dimensions = kept_dims;
    return b;
  }
  if (name == "compare") {
    RETURN_IF_ERROR(reader.Operands(2));
    const Attr* d = reader.Find("comparison_direction");
    if (d == nullptr) {
      return ErrorAt(op.name_tok, "compare needs a comparison direction");
    }
    std::optional<ComparisonDirection> dir = ComparisonDirectionFromName(d->s);
    if (!dir.has_value()) {
      return ErrorAt(d->tok,
                     absl::StrCat("unknown comparison direction '", d->s, "'"));
    }
    ComparisonType type = ComparisonType::kUnset;
    if (const Attr* t = reader.Find("compare_type")) {
      std::optional<ComparisonType> ct = ComparisonTypeFromName(t->s);
      if (!ct.has_value() || *ct == ComparisonType::kUnset) {
        return ErrorAt(t->tok,
                       absl::StrCat("unknown comparison type '", t->s, "'"));
      }
      type = *ct;
    }
    Instruction* c = emit(Opcode::kCompare, shape, op.operands);
    c->mutable_attrs().comparison_direction = *dir;
    c->mutable_attrs().comparison_type = type;
    return c;
  }
  if (name == "concatenate") {
    int64_t d = 0;
    RETURN_IF_ERROR(reader.OneInt("dimension", &d, true));
    Instruction* c = emit(Opcode::kConcatenate, shape, op.operands);
    c->mutable_attrs().dimensions = {d};
    return c;
  }
  if (name == "transpose" || name == "reverse") {
    RETURN_IF_ERROR(reader.Operands(1));
    std::vector<int64_t> dims;
    RETURN_IF_ERROR(reader.Ints(
        name == "transpose" && reader.Find("permutation") ? "permutation"
                                                          : "dimensions",
        &dims, true));
    Instruction* t =
        emit(name == "transpose" ? Opcode::kTranspose : Opcode::kReverse, shape,
             op.operands);
    t->mutable_attrs().dimensions = dims;
    return t;
  }
  if (name == "slice") {
    RETURN_IF_ERROR(reader.Operands(1));
    std::vector<int64_t> start, limit, strides;
    RETURN_IF_ERROR(reader.Ints("start_indices", &start, true));
    RETURN_IF_ERROR(reader.Ints("limit_indices", &limit, true));
    RETURN_IF_ERROR(reader.Ints("strides", &strides, false));
    if (strides.empty()) strides.assign(start.size(), 1);
    if (limit.size() != start.size() || strides.size() != start.size()) {
      return ErrorAt(op.name_tok, "slice attributes have different lengths");
    }
    Instruction* s = emit(Opcode::kSlice, shape, op.operands);
    for (size_t i = 0; i < start.size(); ++i) {
      s->mutable_attrs().slice.push_back(
          SliceDim{start[i], limit[i], strides[i]});
    }
    return s;
  }
  if (name == "pad") {
    RETURN_IF_ERROR(reader.Operands(2));
    std::vector<int64_t> low, high, interior;
    RETURN_IF_ERROR(reader.Ints("edge_padding_low", &low, true));
    RETURN_IF_ERROR(reader.Ints("edge_padding_high", &high, true));
    RETURN_IF_ERROR(reader.Ints("interior_padding", &interior, true));
    if (high.size() != low.size() || interior.size() != low.size()) {
      return ErrorAt(op.name_tok, "pad attributes have different lengths");
    }
    Instruction* p = emit(Opcode::kPad, shape, op.operands);
    for (size_t i = 0; i < low.size(); ++i) {
      p->mutable_attrs().padding.push_back(
          PaddingDim{low[i], high[i], interior[i]});
    }
    return p;
  }
  if (name == "dynamic_slice") {
    std::vector<int64_t> sizes;
    RETURN_IF_ERROR(reader.Ints("slice_sizes", &sizes, true));
    Instruction* d = emit(Opcode::kDynamicSlice, shape, op.operands);
    d->mutable_attrs().dynamic_slice_sizes = sizes;
    return d;
  }
  if (name == "reduce_precision") {
    RETURN_IF_ERROR(reader.Operands(1));
    Instruction* r = emit(Opcode::kReducePrecision, shape, op.operands);
    RETURN_IF_ERROR(reader.OneInt("exponent_bits",
                                  &r->mutable_attrs().exponent_bits, true));
    RETURN_IF_ERROR(reader.OneInt("mantissa_bits",
                                  &r->mutable_attrs().mantissa_bits, true));
    return r;
  }
  if (name == "tuple") return emit(Opcode::kTuple, shape, op.operands);
  if (name == "optimization_barrier") {
    // HLO's barrier takes and returns one tuple of the values.
    std::vector<Shape> shapes;
    for (Instruction* v : op.operands) shapes.push_back(v->shape());
    Instruction* values = Emit(comp, Opcode::kTuple, "barrier.operands",
                               Shape::Tuple(shapes), op.operands, loc);
    op.tuple_result = true;
    return emit(Opcode::kOptimizationBarrier, Shape::Tuple(shapes), {values});
  }
  if (name == "get_tuple_element") {
    RETURN_IF_ERROR(reader.Operands(1));
    int64_t index = 0;
    RETURN_IF_ERROR(reader.OneInt("index", &index, true));
    Instruction* g = emit(Opcode::kGetTupleElement, shape, op.operands);
    g->mutable_attrs().tuple_index = index;
    return g;
  }
  if (name == "call") {
    if (const Attr* c = reader.Find("callee");
        c != nullptr && op.callee.empty()) {
      op.callee = c->s;  // the generic form: {callee = @f}
      op.callee_tok = c->tok;
    }
    if (op.callee.empty()) return ErrorAt(op.name_tok, "call needs a callee");
    Computation* callee = FunctionRef(op.callee, op.callee_tok);
    if (op.result_types.empty()) shape = Shape::Tuple({});
    op.tuple_result = op.result_types.size() > 1;
    Instruction* c = emit(Opcode::kCall, shape, op.operands);
    c->set_called_computations({callee});
    return c;
  }
  if (name == "composite") {
    // A call of the decomposition that keeps what the composite was, as
    // XLA's `call ..., is_composite=true` does; inlining uses the
    // decomposition for code generation.
    const Attr* n = reader.Find("name");
    const Attr* d = reader.Find("decomposition");
    if (n == nullptr || n->s.empty()) {
      return ErrorAt(op.name_tok, "composite needs a name");
    }
    if (d == nullptr || d->s.empty()) {
      return ErrorAt(op.name_tok,
                     "composite needs a decomposition = @function");
    }
    Computation* callee = FunctionRef(d->s, d->tok);
    if (op.result_types.empty()) shape = Shape::Tuple({});
    op.tuple_result = op.result_types.size() > 1;
    Instruction* c = emit(Opcode::kCall, shape, op.operands);
    c->set_called_computations({callee});
    int64_t version = 0;
    if (const Attr* v = reader.Find("version")) version = v->i;
    std::string attributes = "{}";
    if (const Attr* a = reader.Find("composite_attributes");
        a != nullptr && a->kind == Attr::Kind::kDict) {
      attributes = std::string(SourceGroup(lexer_.text(), a->tok.offset));
    }
    c->mutable_raw_attributes().push_back({"is_composite", "true"});
    c->mutable_raw_attributes().push_back(
        {"frontend_attributes",
         absl::StrCat("{composite.attributes=", QuoteForHlo(attributes),
                      ",composite.name=", QuoteForHlo(n->s),
                      ",composite.version=\"", version, "\"}")});
    return c;
  }
  if (name == "custom_call") {
    std::string target = op.callee;
    if (const Attr* t = reader.Find("call_target_name")) target = t->s;
    if (target.empty()) {
      return ErrorAt(op.name_tok, "custom_call needs a target");
    }
    if (op.result_types.empty()) shape = Shape::Tuple({});
    op.tuple_result = op.result_types.size() > 1;
    Instruction* c = emit(Opcode::kCustomCall, shape, op.operands);
    c->mutable_attrs().custom_call_target = target;
    if (reader.Flag("has_side_effect")) {
      c->mutable_raw_attributes().emplace_back("custom_call_has_side_effect",
                                               "true");
    }
    return c;
  }
  ASSIGN_OR_RETURN(Instruction * compound,
                   BuildCompoundOp(scope, op, name, shape));
  if (compound != nullptr) return compound;
  if (name == "while") {
    RETURN_IF_ERROR(reader.Regions(2));
    return BuildWhile(scope, op);
  }
  if (name == "if" || name == "case") {
    if (name == "if") RETURN_IF_ERROR(reader.Regions(2));
    if (op.regions.empty() || op.branch_captures.size() != op.regions.size()) {
      return ErrorAt(op.name_tok, "case needs at least one region");
    }
    RETURN_IF_ERROR(reader.Operands(1));
    return BuildConditional(scope, op);
  }
  return ErrorAt(op.name_tok, absl::StrCat("unsupported StableHLO operation '",
                                           op.name, "'"));
}

}  // namespace aotc::shlo
