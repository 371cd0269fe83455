// The attribute table generated from opcode_attributes.def.
#include "compiler/ir/opcode_attributes.h"

#include <array>
#include <iterator>

#include "compiler/ir/instruction.h"

namespace aotc {
namespace {

constexpr AttributeKind Int = AttributeKind::kInt;
constexpr AttributeKind IntList = AttributeKind::kIntList;
constexpr AttributeKind Bool = AttributeKind::kBool;
constexpr AttributeKind OptInt = AttributeKind::kOptInt;
constexpr AttributeKind IotaDim = AttributeKind::kIotaDim;
constexpr AttributeKind Slice = AttributeKind::kSlice;
constexpr AttributeKind Padding = AttributeKind::kPadding;
constexpr AttributeKind Window = AttributeKind::kWindow;
constexpr AttributeKind DimLabels = AttributeKind::kDimLabels;
constexpr AttributeKind NameList = AttributeKind::kNameList;
constexpr AttributeKind Name = AttributeKind::kName;
constexpr AttributeKind String = AttributeKind::kString;
constexpr AttributeKind Direction = AttributeKind::kDirection;
constexpr AttributeKind CmpType = AttributeKind::kCmpType;
constexpr AttributeKind FusionKind = AttributeKind::kFusionKind;
constexpr AttributeKind ShapeList = AttributeKind::kShapeList;
constexpr AttributeKind FftType = AttributeKind::kFftType;
constexpr AttributeKind Transpose = AttributeKind::kTranspose;
constexpr AttributePrint Always = AttributePrint::kAlways;
constexpr AttributePrint Set = AttributePrint::kSet;

const AttributeSpec kSpecs[] = {
#define AOTC_ATTRIBUTE(op, key, kind, member, print) \
  {Opcode::op, key, kind, print,                     \
   [](InstructionAttributes& a) -> AttributeField { return &a.member; }},
#include "compiler/ir/opcode_attributes.def"
#undef AOTC_ATTRIBUTE
};

using PerOpcode = std::vector<std::vector<const AttributeSpec*>>;

const PerOpcode& ByOpcode() {
  static const PerOpcode* table = [] {
    auto* t = new PerOpcode(NumOpcodes());
    for (const AttributeSpec& s : kSpecs) {
      (*t)[static_cast<int>(s.opcode)].push_back(&s);
    }
    return t;
  }();
  return *table;
}

}  // namespace

std::span<const AttributeSpec> AllAttributeSpecs() { return kSpecs; }

std::span<const AttributeSpec* const> OpcodeAttributes(Opcode op) {
  return ByOpcode()[static_cast<int>(op)];
}

const AttributeSpec* FindAttribute(Opcode op, std::string_view key) {
  for (const AttributeSpec* s : OpcodeAttributes(op)) {
    if (s->key == key) return s;
  }
  return nullptr;
}

bool AttributeIsDefault(const AttributeSpec& spec,
                        const InstructionAttributes& attrs) {
  static InstructionAttributes defaults;
  // The field function only forms a pointer; nothing is written.
  AttributeField value = spec.field(const_cast<InstructionAttributes&>(attrs));
  AttributeField initial = spec.field(defaults);
  return std::visit(
      [&](auto* v) {
        return *v == *std::get<std::remove_reference_t<decltype(v)>>(initial);
      },
      value);
}

}  // namespace aotc
