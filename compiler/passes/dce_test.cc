// Tests of dead code elimination: dead instructions in every computation,
// uncalled computations, and what must stay (roots, parameters, side
// effects, also behind a call).
#include "compiler/passes/dce.h"

#include <string>
#include <vector>

#include "compiler/passes/pass_test_util.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ParseVerified;
using testing::RunVerified;

std::vector<std::string> ComputationNames(const Module& m) {
  std::vector<std::string> names;
  for (const auto& c : m.computations()) names.push_back(c->name());
  return names;
}

TEST(DceTest, RemovesDeadInstructionsAndUncalledComputations) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  dead_in_reducer = f32[] multiply(a, b)
  ROOT s = f32[] add(a, b)
}

never_called {
  x = f32[] parameter(0)
  ROOT n = f32[] negate(x)
}

ENTRY main {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  zero = f32[] constant(0)
  dead_sum = f32[] reduce(p, zero), dimensions={0}, to_apply=add
  dead_exp = f32[4] exponential(q)
  dead_neg = f32[4] negate(dead_exp)
  ROOT r = f32[4] add(p, p)
}
)");
  ASSERT_NE(m, nullptr);
  DeadCodeElimination dce;
  EXPECT_TRUE(RunVerified(dce, *m));
  // The only caller of `add` was dead, so `add` goes too.
  EXPECT_EQ(ComputationNames(*m), std::vector<std::string>{"main"});
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[4]{0}, q: f32[4]{0}) -> f32[4]{0} {
  %p = f32[4]{0} parameter(0)
  %q = f32[4]{0} parameter(1)
  ROOT %r = f32[4]{0} add(%p, %p)
})");
}

TEST(DceTest, CleansCalledComputationsItKeeps) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  dead = f32[] multiply(a, b)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  p = f32[4] parameter(0)
  zero = f32[] constant(0)
  ROOT sum = f32[] reduce(p, zero), dimensions={0}, to_apply=add
}
)");
  ASSERT_NE(m, nullptr);
  DeadCodeElimination dce;
  EXPECT_TRUE(RunVerified(dce, *m));
  EXPECT_EQ(PrintComputation(*m->FindComputation("add")),
            R"(%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
})");
}

TEST(DceTest, KeepsSideEffectsAlsoBehindACall) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m

effect {
  x = f32[4] parameter(0)
  ROOT cc = f32[4] custom-call(x), custom_call_target="log_it"
}

ENTRY main {
  p = f32[4] parameter(0)
  direct = f32[4] custom-call(p), custom_call_target="log_it"
  called = f32[4] call(p), to_apply=effect
  ROOT r = f32[4] negate(p)
}
)");
  ASSERT_NE(m, nullptr);
  const std::string before = PrintModule(*m);
  DeadCodeElimination dce;
  EXPECT_FALSE(RunVerified(dce, *m));
  EXPECT_EQ(PrintModule(*m), before);
}

TEST(DceTest, KeepsUnusedParameters) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  unused = s32[] parameter(1)
  ROOT r = f32[4] negate(p)
}
)");
  ASSERT_NE(m, nullptr);
  DeadCodeElimination dce;
  EXPECT_FALSE(RunVerified(dce, *m));
  EXPECT_NE(m->entry()->FindInstruction("unused"), nullptr);
}

TEST(DceTest, NoChangeOnACleanModule) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  p = f32[4] parameter(0)
  zero = f32[] constant(0)
  ROOT sum = f32[] reduce(p, zero), dimensions={0}, to_apply=add
}
)");
  ASSERT_NE(m, nullptr);
  const std::string before = PrintModule(*m);
  DeadCodeElimination dce;
  EXPECT_FALSE(RunVerified(dce, *m));
  EXPECT_EQ(PrintModule(*m), before);
}

}  // namespace
}  // namespace aotc
