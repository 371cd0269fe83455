// StableHLO parser: dense literals, `dense<...> : tensor<...>` (nested
// decimal lists, splats, hex floats, complex pairs and hex byte strings).
//
// A dense literal comes before its type in MLIR (`dense<[1, 2]> :
// tensor<2xi32>`), so its elements are collected as tokens with their
// nesting, and converted once the type is known.
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/frontend/text/parser.h"  // FloatBitsFromText
#include "compiler/ir/literal.h"
#include "compiler/ir/minifloat.h"
#include "compiler/support/float16.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {

// One element of a dense literal: a token, or two for a complex number.
struct DenseElement {
  Tok re;
  Tok im;
  bool complex = false;
};

// A dense literal's text, read before its type is known.
struct DenseText {
  Tok start;
  bool hex = false;
  Tok hex_tok;
  bool splat = false;         // one element without brackets
  std::vector<int64_t> dims;  // from the bracket nesting
  std::vector<DenseElement> elements;
};

namespace {

void StoreBits(uint64_t bits, int bytes, uint8_t* out) {
  for (int i = 0; i < bytes; ++i)
    out[i] = static_cast<uint8_t>(bits >> (8 * i));
}

// The value `bits` of a 16- or fewer-bit float type stands for.
double NarrowFloatValue(PrimitiveType t, uint64_t bits) {
  const auto b16 = static_cast<uint16_t>(bits);
  if (t == PrimitiveType::kF16) return HalfToFloat(b16);
  if (t == PrimitiveType::kBF16) return BFloat16ToFloat(b16);
  return MinifloatToDouble(t, static_cast<uint8_t>(bits));
}

// A decimal rounded once to a type narrower than f32, as MLIR rounds
// literals: FloatBitsFromText goes through the nearest double, which may be
// the midpoint of two values of the type when the decimal is not
// (1.4999999999999999999 reads as the double 1.5, which f8E8M0FNU rounds
// up to 2 although the decimal is nearer 1). The decimal lies strictly
// between the doubles below and above it, where no midpoint is (midpoints
// are doubles), so it rounds like the one of the two that is not a
// midpoint.
absl::StatusOr<uint64_t> SingleRoundedFloatBits(PrimitiveType t,
                                                std::string_view text) {
  if (t == PrimitiveType::kF32 || t == PrimitiveType::kF64) {
    return FloatBitsFromText(t, text);
  }
  const std::string s(text);
  char* end = nullptr;
  const int mode = std::fegetround();
  std::fesetround(FE_DOWNWARD);
  const double lo = std::strtod(s.c_str(), &end);
  std::fesetround(FE_UPWARD);
  const double hi = std::strtod(s.c_str(), nullptr);
  std::fesetround(mode);
  if (end != s.c_str() + s.size() || lo == hi || !std::isfinite(lo) ||
      !std::isfinite(hi)) {
    return FloatBitsFromText(t, text);  // exact, or not a plain decimal
  }
  auto bits_of = [&](double v) {
    char buffer[40];
    std::snprintf(buffer, sizeof(buffer), "%.17g", v);
    return FloatBitsFromText(t, buffer);
  };
  absl::StatusOr<uint64_t> below = bits_of(lo);
  absl::StatusOr<uint64_t> above = bits_of(hi);
  if (!below.ok() || !above.ok() || *below == *above) {
    return FloatBitsFromText(t, text);
  }
  const double midpoint =
      (NarrowFloatValue(t, *below) + NarrowFloatValue(t, *above)) / 2;
  if (midpoint == hi) return *below;
  if (midpoint == lo) return *above;
  return FloatBitsFromText(t, text);
}

// The bits of a float element of type t: a hex spelling of the bits
// (0x7FC00000) or a decimal number.
absl::StatusOr<uint64_t> FloatElementBits(PrimitiveType t, const Tok& tok) {
  bool negative = false, is_hex = false;
  uint64_t magnitude = 0;
  if (tok.Is(TokKind::kInt) &&
      IntegerOf(tok.text, &negative, &magnitude, &is_hex) && is_hex) {
    if (negative || (BitWidth(t) < 64 && magnitude >> BitWidth(t) != 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("hex float ", DescribeTok(tok), " does not fit ",
                       Sv(PrimitiveTypeName(t))));
    }
    return magnitude;
  }
  return SingleRoundedFloatBits(t, tok.text);
}

}  // namespace

absl::Status Parser::ParseDenseElement(DenseText* d) {
  DenseElement e;
  if (tok_.Is(TokKind::kLParen)) {
    Advance();
    e.complex = true;
    e.re = tok_;
    if (!tok_.Is(TokKind::kInt) && !tok_.Is(TokKind::kFloat)) {
      return Expected("a number");
    }
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kComma, "','"));
    e.im = tok_;
    if (!tok_.Is(TokKind::kInt) && !tok_.Is(TokKind::kFloat)) {
      return Expected("a number");
    }
    Advance();
    RETURN_IF_ERROR(Expect(TokKind::kRParen, "')'"));
  } else if (tok_.Is(TokKind::kInt) || tok_.Is(TokKind::kFloat) ||
             tok_.IsIdent("true") || tok_.IsIdent("false")) {
    e.re = tok_;
    Advance();
  } else {
    return Expected("a literal element");
  }
  d->elements.push_back(e);
  return absl::OkStatus();
}

absl::Status Parser::ParseDenseLists(DenseText* d) {
  // Iterative reading of nested lists: `counts` holds the element count of
  // each open list.
  std::vector<int64_t> counts;
  int leaf_level = -1;
  while (true) {
    if (tok_.Is(TokKind::kLSquare)) {
      if (static_cast<int>(counts.size()) >= kMaxRank) {
        return ErrorAt(tok_, "literal nested deeper than the rank limit");
      }
      counts.push_back(0);
      Advance();
      if (!tok_.Is(TokKind::kRSquare)) continue;
    } else if (!tok_.Is(TokKind::kRSquare)) {
      const int level = static_cast<int>(counts.size());
      if (leaf_level == -1) leaf_level = level;
      if (leaf_level != level) {
        return ErrorAt(tok_, "literal elements at different depths");
      }
      RETURN_IF_ERROR(ParseDenseElement(d));
      ++counts.back();
      if (Consume(TokKind::kComma)) continue;
    }
    // Closing the innermost list.
    const Tok close = tok_;
    RETURN_IF_ERROR(Expect(TokKind::kRSquare, "',' or ']'"));
    const size_t level = counts.size() - 1;
    if (d->dims.size() <= level) d->dims.resize(level + 1, -1);
    if (d->dims[level] == -1) {
      d->dims[level] = counts.back();
    } else if (d->dims[level] != counts.back()) {
      return ErrorAt(close, "literal rows have different lengths");
    }
    counts.pop_back();
    if (counts.empty()) break;
    ++counts.back();
    if (!Consume(TokKind::kComma) && !tok_.Is(TokKind::kRSquare)) {
      return Expected("',' or ']'");
    }
  }
  return absl::OkStatus();
}

absl::Status Parser::CheckDenseSize(const DenseText& d, const Shape& shape,
                                    const Tok& type_tok) const {
  const int64_t count = shape.ElementCount();
  const int bytes = StorageBytes(shape.element_type());
  // A splat is a few bytes of text for a tensor of any size; it may not
  // describe more than kMaxSplatBytes.
  const int64_t total = count * bytes;
  const bool hex_splat =
      d.hex && static_cast<int64_t>(d.hex_tok.text.size()) == 2 * bytes + 4;
  if ((d.splat || hex_splat) && count > 1 && total > kMaxSplatBytes) {
    return ErrorAt(
        d.start, absl::StrCat("splat literal of ", total,
                              " bytes is above the limit of ", kMaxSplatBytes));
  }
  if (!d.hex && !d.splat) {
    if (d.elements.empty() && d.dims.empty()) {
      if (count != 0) {
        return ErrorAt(type_tok,
                       absl::StrCat("literal has no elements, but ",
                                    shape.ToString(false), " has ", count));
      }
    } else if (d.dims != shape.dimensions()) {
      return ErrorAt(type_tok,
                     absl::StrCat("literal has dimensions ", BracedList(d.dims),
                                  ", but the type is ", shape.ToString(false)));
    }
  }
  if (d.hex && !hex_splat &&
      static_cast<int64_t>(d.hex_tok.text.size()) != 2 * total + 4) {
    return ErrorAt(
        d.hex_tok,
        absl::StrCat("hex literal has ",
                     (static_cast<int64_t>(d.hex_tok.text.size()) - 4) / 2,
                     " bytes, expected ", total, " for ",
                     shape.ToString(false)));
  }
  return absl::OkStatus();
}

absl::Status Parser::FillDenseHex(const DenseText& d, const Shape& shape,
                                  uint8_t* out) const {
  const PrimitiveType type = shape.element_type();
  const int64_t count = shape.ElementCount();
  const int bytes = StorageBytes(type);
  const int64_t total = count * bytes;
  std::string_view hex = d.hex_tok.text.substr(1, d.hex_tok.text.size() - 2);
  if (hex.size() < 2 || hex.substr(0, 2) != "0x" || hex.size() % 2 != 0) {
    return ErrorAt(d.hex_tok, "expected a hex string like \"0x0A1B\"");
  }
  if (BitWidth(type) < 8 && type != PrimitiveType::kPred) {
    return ErrorAt(d.hex_tok,
                   "hex literals of sub-byte element types are not "
                   "supported");
  }
  hex.remove_prefix(2);
  std::vector<uint8_t> raw;
  raw.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    int v = 0;
    for (size_t k = i; k < i + 2; ++k) {
      const char c = hex[k];
      int digit = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
      if (digit < 0) return ErrorAt(d.hex_tok, "invalid hex digit");
      v = v * 16 + digit;
    }
    raw.push_back(static_cast<uint8_t>(v));
  }
  if (static_cast<int64_t>(raw.size()) == bytes && count != 1) {
    for (int64_t i = 0; i < count; ++i) {
      std::memcpy(out + i * bytes, raw.data(), bytes);
    }
  } else if (static_cast<int64_t>(raw.size()) == total) {
    if (total > 0) std::memcpy(out, raw.data(), raw.size());
  } else {
    return ErrorAt(d.hex_tok, absl::StrCat("hex literal has ", raw.size(),
                                           " bytes, expected ", total, " for ",
                                           shape.ToString(false)));
  }
  if (type == PrimitiveType::kPred) {
    for (int64_t i = 0; i < count; ++i) out[i] = out[i] != 0;
  }
  return absl::OkStatus();
}

absl::Status Parser::DenseElementBytes(const DenseElement& e,
                                       PrimitiveType type, uint8_t* dst) const {
  const int bytes = StorageBytes(type);
  const TypeKind kind = KindOf(type);
  if (kind == TypeKind::kComplex) {
    const PrimitiveType part =
        type == PrimitiveType::kC64 ? PrimitiveType::kF32 : PrimitiveType::kF64;
    if (!e.complex) return ErrorAt(e.re, "expected a complex (re, im)");
    for (int k = 0; k < 2; ++k) {
      const Tok& t = k == 0 ? e.re : e.im;
      absl::StatusOr<uint64_t> bits = FloatElementBits(part, t);
      if (!bits.ok()) return ErrorAt(t, std::string(bits.status().message()));
      StoreBits(*bits, bytes / 2, dst + k * (bytes / 2));
    }
    return absl::OkStatus();
  }
  if (e.complex) return ErrorAt(e.re, "complex element for a real type");
  const Tok& t = e.re;
  if (t.IsIdent("true") || t.IsIdent("false")) {
    if (kind != TypeKind::kPred) {
      return ErrorAt(t, "boolean element for a non-boolean type");
    }
    *dst = t.IsIdent("true") ? 1 : 0;
    return absl::OkStatus();
  }
  bool negative = false, is_hex = false;
  uint64_t magnitude = 0;
  const bool is_int =
      t.Is(TokKind::kInt) && IntegerOf(t.text, &negative, &magnitude, &is_hex);
  if (kind == TypeKind::kFloat) {
    absl::StatusOr<uint64_t> bits = FloatElementBits(type, t);
    if (!bits.ok()) return ErrorAt(t, std::string(bits.status().message()));
    StoreBits(*bits, bytes, dst);
    return absl::OkStatus();
  }
  if (!is_int) {
    return ErrorAt(
        t, absl::StrCat("expected an integer element, found ", DescribeTok(t)));
  }
  const int bits = BitWidth(type);
  bool fits;
  uint64_t value;
  if (kind == TypeKind::kPred) {
    fits = !negative && magnitude <= 1;
    value = magnitude;
  } else if (kind == TypeKind::kSigned) {
    const uint64_t limit = uint64_t{1} << (bits - 1);
    fits = is_hex ? (bits == 64 || magnitude >> bits == 0) && !negative
                  : (negative ? magnitude <= limit : magnitude < limit);
    value = negative ? 0 - magnitude : magnitude;
  } else {
    fits = !negative && (bits == 64 || magnitude >> bits == 0);
    value = magnitude;
  }
  if (!fits) {
    return ErrorAt(t, absl::StrCat("integer ", DescribeTok(t), " does not fit ",
                                   Sv(PrimitiveTypeName(type))));
  }
  StoreBits(value, bytes, dst);
  return absl::OkStatus();
}

absl::StatusOr<Attr> Parser::ParseDense(int depth) {
  Attr attr;
  attr.kind = Attr::Kind::kDense;
  attr.tok = tok_;
  Advance();  // dense
  RETURN_IF_ERROR(Expect(TokKind::kLess, "'<' after 'dense'"));
  DenseText d;
  d.start = attr.tok;
  if (tok_.Is(TokKind::kString)) {
    d.hex = true;
    d.hex_tok = tok_;
    Advance();
  } else if (tok_.Is(TokKind::kLSquare)) {
    RETURN_IF_ERROR(ParseDenseLists(&d));
  } else if (!tok_.Is(TokKind::kGreater)) {
    d.splat = true;
    RETURN_IF_ERROR(ParseDenseElement(&d));
  }
  RETURN_IF_ERROR(Expect(TokKind::kGreater, "'>' closing the literal"));
  if (!tok_.Is(TokKind::kColon)) {
    return Expected("':' and the type of the literal");
  }
  Advance();
  const Tok type_tok = tok_;
  ASSIGN_OR_RETURN(attr.type, ParseType());
  const Shape& shape = attr.type;
  if (!shape.IsArray())
    return ErrorAt(type_tok, "a literal needs a tensor type");
  RETURN_IF_ERROR(CheckDenseSize(d, shape, type_tok));
  auto literal = std::make_shared<Literal>(shape);
  uint8_t* out = literal->mutable_raw();
  const PrimitiveType type = shape.element_type();
  const int bytes = StorageBytes(type);
  if (d.hex) {
    RETURN_IF_ERROR(FillDenseHex(d, shape, out));
  } else if (d.splat) {
    std::vector<uint8_t> one(bytes);
    RETURN_IF_ERROR(DenseElementBytes(d.elements[0], type, one.data()));
    for (int64_t i = 0; i < shape.ElementCount(); ++i) {
      std::memcpy(out + i * bytes, one.data(), bytes);
    }
  } else {
    for (size_t i = 0; i < d.elements.size(); ++i) {
      RETURN_IF_ERROR(DenseElementBytes(d.elements[i], type, out + i * bytes));
    }
  }
  (void)depth;
  attr.literal = std::move(literal);
  return attr;
}

}  // namespace aotc::shlo
