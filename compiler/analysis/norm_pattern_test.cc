// Tests of the norm matcher: the forms it recognises (RMSNorm, LayerNorm
// with a centred or a fast variance, an L2 normalisation; the square root
// as rsqrt, 1 / sqrt, a divide by sqrt or a power; the mean as a divide or
// a multiply; keep-dims reshapes; bf16 converts; a residual before and
// operations after) with the region it reads, and near misses it must not
// recognise (sums over another dimension, a statistic used outside,
// an expensive value feeding the sums, a maximum reducer, softmax).
#include "compiler/analysis/norm_pattern.h"

#include <algorithm>
#include <memory>
#include <string>

#include "compiler/analysis/norm_test_util.h"
#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/computation.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::NormForm;
using testing::NormHlo;

// The match at instruction `name` of the entry (its root when empty).
std::optional<NormPattern> MatchAt(const std::string& text,
                                   std::unique_ptr<Module>* keep,
                                   const std::string& name = "") {
  absl::StatusOr<std::unique_ptr<Module>> m = ParseHloText(text, "test.hlo");
  EXPECT_TRUE(m.ok()) << m.status() << "\n" << text;
  if (!m.ok()) return std::nullopt;
  *keep = std::move(*m);
  const Instruction* at = (*keep)->entry()->root();
  for (const auto& inst : (*keep)->entry()->instructions()) {
    if (inst->name() == name) at = inst.get();
  }
  return MatchNorm(*at);
}

bool Holds(const NormPattern& p, const std::string& name) {
  return std::any_of(p.members.begin(), p.members.end(),
                     [&](const Instruction* m) { return m->name() == name; });
}

std::vector<std::string> ReduceNames(const NormPattern& p) {
  std::vector<std::string> out;
  for (const Instruction* r : p.reduces) out.push_back(r->name());
  return out;
}

TEST(NormPatternTest, RmsNormWithItsScale) {
  NormForm f;
  f.rows = {2, 3};
  f.row = 16;
  std::unique_ptr<Module> m;
  std::optional<NormPattern> p = MatchAt(NormHlo(f), &m);
  ASSERT_TRUE(p.has_value()) << NormHlo(f);
  EXPECT_EQ(p->kind, NormPattern::kRmsNorm);
  EXPECT_EQ(p->Describe(), "rms_norm");
  EXPECT_EQ(p->first_row_dim, 2);
  EXPECT_EQ(p->rows, 6);
  EXPECT_EQ(p->row_length, 16);
  EXPECT_EQ(ReduceNames(*p), std::vector<std::string>({"ss.r"}));
  EXPECT_EQ(p->root->name(), "y.w");
  EXPECT_TRUE(Holds(*p, "w.b"));
  EXPECT_FALSE(Holds(*p, "w"));      // the scale vector is an input
  EXPECT_FALSE(Holds(*p, "x.in"));
}

TEST(NormPatternTest, LayerNormCentredReadsTheMeanFirst) {
  NormForm f;
  f.kind = NormForm::kLayerCentred;
  std::unique_ptr<Module> m;
  std::optional<NormPattern> p = MatchAt(NormHlo(f), &m);
  ASSERT_TRUE(p.has_value()) << NormHlo(f);
  EXPECT_EQ(p->Describe(), "layer_norm");
  EXPECT_EQ(ReduceNames(*p), std::vector<std::string>({"s.r", "ss.r"}));
  EXPECT_TRUE(Holds(*p, "bias.b"));
  EXPECT_EQ(p->root->name(), "y.b");
}

TEST(NormPatternTest, LayerNormWithTheFastVariance) {
  NormForm f;
  f.kind = NormForm::kLayerFast;
  f.keep_dims = true;
  std::unique_ptr<Module> m;
  std::optional<NormPattern> p = MatchAt(NormHlo(f), &m);
  ASSERT_TRUE(p.has_value()) << NormHlo(f);
  EXPECT_EQ(p->Describe(), "layer_norm");
  EXPECT_EQ(p->reduces.size(), 2u);
  EXPECT_TRUE(Holds(*p, "m2"));
}

TEST(NormPatternTest, EveryWayOfWritingTheSquareRoot) {
  for (NormForm::Root root : {NormForm::kRsqrt, NormForm::kOneOverSqrt,
                              NormForm::kDivideBySqrt, NormForm::kPower}) {
    for (NormForm::Kind kind : {NormForm::kRms, NormForm::kLayerCentred}) {
      NormForm f;
      f.root = root;
      f.kind = kind;
      f.mean_by_multiply = root == NormForm::kPower;
      f.keep_dims = root == NormForm::kOneOverSqrt;
      std::unique_ptr<Module> m;
      std::optional<NormPattern> p = MatchAt(NormHlo(f), &m);
      ASSERT_TRUE(p.has_value()) << NormHlo(f);
      EXPECT_EQ(p->kind, kind == NormForm::kRms ? NormPattern::kRmsNorm
                                                : NormPattern::kLayerNorm);
    }
  }
}

TEST(NormPatternTest, Bf16ConvertsResidualAndTheOperationsAfter) {
  NormForm f;
  f.bf16 = true;
  f.residual = true;
  f.after = true;
  std::unique_ptr<Module> m;
  std::optional<NormPattern> p = MatchAt(NormHlo(f), &m);
  ASSERT_TRUE(p.has_value()) << NormHlo(f);
  EXPECT_EQ(p->root->name(), "y.narrow");
  for (const char* name : {"x.wide", "x.res", "w.wide", "y.max"}) {
    EXPECT_TRUE(Holds(*p, name)) << name;
  }
  EXPECT_EQ(p->Describe(), "rms_norm");
}

TEST(NormPatternTest, AnUnaveragedSumOfSquaresIsAnL2Norm) {
  NormForm f;
  f.kind = NormForm::kL2;
  std::unique_ptr<Module> m;
  std::optional<NormPattern> p = MatchAt(NormHlo(f), &m);
  ASSERT_TRUE(p.has_value()) << NormHlo(f);
  EXPECT_EQ(p->Describe(), "l2_norm");
}

TEST(NormPatternTest, AnEarlierRootGivesTheSmallerRegion) {
  NormForm f;
  f.after = true;
  std::unique_ptr<Module> m;
  std::optional<NormPattern> p = MatchAt(NormHlo(f), &m, "y.w");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->root->name(), "y.w");
  EXPECT_FALSE(Holds(*p, "y.neg"));
}

TEST(NormPatternTest, NearMissesAreNotNorms) {
  std::unique_ptr<Module> m;
  NormForm columns;
  columns.sum_over_columns = true;
  EXPECT_FALSE(MatchAt(NormHlo(columns), &m).has_value()) << NormHlo(columns);
  NormForm max;
  max.max_reducer = true;
  EXPECT_FALSE(MatchAt(NormHlo(max), &m).has_value());
  NormForm exp;
  exp.exp_before = true;
  EXPECT_FALSE(MatchAt(NormHlo(exp), &m).has_value());
  // 1 / sqrt(v) is also an output: the region would have to write it, and
  // without it nothing normalises.
  NormForm stats;
  stats.stats_out = true;
  EXPECT_FALSE(MatchAt(NormHlo(stats), &m, "y.w").has_value());
}

// A module `name` with an f32 add computation `sum` and the entry `entry`.
std::string WithSum(const std::string& name, const std::string& entry) {
  return "HloModule " + name + R"(
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)" + entry;
}

TEST(NormPatternTest, SoftmaxAndAColumnBroadcastAreNotNorms) {
  // Softmax: sums over the row but no square root.
  const std::string softmax = WithSum("softmax", R"(ENTRY main {
  x = f32[4,8] parameter(0)
  e = f32[4,8] exponential(x)
  zero = f32[] constant(0)
  s = f32[4] reduce(e, zero), dimensions={1}, to_apply=sum
  s.b = f32[4,8] broadcast(s), dimensions={0}
  ROOT p = f32[4,8] divide(e, s.b)
})");
  std::unique_ptr<Module> m;
  EXPECT_FALSE(MatchAt(softmax, &m).has_value());
  // Square rows, the row statistic broadcast along the columns: each
  // element would read another row's value.
  const std::string crossed = WithSum("crossed", R"(ENTRY main {
  x = f32[8,8] parameter(0)
  sq = f32[8,8] multiply(x, x)
  zero = f32[] constant(0)
  ss = f32[8] reduce(sq, zero), dimensions={1}, to_apply=sum
  inv = f32[8] rsqrt(ss)
  inv.b = f32[8,8] broadcast(inv), dimensions={1}
  ROOT y = f32[8,8] multiply(x, inv.b)
})");
  EXPECT_FALSE(MatchAt(crossed, &m).has_value());
  // The square is also read outside, so the region only sees its value:
  // in the fused computation it would be a parameter, not a square.
  const std::string shared = WithSum("shared", R"(ENTRY main {
  x = f32[4,8] parameter(0)
  sq = f32[4,8] multiply(x, x)
  zero = f32[] constant(0)
  ss = f32[4] reduce(sq, zero), dimensions={1}, to_apply=sum
  inv = f32[4] rsqrt(ss)
  inv.b = f32[4,8] broadcast(inv), dimensions={0}
  y = f32[4,8] multiply(x, inv.b)
  ROOT t = (f32[4,8], f32[4,8]) tuple(y, sq)
})");
  EXPECT_FALSE(MatchAt(shared, &m, "y").has_value());
}

}  // namespace
}  // namespace aotc
