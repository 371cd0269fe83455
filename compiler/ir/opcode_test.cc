#include "compiler/ir/opcode.h"

#include <gtest/gtest.h>

#include "compiler/ir/primitive_type.h"

namespace aotc {
namespace {

TEST(OpcodeTest, TableHasEveryXlaOpcode) {
  // HLO_FACTS.md lists 133 opcodes.
  EXPECT_EQ(NumOpcodes(), 133);
  for (int i = 0; i < NumOpcodes(); ++i) {
    Opcode op = static_cast<Opcode>(i);
    auto back = OpcodeFromName(OpcodeName(op));
    ASSERT_TRUE(back.has_value()) << OpcodeName(op);
    EXPECT_EQ(*back, op);
  }
}

TEST(OpcodeTest, Properties) {
  EXPECT_EQ(OpcodeName(Opcode::kGetTupleElement), "get-tuple-element");
  EXPECT_EQ(OpcodeArity(Opcode::kSelect), 3);
  EXPECT_EQ(OpcodeArity(Opcode::kTuple), kVariadic);
  EXPECT_TRUE(IsElementwiseBinary(Opcode::kAdd));
  EXPECT_TRUE(IsCommutative(Opcode::kMultiply));
  EXPECT_FALSE(IsCommutative(Opcode::kSubtract));
  EXPECT_TRUE(IsElementwiseTernary(Opcode::kClamp));
  EXPECT_FALSE(IsElementwise(Opcode::kDot));
  EXPECT_TRUE(IsMovement(Opcode::kTranspose));
  EXPECT_TRUE(IsTranscendental(Opcode::kExp));
  EXPECT_TRUE(IsCollective(Opcode::kAllReduce));
  EXPECT_FALSE(IsEvaluable(Opcode::kAllReduce));
  EXPECT_TRUE(IsEvaluable(Opcode::kSelectAndScatter));
  EXPECT_FALSE(OpcodeFromName("bogus").has_value());
}

TEST(OpcodeTest, ElementalFormColumn) {
  EXPECT_TRUE(HasProperty(Opcode::kAdd, kPropElementalForm));
  EXPECT_TRUE(HasProperty(Opcode::kReduce, kPropElementalForm));
  EXPECT_TRUE(HasProperty(Opcode::kDynamicSlice, kPropElementalForm));
  EXPECT_TRUE(HasProperty(Opcode::kConvolution, kPropElementalForm));
  EXPECT_FALSE(HasProperty(Opcode::kSort, kPropElementalForm));
  EXPECT_FALSE(HasProperty(Opcode::kWhile, kPropElementalForm));
  // Element-wise but not evaluated: nothing to check compiled code against.
  EXPECT_FALSE(HasProperty(Opcode::kMulhi, kPropElementalForm));
  // Code generation only takes what the evaluator can check.
  for (int i = 0; i < NumOpcodes(); ++i) {
    const Opcode op = static_cast<Opcode>(i);
    if (HasProperty(op, kPropElementalForm)) {
      EXPECT_TRUE(IsEvaluable(op)) << OpcodeName(op);
    }
  }
}

TEST(OpcodeTest, HeavyColumn) {
  EXPECT_TRUE(IsHeavy(Opcode::kDivide));
  EXPECT_TRUE(IsHeavy(Opcode::kRemainder));
  EXPECT_TRUE(IsHeavy(Opcode::kReduceWindow));
  EXPECT_TRUE(IsHeavy(Opcode::kExp));
  EXPECT_FALSE(IsHeavy(Opcode::kAdd));
  EXPECT_FALSE(IsHeavy(Opcode::kBroadcast));
  for (int i = 0; i < NumOpcodes(); ++i) {
    const Opcode op = static_cast<Opcode>(i);
    if (IsTranscendental(op)) EXPECT_TRUE(IsHeavy(op)) << OpcodeName(op);
  }
}

TEST(OpcodeTest, ElementTypeColumn) {
  using P = PrimitiveType;
  // exp takes real and complex floats, nothing else.
  EXPECT_EQ(OpcodeElementTypes(Opcode::kExp),
            ElementTypeClass::kFloatOrComplex);
  EXPECT_TRUE(OpcodeAcceptsElementType(Opcode::kExp, P::kBF16));
  EXPECT_TRUE(OpcodeAcceptsElementType(Opcode::kExp, P::kC64));
  EXPECT_FALSE(OpcodeAcceptsElementType(Opcode::kExp, P::kS32));
  // Rounding is only for real floats.
  EXPECT_TRUE(OpcodeAcceptsElementType(Opcode::kFloor, P::kF16));
  EXPECT_FALSE(OpcodeAcceptsElementType(Opcode::kFloor, P::kC64));
  EXPECT_FALSE(OpcodeAcceptsElementType(Opcode::kFloor, P::kS8));
  // Bit counting and shifts: integers, signed or not, but not pred.
  EXPECT_TRUE(OpcodeAcceptsElementType(Opcode::kPopulationCount, P::kU8));
  EXPECT_TRUE(OpcodeAcceptsElementType(Opcode::kShiftLeft, P::kS64));
  EXPECT_FALSE(OpcodeAcceptsElementType(Opcode::kClz, P::kPred));
  EXPECT_FALSE(OpcodeAcceptsElementType(Opcode::kShiftRightLogical, P::kF32));
  // Logic ops take pred too.
  EXPECT_TRUE(OpcodeAcceptsElementType(Opcode::kXor, P::kPred));
  EXPECT_TRUE(OpcodeAcceptsElementType(Opcode::kNot, P::kU32));
  EXPECT_FALSE(OpcodeAcceptsElementType(Opcode::kAnd, P::kF32));
  // power is transcendental but also defined on integers.
  EXPECT_TRUE(IsTranscendental(Opcode::kPower));
  EXPECT_TRUE(OpcodeAcceptsElementType(Opcode::kPower, P::kS32));
  EXPECT_TRUE(OpcodeAcceptsElementType(Opcode::kAdd, P::kPred));
  EXPECT_EQ(ElementTypeClassText(OpcodeElementTypes(Opcode::kNot)),
            "pred or an integer type");
  // Every other elementwise transcendental is float-or-complex only.
  for (int i = 0; i < NumOpcodes(); ++i) {
    const Opcode op = static_cast<Opcode>(i);
    if (IsElementwise(op) && IsTranscendental(op) && op != Opcode::kPower) {
      EXPECT_EQ(OpcodeElementTypes(op), ElementTypeClass::kFloatOrComplex)
          << OpcodeName(op);
    }
  }
}

TEST(OpcodeTest, CalledComputationColumn) {
  EXPECT_EQ(OpcodeCalledComputationCount(Opcode::kWhile), 2);
  EXPECT_EQ(OpcodeCalledComputationCount(Opcode::kSelectAndScatter), 2);
  EXPECT_EQ(OpcodeCalledComputationCount(Opcode::kReduce), 1);
  EXPECT_EQ(OpcodeCalledComputationCount(Opcode::kFusion), 1);
  EXPECT_EQ(OpcodeCalledComputationCount(Opcode::kSort), 1);
  EXPECT_EQ(OpcodeCalledComputationCount(Opcode::kConditional), kVariadic);
  EXPECT_EQ(OpcodeCalledComputationCount(Opcode::kCustomCall), kVariadic);
  EXPECT_EQ(OpcodeCalledComputationCount(Opcode::kAdd), 0);
  // The column and the K letter agree.
  for (int i = 0; i < NumOpcodes(); ++i) {
    const Opcode op = static_cast<Opcode>(i);
    EXPECT_EQ(CallsComputations(op), OpcodeCalledComputationCount(op) != 0)
        << OpcodeName(op);
  }
}

TEST(PrimitiveTypeTest, NamesNumbersAndSizes) {
  EXPECT_EQ(PrimitiveTypeName(PrimitiveType::kBF16), "bf16");
  EXPECT_EQ(static_cast<int>(PrimitiveType::kF32), 11);
  EXPECT_EQ(PrimitiveTypeFromName("f8e4m3fn"), PrimitiveType::kF8E4M3FN);
  EXPECT_EQ(PrimitiveTypeFromName("opaque_type"), PrimitiveType::kOpaque);
  EXPECT_FALSE(PrimitiveTypeFromName("f31").has_value());
  EXPECT_EQ(PrimitiveTypeFromProtoNumber(16), PrimitiveType::kBF16);
  EXPECT_EQ(StorageBytes(PrimitiveType::kS4), 1);
  EXPECT_EQ(BitWidth(PrimitiveType::kS4), 4);
  EXPECT_EQ(StorageBytes(PrimitiveType::kC128), 16);
  EXPECT_TRUE(IsComputableType(PrimitiveType::kC64));
  EXPECT_FALSE(IsComputableType(PrimitiveType::kF8E5M2));
}

}  // namespace
}  // namespace aotc
