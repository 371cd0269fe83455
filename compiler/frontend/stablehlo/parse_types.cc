// StableHLO parser: types (`tensor<2x3xf32>`, `complex<f64>`, `tuple<..>`,
// `!stablehlo.token`), integers and attribute values. Dense literals are in
// parse_literal.cc.
#include <cstring>

#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/frontend/text/parser.h"  // UnescapeString
#include "compiler/ir/literal.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {

bool IntegerOf(std::string_view text, bool* negative, uint64_t* magnitude,
               bool* is_hex) {
  *negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+'))
    text.remove_prefix(1);
  *is_hex =
      text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const int base = *is_hex ? 16 : 10;
  if (*is_hex) text.remove_prefix(2);
  if (text.empty()) return false;
  uint64_t v = 0;
  for (char c : text) {
    int digit;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    } else {
      return false;
    }
    if (digit >= base) return false;
    if (v > (UINT64_MAX - static_cast<uint64_t>(digit)) / base) return false;
    v = v * base + static_cast<uint64_t>(digit);
  }
  *magnitude = v;
  return true;
}

bool Parser::AtType() const {
  if (tok_.Is(TokKind::kHashIdent)) return tok_.text == "!stablehlo.token";
  if (!tok_.Is(TokKind::kIdent)) return false;
  const std::string_view t = tok_.text;
  if (t == "tensor" || t == "tuple" || t == "complex" || t == "bf16") {
    return true;
  }
  if (t.size() < 2) return false;
  const char c = t[0];
  if ((c == 'i' || c == 'f') && t[1] >= '0' && t[1] <= '9') return true;
  return (t.substr(0, 2) == "ui" || t.substr(0, 2) == "si") && t.size() > 2 &&
         t[2] >= '0' && t[2] <= '9';
}

absl::StatusOr<PrimitiveType> Parser::ParseElementType() {
  if (!tok_.Is(TokKind::kIdent)) return Expected("an element type");
  const Tok tok = tok_;
  const std::string_view t = tok.text;
  Advance();
  if (t == "complex") {
    RETURN_IF_ERROR(Expect(TokKind::kLess, "'<' after 'complex'"));
    const Tok part = tok_;
    ASSIGN_OR_RETURN(PrimitiveType p, ParseElementType());
    RETURN_IF_ERROR(Expect(TokKind::kGreater, "'>'"));
    if (p == PrimitiveType::kF32) return PrimitiveType::kC64;
    if (p == PrimitiveType::kF64) return PrimitiveType::kC128;
    return ErrorAt(part, "complex numbers need f32 or f64 parts");
  }
  if (t == "i1") return PrimitiveType::kPred;
  std::string name;
  if (t.substr(0, 2) == "ui") {
    name = absl::StrCat("u", Sv(t.substr(2)));
  } else if (t.substr(0, 2) == "si") {
    name = absl::StrCat("s", Sv(t.substr(2)));
  } else if (t[0] == 'i') {
    name = absl::StrCat("s", Sv(t.substr(1)));
  } else {
    for (char c : t) name.push_back(static_cast<char>(std::tolower(c)));
  }
  std::optional<PrimitiveType> type = PrimitiveTypeFromName(name);
  if (!type.has_value() || !IsArrayType(*type) ||
      *type == PrimitiveType::kPred) {
    return ErrorAt(tok, absl::StrCat("unknown element type '", Sv(t), "'"));
  }
  return *type;
}

absl::StatusOr<Shape> Parser::ParseType() {
  const Tok tok = tok_;
  if (tok_.Is(TokKind::kHashIdent) && tok_.text == "!stablehlo.token") {
    Advance();
    type_quants_.emplace_back();
    return Shape::Token();
  }
  if (tok_.IsIdent("tuple")) {
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kLess, "'<' after 'tuple'"));
    if (++depth_ > kMaxNesting) return ErrorAt(tok, "types nested too deeply");
    std::vector<Shape> elements;
    const size_t mark = type_quants_.size();
    if (!tok_.Is(TokKind::kGreater)) {
      while (true) {
        ASSIGN_OR_RETURN(Shape s, ParseType());
        elements.push_back(std::move(s));
        if (!Consume(TokKind::kComma)) break;
      }
    }
    for (size_t i = mark; i < type_quants_.size(); ++i) {
      if (type_quants_[i].has_value()) {
        return ErrorAt(tok, "quantized tensors inside tuples are not "
                            "supported");
      }
    }
    type_quants_.resize(mark);
    type_quants_.emplace_back();
    --depth_;
    RETURN_IF_ERROR(Expect(TokKind::kGreater, "'>' closing the tuple type"));
    return Shape::Tuple(std::move(elements));
  }
  if (tok_.IsIdent("tensor")) {
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kLess, "'<' after 'tensor'"));
    if (tok_.Is(TokKind::kStar)) {
      return ErrorAt(tok_, "unranked tensors are not supported");
    }
    std::vector<int64_t> dims;
    const Tok dims_tok = tok_;
    if (tok_.Is(TokKind::kInt) || tok_.Is(TokKind::kQuestion) ||
        tok_.Is(TokKind::kIdent)) {
      if (!lexer_.ScanDimensions(tok_, &dims)) {
        return ErrorAt(dims_tok, "dimension size is out of range");
      }
      Advance();
    }
    for (int64_t d : dims) {
      if (d < 0) {
        return ErrorAt(dims_tok,
                       "dynamic dimensions ('?') are not supported; aotc "
                       "compiles static shapes only");
      }
    }
    if (tok_.Is(TokKind::kQuestion)) {
      return ErrorAt(tok_,
                     "dynamic dimensions ('?') are not supported; aotc "
                     "compiles static shapes only");
    }
    std::optional<QuantType> quant;
    PrimitiveType type = PrimitiveType::kInvalid;
    const Tok element_tok = tok_;
    if (tok_.Is(TokKind::kHashIdent) && tok_.text == "!quant.uniform") {
      ASSIGN_OR_RETURN(quant, ParseQuantElementType());
      type = quant->storage;
    } else {
      ASSIGN_OR_RETURN(type, ParseElementType());
    }
    if (tok_.Is(TokKind::kComma)) {
      return ErrorAt(tok_, "tensor encodings are not supported");
    }
    RETURN_IF_ERROR(Expect(TokKind::kGreater, "'>' closing the tensor type"));
    if (static_cast<int>(dims.size()) > kMaxRank) {
      return ErrorAt(tok, absl::StrCat("rank ", dims.size(),
                                       " is above the limit of ", kMaxRank));
    }
    Shape shape = Shape::Array(type, std::move(dims));
    if (absl::Status s = ValidateShape(shape); !s.ok()) {
      return ErrorAt(tok, std::string(s.message()));
    }
    if (quant.has_value()) {
      RETURN_IF_ERROR(CheckQuantShape(*quant, shape, element_tok));
    }
    type_quants_.push_back(std::move(quant));
    return shape;
  }
  if (AtType()) {
    ASSIGN_OR_RETURN(PrimitiveType type, ParseElementType());
    type_quants_.emplace_back();
    return Shape::Scalar(type);
  }
  return Expected("a type like tensor<2xf32>");
}

absl::StatusOr<std::vector<Shape>> Parser::ParseTypeList() {
  std::vector<Shape> types;
  while (true) {
    ASSIGN_OR_RETURN(Shape s, ParseType());
    types.push_back(std::move(s));
    if (!tok_.Is(TokKind::kComma) || !LookingAtTypeAfterComma()) break;
    Advance();
  }
  return types;
}

absl::Status Parser::ParseOpTypes(std::vector<Shape>* operands,
                                  std::vector<Shape>* results) {
  RETURN_IF_ERROR(Expect(TokKind::kColon, "':' before the types"));
  return ParseOpTypesAfterColon(operands, results);
}

absl::Status Parser::ParseOpTypesAfterColon(std::vector<Shape>* operands,
                                            std::vector<Shape>* results) {
  if (tok_.Is(TokKind::kLParen)) {
    Advance();
    if (!tok_.Is(TokKind::kRParen)) {
      ASSIGN_OR_RETURN(*operands, ParseTypeList());
    }
    RETURN_IF_ERROR(Expect(TokKind::kRParen, "')'"));
    RETURN_IF_ERROR(Expect(TokKind::kArrow, "'->'"));
    if (Consume(TokKind::kLParen)) {
      results->clear();
      if (!tok_.Is(TokKind::kRParen)) {
        ASSIGN_OR_RETURN(*results, ParseTypeList());
      }
      return Expect(TokKind::kRParen, "')'");
    }
    ASSIGN_OR_RETURN(Shape r, ParseType());
    *results = {std::move(r)};
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(*operands, ParseTypeList());
  *results = {operands->back()};
  return absl::OkStatus();
}

absl::StatusOr<int64_t> Parser::ParseInt() {
  if (!tok_.Is(TokKind::kInt)) return Expected("an integer");
  bool negative, is_hex;
  uint64_t magnitude;
  if (!IntegerOf(tok_.text, &negative, &magnitude, &is_hex) ||
      magnitude > (negative ? uint64_t{1} << 63 : uint64_t{INT64_MAX})) {
    return ErrorAt(
        tok_, absl::StrCat("integer ", DescribeTok(tok_), " is out of range"));
  }
  Advance();
  return negative ? static_cast<int64_t>(0 - magnitude)
                  : static_cast<int64_t>(magnitude);
}

absl::StatusOr<std::vector<int64_t>> Parser::ParseIntList() {
  RETURN_IF_ERROR(Expect(TokKind::kLSquare, "'['"));
  std::vector<int64_t> values;
  if (Consume(TokKind::kRSquare)) return values;
  while (true) {
    ASSIGN_OR_RETURN(int64_t v, ParseInt());
    values.push_back(v);
    if (Consume(TokKind::kRSquare)) return values;
    RETURN_IF_ERROR(Expect(TokKind::kComma, "',' or ']'"));
  }
}

bool Parser::LookingAtTypeAfterComma() {
  const Tok comma = tok_;
  Advance();
  const bool is_type = AtType();
  lexer_.ResetTo(comma);
  Advance();
  return is_type;
}

absl::Status Parser::ParseAttrDict(std::vector<NamedAttr>* attrs, TokKind close,
                                   int depth) {
  if (depth > kMaxNesting) return ErrorAt(tok_, "attributes nested too deeply");
  Advance();  // '{' or '<'
  if (Consume(close)) return absl::OkStatus();
  while (true) {
    NamedAttr a;
    if (tok_.Is(TokKind::kIdent)) {
      a.name = std::string(tok_.text);
    } else if (tok_.Is(TokKind::kString)) {
      a.name = std::string(tok_.text.substr(1, tok_.text.size() - 2));
    } else {
      return Expected("an attribute name");
    }
    a.value.tok = tok_;
    Advance();
    if (Consume(TokKind::kEqual)) {
      ASSIGN_OR_RETURN(a.value, ParseAttrValue(depth + 1));
    }
    attrs->push_back(std::move(a));
    if (Consume(close)) return absl::OkStatus();
    RETURN_IF_ERROR(Expect(TokKind::kComma, "',' between attributes"));
  }
}

absl::StatusOr<ConvolutionDimensionNumbers> Parser::ParseConvDims() {
  // Three groups: input, kernel and output labels.
  std::vector<std::string> groups[3];
  std::vector<Tok> group_toks;
  for (int g = 0; g < 3; ++g) {
    if (g == 1) {
      if (!tok_.IsIdent("x")) return Expected("'x' between dimension labels");
      Advance();
    }
    if (g == 2) RETURN_IF_ERROR(Expect(TokKind::kArrow, "'->'"));
    group_toks.push_back(tok_);
    RETURN_IF_ERROR(Expect(TokKind::kLSquare, "'['"));
    while (!tok_.Is(TokKind::kRSquare)) {
      if (!tok_.Is(TokKind::kIdent) && !tok_.Is(TokKind::kInt)) {
        return Expected("a dimension label");
      }
      if (groups[g].size() > static_cast<size_t>(kMaxRank)) {
        return ErrorAt(tok_, "too many dimension labels");
      }
      groups[g].emplace_back(tok_.text);
      Advance();
      if (!Consume(TokKind::kComma)) break;
    }
    RETURN_IF_ERROR(Expect(TokKind::kRSquare, "']'"));
  }
  ConvolutionDimensionNumbers dn;
  const std::pair<const char*, const char*> roles[3] = {
      {"b", "f"}, {"i", "o"}, {"b", "f"}};
  int64_t* firsts[3] = {&dn.input_batch, &dn.kernel_input_feature,
                        &dn.output_batch};
  int64_t* seconds[3] = {&dn.input_feature, &dn.kernel_output_feature,
                         &dn.output_feature};
  std::vector<int64_t>* spatials[3] = {&dn.input_spatial, &dn.kernel_spatial,
                                       &dn.output_spatial};
  const size_t num_spatial = groups[0].size() >= 2 ? groups[0].size() - 2 : 0;
  for (int g = 0; g < 3; ++g) {
    const std::vector<std::string>& labels = groups[g];
    bool ok = labels.size() == num_spatial + 2;
    *firsts[g] = -1;
    *seconds[g] = -1;
    spatials[g]->assign(num_spatial, -1);
    for (size_t i = 0; ok && i < labels.size(); ++i) {
      const std::string& l = labels[i];
      const int64_t pos = static_cast<int64_t>(i);
      if (l == roles[g].first && *firsts[g] < 0) {
        *firsts[g] = pos;
      } else if (l == roles[g].second && *seconds[g] < 0) {
        *seconds[g] = pos;
      } else if (l.size() <= 2 &&
                 std::isdigit(static_cast<unsigned char>(l[0])) &&
                 static_cast<size_t>(std::stoi(l)) < num_spatial &&
                 (*spatials[g])[std::stoi(l)] < 0) {
        (*spatials[g])[std::stoi(l)] = pos;
      } else {
        ok = false;
      }
    }
    if (!ok || *firsts[g] < 0 || *seconds[g] < 0) {
      return ErrorAt(group_toks[g], "invalid convolution dimension labels");
    }
  }
  return dn;
}

absl::StatusOr<Attr> Parser::ParseAttrValue(int depth) {
  if (depth > kMaxNesting) return ErrorAt(tok_, "attributes nested too deeply");
  Attr a;
  a.tok = tok_;
  auto optional_type = [&]() -> absl::Status {
    if (!Consume(TokKind::kColon)) return absl::OkStatus();
    ASSIGN_OR_RETURN(a.type, ParseType());
    return absl::OkStatus();
  };
  switch (tok_.kind) {
    case TokKind::kInt: {
      a.kind = Attr::Kind::kInt;
      ASSIGN_OR_RETURN(a.i, ParseInt());
      RETURN_IF_ERROR(optional_type());
      return a;
    }
    case TokKind::kFloat: {
      a.kind = Attr::Kind::kFloat;
      a.s = std::string(tok_.text);
      Advance();
      RETURN_IF_ERROR(optional_type());
      return a;
    }
    case TokKind::kString: {
      a.kind = Attr::Kind::kString;
      if (!UnescapeString(tok_.text.substr(1, tok_.text.size() - 2), &a.s)) {
        a.s = std::string(tok_.text.substr(1, tok_.text.size() - 2));
      }
      Advance();
      RETURN_IF_ERROR(optional_type());
      return a;
    }
    case TokKind::kSymbol:
      a.kind = Attr::Kind::kString;
      a.s = std::string(tok_.text.substr(1));
      Advance();
      return a;
    case TokKind::kLSquare: {
      a.kind = Attr::Kind::kList;
      Advance();
      if (Consume(TokKind::kRSquare)) return a;
      while (true) {
        ASSIGN_OR_RETURN(Attr element, ParseAttrValue(depth + 1));
        a.list.push_back(std::move(element));
        if (Consume(TokKind::kRSquare)) return a;
        RETURN_IF_ERROR(Expect(TokKind::kComma, "',' or ']'"));
      }
    }
    case TokKind::kLBrace: {
      a.kind = Attr::Kind::kDict;
      RETURN_IF_ERROR(ParseAttrDict(&a.dict, TokKind::kRBrace, depth + 1));
      return a;
    }
    case TokKind::kHashIdent: {
      const std::string_view name = tok_.text;
      if (name == "!stablehlo.token") break;
      Advance();
      if (!tok_.Is(TokKind::kLess)) return a;  // an alias such as #loc1
      if (name == "#stablehlo" || name == "#chlo") {
        Advance();
        if (!tok_.Is(TokKind::kIdent)) return Expected("an enum kind");
        Advance();
        if (!tok_.Is(TokKind::kIdent)) return Expected("an enum value");
        a.kind = Attr::Kind::kEnum;
        a.s = std::string(tok_.text);
        Advance();
        RETURN_IF_ERROR(Expect(TokKind::kGreater, "'>'"));
        return a;
      }
      if (name == "#stablehlo.conv") {
        Advance();  // '<'
        if (!tok_.Is(TokKind::kLSquare)) {
          return ErrorAt(tok_,
                         "only the [b, 0, f]x[0, i, o]->[b, 0, f] form "
                         "of convolution dimension numbers is "
                         "supported");
        }
        a.kind = Attr::Kind::kConv;
        ASSIGN_OR_RETURN(a.conv, ParseConvDims());
        RETURN_IF_ERROR(Expect(TokKind::kGreater, "'>'"));
        return a;
      }
      if (name.substr(0, 11) == "#stablehlo." || name == "#chlo.ragged_dot") {
        a.kind = Attr::Kind::kDict;
        RETURN_IF_ERROR(ParseAttrDict(&a.dict, TokKind::kGreater, depth + 1));
        return a;
      }
      RETURN_IF_ERROR(SkipBalanced());
      return a;
    }
    case TokKind::kIdent:
      break;
    default:
      return Expected("an attribute value");
  }
  if (tok_.IsIdent("true") || tok_.IsIdent("false")) {
    a.kind = Attr::Kind::kBool;
    a.i = tok_.IsIdent("true") ? 1 : 0;
    Advance();
    return a;
  }
  if (tok_.IsIdent("dense")) return ParseDense(depth);
  if (tok_.IsIdent("array")) {
    a.kind = Attr::Kind::kArray;
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kLess, "'<' after 'array'"));
    RETURN_IF_ERROR(ParseElementType().status());
    if (Consume(TokKind::kColon)) {
      while (true) {
        if (tok_.IsIdent("true") || tok_.IsIdent("false")) {
          a.ints.push_back(tok_.IsIdent("true") ? 1 : 0);
          Advance();
        } else {
          ASSIGN_OR_RETURN(int64_t v, ParseInt());
          a.ints.push_back(v);
        }
        if (!Consume(TokKind::kComma)) break;
      }
    }
    RETURN_IF_ERROR(Expect(TokKind::kGreater, "'>' closing the array"));
    return a;
  }
  if (tok_.IsIdent("loc")) {
    RETURN_IF_ERROR(SkipLocation());
    return a;
  }
  if (AtType()) {
    a.kind = Attr::Kind::kType;
    ASSIGN_OR_RETURN(a.type, ParseType());
    return a;
  }
  a.kind = Attr::Kind::kIdent;
  a.s = std::string(tok_.text);
  Advance();
  if (tok_.Is(TokKind::kLess)) RETURN_IF_ERROR(SkipBalanced());
  return a;
}

}  // namespace aotc::shlo
