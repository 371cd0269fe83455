// Lexer for HLO text: turns the source into tokens with line and column.
//
// Whitespace and comments (`// ...` and `/* ... */`) are skipped. Besides
// names, numbers, strings and punctuation, the lexer recognizes the special
// lexemes of HLO attributes: dimension labels (`b01f_01io->b01f`), `3x3`
// window sizes and `0_1x2_2_1` padding. Special float spellings (`inf`,
// `-inf`, `nan`, `-nan`, `nan(0x7f)`) are float tokens. Malformed input
// produces a kError token carrying a message; the parser reports it only if
// it actually needs that token.
//
// Attribute values aotc keeps verbatim are read with RawValue(), which
// scans balanced brackets and strings instead of tokens.
#ifndef AOTC_COMPILER_FRONTEND_TEXT_LEXER_H_
#define AOTC_COMPILER_FRONTEND_TEXT_LEXER_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace aotc {

enum class TokenKind {
  kEof,
  kError,      // message in Token::error
  kName,       // [%]?[a-zA-Z_][a-zA-Z0-9_.-]*: names, keywords, opcodes, types
  kInt,        // -?[0-9]+
  kFloat,      // 1.5, -2e-3, .5, inf, -inf, nan, -nan, nan(0x7f), -nan(0x1)
  kString,     // "..." including the quotes; escapes are not decoded
  kDimLabels,  // b01f_01io->b01f
  kDxD,        // 3x3
  kPad,        // 0_1x2_2_1
  kRaw,        // a verbatim attribute value (only from RawValue())
  kLbrace,
  kRbrace,
  kLparen,
  kRparen,
  kLsquare,
  kRsquare,
  kComma,
  kColon,
  kEqual,
  kArrow,     // ->
  kLeq,       // <=
  kQuestion,  // ?
  kEllipsis,  // ...
};

struct Token {
  TokenKind kind = TokenKind::kEof;
  std::string_view text;  // exact source text of the token
  size_t offset = 0;      // byte offset of its first character
  int line = 1;           // 1-based
  int column = 1;         // 1-based, in bytes
  std::string error;      // kError only

  bool Is(TokenKind k) const { return kind == k; }
  // A kName token without '%' whose text is `word` (keywords, `true`...).
  bool IsWord(std::string_view word) const;
  // The name without its optional '%' prefix (kName only).
  std::string_view Name() const;
  bool HasPercent() const { return !text.empty() && text[0] == '%'; }
};

// "end of input", or the token text quoted and shortened: 'f32'.
std::string DescribeToken(const Token& token);
// The spelling of a kind for "expected ..." messages: "'='", "a name"...
std::string_view TokenKindName(TokenKind kind);

// Limit on bracket nesting inside verbatim attribute values.
inline constexpr int kMaxRawNesting = 64;

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  // The next token; kEof (repeatedly) at the end.
  Token Next();

  // Reads an attribute value verbatim starting at the current position
  // (after skipping whitespace): everything up to a ',' or whitespace or an
  // unmatched closing bracket at nesting depth 0, with brackets balanced and
  // strings and comments inside brackets kept intact. Returns kRaw (possibly
  // with empty text) or kError.
  Token RawValue();

  // Saved positions, for one-token lookahead and for rereading a token as a
  // raw value.
  struct State {
    size_t offset = 0;
    int line = 1;
    size_t line_start = 0;
  };
  State state() const { return {pos_, line_, line_start_}; }
  void Restore(const State& s);
  // Positions the lexer at the start of `token` (previously returned).
  void ResetTo(const Token& token);

  std::string_view text() const { return text_; }

 private:
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool AtEnd(size_t ahead = 0) const { return pos_ + ahead >= text_.size(); }
  // Moves over n bytes, counting newlines.
  void Advance(size_t n);
  // Skips whitespace and comments; returns false (with *error filled) on an
  // unterminated comment.
  bool SkipTrivia(Token* error);
  Token Make(TokenKind kind, size_t start, int line, int column, size_t end);
  Token MakeError(size_t start, int line, int column, size_t end,
                  std::string message);
  Token EofToken();

  // Length of a lexeme of the given form at `start`, or 0.
  size_t MatchDimLabels(size_t start) const;
  size_t MatchPad(size_t start) const;
  size_t MatchDxD(size_t start) const;
  size_t MatchNumber(size_t start, bool* is_float) const;
  size_t MatchName(size_t start) const;
  // Length of `nan(0x...)` payload text after "nan" at `start`, or 0.
  size_t MatchNanPayload(size_t start) const;
  // Length of a string literal at `start` (on '"'), or 0 if unterminated.
  size_t MatchString(size_t start) const;

  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
  // Position reported for end of input, computed once (0: not yet).
  int eof_line_ = 0;
  int eof_column_ = 0;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_FRONTEND_TEXT_LEXER_H_
