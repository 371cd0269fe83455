// HLO text parser: shapes and layouts, and the small value forms every
// other part uses (integers, booleans, strings, integer lists, `3x3` sizes
// and `0_1x2_2` padding).
#include <charconv>

#include "compiler/frontend/text/parser.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

constexpr std::string_view kDynamicDimsMessage =
    "dynamic dimensions are not supported: aotc compiles static shapes only";

bool ParseSigned(std::string_view text, int64_t* out) {
  auto [ptr, ec] =
      std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

int OctalValue(char c) { return c >= '0' && c <= '7' ? c - '0' : -1; }
int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool SplitDxD(std::string_view text, std::vector<int64_t>* out) {
  out->clear();
  while (true) {
    size_t x = text.find('x');
    int64_t v;
    if (!ParseSigned(text.substr(0, x), &v)) return false;
    out->push_back(v);
    if (x == std::string_view::npos) return true;
    text.remove_prefix(x + 1);
  }
}

bool SplitPad(std::string_view text, std::vector<std::vector<int64_t>>* out) {
  out->clear();
  while (true) {
    size_t x = text.find('x');
    std::string_view dim = text.substr(0, x);
    std::vector<int64_t> parts;
    while (true) {
      size_t u = dim.find('_');
      int64_t v;
      if (!ParseSigned(dim.substr(0, u), &v)) return false;
      parts.push_back(v);
      if (u == std::string_view::npos) break;
      dim.remove_prefix(u + 1);
    }
    out->push_back(std::move(parts));
    if (x == std::string_view::npos) return true;
    text.remove_prefix(x + 1);
  }
}

bool UnescapeString(std::string_view body, std::string* out) {
  out->clear();
  out->reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (++i >= body.size()) return false;
    char e = body[i];
    switch (e) {
      case 'n':
        out->push_back('\n');
        continue;
      case 't':
        out->push_back('\t');
        continue;
      case 'r':
        out->push_back('\r');
        continue;
      case 'a':
        out->push_back('\a');
        continue;
      case 'b':
        out->push_back('\b');
        continue;
      case 'f':
        out->push_back('\f');
        continue;
      case 'v':
        out->push_back('\v');
        continue;
      case '\\':
      case '\'':
      case '"':
      case '?':
        out->push_back(e);
        continue;
      default:
        break;
    }
    if (OctalValue(e) >= 0) {
      int value = 0;
      int digits = 0;
      while (digits < 3 && i < body.size() && OctalValue(body[i]) >= 0) {
        value = value * 8 + OctalValue(body[i]);
        ++i;
        ++digits;
      }
      --i;
      if (value > 0xff) return false;
      out->push_back(static_cast<char>(value));
      continue;
    }
    if (e == 'x') {
      int value = 0;
      int digits = 0;
      while (i + 1 < body.size() && HexValue(body[i + 1]) >= 0 && digits < 2) {
        value = value * 16 + HexValue(body[++i]);
        ++digits;
      }
      if (digits == 0) return false;
      out->push_back(static_cast<char>(value));
      continue;
    }
    return false;
  }
  return true;
}

bool HloParser::AtShape() {
  if (tok_.Is(TokenKind::kLparen)) return true;
  if (!tok_.Is(TokenKind::kName) || tok_.HasPercent()) return false;
  if (!PrimitiveTypeFromName(tok_.text).has_value()) return false;
  return PeekNext().Is(TokenKind::kLsquare);
}

absl::StatusOr<Shape> HloParser::ParseShape() {
  const Token start = tok_;
  ASSIGN_OR_RETURN(Shape shape, ParseShapeAt(0));
  absl::Status valid = ValidateShape(shape);
  if (!valid.ok()) return ErrorAt(start, std::string(valid.message()));
  return shape;
}

absl::StatusOr<Shape> HloParser::ParseShapeAt(int depth) {
  if (depth > kMaxShapeNesting) {
    return ErrorAt(tok_, absl::StrCat("shape nested deeper than ",
                                      kMaxShapeNesting, " levels"));
  }
  if (tok_.Is(TokenKind::kLparen)) {
    Advance();
    std::vector<Shape> elements;
    if (!tok_.Is(TokenKind::kRparen)) {
      while (true) {
        ASSIGN_OR_RETURN(Shape element, ParseShapeAt(depth + 1));
        elements.push_back(std::move(element));
        if (!tok_.Is(TokenKind::kComma)) break;
        Advance();
      }
    }
    RETURN_IF_ERROR(Expect(TokenKind::kRparen));
    return Shape::Tuple(std::move(elements));
  }
  if (!tok_.Is(TokenKind::kName) || tok_.HasPercent())
    return Expected("a shape");
  const Token type_token = tok_;
  std::optional<PrimitiveType> type = PrimitiveTypeFromName(tok_.text);
  if (!type.has_value()) {
    return ErrorAt(tok_,
                   absl::StrCat("unknown element type '", Sv(tok_.text), "'"));
  }
  Advance();
  RETURN_IF_ERROR(Expect(TokenKind::kLsquare));
  std::vector<int64_t> dims;
  if (!tok_.Is(TokenKind::kRsquare)) {
    while (true) {
      if (tok_.Is(TokenKind::kQuestion) || tok_.Is(TokenKind::kLeq)) {
        return ErrorAt(tok_, kDynamicDimsMessage);
      }
      ASSIGN_OR_RETURN(int64_t dim, ParseInt64());
      dims.push_back(dim);
      if (!tok_.Is(TokenKind::kComma)) break;
      Advance();
    }
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRsquare));
  if (*type == PrimitiveType::kToken || *type == PrimitiveType::kOpaque) {
    if (!dims.empty()) {
      return ErrorAt(type_token, absl::StrCat(Sv(type_token.text),
                                              " shapes have no dimensions"));
    }
    if (*type == PrimitiveType::kToken) return Shape::Token();
    Shape opaque;
    opaque.set_element_type(PrimitiveType::kOpaque);
    return opaque;
  }
  Shape shape = Shape::Array(*type, std::move(dims));
  if (tok_.Is(TokenKind::kLbrace)) {
    // `-> f32[] {` in a signature: that brace opens the computation body.
    TokenKind next = PeekNext().kind;
    if (next == TokenKind::kInt || next == TokenKind::kColon ||
        next == TokenKind::kRbrace) {
      RETURN_IF_ERROR(ParseLayout(&shape));
    }
  }
  return shape;
}

absl::Status HloParser::ParseLayout(Shape* shape) {
  RETURN_IF_ERROR(Expect(TokenKind::kLbrace));
  Layout layout;
  while (tok_.Is(TokenKind::kInt)) {
    ASSIGN_OR_RETURN(int64_t d, ParseInt64());
    layout.minor_to_major.push_back(d);
    if (!tok_.Is(TokenKind::kComma)) break;
    Advance();
  }
  if (tok_.Is(TokenKind::kColon)) {
    // Tiles, memory space, element size...: kept verbatim.
    Advance();
    lexer_.ResetTo(tok_);
    Token raw = lexer_.RawValue();
    if (raw.Is(TokenKind::kError)) return ErrorAt(raw, raw.error);
    layout.extension = std::string(raw.text);
    Advance();
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRbrace));
  shape->mutable_layout() = std::move(layout);
  return absl::OkStatus();
}

absl::StatusOr<int64_t> HloParser::ParseInt64() {
  if (!tok_.Is(TokenKind::kInt)) return Expected("an integer");
  int64_t value;
  if (!ParseSigned(tok_.text, &value)) {
    return ErrorAt(tok_, absl::StrCat("integer ", DescribeToken(tok_),
                                      " is out of range"));
  }
  Advance();
  return value;
}

absl::StatusOr<bool> HloParser::ParseBool() {
  if (tok_.IsWord("true") || tok_.IsWord("false")) {
    bool value = tok_.text == "true";
    Advance();
    return value;
  }
  return Expected("true or false");
}

absl::StatusOr<std::string> HloParser::ParseString() {
  if (!tok_.Is(TokenKind::kString)) return Expected("a string");
  std::string value;
  if (!UnescapeString(tok_.text.substr(1, tok_.text.size() - 2), &value)) {
    return ErrorAt(tok_, "invalid escape sequence in string");
  }
  Advance();
  return value;
}

absl::StatusOr<std::vector<int64_t>> HloParser::ParseIntList() {
  RETURN_IF_ERROR(Expect(TokenKind::kLbrace));
  std::vector<int64_t> values;
  if (!tok_.Is(TokenKind::kRbrace)) {
    while (true) {
      ASSIGN_OR_RETURN(int64_t v, ParseInt64());
      values.push_back(v);
      if (!tok_.Is(TokenKind::kComma)) break;
      Advance();
    }
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRbrace));
  return values;
}

absl::StatusOr<std::vector<Token>> HloParser::ParseNameList() {
  RETURN_IF_ERROR(Expect(TokenKind::kLbrace));
  std::vector<Token> names;
  if (!tok_.Is(TokenKind::kRbrace)) {
    while (true) {
      if (!tok_.Is(TokenKind::kName)) return Expected("a name");
      names.push_back(tok_);
      Advance();
      if (!tok_.Is(TokenKind::kComma)) break;
      Advance();
    }
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRbrace));
  return names;
}

}  // namespace aotc
