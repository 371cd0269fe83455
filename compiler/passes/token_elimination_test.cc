// Tests of token elimination: add-dependency, after-all and the token
// operands and results of custom-calls disappear without moving any
// instruction, and tokens that reach anything else stay.
#include "compiler/passes/token_elimination.h"

#include <string>

#include "compiler/passes/pass_test_util.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ParseVerified;
using testing::RunVerified;

std::unique_ptr<Module> Eliminate(std::string_view text, bool changed) {
  std::unique_ptr<Module> m = ParseVerified(text);
  if (m == nullptr) return nullptr;
  TokenElimination pass;
  EXPECT_EQ(RunVerified(pass, *m), changed);
  return m;
}

TEST(TokenEliminationTest, OrderedCallsLoseTheirTokensAndKeepTheirOrder) {
  // log_a and log_b are ordered by tokens only; afterwards they have no
  // edge between them but keep their definition order, which is the order
  // code generation runs them in. The tuple result loses its token and
  // v's index stays 0; w's index moves from 2 to 1.
  std::unique_ptr<Module> m = Eliminate(R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  t0 = token[] after-all()
  a = (f32[4], token[], s32[]) custom-call(p, t0), custom_call_target="log_a"
  v = f32[4] get-tuple-element(a), index=0
  t1 = token[] get-tuple-element(a), index=1
  w = s32[] get-tuple-element(a), index=2
  t2 = token[] after-all(t1, t0)
  b = token[] custom-call(t2, v), custom_call_target="log_b"
  d = f32[4] add-dependency(v, b)
  ROOT r = (f32[4], s32[]) tuple(d, w)
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[4]{0}) -> (f32[4]{0}, s32[]) {
  %p = f32[4]{0} parameter(0)
  %a = (f32[4]{0}, s32[]) custom-call(%p), custom_call_target="log_a"
  %v = f32[4]{0} get-tuple-element(%a), index=0
  %w = s32[] get-tuple-element(%a), index=1
  %b = () custom-call(%v), custom_call_target="log_b"
  ROOT %r = (f32[4]{0}, s32[]) tuple(%v, %w)
})");
}

TEST(TokenEliminationTest, LayoutConstraintsFollowTheOperands) {
  std::unique_ptr<Module> m = Eliminate(R"(
HloModule m

ENTRY main {
  p = f32[2,3] parameter(0)
  t = token[] after-all()
  ROOT c = f32[2,3] custom-call(t, p), custom_call_target="f", operand_layout_constraints={token[], f32[2,3]{0,1}}
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  const Instruction* c = m->entry()->root();
  ASSERT_EQ(c->operand_count(), 1);
  ASSERT_TRUE(c->attrs().operand_layout_constraints.has_value());
  ASSERT_EQ(c->attrs().operand_layout_constraints->size(), 1u);
  EXPECT_EQ((*c->attrs().operand_layout_constraints)[0].ToString(),
            "f32[2,3]{0,1}");
  EXPECT_EQ(m->entry()->instruction_count(), 2);
}

TEST(TokenEliminationTest, ARootAddDependencyBecomesItsOperand) {
  std::unique_ptr<Module> m = Eliminate(R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  t = token[] after-all()
  ROOT d = f32[4] add-dependency(p, t)
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->root()->name(), "p");
  EXPECT_EQ(m->entry()->instruction_count(), 1);
}

TEST(TokenEliminationTest, TokensReachingAnythingElseStay) {
  // A token returned from the entry, and a custom-call whose token result
  // is part of the root tuple: nothing changes.
  Eliminate(R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  ROOT t = token[] after-all()
}
)",
            false);
  std::unique_ptr<Module> m = Eliminate(R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  a = (f32[4], token[]) custom-call(p), custom_call_target="f"
  v = f32[4] get-tuple-element(a), index=0
  t = token[] get-tuple-element(a), index=1
  ROOT r = (f32[4], token[]) tuple(v, t)
}
)",
                                        false);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->FindInstruction("a")->shape().ToString(),
            "(f32[4]{0}, token[])");
}

TEST(TokenEliminationTest, WithoutTokensNothingChanges) {
  Eliminate(R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  ROOT c = f32[4] custom-call(p), custom_call_target="f"
}
)",
            false);
}

}  // namespace
}  // namespace aotc
