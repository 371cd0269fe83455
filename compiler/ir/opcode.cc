// Opcode tables generated from opcode.def.
#include "compiler/ir/opcode.h"

#include <iterator>

namespace aotc {
namespace {

constexpr uint32_t E = kPropElementwise;
constexpr uint32_t C = kPropCommutative;
constexpr uint32_t A = kPropAssociative;
constexpr uint32_t M = kPropMovement;
constexpr uint32_t T = kPropTranscendental;
constexpr uint32_t S = kPropSideEffect;
constexpr uint32_t K = kPropCallsComputations;
constexpr uint32_t X = kPropCollective;
constexpr uint32_t V = kPropEvaluable;
constexpr uint32_t G = kPropElementalForm;
constexpr uint32_t H = kPropHeavy;
constexpr uint32_t L = kPropLoopMember;

constexpr ElementTypeClass Any = ElementTypeClass::kAny;
constexpr ElementTypeClass Fp = ElementTypeClass::kFloat;
constexpr ElementTypeClass FpC = ElementTypeClass::kFloatOrComplex;
constexpr ElementTypeClass Int = ElementTypeClass::kInteger;
constexpr ElementTypeClass PredInt = ElementTypeClass::kPredOrInteger;

struct OpcodeInfo {
  std::string_view name;
  int arity;
  uint32_t properties;
  ElementTypeClass types;
  int calls;
};

constexpr OpcodeInfo kOpcodes[] = {
#define AOTC_OPCODE(e, text, arity, props, types, calls) \
  {text, arity, props, types, calls},
#include "compiler/ir/opcode.def"
#undef AOTC_OPCODE
};

const OpcodeInfo& Info(Opcode op) { return kOpcodes[static_cast<int>(op)]; }

}  // namespace

int NumOpcodes() { return static_cast<int>(std::size(kOpcodes)); }

std::string_view OpcodeName(Opcode op) { return Info(op).name; }

std::optional<Opcode> OpcodeFromName(std::string_view name) {
  for (int i = 0; i < NumOpcodes(); ++i) {
    if (kOpcodes[i].name == name) return static_cast<Opcode>(i);
  }
  return std::nullopt;
}

int OpcodeArity(Opcode op) { return Info(op).arity; }

uint32_t OpcodeProperties(Opcode op) { return Info(op).properties; }

ElementTypeClass OpcodeElementTypes(Opcode op) { return Info(op).types; }

bool OpcodeAcceptsElementType(Opcode op, PrimitiveType type) {
  switch (OpcodeElementTypes(op)) {
    case ElementTypeClass::kAny:
      return true;
    case ElementTypeClass::kFloat:
      return IsFloat(type);
    case ElementTypeClass::kFloatOrComplex:
      return IsFloat(type) || IsComplex(type);
    case ElementTypeClass::kInteger:
      return IsInteger(type);
    case ElementTypeClass::kPredOrInteger:
      return type == PrimitiveType::kPred || IsInteger(type);
  }
  return false;
}

std::string_view ElementTypeClassText(ElementTypeClass c) {
  switch (c) {
    case ElementTypeClass::kAny:
      return "any type";
    case ElementTypeClass::kFloat:
      return "a floating-point type";
    case ElementTypeClass::kFloatOrComplex:
      return "a floating-point or complex type";
    case ElementTypeClass::kInteger:
      return "an integer type";
    case ElementTypeClass::kPredOrInteger:
      return "pred or an integer type";
  }
  return "";
}

int OpcodeCalledComputationCount(Opcode op) { return Info(op).calls; }

}  // namespace aotc
