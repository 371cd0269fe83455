// Which modeled attributes each opcode carries, generated from
// opcode_attributes.def.
//
// The text parser looks a `key=value` up here to know whether the opcode
// models it and how to read it, the printer writes an opcode's entries in
// table order, the proto importer reads the proto fields of the opcode's
// keys, and Instruction's typed accessors check that the opcode has the
// attribute they return.
#ifndef AOTC_COMPILER_IR_OPCODE_ATTRIBUTES_H_
#define AOTC_COMPILER_IR_OPCODE_ATTRIBUTES_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "compiler/ir/attributes.h"
#include "compiler/ir/opcode.h"
#include "compiler/ir/shape.h"

namespace aotc {

struct InstructionAttributes;

// How an attribute's value is written in HLO text (opcode_attributes.def).
enum class AttributeKind : uint8_t {
  kInt,
  kIntList,
  kBool,
  kOptInt,
  kIotaDim,
  kSlice,
  kPadding,
  kWindow,
  kDimLabels,
  kNameList,
  kName,
  kString,
  kDirection,
  kCmpType,
  kFusionKind,
  kShapeList,
  kFftType,
  kTranspose,
};

// Always printed, or only when the value differs from the default.
enum class AttributePrint : uint8_t { kAlways, kSet };

// A pointer to the InstructionAttributes member an attribute is stored in;
// the alternative follows from the kind.
using AttributeField =
    std::variant<int64_t*, std::vector<int64_t>*, bool*,
                 std::optional<int64_t>*, std::vector<SliceDim>*,
                 std::vector<PaddingDim>*, std::vector<WindowDim>*,
                 ConvolutionDimensionNumbers*, std::vector<std::string>*,
                 std::string*, ComparisonDirection*, ComparisonType*,
                 FusionKind*, std::optional<std::vector<Shape>>*,
                 FftType*, TransposeKind*>;

struct AttributeSpec {
  Opcode opcode;
  std::string_view key;
  AttributeKind kind;
  AttributePrint print;
  AttributeField (*field)(InstructionAttributes& attrs);
};

// Every entry of opcode_attributes.def, in table order.
std::span<const AttributeSpec> AllAttributeSpecs();
// `op`'s entries in table order (the printer's order).
std::span<const AttributeSpec* const> OpcodeAttributes(Opcode op);
// The entry for `key` on `op`, or nullptr when `op` does not model `key`.
const AttributeSpec* FindAttribute(Opcode op, std::string_view key);
inline bool HasAttribute(Opcode op, std::string_view key) {
  return FindAttribute(op, key) != nullptr;
}
// True when `spec`'s field in `attrs` has its default-constructed value.
bool AttributeIsDefault(const AttributeSpec& spec,
                        const InstructionAttributes& attrs);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_OPCODE_ATTRIBUTES_H_
