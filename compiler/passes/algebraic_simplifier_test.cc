// Tests of the algebraic simplifier: each rule firing (exact printed result
// or root structure) and each rule refusing where it would change a value,
// a shape or a layout.
#include "compiler/passes/algebraic_simplifier.h"

#include <string>

#include "compiler/passes/pass_test_util.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ParseVerified;
using testing::RunVerified;

// Runs the simplifier on `text`, expecting `changed`; returns the module.
std::unique_ptr<Module> Simplify(std::string_view text, bool changed) {
  std::unique_ptr<Module> m = ParseVerified(text);
  if (m == nullptr) return nullptr;
  AlgebraicSimplifier simplifier;
  EXPECT_EQ(RunVerified(simplifier, *m), changed);
  return m;
}

// Runs the simplifier on `text` and expects no change at all.
void ExpectUnchanged(std::string_view text) {
  std::unique_ptr<Module> m = ParseVerified(text);
  ASSERT_NE(m, nullptr);
  const std::string before = PrintModule(*m);
  AlgebraicSimplifier simplifier;
  EXPECT_FALSE(RunVerified(simplifier, *m));
  EXPECT_EQ(PrintModule(*m), before);
}

TEST(AlgebraicSimplifierTest, IntegerIdentitiesWithBroadcastConstants) {
  std::unique_ptr<Module> m = Simplify(R"(
HloModule m

ENTRY main {
  p = s32[4] parameter(0)
  one = s32[] constant(1)
  zero = s32[] constant(0)
  ones = s32[4] broadcast(one), dimensions={}
  zeros = s32[4] broadcast(zero), dimensions={}
  a = s32[4] multiply(p, ones)
  b = s32[4] multiply(ones, a)
  c = s32[4] add(b, zeros)
  d = s32[4] add(zeros, c)
  ROOT e = s32[4] subtract(d, zeros)
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: s32[4]{0}) -> s32[4]{0} {
  ROOT %p = s32[4]{0} parameter(0)
})");
}

TEST(AlgebraicSimplifierTest, FloatIdentitiesThatHoldForEveryValue) {
  std::unique_ptr<Module> m = Simplify(R"(
HloModule m

ENTRY main {
  p = f32[3] parameter(0)
  q = f32[] parameter(1)
  ones = f32[3] constant({1, 1, 1})
  one = f32[] constant(1)
  nz = f32[] constant(-0)
  z = f32[] constant(0)
  a = f32[3] multiply(ones, p)
  b = f32[] multiply(q, one)
  c = f32[] add(nz, b)
  d = f32[] subtract(c, z)
  ROOT t = (f32[3], f32[]) tuple(a, d)
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[3]{0}, q: f32[]) -> (f32[3]{0}, f32[]) {
  %p = f32[3]{0} parameter(0)
  %q = f32[] parameter(1)
  ROOT %t = (f32[3]{0}, f32[]) tuple(%p, %q)
})");
}

TEST(AlgebraicSimplifierTest, FloatIdentitiesThatFailForSomeValuesStay) {
  // -0.0 + 0.0 is +0.0 and -0.0 - (-0.0) is +0.0; (a+bi) * 1 is NaN when b
  // is infinite; 2 is not 1; a constant with one element 2 is not all ones.
  ExpectUnchanged(R"(
HloModule m

ENTRY main {
  p = f32[] parameter(0)
  k = c64[] parameter(1)
  v = f32[3] parameter(2)
  z = f32[] constant(0)
  nz = f32[] constant(-0)
  two = f32[] constant(2)
  mixed = f32[3] constant({1, 2, 1})
  cone = c64[] constant((1, 0))
  a = f32[] add(p, z)
  b = f32[] add(z, p)
  c = f32[] subtract(p, nz)
  d = c64[] multiply(k, cone)
  e = f32[] multiply(p, two)
  f = f32[3] multiply(v, mixed)
  ROOT t = (f32[], f32[], f32[], c64[], f32[], f32[3]) tuple(a, b, c, d, e, f)
}
)");
}

TEST(AlgebraicSimplifierTest, DoubleNegation) {
  std::unique_ptr<Module> m = Simplify(R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  n1 = f32[4] negate(p)
  n2 = f32[4] negate(n1)
  ROOT r = f32[4] add(n2, n1)
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[4]{0}) -> f32[4]{0} {
  %p = f32[4]{0} parameter(0)
  %n1 = f32[4]{0} negate(%p)
  ROOT %r = f32[4]{0} add(%p, %n1)
})");
}

TEST(AlgebraicSimplifierTest, ReshapeOfReshapeBecomesOneReshape) {
  std::unique_ptr<Module> m = Simplify(R"(
HloModule m

ENTRY main {
  p = f32[2,3] parameter(0)
  r1 = f32[6] reshape(p)
  ROOT r2 = f32[3,2] reshape(r1)
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[2,3]{1,0}) -> f32[3,2]{1,0} {
  %p = f32[2,3]{1,0} parameter(0)
  ROOT %r2 = f32[3,2]{1,0} reshape(%p)
})");
}

TEST(AlgebraicSimplifierTest, ReshapeChainBackToTheSameShapeDisappears) {
  std::unique_ptr<Module> m = Simplify(R"(
HloModule m

ENTRY main {
  p = f32[2,3] parameter(0)
  r1 = f32[6] reshape(p)
  r2 = f32[3,2] reshape(r1)
  r3 = f32[2,3] reshape(r2)
  ROOT n = f32[2,3] negate(r3)
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  const Instruction* root = m->entry()->root();
  EXPECT_EQ(root->name(), "n");
  EXPECT_EQ(root->operand(0)->name(), "p");
  EXPECT_EQ(m->entry()->instruction_count(), 2);
}

TEST(AlgebraicSimplifierTest, ReshapeThatChangesTheLayoutStays) {
  ExpectUnchanged(R"(
HloModule m

ENTRY main {
  p = f32[2,3]{1,0} parameter(0)
  ROOT r = f32[2,3]{0,1} reshape(p)
}
)");
}

TEST(AlgebraicSimplifierTest, TransposesCompose) {
  // t1 = x with dims (1,2,0): [3,4,2]; t2 = t1 with dims (1,2,0): [4,2,3],
  // i.e. x's dims (2,0,1).
  std::unique_ptr<Module> m = Simplify(R"(
HloModule m

ENTRY main {
  p = f32[2,3,4] parameter(0)
  t1 = f32[3,4,2] transpose(p), dimensions={1,2,0}
  ROOT t2 = f32[4,2,3] transpose(t1), dimensions={1,2,0}
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[2,3,4]{2,1,0}) -> f32[4,2,3]{2,1,0} {
  %p = f32[2,3,4]{2,1,0} parameter(0)
  ROOT %t2 = f32[4,2,3]{2,1,0} transpose(%p), dimensions={2,0,1}
})");
}

TEST(AlgebraicSimplifierTest, TransposeBackAndForthDisappears) {
  std::unique_ptr<Module> m = Simplify(R"(
HloModule m

ENTRY main {
  p = f32[2,3] parameter(0)
  t1 = f32[3,2] transpose(p), dimensions={1,0}
  ROOT t2 = f32[2,3] transpose(t1), dimensions={1,0}
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->root()->name(), "p");
  EXPECT_EQ(m->entry()->instruction_count(), 1);
}

TEST(AlgebraicSimplifierTest, IdentityTransposeThatChangesTheLayoutStays) {
  ExpectUnchanged(R"(
HloModule m

ENTRY main {
  p = f32[2,3]{1,0} parameter(0)
  ROOT t = f32[2,3]{0,1} transpose(p), dimensions={0,1}
}
)");
}

TEST(AlgebraicSimplifierTest, TransposesFoldIntoDotDimensionNumbers) {
  // The logits product of a tied embedding: e[V,D] transposed for
  // h[1,D] x e^T[D,V]. And a batched product whose lhs transpose moves a
  // batch and a contracting dimension: t[b,m,k] = a's dims (2,0,1) of
  // a[m,k,b], so batch 0 -> 2, contracting 2 -> 1, free m stays.
  std::unique_ptr<Module> m = Simplify(R"(
HloModule m

ENTRY main {
  h = f32[1,8] parameter(0)
  e = f32[16,8] parameter(1)
  et = f32[8,16]{0,1} transpose(e), dimensions={1,0}
  logits = f32[1,16] dot(h, et), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  a = f32[3,4,2] parameter(2)
  t = f32[2,3,4] transpose(a), dimensions={2,0,1}
  w = f32[2,4,5] parameter(3)
  batched = f32[2,3,5] dot(t, w), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
  ROOT r = (f32[1,16], f32[2,3,5]) tuple(logits, batched)
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (h: f32[1,8]{1,0}, e: f32[16,8]{1,0}, a: f32[3,4,2]{2,1,0}, w: f32[2,4,5]{2,1,0}) -> (f32[1,16]{1,0}, f32[2,3,5]{2,1,0}) {
  %h = f32[1,8]{1,0} parameter(0)
  %e = f32[16,8]{1,0} parameter(1)
  %logits = f32[1,16]{1,0} dot(%h, %e), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  %a = f32[3,4,2]{2,1,0} parameter(2)
  %w = f32[2,4,5]{2,1,0} parameter(3)
  %batched = f32[2,3,5]{2,1,0} dot(%a, %w), lhs_batch_dims={2}, lhs_contracting_dims={1}, rhs_batch_dims={0}, rhs_contracting_dims={1}
  ROOT %r = (f32[1,16]{1,0}, f32[2,3,5]{2,1,0}) tuple(%logits, %batched)
})");
}

TEST(AlgebraicSimplifierTest, TransposeThatReordersADotsFreeDimensionsStays) {
  // t's free dimensions 0 and 1 are a's 1 and 0: reading a directly would
  // swap the result's first two dimensions.
  ExpectUnchanged(R"(
HloModule m

ENTRY main {
  a = f32[3,2,4] parameter(0)
  t = f32[2,3,4] transpose(a), dimensions={1,0,2}
  w = f32[4,5] parameter(1)
  ROOT d = f32[2,3,5] dot(t, w), lhs_contracting_dims={2}, rhs_contracting_dims={0}
}
)");
}

TEST(AlgebraicSimplifierTest, BroadcastsCompose) {
  // p's dimension 0 lands on b1's 1, which lands on b2's 1.
  std::unique_ptr<Module> m = Simplify(R"(
HloModule m

ENTRY main {
  p = f32[3] parameter(0)
  b1 = f32[2,3] broadcast(p), dimensions={1}
  ROOT b2 = f32[2,3,4] broadcast(b1), dimensions={0,1}
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[3]{0}) -> f32[2,3,4]{2,1,0} {
  %p = f32[3]{0} parameter(0)
  ROOT %b2 = f32[2,3,4]{2,1,0} broadcast(%p), dimensions={1}
})");
}

TEST(AlgebraicSimplifierTest, SameShapeConvertBroadcastAndSliceDisappear) {
  std::unique_ptr<Module> m = Simplify(R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  c = f32[4] convert(p)
  b = f32[4] broadcast(c), dimensions={0}
  s = f32[4] slice(b), slice={[0:4]}
  ROOT n = f32[4] negate(s)
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->entry()),
            R"(ENTRY %main (p: f32[4]{0}) -> f32[4]{0} {
  %p = f32[4]{0} parameter(0)
  ROOT %n = f32[4]{0} negate(%p)
})");
}

TEST(AlgebraicSimplifierTest, ConvertsAndSlicesThatDoSomethingStay) {
  ExpectUnchanged(R"(
HloModule m

ENTRY main {
  p = f32[2,3]{1,0} parameter(0)
  v = f32[4] parameter(1)
  c = f32[2,3]{0,1} convert(p)
  i = s32[2,3] convert(p)
  s = f32[2] slice(v), slice={[0:4:2]}
  u = f32[3] slice(v), slice={[1:4]}
  ROOT t = (f32[2,3]{0,1}, s32[2,3], f32[2], f32[3]) tuple(c, i, s, u)
}
)");
}

TEST(AlgebraicSimplifierTest, NeverChangesTheRootLayout) {
  // add(p, 0) is p in value, but p's layout is not the root's.
  ExpectUnchanged(R"(
HloModule m

ENTRY main {
  p = s32[2,3]{0,1} parameter(0)
  zero = s32[] constant(0)
  zeros = s32[2,3]{1,0} broadcast(zero), dimensions={}
  ROOT a = s32[2,3]{1,0} add(p, zeros)
}
)");
}

TEST(AlgebraicSimplifierTest, WorksInFusedComputations) {
  std::unique_ptr<Module> m = Simplify(R"(
HloModule m

fused {
  x = f32[4] parameter(0)
  one = f32[] constant(1)
  ones = f32[4] broadcast(one), dimensions={}
  m = f32[4] multiply(x, ones)
  ROOT e = f32[4] exponential(m)
}

ENTRY main {
  p = f32[4] parameter(0)
  ROOT f = f32[4] fusion(p), kind=kLoop, calls=fused
}
)",
                                       true);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintComputation(*m->FindComputation("fused")),
            R"(%fused (x: f32[4]{0}) -> f32[4]{0} {
  %x = f32[4]{0} parameter(0)
  ROOT %e = f32[4]{0} exponential(%x)
})");
}

TEST(AlgebraicSimplifierTest, NoChangeOnASimplifiedModule) {
  ExpectUnchanged(R"(
HloModule m

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  p = f32[2,3] parameter(0)
  t = f32[3,2] transpose(p), dimensions={1,0}
  r = f32[6] reshape(t)
  n = f32[6] negate(r)
  zero = f32[] constant(0)
  ROOT sum = f32[] reduce(n, zero), dimensions={0}, to_apply=add
}
)");
}

}  // namespace
}  // namespace aotc
