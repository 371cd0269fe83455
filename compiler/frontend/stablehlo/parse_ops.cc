// StableHLO parser: reading operations in their generic form
// (`"stablehlo.add"(%a, %b) <{...}> ({regions}) {...} : (T, T) -> T`) and
// in the pretty forms MLIR prints for StableHLO and CHLO operations.
//
// Every pretty form is read into the same OpState the generic form gives,
// with its attributes under their generic names (`dims = [..]` of
// broadcast_in_dim becomes `broadcast_dimensions`), so that one builder per
// operation (build_ops.cc) serves both forms.
#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {
namespace {

Attr IntArray(const Tok& tok, std::vector<int64_t> values) {
  Attr a;
  a.kind = Attr::Kind::kArray;
  a.tok = tok;
  a.ints = std::move(values);
  return a;
}

Attr EnumAttr(const Tok& tok) {
  Attr a;
  a.kind = Attr::Kind::kEnum;
  a.tok = tok;
  a.s = std::string(tok.text);
  return a;
}

}  // namespace

absl::Status Parser::ParseOperandList(Scope* scope, OpState* op) {
  while (tok_.Is(TokKind::kValue)) {
    op->operand_toks.push_back(tok_);
    ASSIGN_OR_RETURN(Instruction * v, ParseValueUse(scope));
    op->operands.push_back(v);
    if (!tok_.Is(TokKind::kComma)) break;
    // A keyword attribute may follow the comma.
    const Tok comma = tok_;
    Advance();
    if (!tok_.Is(TokKind::kValue)) {
      lexer_.ResetTo(comma);
      Advance();
      break;
    }
  }
  return absl::OkStatus();
}

absl::Status Parser::ParseKeywordAttrs(OpState* op) {
  while (Consume(TokKind::kComma)) {
    if (!tok_.Is(TokKind::kIdent)) return Expected("an attribute name");
    const Tok key = tok_;
    std::string name(tok_.text);
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kEqual, "'='"));
    Attr value;
    if (name == "format") {  // reduce_precision: e5m10
      if (!tok_.Is(TokKind::kIdent)) return Expected("a format like e5m10");
      const std::string_view f = tok_.text;
      const size_t m = f.find('m');
      int64_t e = 0, mant = 0;
      bool ok = f.size() > 3 && f[0] == 'e' && m != std::string_view::npos &&
                m > 1 && m + 1 < f.size() && m < 6 && f.size() - m < 6;
      for (size_t i = 1; ok && i < f.size(); ++i) {
        if (i == m) continue;
        if (f[i] < '0' || f[i] > '9') ok = false;
        int64_t& target = i < m ? e : mant;
        target = target * 10 + (f[i] - '0');
      }
      if (!ok) return ErrorAt(tok_, "expected a format like e5m10");
      Advance();
      Attr ea = IntArray(key, {});
      ea.kind = Attr::Kind::kInt;
      ea.i = e;
      Attr ma = ea;
      ma.i = mant;
      op->attrs.push_back({"exponent_bits", ea});
      op->attrs.push_back({"mantissa_bits", ma});
      continue;
    }
    if (name == "batching_dims" || name == "contracting_dims") {
      // dot_general: `[0] x [0]`.
      ASSIGN_OR_RETURN(std::vector<int64_t> lhs, ParseIntList());
      if (!tok_.IsIdent("x")) return Expected("'x'");
      Advance();
      ASSIGN_OR_RETURN(std::vector<int64_t> rhs, ParseIntList());
      const std::string suffix = name == "batching_dims"
                                     ? "batching_dimensions"
                                     : "contracting_dimensions";
      Attr* dnums = nullptr;
      for (NamedAttr& a : op->attrs) {
        if (a.name == "dot_dimension_numbers") dnums = &a.value;
      }
      if (dnums == nullptr) {
        Attr d;
        d.kind = Attr::Kind::kDict;
        d.tok = key;
        op->attrs.push_back({"dot_dimension_numbers", d});
        dnums = &op->attrs.back().value;
      }
      dnums->dict.push_back({"lhs_" + suffix, IntArray(key, lhs)});
      dnums->dict.push_back({"rhs_" + suffix, IntArray(key, rhs)});
      continue;
    }
    if (name == "precision") {  // [DEFAULT, HIGH]
      RETURN_IF_ERROR(Expect(TokKind::kLSquare, "'['"));
      value.kind = Attr::Kind::kList;
      value.tok = key;
      while (tok_.Is(TokKind::kIdent)) {
        value.list.push_back(EnumAttr(tok_));
        Advance();
        if (!Consume(TokKind::kComma)) break;
      }
      RETURN_IF_ERROR(Expect(TokKind::kRSquare, "']'"));
      op->attrs.push_back({"precision_config", value});
      continue;
    }
    if (name == "algorithm" && tok_.Is(TokKind::kLess)) {  // <k = v, ...>
      value.kind = Attr::Kind::kDict;
      value.tok = key;
      RETURN_IF_ERROR(ParseAttrDict(&value.dict, TokKind::kGreater, 1));
      op->attrs.push_back({"algorithm", std::move(value)});
      continue;
    }
    if (tok_.Is(TokKind::kLSquare)) {
      ASSIGN_OR_RETURN(value, ParseAttrValue(1));
      value.tok = key;
      // [1, 2] lists of integers become arrays.
      bool all_ints = true;
      for (const Attr& e : value.list) {
        all_ints = all_ints && e.kind == Attr::Kind::kInt;
      }
      if (all_ints) {
        std::vector<int64_t> ints;
        for (const Attr& e : value.list) ints.push_back(e.i);
        value = IntArray(key, std::move(ints));
      }
    } else if (tok_.Is(TokKind::kInt)) {
      value.kind = Attr::Kind::kInt;
      value.tok = key;
      ASSIGN_OR_RETURN(value.i, ParseInt());
    } else {
      ASSIGN_OR_RETURN(value, ParseAttrValue(1));
    }
    // Pretty keywords under their generic names.
    static constexpr std::pair<std::string_view, std::string_view> kRenames[] =
        {{"dims", "dimensions"},        {"dim", "dimension"},
         {"sizes", "slice_sizes"},      {"low", "edge_padding_low"},
         {"high", "edge_padding_high"}, {"interior", "interior_padding"}};
    for (const auto& [pretty, generic] : kRenames) {
      if (name == pretty) name = std::string(generic);
    }
    op->attrs.push_back({std::move(name), std::move(value)});
  }
  return absl::OkStatus();
}

absl::Status Parser::ParseGenericOp(Scope* scope, OpState* op) {
  RETURN_IF_ERROR(Expect(TokKind::kLParen, "'(' before the operands"));
  if (!tok_.Is(TokKind::kRParen)) {
    while (true) {
      op->operand_toks.push_back(tok_);
      ASSIGN_OR_RETURN(Instruction * v, ParseValueUse(scope));
      op->operands.push_back(v);
      if (!Consume(TokKind::kComma)) break;
    }
  }
  RETURN_IF_ERROR(Expect(TokKind::kRParen, "')' after the operands"));
  if (tok_.Is(TokKind::kLess)) {
    Advance();
    if (!tok_.Is(TokKind::kLBrace)) return Expected("'{' of the properties");
    RETURN_IF_ERROR(ParseAttrDict(&op->attrs, TokKind::kRBrace, 0));
    RETURN_IF_ERROR(Expect(TokKind::kGreater, "'>' after the properties"));
  }
  if (tok_.Is(TokKind::kLParen)) {
    Advance();
    const bool is_while = op->name == "stablehlo.while";
    if (is_while) {
      op->captures = std::make_unique<Captures>();
      op->captures->carried = static_cast<int64_t>(op->operands.size());
    }
    const bool is_branch =
        op->name == "stablehlo.if" || op->name == "stablehlo.case";
    const std::string hint = op->name.substr(op->name.find('.') + 1);
    while (true) {
      op->region_toks.push_back(tok_);
      std::vector<Instruction*> returned;
      Captures* captures = is_while ? op->captures.get() : nullptr;
      if (is_branch) {
        op->branch_captures.push_back(std::make_unique<Captures>());
        captures = op->branch_captures.back().get();
      }
      ASSIGN_OR_RETURN(Computation * region,
                       ParseRegion(scope, hint, nullptr, captures,
                                   captures != nullptr ? &returned : nullptr));
      op->regions.push_back(region);
      op->region_returns.push_back(std::move(returned));
      if (!Consume(TokKind::kComma)) break;
    }
    RETURN_IF_ERROR(Expect(TokKind::kRParen, "')' after the regions"));
  }
  if (tok_.Is(TokKind::kLBrace)) {
    RETURN_IF_ERROR(ParseAttrDict(&op->attrs, TokKind::kRBrace, 0));
  }
  std::vector<Shape> operand_types;
  RETURN_IF_ERROR(Expect(TokKind::kColon, "':' before the types"));
  if (!tok_.Is(TokKind::kLParen)) return Expected("a function type");
  RETURN_IF_ERROR(ParseOpTypesAfterColon(&operand_types, &op->result_types));
  if (operand_types.size() != op->operands.size()) {
    return ErrorAt(
        op->name_tok,
        absl::StrCat("'", op->name, "' has ", op->operands.size(),
                     " operands, but its type lists ", operand_types.size()));
  }
  return absl::OkStatus();
}

absl::Status Parser::ParsePrettyWhile(Scope* scope, OpState* op) {
  // while(%iterArg = %a, ...) : T, ... cond { ... } do { ... }
  RETURN_IF_ERROR(Expect(TokKind::kLParen, "'(' after 'stablehlo.while'"));
  std::vector<BlockArg> args;
  if (!tok_.Is(TokKind::kRParen)) {
    while (true) {
      if (!tok_.Is(TokKind::kValue)) return Expected("a loop value name");
      BlockArg arg;
      arg.tok = tok_;
      arg.name = std::string(tok_.text.substr(1));
      Advance();
      RETURN_IF_ERROR(Expect(TokKind::kEqual, "'='"));
      op->operand_toks.push_back(tok_);
      ASSIGN_OR_RETURN(Instruction * init, ParseValueUse(scope));
      op->operands.push_back(init);
      args.push_back(std::move(arg));
      if (!Consume(TokKind::kComma)) break;
    }
  }
  RETURN_IF_ERROR(Expect(TokKind::kRParen, "')'"));
  if (!args.empty()) {
    RETURN_IF_ERROR(Expect(TokKind::kColon, "':' before the loop types"));
    ASSIGN_OR_RETURN(op->result_types, ParseTypeList());
  }
  if (op->result_types.size() != args.size()) {
    return ErrorAt(op->name_tok,
                   absl::StrCat("while has ", args.size(), " loop values, but ",
                                op->result_types.size(), " types"));
  }
  const size_t first_quant = type_quants_.size() - args.size();
  for (size_t i = 0; i < args.size(); ++i) {
    args[i].shape = op->result_types[i];
    args[i].quant = type_quants_[first_quant + i];
  }
  if (tok_.Is(TokKind::kLBrace)) {  // attributes
    RETURN_IF_ERROR(ParseAttrDict(&op->attrs, TokKind::kRBrace, 0));
  }
  op->captures = std::make_unique<Captures>();
  op->captures->carried = static_cast<int64_t>(args.size());
  for (std::string_view keyword : {"cond", "do"}) {
    if (!tok_.IsIdent(keyword)) {
      return Expected(absl::StrCat("'", Sv(keyword), "'"));
    }
    Advance();
    op->region_toks.push_back(tok_);
    std::vector<Instruction*> returned;
    ASSIGN_OR_RETURN(Computation * region,
                     ParseRegion(scope, keyword == "cond" ? "cond" : "body",
                                 &args, op->captures.get(), &returned));
    op->regions.push_back(region);
    op->region_returns.push_back(std::move(returned));
  }
  return absl::OkStatus();
}

absl::Status Parser::ParsePrettyReduce(Scope* scope, OpState* op) {
  // reduce(%x init: %c), (%y init: %d) applies stablehlo.add across
  // dimensions = [0] : (...) -> (...)   or   ... across dimensions = [0] :
  // (...) -> (...) reducer(%a: T, %b: T) (%c: T, %d: T) { ... }
  std::vector<Instruction*> inputs, inits;
  std::vector<Tok> input_toks, init_toks;
  while (true) {
    RETURN_IF_ERROR(Expect(TokKind::kLParen, "'('"));
    input_toks.push_back(tok_);
    ASSIGN_OR_RETURN(Instruction * input, ParseValueUse(scope));
    if (!tok_.IsIdent("init")) return Expected("'init'");
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kColon, "':'"));
    init_toks.push_back(tok_);
    ASSIGN_OR_RETURN(Instruction * init, ParseValueUse(scope));
    RETURN_IF_ERROR(Expect(TokKind::kRParen, "')'"));
    inputs.push_back(input);
    inits.push_back(init);
    if (!Consume(TokKind::kComma)) break;
  }
  op->operands = inputs;
  op->operands.insert(op->operands.end(), inits.begin(), inits.end());
  op->operand_toks = input_toks;
  op->operand_toks.insert(op->operand_toks.end(), init_toks.begin(),
                          init_toks.end());
  Tok applied;
  bool applies = false;
  if (tok_.IsIdent("applies")) {
    Advance();
    if (!tok_.Is(TokKind::kIdent)) return Expected("an operation name");
    applied = tok_;
    applies = true;
    Advance();
  }
  if (!tok_.IsIdent("across")) return Expected("'across'");
  Advance();
  if (!tok_.IsIdent("dimensions")) return Expected("'dimensions'");
  const Tok dims_tok = tok_;
  Advance();
  RETURN_IF_ERROR(Expect(TokKind::kEqual, "'='"));
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, ParseIntList());
  op->attrs.push_back({"dimensions", IntArray(dims_tok, dims)});
  if (tok_.Is(TokKind::kLBrace)) {
    RETURN_IF_ERROR(ParseAttrDict(&op->attrs, TokKind::kRBrace, 0));
  }
  std::vector<Shape> operand_types;
  RETURN_IF_ERROR(ParseOpTypes(&operand_types, &op->result_types));
  if (applies) {
    std::vector<Shape> args;
    for (int k = 0; k < 2; ++k) {
      for (Instruction* init : inits) args.push_back(init->shape());
    }
    ASSIGN_OR_RETURN(Computation * region,
                     MakeApplyRegion(applied, args, LocationOf(applied)));
    op->regions.push_back(region);
    return absl::OkStatus();
  }
  if (!tok_.IsIdent("reducer")) return Expected("'applies' or 'reducer'");
  Advance();
  // One `(%lhs: T, %rhs: T)` group per input; the block takes every lhs,
  // then every rhs.
  const size_t n = inputs.size();
  std::vector<BlockArg> args(2 * n);
  for (size_t i = 0; i < n; ++i) {
    const Tok group = tok_;
    ASSIGN_OR_RETURN(std::vector<BlockArg> pair, ParseArgList());
    if (pair.size() != 2) {
      return ErrorAt(group, "a reducer group needs two arguments");
    }
    args[i] = std::move(pair[0]);
    args[n + i] = std::move(pair[1]);
  }
  op->region_toks.push_back(tok_);
  ASSIGN_OR_RETURN(Computation * region,
                   ParseRegion(scope, "reduce", &args, nullptr));
  op->regions.push_back(region);
  return absl::OkStatus();
}

absl::Status Parser::ParsePrettyConvolution(Scope* scope, OpState* op) {
  // convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f],
  //   window = {stride = [..], pad = [[..]], lhs_dilate = [..],
  //   rhs_dilate = [..], reverse = [..]} {attrs} : (...) -> T
  RETURN_IF_ERROR(Expect(TokKind::kLParen, "'('"));
  RETURN_IF_ERROR(ParseOperandList(scope, op));
  RETURN_IF_ERROR(Expect(TokKind::kRParen, "')'"));
  if (!tok_.IsIdent("dim_numbers")) return Expected("'dim_numbers'");
  Attr dn;
  dn.kind = Attr::Kind::kConv;
  dn.tok = tok_;
  Advance();
  RETURN_IF_ERROR(Expect(TokKind::kEqual, "'='"));
  ASSIGN_OR_RETURN(dn.conv, ParseConvDims());
  op->attrs.push_back({"dimension_numbers", dn});
  if (Consume(TokKind::kComma)) {
    if (!tok_.IsIdent("window")) return Expected("'window'");
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kEqual, "'='"));
    if (!tok_.Is(TokKind::kLBrace)) return Expected("'{'");
    std::vector<NamedAttr> window;
    RETURN_IF_ERROR(ParseAttrDict(&window, TokKind::kRBrace, 0));
    static constexpr std::pair<std::string_view, std::string_view> kNames[] = {
        {"stride", "window_strides"},
        {"pad", "padding"},
        {"lhs_dilate", "lhs_dilation"},
        {"rhs_dilate", "rhs_dilation"},
        {"reverse", "window_reversal"}};
    for (NamedAttr& w : window) {
      bool known = false;
      for (const auto& [pretty, generic] : kNames) {
        if (w.name == pretty) {
          w.name = std::string(generic);
          known = true;
        }
      }
      if (!known) {
        return ErrorAt(w.value.tok,
                       absl::StrCat("unknown window attribute '", w.name, "'"));
      }
      op->attrs.push_back(std::move(w));
    }
  }
  if (tok_.Is(TokKind::kLBrace)) {
    RETURN_IF_ERROR(ParseAttrDict(&op->attrs, TokKind::kRBrace, 0));
  }
  std::vector<Shape> operand_types;
  return ParseOpTypes(&operand_types, &op->result_types);
}

absl::Status Parser::ParsePrettyScan(Scope* scope, OpState* op) {
  // chlo.scan(%x, ...) inits(%c, ...) dimension=0 [attributes {...}]
  //     { region } : (types) -> (types)
  RETURN_IF_ERROR(Expect(TokKind::kLParen, "'(' before the scan inputs"));
  RETURN_IF_ERROR(ParseOperandList(scope, op));
  RETURN_IF_ERROR(Expect(TokKind::kRParen, "')'"));
  const int64_t inputs = static_cast<int64_t>(op->operands.size());
  if (tok_.IsIdent("inits")) {
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kLParen, "'(' before the inits"));
    RETURN_IF_ERROR(ParseOperandList(scope, op));
    RETURN_IF_ERROR(Expect(TokKind::kRParen, "')'"));
  }
  const Tok key = tok_;
  if (!tok_.IsIdent("dimension")) return Expected("'dimension='");
  Advance();
  RETURN_IF_ERROR(Expect(TokKind::kEqual, "'='"));
  Attr dimension;
  dimension.kind = Attr::Kind::kInt;
  dimension.tok = key;
  ASSIGN_OR_RETURN(dimension.i, ParseInt());
  op->attrs.push_back({"dimension", dimension});
  op->attrs.push_back(
      {"operandSegmentSizes",
       IntArray(key, {inputs,
                      static_cast<int64_t>(op->operands.size()) - inputs})});
  if (tok_.IsIdent("attributes")) {
    Advance();
    if (!tok_.Is(TokKind::kLBrace)) return Expected("'{'");
    RETURN_IF_ERROR(ParseAttrDict(&op->attrs, TokKind::kRBrace, 0));
  }
  op->region_toks.push_back(tok_);
  ASSIGN_OR_RETURN(Computation * region,
                   ParseRegion(scope, "scan", nullptr, nullptr));
  op->regions.push_back(region);
  std::vector<Shape> operand_types;
  return ParseOpTypes(&operand_types, &op->result_types);
}

absl::Status Parser::ParseChloOp(Scope* scope, OpState* op) {
  // chlo.op %a, %b {attrs} : T, T -> T    or    chlo.top_k(%a, k = 3) : ...
  if (op->name == "chlo.scan") return ParsePrettyScan(scope, op);
  if (Consume(TokKind::kLParen)) {
    RETURN_IF_ERROR(ParseOperandList(scope, op));
    RETURN_IF_ERROR(ParseKeywordAttrs(op));
    RETURN_IF_ERROR(Expect(TokKind::kRParen, "')'"));
  } else {
    RETURN_IF_ERROR(ParseOperandList(scope, op));
  }
  if (tok_.Is(TokKind::kLBrace)) {
    RETURN_IF_ERROR(ParseAttrDict(&op->attrs, TokKind::kRBrace, 0));
  }
  RETURN_IF_ERROR(Expect(TokKind::kColon, "':' before the types"));
  std::vector<Shape> operand_types;
  if (Consume(TokKind::kLParen)) {
    if (!tok_.Is(TokKind::kRParen)) {
      ASSIGN_OR_RETURN(operand_types, ParseTypeList());
    }
    RETURN_IF_ERROR(Expect(TokKind::kRParen, "')'"));
  } else {
    ASSIGN_OR_RETURN(operand_types, ParseTypeList());
  }
  if (!Consume(TokKind::kArrow)) {
    op->result_types = {operand_types.back()};
    return absl::OkStatus();
  }
  if (Consume(TokKind::kLParen)) {
    ASSIGN_OR_RETURN(op->result_types, ParseTypeList());
    return Expect(TokKind::kRParen, "')'");
  }
  ASSIGN_OR_RETURN(Shape r, ParseType());
  op->result_types = {std::move(r)};
  return absl::OkStatus();
}

absl::Status Parser::ParsePrettyOp(Scope* scope, OpState* op) {
  const std::string& name = op->name;
  if (name.rfind("chlo.", 0) == 0) return ParseChloOp(scope, op);
  if (name == "call" || name == "func.call" ||
      name == "stablehlo.custom_call") {
    if (!tok_.Is(TokKind::kSymbol)) return Expected("a function name");
    op->callee_tok = tok_;
    op->callee = std::string(tok_.text.substr(1));
    if (!op->callee.empty() && op->callee.front() == '"') {
      op->callee = op->callee.substr(1, op->callee.size() - 2);
    }
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kLParen, "'('"));
    RETURN_IF_ERROR(ParseOperandList(scope, op));
    RETURN_IF_ERROR(Expect(TokKind::kRParen, "')'"));
    if (tok_.Is(TokKind::kLBrace)) {
      RETURN_IF_ERROR(ParseAttrDict(&op->attrs, TokKind::kRBrace, 0));
    }
    std::vector<Shape> operand_types;
    return ParseOpTypes(&operand_types, &op->result_types);
  }
  if (!IsKnownStableHloOp(name)) {
    return ErrorAt(op->name_tok,
                   absl::StrCat(name.rfind("stablehlo.", 0) == 0
                                    ? "unsupported StableHLO operation '"
                                    : "unsupported operation '",
                                name, "'"));
  }
  if (name == "stablehlo.composite") {
    // composite "ns.op" %a, %b {composite_attributes = {...},
    //     decomposition = @f, version = 1 : i32} : (...) -> ...
    if (!tok_.Is(TokKind::kString)) return Expected("the composite's name");
    ASSIGN_OR_RETURN(Attr composite_name, ParseAttrValue(0));
    op->attrs.push_back({"name", std::move(composite_name)});
    RETURN_IF_ERROR(ParseOperandList(scope, op));
    if (tok_.Is(TokKind::kLBrace)) {
      RETURN_IF_ERROR(ParseAttrDict(&op->attrs, TokKind::kRBrace, 0));
    }
    std::vector<Shape> operand_types;
    return ParseOpTypes(&operand_types, &op->result_types);
  }
  if (name == "stablehlo.while") return ParsePrettyWhile(scope, op);
  if (name == "stablehlo.reduce") return ParsePrettyReduce(scope, op);
  if (name == "stablehlo.convolution") {
    return ParsePrettyConvolution(scope, op);
  }
  if (name == "stablehlo.constant") {
    if (tok_.Is(TokKind::kLBrace)) {
      RETURN_IF_ERROR(ParseAttrDict(&op->attrs, TokKind::kRBrace, 0));
    }
    if (!tok_.IsIdent("dense")) return Expected("a dense<...> literal");
    ASSIGN_OR_RETURN(Attr value, ParseDense(0));
    op->result_types = {value.type};
    op->attrs.push_back({"value", std::move(value)});
    return absl::OkStatus();
  }
  if (name == "stablehlo.iota") {
    if (!tok_.IsIdent("dim")) return Expected("'dim'");
    const Tok dim = tok_;
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kEqual, "'='"));
    Attr d = IntArray(dim, {});
    d.kind = Attr::Kind::kInt;
    ASSIGN_OR_RETURN(d.i, ParseInt());
    op->attrs.push_back({"iota_dimension", d});
    std::vector<Shape> operand_types;
    return ParseOpTypes(&operand_types, &op->result_types);
  }
  if (name == "stablehlo.compare") {
    // compare LT, %a, %b, FLOAT : ...
    if (!tok_.Is(TokKind::kIdent)) return Expected("a comparison direction");
    op->attrs.push_back({"comparison_direction", EnumAttr(tok_)});
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kComma, "','"));
    RETURN_IF_ERROR(ParseOperandList(scope, op));
    if (Consume(TokKind::kComma)) {
      if (!tok_.Is(TokKind::kIdent)) return Expected("a comparison type");
      op->attrs.push_back({"compare_type", EnumAttr(tok_)});
      Advance();
    }
  } else {
    RETURN_IF_ERROR(ParseOperandList(scope, op));
  }
  if (name == "stablehlo.slice" && tok_.Is(TokKind::kLSquare)) {
    // slice %x [0:2, 1:3:1]
    const Tok open = tok_;
    Advance();
    std::vector<int64_t> start, limit, stride;
    while (!tok_.Is(TokKind::kRSquare)) {
      ASSIGN_OR_RETURN(int64_t s, ParseInt());
      RETURN_IF_ERROR(Expect(TokKind::kColon, "':'"));
      ASSIGN_OR_RETURN(int64_t l, ParseInt());
      int64_t st = 1;
      if (Consume(TokKind::kColon)) {
        ASSIGN_OR_RETURN(st, ParseInt());
      }
      start.push_back(s);
      limit.push_back(l);
      stride.push_back(st);
      if (start.size() > static_cast<size_t>(kMaxRank)) {
        return ErrorAt(open, "too many slice dimensions");
      }
      if (!Consume(TokKind::kComma)) break;
    }
    RETURN_IF_ERROR(Expect(TokKind::kRSquare, "']'"));
    op->attrs.push_back({"start_indices", IntArray(open, start)});
    op->attrs.push_back({"limit_indices", IntArray(open, limit)});
    op->attrs.push_back({"strides", IntArray(open, stride)});
  }
  if (name == "stablehlo.get_tuple_element" && tok_.Is(TokKind::kLSquare)) {
    const Tok open = tok_;
    Advance();
    Attr index = IntArray(open, {});
    index.kind = Attr::Kind::kInt;
    ASSIGN_OR_RETURN(index.i, ParseInt());
    RETURN_IF_ERROR(Expect(TokKind::kRSquare, "']'"));
    op->attrs.push_back({"index", index});
  }
  RETURN_IF_ERROR(ParseKeywordAttrs(op));
  if (tok_.Is(TokKind::kLBrace)) {
    RETURN_IF_ERROR(ParseAttrDict(&op->attrs, TokKind::kRBrace, 0));
  }
  std::vector<Shape> operand_types;
  RETURN_IF_ERROR(ParseOpTypes(&operand_types, &op->result_types));
  // optimization_barrier %a, %b : T, U has one result per operand.
  if (name == "stablehlo.optimization_barrier" &&
      operand_types.size() == op->operands.size() &&
      op->result_types.size() == 1) {
    op->result_types = operand_types;
  }
  return absl::OkStatus();
}

}  // namespace aotc::shlo
