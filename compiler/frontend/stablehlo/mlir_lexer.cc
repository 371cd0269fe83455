// The MLIR text lexer of the StableHLO front end (see mlir_lexer.h).
#include "compiler/frontend/stablehlo/mlir_lexer.h"

#include <cctype>

namespace aotc::shlo {
namespace {

bool IsIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
         c == '$';
}
// Characters of %value and ^block names (MLIR's suffix-id).
bool IsSuffixChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
         c == '$' || c == '-';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::string DescribeTok(const Tok& tok) {
  if (tok.Is(TokKind::kEof)) return "end of input";
  std::string_view t = tok.text;
  if (t.size() > 40) return "'" + std::string(t.substr(0, 37)) + "...'";
  return "'" + std::string(t) + "'";
}

void MlirLexer::AdvanceChar() {
  if (text_[pos_] == '\n') {
    ++line_;
    column_ = 1;
  } else {
    ++column_;
  }
  ++pos_;
}

void MlirLexer::SkipSpaceAndComments() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      AdvanceChar();
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') AdvanceChar();
    } else {
      break;
    }
  }
}

Tok MlirLexer::Make(TokKind kind, size_t start, int line, int column) {
  Tok t;
  t.kind = kind;
  t.text = text_.substr(start, pos_ - start);
  t.offset = start;
  t.line = line;
  t.column = column;
  return t;
}

Tok MlirLexer::Error(const char* message, size_t start, int line, int column) {
  Tok t = Make(TokKind::kError, start, line, column);
  t.error = message;
  return t;
}

void MlirLexer::ResetTo(const Tok& tok) {
  pos_ = tok.offset;
  line_ = tok.line;
  column_ = tok.column;
}

Tok MlirLexer::LexNumber(size_t start, int line, int column) {
  if (text_[pos_] == '-' || text_[pos_] == '+') AdvanceChar();
  if (pos_ + 1 < text_.size() && text_[pos_] == '0' &&
      (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'X') &&
      pos_ + 2 < text_.size() &&
      std::isxdigit(static_cast<unsigned char>(text_[pos_ + 2]))) {
    AdvanceChar();
    AdvanceChar();
    while (pos_ < text_.size() &&
           std::isxdigit(static_cast<unsigned char>(text_[pos_]))) {
      AdvanceChar();
    }
    return Make(TokKind::kInt, start, line, column);
  }
  if (pos_ >= text_.size() || !IsDigit(text_[pos_])) {
    return Error("expected a digit", start, line, column);
  }
  while (pos_ < text_.size() && IsDigit(text_[pos_])) AdvanceChar();
  bool is_float = false;
  if (pos_ < text_.size() && text_[pos_] == '.') {
    is_float = true;
    AdvanceChar();
    while (pos_ < text_.size() && IsDigit(text_[pos_])) AdvanceChar();
  }
  if (is_float && pos_ < text_.size() &&
      (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    size_t p = pos_ + 1;
    if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
    if (p < text_.size() && IsDigit(text_[p])) {
      while (pos_ < p) AdvanceChar();
      while (pos_ < text_.size() && IsDigit(text_[pos_])) AdvanceChar();
    }
  }
  return Make(is_float ? TokKind::kFloat : TokKind::kInt, start, line, column);
}

Tok MlirLexer::Next() {
  SkipSpaceAndComments();
  const size_t start = pos_;
  const int line = line_;
  const int column = column_;
  if (pos_ >= text_.size()) return Make(TokKind::kEof, start, line, column);
  const char c = text_[pos_];
  auto single = [&](TokKind kind) {
    AdvanceChar();
    return Make(kind, start, line, column);
  };
  switch (c) {
    case '(':
      return single(TokKind::kLParen);
    case ')':
      return single(TokKind::kRParen);
    case '[':
      return single(TokKind::kLSquare);
    case ']':
      return single(TokKind::kRSquare);
    case '{':
      return single(TokKind::kLBrace);
    case '}':
      return single(TokKind::kRBrace);
    case '<':
      return single(TokKind::kLess);
    case '>':
      return single(TokKind::kGreater);
    case ',':
      return single(TokKind::kComma);
    case ':':
      return single(TokKind::kColon);
    case '=':
      return single(TokKind::kEqual);
    case '?':
      return single(TokKind::kQuestion);
    case '*':
      return single(TokKind::kStar);
    default:
      break;
  }
  if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '>') {
    AdvanceChar();
    AdvanceChar();
    return Make(TokKind::kArrow, start, line, column);
  }
  if (IsDigit(c) || ((c == '-' || c == '+') && pos_ + 1 < text_.size() &&
                     IsDigit(text_[pos_ + 1]))) {
    return LexNumber(start, line, column);
  }
  if (c == '+') return single(TokKind::kPlus);
  if (c == '"') {
    AdvanceChar();
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\n') {
        return Error("unterminated string", start, line, column);
      }
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) AdvanceChar();
      AdvanceChar();
    }
    if (pos_ >= text_.size()) {
      return Error("unterminated string", start, line, column);
    }
    AdvanceChar();
    return Make(TokKind::kString, start, line, column);
  }
  if (c == '%' || c == '^') {
    AdvanceChar();
    size_t name_start = pos_;
    while (pos_ < text_.size() && IsSuffixChar(text_[pos_])) AdvanceChar();
    if (pos_ == name_start) {
      return Error(c == '%' ? "expected a value name after '%'"
                            : "expected a block name after '^'",
                   start, line, column);
    }
    if (c == '%' && pos_ + 1 < text_.size() && text_[pos_] == '#' &&
        IsDigit(text_[pos_ + 1])) {
      AdvanceChar();
      while (pos_ < text_.size() && IsDigit(text_[pos_])) AdvanceChar();
    }
    return Make(c == '%' ? TokKind::kValue : TokKind::kBlock, start, line,
                column);
  }
  if (c == '@') {
    AdvanceChar();
    if (pos_ < text_.size() && text_[pos_] == '"') {
      Tok s = Next();
      if (s.Is(TokKind::kError)) return s;
      return Make(TokKind::kSymbol, start, line, column);
    }
    size_t name_start = pos_;
    while (pos_ < text_.size() && IsIdentChar(text_[pos_])) AdvanceChar();
    if (pos_ == name_start) {
      return Error("expected a symbol name after '@'", start, line, column);
    }
    return Make(TokKind::kSymbol, start, line, column);
  }
  if (c == '#' || c == '!') {
    AdvanceChar();
    size_t name_start = pos_;
    while (pos_ < text_.size() && IsIdentChar(text_[pos_])) AdvanceChar();
    if (pos_ == name_start) {
      return Error("expected an identifier after '#' or '!'", start, line,
                   column);
    }
    return Make(TokKind::kHashIdent, start, line, column);
  }
  if (IsIdentStart(c)) {
    while (pos_ < text_.size() && IsIdentChar(text_[pos_])) AdvanceChar();
    return Make(TokKind::kIdent, start, line, column);
  }
  AdvanceChar();
  return Error("unexpected character", start, line, column);
}

bool MlirLexer::ScanDimensions(const Tok& tok, std::vector<int64_t>* dims) {
  ResetTo(tok);
  while (pos_ < text_.size()) {
    size_t p = pos_;
    int64_t value = 0;
    if (text_[p] == '?') {
      value = -1;
      ++p;
    } else {
      if (!IsDigit(text_[p])) return true;
      while (p < text_.size() && IsDigit(text_[p])) {
        if (value > (INT64_MAX - 9) / 10) return false;
        value = value * 10 + (text_[p] - '0');
        ++p;
      }
    }
    if (p >= text_.size() || text_[p] != 'x') return true;
    while (pos_ <= p) AdvanceChar();
    dims->push_back(value);
  }
  return true;
}

}  // namespace aotc::shlo
