// Tests of the attention matcher: the forms it recognises (scale as a
// multiply or a divide, normalised by a divide or by a reciprocal, causal
// masks, bf16 with its converts, JAX's reshapes and transposes around
// grouped-query heads) with the roles and rounding it reads, and near
// misses that must not be recognised (a sum over another axis than the max,
// a scale that is not a constant, a mask that is not causal, a second
// product over the queries).
#include "compiler/analysis/attention_pattern.h"

#include <memory>
#include <string>

#include "compiler/analysis/attention_test_util.h"
#include "compiler/frontend/text/hlo_parser.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::AttentionForm;
using testing::AttentionHlo;

std::unique_ptr<Module> Parse(const std::string& text) {
  absl::StatusOr<std::unique_ptr<Module>> m = ParseHloText(text, "test.hlo");
  EXPECT_TRUE(m.ok()) << m.status() << "\n" << text;
  return m.ok() ? std::move(*m) : nullptr;
}

std::optional<AttentionPattern> MatchRoot(const std::string& text,
                                          std::unique_ptr<Module>* keep) {
  *keep = Parse(text);
  if (*keep == nullptr) return std::nullopt;
  return MatchAttention(*(*keep)->entry()->root());
}

TEST(AttentionPatternTest, ReadsRolesScaleAndRounding) {
  AttentionForm f;
  f.heads = 3;
  f.queries = 5;
  f.keys = 7;
  f.head = 4;
  f.value = 6;
  std::unique_ptr<Module> m;
  std::optional<AttentionPattern> a = MatchRoot(AttentionHlo(f), &m);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->batch, std::vector<int64_t>({3}));
  EXPECT_EQ(a->rows, std::vector<int64_t>({5}));
  EXPECT_EQ(a->keys, 7);
  EXPECT_EQ(a->head, 4);
  EXPECT_EQ(a->value_head, 6);
  EXPECT_EQ(a->scale, 0.125);
  EXPECT_FALSE(a->causal);
  EXPECT_EQ(a->q->name(), "q");
  EXPECT_EQ(a->k->name(), "k");
  EXPECT_EQ(a->v->name(), "v");
  // Q [h, q, d], K [h, k, d], V [h, k, e], O [h, q, e].
  EXPECT_EQ(a->q_dims.rows, std::vector<int64_t>({1}));
  EXPECT_EQ(a->q_dims.head, 2);
  EXPECT_EQ(a->k_dims.key, 1);
  EXPECT_EQ(a->v_dims.key, 1);
  EXPECT_EQ(a->v_dims.value, 2);
  EXPECT_EQ(a->out_dims.batch, std::vector<int64_t>({0}));
  EXPECT_EQ(a->out_dims.value, 2);
  EXPECT_FALSE(a->rounding.Narrow());
  EXPECT_EQ(a->Describe(), "attention(scale=0.125)");
  // Every member between the products, the products included; the
  // constants and broadcasts of constants shareable.
  EXPECT_EQ(a->members.front()->name(), "s");
  EXPECT_EQ(a->members.back()->name(), "o");
  EXPECT_EQ(a->members.size(), 14u);
}

TEST(AttentionPatternTest, OtherFormsOfTheSameAttention) {
  for (int variant = 0; variant < 4; ++variant) {
    AttentionForm f;
    f.divide_scale = variant & 1;
    f.reciprocal = variant & 2;
    f.type = variant == 3 ? "bf16" : "f32";
    SCOPED_TRACE(AttentionHlo(f));
    std::unique_ptr<Module> m;
    std::optional<AttentionPattern> a = MatchRoot(AttentionHlo(f), &m);
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->scale, 0.125);
    EXPECT_EQ(a->rounding.reciprocal, f.reciprocal);
    EXPECT_EQ(a->rounding.Narrow(), f.type == "bf16");
  }
  // bf16: the scores, the scale, the exp and P rounded to bf16, the sum in
  // f32 between converts.
  AttentionForm f;
  f.type = "bf16";
  std::unique_ptr<Module> m;
  std::optional<AttentionPattern> a = MatchRoot(AttentionHlo(f), &m);
  ASSERT_TRUE(a.has_value());
  const AttentionRounding& r = a->rounding;
  ASSERT_EQ(r.scores.size(), 3u);
  EXPECT_EQ(r.scores[0].kind, AttentionStep::kRound);
  EXPECT_EQ(r.scores[0].type, PrimitiveType::kBF16);
  EXPECT_EQ(r.scores[1].kind, AttentionStep::kMultiply);
  EXPECT_EQ(r.scores[2].kind, AttentionStep::kRound);
  EXPECT_EQ(r.exp, PrimitiveType::kBF16);
  EXPECT_EQ(r.e_to_sum, std::vector<PrimitiveType>({PrimitiveType::kF32}));
  EXPECT_EQ(r.sum, PrimitiveType::kF32);
  EXPECT_EQ(r.sum_to_divide, std::vector<PrimitiveType>({PrimitiveType::kBF16}));
  EXPECT_EQ(r.divide, PrimitiveType::kBF16);
}

TEST(AttentionPatternTest, CausalMasks) {
  AttentionForm f;
  f.causal = true;
  std::unique_ptr<Module> m;
  std::optional<AttentionPattern> a = MatchRoot(AttentionHlo(f), &m);
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->causal);
  EXPECT_EQ(a->causal_row, 0);
  EXPECT_EQ(a->causal_offset, 0);
  EXPECT_EQ(a->mask_fill, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(a->Describe(), "attention(causal, scale=0.125)");
  // q >= k + 3 - 3 spelled with an offset: keys up to q + 2 (k <= q + 2).
  std::string shifted = AttentionHlo(f);
  shifted = absl::StrReplaceAll(shifted, {{"  keep = pred[2,16,16] compare(iq, ik)",
                                           "  two = s32[] constant(2)\n"
                                           "  twob = s32[2,16,16] broadcast(two), dimensions={}\n"
                                           "  iq2 = s32[2,16,16] add(iq, twob)\n"
                                           "  keep = pred[2,16,16] compare(iq2, ik)"}});
  a = MatchRoot(shifted, &m);
  ASSERT_TRUE(a.has_value()) << shifted;
  EXPECT_EQ(a->causal_offset, 2);
}

TEST(AttentionPatternTest, NearMissesAreNotAttention) {
  auto rejects = [](AttentionForm f) {
    std::unique_ptr<Module> m;
    EXPECT_FALSE(MatchRoot(AttentionHlo(f), &m).has_value()) << AttentionHlo(f);
  };
  AttentionForm f;
  f.sum_over_queries = true;
  rejects(f);
  f = {};
  f.scale_parameter = true;
  rejects(f);
  f = {};
  f.anti_causal = true;
  rejects(f);
  f = {};
  f.contract_queries = true;
  rejects(f);
  // A row that sees no key (k <= q - 1 leaves row 0 empty) stays decomposed.
  f = {};
  f.causal = true;
  std::string text = absl::StrReplaceAll(AttentionHlo(f), {{"direction=GE", "direction=GT"}});
  std::unique_ptr<Module> m;
  EXPECT_FALSE(MatchRoot(text, &m).has_value());
  // f64 attention stays decomposed: the strategy computes in f32.
  f = {};
  f.type = "f64";
  text = absl::StrReplaceAll(AttentionHlo(f), {{"f32[", "f64["}, {"add_f32", "add_f64"}});
  EXPECT_FALSE(MatchRoot(text, &m).has_value());
  // Without the max subtracted it is not the softmax the pattern needs.
  f = {};
  text = absl::StrReplaceAll(AttentionHlo(f), {{"subtract(x0, mb)", "add(x0, mb)"}});
  EXPECT_FALSE(MatchRoot(text, &m).has_value());
}

// JAX's form of grouped-query attention (jax.nn.dot_product_attention with
// 2 K/V heads for 8 query heads): Q reshaped to [b, s, kv, group, d], the
// scores transposed to put the group first, V as the second product's lhs.
TEST(AttentionPatternTest, JaxGroupedQueryAttention) {
  const std::string text = R"(
HloModule gqa

region_0.1 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}

region_1.2 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  v = f32[1,32,2,16]{3,2,1,0} parameter(2)
  q = f32[1,32,8,16]{3,2,1,0} parameter(0)
  q5 = f32[1,32,2,4,16]{4,3,2,1,0} reshape(q)
  k = f32[1,32,2,16]{3,2,1,0} parameter(1)
  s = f32[1,2,32,4,32]{4,3,2,1,0} dot(q5, k), lhs_batch_dims={0,2}, lhs_contracting_dims={4}, rhs_batch_dims={0,2}, rhs_contracting_dims={3}
  c = f32[] constant(0.25)
  cb = f32[1,2,32,4,32]{4,3,2,1,0} broadcast(c), dimensions={}
  x = f32[1,2,32,4,32]{4,3,2,1,0} multiply(s, cb)
  xt = f32[4,1,2,32,32]{4,0,3,2,1} transpose(x), dimensions={3,0,1,2,4}
  ninf = f32[] constant(-inf)
  m = f32[1,2,32,4]{3,2,1,0} reduce(x, ninf), dimensions={4}, to_apply=region_0.1
  nb = f32[1,2,32,4]{3,2,1,0} broadcast(ninf), dimensions={}
  m2 = f32[1,2,32,4]{3,2,1,0} maximum(m, nb)
  mt = f32[4,1,2,32]{0,3,2,1} transpose(m2), dimensions={3,0,1,2}
  mr = f32[4,1,2,32]{3,2,1,0} reshape(mt)
  mb = f32[4,1,2,32,32]{4,3,2,1,0} broadcast(mr), dimensions={0,1,2,3}
  d = f32[4,1,2,32,32]{4,0,3,2,1} subtract(xt, mb)
  e = f32[4,1,2,32,32]{4,0,3,2,1} exponential(d)
  zero = f32[] constant(0)
  l = f32[4,1,2,32]{3,2,1,0} reduce(e, zero), dimensions={4}, to_apply=region_1.2
  lb = f32[4,1,2,32,32]{4,3,2,1,0} broadcast(l), dimensions={0,1,2,3}
  p = f32[4,1,2,32,32]{4,0,3,2,1} divide(e, lb)
  ROOT o = f32[1,2,16,4,32]{4,3,2,1,0} dot(v, p), lhs_batch_dims={0,2}, lhs_contracting_dims={1}, rhs_batch_dims={1,2}, rhs_contracting_dims={4}
}
)";
  std::unique_ptr<Module> m;
  std::optional<AttentionPattern> a = MatchRoot(text, &m);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->batch, std::vector<int64_t>({2}));      // the K/V heads
  EXPECT_EQ(a->rows, std::vector<int64_t>({32, 4}));   // positions, group
  EXPECT_EQ(a->keys, 32);
  EXPECT_EQ(a->v_dims.key, 1);
  EXPECT_EQ(a->v_dims.value, 3);
  EXPECT_EQ(a->out_dims.rows, std::vector<int64_t>({4, 3}));
  EXPECT_EQ(a->out_dims.value, 2);
  EXPECT_EQ(a->Describe(), "attention(gqa=4, scale=0.25)");
}

}  // namespace
}  // namespace aotc
