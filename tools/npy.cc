// .npy format version 1.0-3.0 reader and 1.0 writer.
//
// Layout of a file: the magic "\x93NUMPY", major and minor version bytes, a
// little-endian header length (2 bytes in 1.0, 4 bytes in 2.0/3.0), then a
// Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and a newline, then the raw data.
#include "tools/npy.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "compiler/ir/narrow_type.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
// Headers are small dicts; anything larger is not a real .npy header.
constexpr size_t kMaxHeaderBytes = 1 << 16;

absl::Status NpyError(std::string_view filename, std::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat(Sv(filename), ": error: ", Sv(message)));
}

struct TypeCode {
  PrimitiveType type;
  char kind;  // numpy kind character
  int bytes;
};

constexpr TypeCode kTypeCodes[] = {
    {PrimitiveType::kPred, 'b', 1}, {PrimitiveType::kS8, 'i', 1},
    {PrimitiveType::kS16, 'i', 2},  {PrimitiveType::kS32, 'i', 4},
    {PrimitiveType::kS64, 'i', 8},  {PrimitiveType::kU8, 'u', 1},
    {PrimitiveType::kU16, 'u', 2},  {PrimitiveType::kU32, 'u', 4},
    {PrimitiveType::kU64, 'u', 8},  {PrimitiveType::kF16, 'f', 2},
    {PrimitiveType::kF32, 'f', 4},  {PrimitiveType::kF64, 'f', 8},
    {PrimitiveType::kC64, 'c', 8},  {PrimitiveType::kC128, 'c', 16},
    {PrimitiveType::kBF16, 'V', 2},
};

struct Header {
  PrimitiveType type = PrimitiveType::kInvalid;
  bool big_endian = false;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

// A minimal reader for the header dict: string keys, string / bool / tuple
// values. Anything else is an error.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  absl::Status Parse(std::string_view filename, Header* out) {
    bool have_descr = false, have_order = false, have_shape = false;
    SkipSpace();
    if (!Consume('{')) return NpyError(filename, "malformed .npy header: expected '{'");
    while (true) {
      SkipSpace();
      if (Consume('}')) break;
      std::optional<std::string> key = ReadString();
      if (!key) return NpyError(filename, "malformed .npy header: expected a key");
      SkipSpace();
      if (!Consume(':')) return NpyError(filename, "malformed .npy header: expected ':'");
      SkipSpace();
      if (*key == "descr") {
        std::optional<std::string> descr = ReadString();
        if (!descr) return NpyError(filename, "malformed .npy header: bad descr");
        if (!ParseDescr(*descr, out)) {
          return NpyError(filename, absl::StrCat("unsupported .npy dtype '",
                                                 *descr, "'"));
        }
        have_descr = true;
      } else if (*key == "fortran_order") {
        if (ConsumeWord("True")) {
          out->fortran_order = true;
        } else if (ConsumeWord("False")) {
          out->fortran_order = false;
        } else {
          return NpyError(filename, "malformed .npy header: bad fortran_order");
        }
        have_order = true;
      } else if (*key == "shape") {
        if (!ReadShape(&out->shape)) {
          return NpyError(filename, "malformed .npy header: bad shape");
        }
        have_shape = true;
      } else {
        return NpyError(filename, absl::StrCat("malformed .npy header: unknown key '",
                                               *key, "'"));
      }
      SkipSpace();
      if (Consume(',')) continue;
      SkipSpace();
      if (Consume('}')) break;
      return NpyError(filename, "malformed .npy header: expected ',' or '}'");
    }
    if (!have_descr || !have_order || !have_shape) {
      return NpyError(filename,
                      "malformed .npy header: needs descr, fortran_order and shape");
    }
    return absl::OkStatus();
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\t' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Consume(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool ConsumeWord(std::string_view w) {
    if (text_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  std::optional<std::string> ReadString() {
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) {
      return std::nullopt;
    }
    char quote = text_[pos_++];
    size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) return std::nullopt;
    std::string s(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return s;
  }
  bool ReadShape(std::vector<int64_t>* shape) {
    if (!Consume('(')) return false;
    while (true) {
      SkipSpace();
      if (Consume(')')) return true;
      if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9') return false;
      int64_t v = 0;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
        if (v > (INT64_MAX - 9) / 10) return false;
        v = v * 10 + (text_[pos_++] - '0');
      }
      // Python writes `5L` for longs in old files.
      Consume('L');
      if (shape->size() >= static_cast<size_t>(kMaxRank)) return false;
      shape->push_back(v);
      SkipSpace();
      if (Consume(',')) continue;
      SkipSpace();
      if (Consume(')')) return true;
      return false;
    }
  }
  static bool ParseDescr(std::string_view d, Header* out) {
    if (d.size() < 3) return false;
    char order = d[0];
    if (order != '<' && order != '>' && order != '|' && order != '=') return false;
    char kind = d[1];
    int bytes = 0;
    for (char c : d.substr(2)) {
      if (c < '0' || c > '9' || bytes > 1000) return false;
      bytes = bytes * 10 + (c - '0');
    }
    for (const TypeCode& tc : kTypeCodes) {
      if (tc.kind == kind && tc.bytes == bytes) {
        out->type = tc.type;
        out->big_endian = order == '>';
        return true;
      }
    }
    return false;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

uint32_t ReadLe(std::string_view bytes, size_t at, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) {
    v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  }
  return v;
}

// Converts column-major (Fortran) element order to row-major.
void FortranToRowMajor(const std::vector<int64_t>& dims, int elem_bytes,
                       const uint8_t* src, uint8_t* dst) {
  int rank = static_cast<int>(dims.size());
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  std::vector<int64_t> index(rank, 0);
  for (int64_t f = 0; f < count; ++f) {
    // f enumerates elements in Fortran order: index[0] varies fastest.
    int64_t row_major = 0;
    for (int i = 0; i < rank; ++i) row_major = row_major * dims[i] + index[i];
    std::memcpy(dst + row_major * elem_bytes, src + f * elem_bytes, elem_bytes);
    for (int i = 0; i < rank; ++i) {
      if (++index[i] < dims[i]) break;
      index[i] = 0;
    }
  }
}

// The one-byte type whose file holds narrow type t: the sub-byte integer's
// value (int8 for s2/s4, uint8 for u2/u4), or a minifloat's bits (uint8, as
// ml_dtypes stores them).
PrimitiveType NpyTypeOfNarrow(PrimitiveType t) {
  return IsSignedInt(t) ? PrimitiveType::kS8 : PrimitiveType::kU8;
}

std::string DescrFor(PrimitiveType t) {
  if (IsNarrowType(t)) t = NpyTypeOfNarrow(t);
  for (const TypeCode& tc : kTypeCodes) {
    if (tc.type != t) continue;
    if (t == PrimitiveType::kBF16) return "<u2";
    char order = tc.bytes == 1 ? '|' : '<';
    return absl::StrCat(std::string(1, order), std::string(1, tc.kind), tc.bytes);
  }
  return "";
}

}  // namespace

absl::StatusOr<Literal> ReadNpy(std::string_view bytes,
                                std::string_view filename) {
  if (bytes.substr(0, kMagic.size()) != kMagic || bytes.size() < 10) {
    return NpyError(filename, "not a .npy file (missing \\x93NUMPY magic)");
  }
  int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len, header_start;
  if (major == 1) {
    header_len = ReadLe(bytes, 8, 2);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return NpyError(filename, "truncated .npy header");
    header_len = ReadLe(bytes, 8, 4);
    header_start = 12;
  } else {
    return NpyError(filename, absl::StrCat("unsupported .npy format version ", major));
  }
  if (header_len > kMaxHeaderBytes || header_start + header_len > bytes.size()) {
    return NpyError(filename, "truncated .npy header");
  }
  Header header;
  HeaderParser parser(bytes.substr(header_start, header_len));
  if (absl::Status st = parser.Parse(filename, &header); !st.ok()) return st;

  Shape shape = Shape::Array(header.type, header.shape);
  if (absl::Status st = ValidateShape(shape); !st.ok()) {
    return NpyError(filename, std::string(st.message()));
  }
  int elem_bytes = StorageBytes(header.type);
  std::string_view data = bytes.substr(header_start + header_len);
  int64_t expected = shape.ByteSize();
  if (static_cast<int64_t>(data.size()) != expected) {
    return NpyError(filename,
                    absl::StrCat("data holds ", data.size(), " bytes, shape ",
                                 shape.ToString(false), " needs ", expected));
  }
  Literal literal(shape);
  uint8_t* out = literal.mutable_raw();
  const uint8_t* in = reinterpret_cast<const uint8_t*>(data.data());
  if (header.fortran_order && shape.rank() > 1) {
    FortranToRowMajor(header.shape, elem_bytes, in, out);
  } else if (expected > 0) {
    std::memcpy(out, in, static_cast<size_t>(expected));
  }
  if (header.big_endian && elem_bytes > 1) {
    // Complex numbers swap each component separately.
    int unit = IsComplex(header.type) ? elem_bytes / 2 : elem_bytes;
    for (int64_t i = 0; i < expected; i += unit) std::reverse(out + i, out + i + unit);
  }
  if (header.type == PrimitiveType::kPred) {
    for (int64_t i = 0; i < expected; ++i) {
      if (out[i] > 1) {
        return NpyError(filename, absl::StrCat("bool element ", i,
                                               " is neither 0 nor 1"));
      }
    }
  }
  return literal;
}

absl::StatusOr<Literal> ReadNpyFor(std::string_view bytes,
                                   std::string_view filename,
                                   const Shape& expected, std::string_view what) {
  absl::StatusOr<Literal> read = ReadNpy(bytes, filename);
  if (!read.ok()) return read.status();
  Literal literal = *std::move(read);
  PrimitiveType got = literal.shape().element_type();
  // A bf16 parameter accepts raw uint16 bits, and a void-2 file fits bf16.
  bool bf16_bits = expected.element_type() == PrimitiveType::kBF16 &&
                   (got == PrimitiveType::kU16 || got == PrimitiveType::kBF16);
  const PrimitiveType want = expected.element_type();
  const bool narrow = IsNarrowType(want) && got == NpyTypeOfNarrow(want);
  if (narrow) {
    // Each byte must be a value (or encoding) of the narrow type: s4 -8..7,
    // u4 0..15, f4e2m1fn 0x00..0x0f.
    for (int64_t i = 0; i < literal.raw_size(); ++i) {
      const uint8_t b = literal.raw()[i];
      if (CanonicalNarrowBits(want, b) != b) {
        return NpyError(
            filename,
            absl::StrCat("element ", i, " (",
                         got == PrimitiveType::kS8 ? static_cast<int>(
                                                         static_cast<int8_t>(b))
                                                   : static_cast<int>(b),
                         ") is out of range for ", Sv(PrimitiveTypeName(want))));
      }
    }
  }
  if ((got != want && !bf16_bits && !narrow) ||
      literal.shape().dimensions() != expected.dimensions()) {
    std::string got_text = literal.shape().ToString(false);
    if (got == PrimitiveType::kBF16) got_text += " (2-byte void)";
    return NpyError(filename,
                    absl::StrCat(Sv(what), " expects ", expected.ToString(false),
                                 ", the file holds ", got_text));
  }
  if (got != expected.element_type()) {
    Literal typed(Shape::Array(expected.element_type(), expected.dimensions()));
    std::memcpy(typed.mutable_raw(), literal.raw(),
                static_cast<size_t>(literal.raw_size()));
    return typed;
  }
  return literal;
}

absl::StatusOr<std::string> WriteNpy(const Literal& literal) {
  const Shape& shape = literal.shape();
  std::string descr = shape.IsArray() ? DescrFor(shape.element_type()) : "";
  if (descr.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot write ", shape.ToString(false), " as .npy"));
  }
  // Python tuple syntax: "()", "(4,)", "(2, 3)".
  std::string dims = absl::StrJoin(shape.dimensions(), ", ");
  if (shape.rank() == 1) dims += ",";
  std::string dict = absl::StrCat("{'descr': '", descr,
                                  "', 'fortran_order': False, 'shape': (", dims,
                                  "), }");
  // Pad so that magic + version + length + header is a multiple of 64 bytes
  // and the header ends with a newline.
  size_t total = kMagic.size() + 2 + 2 + dict.size() + 1;
  size_t padded = (total + 63) / 64 * 64;
  dict.append(padded - total, ' ');
  dict.push_back('\n');
  std::string out(kMagic);
  out.push_back('\x01');
  out.push_back('\x00');
  out.push_back(static_cast<char>(dict.size() & 0xff));
  out.push_back(static_cast<char>(dict.size() >> 8));
  out += dict;
  out.append(reinterpret_cast<const char*>(literal.raw()),
             static_cast<size_t>(literal.raw_size()));
  return out;
}

}  // namespace aotc
