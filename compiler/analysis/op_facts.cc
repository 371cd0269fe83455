// Facts about single instructions shared by passes and code generation
// (op_facts.h).
#include "compiler/analysis/op_facts.h"

#include <algorithm>

#include "compiler/ir/computation.h"
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

namespace {

// The one-element constant under broadcasts and reshapes (and converts,
// with `through_converts`) of `inst`, or null.
const Instruction* ScalarConstantUnder(const Instruction& inst,
                                       bool through_converts) {
  const Instruction* c = &inst;
  while (c->opcode() == Opcode::kBroadcast || c->opcode() == Opcode::kReshape ||
         (through_converts && c->opcode() == Opcode::kConvert)) {
    c = c->operand(0);
  }
  if (c->opcode() != Opcode::kConstant || !c->shape().IsArray() ||
      c->shape().ElementCount() != 1 || c->literal().elided()) {
    return nullptr;
  }
  return c;
}

}  // namespace

std::optional<double> ScalarFloatConstant(const Instruction& inst) {
  const Instruction* c = ScalarConstantUnder(inst, /*through_converts=*/true);
  if (c == nullptr) return std::nullopt;
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

std::optional<int64_t> ScalarIntegerConstant(const Instruction& inst) {
  const Instruction* c = ScalarConstantUnder(inst, /*through_converts=*/false);
  if (c == nullptr) return std::nullopt;
  switch (c->shape().element_type()) {
    case PrimitiveType::kS32:
      return c->literal().Get<int32_t>(0);
    case PrimitiveType::kS64:
      return c->literal().Get<int64_t>(0);
    case PrimitiveType::kU32:
      return c->literal().Get<uint32_t>(0);
    default:
      return std::nullopt;
  }
}

std::optional<bool> ScalarPredConstant(const Instruction& inst) {
  const Instruction* c = ScalarConstantUnder(inst, /*through_converts=*/false);
  if (c == nullptr || c->shape().element_type() != PrimitiveType::kPred) {
    return std::nullopt;
  }
  return c->literal().Get<bool>(0);
}

Opcode ReducerOpcode(const Instruction& reduce) {
  const Computation* r = reduce.to_apply();
  if (r == nullptr || r->num_parameters() != 2) return Opcode::kParameter;
  const Instruction* root = r->root();
  if (root->operand_count() != 2 || root->operand(0) == root->operand(1) ||
      root->operand(0)->opcode() != Opcode::kParameter ||
      root->operand(1)->opcode() != Opcode::kParameter) {
    return Opcode::kParameter;
  }
  return root->opcode();
}

}  // namespace aotc
