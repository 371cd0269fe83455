// StableHLO parser, top level: module, functions, regions and value names.
//
// Functions may be called before they are defined (JAX prints @main first),
// so a call refers to the function's computation as soon as the name is
// seen and the definition fills it in. Once the whole text is read, the
// computations enter the module callees first, the order HLO text has.
//
// Regions become computations of their own. Values of the enclosing
// function are visible inside a region in MLIR; HLO computations see only
// their parameters, so a while loop passes such values through its state
// (Captures in parser.h) and every other region refuses them.
#include "compiler/frontend/stablehlo/stablehlo_parser.h"

#include <algorithm>
#include <cctype>

#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/ir/limits.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace shlo {

const Attr* OpState::Find(std::string_view key) const {
  for (const NamedAttr& a : attrs) {
    if (a.name == key) return &a.value;
  }
  return nullptr;
}

Parser::Parser(std::string_view text, std::string_view filename)
    : source_(std::make_shared<SourceFile>(
          SourceFile{std::string(filename), std::string(text)})),
      lexer_(source_->text) {}

Location Parser::LocationOf(const Tok& tok) const {
  return Location{source_, tok.line, tok.column};
}

absl::Status Parser::ErrorAt(const Tok& tok, std::string_view message) const {
  return aotc::ErrorAt(LocationOf(tok), message);
}

absl::Status Parser::Expected(std::string_view what) const {
  if (tok_.Is(TokKind::kError)) return ErrorAt(tok_, tok_.error);
  return ErrorAt(
      tok_, absl::StrCat("expected ", Sv(what), ", found ", DescribeTok(tok_)));
}

absl::Status Parser::Expect(TokKind kind, std::string_view what) {
  if (!tok_.Is(kind)) return Expected(what);
  Advance();
  return absl::OkStatus();
}

bool Parser::Consume(TokKind kind) {
  if (!tok_.Is(kind)) return false;
  Advance();
  return true;
}

absl::Status Parser::SkipBalanced() {
  std::vector<TokKind> closers;
  do {
    switch (tok_.kind) {
      case TokKind::kLParen:
        closers.push_back(TokKind::kRParen);
        break;
      case TokKind::kLSquare:
        closers.push_back(TokKind::kRSquare);
        break;
      case TokKind::kLBrace:
        closers.push_back(TokKind::kRBrace);
        break;
      case TokKind::kLess:
        closers.push_back(TokKind::kGreater);
        break;
      case TokKind::kRParen:
      case TokKind::kRSquare:
      case TokKind::kRBrace:
      case TokKind::kGreater:
        if (closers.empty() || closers.back() != tok_.kind) {
          return ErrorAt(tok_, absl::StrCat("unbalanced ", DescribeTok(tok_)));
        }
        closers.pop_back();
        break;
      case TokKind::kEof:
      case TokKind::kError:
        return Expected("a closing bracket");
      default:
        break;
    }
    if (closers.size() > static_cast<size_t>(kMaxNesting)) {
      return ErrorAt(tok_, "brackets nested too deeply");
    }
    Advance();
  } while (!closers.empty());
  return absl::OkStatus();
}

absl::Status Parser::SkipLocation() {
  if (!tok_.IsIdent("loc")) return absl::OkStatus();
  Advance();
  if (!tok_.Is(TokKind::kLParen)) return Expected("'(' after 'loc'");
  return SkipBalanced();
}

// --- Instructions.

Instruction* Parser::Emit(Computation* comp, Opcode opcode,
                          std::string_view name, Shape shape,
                          std::vector<Instruction*> operands,
                          const Location& loc) {
  std::unordered_set<std::string>& used = names_[comp];
  std::string unique(name);
  for (int64_t n = 1; used.count(unique) > 0; ++n) {
    unique = absl::StrCat(Sv(name), ".", n);
  }
  used.insert(unique);
  ++instruction_count_;
  return comp->AddInstruction(Instruction::Create(
      opcode, std::move(unique), std::move(shape), std::move(operands), loc));
}

Instruction* Parser::MakeRoot(Computation* comp,
                              const std::vector<Instruction*>& values,
                              const Location& loc) {
  if (values.size() == 1) return values[0];
  std::vector<Shape> shapes;
  for (Instruction* v : values) shapes.push_back(v->shape());
  return Emit(comp, Opcode::kTuple, "tuple", Shape::Tuple(std::move(shapes)),
              values, loc);
}

absl::StatusOr<std::vector<Instruction*>> Parser::Results(Instruction* inst,
                                                          size_t count,
                                                          bool tuple,
                                                          const Location& loc) {
  if (count == 1 && !tuple) return std::vector<Instruction*>{inst};
  if (!inst->shape().IsTuple() ||
      static_cast<size_t>(inst->shape().tuple_size()) < count) {
    return aotc::ErrorAt(
        loc, absl::StrCat("operation gives ", inst->shape().ToString(false),
                          ", not ", count, " results"));
  }
  std::vector<Instruction*> results;
  for (size_t i = 0; i < count; ++i) {
    Instruction* gte =
        Emit(inst->parent(), Opcode::kGetTupleElement,
             absl::StrCat(inst->name(), ".", i),
             inst->shape().tuple_shapes(static_cast<int>(i)), {inst}, loc);
    gte->mutable_attrs().tuple_index = static_cast<int64_t>(i);
    results.push_back(gte);
  }
  return results;
}

// --- Values.

absl::StatusOr<Instruction*> Parser::Resolve(Scope* scope,
                                             std::string_view name,
                                             int64_t index, const Tok& tok) {
  auto it = scope->values.find(std::string(name));
  if (it != scope->values.end()) {
    const std::vector<Instruction*>& results = it->second;
    if (index < 0) {
      if (results.size() == 1) return results[0];
      return ErrorAt(
          tok, absl::StrCat("value '%", Sv(name), "' has ", results.size(),
                            " results; name one with '#'"));
    }
    if (index >= static_cast<int64_t>(results.size())) {
      return ErrorAt(
          tok, absl::StrCat("value '%", Sv(name), "' has ", results.size(),
                            " results, not ", index + 1));
    }
    return results[index];
  }
  if (scope->parent == nullptr) {
    return ErrorAt(tok,
                   absl::StrCat("value '", Sv(tok.text), "' is not defined"));
  }
  ASSIGN_OR_RETURN(Instruction * outer,
                   Resolve(scope->parent, name, index, tok));
  if (scope->captures == nullptr) {
    return ErrorAt(tok, absl::StrCat("value '", Sv(tok.text),
                                     "' is defined outside this region; only "
                                     "while regions may use such values"));
  }
  Captures& c = *scope->captures;
  auto key =
      std::make_pair(static_cast<const Computation*>(scope->comp), outer);
  auto found = c.inner.find(key);
  if (found != c.inner.end()) return found->second;
  size_t position = 0;
  while (position < c.outer.size() && c.outer[position] != outer) ++position;
  if (position == c.outer.size()) c.outer.push_back(outer);
  Instruction* element = Emit(scope->comp, Opcode::kGetTupleElement, "capture",
                              outer->shape(), {scope->state}, LocationOf(tok));
  element->mutable_attrs().tuple_index =
      c.carried + static_cast<int64_t>(position);
  c.inner[key] = element;
  return element;
}

absl::StatusOr<Instruction*> Parser::LookupValue(Scope* scope, const Tok& tok) {
  std::string_view text = tok.text.substr(1);
  int64_t index = -1;
  size_t hash = text.find('#');
  if (hash != std::string_view::npos) {
    index = 0;
    for (char c : text.substr(hash + 1)) {
      if (index > 1000000) return ErrorAt(tok, "result index is too large");
      index = index * 10 + (c - '0');
    }
    text = text.substr(0, hash);
  }
  return Resolve(scope, text, index, tok);
}

absl::StatusOr<Instruction*> Parser::ParseValueUse(Scope* scope) {
  if (!tok_.Is(TokKind::kValue)) return Expected("a value like %0");
  const Tok tok = tok_;
  Advance();
  return LookupValue(scope, tok);
}

Computation* Parser::FunctionRef(std::string_view name, const Tok& tok) {
  Function& f = functions_[std::string(name)];
  if (f.comp == nullptr) {
    owned_.push_back(
        std::make_unique<Computation>(std::string(name), LocationOf(tok)));
    f.comp = owned_.back().get();
    f.first_use = tok;
    function_order_.push_back(std::string(name));
  }
  return f.comp;
}

std::string Parser::RegionName(std::string_view hint) {
  return absl::StrCat(current_function_, ".", Sv(hint), ".", region_counter_++);
}

// --- Regions.

absl::StatusOr<std::vector<BlockArg>> Parser::ParseArgList() {
  RETURN_IF_ERROR(Expect(TokKind::kLParen, "'('"));
  std::vector<BlockArg> args;
  if (Consume(TokKind::kRParen)) return args;
  // The arguments keep their quantization; their types are not the
  // enclosing operation's (a pretty reducer's come after its result types).
  const size_t quant_mark = type_quants_.size();
  while (true) {
    if (!tok_.Is(TokKind::kValue) ||
        tok_.text.find('#') != std::string_view::npos) {
      return Expected("an argument name like %arg0");
    }
    BlockArg arg;
    arg.tok = tok_;
    arg.name = std::string(tok_.text.substr(1));
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kColon, "':'"));
    ASSIGN_OR_RETURN(arg.shape, ParseType());
    arg.quant = type_quants_.back();
    if (tok_.Is(TokKind::kLBrace)) {  // argument attributes
      std::vector<NamedAttr> ignored;
      RETURN_IF_ERROR(ParseAttrDict(&ignored, TokKind::kRBrace, 0));
    }
    RETURN_IF_ERROR(SkipLocation());
    for (const BlockArg& other : args) {
      if (other.name == arg.name) {
        return ErrorAt(arg.tok, absl::StrCat("argument '%", arg.name,
                                             "' is defined twice"));
      }
    }
    args.push_back(std::move(arg));
    if (Consume(TokKind::kRParen)) {
      type_quants_.resize(quant_mark);
      return args;
    }
    RETURN_IF_ERROR(Expect(TokKind::kComma, "',' or ')'"));
  }
}

absl::StatusOr<Computation*> Parser::ParseRegion(
    Scope* parent, std::string_view hint, const std::vector<BlockArg>* args,
    Captures* captures, std::vector<Instruction*>* returned_out) {
  const Tok open = tok_;
  RETURN_IF_ERROR(Expect(TokKind::kLBrace, "'{' opening a region"));
  if (depth_ >= kMaxNesting) return ErrorAt(open, "regions nested too deeply");
  ++depth_;
  owned_.push_back(
      std::make_unique<Computation>(RegionName(hint), LocationOf(open)));
  Computation* comp = owned_.back().get();
  Scope scope;
  scope.parent = parent;
  scope.comp = comp;
  std::vector<BlockArg> block_args;
  const size_t quant_mark = type_quants_.size();
  if (args != nullptr) {
    block_args = *args;
  } else if (tok_.Is(TokKind::kBlock)) {
    Advance();
    if (tok_.Is(TokKind::kLParen)) {
      ASSIGN_OR_RETURN(block_args, ParseArgList());
    }
    RETURN_IF_ERROR(Expect(TokKind::kColon, "':' after the block name"));
  }
  const Location loc = LocationOf(open);
  if (captures != nullptr) {
    scope.captures = captures;
    scope.state = Emit(comp, Opcode::kParameter, "state", Shape(), {}, loc);
    scope.state->mutable_attrs().parameter_number = 0;
  }
  for (size_t i = 0; i < block_args.size(); ++i) {
    const BlockArg& arg = block_args[i];
    Instruction* inst;
    if (captures != nullptr) {
      inst = Emit(comp, Opcode::kGetTupleElement, arg.name, arg.shape,
                  {scope.state}, LocationOf(arg.tok));
      inst->mutable_attrs().tuple_index = static_cast<int64_t>(i);
    } else {
      inst = Emit(comp, Opcode::kParameter, arg.name, arg.shape, {},
                  LocationOf(arg.tok));
      inst->mutable_attrs().parameter_number = static_cast<int64_t>(i);
    }
    if (arg.quant.has_value()) quant_of_[inst] = *arg.quant;
    scope.values[arg.name] = {inst};
  }
  type_quants_.resize(quant_mark);
  std::vector<Instruction*> returned;
  Tok return_tok;
  RETURN_IF_ERROR(ParseBody(&scope, &returned, &return_tok));
  --depth_;
  if (returned_out != nullptr) {
    *returned_out = std::move(returned);
  } else {
    comp->set_root(MakeRoot(comp, returned, LocationOf(return_tok)));
  }
  return comp;
}

absl::Status Parser::ParseBody(Scope* scope,
                               std::vector<Instruction*>* returned,
                               Tok* return_tok) {
  while (true) {
    if (tok_.Is(TokKind::kRBrace)) {
      return ErrorAt(tok_, "expected a return before '}'");
    }
    bool is_return = false;
    RETURN_IF_ERROR(ParseOperation(scope, &is_return, returned, return_tok));
    if (is_return) return Expect(TokKind::kRBrace, "'}' after the return");
  }
}

absl::Status Parser::ParseOperation(Scope* scope, bool* is_return,
                                    std::vector<Instruction*>* returned,
                                    Tok* return_tok) {
  const Tok start = tok_;
  // The types this operation parses; nested operations cut back to theirs.
  const size_t quant_mark = type_quants_.size();
  struct CutBack {
    std::vector<std::optional<QuantType>>& v;
    size_t mark;
    ~CutBack() { v.resize(mark); }
  } cut_back{type_quants_, quant_mark};
  if (instruction_count_ >= kMaxInstructions) {
    return ErrorAt(start, absl::StrCat("more than ", kMaxInstructions,
                                       " instructions in the module"));
  }
  // Result names: `%a`, `%a:2`, `%a, %b`.
  struct ResultName {
    Tok tok;
    int64_t count = 1;
  };
  std::vector<ResultName> names;
  size_t declared = 0;
  if (tok_.Is(TokKind::kValue)) {
    while (true) {
      if (!tok_.Is(TokKind::kValue) ||
          tok_.text.find('#') != std::string_view::npos) {
        return Expected("a result name like %0");
      }
      ResultName r;
      r.tok = tok_;
      Advance();
      if (Consume(TokKind::kColon)) {
        const Tok count_tok = tok_;
        ASSIGN_OR_RETURN(r.count, ParseInt());
        if (r.count < 1 || r.count > 100000) {
          return ErrorAt(count_tok, "invalid result count");
        }
      }
      declared += static_cast<size_t>(r.count);
      names.push_back(r);
      if (!Consume(TokKind::kComma)) break;
    }
    RETURN_IF_ERROR(Expect(TokKind::kEqual, "'='"));
  }
  OpState op;
  if (!names.empty()) op.result_name = std::string(names[0].tok.text.substr(1));
  op.name_tok = tok_;
  op.loc = LocationOf(start);
  if (tok_.Is(TokKind::kString)) {
    op.name = std::string(tok_.text.substr(1, tok_.text.size() - 2));
    Advance();
    RETURN_IF_ERROR(ParseGenericOp(scope, &op));
    if (op.name == "func.return" || op.name == "stablehlo.return") {
      if (!names.empty()) {
        return ErrorAt(start, "a return has no results to name");
      }
      *is_return = true;
      *return_tok = op.name_tok;
      *returned = op.operands;
      return SkipLocation();
    }
  } else if (tok_.Is(TokKind::kIdent)) {
    op.name = std::string(tok_.text);
    Advance();
    if (op.name == "return" || op.name == "func.return" ||
        op.name == "stablehlo.return") {
      if (!names.empty()) {
        return ErrorAt(start, "a return has no results to name");
      }
      *is_return = true;
      *return_tok = op.name_tok;
      returned->clear();
      while (tok_.Is(TokKind::kValue)) {
        ASSIGN_OR_RETURN(Instruction * v, ParseValueUse(scope));
        returned->push_back(v);
        if (!Consume(TokKind::kComma)) break;
      }
      if (Consume(TokKind::kColon)) {
        ASSIGN_OR_RETURN(std::vector<Shape> types, ParseTypeList());
        if (types.size() != returned->size()) {
          return ErrorAt(
              op.name_tok,
              absl::StrCat("return of ", returned->size(), " values lists ",
                           types.size(), " types"));
        }
      }
      return SkipLocation();
    }
    RETURN_IF_ERROR(ParsePrettyOp(scope, &op));
  } else {
    return Expected(names.empty() ? "an operation or '}'" : "an operation");
  }
  RETURN_IF_ERROR(SkipLocation());
  const size_t produced = op.result_types.size();
  if (type_quants_.size() >= quant_mark + produced) {
    const auto first = type_quants_.end() - static_cast<ptrdiff_t>(produced);
    if (std::any_of(first, type_quants_.end(),
                    [](const auto& q) { return q.has_value(); })) {
      op.result_quants.assign(first, type_quants_.end());
    }
  }
  ASSIGN_OR_RETURN(Instruction * inst, BuildOp(scope, op));
  if (names.empty()) return absl::OkStatus();
  if (declared != produced) {
    return ErrorAt(
        start, absl::StrCat("'", op.name, "' has ", produced, " results, but ",
                            declared, " are named"));
  }
  ASSIGN_OR_RETURN(std::vector<Instruction*> results,
                   Results(inst, produced, op.tuple_result, op.loc));
  for (size_t i = 0; i < op.result_quants.size(); ++i) {
    if (op.result_quants[i].has_value()) {
      quant_of_[results[i]] = *op.result_quants[i];
    }
  }
  size_t next = 0;
  for (const ResultName& r : names) {
    std::string name(r.tok.text.substr(1));
    if (scope->values.count(name) > 0) {
      return ErrorAt(
          r.tok, absl::StrCat("value '", Sv(r.tok.text), "' is defined twice"));
    }
    std::vector<Instruction*>& bound = scope->values[name];
    bound.assign(results.begin() + next, results.begin() + next + r.count);
    next += static_cast<size_t>(r.count);
  }
  return absl::OkStatus();
}

// --- Functions and the module.

absl::Status Parser::ParseFunction() {
  Advance();  // func.func
  bool is_public = true;
  if (tok_.IsIdent("public") || tok_.IsIdent("private") ||
      tok_.IsIdent("nested")) {
    is_public = tok_.IsIdent("public");
    Advance();
  }
  if (!tok_.Is(TokKind::kSymbol)) return Expected("a function name like @main");
  const Tok name_tok = tok_;
  std::string name(tok_.text.substr(1));
  if (!name.empty() && name.front() == '"') {
    name = name.substr(1, name.size() - 2);
  }
  Advance();
  Computation* comp = FunctionRef(name, name_tok);
  Function& f = functions_[name];
  if (f.defined) {
    return ErrorAt(name_tok,
                   absl::StrCat("function '@", name, "' is defined twice"));
  }
  f.defined = true;
  f.is_public = is_public;
  current_function_ = name;
  ASSIGN_OR_RETURN(std::vector<BlockArg> args, ParseArgList());
  std::vector<Shape> results;
  if (Consume(TokKind::kArrow)) {
    const bool paren = Consume(TokKind::kLParen);
    if (!(paren && tok_.Is(TokKind::kRParen))) {
      while (true) {
        ASSIGN_OR_RETURN(Shape s, ParseType());
        results.push_back(std::move(s));
        if (paren && tok_.Is(TokKind::kLBrace)) {
          std::vector<NamedAttr> ignored;
          RETURN_IF_ERROR(ParseAttrDict(&ignored, TokKind::kRBrace, 0));
        }
        if (!paren || !Consume(TokKind::kComma)) break;
      }
    }
    if (paren) RETURN_IF_ERROR(Expect(TokKind::kRParen, "')'"));
  }
  if (tok_.IsIdent("attributes")) {
    Advance();
    std::vector<NamedAttr> ignored;
    RETURN_IF_ERROR(ParseAttrDict(&ignored, TokKind::kRBrace, 0));
  }
  const Tok open = tok_;
  RETURN_IF_ERROR(Expect(TokKind::kLBrace, "'{' opening the function body"));
  Scope scope;
  scope.comp = comp;
  for (size_t i = 0; i < args.size(); ++i) {
    Instruction* p = Emit(comp, Opcode::kParameter, args[i].name, args[i].shape,
                          {}, LocationOf(args[i].tok));
    p->mutable_attrs().parameter_number = static_cast<int64_t>(i);
    if (args[i].quant.has_value()) quant_of_[p] = *args[i].quant;
    scope.values[args[i].name] = {p};
  }
  std::vector<Instruction*> returned;
  Tok return_tok = open;
  RETURN_IF_ERROR(ParseBody(&scope, &returned, &return_tok));
  if (returned.size() != results.size()) {
    return ErrorAt(
        return_tok,
        absl::StrCat("function '@", name, "' returns ", returned.size(),
                     " values, but ", results.size(), " results are declared"));
  }
  for (size_t i = 0; i < results.size(); ++i) {
    if (!returned[i]->shape().Compatible(results[i])) {
      return ErrorAt(return_tok,
                     absl::StrCat("result ", i, " has shape ",
                                  returned[i]->shape().ToString(false),
                                  ", but the function declares ",
                                  results[i].ToString(false)));
    }
  }
  comp->set_root(MakeRoot(comp, returned, LocationOf(return_tok)));
  return SkipLocation();
}

absl::Status Parser::ParseTopLevel() {
  // `#loc1 = loc(...)` and other aliases.
  if (tok_.Is(TokKind::kHashIdent)) {
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kEqual, "'=' after an alias name"));
    if (tok_.IsIdent("loc")) return SkipLocation();
    return ParseAttrValue(0).status();
  }
  if (tok_.IsIdent("func.func")) return ParseFunction();
  return Expected("'func.func'");
}

absl::StatusOr<std::unique_ptr<Module>> Parser::ParseModule() {
  Advance();
  while (tok_.Is(TokKind::kHashIdent)) RETURN_IF_ERROR(ParseTopLevel());
  bool in_module = false;
  if (tok_.IsIdent("module")) {
    in_module = true;
    Advance();
    if (tok_.Is(TokKind::kSymbol)) {
      module_name_ = std::string(tok_.text.substr(1));
      Advance();
    }
    if (tok_.IsIdent("attributes")) {
      Advance();
      std::vector<NamedAttr> ignored;
      RETURN_IF_ERROR(ParseAttrDict(&ignored, TokKind::kRBrace, 0));
    }
    RETURN_IF_ERROR(Expect(TokKind::kLBrace, "'{' opening the module"));
  }
  while (!tok_.Is(TokKind::kEof) && !(in_module && tok_.Is(TokKind::kRBrace))) {
    RETURN_IF_ERROR(ParseTopLevel());
  }
  if (in_module) {
    RETURN_IF_ERROR(Expect(TokKind::kRBrace, "'}' closing the module"));
    RETURN_IF_ERROR(SkipLocation());
    while (tok_.Is(TokKind::kHashIdent)) RETURN_IF_ERROR(ParseTopLevel());
    if (!tok_.Is(TokKind::kEof)) return Expected("end of input");
  }
  if (function_order_.empty()) return Expected("a function");

  Computation* entry = nullptr;
  std::vector<Computation*> public_functions;
  for (const std::string& name : function_order_) {
    const Function& f = functions_[name];
    if (!f.defined) {
      return ErrorAt(f.first_use,
                     absl::StrCat("function '@", name, "' is not defined"));
    }
    if (name == "main") entry = f.comp;
    if (f.is_public) public_functions.push_back(f.comp);
  }
  if (entry == nullptr && public_functions.size() == 1) {
    entry = public_functions[0];
  }
  if (entry == nullptr) {
    return aotc::ErrorAt(Location{source_, 0, 0},
                         "no entry function: neither @main nor a single "
                         "public function");
  }

  // Callees before callers: an iterative post-order walk of the calls.
  auto module = std::make_unique<Module>(module_name_.empty() ? entry->name()
                                                              : module_name_);
  module->set_source(source_);
  std::unordered_map<const Computation*, std::unique_ptr<Computation>*> slot;
  for (std::unique_ptr<Computation>& c : owned_) slot[c.get()] = &c;
  std::unordered_set<const Computation*> visited;
  for (std::unique_ptr<Computation>& root : owned_) {
    if (root == nullptr || visited.count(root.get()) > 0) continue;
    std::vector<std::pair<Computation*, std::vector<Computation*>>> stack;
    auto push = [&](Computation* c) {
      visited.insert(c);
      std::vector<Computation*> callees;
      for (const auto& inst : c->instructions()) {
        for (Computation* callee : inst->called_computations()) {
          if (visited.count(callee) == 0) callees.push_back(callee);
        }
      }
      stack.emplace_back(c, std::move(callees));
    };
    push(root.get());
    while (!stack.empty()) {
      std::vector<Computation*>& callees = stack.back().second;
      if (!callees.empty()) {
        Computation* next = callees.back();
        callees.pop_back();
        if (visited.count(next) == 0) push(next);
        continue;
      }
      Computation* done = stack.back().first;
      stack.pop_back();
      module->AddComputation(std::move(*slot[done]));
    }
  }
  module->set_entry(entry);
  return module;
}

}  // namespace shlo

absl::StatusOr<std::unique_ptr<Module>> ParseStableHlo(
    std::string_view text, std::string_view filename) {
  shlo::Parser parser(text, filename);
  return parser.ParseModule();
}

bool LooksLikeStableHlo(std::string_view contents) {
  size_t pos = 0;
  while (pos < contents.size()) {
    const char c = contents[pos];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos;
    } else if (contents.substr(pos, 2) == "//") {
      size_t nl = contents.find('\n', pos);
      pos = nl == std::string_view::npos ? contents.size() : nl + 1;
    } else {
      break;
    }
  }
  std::string_view rest = contents.substr(pos);
  auto starts_with_word = [&](std::string_view word) {
    if (rest.substr(0, word.size()) != word) return false;
    if (rest.size() == word.size()) return true;
    const char next = rest[word.size()];
    return !(std::isalnum(static_cast<unsigned char>(next)) || next == '_' ||
             next == '.');
  };
  return starts_with_word("module") || starts_with_word("func.func") ||
         rest.substr(0, 4) == "#loc";
}

}  // namespace aotc
