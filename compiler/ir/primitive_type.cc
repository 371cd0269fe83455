// Tables behind the PrimitiveType queries, generated from primitive_type.def.
#include "compiler/ir/primitive_type.h"

#include <iterator>

namespace aotc {
namespace {

struct TypeInfo {
  PrimitiveType type;
  std::string_view name;
  int bits;
  TypeKind kind;
};

constexpr TypeInfo kTypes[] = {
#define AOTC_PRIMITIVE_TYPE(e, text, number, bits, kind) \
  {PrimitiveType::e, text, bits, TypeKind::kind},
#include "compiler/ir/primitive_type.def"
#undef AOTC_PRIMITIVE_TYPE
};

// Proto numbers are small, so Find indexes a table by number instead of
// searching kTypes: the evaluator asks for widths once per element access.
constexpr int kNumberLimit = 64;
struct NumberIndex {
  int position[kNumberLimit];
  constexpr NumberIndex() : position() {
    for (int& p : position) p = -1;
    for (int i = 0; i < static_cast<int>(std::size(kTypes)); ++i) {
      position[static_cast<int>(kTypes[i].type)] = i;
    }
  }
};
constexpr NumberIndex kNumberIndex;

const TypeInfo* Find(PrimitiveType t) {
  const int number = static_cast<int>(t);
  if (number < 0 || number >= kNumberLimit) return nullptr;
  const int position = kNumberIndex.position[number];
  return position < 0 ? nullptr : &kTypes[position];
}

}  // namespace

std::string_view PrimitiveTypeName(PrimitiveType t) {
  const TypeInfo* info = Find(t);
  return info ? info->name : "invalid";
}

std::optional<PrimitiveType> PrimitiveTypeFromName(std::string_view name) {
  if (name == "opaque_type") return PrimitiveType::kOpaque;
  if (name == "tuple") return std::nullopt;
  for (const TypeInfo& info : kTypes) {
    if (info.name == name) return info.type;
  }
  return std::nullopt;
}

std::optional<PrimitiveType> PrimitiveTypeFromProtoNumber(int number) {
  for (const TypeInfo& info : kTypes) {
    if (static_cast<int>(info.type) == number) return info.type;
  }
  return std::nullopt;
}

TypeKind KindOf(PrimitiveType t) {
  const TypeInfo* info = Find(t);
  return info ? info->kind : TypeKind::kOther;
}

int BitWidth(PrimitiveType t) {
  const TypeInfo* info = Find(t);
  return info ? info->bits : 0;
}

int StorageBytes(PrimitiveType t) {
  int bits = BitWidth(t);
  return bits == 0 ? 0 : (bits + 7) / 8;
}

bool IsComputableType(PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kPred:
    case PrimitiveType::kS8:
    case PrimitiveType::kS16:
    case PrimitiveType::kS32:
    case PrimitiveType::kS64:
    case PrimitiveType::kU8:
    case PrimitiveType::kU16:
    case PrimitiveType::kU32:
    case PrimitiveType::kU64:
    case PrimitiveType::kF16:
    case PrimitiveType::kBF16:
    case PrimitiveType::kF32:
    case PrimitiveType::kF64:
    case PrimitiveType::kC64:
    case PrimitiveType::kC128:
      return true;
    default:
      return false;
  }
}

}  // namespace aotc
