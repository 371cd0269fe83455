// Lexer for the MLIR text form of StableHLO modules.
//
// Produces the tokens of MLIR's generic syntax that StableHLO files use:
// `%value` (with an optional `#N` result index), `@symbol` and `@"quoted"`,
// `^block`, `#attr.alias`, bare identifiers (`stablehlo.add`, `f32`, `x`),
// integers (decimal and 0x hex), floats, strings, `->` and single-character
// punctuation. `//` comments are skipped. The dimension list of a tensor type
// (`2x3x`) is not a token sequence in MLIR either: the parser asks for it
// with ScanDimensions at the position of a token.
#ifndef AOTC_COMPILER_FRONTEND_STABLEHLO_MLIR_LEXER_H_
#define AOTC_COMPILER_FRONTEND_STABLEHLO_MLIR_LEXER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace aotc::shlo {

enum class TokKind {
  kEof,
  kError,
  kValue,      // %name, %name#3
  kSymbol,     // @name, @"name"
  kBlock,      // ^bb0
  kHashIdent,  // #stablehlo.gather, #stablehlo, #loc3
  kIdent,      // bare identifier: stablehlo.add, tensor, f32, true
  kInt,        // 12, -3, 0x7FC00000
  kFloat,      // 1.5, -2.0e+03
  kString,     // "..." (text includes the quotes)
  kArrow,      // ->
  kLParen,
  kRParen,
  kLSquare,
  kRSquare,
  kLBrace,
  kRBrace,
  kLess,
  kGreater,
  kComma,
  kColon,
  kEqual,
  kQuestion,
  kStar,
  kPlus,
};

struct Tok {
  TokKind kind = TokKind::kEof;
  std::string_view text;
  size_t offset = 0;
  int line = 1;
  int column = 1;
  const char* error = "";  // kError only

  bool Is(TokKind k) const { return kind == k; }
  bool IsIdent(std::string_view word) const {
    return kind == TokKind::kIdent && text == word;
  }
};

// "end of input" or the token text quoted and shortened: 'f32'.
std::string DescribeTok(const Tok& tok);

class MlirLexer {
 public:
  explicit MlirLexer(std::string_view text) : text_(text) {}

  Tok Next();
  // Moves back to the start of `tok` (which this lexer produced).
  void ResetTo(const Tok& tok);

  // Reads `(\d+ | ?)x` repeatedly from the start of `tok` (after a tensor
  // type's '<'), appending the sizes to *dims (-1 for '?'), and leaves the
  // lexer after the last 'x'. Returns false on an integer out of range.
  bool ScanDimensions(const Tok& tok, std::vector<int64_t>* dims);

  std::string_view text() const { return text_; }

 private:
  void SkipSpaceAndComments();
  Tok Make(TokKind kind, size_t start, int line, int column);
  Tok Error(const char* message, size_t start, int line, int column);
  Tok LexNumber(size_t start, int line, int column);
  void AdvanceChar();

  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

}  // namespace aotc::shlo

#endif  // AOTC_COMPILER_FRONTEND_STABLEHLO_MLIR_LEXER_H_
