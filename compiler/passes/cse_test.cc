// Tests of common subexpression elimination: what is merged (cascading
// through users, constants, every computation) and what never is
// (different constants, layouts or attributes, random and side-effecting
// ops, parameters).
#include "compiler/passes/cse.h"

#include <string>

#include "compiler/passes/pass_test_util.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ParseVerified;
using testing::RunVerified;

// Runs CSE on `text`, expecting `changed`; returns the module.
std::unique_ptr<Module> Cse(std::string_view text, bool changed) {
  std::unique_ptr<Module> m = ParseVerified(text);
  if (m == nullptr) return nullptr;
  CommonSubexpressionElimination cse;
  EXPECT_EQ(RunVerified(cse, *m), changed);
  return m;
}

TEST(CseTest, MergesIdenticalInstructionsAndTheirUsers) {
  std::unique_ptr<Module> m = Cse(R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  c1 = f32[] constant(2)
  c2 = f32[] constant(2)
  b1 = f32[4] broadcast(c1), dimensions={}
  b2 = f32[4] broadcast(c2), dimensions={}
  m1 = f32[4] multiply(p, b1)
  m2 = f32[4] multiply(p, b2)
  ROOT r = f32[4] add(m1, m2)
}
)",
                                  true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[4]{0}) -> f32[4]{0} {
  %p = f32[4]{0} parameter(0)
  %c1 = f32[] constant(2)
  %b1 = f32[4]{0} broadcast(%c1), dimensions={}
  %m1 = f32[4]{0} multiply(%p, %b1)
  ROOT %r = f32[4]{0} add(%m1, %m1)
})");
}

TEST(CseTest, MergedRootIsReplacedByTheFirstCopy) {
  std::unique_ptr<Module> m = Cse(R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  n1 = f32[4] negate(p)
  ROOT n2 = f32[4] negate(p)
}
)",
                                  true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->root()->name(), "n1");
  EXPECT_EQ(m->entry()->instruction_count(), 2);
}

TEST(CseTest, WorksInReducersAndFusedComputations) {
  std::unique_ptr<Module> m = Cse(R"(
HloModule m

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  s1 = f32[] add(a, b)
  s2 = f32[] add(a, b)
  ROOT s = f32[] maximum(s1, s2)
}

ENTRY main {
  p = f32[4] parameter(0)
  zero = f32[] constant(0)
  ROOT sum = f32[] reduce(p, zero), dimensions={0}, to_apply=add
}
)",
                                  true);
  ASSERT_NE(m, nullptr);
  const Instruction* root = m->FindComputation("add")->root();
  ASSERT_EQ(root->operand_count(), 2);
  EXPECT_EQ(root->operand(0)->name(), "s1");
  EXPECT_EQ(root->operand(1)->name(), "s1");
  EXPECT_EQ(m->FindComputation("add")->instruction_count(), 4);
}

TEST(CseTest, KeepsDifferentConstants) {
  // Equal as numbers, different bits: -0.0 and 0.0 must stay apart; and an
  // f32 1 is not an s32 1.
  std::unique_ptr<Module> m = Cse(R"(
HloModule m

ENTRY main {
  a = f32[] constant(0)
  b = f32[] constant(-0)
  c = f32[] constant(1)
  d = s32[] constant(1)
  e = f32[2] constant({1, 2})
  f = f32[2] constant({1, 3})
  ROOT t = (f32[], f32[], f32[], s32[], f32[2], f32[2]) tuple(a, b, c, d, e, f)
}
)",
                                  false);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->instruction_count(), 7);
}

TEST(CseTest, KeepsDifferentLayoutsAndAttributes) {
  std::unique_ptr<Module> m = Cse(R"(
HloModule m

ENTRY main {
  p = f32[2,3] parameter(0)
  c1 = f32[2,3]{1,0} copy(p)
  c2 = f32[2,3]{0,1} copy(p)
  s1 = f32[1,3] slice(p), slice={[0:1], [0:3]}
  s2 = f32[1,3] slice(p), slice={[1:2], [0:3]}
  k1 = f32[2,3] negate(p), backend_config="a"
  k2 = f32[2,3] negate(p), backend_config="b"
  ROOT t = (f32[2,3], f32[2,3], f32[1,3], f32[1,3], f32[2,3], f32[2,3]) tuple(c1, c2, s1, s2, k1, k2)
}
)",
                                  false);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->instruction_count(), 8);
}

TEST(CseTest, NeverMergesRandomOrSideEffectingOps) {
  std::unique_ptr<Module> m = Cse(R"(
HloModule m

draw {
  lo = f32[] parameter(0)
  hi = f32[] parameter(1)
  ROOT r = f32[4] rng(lo, hi), distribution=rng_uniform
}

ENTRY main {
  lo = f32[] constant(0)
  hi = f32[] constant(1)
  r1 = f32[4] rng(lo, hi), distribution=rng_uniform
  r2 = f32[4] rng(lo, hi), distribution=rng_uniform
  k1 = f32[4] call(lo, hi), to_apply=draw
  k2 = f32[4] call(lo, hi), to_apply=draw
  x1 = f32[4] custom-call(r1), custom_call_target="f"
  x2 = f32[4] custom-call(r1), custom_call_target="f"
  ROOT t = (f32[4], f32[4], f32[4], f32[4], f32[4], f32[4]) tuple(r1, r2, k1, k2, x1, x2)
}
)",
                                  false);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->instruction_count(), 9);
}

TEST(CseTest, NeverMergesParameters) {
  std::unique_ptr<Module> m = Cse(R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  ROOT r = f32[4] add(p, q)
}
)",
                                  false);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->num_parameters(), 2);
}

TEST(CseTest, NoChangeOnAnAlreadyMergedModule) {
  std::unique_ptr<Module> m = Cse(R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  c = f32[] constant(2)
  b = f32[4] broadcast(c), dimensions={}
  m1 = f32[4] multiply(p, b)
  ROOT r = f32[4] add(m1, m1)
}
)",
                                  false);
  ASSERT_NE(m, nullptr);
}

}  // namespace
}  // namespace aotc
