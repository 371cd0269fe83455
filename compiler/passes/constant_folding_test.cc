// Tests of constant folding: chains, called reducers, folding inside called
// computations, the size limit, and what is never folded (parameters of
// reducers, expanding broadcasts, iota, random draws).
#include "compiler/passes/constant_folding.h"

#include <string>

#include "compiler/passes/pass_test_util.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ParseVerified;
using testing::RunVerified;

// Runs constant folding on `text`, expecting `changed`; returns the module.
std::unique_ptr<Module> Fold(std::string_view text, bool changed) {
  std::unique_ptr<Module> m = ParseVerified(text);
  if (m == nullptr) return nullptr;
  ConstantFolding folding;
  EXPECT_EQ(RunVerified(folding, *m), changed);
  return m;
}

void ExpectUnchanged(std::string_view text) {
  std::unique_ptr<Module> m = ParseVerified(text);
  ASSERT_NE(m, nullptr);
  const std::string before = PrintModule(*m);
  ConstantFolding folding;
  EXPECT_FALSE(RunVerified(folding, *m));
  EXPECT_EQ(PrintModule(*m), before);
}

// "{v, v, ..., v}" with `n` elements.
std::string Repeated(int n, std::string_view v) {
  std::string out = "{";
  for (int i = 0; i < n; ++i) {
    if (i > 0) out += ", ";
    out += v;
  }
  return out + "}";
}

TEST(ConstantFoldingTest, FoldsAChainAndKeepsTheName) {
  // (2 + 3) * 3 = 15.
  std::unique_ptr<Module> m = Fold(R"(
HloModule m

ENTRY main {
  p = f32[] parameter(0)
  c1 = f32[] constant(2)
  c2 = f32[] constant(3)
  a = f32[] add(c1, c2)
  m = f32[] multiply(a, c2)
  ROOT r = f32[] add(p, m)
}
)",
                                   true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[]) -> f32[] {
  %p = f32[] parameter(0)
  %m = f32[] constant(15)
  ROOT %r = f32[] add(%p, %m)
})");
}

TEST(ConstantFoldingTest, FoldsArraysAndReductions) {
  // reverse({1, 2, 3}) = {3, 2, 1}; 1 + 2 + 3 + 4 = 10.
  std::unique_ptr<Module> m = Fold(R"(
HloModule m

add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}

ENTRY main {
  v = s32[3] constant({1, 2, 3})
  rev = s32[3] reverse(v), dimensions={0}
  w = s32[4] constant({1, 2, 3, 4})
  zero = s32[] constant(0)
  sum = s32[] reduce(w, zero), dimensions={0}, to_apply=add
  ROOT t = (s32[3], s32[]) tuple(rev, sum)
}
)",
                                   true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main () -> (s32[3]{0}, s32[]) {
  %rev = s32[3]{0} constant({3, 2, 1})
  %sum = s32[] constant(10)
  ROOT %t = (s32[3]{0}, s32[]) tuple(%rev, %sum)
})");
}

TEST(ConstantFoldingTest, FoldsInsideReducersButNotTheirParameters) {
  std::unique_ptr<Module> m = Fold(R"(
HloModule m

add_scaled {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  two = f32[] constant(2)
  half = f32[] constant(0.5)
  one = f32[] multiply(two, half)
  scaled = f32[] multiply(b, one)
  ROOT s = f32[] add(a, scaled)
}

ENTRY main {
  p = f32[4] parameter(0)
  zero = f32[] constant(0)
  ROOT sum = f32[] reduce(p, zero), dimensions={0}, to_apply=add_scaled
}
)",
                                   true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->FindComputation("add_scaled")),
            R"(%add_scaled (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  %one = f32[] constant(1)
  %scaled = f32[] multiply(%b, %one)
  ROOT %s = f32[] add(%a, %scaled)
})");
}

TEST(ConstantFoldingTest, ResultSizeLimit) {
  // 1024 elements is the largest folded result; 2048 stays computed.
  const std::string text =
      "HloModule m\n\nENTRY main {\n  small = f32[1024] constant(" +
      Repeated(1024, "1") + ")\n  big = f32[2048] constant(" +
      Repeated(2048, "1") +
      ")\n  ns = f32[1024] negate(small)\n"
      "  nb = f32[2048] negate(big)\n"
      "  ROOT t = (f32[1024], f32[2048]) tuple(ns, nb)\n}\n";
  std::unique_ptr<Module> m = Fold(text, true);
  ASSERT_NE(m, nullptr);
  const Instruction* root = m->entry()->root();
  EXPECT_EQ(root->operand(0)->name(), "ns");
  EXPECT_EQ(root->operand(0)->opcode(), Opcode::kConstant);
  EXPECT_EQ(root->operand(0)->literal().data<float>()[1023], -1.0f);
  EXPECT_EQ(root->operand(1)->name(), "nb");
  EXPECT_EQ(root->operand(1)->opcode(), Opcode::kNegate);
  EXPECT_EQ(root->operand(1)->operand(0)->name(), "big");
}

TEST(ConstantFoldingTest, KeepsExpandingBroadcastsIotaAndRandomDraws) {
  ExpectUnchanged(R"(
HloModule m

ENTRY main {
  c = f32[] constant(1)
  b = f32[8] broadcast(c), dimensions={}
  i = s32[8] iota(), iota_dimension=0
  lo = f32[] constant(0)
  r = f32[8] rng(lo, c), distribution=rng_uniform
  ROOT t = (f32[8], s32[8], f32[8]) tuple(b, i, r)
}
)");
}

// Loop computations: counting up to 10 (below_ten, increment), and two
// loops that never end (forever with increment or with stay).
constexpr char kLoopComputations[] = R"(
HloModule m

below_ten {
  x = s32[] parameter(0)
  ten = s32[] constant(10)
  ROOT lt = pred[] compare(x, ten), direction=LT
}

forever {
  y = s32[] parameter(0)
  ROOT yes = pred[] constant(true)
}

stay {
  z = s32[] parameter(0)
  zero = s32[] constant(0)
  ROOT same = s32[] add(z, zero)
}

increment {
  z = s32[] parameter(0)
  one = s32[] constant(1)
  ROOT next = s32[] add(z, one)
}
)";

TEST(ConstantFoldingTest, FoldsAFiniteLoopAndLeavesAnEndlessOneAlone) {
  // Counting from 0 while below 10 ends at 10. The second loop never ends:
  // its fold runs out of budget and the loop stays. The new constant is
  // appended, then placed just before its first user.
  std::unique_ptr<Module> m = Fold(std::string(kLoopComputations) + R"(
ENTRY main {
  zero = s32[] constant(0)
  finite = s32[] while(zero), condition=below_ten, body=increment
  endless = s32[] while(zero), condition=forever, body=increment
  ROOT t = (s32[], s32[]) tuple(finite, endless)
}
)",
                                   true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main () -> (s32[], s32[]) {
  %zero = s32[] constant(0)
  %endless = s32[] while(%zero), condition=%forever, body=%increment
  %finite = s32[] constant(10)
  ROOT %t = (s32[], s32[]) tuple(%finite, %endless)
})");
}

// `endless` loops that never end, then one that ends at 10, all from
// constants; the root tuples them so that nothing is dead.
std::string EndlessLoopsThenAFiniteOne(int endless) {
  std::string text = std::string(kLoopComputations) + R"(
ENTRY main {
  zero = s32[] constant(0)
)";
  std::string types;
  std::string operands;
  for (int i = 0; i < endless; ++i) {
    const std::string name = "e" + std::to_string(i);
    text += "  " + name + " = s32[] while(zero), condition=forever, body=stay\n";
    types += "s32[], ";
    operands += name + ", ";
  }
  text += "  finite = s32[] while(zero), condition=below_ten, body=increment\n";
  text += "  ROOT t = (" + types + "s32[]) tuple(" + operands + "finite)\n}\n";
  return text;
}

TEST(ConstantFoldingTest, EndlessLoopsShareOneStepBudget) {
  // One run of the pass may evaluate 65536 instructions beyond the folded
  // ones' own, and one fold 4096 of them: each endless loop stops at 4096.
  // Fifteen leave enough for the finite loop after them (about 60), which
  // folds; sixteen use it all, and the finite loop stays a loop as well.
  for (int endless : {15, 16}) {
    SCOPED_TRACE(endless);
    std::unique_ptr<Module> m =
        Fold(EndlessLoopsThenAFiniteOne(endless), endless == 15);
    ASSERT_NE(m, nullptr);
    const std::string printed = PrintComputation(*m->entry());
    EXPECT_EQ(printed.find("%finite = s32[] constant(10)") != std::string::npos,
              endless == 15)
        << printed;
    EXPECT_NE(printed.find("%e0 = s32[] while("), std::string::npos);
  }
}

TEST(ConstantFoldingTest, NoChangeOnAFoldedModule) {
  ExpectUnchanged(R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  c = f32[] constant(15)
  b = f32[4] broadcast(c), dimensions={}
  ROOT r = f32[4] add(p, b)
}
)");
}

}  // namespace
}  // namespace aotc
