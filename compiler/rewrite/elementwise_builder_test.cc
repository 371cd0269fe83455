// Tests of ElementwiseBuilder: shapes, layouts, names and locations of what
// it adds, broadcast constants, integer bit patterns, and a polynomial by
// Horner's rule evaluated against hand-computed values.
#include "compiler/rewrite/elementwise_builder.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/evaluator_test_util.h"
#include "compiler/ir/verifier.h"

namespace aotc {
namespace {

using P = PrimitiveType;

TEST(ElementwiseBuilderTest, ShapesNamesLocationsAndValues) {
  auto file = std::make_shared<SourceFile>();
  file->name = "m.hlo";
  const Location where{file, 3, 5};
  Module module("m");
  auto entry = std::make_unique<Computation>("e");
  const Shape shape =
      Shape::ArrayWithLayout(P::kF32, {2, 2}, Layout{{0, 1}, {}});
  auto p = Instruction::Create(Opcode::kParameter, "x", shape, {});
  p->mutable_attrs().parameter_number = 0;
  Instruction* x = entry->AddInstruction(std::move(p));
  Computation* comp = module.AddComputation(std::move(entry));
  module.set_entry(comp);
  NameUniquer names(module);
  ElementwiseBuilder b(*comp, names, shape, where, "x");
  // 1 + 2x + 3x^2.
  Instruction* poly = b.Polynomial(x, {1, 2, 3});
  Instruction* positive = b.Gt(x, b.Constant(0));
  Instruction* bits =
      b.BitcastConvert(b.Select(positive, poly, b.Constant(-1)), P::kU32);
  Instruction* masked =
      b.Op(Opcode::kAnd, {bits, b.IntConstant(P::kU32, 0xFFFF0000u)});
  comp->set_root(b.BitcastConvert(masked, P::kF32));
  ASSERT_TRUE(VerifyModule(module).ok()) << VerifyModule(module);

  std::set<std::string> seen;
  for (const auto& inst : comp->instructions()) {
    EXPECT_TRUE(seen.insert(inst->name()).second) << inst->name();
    if (inst.get() == x || inst->shape().IsScalar()) continue;
    EXPECT_EQ(inst->shape().layout().minor_to_major,
              (std::vector<int64_t>{0, 1}))
        << inst->name();
    EXPECT_EQ(inst->location().line, 3) << inst->name();
  }
  EXPECT_EQ(positive->shape().element_type(), P::kPred);
  // x = 2: 1 + 4 + 12 = 17 = 0x41880000, kept by the mask; x = 0.5:
  // 1 + 1 + 0.75 = 2.75 = 0x40300000; x = -1: -1; x = 1.1: 1 + 2.2 + 3.63 =
  // 6.83 (0x40DA8F5C -> 0x40DA0000 = 6.8125).
  auto r = EvaluateModule(
      module, {testing::MakeArray<P::kF32>({2, 2}, {2, 0.5f, -1, 1.1f})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(testing::Values<P::kF32>(*r),
            (std::vector<float>{17, 2.75f, -1, 6.8125f}));
}

TEST(ElementwiseBuilderTest, ScalarShapesNeedNoBroadcast) {
  Computation comp("c");
  NameUniquer names(comp);
  ElementwiseBuilder b(comp, names, Shape::Scalar(P::kF64), {}, "s");
  Instruction* c = b.Constant(0.25);
  EXPECT_EQ(c->opcode(), Opcode::kConstant);
  EXPECT_EQ(c->literal().Get<double>(0), 0.25);
  b.set_type(P::kBF16);
  Instruction* h = b.Constant(1.5);
  EXPECT_EQ(h->shape().element_type(), P::kBF16);
  EXPECT_EQ(static_cast<float>(h->literal().Get<BFloat16>(0)), 1.5f);
  EXPECT_EQ(comp.instruction_count(), 2);
}

}  // namespace
}  // namespace aotc
