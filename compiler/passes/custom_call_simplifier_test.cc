// Tests of the custom-call simplifier: annotation custom-calls disappear
// (chains, roots, unused ones, in called computations), and custom-calls
// that are not identities, or whose layout differs, stay.
#include "compiler/passes/custom_call_simplifier.h"

#include <string>

#include "compiler/passes/pass_test_util.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ParseVerified;
using testing::RunVerified;

// Runs the pass on `text`, expecting `changed`; returns the module.
std::unique_ptr<Module> Simplify(std::string_view text, bool changed) {
  std::unique_ptr<Module> m = ParseVerified(text);
  if (m == nullptr) return nullptr;
  CustomCallSimplifier pass;
  EXPECT_EQ(RunVerified(pass, *m), changed);
  return m;
}

TEST(CustomCallSimplifierTest, ChainsAndRootsCollapseToTheOperand) {
  std::unique_ptr<Module> m = Simplify(R"(
HloModule m

ENTRY main {
  p = f32[4,2] parameter(0)
  s = f32[4,2] custom-call(p), custom_call_target="Sharding", sharding={devices=[2,1]0,1}
  f = f32[4,2] custom-call(s), custom_call_target="SPMDFullToShardShape", sharding={manual}
  n = f32[4,2] negate(f)
  h = f32[4,2] custom-call(n), custom_call_target="xla.sdy.FuncResultSharding"
  ROOT d = f32[4,2] custom-call(h), custom_call_target="annotate_device_placement", frontend_attributes={_xla_buffer_placement="device"}
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[4,2]{1,0}) -> f32[4,2]{1,0} {
  %p = f32[4,2]{1,0} parameter(0)
  ROOT %n = f32[4,2]{1,0} negate(%p)
})");
}

TEST(CustomCallSimplifierTest, UnusedAnnotationsAndCalledComputations) {
  std::unique_ptr<Module> m = Simplify(R"(
HloModule m

body {
  b = s32[] parameter(0)
  ROOT t = s32[] custom-call(b), custom_call_target="xla_mark_tensor"
}

ENTRY main {
  p = s32[] parameter(0)
  unused = s32[] custom-call(p), custom_call_target="MoveToDevice"
  ROOT c = s32[] call(p), to_apply=body
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->FindInstruction("unused"), nullptr);
  const Computation* body = m->entry()->root()->to_apply();
  EXPECT_EQ(body->instruction_count(), 1);
  EXPECT_EQ(body->root()->name(), "b");
}

TEST(CustomCallSimplifierTest, DoesNotRemoveOtherCustomCalls) {
  // An unknown target, TopK (not an identity), a shape-changing
  // SPMDShardToFullShape, two operands, and a MoveToHost whose result lives
  // in another memory space: replacing it would change its users' shapes.
  const char* text = R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  q = f32[2] parameter(1)
  a = f32[4] custom-call(p), custom_call_target="my_kernel"
  t = (f32[1], s32[1]) custom-call(a), custom_call_target="TopK"
  v = f32[1] get-tuple-element(t), index=0
  g = f32[4] custom-call(q), custom_call_target="SPMDShardToFullShape"
  two = f32[4] custom-call(p, p), custom_call_target="Sharding"
  h = f32[4]{0:S(5)} custom-call(g), custom_call_target="MoveToHost"
  ROOT r = (f32[1], f32[4], f32[4]{0:S(5)}) tuple(v, two, h)
}
)";
  std::unique_ptr<Module> m = ParseVerified(text);
  ASSERT_NE(m, nullptr);
  const std::string before = PrintModule(*m);
  CustomCallSimplifier pass;
  EXPECT_FALSE(RunVerified(pass, *m));
  EXPECT_EQ(PrintModule(*m), before);
}

}  // namespace
}  // namespace aotc
