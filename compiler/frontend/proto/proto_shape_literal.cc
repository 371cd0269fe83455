// ShapeProto and LiteralProto -> aotc Shape and Literal.
//
// A LiteralProto stores array elements in the physical order of its shape's
// layout (minor_to_major[0] varies fastest); aotc literals are logical
// row-major, so every element is moved to its logical position. Element
// counts are compared with the data actually present before the literal is
// allocated, so a hostile shape cannot make the importer allocate more than
// a small multiple of the input size.
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>

#include "compiler/frontend/proto/proto_convert.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::proto_import {
namespace {

absl::Status Invalid(std::string message) {
  return absl::InvalidArgumentError(std::move(message));
}

absl::StatusOr<PrimitiveType> TypeFromNumber(int number) {
  std::optional<PrimitiveType> type = PrimitiveTypeFromProtoNumber(number);
  if (!type.has_value()) {
    return Invalid(absl::StrCat("unknown element type number ", number));
  }
  return *type;
}

std::string_view DimLevelTypeLetter(int type) {
  switch (type) {
    case 0:
      return "D";
    case 1:
      return "C";
    case 2:
      return "S";
    case 3:
      return "H";
    default:
      return "";
  }
}

// XLA's marker for a tile dimension that combines the remaining dimensions.
constexpr int64_t kCombineTileDimension = std::numeric_limits<int64_t>::min();

absl::StatusOr<Shape> ShapeFromProtoAt(const xla::ShapeProto& proto,
                                       int depth) {
  if (depth > kMaxShapeNesting) {
    return Invalid(absl::StrCat("tuple shapes nested deeper than ",
                                kMaxShapeNesting, " levels"));
  }
  ASSIGN_OR_RETURN(PrimitiveType type, TypeFromNumber(proto.element_type()));
  if (type == PrimitiveType::kTuple) {
    std::vector<Shape> elements;
    elements.reserve(proto.tuple_shapes_size());
    for (const xla::ShapeProto& e : proto.tuple_shapes()) {
      ASSIGN_OR_RETURN(Shape element, ShapeFromProtoAt(e, depth + 1));
      elements.push_back(std::move(element));
    }
    return Shape::Tuple(std::move(elements));
  }
  if (type == PrimitiveType::kToken) return Shape::Token();
  if (type == PrimitiveType::kOpaque) {
    Shape opaque;
    opaque.set_element_type(PrimitiveType::kOpaque);
    return opaque;
  }
  for (bool dynamic : proto.is_dynamic_dimension()) {
    if (dynamic) {
      return Invalid(
          "dynamic dimensions are not supported: aotc compiles static shapes "
          "only");
    }
  }
  if (proto.dimensions_size() > kMaxRank) {
    return Invalid(absl::StrCat("rank ", proto.dimensions_size(),
                                " exceeds the maximum rank ", kMaxRank));
  }
  std::vector<int64_t> dims(proto.dimensions().begin(),
                            proto.dimensions().end());
  Layout layout;
  const int rank = static_cast<int>(dims.size());
  if (proto.has_layout() &&
      (rank == 0 || proto.layout().minor_to_major_size() > 0)) {
    layout.minor_to_major.assign(proto.layout().minor_to_major().begin(),
                                 proto.layout().minor_to_major().end());
    ASSIGN_OR_RETURN(layout.extension,
                     LayoutExtensionFromProto(proto.layout()));
  } else {
    // A shape without a layout gets aotc's default, row-major.
    layout.minor_to_major = DefaultMinorToMajor(rank);
  }
  return Shape::ArrayWithLayout(type, std::move(dims), std::move(layout));
}

// Calls f(physical_index, logical_index) for every element of an array
// shape whose layout is a validated permutation, in physical order.
template <typename F>
void ForEachPhysicalElement(const Shape& shape, F&& f) {
  const int64_t count = shape.ElementCount();
  if (count == 0) return;
  const std::vector<int64_t>& dims = shape.dimensions();
  const std::vector<int64_t>& m2m = shape.layout().minor_to_major;
  const std::vector<int64_t> strides = RowMajorStrides(dims);
  std::vector<int64_t> index(dims.size(), 0);
  int64_t logical = 0;
  for (int64_t physical = 0; physical < count; ++physical) {
    f(physical, logical);
    for (int64_t d : m2m) {
      ++index[d];
      logical += strides[d];
      if (index[d] < dims[d]) break;
      logical -= index[d] * strides[d];
      index[d] = 0;
    }
  }
}

absl::Status CountMismatch(const Shape& shape, std::string_view field,
                           int64_t have, int64_t want, std::string_view unit) {
  return Invalid(absl::StrCat("literal of shape ", shape.ToString(), " has ",
                              have, " ", Sv(unit), " in ", Sv(field),
                              ", expected ", want));
}

// Copies a repeated numeric field of `count * per_element` values into the
// literal, converting each group of `per_element` proto values to one
// element of type T with `make`.
template <typename T, typename Field, typename Make>
absl::Status CopyRepeated(const Field& field, std::string_view field_name,
                          int per_element, const Shape& physical, Make make,
                          Literal* literal) {
  const int64_t count = physical.ElementCount();
  const int64_t have = field.size();
  if (have / per_element != count || have % per_element != 0) {
    return CountMismatch(physical, field_name, have, count * per_element,
                         "values");
  }
  *literal = Literal(literal->shape());
  absl::Span<T> out = literal->mutable_data<T>();
  ForEachPhysicalElement(physical, [&](int64_t p, int64_t l) {
    out[l] = make(field, p * per_element);
  });
  return absl::OkStatus();
}

// Copies a bytes field holding `width` little-endian bytes per element.
absl::Status CopyBytes(const std::string& bytes, std::string_view field_name,
                       int width, const Shape& physical, Literal* literal) {
  const int64_t count = physical.ElementCount();
  const int64_t have = static_cast<int64_t>(bytes.size());
  if (have % width != 0 || have / width != count) {
    return CountMismatch(physical, field_name, have, count * width, "bytes");
  }
  *literal = Literal(literal->shape());
  uint8_t* out = literal->mutable_raw();
  const auto* in = reinterpret_cast<const uint8_t*>(bytes.data());
  ForEachPhysicalElement(physical, [&](int64_t p, int64_t l) {
    if (width == 1) {
      out[l] = in[p];
      return;
    }
    // Assembled from bytes so that the host's byte order does not matter.
    uint16_t value = static_cast<uint16_t>(in[2 * p] | (in[2 * p + 1] << 8));
    std::memcpy(out + 2 * l, &value, sizeof(value));
  });
  return absl::OkStatus();
}

// Keeps the low BitWidth(type) bits of every sub-byte element, sign-extended
// for signed integer types, so that the stored byte is the element's value.
void NormalizeSubByte(PrimitiveType type, Literal* literal) {
  const int bits = BitWidth(type);
  if (bits >= 8) return;
  const uint8_t mask = static_cast<uint8_t>((1u << bits) - 1);
  const bool sign_extend = IsSignedInt(type);
  uint8_t* data = literal->mutable_raw();
  for (int64_t i = 0; i < literal->raw_size(); ++i) {
    uint8_t v = data[i] & mask;
    if (sign_extend && (v & (1u << (bits - 1))))
      v |= static_cast<uint8_t>(~mask);
    data[i] = v;
  }
}

// The bytes field holding one-byte elements of a sub-byte or 8-bit float
// type, or nullptr for other types.
const std::string* OneByteField(const xla::LiteralProto& p, PrimitiveType t,
                                std::string_view* name) {
  switch (t) {
#define AOTC_FIELD(type, field) \
  case PrimitiveType::type:     \
    *name = #field;             \
    return &p.field();
    AOTC_FIELD(kS1, s1s)
    AOTC_FIELD(kS2, s2s)
    AOTC_FIELD(kS4, s4s)
    AOTC_FIELD(kS8, s8s)
    AOTC_FIELD(kU1, u1s)
    AOTC_FIELD(kU2, u2s)
    AOTC_FIELD(kU4, u4s)
    AOTC_FIELD(kU8, u8s)
    AOTC_FIELD(kF4E2M1FN, f4e2m1fns)
    AOTC_FIELD(kF8E3M4, f8e3m4s)
    AOTC_FIELD(kF8E4M3B11FNUZ, f8e4m3b11fnuzs)
    AOTC_FIELD(kF8E4M3FN, f8e4m3fns)
    AOTC_FIELD(kF8E4M3FNUZ, f8e4m3fnuzs)
    AOTC_FIELD(kF8E4M3, f8e4m3s)
    AOTC_FIELD(kF8E5M2FNUZ, f8e5m2fnuzs)
    AOTC_FIELD(kF8E5M2, f8e5m2s)
    AOTC_FIELD(kF8E8M0FNU, f8e8m0fnus)
    AOTC_FIELD(kF6E3M2FN, f6e3m2fns)
    AOTC_FIELD(kF6E2M3FN, f6e2m3fns)
#undef AOTC_FIELD
    default:
      return nullptr;
  }
}

// The bytes field holding two-byte little-endian elements, or nullptr.
const std::string* TwoByteField(const xla::LiteralProto& p, PrimitiveType t,
                                std::string_view* name) {
  switch (t) {
    case PrimitiveType::kS16:
      *name = "s16s";
      return &p.s16s();
    case PrimitiveType::kU16:
      *name = "u16s";
      return &p.u16s();
    case PrimitiveType::kF16:
      *name = "f16s";
      return &p.f16s();
    case PrimitiveType::kBF16:
      *name = "bf16s";
      return &p.bf16s();
    default:
      return nullptr;
  }
}

template <typename T>
auto Element() {
  return [](const auto& field, int64_t i) { return static_cast<T>(field[i]); };
}

template <typename T>
auto ComplexElement() {
  return [](const auto& field, int64_t i) {
    return std::complex<T>(field[i], field[i + 1]);
  };
}

// Fills `literal` (already shaped like the instruction) from the array data
// of `proto`, whose physical layout is `physical`'s.
absl::Status ArrayDataFromProto(const xla::LiteralProto& p,
                                const Shape& physical, Literal* literal) {
  const PrimitiveType type = physical.element_type();
  std::string_view name;
  if (const std::string* bytes = OneByteField(p, type, &name)) {
    RETURN_IF_ERROR(CopyBytes(*bytes, name, 1, physical, literal));
    NormalizeSubByte(type, literal);
    return absl::OkStatus();
  }
  if (const std::string* bytes = TwoByteField(p, type, &name)) {
    return CopyBytes(*bytes, name, 2, physical, literal);
  }
  switch (type) {
    case PrimitiveType::kPred:
      return CopyRepeated<bool>(p.preds(), "preds", 1, physical,
                                Element<bool>(), literal);
    case PrimitiveType::kS32:
      return CopyRepeated<int32_t>(p.s32s(), "s32s", 1, physical,
                                   Element<int32_t>(), literal);
    case PrimitiveType::kS64:
      return CopyRepeated<int64_t>(p.s64s(), "s64s", 1, physical,
                                   Element<int64_t>(), literal);
    case PrimitiveType::kU32:
      return CopyRepeated<uint32_t>(p.u32s(), "u32s", 1, physical,
                                    Element<uint32_t>(), literal);
    case PrimitiveType::kU64:
      return CopyRepeated<uint64_t>(p.u64s(), "u64s", 1, physical,
                                    Element<uint64_t>(), literal);
    case PrimitiveType::kF32:
      return CopyRepeated<float>(p.f32s(), "f32s", 1, physical,
                                 Element<float>(), literal);
    case PrimitiveType::kF64:
      return CopyRepeated<double>(p.f64s(), "f64s", 1, physical,
                                  Element<double>(), literal);
    case PrimitiveType::kC64:
      return CopyRepeated<std::complex<float>>(
          p.c64s(), "c64s", 2, physical, ComplexElement<float>(), literal);
    case PrimitiveType::kC128:
      return CopyRepeated<std::complex<double>>(
          p.c128s(), "c128s", 2, physical, ComplexElement<double>(), literal);
    default:
      return Invalid(absl::StrCat("literals of type ",
                                  Sv(PrimitiveTypeName(type)),
                                  " are not supported"));
  }
}

absl::StatusOr<Literal> LiteralFromProtoAt(const xla::LiteralProto& proto,
                                           const Shape& shape, int depth) {
  if (depth > kMaxShapeNesting) {
    return Invalid(absl::StrCat("tuple literals nested deeper than ",
                                kMaxShapeNesting, " levels"));
  }
  Shape physical = shape;
  if (proto.has_shape()) {
    ASSIGN_OR_RETURN(physical, ShapeFromProto(proto.shape()));
    if (!physical.Compatible(shape)) {
      return Invalid(absl::StrCat("literal shape ", physical.ToString(),
                                  " does not match the instruction shape ",
                                  shape.ToString()));
    }
  }
  if (shape.IsTuple()) {
    if (proto.tuple_literals_size() != shape.tuple_size()) {
      return Invalid(absl::StrCat("tuple literal of shape ", shape.ToString(),
                                  " has ", proto.tuple_literals_size(),
                                  " elements, expected ", shape.tuple_size()));
    }
    std::vector<Literal> elements;
    elements.reserve(shape.tuple_size());
    for (int i = 0; i < shape.tuple_size(); ++i) {
      ASSIGN_OR_RETURN(Literal element,
                       LiteralFromProtoAt(proto.tuple_literals(i),
                                          shape.tuple_shapes(i), depth + 1));
      elements.push_back(std::move(element));
    }
    return Literal::MakeTuple(std::move(elements));
  }
  if (!shape.IsArray()) {
    return Invalid(absl::StrCat("literals of shape ", shape.ToString(),
                                " are not supported"));
  }
  // Allocation happens inside the copy, after the size check; until then the
  // literal holds the shape only.
  Literal literal = Literal::Elided(shape);
  RETURN_IF_ERROR(ArrayDataFromProto(proto, physical, &literal));
  return literal;
}

}  // namespace

absl::StatusOr<Shape> ShapeFromProto(const xla::ShapeProto& proto) {
  ASSIGN_OR_RETURN(Shape shape, ShapeFromProtoAt(proto, 0));
  RETURN_IF_ERROR(ValidateShape(shape));
  return shape;
}

absl::StatusOr<std::string> LayoutExtensionFromProto(
    const xla::LayoutProto& proto) {
  std::string ext;
  if (proto.dim_level_types_size() > 0) {
    std::vector<std::string> letters;
    for (int t : proto.dim_level_types()) {
      std::string_view letter = DimLevelTypeLetter(t);
      if (letter.empty()) {
        return Invalid(absl::StrCat("unknown dimension level type ", t));
      }
      letters.emplace_back(letter);
    }
    absl::StrAppend(&ext, "D(", absl::StrJoin(letters, ","), ")");
  }
  if (proto.tiles_size() > 0) {
    ext += "T";
    for (const xla::TileProto& tile : proto.tiles()) {
      std::vector<std::string> dims;
      for (int64_t d : tile.dimensions()) {
        dims.push_back(d == kCombineTileDimension ? "*" : absl::StrCat(d));
      }
      absl::StrAppend(&ext, "(", absl::StrJoin(dims, ","), ")");
    }
  }
  if (proto.tail_padding_alignment_in_elements() > 1) {
    absl::StrAppend(&ext, "L(", proto.tail_padding_alignment_in_elements(),
                    ")");
  }
  if (proto.index_primitive_type() != 0) {
    ASSIGN_OR_RETURN(PrimitiveType t,
                     TypeFromNumber(proto.index_primitive_type()));
    absl::StrAppend(&ext, "#(", Sv(PrimitiveTypeName(t)), ")");
  }
  if (proto.pointer_primitive_type() != 0) {
    ASSIGN_OR_RETURN(PrimitiveType t,
                     TypeFromNumber(proto.pointer_primitive_type()));
    absl::StrAppend(&ext, "*(", Sv(PrimitiveTypeName(t)), ")");
  }
  if (proto.element_size_in_bits() != 0) {
    absl::StrAppend(&ext, "E(", proto.element_size_in_bits(), ")");
  }
  if (proto.memory_space() != 0) {
    absl::StrAppend(&ext, "S(", proto.memory_space(), ")");
  }
  // Split configs and physical shapes describe device memory that aotc never
  // targets; they are not carried into the text form.
  if (proto.dynamic_shape_metadata_prefix_bytes() > 0) {
    absl::StrAppend(&ext, "M(", proto.dynamic_shape_metadata_prefix_bytes(),
                    ")");
  }
  return ext;
}

absl::StatusOr<Literal> LiteralFromProto(const xla::LiteralProto& proto,
                                         const Shape& shape) {
  return LiteralFromProtoAt(proto, shape, 0);
}

}  // namespace aotc::proto_import
