#include "compiler/ir/instruction.h"

#include <gtest/gtest.h>

#include "compiler/ir/computation.h"
#include "compiler/ir/module.h"

namespace aotc {
namespace {

TEST(InstructionTest, UsersTrackOperands) {
  Computation comp("c");
  Shape s = Shape::Array(PrimitiveType::kF32, {4});
  Instruction* p = comp.AddInstruction(
      Instruction::Create(Opcode::kParameter, "p", s, {}));
  p->mutable_attrs().parameter_number = 0;
  Instruction* n = comp.AddInstruction(
      Instruction::Create(Opcode::kNegate, "n", s, {p}));
  Instruction* a = comp.AddInstruction(
      Instruction::Create(Opcode::kAdd, "a", s, {p, p}));
  comp.set_root(a);
  EXPECT_EQ(p->users().size(), 2u);  // a counted once
  a->ReplaceOperand(1, n);
  EXPECT_EQ(p->users().size(), 2u);  // a still uses p through operand 0
  a->ReplaceOperand(0, n);
  ASSERT_EQ(p->users().size(), 1u);
  EXPECT_EQ(p->users()[0], n);
  EXPECT_EQ(n->users().size(), 1u);
  Instruction* m = comp.AddInstruction(
      Instruction::Create(Opcode::kMultiply, "m", s, {a, a}));
  comp.set_root(m);
  a->ReplaceAllUsesWith(n);
  EXPECT_EQ(m->operand(0), n);
  EXPECT_TRUE(a->users().empty());
  comp.RemoveInstruction(a);
  EXPECT_EQ(comp.instruction_count(), 3);
  EXPECT_EQ(n->users().size(), 1u);
  EXPECT_EQ(comp.parameter(0), p);
  EXPECT_EQ(comp.FindInstruction("m"), m);
}

TEST(InstructionTest, RemoveOperandShiftsAndKeepsUsers) {
  Computation comp("c");
  Shape s = Shape::Array(PrimitiveType::kF32, {4});
  Instruction* p = comp.AddInstruction(
      Instruction::Create(Opcode::kParameter, "p", s, {}));
  p->mutable_attrs().parameter_number = 0;
  Instruction* n = comp.AddInstruction(
      Instruction::Create(Opcode::kNegate, "n", s, {p}));
  Instruction* t = comp.AddInstruction(Instruction::Create(
      Opcode::kTuple, "t", Shape::Tuple({s, s, s}), {p, n, p}));
  comp.set_root(t);
  t->RemoveOperand(0);
  ASSERT_EQ(t->operand_count(), 2);
  EXPECT_EQ(t->operand(0), n);
  EXPECT_EQ(t->operand(1), p);
  EXPECT_EQ(p->users().size(), 2u);  // n, and t through its last operand
  t->RemoveOperand(1);
  ASSERT_EQ(t->operand_count(), 1);
  ASSERT_EQ(p->users().size(), 1u);
  EXPECT_EQ(p->users()[0], n);
  EXPECT_EQ(n->users().size(), 1u);
}

TEST(InstructionTest, RootReplacement) {
  Module module("m");
  Computation* comp = module.AddComputation(std::make_unique<Computation>("e"));
  Shape s = Shape::Scalar(PrimitiveType::kS32);
  Instruction* c = comp->AddInstruction(
      Instruction::Create(Opcode::kConstant, "c", s, {}));
  Instruction* d = comp->AddInstruction(
      Instruction::Create(Opcode::kCopy, "d", s, {c}));
  comp->set_root(c);
  c->ReplaceAllUsesWith(d);
  EXPECT_EQ(comp->root(), d);
  EXPECT_TRUE(d->IsRoot());
}

}  // namespace
}  // namespace aotc
