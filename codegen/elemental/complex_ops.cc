// Complex scalar operations by opcode (see complex_ops.h).
#include "codegen/elemental/complex_ops.h"

#include "absl/strings/str_cat.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/scalar_ops.h"
#include "codegen/emit/ir_types.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/strings.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

absl::StatusOr<Value*> Compare(llvm::IRBuilderBase& b, const Instruction& inst,
                               Value* x, Value* y, PrimitiveType type) {
  const ComparisonDirection dir = inst.comparison_direction();
  if (dir != ComparisonDirection::kEq && dir != ComparisonDirection::kNe) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("comparison direction ", Sv(ComparisonDirectionName(dir)),
                     " is not defined for element type ",
                     Sv(PrimitiveTypeName(type))));
  }
  // Equal when both parts are (so NaN parts make it unequal).
  Value* re = b.CreateFCmpOEQ(RealPart(b, x), RealPart(b, y));
  Value* im = b.CreateFCmpOEQ(ImagPart(b, x), ImagPart(b, y));
  Value* equal = b.CreateAnd(re, im);
  return dir == ComparisonDirection::kEq ? equal : b.CreateNot(equal);
}

absl::StatusOr<Value*> Unary(llvm::IRBuilderBase& b, const Instruction& inst,
                             Value* z, PrimitiveType type) {
  switch (inst.opcode()) {
    case Opcode::kCopy:
      return z;
    case Opcode::kReal:
      return RealPart(b, z);
    case Opcode::kImag:
      return ImagPart(b, z);
    case Opcode::kNegate:
      return b.CreateFNeg(z);
    case Opcode::kAbs:
      return EmitComplexAbs(b, z);
    case Opcode::kSign:
      return EmitComplexSign(b, z);
    case Opcode::kExp:
      return EmitComplexExp(b, z);
    case Opcode::kExpm1:
      return EmitComplexExpm1(b, z);
    case Opcode::kLog:
      return EmitComplexLog(b, z);
    case Opcode::kLog1p:
      return EmitComplexLog1p(b, z);
    case Opcode::kSqrt:
      return EmitComplexSqrt(b, z);
    case Opcode::kRsqrt:
      return EmitComplexRsqrt(b, z);
    case Opcode::kCbrt:
      return EmitComplexCbrt(b, z);
    case Opcode::kTanh:
      return EmitComplexTanh(b, z);
    case Opcode::kLogistic:
      return EmitComplexLogistic(b, z);
    case Opcode::kSin:
      return EmitComplexSin(b, z);
    case Opcode::kCos:
      return EmitComplexCos(b, z);
    case Opcode::kTan:
      return EmitComplexTan(b, z);
    default:
      return NotDefinedFor(inst, type);
  }
}

absl::StatusOr<Value*> Binary(llvm::IRBuilderBase& b, const Instruction& inst,
                              Value* x, Value* y, PrimitiveType type) {
  switch (inst.opcode()) {
    case Opcode::kAdd:
      return b.CreateFAdd(x, y);
    case Opcode::kSubtract:
      return b.CreateFSub(x, y);
    case Opcode::kMultiply:
      return EmitComplexMultiply(b, x, y);
    case Opcode::kDivide:
      return EmitComplexDivide(b, x, y);
    case Opcode::kPower:
      return EmitComplexPow(b, x, y);
    default:
      return NotDefinedFor(inst, type);
  }
}

}  // namespace

PrimitiveType ComplexComponentType(PrimitiveType complex_type) {
  return complex_type == PrimitiveType::kC128 ? PrimitiveType::kF64
                                              : PrimitiveType::kF32;
}

Value* RealPart(llvm::IRBuilderBase& b, Value* z) {
  return b.CreateExtractElement(z, uint64_t{0});
}

Value* ImagPart(llvm::IRBuilderBase& b, Value* z) {
  return b.CreateExtractElement(z, uint64_t{1});
}

Value* MakeComplex(llvm::IRBuilderBase& b, Value* re, Value* im) {
  Value* z =
      llvm::PoisonValue::get(llvm::FixedVectorType::get(re->getType(), 2));
  z = b.CreateInsertElement(z, re, uint64_t{0});
  return b.CreateInsertElement(z, im, uint64_t{1});
}

Value* EmitComplexConvert(llvm::IRBuilderBase& b, Value* v, PrimitiveType from,
                          PrimitiveType to) {
  if (from == to) return v;
  if (IsComplex(from) && IsComplex(to)) {
    llvm::Type* type = ComputeType(b.getContext(), to);
    return to == PrimitiveType::kC128 ? b.CreateFPExt(v, type)
                                      : b.CreateFPTrunc(v, type);
  }
  if (IsComplex(from)) {
    return EmitConvert(b, RealPart(b, v), ComplexComponentType(from), to);
  }
  const PrimitiveType part = ComplexComponentType(to);
  Value* re = EmitConvert(b, v, from, part);
  return MakeComplex(b, re, llvm::ConstantFP::get(re->getType(), 0.0));
}

absl::StatusOr<Value*> EmitComplexElementwise(
    llvm::IRBuilderBase& b, const Instruction& inst,
    const std::vector<Value*>& operands) {
  const PrimitiveType type = inst.operand(0)->shape().element_type();
  if (inst.opcode() == Opcode::kComplex) {
    return MakeComplex(b, operands[0], operands[1]);
  }
  if (!IsComplex(type)) return NotDefinedFor(inst, type);
  if (inst.opcode() == Opcode::kCompare) {
    return Compare(b, inst, operands[0], operands[1], type);
  }
  if (operands.size() == 1) return Unary(b, inst, operands[0], type);
  if (operands.size() == 2) {
    return Binary(b, inst, operands[0], operands[1], type);
  }
  return NotDefinedFor(inst, type);
}

}  // namespace aotc::codegen
