// HLO text parser: constant literals of every element type.
//
// Values are parsed against the declared shape: nested braces per
// dimension, `(re, im)` for complex elements, `( lit, lit )` for tuples and
// `{...}` for elided constants. Elements are collected in a buffer that
// grows with the input; the literal itself is allocated only after every
// dimension's element count matched, so a huge declared shape with a few
// elements is an error rather than an allocation.
//
// Floats are converted with a single rounding from the decimal text
// (f32 and f64 directly; f16, bf16 and the f8/f6/f4 formats through
// double). `nan(0x...)` sets the NaN payload (the mantissa field) of the
// formats with IEEE NaNs.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "compiler/frontend/text/parser.h"
#include "compiler/ir/minifloat.h"
#include "compiler/support/float16.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

// Largest constant written as one value for all elements.
constexpr int64_t kMaxSplatConstantBytes = int64_t{64} << 20;

template <typename T>
void Append(std::vector<uint8_t>* bytes, T value) {
  size_t at = bytes->size();
  bytes->resize(at + sizeof(T));
  std::memcpy(bytes->data() + at, &value, sizeof(T));
}

// Appends the low `n` bytes of `bits` in host order.
void AppendBits(std::vector<uint8_t>* bytes, uint64_t bits, int n) {
  switch (n) {
    case 1:
      Append(bytes, static_cast<uint8_t>(bits));
      return;
    case 2:
      Append(bytes, static_cast<uint16_t>(bits));
      return;
    case 4:
      Append(bytes, static_cast<uint32_t>(bits));
      return;
    default:
      Append(bytes, bits);
      return;
  }
}

// Mantissa bits of the IEEE binary formats; 0 for other types.
int IeeeMantissaBits(PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kF16:
      return 10;
    case PrimitiveType::kBF16:
      return 7;
    case PrimitiveType::kF32:
      return 23;
    case PrimitiveType::kF64:
      return 52;
    default:
      return 0;
  }
}

absl::Status OutOfRange(std::string_view text, PrimitiveType t) {
  return absl::InvalidArgumentError(absl::StrCat(
      "value ", Sv(text), " is out of range for ", Sv(PrimitiveTypeName(t))));
}

// Bits of a NaN with exponent all ones and mantissa `payload`.
uint64_t IeeeNan(int width, int mantissa_bits, bool negative,
                 uint64_t payload) {
  uint64_t exponent = ((uint64_t{1} << (width - 1 - mantissa_bits)) - 1)
                      << mantissa_bits;
  uint64_t sign = negative ? uint64_t{1} << (width - 1) : 0;
  return sign | exponent | payload;
}

absl::StatusOr<uint64_t> NanBits(PrimitiveType t, bool negative,
                                 std::optional<uint64_t> payload) {
  std::string_view type_name = PrimitiveTypeName(t);
  int width = BitWidth(t);
  int mantissa = IeeeMantissaBits(t);
  if (IsMinifloat(t)) {
    const MinifloatFormat& f = GetMinifloatFormat(t);
    if (f.nan == MinifloatNan::kNone) {
      return absl::InvalidArgumentError(
          absl::StrCat(Sv(type_name), " has no nan"));
    }
    if (f.nan != MinifloatNan::kIeee) {
      if (payload.has_value()) {
        return absl::InvalidArgumentError(
            absl::StrCat(Sv(type_name), " has no nan payloads"));
      }
      return DoubleToMinifloat(t, negative ? -NAN : NAN);
    }
    mantissa = f.mantissa_bits;
  }
  uint64_t value = payload.value_or(uint64_t{1} << (mantissa - 1));
  if (value == 0 || value >= (uint64_t{1} << mantissa)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "nan payload 0x%x does not fit the %d mantissa bits of %s", value,
        mantissa, Sv(type_name)));
  }
  return IeeeNan(width, mantissa, negative, value);
}

absl::StatusOr<uint64_t> InfBits(PrimitiveType t, bool negative) {
  if (IsMinifloat(t)) {
    if (!GetMinifloatFormat(t).has_inf) {
      return absl::InvalidArgumentError(
          absl::StrCat(Sv(PrimitiveTypeName(t)), " has no infinity"));
    }
    return DoubleToMinifloat(t, negative ? -INFINITY : INFINITY);
  }
  int width = BitWidth(t);
  return IeeeNan(width, IeeeMantissaBits(t), negative, 0);
}

// Decimal text -> T with one rounding. Underflow gives the correctly rounded
// tiny value (or zero); overflow is an error.
template <typename T>
absl::StatusOr<T> ParseDecimal(std::string_view text, PrimitiveType t) {
  T value{};
  auto [ptr, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc() && ptr == text.data() + text.size()) return value;
  if (ec != std::errc::result_out_of_range) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid number '", Sv(text), "'"));
  }
  // from_chars does not say whether the value was too large or too small;
  // strtod/strtof do (and round tiny values correctly).
  std::string copy(text);
  T classified;
  if constexpr (std::is_same_v<T, float>) {
    classified = std::strtof(copy.c_str(), nullptr);
  } else {
    classified = std::strtod(copy.c_str(), nullptr);
  }
  if (std::isinf(classified)) return OutOfRange(text, t);
  return classified;
}

}  // namespace

absl::StatusOr<uint64_t> FloatBitsFromText(PrimitiveType t,
                                           std::string_view text) {
  const bool negative = !text.empty() && text[0] == '-';
  std::string_view body = negative ? text.substr(1) : text;
  if (body == "inf") return InfBits(t, negative);
  if (body.substr(0, 3) == "nan") {
    std::optional<uint64_t> payload;
    if (body.size() > 3) {
      // nan(0x<hex>)
      std::string_view hex = body.substr(6, body.size() - 7);
      uint64_t value = 0;
      auto [ptr, ec] =
          std::from_chars(hex.data(), hex.data() + hex.size(), value, 16);
      if (ec != std::errc() || ptr != hex.data() + hex.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("nan payload in '", Sv(text), "' is out of range"));
      }
      payload = value;
    }
    return NanBits(t, negative, payload);
  }
  if (t == PrimitiveType::kF32) {
    ASSIGN_OR_RETURN(float f, ParseDecimal<float>(text, t));
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  ASSIGN_OR_RETURN(double d, ParseDecimal<double>(text, t));
  switch (t) {
    case PrimitiveType::kF64: {
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      return bits;
    }
    case PrimitiveType::kF16: {
      uint16_t h = DoubleToHalf(d);
      if ((h & 0x7fff) == 0x7c00) return OutOfRange(text, t);
      return h;
    }
    case PrimitiveType::kBF16: {
      uint16_t b = DoubleToBFloat16(d);
      if ((b & 0x7fff) == 0x7f80) return OutOfRange(text, t);
      return b;
    }
    default:
      break;
  }
  AOTC_CHECK(IsMinifloat(t), "FloatBitsFromText on a non-float type");
  const MinifloatFormat& f = GetMinifloatFormat(t);
  if (!f.has_sign && d <= 0) return OutOfRange(text, t);
  uint8_t bits = DoubleToMinifloat(t, d);
  double decoded = MinifloatToDouble(t, bits);
  if (std::isnan(decoded) || std::isinf(decoded)) return OutOfRange(text, t);
  if (f.nan == MinifloatNan::kNone) {
    // Saturating formats: out of range when rounding would pass the
    // largest value by half a step or more.
    uint8_t max_bits = MinifloatMaxFiniteBits(t);
    double max = MinifloatToDouble(t, max_bits);
    double step = max - MinifloatToDouble(t, max_bits - 1);
    if (std::fabs(d) >= max + step / 2) return OutOfRange(text, t);
  }
  return bits;
}

absl::StatusOr<Literal> HloParser::ParseLiteral(const Shape& shape, int depth) {
  if (depth > kMaxShapeNesting) {
    return ErrorAt(tok_, absl::StrCat("literal nested deeper than ",
                                      kMaxShapeNesting, " levels"));
  }
  if (tok_.Is(TokenKind::kLbrace) && PeekNext().Is(TokenKind::kEllipsis)) {
    Advance();
    Advance();
    RETURN_IF_ERROR(Expect(TokenKind::kRbrace));
    return Literal::Elided(shape);
  }
  if (shape.IsTuple()) {
    RETURN_IF_ERROR(Expect(TokenKind::kLparen));
    std::vector<Literal> elements;
    for (int i = 0; i < shape.tuple_size(); ++i) {
      if (i > 0) RETURN_IF_ERROR(Expect(TokenKind::kComma));
      ASSIGN_OR_RETURN(Literal element,
                       ParseLiteral(shape.tuple_shapes(i), depth + 1));
      elements.push_back(std::move(element));
    }
    RETURN_IF_ERROR(Expect(TokenKind::kRparen));
    return Literal::MakeTuple(std::move(elements));
  }
  if (!shape.IsArray()) {
    return ErrorAt(tok_, absl::StrCat("a constant of shape ", shape.ToString(),
                                      " is not supported"));
  }
  std::vector<uint8_t> bytes;
  if (shape.rank() > 0 && !tok_.Is(TokenKind::kLbrace)) {
    // One value for every element (`f16[3072] constant(0.3)`), accepted as
    // XLA does; bounded because the text no longer bounds the allocation.
    if (shape.ByteSize() > kMaxSplatConstantBytes) {
      return ErrorAt(
          tok_, absl::StrCat("a single value for shape ", shape.ToString(false),
                             " needs ", shape.ByteSize(), " bytes, more than ",
                             kMaxSplatConstantBytes));
    }
    RETURN_IF_ERROR(ParseElement(shape.element_type(), &bytes));
    Literal literal(shape);
    const size_t width = bytes.size();
    for (int64_t i = 0; i < literal.element_count(); ++i) {
      std::memcpy(literal.mutable_raw() + i * width, bytes.data(), width);
    }
    return literal;
  }
  if (shape.rank() == 0) {
    RETURN_IF_ERROR(ParseElement(shape.element_type(), &bytes));
  } else {
    RETURN_IF_ERROR(ParseArrayLevel(shape, 0, &bytes));
  }
  Literal literal(shape);
  AOTC_CHECK(static_cast<int64_t>(bytes.size()) == literal.raw_size(),
             "literal byte count differs from its checked element count");
  if (!bytes.empty())
    std::memcpy(literal.mutable_raw(), bytes.data(), bytes.size());
  return literal;
}

absl::Status HloParser::ParseArrayLevel(const Shape& shape, int level,
                                        std::vector<uint8_t>* bytes) {
  const Token open = tok_;
  RETURN_IF_ERROR(Expect(TokenKind::kLbrace));
  const bool innermost = level + 1 == shape.rank();
  int64_t count = 0;
  if (!tok_.Is(TokenKind::kRbrace)) {
    while (true) {
      if (!innermost) {
        RETURN_IF_ERROR(ParseArrayLevel(shape, level + 1, bytes));
      } else if (tok_.Is(TokenKind::kLbrace)) {
        return ErrorAt(tok_,
                       absl::StrCat("constant has more levels of braces "
                                    "than shape ",
                                    shape.ToString(false), " has dimensions"));
      } else {
        RETURN_IF_ERROR(ParseElement(shape.element_type(), bytes));
      }
      ++count;
      if (!tok_.Is(TokenKind::kComma)) break;
      Advance();
    }
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRbrace));
  const int64_t needed = shape.dimensions(level);
  if (count == needed) return absl::OkStatus();
  if (shape.rank() == 1) {
    return ErrorAt(open,
                   absl::StrCat("constant has ", count, " elements, shape ",
                                shape.ToString(false), " needs ", needed));
  }
  return ErrorAt(open, absl::StrCat("constant has ", count,
                                    " entries in dimension ", level, ", shape ",
                                    shape.ToString(false), " needs ", needed));
}

absl::Status HloParser::ParseElement(PrimitiveType type,
                                     std::vector<uint8_t>* bytes) {
  const std::string_view type_name = PrimitiveTypeName(type);
  const int width = StorageBytes(type);
  switch (KindOf(type)) {
    case TypeKind::kPred: {
      if (tok_.IsWord("true") || tok_.IsWord("false") || tok_.text == "0" ||
          tok_.text == "1") {
        Append(bytes,
               static_cast<uint8_t>(tok_.text == "true" || tok_.text == "1"));
        Advance();
        return absl::OkStatus();
      }
      return Expected("true or false");
    }
    case TypeKind::kSigned:
    case TypeKind::kUnsigned: {
      if (!tok_.Is(TokenKind::kInt)) {
        return Expected(absl::StrCat("an integer for ", Sv(type_name)));
      }
      const int bits = BitWidth(type);
      const std::string_view text = tok_.text;
      uint64_t raw = 0;
      bool in_range;
      if (text[0] == '-') {
        int64_t v;
        auto [ptr, ec] =
            std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc()) {
          return ErrorAt(tok_, absl::StrCat("integer ", DescribeToken(tok_),
                                            " is out of range"));
        }
        in_range = IsSignedInt(type)
                       ? bits == 64 || v >= -(int64_t{1} << (bits - 1))
                       : v == 0;
        raw = static_cast<uint64_t>(v);
      } else {
        auto [ptr, ec] =
            std::from_chars(text.data(), text.data() + text.size(), raw);
        if (ec != std::errc()) {
          return ErrorAt(tok_, absl::StrCat("integer ", DescribeToken(tok_),
                                            " is out of range"));
        }
        int value_bits = IsSignedInt(type) ? bits - 1 : bits;
        in_range = value_bits == 64 || raw < (uint64_t{1} << value_bits);
      }
      if (!in_range) {
        return ErrorAt(tok_,
                       absl::StrCat("value ", Sv(text), " is out of range for ",
                                    Sv(type_name)));
      }
      // Sub-byte values are stored one per byte, sign-extended for signed
      // types (two's complement truncation does exactly that).
      AppendBits(bytes, raw, width);
      Advance();
      return absl::OkStatus();
    }
    case TypeKind::kFloat: {
      if (!tok_.Is(TokenKind::kInt) && !tok_.Is(TokenKind::kFloat)) {
        return Expected(absl::StrCat("a number for ", Sv(type_name)));
      }
      absl::StatusOr<uint64_t> bits = FloatBitsFromText(type, tok_.text);
      if (!bits.ok())
        return ErrorAt(tok_, std::string(bits.status().message()));
      AppendBits(bytes, *bits, width);
      Advance();
      return absl::OkStatus();
    }
    case TypeKind::kComplex: {
      const PrimitiveType part = type == PrimitiveType::kC64
                                     ? PrimitiveType::kF32
                                     : PrimitiveType::kF64;
      RETURN_IF_ERROR(Expect(TokenKind::kLparen));
      RETURN_IF_ERROR(ParseElement(part, bytes));
      RETURN_IF_ERROR(Expect(TokenKind::kComma));
      RETURN_IF_ERROR(ParseElement(part, bytes));
      return Expect(TokenKind::kRparen);
    }
    case TypeKind::kOther:
      break;
  }
  return ErrorAt(tok_, absl::StrCat("a constant of type ", Sv(type_name),
                                    " is not supported"));
}

}  // namespace aotc
