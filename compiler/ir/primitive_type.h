// Element types of HLO arrays.
//
// The enum's values are XLA's PrimitiveType proto numbers, so the proto
// importer maps them directly. Facts about each type come from
// primitive_type.def; ask these functions rather than switching on the enum.
#ifndef AOTC_COMPILER_IR_PRIMITIVE_TYPE_H_
#define AOTC_COMPILER_IR_PRIMITIVE_TYPE_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace aotc {

enum class PrimitiveType : int {
  kInvalid = 0,
#define AOTC_PRIMITIVE_TYPE(e, text, number, bits, kind) e = number,
#include "compiler/ir/primitive_type.def"
#undef AOTC_PRIMITIVE_TYPE
};

enum class TypeKind { kPred, kSigned, kUnsigned, kFloat, kComplex, kOther };

// "f32", "bf16", ... ; "invalid" for kInvalid.
std::string_view PrimitiveTypeName(PrimitiveType t);
// Parses a text name ("opaque_type" is accepted for kOpaque; "tuple" is not a
// type name in HLO text and is rejected).
std::optional<PrimitiveType> PrimitiveTypeFromName(std::string_view name);
// Maps a proto enum number; nullopt for numbers aotc does not know.
std::optional<PrimitiveType> PrimitiveTypeFromProtoNumber(int number);

TypeKind KindOf(PrimitiveType t);
// Logical bits of one element (4 for s4, 16 for bf16, 64 for c64).
int BitWidth(PrimitiveType t);
// Bytes one element occupies in aotc's literals and buffers: sub-byte types
// take one byte each; 0 for token / opaque / tuple.
int StorageBytes(PrimitiveType t);

inline bool IsFloat(PrimitiveType t) { return KindOf(t) == TypeKind::kFloat; }
inline bool IsComplex(PrimitiveType t) {
  return KindOf(t) == TypeKind::kComplex;
}
inline bool IsSignedInt(PrimitiveType t) {
  return KindOf(t) == TypeKind::kSigned;
}
inline bool IsUnsignedInt(PrimitiveType t) {
  return KindOf(t) == TypeKind::kUnsigned;
}
inline bool IsInteger(PrimitiveType t) {
  return IsSignedInt(t) || IsUnsignedInt(t);
}
// The IEEE-style floats with native arithmetic in the evaluator and in
// compiled code: f16, bf16, f32, f64 (not the 8-, 6- and 4-bit formats).
inline bool IsRealFloat(PrimitiveType t) {
  return t == PrimitiveType::kF16 || t == PrimitiveType::kBF16 ||
         t == PrimitiveType::kF32 || t == PrimitiveType::kF64;
}
// The 16-bit floats, stored as bits and computed in float.
inline bool IsHalfFloat(PrimitiveType t) {
  return t == PrimitiveType::kF16 || t == PrimitiveType::kBF16;
}
inline bool IsArrayType(PrimitiveType t) {
  return t != PrimitiveType::kToken && t != PrimitiveType::kOpaque &&
         t != PrimitiveType::kTuple && t != PrimitiveType::kInvalid;
}
// Types with a native C++ type whose arithmetic the evaluator's kernels do:
// pred, s8..s64, u8..u64, f16, bf16, f32, f64, c64, c128.
// s2, s4, u2, u4 and the f8/f6/f4 families are computed by widening to these
// (narrow_type.h); s1 and u1 can be parsed, printed and moved around only.
bool IsComputableType(PrimitiveType t);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_PRIMITIVE_TYPE_H_
