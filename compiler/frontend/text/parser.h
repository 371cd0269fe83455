// The HLO text parser's internal class, shared by the files that implement
// its parts: hlo_parser.cc (module, computations, instructions),
// parse_shape.cc (shapes, integers, strings), parse_literal.cc (constants)
// and parse_attributes.cc (instruction attributes).
//
// The parser is recursive descent over a Lexer with one token of lookahead
// (`tok_`). Every recursion that input controls is bounded: shapes by
// kMaxShapeNesting, literals by the shape they are parsed against, verbatim
// attribute values by the lexer's bracket limit.
#ifndef AOTC_COMPILER_FRONTEND_TEXT_PARSER_H_
#define AOTC_COMPILER_FRONTEND_TEXT_PARSER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/frontend/text/lexer.h"
#include "compiler/ir/limits.h"
#include "compiler/ir/module.h"

namespace aotc {

// An instruction while its text is being read.
struct PendingInstruction {
  Opcode opcode = Opcode::kAdd;
  Token name_token;
  Token opcode_token;
  InstructionAttributes attrs;
  OpMetadata metadata;
  std::vector<std::pair<std::string, std::string>> raw_attributes;
  // Computation references by attribute.
  Computation* condition = nullptr;
  Computation* body = nullptr;
  Computation* true_computation = nullptr;
  Computation* false_computation = nullptr;
  std::vector<Computation*> branch_computations;
  Computation* select = nullptr;
  Computation* scatter = nullptr;
  Computation* to_apply = nullptr;
  Computation* calls = nullptr;
  std::vector<Computation*> called_computations;
  // Attribute names seen so far, to refuse repeats.
  std::vector<std::string_view> seen;

  // The called computations in the order instruction.h documents.
  std::vector<Computation*> CalledComputations() const;
};

class HloParser {
 public:
  HloParser(std::string_view text, std::string_view filename);

  absl::StatusOr<std::unique_ptr<Module>> ParseModule();

  // Lowers the instruction limit below kMaxInstructions (for tests).
  void set_max_instructions(int64_t n) { max_instructions_ = n; }

 private:
  // Names visible inside one computation.
  using Scope = std::unordered_map<std::string_view, Instruction*>;

  // --- Tokens and errors (hlo_parser.cc).
  void Advance() { tok_ = lexer_.Next(); }
  // The token after tok_, without consuming anything.
  Token PeekNext();
  Location LocationOf(const Token& token) const;
  absl::Status ErrorAt(const Token& token, std::string_view message) const;
  // "expected <what>, found <tok_>" (or tok_'s own lexer error).
  absl::Status Expected(std::string_view what) const;
  // Consumes a token of `kind` or fails with Expected.
  absl::Status Expect(TokenKind kind);
  // Reads tok_ and what follows as a verbatim attribute value.
  absl::StatusOr<std::string> ReadRawValue();

  // --- Module structure (hlo_parser.cc).
  absl::Status ParseHeader(Module* module);
  absl::Status ParseStackFrameTables(Module* module);
  absl::Status ParseComputation(Module* module);
  absl::Status ParseSignature();
  absl::Status ParseInstruction(Computation* computation, Scope* scope,
                                Token* root_token);
  absl::Status ParseOperands(PendingInstruction* pending, const Shape* shape,
                             const Scope& scope,
                             std::vector<Instruction*>* operands);
  absl::StatusOr<Computation*> ParseComputationRef();

  // --- Shapes, integers, strings (parse_shape.cc).
  // True if tok_ starts a shape: '(' or an element type followed by '['.
  bool AtShape();
  // Parses and validates a shape.
  absl::StatusOr<Shape> ParseShape();
  absl::StatusOr<Shape> ParseShapeAt(int depth);
  absl::Status ParseLayout(Shape* shape);
  absl::StatusOr<int64_t> ParseInt64();
  absl::StatusOr<bool> ParseBool();
  absl::StatusOr<std::string> ParseString();
  // `{1,2,3}`.
  absl::StatusOr<std::vector<int64_t>> ParseIntList();
  // `{a, b}` of names, without resolving them.
  absl::StatusOr<std::vector<Token>> ParseNameList();

  // --- Literals (parse_literal.cc).
  absl::StatusOr<Literal> ParseLiteral(const Shape& shape, int depth);
  absl::Status ParseArrayLevel(const Shape& shape, int level,
                               std::vector<uint8_t>* bytes);
  absl::Status ParseElement(PrimitiveType type, std::vector<uint8_t>* bytes);

  // --- Attributes (parse_attributes.cc).
  absl::Status ParseAttribute(PendingInstruction* p);
  // Parses `key=`'s value into an InstructionAttributes field when aotc
  // models `key` for p's opcode; *handled is false otherwise.
  absl::Status ParseModeledAttribute(std::string_view key,
                                     PendingInstruction* p, bool* handled);
  // Computation-valued attributes; *handled is false for other keys.
  absl::Status ParseCalledAttribute(std::string_view key, PendingInstruction* p,
                                    bool* handled);
  absl::Status ParseMetadata(OpMetadata* metadata);
  absl::Status ParseWindow(std::vector<WindowDim>* window);
  absl::Status ParseSlice(std::vector<SliceDim>* slice);
  absl::Status ParsePadding(std::vector<PaddingDim>* padding);
  absl::Status ParseDimLabels(ConvolutionDimensionNumbers* dnums);

  std::shared_ptr<SourceFile> source_;
  Lexer lexer_;
  Token tok_;
  std::unordered_map<std::string_view, Computation*> computations_;
  // Instructions read so far, all computations together, and the limit.
  int64_t instruction_count_ = 0;
  int64_t max_instructions_ = kMaxInstructions;
};

// Splits "3x4x5" into {3, 4, 5}; false on an out-of-range number.
bool SplitDxD(std::string_view text, std::vector<int64_t>* out);
// Splits "0_1x2_2_1" into per-dimension lists {{0,1},{2,2,1}}; false on an
// out-of-range number.
bool SplitPad(std::string_view text, std::vector<std::vector<int64_t>>* out);
// The bits of float type t (f16, bf16, f32, f64 or a minifloat) for a
// float or integer token's text, including inf, -inf, nan, -nan and
// nan(0x...). The error message has no location.
absl::StatusOr<uint64_t> FloatBitsFromText(PrimitiveType t,
                                           std::string_view text);
// Decodes the C escapes of a string token's contents (without quotes);
// false on an invalid escape.
bool UnescapeString(std::string_view body, std::string* out);

}  // namespace aotc

#endif  // AOTC_COMPILER_FRONTEND_TEXT_PARSER_H_
