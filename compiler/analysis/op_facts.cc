// Facts about single instructions shared by passes and code generation
// (op_facts.h).
#include "compiler/analysis/op_facts.h"

#include <algorithm>

namespace aotc {

bool IsWidthChangingBitcast(const Instruction& inst) {
  const Opcode op = inst.opcode();
  if (op != Opcode::kBitcast && op != Opcode::kBitcastConvert) return false;
  return BitWidth(inst.shape().element_type()) !=
         BitWidth(inst.operand(0)->shape().element_type());
}

bool IsSmallDynamicUpdate(const Instruction& inst) {
  return inst.opcode() == Opcode::kDynamicUpdateSlice &&
         inst.operand(1)->shape().ElementCount() * 4 <=
             inst.shape().ElementCount();
}

absl::Span<const Opcode> TranscendentalExpanderOpcodes() {
  static constexpr Opcode kOpcodes[] = {
      Opcode::kAcos,  Opcode::kAcosh, Opcode::kAsin, Opcode::kAsinh,
      Opcode::kAtanh, Opcode::kCosh,  Opcode::kSinh,
  };
  return kOpcodes;
}

bool IsExpandedByTranscendentalExpander(const Instruction& inst) {
  const absl::Span<const Opcode> ops = TranscendentalExpanderOpcodes();
  if (std::find(ops.begin(), ops.end(), inst.opcode()) == ops.end()) {
    return false;
  }
  const PrimitiveType type = inst.shape().element_type();
  return IsRealFloat(type) || IsComplex(type);
}

}  // namespace aotc
