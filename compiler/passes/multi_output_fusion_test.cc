// Tests of multi-output fusion: the layernorm pair of sums merges, and so
// does softmax's exp with the sum that reduces it; different loops,
// dependent reductions, reductions of unrelated inputs, producers the
// reduce alone reads, non-element-wise producers and reduces inside input
// fusions do not.
#include "compiler/passes/multi_output_fusion.h"

#include <cmath>
#include <set>
#include <string>

#include "compiler/evaluator/evaluator.h"
#include "compiler/passes/fusion.h"
#include "compiler/passes/pass_test_util.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ParseVerified;
using testing::RunVerified;

constexpr char kAdd[] = R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)";

// Runs fusion then multi-output fusion; returns whether the latter changed
// anything.
bool FuseBoth(Module& m) {
  FusionPass fusion;
  RunVerified(fusion, m);
  MultiOutputFusion multi;
  return RunVerified(multi, m);
}

TEST(MultiOutputFusionTest, SumAndSumOfSquaresShareOnePass) {
  std::unique_ptr<Module> m = ParseVerified(std::string(kAdd) + R"(
ENTRY e {
  x = f32[8,16] parameter(0)
  z = f32[] constant(0)
  s = f32[8] reduce(x, z), dimensions={1}, to_apply=add
  sq = f32[8,16] multiply(x, x)
  s2 = f32[8] reduce(sq, z), dimensions={1}, to_apply=add
  ROOT t = (f32[8], f32[8]) tuple(s, s2)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(FuseBoth(*m));
  // x -> one fusion with two results -> two get-tuple-elements -> tuple.
  const Instruction* root = m->entry()->root();
  ASSERT_EQ(root->opcode(), Opcode::kTuple);
  const Instruction* g0 = root->operand(0);
  const Instruction* g1 = root->operand(1);
  ASSERT_EQ(g0->opcode(), Opcode::kGetTupleElement);
  ASSERT_EQ(g1->opcode(), Opcode::kGetTupleElement);
  EXPECT_EQ(g0->operand(0), g1->operand(0));
  const Instruction* fusion = g0->operand(0);
  ASSERT_EQ(fusion->opcode(), Opcode::kFusion);
  EXPECT_EQ(fusion->attrs().fusion_kind, FusionKind::kInput);
  ASSERT_EQ(fusion->operand_count(), 1);
  EXPECT_EQ(fusion->operand(0)->name(), "x");
  EXPECT_EQ(m->entry()->instruction_count(), 5);
  // Row sums of x[i,j] = i + j / 16 over j < 16: 16 i + 7.5; of squares:
  // 16 i^2 + 2 i * 7.5 + sum (j/16)^2 = 16 i^2 + 15 i + 1240 / 256.
  Literal x(Shape::Array(PrimitiveType::kF32, {8, 16}));
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 16; ++j) x.Set<float>(i * 16 + j, i + j / 16.0f);
  }
  absl::StatusOr<Literal> r = EvaluateModule(*m, {x});
  ASSERT_TRUE(r.ok()) << r.status();
  for (int i = 0; i < 8; ++i) {
    EXPECT_FLOAT_EQ(r->tuple_elements()[0].Get<float>(i), 16 * i + 7.5f);
    EXPECT_FLOAT_EQ(r->tuple_elements()[1].Get<float>(i),
                    16 * i * i + 15 * i + 1240 / 256.0f);
  }
}

TEST(MultiOutputFusionTest, LayerNormSumsStayRootsAndShareOnePass) {
  // mean = sum(x) / n and var = sum(x * x) / n - mean^2: without the
  // sibling rule each sum would fuse into its division, and the variance's
  // group would read the mean's (a dependency that forbids merging).
  std::unique_ptr<Module> m = ParseVerified(std::string(kAdd) + R"(
ENTRY e {
  x = f32[8,16] parameter(0)
  z = f32[] constant(0)
  sum = f32[8] reduce(x, z), dimensions={1}, to_apply=add
  n = f32[] constant(16)
  nb = f32[8] broadcast(n), dimensions={}
  mean = f32[8] divide(sum, nb)
  xx = f32[8,16] multiply(x, x)
  sumsq = f32[8] reduce(xx, z), dimensions={1}, to_apply=add
  meansq = f32[8] divide(sumsq, nb)
  m2 = f32[8] multiply(mean, mean)
  ROOT var = f32[8] subtract(meansq, m2)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(FuseBoth(*m));
  // The only instruction reading x is one fusion computing both sums.
  const Instruction* x = m->entry()->parameter(0);
  ASSERT_EQ(x->users().size(), 1u);
  const Instruction* fusion = x->users()[0];
  ASSERT_EQ(fusion->opcode(), Opcode::kFusion);
  EXPECT_TRUE(fusion->shape().IsTuple());
  std::set<std::string> names;
  for (const auto& f : fusion->fused_computation()->instructions()) {
    names.insert(f->name());
  }
  EXPECT_TRUE(names.count("sum") && names.count("sumsq") && names.count("xx"));
  EXPECT_FALSE(names.count("mean") || names.count("meansq"));
}

TEST(MultiOutputFusionTest, DifferentReducedDimensionsDoNotMerge) {
  std::unique_ptr<Module> m = ParseVerified(std::string(kAdd) + R"(
ENTRY e {
  x = f32[16,16] parameter(0)
  z = f32[] constant(0)
  rows = f32[16] reduce(x, z), dimensions={1}, to_apply=add
  cols = f32[16] reduce(x, z), dimensions={0}, to_apply=add
  ROOT t = (f32[16], f32[16]) tuple(rows, cols)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(FuseBoth(*m));
}

TEST(MultiOutputFusionTest, DependentReductionsDoNotMerge) {
  // The variance reads the mean: merging would make a cycle.
  std::unique_ptr<Module> m = ParseVerified(std::string(kAdd) + R"(
ENTRY e {
  x = f32[8,16] parameter(0)
  z = f32[] constant(0)
  s = f32[8] reduce(x, z), dimensions={1}, to_apply=add
  b = f32[8,16] broadcast(s), dimensions={0}
  d = f32[8,16] subtract(x, b)
  sq = f32[8,16] multiply(d, d)
  v = f32[8] reduce(sq, z), dimensions={1}, to_apply=add
  ROOT t = (f32[8], f32[8]) tuple(s, v)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(FuseBoth(*m));
}

TEST(MultiOutputFusionTest, ReductionsOfDifferentInputsDoNotMerge) {
  std::unique_ptr<Module> m = ParseVerified(std::string(kAdd) + R"(
ENTRY e {
  x = f32[8,16] parameter(0)
  y = f32[8,16] parameter(1)
  z = f32[] constant(0)
  s = f32[8] reduce(x, z), dimensions={1}, to_apply=add
  s2 = f32[8] reduce(y, z), dimensions={1}, to_apply=add
  ROOT t = (f32[8], f32[8]) tuple(s, s2)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(FuseBoth(*m));
}

TEST(MultiOutputFusionTest, ReduceWritesTheExpensiveValueItReduces) {
  // exp(x) is read by its row sum and by the division: fusion will not
  // compute it twice, so the sum's loop computes it once and writes it as
  // a second output.
  std::unique_ptr<Module> m = ParseVerified(std::string(kAdd) + R"(
ENTRY e {
  x = f32[4,8] parameter(0)
  ex = f32[4,8] exponential(x)
  z = f32[] constant(0)
  s = f32[4] reduce(ex, z), dimensions={1}, to_apply=add
  sb = f32[4,8] broadcast(s), dimensions={0}
  ROOT y = f32[4,8] divide(ex, sb)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(FuseBoth(*m));
  // x -> fusion(exp, sum) -> two get-tuple-elements -> the division.
  const Instruction* x = m->entry()->parameter(0);
  ASSERT_EQ(x->users().size(), 1u);
  const Instruction* fusion = x->users()[0];
  ASSERT_EQ(fusion->opcode(), Opcode::kFusion);
  ASSERT_TRUE(fusion->shape().IsTuple());
  EXPECT_EQ(fusion->shape().ToString(false), "(f32[4,8], f32[4])");
  const Instruction* root = fusion->fused_computation()->root();
  ASSERT_EQ(root->opcode(), Opcode::kTuple);
  EXPECT_EQ(root->operand(0)->opcode(), Opcode::kExp);
  EXPECT_EQ(root->operand(1)->opcode(), Opcode::kReduce);
  EXPECT_EQ(root->operand(1)->operand(0), root->operand(0));
  // exp(x[i,j]) / sum_j exp(x[i,j]) with x[i,j] = (i - j) / 4, in double.
  Literal in(Shape::Array(PrimitiveType::kF32, {4, 8}));
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 8; ++j) in.Set<float>(i * 8 + j, (i - j) / 4.0f);
  }
  absl::StatusOr<Literal> r = EvaluateModule(*m, {in});
  ASSERT_TRUE(r.ok()) << r.status();
  for (int i = 0; i < 4; ++i) {
    double sum = 0;
    for (int j = 0; j < 8; ++j) sum += std::exp((i - j) / 4.0);
    for (int j = 0; j < 8; ++j) {
      EXPECT_NEAR(r->Get<float>(i * 8 + j), std::exp((i - j) / 4.0) / sum, 1e-6);
    }
  }
}

TEST(MultiOutputFusionTest, ValueOnlyTheReduceReadsIsFusedInstead) {
  // The reduce is exp's only user: input fusion puts exp inside it, and no
  // second output is needed.
  std::unique_ptr<Module> m = ParseVerified(std::string(kAdd) + R"(
ENTRY e {
  x = f32[4,8] parameter(0)
  ex = f32[4,8] exponential(x)
  z = f32[] constant(0)
  ROOT s = f32[4] reduce(ex, z), dimensions={1}, to_apply=add
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(FuseBoth(*m));
  EXPECT_FALSE(m->entry()->root()->shape().IsTuple());
}

TEST(MultiOutputFusionTest, DotIsNotWrittenByTheLoopOfItsReduce) {
  // A dot is no element-wise producer: its elements each need a row and a
  // column, not one element of the reduce's loop.
  std::unique_ptr<Module> m = ParseVerified(std::string(kAdd) + R"(
ENTRY e {
  a = f32[4,8] parameter(0)
  b = f32[8,8] parameter(1)
  d = f32[4,8] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  z = f32[] constant(0)
  s = f32[4] reduce(d, z), dimensions={1}, to_apply=add
  ROOT t = (f32[4,8], f32[4]) tuple(d, s)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(FuseBoth(*m));
}

TEST(MultiOutputFusionTest, ReduceInsideAnInputFusionIsNotMerged) {
  // The sum reads 2 * exp(x) through an input fusion; only a plain reduce
  // of the value takes it as a second output.
  std::unique_ptr<Module> m = ParseVerified(std::string(kAdd) + R"(
ENTRY e {
  x = f32[4,8] parameter(0)
  ex = f32[4,8] exponential(x)
  two = f32[] constant(2)
  tb = f32[4,8] broadcast(two), dimensions={}
  t = f32[4,8] multiply(ex, tb)
  z = f32[] constant(0)
  s = f32[4] reduce(t, z), dimensions={1}, to_apply=add
  ROOT r = (f32[4,8], f32[4]) tuple(ex, s)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(FuseBoth(*m));
}

}  // namespace
}  // namespace aotc
