// End-to-end tests of the attention strategy (attention.h): attention in
// the decomposed form (compiler/analysis/attention_test_util.h) goes
// through the optimization pipeline, must be planned by the attention
// strategy, and must agree with the reference evaluator on the module as
// read within the oracle's budgets: f32 through the online softmax, bf16
// through the panel form, with sizes that leave partial key blocks, row
// blocks and value panels, causal masks, a single head split into row
// groups, on this host's vectors and on AVX2-wide ones, on one thread and
// split over threads.
#include <gtest/gtest.h>

#include <string>

#include "codegen/strategy.h"
#include "codegen/tests/codegen_test_util.h"
#include "compiler/analysis/attention_test_util.h"

namespace aotc::codegen {
namespace {

using aotc::testing::AttentionForm;
using aotc::testing::AttentionHlo;

void ExpectAttentionMatches(const AttentionForm& f, uint64_t seed) {
  testing::ExpectCustomFusionMatchesOracle(AttentionHlo(f), "attention", seed);
}

TEST(AttentionE2eTest, OnlineSoftmaxWithPartialBlocks) {
  AttentionForm f;
  f.heads = 2;
  f.queries = 37;
  f.keys = 100;
  f.head = 24;
  f.value = 40;
  ExpectAttentionMatches(f, 1);
}

TEST(AttentionE2eTest, CausalOverTwoRowBlocks) {
  AttentionForm f;
  f.heads = 3;
  f.queries = 130;
  f.keys = 130;
  f.head = 64;
  f.value = 64;
  f.causal = true;
  ExpectAttentionMatches(f, 2);
}

TEST(AttentionE2eTest, OneHeadSplitIntoRowGroups) {
  AttentionForm f;
  f.heads = 1;
  f.queries = 300;
  f.keys = 200;
  f.head = 16;
  f.value = 32;
  f.divide_scale = true;
  f.reciprocal = true;
  ExpectAttentionMatches(f, 3);
}

TEST(AttentionE2eTest, Bf16ReproducesTheDecompositionsRoundings) {
  AttentionForm f;
  f.heads = 2;
  f.queries = 70;
  f.keys = 70;
  f.head = 32;
  f.value = 16;
  f.type = "bf16";
  ExpectAttentionMatches(f, 4);
  f.causal = true;
  f.reciprocal = true;
  ExpectAttentionMatches(f, 5);
}

}  // namespace
}  // namespace aotc::codegen
