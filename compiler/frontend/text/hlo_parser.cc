// HLO text parser, top level: module header, stack-frame tables,
// computations, instructions and their operands.
//
// Names of instructions are scoped to their computation (as in XLA's parser,
// where each computation has its own name table); a name defined twice in
// one computation is an error. Computation names are module-wide, and a
// computation must be defined before an instruction refers to it.
#include "compiler/frontend/text/hlo_parser.h"

#include <utility>

#include "compiler/frontend/text/parser.h"
#include "compiler/ir/limits.h"
#include "compiler/ir/shape_inference.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc {

std::vector<Computation*> PendingInstruction::CalledComputations() const {
  std::vector<Computation*> called;
  for (Computation* c :
       {condition, body, true_computation, false_computation}) {
    if (c != nullptr) called.push_back(c);
  }
  called.insert(called.end(), branch_computations.begin(),
                branch_computations.end());
  for (Computation* c : {select, scatter, to_apply, calls}) {
    if (c != nullptr) called.push_back(c);
  }
  called.insert(called.end(), called_computations.begin(),
                called_computations.end());
  return called;
}

HloParser::HloParser(std::string_view text, std::string_view filename)
    : source_(std::make_shared<SourceFile>(
          SourceFile{std::string(filename), std::string(text)})),
      lexer_(source_->text) {}

Token HloParser::PeekNext() {
  Lexer::State saved = lexer_.state();
  Token next = lexer_.Next();
  lexer_.Restore(saved);
  return next;
}

Location HloParser::LocationOf(const Token& token) const {
  return Location{source_, token.line, token.column};
}

absl::Status HloParser::ErrorAt(const Token& token,
                                std::string_view message) const {
  return aotc::ErrorAt(LocationOf(token), message);
}

absl::Status HloParser::Expected(std::string_view what) const {
  if (tok_.Is(TokenKind::kError)) return ErrorAt(tok_, tok_.error);
  return ErrorAt(tok_, absl::StrCat("expected ", Sv(what), ", found ",
                                    DescribeToken(tok_)));
}

absl::Status HloParser::Expect(TokenKind kind) {
  if (!tok_.Is(kind)) return Expected(TokenKindName(kind));
  Advance();
  return absl::OkStatus();
}

absl::StatusOr<std::string> HloParser::ReadRawValue() {
  if (tok_.Is(TokenKind::kEof)) return Expected("an attribute value");
  lexer_.ResetTo(tok_);
  Token raw = lexer_.RawValue();
  if (raw.Is(TokenKind::kError)) return ErrorAt(raw, raw.error);
  if (raw.text.empty()) return Expected("an attribute value");
  Advance();
  return std::string(raw.text);
}

absl::StatusOr<std::unique_ptr<Module>> HloParser::ParseModule() {
  Advance();
  auto module = std::make_unique<Module>("");
  module->set_source(source_);
  if (tok_.IsWord("HloModule")) RETURN_IF_ERROR(ParseHeader(module.get()));
  RETURN_IF_ERROR(ParseStackFrameTables(module.get()));
  if (tok_.Is(TokenKind::kEof)) return Expected("a computation");
  while (!tok_.Is(TokenKind::kEof)) {
    RETURN_IF_ERROR(ParseComputation(module.get()));
  }
  if (module->entry() == nullptr) {
    module->set_entry(module->computations().back().get());
  }
  if (module->name().empty()) module->set_name(module->entry()->name());
  return module;
}

absl::Status HloParser::ParseHeader(Module* module) {
  Advance();  // HloModule
  if (!tok_.Is(TokenKind::kName)) return Expected("a module name");
  module->set_name(std::string(tok_.Name()));
  Advance();
  while (tok_.Is(TokenKind::kComma)) {
    Advance();
    if (!tok_.Is(TokenKind::kName) || tok_.HasPercent()) {
      return Expected("a module attribute name");
    }
    std::string key(tok_.text);
    Advance();
    RETURN_IF_ERROR(Expect(TokenKind::kEqual));
    ASSIGN_OR_RETURN(std::string value, ReadRawValue());
    module->mutable_header_attributes().emplace_back(std::move(key),
                                                     std::move(value));
  }
  return absl::OkStatus();
}

namespace {
bool IsStackFrameTableKeyword(const Token& t) {
  return t.IsWord("FileNames") || t.IsWord("FunctionNames") ||
         t.IsWord("FileLocations") || t.IsWord("StackFrames");
}
}  // namespace

absl::Status HloParser::ParseStackFrameTables(Module* module) {
  if (!IsStackFrameTableKeyword(tok_)) return absl::OkStatus();
  const size_t begin = tok_.offset;
  size_t end = begin;
  while (true) {
    if (IsStackFrameTableKeyword(tok_)) {
      end = tok_.offset + tok_.text.size();
      Advance();
      continue;
    }
    if (!tok_.Is(TokenKind::kInt)) break;
    Advance();
    if (tok_.Is(TokenKind::kString)) {
      end = tok_.offset + tok_.text.size();
      Advance();
      continue;
    }
    if (!tok_.Is(TokenKind::kLbrace)) {
      return Expected("a string or '{' in a stack frame table");
    }
    lexer_.ResetTo(tok_);
    Token raw = lexer_.RawValue();
    if (raw.Is(TokenKind::kError)) return ErrorAt(raw, raw.error);
    end = raw.offset + raw.text.size();
    Advance();
  }
  module->set_stack_frame_tables(
      std::string(lexer_.text().substr(begin, end - begin)));
  return absl::OkStatus();
}

absl::Status HloParser::ParseSignature() {
  RETURN_IF_ERROR(Expect(TokenKind::kLparen));
  if (!tok_.Is(TokenKind::kRparen)) {
    while (true) {
      if (!tok_.Is(TokenKind::kName)) return Expected("a parameter name");
      Advance();
      RETURN_IF_ERROR(Expect(TokenKind::kColon));
      RETURN_IF_ERROR(ParseShape().status());
      if (!tok_.Is(TokenKind::kComma)) break;
      Advance();
    }
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRparen));
  RETURN_IF_ERROR(Expect(TokenKind::kArrow));
  return ParseShape().status();
}

absl::Status HloParser::ParseComputation(Module* module) {
  bool is_entry = false;
  if (tok_.IsWord("ENTRY")) {
    if (module->entry() != nullptr) {
      return ErrorAt(tok_, "more than one ENTRY computation");
    }
    is_entry = true;
    Advance();
  }
  if (!tok_.Is(TokenKind::kName)) return Expected("a computation name");
  const Token name_token = tok_;
  const std::string_view name = name_token.Name();
  if (computations_.count(name) > 0) {
    return ErrorAt(name_token, absl::StrCat("computation '", Sv(name),
                                            "' is already defined"));
  }
  Advance();
  if (tok_.Is(TokenKind::kLparen)) RETURN_IF_ERROR(ParseSignature());
  RETURN_IF_ERROR(Expect(TokenKind::kLbrace));

  auto owned =
      std::make_unique<Computation>(std::string(name), LocationOf(name_token));
  Computation* computation = owned.get();
  Scope scope;
  Token root_token;
  root_token.kind = TokenKind::kEof;
  while (!tok_.Is(TokenKind::kRbrace)) {
    RETURN_IF_ERROR(ParseInstruction(computation, &scope, &root_token));
  }
  Advance();
  if (computation->instruction_count() == 0) {
    return ErrorAt(name_token, absl::StrCat("computation '", Sv(name),
                                            "' has no instructions"));
  }
  if (computation->root() == nullptr) {
    computation->set_root(computation->instructions().back().get());
  }
  if (tok_.Is(TokenKind::kComma) && PeekNext().IsWord("execution_thread")) {
    Advance();
    Advance();
    RETURN_IF_ERROR(Expect(TokenKind::kEqual));
    ASSIGN_OR_RETURN(std::string thread, ParseString());
    computation->set_execution_thread(std::move(thread));
  }
  computations_[name] = computation;
  module->AddComputation(std::move(owned));
  if (is_entry) module->set_entry(computation);
  return absl::OkStatus();
}

absl::StatusOr<Computation*> HloParser::ParseComputationRef() {
  if (!tok_.Is(TokenKind::kName)) return Expected("a computation name");
  auto it = computations_.find(tok_.Name());
  if (it == computations_.end()) {
    return ErrorAt(tok_, absl::StrCat("computation '", Sv(tok_.Name()),
                                      "' is not defined"));
  }
  Advance();
  return it->second;
}

absl::Status HloParser::ParseInstruction(Computation* computation, Scope* scope,
                                         Token* root_token) {
  bool is_root = false;
  if (tok_.IsWord("ROOT")) {
    if (!root_token->Is(TokenKind::kEof)) {
      return ErrorAt(tok_, absl::StrCat("more than one ROOT in computation '",
                                        Sv(computation->name()), "'"));
    }
    *root_token = tok_;
    is_root = true;
    Advance();
  }
  if (!tok_.Is(TokenKind::kName)) {
    return Expected(is_root ? "an instruction name"
                            : "an instruction name or '}'");
  }
  if (++instruction_count_ > max_instructions_) {
    return ErrorAt(tok_, absl::StrCat("more than ", max_instructions_,
                                      " instructions in the module"));
  }
  PendingInstruction p;
  p.name_token = tok_;
  const std::string_view name = tok_.Name();
  if (scope->count(name) > 0) {
    return ErrorAt(
        tok_, absl::StrCat("instruction '", Sv(name), "' is already defined"));
  }
  Advance();
  RETURN_IF_ERROR(Expect(TokenKind::kEqual));

  Shape shape;
  const bool has_shape = AtShape();
  if (has_shape) {
    ASSIGN_OR_RETURN(shape, ParseShape());
  }

  if (!tok_.Is(TokenKind::kName) || tok_.HasPercent()) {
    return Expected("an opcode");
  }
  p.opcode_token = tok_;
  std::optional<Opcode> opcode = OpcodeFromName(tok_.text);
  if (!opcode.has_value()) {
    return ErrorAt(tok_, absl::StrCat("unknown opcode '", Sv(tok_.text), "'"));
  }
  p.opcode = *opcode;
  Advance();

  std::vector<Instruction*> operands;
  RETURN_IF_ERROR(
      ParseOperands(&p, has_shape ? &shape : nullptr, *scope, &operands));
  while (tok_.Is(TokenKind::kComma)) {
    Advance();
    RETURN_IF_ERROR(ParseAttribute(&p));
  }

  std::unique_ptr<Instruction> inst =
      Instruction::Create(p.opcode, std::string(name), std::move(shape),
                          std::move(operands), LocationOf(p.name_token));
  inst->mutable_attrs() = std::move(p.attrs);
  inst->mutable_metadata() = std::move(p.metadata);
  inst->mutable_raw_attributes() = std::move(p.raw_attributes);
  inst->set_called_computations(p.CalledComputations());
  if (!has_shape) {
    absl::StatusOr<Shape> inferred = InferShape(*inst);
    if (!inferred.ok() || !inferred->IsValid()) {
      // The operands must not keep a user that is about to be destroyed.
      inst->DropAllOperands();
      if (!inferred.ok()) {
        return ErrorAt(p.name_token, std::string(inferred.status().message()));
      }
      return ErrorAt(p.name_token,
                     absl::StrCat("instruction '", Sv(name),
                                  "' needs an explicit result shape"));
    }
    inst->mutable_shape() = *std::move(inferred);
  }
  Instruction* added = computation->AddInstruction(std::move(inst));
  (*scope)[name] = added;
  if (is_root) computation->set_root(added);
  return absl::OkStatus();
}

absl::Status HloParser::ParseOperands(PendingInstruction* p, const Shape* shape,
                                      const Scope& scope,
                                      std::vector<Instruction*>* operands) {
  RETURN_IF_ERROR(Expect(TokenKind::kLparen));
  if (p->opcode == Opcode::kParameter) {
    const Token number_token = tok_;
    ASSIGN_OR_RETURN(int64_t number, ParseInt64());
    if (number < 0) {
      return ErrorAt(number_token,
                     absl::StrCat("parameter number ", number, " is negative"));
    }
    p->attrs.parameter_number = number;
    return Expect(TokenKind::kRparen);
  }
  if (p->opcode == Opcode::kConstant) {
    if (shape == nullptr) {
      return ErrorAt(p->opcode_token,
                     "constant needs an explicit result shape");
    }
    ASSIGN_OR_RETURN(Literal literal, ParseLiteral(*shape, 0));
    p->attrs.literal = std::move(literal);
    return Expect(TokenKind::kRparen);
  }
  if (tok_.Is(TokenKind::kRparen)) {
    Advance();
    return absl::OkStatus();
  }
  while (true) {
    // Operand shapes (the printer's long form) are checked but not used.
    if (AtShape()) RETURN_IF_ERROR(ParseShape().status());
    if (!tok_.Is(TokenKind::kName)) return Expected("an operand name");
    auto it = scope.find(tok_.Name());
    if (it == scope.end()) {
      return ErrorAt(tok_, absl::StrCat("instruction '", Sv(tok_.Name()),
                                        "' is not defined"));
    }
    operands->push_back(it->second);
    Advance();
    if (!tok_.Is(TokenKind::kComma)) break;
    Advance();
  }
  return Expect(TokenKind::kRparen);
}

absl::StatusOr<std::unique_ptr<Module>> ParseHloText(
    std::string_view text, std::string_view filename) {
  HloParser parser(text, filename);
  return parser.ParseModule();
}

}  // namespace aotc
