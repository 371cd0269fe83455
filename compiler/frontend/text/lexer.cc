// HLO text lexer: hand-written matchers for each lexeme, one pass, with
// line and column tracking.
#include "compiler/frontend/text/lexer.h"

#include <cstring>
#include <vector>

#include "compiler/support/strings.h"

namespace aotc {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool IsNameStart(char c) { return IsAlpha(c) || c == '_'; }
bool IsNameChar(char c) {
  return IsAlpha(c) || IsDigit(c) || c == '_' || c == '.' || c == '-';
}
bool IsHexDigit(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}
bool InSet(char c, const char* set) {
  return c != '\0' && std::strchr(set, c) != nullptr;
}

std::string UnexpectedCharMessage(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  if (u > 0x20 && u < 0x7f)
    return absl::StrCat("unexpected character '", std::string(1, c), "'");
  return absl::StrFormat("unexpected byte 0x%02x", u);
}

}  // namespace

bool Token::IsWord(std::string_view word) const {
  return kind == TokenKind::kName && text == word;
}

std::string_view Token::Name() const {
  return HasPercent() ? text.substr(1) : text;
}

std::string DescribeToken(const Token& token) {
  if (token.kind == TokenKind::kEof) return "end of input";
  constexpr size_t kMaxShown = 40;
  std::string_view t = token.text;
  if (t.size() > kMaxShown) {
    return absl::StrCat("'", Sv(t.substr(0, kMaxShown)), "...'");
  }
  return absl::StrCat("'", Sv(t), "'");
}

std::string_view TokenKindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEof:
      return "end of input";
    case TokenKind::kError:
      return "an invalid token";
    case TokenKind::kName:
      return "a name";
    case TokenKind::kInt:
      return "an integer";
    case TokenKind::kFloat:
      return "a number";
    case TokenKind::kString:
      return "a string";
    case TokenKind::kDimLabels:
      return "dimension labels";
    case TokenKind::kDxD:
      return "a size like 3x3";
    case TokenKind::kPad:
      return "padding like 0_1x2_2";
    case TokenKind::kRaw:
      return "an attribute value";
    case TokenKind::kLbrace:
      return "'{'";
    case TokenKind::kRbrace:
      return "'}'";
    case TokenKind::kLparen:
      return "'('";
    case TokenKind::kRparen:
      return "')'";
    case TokenKind::kLsquare:
      return "'['";
    case TokenKind::kRsquare:
      return "']'";
    case TokenKind::kComma:
      return "','";
    case TokenKind::kColon:
      return "':'";
    case TokenKind::kEqual:
      return "'='";
    case TokenKind::kArrow:
      return "'->'";
    case TokenKind::kLeq:
      return "'<='";
    case TokenKind::kQuestion:
      return "'?'";
    case TokenKind::kEllipsis:
      return "'...'";
  }
  return "a token";
}

void Lexer::Advance(size_t n) {
  size_t end = pos_ + n;
  const char* base = text_.data();
  while (pos_ < end) {
    const void* nl = std::memchr(base + pos_, '\n', end - pos_);
    if (nl == nullptr) break;
    size_t at = static_cast<const char*>(nl) - base;
    ++line_;
    line_start_ = at + 1;
    pos_ = at + 1;
  }
  pos_ = end;
}

void Lexer::Restore(const State& s) {
  pos_ = s.offset;
  line_ = s.line;
  line_start_ = s.line_start;
}

void Lexer::ResetTo(const Token& token) {
  pos_ = token.offset;
  line_ = token.line;
  line_start_ = token.offset - static_cast<size_t>(token.column - 1);
}

Token Lexer::Make(TokenKind kind, size_t start, int line, int column,
                  size_t end) {
  Token t;
  t.kind = kind;
  t.text = text_.substr(start, end - start);
  t.offset = start;
  t.line = line;
  t.column = column;
  Advance(end - pos_);
  return t;
}

Token Lexer::MakeError(size_t start, int line, int column, size_t end,
                       std::string message) {
  Token t = Make(TokenKind::kError, start, line, column, end);
  t.error = std::move(message);
  return t;
}

Token Lexer::EofToken() {
  pos_ = text_.size();
  Token t;
  t.kind = TokenKind::kEof;
  t.text = text_.substr(text_.size());
  t.offset = text_.size();
  if (eof_line_ > 0) {
    t.line = eof_line_;
    t.column = eof_column_;
    return t;
  }
  // Point just after the last non-blank character, so that "unexpected end
  // of input" quotes the line where the text stops.
  size_t last = text_.size();
  while (last > 0 && IsSpace(text_[last - 1])) --last;
  int line = 1;
  size_t line_start = 0;
  const char* base = text_.data();
  size_t i = 0;
  while (i < last) {
    const void* nl = std::memchr(base + i, '\n', last - i);
    if (nl == nullptr) break;
    i = static_cast<const char*>(nl) - base + 1;
    ++line;
    line_start = i;
  }
  eof_line_ = line;
  eof_column_ = static_cast<int>(last - line_start) + 1;
  t.line = eof_line_;
  t.column = eof_column_;
  return t;
}

bool Lexer::SkipTrivia(Token* error) {
  while (!AtEnd()) {
    char c = Peek();
    if (IsSpace(c)) {
      Advance(1);
      continue;
    }
    if (c == '/' && Peek(1) == '/') {
      const void* nl =
          std::memchr(text_.data() + pos_, '\n', text_.size() - pos_);
      pos_ = nl ? static_cast<const char*>(nl) - text_.data() : text_.size();
      continue;
    }
    if (c == '/' && Peek(1) == '*') {
      size_t close = text_.find("*/", pos_ + 2);
      if (close == std::string_view::npos) {
        *error =
            MakeError(pos_, line_, static_cast<int>(pos_ - line_start_) + 1,
                      pos_ + 2, "unterminated comment");
        return false;
      }
      Advance(close + 2 - pos_);
      continue;
    }
    break;
  }
  return true;
}

size_t Lexer::MatchDimLabels(size_t start) const {
  // [0-9bf?]{2,}_[0-9io?]{2,}->[0-9bf?]{2,}
  size_t i = start;
  auto run = [&](const char* set) {
    size_t begin = i;
    while (i < text_.size() && (IsDigit(text_[i]) || InSet(text_[i], set))) ++i;
    return i - begin;
  };
  if (run("bf?") < 2) return 0;
  if (i >= text_.size() || text_[i] != '_') return 0;
  ++i;
  if (run("io?") < 2) return 0;
  if (text_.substr(i, 2) != "->") return 0;
  i += 2;
  if (run("bf?") < 2) return 0;
  return i - start;
}

size_t Lexer::MatchPad(size_t start) const {
  // -?N_-?N(_-?N)? (x -?N_-?N(_-?N)?)*
  auto signed_int = [&](size_t i) -> size_t {
    size_t j = i;
    if (j < text_.size() && text_[j] == '-') ++j;
    size_t digits = j;
    while (j < text_.size() && IsDigit(text_[j])) ++j;
    return j > digits ? j : std::string_view::npos;
  };
  auto dim = [&](size_t i) -> size_t {
    size_t j = signed_int(i);
    if (j == std::string_view::npos || j >= text_.size() || text_[j] != '_') {
      return std::string_view::npos;
    }
    j = signed_int(j + 1);
    if (j == std::string_view::npos) return j;
    if (j < text_.size() && text_[j] == '_') {
      size_t k = signed_int(j + 1);
      if (k != std::string_view::npos) j = k;
    }
    return j;
  };
  size_t end = dim(start);
  if (end == std::string_view::npos) return 0;
  while (end < text_.size() && text_[end] == 'x') {
    size_t next = dim(end + 1);
    if (next == std::string_view::npos) break;
    end = next;
  }
  return end - start;
}

size_t Lexer::MatchDxD(size_t start) const {
  size_t i = start;
  while (i < text_.size() && IsDigit(text_[i])) ++i;
  if (i == start) return 0;
  size_t end = 0;
  while (i + 1 < text_.size() && text_[i] == 'x' && IsDigit(text_[i + 1])) {
    ++i;
    while (i < text_.size() && IsDigit(text_[i])) ++i;
    end = i;
  }
  return end == 0 ? 0 : end - start;
}

size_t Lexer::MatchNumber(size_t start, bool* is_float) const {
  size_t i = start;
  *is_float = false;
  if (i < text_.size() && text_[i] == '-') ++i;
  size_t int_begin = i;
  while (i < text_.size() && IsDigit(text_[i])) ++i;
  size_t int_digits = i - int_begin;
  size_t frac_digits = 0;
  if (i < text_.size() && text_[i] == '.') {
    size_t j = i + 1;
    while (j < text_.size() && IsDigit(text_[j])) ++j;
    frac_digits = j - i - 1;
    if (int_digits > 0 || frac_digits > 0) {
      i = j;
      *is_float = true;
    }
  }
  if (int_digits == 0 && frac_digits == 0) return 0;
  if (i < text_.size() && (text_[i] == 'e' || text_[i] == 'E')) {
    size_t j = i + 1;
    if (j < text_.size() && (text_[j] == '+' || text_[j] == '-')) ++j;
    size_t exp_begin = j;
    while (j < text_.size() && IsDigit(text_[j])) ++j;
    if (j > exp_begin) {
      i = j;
      *is_float = true;
    }
  }
  return i - start;
}

size_t Lexer::MatchName(size_t start) const {
  size_t i = start;
  if (i < text_.size() && text_[i] == '%') ++i;
  if (i >= text_.size() || !IsNameStart(text_[i])) return 0;
  ++i;
  while (i < text_.size() && IsNameChar(text_[i])) {
    // `a->b`: the arrow is not part of the name.
    if (text_[i] == '-' && i + 1 < text_.size() && text_[i + 1] == '>') break;
    ++i;
  }
  return i - start;
}

size_t Lexer::MatchNanPayload(size_t start) const {
  // (0x[0-9a-fA-F]+)
  if (text_.substr(start, 3) != "(0x") return 0;
  size_t i = start + 3;
  size_t digits = i;
  while (i < text_.size() && IsHexDigit(text_[i])) ++i;
  if (i == digits || i >= text_.size() || text_[i] != ')') return 0;
  return i + 1 - start;
}

size_t Lexer::MatchString(size_t start) const {
  size_t i = start + 1;
  while (i < text_.size()) {
    char c = text_[i];
    if (c == '\\') {
      i += 2;
      continue;
    }
    if (c == '"') return i + 1 - start;
    ++i;
  }
  return 0;
}

Token Lexer::Next() {
  Token error;
  if (!SkipTrivia(&error)) return error;
  if (AtEnd()) return EofToken();
  const size_t start = pos_;
  const int line = line_;
  const int col = static_cast<int>(pos_ - line_start_) + 1;
  auto make = [&](TokenKind kind, size_t len) {
    return Make(kind, start, line, col, start + len);
  };
  const char c = Peek();
  switch (c) {
    case '{':
      return make(TokenKind::kLbrace, 1);
    case '}':
      return make(TokenKind::kRbrace, 1);
    case '(':
      return make(TokenKind::kLparen, 1);
    case ')':
      return make(TokenKind::kRparen, 1);
    case '[':
      return make(TokenKind::kLsquare, 1);
    case ']':
      return make(TokenKind::kRsquare, 1);
    case ',':
      return make(TokenKind::kComma, 1);
    case ':':
      return make(TokenKind::kColon, 1);
    case '=':
      return make(TokenKind::kEqual, 1);
    case '"': {
      size_t len = MatchString(start);
      if (len == 0) {
        return MakeError(start, line, col, start + 1, "unterminated string");
      }
      return make(TokenKind::kString, len);
    }
    case '<':
      if (Peek(1) == '=') return make(TokenKind::kLeq, 2);
      break;
    case '.':
      if (text_.substr(start, 3) == "...") return make(TokenKind::kEllipsis, 3);
      break;
    case '-':
      if (Peek(1) == '>') return make(TokenKind::kArrow, 2);
      for (std::string_view word : {"inf", "nan"}) {
        if (text_.substr(start + 1, 3) != word) continue;
        size_t len = 4;
        if (word == "nan") len += MatchNanPayload(start + 4);
        if (!AtEnd(len) && IsNameChar(Peek(len))) break;
        return make(TokenKind::kFloat, len);
      }
      break;
    default:
      break;
  }
  if (IsDigit(c) || c == 'b' || c == 'f' || c == '?') {
    if (size_t len = MatchDimLabels(start))
      return make(TokenKind::kDimLabels, len);
  }
  if (c == '?') return make(TokenKind::kQuestion, 1);
  if (IsDigit(c) || c == '-' || c == '.') {
    if (size_t len = MatchPad(start)) return make(TokenKind::kPad, len);
    if (size_t len = MatchDxD(start)) return make(TokenKind::kDxD, len);
    bool is_float = false;
    if (size_t len = MatchNumber(start, &is_float)) {
      return make(is_float ? TokenKind::kFloat : TokenKind::kInt, len);
    }
  }
  if (size_t len = MatchName(start)) {
    std::string_view word = text_.substr(start, len);
    if (word == "inf") return make(TokenKind::kFloat, len);
    if (word == "nan")
      return make(TokenKind::kFloat, len + MatchNanPayload(start + len));
    return make(TokenKind::kName, len);
  }
  return MakeError(start, line, col, start + 1, UnexpectedCharMessage(c));
}

Token Lexer::RawValue() {
  Token error;
  if (!SkipTrivia(&error)) return error;
  const State begin = state();
  const int col = static_cast<int>(pos_ - line_start_) + 1;
  // Open brackets: their offsets, to report an unbalanced one.
  std::vector<size_t> open;
  auto error_at = [&](size_t offset, size_t len, std::string message) {
    Restore(begin);
    Advance(offset - pos_);
    int c = static_cast<int>(pos_ - line_start_) + 1;
    return MakeError(offset, line_, c, offset + len, std::move(message));
  };
  size_t i = pos_;
  const size_t n = text_.size();
  while (i < n) {
    char ch = text_[i];
    if (ch == '"') {
      size_t len = MatchString(i);
      if (len == 0) return error_at(i, 1, "unterminated string");
      i += len;
      continue;
    }
    if (ch == '/' && i + 1 < n &&
        (text_[i + 1] == '/' || text_[i + 1] == '*')) {
      // Comments end a value at depth 0 and are kept inside brackets.
      if (open.empty()) break;
      if (text_[i + 1] == '/') {
        size_t nl = text_.find('\n', i);
        i = nl == std::string_view::npos ? n : nl;
        continue;
      }
      size_t close = text_.find("*/", i + 2);
      if (close == std::string_view::npos) {
        return error_at(i, 2, "unterminated comment");
      }
      i = close + 2;
      continue;
    }
    if (ch == '{' || ch == '(' || ch == '[') {
      if (static_cast<int>(open.size()) >= kMaxRawNesting) {
        return error_at(i, 1,
                        absl::StrCat("attribute value nested deeper than ",
                                     kMaxRawNesting, " levels"));
      }
      open.push_back(i);
      ++i;
      continue;
    }
    if (ch == '}' || ch == ')' || ch == ']') {
      if (open.empty()) break;
      char opener = text_[open.back()];
      char expected = opener == '{' ? '}' : opener == '(' ? ')' : ']';
      if (ch != expected) {
        return error_at(i, 1,
                        absl::StrCat("expected '", std::string(1, expected),
                                     "', found '", std::string(1, ch), "'"));
      }
      open.pop_back();
      ++i;
      continue;
    }
    if (open.empty() && (ch == ',' || IsSpace(ch))) break;
    ++i;
  }
  if (!open.empty()) {
    char opener = text_[open.back()];
    return error_at(open.back(), 1,
                    absl::StrCat("unbalanced '", std::string(1, opener),
                                 "' in attribute value"));
  }
  return Make(TokenKind::kRaw, begin.offset, begin.line, col, i);
}

}  // namespace aotc
