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

struct OpcodeInfo {
  std::string_view name;
  int arity;
  uint32_t properties;
};

constexpr OpcodeInfo kOpcodes[] = {
#define AOTC_OPCODE(e, text, arity, props) {text, arity, props},
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

}  // namespace aotc
