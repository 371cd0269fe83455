// End-to-end tests of the stream-dot strategy (stream_dot.h): products of
// a few rows with weights stored one output column per row, planned by it
// after the optimization pipeline (a transposed weight folded into the
// dot's dimension numbers first) and agreeing with the reference evaluator
// within the oracle's summation bounds: the tied-embedding logits form, a
// prefill of 11 rows in bf16 against weights with two free dimensions, a
// fused bias and activation, row counts past a tile and columns and depths
// that leave partial groups and vectors; on this host's vectors and on
// narrower ones, on one thread and split over threads. Under --strict-fp
// the evaluator's numbers bit for bit; the forms it must leave to others
// planned by them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codegen/strategies/stream_dot.h"
#include "codegen/tests/codegen_test_util.h"
#include "codegen/tests/gemm_test_util.h"

namespace aotc::codegen::testing {
namespace {

// `hlo`'s optimized root is planned by stream-dot and agrees with the
// oracle on the module as read, in every host configuration.
void ExpectStreamDotMatches(const std::string& hlo, uint64_t seed) {
  SCOPED_TRACE(hlo);
  EXPECT_EQ(PlanName(hlo, /*optimize=*/true), "stream-dot");
  ExpectFirstResultMatchesOracle(hlo, seed);
}

TEST(StreamDotE2eTest, LogitsAgainstATransposedEmbedding) {
  // 1001 columns: a last group of one; depth 300: a partial vector.
  ExpectStreamDotMatches(R"(HloModule m
ENTRY e {
  h = f32[1,300] parameter(0)
  emb = f32[1001,300] parameter(1)
  t = f32[300,1001] transpose(emb), dimensions={1,0}
  ROOT logits = f32[1,1001] dot(h, t), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})",
                         1);
}

TEST(StreamDotE2eTest, Bf16PrefillAgainstWeightsWithTwoFreeDimensions) {
  ExpectStreamDotMatches(R"(HloModule m
ENTRY e {
  x = bf16[1,11,96] parameter(0)
  w = bf16[2,50,96] parameter(1)
  ROOT d = bf16[1,11,2,50] dot(x, w), lhs_contracting_dims={2}, rhs_contracting_dims={2}
})",
                         2);
}

TEST(StreamDotE2eTest, FusedBiasAndActivationOverSixteenRows) {
  ExpectStreamDotMatches(R"(HloModule m
ENTRY e {
  x = f32[16,130] parameter(0)
  w = f32[66,130] parameter(1)
  bias = f32[66] parameter(2)
  d = f32[16,66] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  bb = f32[16,66] broadcast(bias), dimensions={1}
  s = f32[16,66] add(d, bb)
  ROOT r = f32[16,66] tanh(s)
})",
                         3);
}

TEST(StreamDotE2eTest, ActivationsContractingFirstAndF16Weights) {
  ExpectStreamDotMatches(R"(HloModule m
ENTRY e {
  x = f16[40,3] parameter(0)
  w = f16[24,40] parameter(1)
  ROOT d = f32[3,24] dot(x, w), lhs_contracting_dims={0}, rhs_contracting_dims={1}
})",
                         4);
}

TEST(StreamDotE2eTest, StrictFpGivesTheEvaluatorsNumbersBitForBit) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  x = f32[5,77] parameter(0)
  w = f32[9,77] parameter(1)
  ROOT d = f32[5,9] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={1}
})";
  ASSERT_EQ(PlanName(hlo), "stream-dot");
  ExpectStrictFpBitForBit(hlo, 5);
}

// W[K, N] (columns contiguous) from kStreamMinDepthMajorBytes on: strips
// of columns, depth blocks, and the columns after the last whole strip.
TEST(StreamDotE2eTest, DepthMajorBf16PrefillWithBiasAndTailColumns) {
  // 150 columns: whole strips then 22 (AVX-512) or 6 (narrower) single
  // columns; depth 4096 in 64 blocks.
  ExpectStreamDotMatches(R"(HloModule m
ENTRY e {
  x = bf16[1,11,4096] parameter(0)
  w = bf16[4096,150] parameter(1)
  bias = bf16[150] parameter(2)
  d = bf16[1,11,150] dot(x, w), lhs_contracting_dims={2}, rhs_contracting_dims={0}
  bb = bf16[1,11,150] broadcast(bias), dimensions={2}
  ROOT r = bf16[1,11,150] add(d, bb)
})",
                         6);
}

TEST(StreamDotE2eTest, DepthMajorF16DecodeWithAPartialDepthBlock) {
  ExpectStreamDotMatches(R"(HloModule m
ENTRY e {
  x = f16[1,1030] parameter(0)
  w = f16[1030,600] parameter(1)
  ROOT d = f32[1,600] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})",
                         7);
}

TEST(StreamDotE2eTest, DepthMajorStrictFpGivesTheEvaluatorsNumbersBitForBit) {
  // Each sum runs in depth order across the blocks: no lane reordering.
  const std::string hlo = R"(HloModule m
ENTRY e {
  x = f32[9,1030] parameter(0)
  w = f32[1030,260] parameter(1)
  ROOT d = f32[9,260] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";
  ASSERT_EQ(PlanName(hlo), "stream-dot");
  ExpectStrictFpBitForBit(hlo, 8);
}

TEST(StreamDotE2eTest, OtherFormsGoToOtherStrategies) {
  // More rows than kStreamMaxRows.
  EXPECT_EQ(PlanName(R"(HloModule m
ENTRY e {
  x = f32[17,64] parameter(0)
  w = f32[32,64] parameter(1)
  ROOT d = f32[17,32] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={1}
})"),
            "gemm");
  // Weights whose contraction is not minor, below
  // kStreamMinDepthMajorBytes.
  EXPECT_EQ(PlanName(R"(HloModule m
ENTRY e {
  x = f32[1,64] parameter(0)
  w = f32[64,32] parameter(1)
  ROOT d = f32[1,32] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})"),
            "row-dot");
  // The same with a transposed lhs folded into the dot.
  EXPECT_EQ(PlanName(R"(HloModule m
ENTRY e {
  x = f32[64,1] parameter(0)
  t = f32[1,64] transpose(x), dimensions={1,0}
  w = f32[64,32] parameter(1)
  ROOT d = f32[1,32] dot(t, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})",
                     /*optimize=*/true),
            "row-dot");
  // Batch dimensions.
  EXPECT_NE(PlanName(R"(HloModule m
ENTRY e {
  x = f32[2,1,64] parameter(0)
  w = f32[2,32,64] parameter(1)
  ROOT d = f32[2,1,32] dot(x, w), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={2}
})"),
            "stream-dot");
}

}  // namespace
}  // namespace aotc::codegen::testing
