// Tests of call inlining: the copied body and its names, nested calls,
// callees that stay because something else calls them, layout copies, and
// modules without calls.
#include "compiler/passes/call_inliner.h"

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

TEST(CallInlinerTest, ReplacesACallByItsBody) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m

square_plus {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  sq = f32[4] multiply(x, x)
  ROOT r = f32[4] add(sq, y)
}

ENTRY main {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  c = f32[4] call(p, q), to_apply=square_plus
  ROOT n = f32[4] negate(c)
}
)");
  ASSERT_NE(m, nullptr);
  CallInliner inliner;
  EXPECT_TRUE(RunVerified(inliner, *m));
  EXPECT_EQ(ComputationNames(*m), std::vector<std::string>{"main"});
  // The callee's names were taken (by the callee itself), so the copies get
  // the next free ones.
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[4]{0}, q: f32[4]{0}) -> f32[4]{0} {
  %p = f32[4]{0} parameter(0)
  %q = f32[4]{0} parameter(1)
  %sq.1 = f32[4]{0} multiply(%p, %p)
  %r.1 = f32[4]{0} add(%sq.1, %q)
  ROOT %n = f32[4]{0} negate(%r.1)
})");
}

TEST(CallInlinerTest, InlinesNestedCallsAndKeepsOtherCallees) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

inner {
  x = f32[4] parameter(0)
  ROOT e = f32[4] exponential(x)
}

outer {
  y = f32[4] parameter(0)
  k = f32[4] call(y), to_apply=inner
  zero = f32[] constant(0)
  ROOT sum = f32[] reduce(k, zero), dimensions={0}, to_apply=add
}

ENTRY main {
  p = f32[4] parameter(0)
  ROOT c = f32[] call(p), to_apply=outer
}
)");
  ASSERT_NE(m, nullptr);
  CallInliner inliner;
  EXPECT_TRUE(RunVerified(inliner, *m));
  // `add` is still applied by the inlined reduce.
  EXPECT_EQ(ComputationNames(*m), (std::vector<std::string>{"add", "main"}));
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[4]{0}) -> f32[] {
  %p = f32[4]{0} parameter(0)
  %e.1 = f32[4]{0} exponential(%p)
  %zero.1 = f32[] constant(0)
  ROOT %sum.1 = f32[] reduce(%e.1, %zero.1), dimensions={0}, to_apply=%add
})");
}

TEST(CallInlinerTest, CalleeWhoseRootIsAParameter) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m

second {
  a = f32[4] parameter(0)
  ROOT b = f32[4] parameter(1)
}

ENTRY main {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  ROOT c = f32[4] call(p, q), to_apply=second
}
)");
  ASSERT_NE(m, nullptr);
  CallInliner inliner;
  EXPECT_TRUE(RunVerified(inliner, *m));
  EXPECT_EQ(m->entry()->root()->name(), "q");
  EXPECT_EQ(m->entry()->instruction_count(), 2);
}

TEST(CallInlinerTest, LayoutDifferencesBecomeCopies) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m

callee {
  x = f32[2,3]{0,1} parameter(0)
  ROOT n = f32[2,3]{0,1} negate(x)
}

ENTRY main {
  p = f32[2,3]{1,0} parameter(0)
  ROOT c = f32[2,3]{1,0} call(p), to_apply=callee
}
)");
  ASSERT_NE(m, nullptr);
  CallInliner inliner;
  EXPECT_TRUE(RunVerified(inliner, *m));
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[2,3]{1,0}) -> f32[2,3]{1,0} {
  %p = f32[2,3]{1,0} parameter(0)
  %x.copy = f32[2,3]{0,1} copy(%p)
  %n.1 = f32[2,3]{0,1} negate(%x.copy)
  ROOT %c.copy = f32[2,3]{1,0} copy(%n.1)
})");
}

TEST(CallInlinerTest, KeepsACalleeAnotherOpcodeStillCalls) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m

body {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY main {
  p = f32[] parameter(0)
  v = f32[4] parameter(1)
  c = f32[] call(p, p), to_apply=body
  ROOT r = f32[] reduce(v, c), dimensions={0}, to_apply=body
}
)");
  ASSERT_NE(m, nullptr);
  CallInliner inliner;
  EXPECT_TRUE(RunVerified(inliner, *m));
  EXPECT_EQ(ComputationNames(*m), (std::vector<std::string>{"body", "main"}));
  const Instruction* root = m->entry()->root();
  EXPECT_EQ(root->opcode(), Opcode::kReduce);
  EXPECT_EQ(root->operand(1)->name(), "s.1");
  EXPECT_EQ(root->operand(1)->opcode(), Opcode::kAdd);
}

TEST(CallInlinerTest, NoChangeWithoutCalls) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m

unused {
  x = f32[] parameter(0)
  ROOT n = f32[] negate(x)
}

ENTRY main {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p)
}
)");
  ASSERT_NE(m, nullptr);
  const std::string before = PrintModule(*m);
  CallInliner inliner;
  // Computations nobody called before are dce's business, not the
  // inliner's.
  EXPECT_FALSE(RunVerified(inliner, *m));
  EXPECT_EQ(PrintModule(*m), before);
}

}  // namespace
}  // namespace aotc
