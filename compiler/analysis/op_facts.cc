// Facts about single instructions shared by passes and code generation
// (op_facts.h).
#include "compiler/analysis/op_facts.h"

#include <algorithm>

#include "compiler/ir/native_type.h"

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

std::optional<double> ScalarFloatConstant(const Instruction& inst) {
  const Instruction* c = &inst;
  while (c->opcode() == Opcode::kBroadcast || c->opcode() == Opcode::kConvert ||
         c->opcode() == Opcode::kReshape) {
    c = c->operand(0);
  }
  if (c->opcode() != Opcode::kConstant || !c->shape().IsArray() ||
      c->shape().ElementCount() != 1 || c->literal().elided()) {
    return std::nullopt;
  }
  const Literal& l = c->literal();
  switch (c->shape().element_type()) {
    case PrimitiveType::kF64:
      return l.Get<double>(0);
    case PrimitiveType::kF32:
      return l.Get<float>(0);
    case PrimitiveType::kF16:
      return static_cast<float>(l.Get<NativeType<PrimitiveType::kF16>>(0));
    case PrimitiveType::kBF16:
      return static_cast<float>(l.Get<NativeType<PrimitiveType::kBF16>>(0));
    default:
      return std::nullopt;
  }
}

}  // namespace aotc
