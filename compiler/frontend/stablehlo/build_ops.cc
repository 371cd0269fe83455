// StableHLO parser: the builders turning an OpState (pretty or generic form
// alike) into aotc instructions: the operation table (op_builders.h), the
// dispatch, CHLO, the element-wise operations and those with simple
// attributes, calls and custom calls. build_compound_ops.cc has the
// operations with dimension numbers, windows or reducers; build_regions.cc
// while, if and case.
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
#include "compiler/frontend/stablehlo/op_builders.h"
#include "compiler/frontend/stablehlo/op_reader.h"
#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {
namespace {

// Every StableHLO operation aotc builds, by name: the parser's "known
// operation" check, BuildOp's dispatch and reducers written as an
// operation name (MakeApplyRegion) all read this table.
constexpr StableHloOp kStableHloOps[] = {
    {"abs", Opcode::kAbs, OpBuilders::Simple, true},
    {"add", Opcode::kAdd, OpBuilders::Simple, true},
    {"and", Opcode::kAnd, OpBuilders::Simple, true},
    {"atan2", Opcode::kAtan2, OpBuilders::Atan2, true},
    {"bitcast_convert", Opcode::kBitcastConvert, OpBuilders::BitcastConvert,
     true},
    {"broadcast_in_dim", Opcode::kBroadcast, OpBuilders::BroadcastInDim, false},
    {"call", Opcode::kCall, OpBuilders::Call, false},
    {"case", Opcode::kConditional, OpBuilders::Conditional, false},
    {"cbrt", Opcode::kCbrt, OpBuilders::Simple, true},
    {"ceil", Opcode::kCeil, OpBuilders::Simple, true},
    {"cholesky", Opcode::kCholesky, OpBuilders::Cholesky, false},
    {"clamp", Opcode::kClamp, OpBuilders::Simple, true},
    {"compare", Opcode::kCompare, OpBuilders::Compare, false},
    {"complex", Opcode::kComplex, OpBuilders::Simple, true},
    {"composite", Opcode::kCall, OpBuilders::Composite, false},
    {"concatenate", Opcode::kConcatenate, OpBuilders::Concatenate, false},
    {"constant", Opcode::kConstant, OpBuilders::Constant, false},
    {"convert", Opcode::kConvert, OpBuilders::Convert, true},
    {"convolution", Opcode::kConvolution, OpBuilders::Convolution, false},
    {"cosine", Opcode::kCos, OpBuilders::Simple, true},
    {"count_leading_zeros", Opcode::kClz, OpBuilders::Simple, true},
    {"custom_call", Opcode::kCustomCall, OpBuilders::CustomCall, false},
    {"divide", Opcode::kDivide, OpBuilders::Simple, true},
    {"dot", Opcode::kDot, OpBuilders::Dot, false},
    {"dot_general", Opcode::kDot, OpBuilders::DotGeneral, false},
    {"dynamic_slice", Opcode::kDynamicSlice, OpBuilders::DynamicSlice, false},
    {"dynamic_update_slice", Opcode::kDynamicUpdateSlice, OpBuilders::Simple,
     true},
    {"exponential", Opcode::kExp, OpBuilders::Simple, true},
    {"exponential_minus_one", Opcode::kExpm1, OpBuilders::Simple, true},
    {"fft", Opcode::kFft, OpBuilders::Fft, false},
    {"floor", Opcode::kFloor, OpBuilders::Simple, true},
    {"gather", Opcode::kGather, OpBuilders::Gather, false},
    {"get_tuple_element", Opcode::kGetTupleElement, OpBuilders::GetTupleElement,
     false},
    {"if", Opcode::kConditional, OpBuilders::Conditional, false},
    {"imag", Opcode::kImag, OpBuilders::Simple, true},
    {"iota", Opcode::kIota, OpBuilders::Iota, false},
    {"is_finite", Opcode::kIsFinite, OpBuilders::Simple, true},
    {"log", Opcode::kLog, OpBuilders::Simple, true},
    {"log_plus_one", Opcode::kLog1p, OpBuilders::Simple, true},
    {"logistic", Opcode::kLogistic, OpBuilders::Simple, true},
    {"map", Opcode::kMap, OpBuilders::Map, false},
    {"maximum", Opcode::kMaximum, OpBuilders::MinMax, true},
    {"minimum", Opcode::kMinimum, OpBuilders::MinMax, true},
    {"multiply", Opcode::kMultiply, OpBuilders::Simple, true},
    {"negate", Opcode::kNegate, OpBuilders::Simple, true},
    {"not", Opcode::kNot, OpBuilders::Simple, true},
    {"optimization_barrier", Opcode::kOptimizationBarrier,
     OpBuilders::OptimizationBarrier, false},
    {"or", Opcode::kOr, OpBuilders::Simple, true},
    {"pad", Opcode::kPad, OpBuilders::Pad, false},
    {"popcnt", Opcode::kPopulationCount, OpBuilders::Simple, true},
    {"power", Opcode::kPower, OpBuilders::Simple, true},
    {"real", Opcode::kReal, OpBuilders::Simple, true},
    {"reduce", Opcode::kReduce, OpBuilders::Reduce, false},
    {"reduce_precision", Opcode::kReducePrecision, OpBuilders::ReducePrecision,
     false},
    {"reduce_window", Opcode::kReduceWindow, OpBuilders::Windowed, false},
    {"remainder", Opcode::kRemainder, OpBuilders::Simple, true},
    {"reshape", Opcode::kReshape, OpBuilders::Simple, true},
    {"reverse", Opcode::kReverse, OpBuilders::TransposeOrReverse, false},
    {"round_nearest_afz", Opcode::kRoundNearestAfz, OpBuilders::Simple, true},
    {"round_nearest_even", Opcode::kRoundNearestEven, OpBuilders::Simple, true},
    {"rsqrt", Opcode::kRsqrt, OpBuilders::Simple, true},
    {"scatter", Opcode::kScatter, OpBuilders::Scatter, false},
    {"select", Opcode::kSelect, OpBuilders::Simple, true},
    {"select_and_scatter", Opcode::kSelectAndScatter, OpBuilders::Windowed,
     false},
    {"shift_left", Opcode::kShiftLeft, OpBuilders::Simple, true},
    {"shift_right_arithmetic", Opcode::kShiftRightArithmetic,
     OpBuilders::Simple, true},
    {"shift_right_logical", Opcode::kShiftRightLogical, OpBuilders::Simple,
     true},
    {"sign", Opcode::kSign, OpBuilders::Simple, true},
    {"sine", Opcode::kSin, OpBuilders::Simple, true},
    {"slice", Opcode::kSlice, OpBuilders::Slice, false},
    {"sort", Opcode::kSort, OpBuilders::Sort, false},
    {"sqrt", Opcode::kSqrt, OpBuilders::Simple, true},
    {"subtract", Opcode::kSubtract, OpBuilders::Simple, true},
    {"tan", Opcode::kTan, OpBuilders::Simple, true},
    {"tanh", Opcode::kTanh, OpBuilders::Simple, true},
    {"transpose", Opcode::kTranspose, OpBuilders::TransposeOrReverse, false},
    {"triangular_solve", Opcode::kTriangularSolve, OpBuilders::TriangularSolve,
     false},
    {"tuple", Opcode::kTuple, OpBuilders::Tuple, false},
    {"uniform_dequantize", Opcode::kConvert, OpBuilders::UniformDequantize,
     false},
    {"uniform_quantize", Opcode::kConvert, OpBuilders::UniformQuantize, false},
    {"while", Opcode::kWhile, OpBuilders::While, false},
    {"xor", Opcode::kXor, OpBuilders::Simple, true},
};

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

const StableHloOp* FindStableHloOp(std::string_view name) {
  for (const StableHloOp& op : kStableHloOps) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

bool IsKnownStableHloOp(std::string_view name) {
  if (name.rfind("stablehlo.", 0) != 0) return false;
  return FindStableHloOp(name.substr(10)) != nullptr;
}

Instruction* OpBuild::Emit(Opcode opcode, Shape s,
                           std::vector<Instruction*> args) const {
  return parser.Emit(scope->comp, opcode, parser.InstName(op, opcode),
                     std::move(s), std::move(args), op.loc);
}

Instruction* OpBuild::EmitNamed(Opcode opcode, std::string_view name,
                                Shape s,
                                std::vector<Instruction*> args) const {
  return parser.Emit(scope->comp, opcode, name, std::move(s), std::move(args),
                     op.loc);
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
  const StableHloOp* entry = FindStableHloOp(name);
  if (entry == nullptr || !entry->simple || OpcodeArity(entry->opcode) != 2 ||
      args.size() != 2) {
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
  comp->set_root(Emit(comp, entry->opcode,
                      std::string(OpcodeName(entry->opcode)), args[0], params,
                      loc));
  return comp;
}

absl::StatusOr<Instruction*> Parser::BuildOp(Scope* scope, OpState& op) {
  std::string_view name = op.name;
  const bool is_chlo = name.rfind("chlo.", 0) == 0;
  if (name == "call" || name == "func.call") name = "stablehlo.call";
  const StableHloOp* entry = nullptr;
  if (name.rfind("stablehlo.", 0) == 0) {
    entry = FindStableHloOp(name.substr(10));
  }
  if (!is_chlo && entry == nullptr) {
    return ErrorAt(op.name_tok,
                   absl::StrCat(name.rfind("stablehlo.", 0) == 0
                                    ? "unsupported StableHLO operation '"
                                    : "unsupported operation '",
                                op.name, "'"));
  }
  Shape shape = op.result_types.size() == 1 ? op.result_types[0]
                                            : Shape::Tuple(op.result_types);
  OpBuild b{*this,
            scope,
            op,
            name.substr(is_chlo ? 5 : 10),
            std::move(shape),
            OpReader(op),
            is_chlo ? Opcode::kCustomCall : entry->opcode};
  if (HasQuantizedValues(op)) {
    if (is_chlo) {
      return ErrorAt(op.name_tok,
                     absl::StrCat("quantized operands or results of '",
                                  op.name, "' are not supported"));
    }
    return OpBuilders::Quantized(b, entry->build);
  }
  return is_chlo ? OpBuilders::Chlo(b) : entry->build(b);
}

// A CHLO operation, lowered to HLO instructions (chlo_lowering.h).
absl::StatusOr<Instruction*> OpBuilders::Chlo(OpBuild& b) {
  if (b.name == "scan") return ChloScan(b);
  if (b.name == "ragged_dot") return ChloRaggedDot(b);
  ChloOp chlo;
  chlo.name = std::string(b.name);
  chlo.operands = b.op.operands;
  chlo.result_shape = b.shape;
  chlo.location = b.op.loc;
  if (b.reader.Find("k") != nullptr) {
    int64_t k = 0;
    RETURN_IF_ERROR(b.reader.OneInt("k", &k, true));
    chlo.k = k;
  }
  if (const Attr* d = b.reader.Find("comparison_direction")) {
    chlo.comparison_direction = ComparisonDirectionFromName(d->s);
  }
  b.op.tuple_result = b.op.result_types.size() > 1;
  return LowerChloOp(chlo, *b.scope->comp);
}

// An operation of kStableHloOps marked simple.
absl::StatusOr<Instruction*> OpBuilders::Simple(OpBuild& b) {
  const int arity = OpcodeArity(b.opcode);
  if (arity != kVariadic) {
    RETURN_IF_ERROR(b.reader.Operands(static_cast<size_t>(arity)));
  }
  std::vector<Instruction*> args = b.op.operands;
  if (b.opcode == Opcode::kSelect && args[0]->shape().IsArray() &&
      args[0]->shape().rank() == 0 && b.shape.IsArray() && b.shape.rank() > 0) {
    args[0] =
        b.parser.Emit(b.scope->comp, Opcode::kBroadcast, "broadcast.pred",
                      Shape::Array(PrimitiveType::kPred, b.shape.dimensions()),
                      {args[0]}, b.op.loc);
  }
  return b.Emit(b.opcode, b.shape, std::move(args));
}

absl::StatusOr<Instruction*> OpBuilders::Constant(OpBuild& b) {
  const Attr* value = b.reader.Find("value");
  if (value == nullptr || value->kind != Attr::Kind::kDense) {
    return b.parser.ErrorAt(b.op.name_tok, "constant needs a dense<...> value");
  }
  Instruction* c = b.Emit(Opcode::kConstant, value->literal->shape(), {});
  c->mutable_attrs().literal = *value->literal;
  return c;
}

absl::StatusOr<Instruction*> OpBuilders::Iota(OpBuild& b) {
  int64_t d = 0;
  RETURN_IF_ERROR(b.reader.OneInt("iota_dimension", &d, true));
  Instruction* i = b.Emit(Opcode::kIota, b.shape, {});
  i->mutable_attrs().dimensions = {d};
  return i;
}

absl::StatusOr<Instruction*> OpBuilders::BroadcastInDim(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(1));
  std::vector<int64_t> dims;
  if (b.reader.Find("broadcast_dimensions") != nullptr) {
    RETURN_IF_ERROR(b.reader.Ints("broadcast_dimensions", &dims, true));
  } else {
    RETURN_IF_ERROR(b.reader.Ints("dimensions", &dims, true));
  }
  Instruction* x = b.op.operands[0];
  const Shape& in = x->shape();
  if (!in.IsArray() || !b.shape.IsArray() ||
      static_cast<int>(dims.size()) != in.rank()) {
    return b.parser.ErrorAt(b.op.name_tok,
                            "broadcast_in_dim needs one dimension per "
                            "operand dimension");
  }
  // Size-1 dimensions that expand are dropped by a reshape first.
  std::vector<int64_t> kept_dims, kept_sizes;
  for (int i = 0; i < in.rank(); ++i) {
    const int64_t out_dim = dims[i];
    const bool expands = in.dimensions(i) == 1 && out_dim >= 0 &&
                         out_dim < b.shape.rank() &&
                         b.shape.dimensions(out_dim) != 1;
    if (expands) continue;
    kept_dims.push_back(out_dim);
    kept_sizes.push_back(in.dimensions(i));
  }
  if (kept_dims.size() != dims.size()) {
    x = b.parser.Emit(b.scope->comp, Opcode::kReshape, "reshape.degenerate",
                      Shape::Array(in.element_type(), kept_sizes), {x},
                      b.op.loc);
  }
  Instruction* broadcast = b.Emit(Opcode::kBroadcast, b.shape, {x});
  broadcast->mutable_attrs().dimensions = kept_dims;
  return broadcast;
}

absl::StatusOr<Instruction*> OpBuilders::Compare(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(2));
  const Attr* d = b.reader.Find("comparison_direction");
  if (d == nullptr) {
    return b.parser.ErrorAt(b.op.name_tok,
                            "compare needs a comparison direction");
  }
  std::optional<ComparisonDirection> dir = ComparisonDirectionFromName(d->s);
  if (!dir.has_value()) {
    return b.parser.ErrorAt(
        d->tok, absl::StrCat("unknown comparison direction '", d->s, "'"));
  }
  ComparisonType type = ComparisonType::kUnset;
  if (const Attr* t = b.reader.Find("compare_type")) {
    std::optional<ComparisonType> ct = ComparisonTypeFromName(t->s);
    if (!ct.has_value() || *ct == ComparisonType::kUnset) {
      return b.parser.ErrorAt(
          t->tok, absl::StrCat("unknown comparison type '", t->s, "'"));
    }
    type = *ct;
  }
  Instruction* c = b.Emit(Opcode::kCompare, b.shape, b.op.operands);
  c->mutable_attrs().comparison_direction = *dir;
  c->mutable_attrs().comparison_type = type;
  return c;
}

absl::StatusOr<Instruction*> OpBuilders::Concatenate(OpBuild& b) {
  int64_t d = 0;
  RETURN_IF_ERROR(b.reader.OneInt("dimension", &d, true));
  Instruction* c = b.Emit(Opcode::kConcatenate, b.shape, b.op.operands);
  c->mutable_attrs().dimensions = {d};
  return c;
}

// transpose (permutation) and reverse (dimensions).
absl::StatusOr<Instruction*> OpBuilders::TransposeOrReverse(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(1));
  std::vector<int64_t> dims;
  RETURN_IF_ERROR(b.reader.Ints(
      b.name == "transpose" && b.reader.Find("permutation") ? "permutation"
                                                            : "dimensions",
      &dims, true));
  Instruction* t = b.Emit(b.opcode, b.shape, b.op.operands);
  t->mutable_attrs().dimensions = dims;
  return t;
}

absl::StatusOr<Instruction*> OpBuilders::Slice(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(1));
  std::vector<int64_t> start, limit, strides;
  RETURN_IF_ERROR(b.reader.Ints("start_indices", &start, true));
  RETURN_IF_ERROR(b.reader.Ints("limit_indices", &limit, true));
  RETURN_IF_ERROR(b.reader.Ints("strides", &strides, false));
  if (strides.empty()) strides.assign(start.size(), 1);
  if (limit.size() != start.size() || strides.size() != start.size()) {
    return b.parser.ErrorAt(b.op.name_tok,
                            "slice attributes have different lengths");
  }
  Instruction* s = b.Emit(Opcode::kSlice, b.shape, b.op.operands);
  for (size_t i = 0; i < start.size(); ++i) {
    s->mutable_attrs().slice.push_back(
        SliceDim{start[i], limit[i], strides[i]});
  }
  return s;
}

absl::StatusOr<Instruction*> OpBuilders::Pad(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(2));
  std::vector<int64_t> low, high, interior;
  RETURN_IF_ERROR(b.reader.Ints("edge_padding_low", &low, true));
  RETURN_IF_ERROR(b.reader.Ints("edge_padding_high", &high, true));
  RETURN_IF_ERROR(b.reader.Ints("interior_padding", &interior, true));
  if (high.size() != low.size() || interior.size() != low.size()) {
    return b.parser.ErrorAt(b.op.name_tok,
                            "pad attributes have different lengths");
  }
  Instruction* p = b.Emit(Opcode::kPad, b.shape, b.op.operands);
  for (size_t i = 0; i < low.size(); ++i) {
    p->mutable_attrs().padding.push_back(
        PaddingDim{low[i], high[i], interior[i]});
  }
  return p;
}

absl::StatusOr<Instruction*> OpBuilders::DynamicSlice(OpBuild& b) {
  std::vector<int64_t> sizes;
  RETURN_IF_ERROR(b.reader.Ints("slice_sizes", &sizes, true));
  Instruction* d = b.Emit(Opcode::kDynamicSlice, b.shape, b.op.operands);
  d->mutable_attrs().dynamic_slice_sizes = sizes;
  return d;
}

absl::StatusOr<Instruction*> OpBuilders::ReducePrecision(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(1));
  Instruction* r = b.Emit(Opcode::kReducePrecision, b.shape, b.op.operands);
  RETURN_IF_ERROR(b.reader.OneInt("exponent_bits",
                                  &r->mutable_attrs().exponent_bits, true));
  RETURN_IF_ERROR(b.reader.OneInt("mantissa_bits",
                                  &r->mutable_attrs().mantissa_bits, true));
  return r;
}

absl::StatusOr<Instruction*> OpBuilders::Tuple(OpBuild& b) {
  return b.Emit(Opcode::kTuple, b.shape, b.op.operands);
}

absl::StatusOr<Instruction*> OpBuilders::OptimizationBarrier(OpBuild& b) {
  // HLO's barrier takes and returns one tuple of the values.
  std::vector<Shape> shapes;
  for (Instruction* v : b.op.operands) shapes.push_back(v->shape());
  Instruction* values =
      b.parser.Emit(b.scope->comp, Opcode::kTuple, "barrier.operands",
                    Shape::Tuple(shapes), b.op.operands, b.op.loc);
  b.op.tuple_result = true;
  return b.Emit(Opcode::kOptimizationBarrier, Shape::Tuple(shapes), {values});
}

absl::StatusOr<Instruction*> OpBuilders::GetTupleElement(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(1));
  int64_t index = 0;
  RETURN_IF_ERROR(b.reader.OneInt("index", &index, true));
  Instruction* g = b.Emit(Opcode::kGetTupleElement, b.shape, b.op.operands);
  g->mutable_attrs().tuple_index = index;
  return g;
}

absl::StatusOr<Instruction*> OpBuilders::Call(OpBuild& b) {
  if (const Attr* c = b.reader.Find("callee");
      c != nullptr && b.op.callee.empty()) {
    b.op.callee = c->s;  // the generic form: {callee = @f}
    b.op.callee_tok = c->tok;
  }
  if (b.op.callee.empty())
    return b.parser.ErrorAt(b.op.name_tok, "call needs a callee");
  Computation* callee = b.parser.FunctionRef(b.op.callee, b.op.callee_tok);
  if (b.op.result_types.empty()) b.shape = Shape::Tuple({});
  b.op.tuple_result = b.op.result_types.size() > 1;
  Instruction* c = b.Emit(Opcode::kCall, b.shape, b.op.operands);
  c->set_called_computations({callee});
  return c;
}

absl::StatusOr<Instruction*> OpBuilders::Composite(OpBuild& b) {
  // A call of the decomposition that keeps what the composite was, as
  // XLA's `call ..., is_composite=true` does; inlining uses the
  // decomposition for code generation.
  const Attr* n = b.reader.Find("name");
  const Attr* d = b.reader.Find("decomposition");
  if (n == nullptr || n->s.empty()) {
    return b.parser.ErrorAt(b.op.name_tok, "composite needs a name");
  }
  if (d == nullptr || d->s.empty()) {
    return b.parser.ErrorAt(b.op.name_tok,
                            "composite needs a decomposition = @function");
  }
  Computation* callee = b.parser.FunctionRef(d->s, d->tok);
  if (b.op.result_types.empty()) b.shape = Shape::Tuple({});
  b.op.tuple_result = b.op.result_types.size() > 1;
  Instruction* c = b.Emit(Opcode::kCall, b.shape, b.op.operands);
  c->set_called_computations({callee});
  int64_t version = 0;
  if (const Attr* v = b.reader.Find("version")) version = v->i;
  std::string attributes = "{}";
  if (const Attr* a = b.reader.Find("composite_attributes");
      a != nullptr && a->kind == Attr::Kind::kDict) {
    attributes =
        std::string(SourceGroup(b.parser.lexer_.text(), a->tok.offset));
  }
  c->mutable_raw_attributes().push_back({"is_composite", "true"});
  c->mutable_raw_attributes().push_back(
      {"frontend_attributes",
       absl::StrCat("{composite.attributes=", QuoteForHlo(attributes),
                    ",composite.name=", QuoteForHlo(n->s),
                    ",composite.version=\"", version, "\"}")});
  return c;
}

absl::StatusOr<Instruction*> OpBuilders::CustomCall(OpBuild& b) {
  std::string target = b.op.callee;
  if (const Attr* t = b.reader.Find("call_target_name")) target = t->s;
  if (target.empty()) {
    return b.parser.ErrorAt(b.op.name_tok, "custom_call needs a target");
  }
  if (b.op.result_types.empty()) b.shape = Shape::Tuple({});
  b.op.tuple_result = b.op.result_types.size() > 1;
  Instruction* c = b.Emit(Opcode::kCustomCall, b.shape, b.op.operands);
  c->mutable_attrs().custom_call_target = target;
  if (b.reader.Flag("has_side_effect")) {
    c->mutable_raw_attributes().emplace_back("custom_call_has_side_effect",
                                             "true");
  }
  return c;
}

absl::StatusOr<Instruction*> OpBuilders::While(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Regions(2));
  return b.parser.BuildWhile(b.scope, b.op);
}

absl::StatusOr<Instruction*> OpBuilders::Conditional(OpBuild& b) {
  if (b.name == "if") RETURN_IF_ERROR(b.reader.Regions(2));
  if (b.op.regions.empty() ||
      b.op.branch_captures.size() != b.op.regions.size()) {
    return b.parser.ErrorAt(b.op.name_tok, "case needs at least one region");
  }
  RETURN_IF_ERROR(b.reader.Operands(1));
  return b.parser.BuildConditional(b.scope, b.op);
}

}  // namespace aotc::shlo
