// StableHLO parser: one builder per operation, turning an OpState (pretty
// or generic form alike) into aotc instructions.
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

namespace {

// The integers of an attribute: `array<i64: ..>`, `[1, 2]`, an integer
// `dense<..>` or a single integer.
absl::StatusOr<std::vector<int64_t>> IntsOf(const Attr& a, std::string_view key,
                                            const Location& loc) {
  switch (a.kind) {
    case Attr::Kind::kArray:
      return a.ints;
    case Attr::Kind::kInt:
    case Attr::Kind::kBool:
      return std::vector<int64_t>{a.i};
    case Attr::Kind::kList: {
      std::vector<int64_t> v;
      for (const Attr& e : a.list) {
        if (e.kind != Attr::Kind::kInt && e.kind != Attr::Kind::kBool) break;
        v.push_back(e.i);
      }
      if (v.size() == a.list.size()) return v;
      break;
    }
    case Attr::Kind::kDense: {
      const Literal& l = *a.literal;
      const PrimitiveType t = l.shape().element_type();
      if (!IsInteger(t) && t != PrimitiveType::kPred) break;
      const int bytes = StorageBytes(t);
      std::vector<int64_t> v;
      for (int64_t i = 0; i < l.element_count(); ++i) {
        uint64_t bits = 0;
        for (int b = 0; b < bytes; ++b) {
          bits |= uint64_t{l.raw()[i * bytes + b]} << (8 * b);
        }
        if (IsSignedInt(t) && bytes < 8 && (bits >> (8 * bytes - 1)) & 1) {
          bits |= ~uint64_t{0} << (8 * bytes);
        }
        v.push_back(static_cast<int64_t>(bits));
      }
      return v;
    }
    default:
      break;
  }
  return ErrorAt(loc, absl::StrCat("attribute '", Sv(key),
                                   "' must be a list of integers"));
}

}  // namespace

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
  // Attribute helpers, located at the operation.
  auto find = [&](std::string_view key) { return op.Find(key); };
  auto ints = [&](std::string_view key, std::vector<int64_t>* out,
                  bool required) -> absl::Status {
    const Attr* a = find(key);
    if (a == nullptr) {
      if (!required) return absl::OkStatus();
      return ErrorAt(
          op.name_tok,
          absl::StrCat("'", op.name, "' needs attribute '", Sv(key), "'"));
    }
    ASSIGN_OR_RETURN(*out, IntsOf(*a, key, LocationOf(a->tok)));
    return absl::OkStatus();
  };
  auto one_int = [&](std::string_view key, int64_t* out,
                     bool required) -> absl::Status {
    std::vector<int64_t> v;
    RETURN_IF_ERROR(ints(key, &v, required));
    if (v.empty()) return absl::OkStatus();
    if (v.size() != 1) {
      return ErrorAt(op.name_tok, absl::StrCat("attribute '", Sv(key),
                                               "' must be one integer"));
    }
    *out = v[0];
    return absl::OkStatus();
  };
  auto flag = [&](std::string_view key) {
    const Attr* a = find(key);
    return a != nullptr && (a->kind == Attr::Kind::kUnit ||
                            (a->kind == Attr::Kind::kBool && a->i != 0));
  };
  auto regions = [&](size_t n) -> absl::Status {
    if (op.regions.size() == n) return absl::OkStatus();
    return ErrorAt(op.name_tok,
                   absl::StrCat("'", op.name, "' needs ", n, " regions, found ",
                                op.regions.size()));
  };
  auto operands = [&](size_t n) -> absl::Status {
    if (op.operands.size() == n) return absl::OkStatus();
    return ErrorAt(op.name_tok,
                   absl::StrCat("'", op.name, "' takes ", n,
                                " operands, found ", op.operands.size()));
  };
  auto emit = [&](Opcode opcode, Shape s,
                  std::vector<Instruction*> args) -> Instruction* {
    return Emit(comp, opcode, InstName(op, opcode), std::move(s),
                std::move(args), loc);
  };
  auto precision = [&](InstructionAttributes* attrs) -> absl::Status {
    const Attr* a = find("precision_config");
    if (a == nullptr) return absl::OkStatus();
    if (a->kind != Attr::Kind::kList) {
      return ErrorAt(a->tok, "precision_config must be a list");
    }
    for (const Attr& p : a->list) {
      std::string lower;
      for (char c : p.s) lower.push_back(static_cast<char>(std::tolower(c)));
      attrs->operand_precision.push_back(lower);
    }
    return absl::OkStatus();
  };
  // Window attributes of reduce_window, select_and_scatter, convolution.
  auto window = [&](std::vector<int64_t> sizes, std::string_view strides_key,
                    std::string_view base_key, std::string_view window_key,
                    std::vector<WindowDim>* out) -> absl::Status {
    const size_t rank = sizes.size();
    std::vector<int64_t> strides, base, dilation, reversal, pads;
    RETURN_IF_ERROR(ints(strides_key, &strides, false));
    RETURN_IF_ERROR(ints(base_key, &base, false));
    RETURN_IF_ERROR(ints(window_key, &dilation, false));
    RETURN_IF_ERROR(ints("window_reversal", &reversal, false));
    if (const Attr* p = find("padding")) {
      if (p->kind == Attr::Kind::kList) {
        for (const Attr& pair : p->list) {
          ASSIGN_OR_RETURN(std::vector<int64_t> v,
                           IntsOf(pair, "padding", LocationOf(p->tok)));
          if (v.size() != 2) {
            return ErrorAt(p->tok, "padding needs [low, high] pairs");
          }
          pads.insert(pads.end(), v.begin(), v.end());
        }
      } else {
        ASSIGN_OR_RETURN(pads, IntsOf(*p, "padding", LocationOf(p->tok)));
      }
    }
    for (const auto* v : {&strides, &base, &dilation, &reversal}) {
      if (!v->empty() && v->size() != rank) {
        return ErrorAt(op.name_tok,
                       absl::StrCat("window attributes of '", op.name,
                                    "' have different ranks"));
      }
    }
    if (!pads.empty() && pads.size() != 2 * rank) {
      return ErrorAt(op.name_tok, "padding needs [low, high] per dimension");
    }
    out->assign(rank, WindowDim{});
    for (size_t i = 0; i < rank; ++i) {
      WindowDim& w = (*out)[i];
      w.size = sizes[i];
      if (!strides.empty()) w.stride = strides[i];
      if (!base.empty()) w.base_dilation = base[i];
      if (!dilation.empty()) w.window_dilation = dilation[i];
      if (!reversal.empty()) w.reversal = reversal[i] != 0;
      if (!pads.empty()) {
        w.pad_low = pads[2 * i];
        w.pad_high = pads[2 * i + 1];
      }
    }
    return absl::OkStatus();
  };

  if (is_chlo) {
    ChloOp chlo;
    chlo.name = std::string(name);
    chlo.operands = op.operands;
    chlo.result_shape = shape;
    chlo.location = loc;
    if (find("k") != nullptr) {
      int64_t k = 0;
      RETURN_IF_ERROR(one_int("k", &k, true));
      chlo.k = k;
    }
    if (const Attr* d = find("comparison_direction")) {
      chlo.comparison_direction = ComparisonDirectionFromName(d->s);
    }
    op.tuple_result = op.result_types.size() > 1;
    return LowerChloOp(chlo, *comp);
  }

  if (std::optional<Opcode> simple = SimpleOpcode(name)) {
    const int arity = OpcodeArity(*simple);
    if (arity != kVariadic) {
      RETURN_IF_ERROR(operands(static_cast<size_t>(arity)));
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
    const Attr* value = find("value");
    if (value == nullptr || value->kind != Attr::Kind::kDense) {
      return ErrorAt(op.name_tok, "constant needs a dense<...> value");
    }
    Instruction* c = emit(Opcode::kConstant, value->literal->shape(), {});
    c->mutable_attrs().literal = *value->literal;
    return c;
  }
  if (name == "iota") {
    int64_t d = 0;
    RETURN_IF_ERROR(one_int("iota_dimension", &d, true));
    Instruction* i = emit(Opcode::kIota, shape, {});
    i->mutable_attrs().dimensions = {d};
    return i;
  }
  if (name == "broadcast_in_dim") {
    RETURN_IF_ERROR(operands(1));
    std::vector<int64_t> dims;
    if (find("broadcast_dimensions") != nullptr) {
      RETURN_IF_ERROR(ints("broadcast_dimensions", &dims, true));
    } else {
      RETURN_IF_ERROR(ints("dimensions", &dims, true));
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
    RETURN_IF_ERROR(operands(2));
    const Attr* d = find("comparison_direction");
    if (d == nullptr) {
      return ErrorAt(op.name_tok, "compare needs a comparison direction");
    }
    std::optional<ComparisonDirection> dir = ComparisonDirectionFromName(d->s);
    if (!dir.has_value()) {
      return ErrorAt(d->tok,
                     absl::StrCat("unknown comparison direction '", d->s, "'"));
    }
    ComparisonType type = ComparisonType::kUnset;
    if (const Attr* t = find("compare_type")) {
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
    RETURN_IF_ERROR(one_int("dimension", &d, true));
    Instruction* c = emit(Opcode::kConcatenate, shape, op.operands);
    c->mutable_attrs().dimensions = {d};
    return c;
  }
  if (name == "transpose" || name == "reverse") {
    RETURN_IF_ERROR(operands(1));
    std::vector<int64_t> dims;
    RETURN_IF_ERROR(ints(name == "transpose" && find("permutation")
                             ? "permutation"
                             : "dimensions",
                         &dims, true));
    Instruction* t =
        emit(name == "transpose" ? Opcode::kTranspose : Opcode::kReverse, shape,
             op.operands);
    t->mutable_attrs().dimensions = dims;
    return t;
  }
  if (name == "slice") {
    RETURN_IF_ERROR(operands(1));
    std::vector<int64_t> start, limit, strides;
    RETURN_IF_ERROR(ints("start_indices", &start, true));
    RETURN_IF_ERROR(ints("limit_indices", &limit, true));
    RETURN_IF_ERROR(ints("strides", &strides, false));
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
    RETURN_IF_ERROR(operands(2));
    std::vector<int64_t> low, high, interior;
    RETURN_IF_ERROR(ints("edge_padding_low", &low, true));
    RETURN_IF_ERROR(ints("edge_padding_high", &high, true));
    RETURN_IF_ERROR(ints("interior_padding", &interior, true));
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
    RETURN_IF_ERROR(ints("slice_sizes", &sizes, true));
    Instruction* d = emit(Opcode::kDynamicSlice, shape, op.operands);
    d->mutable_attrs().dynamic_slice_sizes = sizes;
    return d;
  }
  if (name == "reduce_precision") {
    RETURN_IF_ERROR(operands(1));
    Instruction* r = emit(Opcode::kReducePrecision, shape, op.operands);
    RETURN_IF_ERROR(
        one_int("exponent_bits", &r->mutable_attrs().exponent_bits, true));
    RETURN_IF_ERROR(
        one_int("mantissa_bits", &r->mutable_attrs().mantissa_bits, true));
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
    RETURN_IF_ERROR(operands(1));
    int64_t index = 0;
    RETURN_IF_ERROR(one_int("index", &index, true));
    Instruction* g = emit(Opcode::kGetTupleElement, shape, op.operands);
    g->mutable_attrs().tuple_index = index;
    return g;
  }
  if (name == "call") {
    if (const Attr* c = find("callee"); c != nullptr && op.callee.empty()) {
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
  if (name == "custom_call") {
    std::string target = op.callee;
    if (const Attr* t = find("call_target_name")) target = t->s;
    if (target.empty()) {
      return ErrorAt(op.name_tok, "custom_call needs a target");
    }
    if (op.result_types.empty()) shape = Shape::Tuple({});
    op.tuple_result = op.result_types.size() > 1;
    Instruction* c = emit(Opcode::kCustomCall, shape, op.operands);
    c->mutable_attrs().custom_call_target = target;
    if (flag("has_side_effect")) {
      c->mutable_raw_attributes().emplace_back("custom_call_has_side_effect",
                                               "true");
    }
    return c;
  }
  // Dimension numbers in a #stablehlo.xxx<...> dictionary.
  auto dnums = [&](std::string_view key) -> absl::StatusOr<const Attr*> {
    const Attr* a = find(key);
    if (a == nullptr || a->kind != Attr::Kind::kDict) {
      return ErrorAt(op.name_tok,
                     absl::StrCat("'", op.name, "' needs ", Sv(key)));
    }
    return a;
  };
  auto field = [&](const Attr& dict, std::string_view key,
                   std::vector<int64_t>* out) -> absl::Status {
    for (const NamedAttr& f : dict.dict) {
      if (f.name != key) continue;
      ASSIGN_OR_RETURN(*out, IntsOf(f.value, key, LocationOf(f.value.tok)));
    }
    return absl::OkStatus();
  };
  auto field_int = [&](const Attr& dict, std::string_view key,
                       int64_t* out) -> absl::Status {
    std::vector<int64_t> v;
    RETURN_IF_ERROR(field(dict, key, &v));
    if (v.size() > 1) return ErrorAt(dict.tok, "expected one integer");
    if (v.size() == 1) *out = v[0];
    return absl::OkStatus();
  };
  if (name == "dot") {
    // The older dot: a vector or matrix product over lhs's last and rhs's
    // first dimension.
    RETURN_IF_ERROR(operands(2));
    const Shape& lhs = op.operands[0]->shape();
    if (!lhs.IsArray() || lhs.rank() < 1 || lhs.rank() > 2) {
      return ErrorAt(op.name_tok, "dot needs rank-1 or rank-2 operands");
    }
    Instruction* dot = emit(Opcode::kDot, shape, op.operands);
    dot->mutable_attrs().dot_dnums.lhs_contracting = {lhs.rank() - 1};
    dot->mutable_attrs().dot_dnums.rhs_contracting = {0};
    RETURN_IF_ERROR(precision(&dot->mutable_attrs()));
    return dot;
  }
  if (name == "dot_general") {
    RETURN_IF_ERROR(operands(2));
    ASSIGN_OR_RETURN(const Attr* d, dnums("dot_dimension_numbers"));
    if (find("algorithm") != nullptr) {
      return ErrorAt(op.name_tok, "dot algorithms are not supported");
    }
    Instruction* dot = emit(Opcode::kDot, shape, op.operands);
    DotDimensionNumbers& dn = dot->mutable_attrs().dot_dnums;
    RETURN_IF_ERROR(field(*d, "lhs_batching_dimensions", &dn.lhs_batch));
    RETURN_IF_ERROR(field(*d, "rhs_batching_dimensions", &dn.rhs_batch));
    RETURN_IF_ERROR(
        field(*d, "lhs_contracting_dimensions", &dn.lhs_contracting));
    RETURN_IF_ERROR(
        field(*d, "rhs_contracting_dimensions", &dn.rhs_contracting));
    RETURN_IF_ERROR(precision(&dot->mutable_attrs()));
    return dot;
  }
  if (name == "gather") {
    RETURN_IF_ERROR(operands(2));
    ASSIGN_OR_RETURN(const Attr* d, dnums("dimension_numbers"));
    Instruction* g = emit(Opcode::kGather, shape, op.operands);
    InstructionAttributes& a = g->mutable_attrs();
    GatherDimensionNumbers& dn = a.gather_dnums;
    RETURN_IF_ERROR(field(*d, "offset_dims", &dn.offset_dims));
    RETURN_IF_ERROR(
        field(*d, "collapsed_slice_dims", &dn.collapsed_slice_dims));
    RETURN_IF_ERROR(
        field(*d, "operand_batching_dims", &dn.operand_batching_dims));
    RETURN_IF_ERROR(field(*d, "start_indices_batching_dims",
                          &dn.start_indices_batching_dims));
    RETURN_IF_ERROR(field(*d, "start_index_map", &dn.start_index_map));
    RETURN_IF_ERROR(field_int(*d, "index_vector_dim", &dn.index_vector_dim));
    RETURN_IF_ERROR(ints("slice_sizes", &a.slice_sizes, true));
    a.indices_are_sorted = flag("indices_are_sorted");
    return g;
  }
  if (name == "scatter") {
    RETURN_IF_ERROR(regions(1));
    const size_t n = op.operands.size();
    if (n < 3 || n % 2 == 0) {
      return ErrorAt(op.name_tok,
                     "scatter needs N inputs, the indices and "
                     "N updates");
    }
    ASSIGN_OR_RETURN(const Attr* d, dnums("scatter_dimension_numbers"));
    op.tuple_result = op.result_types.size() > 1;
    Instruction* s = emit(Opcode::kScatter, shape, op.operands);
    InstructionAttributes& a = s->mutable_attrs();
    ScatterDimensionNumbers& dn = a.scatter_dnums;
    RETURN_IF_ERROR(field(*d, "update_window_dims", &dn.update_window_dims));
    RETURN_IF_ERROR(
        field(*d, "inserted_window_dims", &dn.inserted_window_dims));
    RETURN_IF_ERROR(field(*d, "input_batching_dims", &dn.input_batching_dims));
    RETURN_IF_ERROR(field(*d, "scatter_indices_batching_dims",
                          &dn.scatter_indices_batching_dims));
    RETURN_IF_ERROR(field(*d, "scatter_dims_to_operand_dims",
                          &dn.scatter_dims_to_operand_dims));
    RETURN_IF_ERROR(field_int(*d, "index_vector_dim", &dn.index_vector_dim));
    a.indices_are_sorted = flag("indices_are_sorted");
    a.unique_indices = flag("unique_indices");
    s->set_called_computations({op.regions[0]});
    return s;
  }
  if (name == "reduce") {
    RETURN_IF_ERROR(regions(1));
    op.tuple_result = op.result_types.size() > 1;
    Instruction* r = emit(Opcode::kReduce, shape, op.operands);
    RETURN_IF_ERROR(ints("dimensions", &r->mutable_attrs().dimensions, true));
    r->set_called_computations({op.regions[0]});
    return r;
  }
  if (name == "map") {
    RETURN_IF_ERROR(regions(1));
    Instruction* m = emit(Opcode::kMap, shape, op.operands);
    RETURN_IF_ERROR(ints("dimensions", &m->mutable_attrs().dimensions, false));
    m->set_called_computations({op.regions[0]});
    return m;
  }
  if (name == "sort") {
    RETURN_IF_ERROR(regions(1));
    if (op.operands.empty() || !op.operands[0]->shape().IsArray()) {
      return ErrorAt(op.name_tok, "sort needs array operands");
    }
    int64_t dimension = -1;
    RETURN_IF_ERROR(one_int("dimension", &dimension, false));
    if (dimension < 0) dimension += op.operands[0]->shape().rank();
    op.tuple_result = op.result_types.size() > 1;
    Instruction* s = emit(Opcode::kSort, shape, op.operands);
    s->mutable_attrs().dimensions = {dimension};
    s->mutable_attrs().is_stable = flag("is_stable");
    s->set_called_computations({op.regions[0]});
    return s;
  }
  if (name == "reduce_window" || name == "select_and_scatter") {
    const bool sas = name == "select_and_scatter";
    RETURN_IF_ERROR(regions(sas ? 2 : 1));
    std::vector<int64_t> sizes;
    RETURN_IF_ERROR(ints("window_dimensions", &sizes, true));
    op.tuple_result = op.result_types.size() > 1;
    Instruction* r =
        emit(sas ? Opcode::kSelectAndScatter : Opcode::kReduceWindow, shape,
             op.operands);
    RETURN_IF_ERROR(window(sizes, "window_strides", "base_dilations",
                           "window_dilations", &r->mutable_attrs().window));
    r->set_called_computations(op.regions);
    return r;
  }
  if (name == "convolution") {
    RETURN_IF_ERROR(operands(2));
    const Attr* d = find("dimension_numbers");
    if (d == nullptr || d->kind != Attr::Kind::kConv) {
      return ErrorAt(op.name_tok, "convolution needs dimension numbers");
    }
    const Shape& kernel = op.operands[1]->shape();
    std::vector<int64_t> sizes;
    for (int64_t k : d->conv.kernel_spatial) {
      if (!kernel.IsArray() || k >= kernel.rank()) {
        return ErrorAt(d->tok, "kernel dimension labels exceed its rank");
      }
      sizes.push_back(kernel.dimensions(static_cast<int>(k)));
    }
    Instruction* c = emit(Opcode::kConvolution, shape, op.operands);
    InstructionAttributes& a = c->mutable_attrs();
    a.conv_dnums = d->conv;
    RETURN_IF_ERROR(window(sizes, "window_strides", "lhs_dilation",
                           "rhs_dilation", &a.window));
    RETURN_IF_ERROR(
        one_int("feature_group_count", &a.feature_group_count, false));
    RETURN_IF_ERROR(one_int("batch_group_count", &a.batch_group_count, false));
    RETURN_IF_ERROR(precision(&a));
    return c;
  }
  if (name == "while") {
    RETURN_IF_ERROR(regions(2));
    return BuildWhile(scope, op);
  }
  if (name == "if" || name == "case") {
    if (name == "if") RETURN_IF_ERROR(regions(2));
    if (op.regions.empty() || op.branch_captures.size() != op.regions.size()) {
      return ErrorAt(op.name_tok, "case needs at least one region");
    }
    RETURN_IF_ERROR(operands(1));
    return BuildConditional(scope, op);
  }
  return ErrorAt(op.name_tok, absl::StrCat("unsupported StableHLO operation '",
                                           op.name, "'"));
}

}  // namespace aotc::shlo
