// End-to-end tests of convolution, compiled as an element generator
// (convolution.cc). Small cases have expected values worked out
// by hand in the comments and are also compared with the reference
// evaluator; a seeded sweep over dim_labels orders, windows (strides,
// negative padding, both dilations, reversal), group counts and element
// types compares -O0 and -O2 builds with the evaluator, and a second one
// does so for feature-major (NCHW-like) convolutions big enough for the
// gemm strategy; the corpus modules that convolve are compared too. The
// models run in buffers that end at guard pages (jit_runner.h), so a read
// outside an operand faults.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "codegen/strategy.h"
#include "codegen/tests/codegen_test_util.h"
#include "codegen/tests/conv_test_util.h"
#include "tests/corpus/corpus_compare.h"
#include "tools/inputs.h"

namespace aotc::codegen {
namespace {

using P = PrimitiveType;
using testing::CompileAndRun;
using testing::LabelDims;
using testing::MakeRandomWindow;
using testing::RandomLayout;
using testing::RandomWindow;
using testing::ShapeText;
using testing::ShuffledLabels;
using testing::UnoptimizedIr;
using testing::ExpectMatchesEvaluator;
using testing::MakeArray;
using testing::Values;

// Runs `hlo` as read and through the optimization pipeline and checks each
// result against `want`, then compares -O0 and -O2 builds with the
// evaluator.
template <PrimitiveType T>
void RunBoth(const std::string& hlo, const std::vector<Literal>& args,
             const std::vector<NativeType<T>>& want) {
  for (bool optimize : {false, true}) {
    SCOPED_TRACE(optimize ? "optimized" : "as read");
    auto results = CompileAndRun(hlo, args, 2, optimize);
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_EQ(results->size(), 1u);
    EXPECT_EQ(Values<T>((*results)[0]), want);
  }
  ExpectMatchesEvaluator(hlo, args);
}

TEST(ConvolutionE2eTest, OneDimensionalWithStrideAndPadding) {
  // x = 1 2 3 4 5 padded to 0 1 2 3 4 5 0; windows of 3 at stride 2 start
  // at 0, 2, 4; kernel 1 10 100:
  //   0*1 + 1*10 + 2*100 = 210, 2 + 30 + 400 = 432, 4 + 50 + 0 = 54.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[1,5,1] parameter(0)
  k = f32[3,1,1] parameter(1)
  ROOT c = f32[1,3,1] convolution(x, k), window={size=3 stride=2 pad=1_1},
      dim_labels=b0f_0io->b0f
})";
  RunBoth<P::kF32>(hlo,
                   {MakeArray<P::kF32>({1, 5, 1}, {1, 2, 3, 4, 5}),
                    MakeArray<P::kF32>({3, 1, 1}, {1, 10, 100})},
                   {210, 432, 54});
}

TEST(ConvolutionE2eTest, NegativePaddingAndRhsDilation) {
  // x = 1..6 with its first element cut (pad -1): 2 3 4 5 6. The kernel
  // 1 10 dilated by 2 reads positions o and o + 2:
  //   2 + 40 = 42, 3 + 50 = 53, 4 + 60 = 64.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[1,1,6] parameter(0)
  k = f32[1,1,2] parameter(1)
  ROOT c = f32[1,1,3] convolution(x, k), window={size=2 pad=-1_0 rhs_dilate=2},
      dim_labels=bf0_oi0->bf0
})";
  RunBoth<P::kF32>(hlo,
                   {MakeArray<P::kF32>({1, 1, 6}, {1, 2, 3, 4, 5, 6}),
                    MakeArray<P::kF32>({1, 1, 2}, {1, 10})},
                   {42, 53, 64});
}

TEST(ConvolutionE2eTest, Depthwise) {
  // Two features, feature_group_count=2: output feature 0 convolves input
  // feature 0 (1 2 3 4) with 1 2, output feature 1 convolves input feature
  // 1 (10 20 30 40) with 3 4:
  //   feature 0: 1+4 = 5,    2+6 = 8,      3+8 = 11
  //   feature 1: 30+80 = 110, 60+120 = 180, 90+160 = 250
  // The kernel is 0io ([w][i][o]): w=0 -> 1 3, w=1 -> 2 4.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[1,4,2] parameter(0)
  k = f32[2,1,2] parameter(1)
  ROOT c = f32[1,3,2] convolution(x, k), window={size=2},
      dim_labels=b0f_0io->b0f, feature_group_count=2
})";
  RunBoth<P::kF32>(hlo,
                   {MakeArray<P::kF32>({1, 4, 2}, {1, 10, 2, 20, 3, 30, 4, 40}),
                    MakeArray<P::kF32>({2, 1, 2}, {1, 3, 2, 4})},
                   {5, 110, 8, 180, 11, 250});
  // Planned by the depthwise strategy, not the generic convolution loops.
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto plan = PlanInstruction(*(*module)->entry()->root());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->name, "depthwise");
}

// Depthwise NHWC convolutions run as loops vectorized over the features
// (the "depthwise" strategy), summing in the evaluator's order: its numbers
// bit for bit, for strides, padding (negative too), dilation, reversal,
// 1-D to 3-D windows, bf16 (summed in float, rounded once), a fused
// epilogue and positions split across threads. The feature counts take
// every path of the register blocks on AVX2 and AVX-512 alike (150 f32:
// whole blocks of four vectors, a block of the whole vectors left, then
// single features; 24 and 17: a block of fewer vectors; 4: none), with
// the border taps skipped.
TEST(ConvolutionE2eTest, DepthwiseLoopsGiveTheEvaluatorsNumbersBitForBit) {
  const std::vector<std::string> cases = {
      R"(HloModule m
ENTRY e {
  x = f32[2,9,11,150] parameter(0)
  k = f32[3,3,1,150] parameter(1)
  bias = f32[150] parameter(2)
  c = f32[2,9,11,150] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=150
  bb = f32[2,9,11,150] broadcast(bias), dimensions={3}
  s = f32[2,9,11,150] add(c, bb)
  z = f32[] constant(0)
  zb = f32[2,9,11,150] broadcast(z), dimensions={}
  ROOT r = f32[2,9,11,150] maximum(s, zb)
})",
      R"(HloModule m
ENTRY e {
  x = f64[1,12,10,40] parameter(0)
  k = f64[3,3,1,40] parameter(1)
  ROOT c = f64[1,5,4,40] convolution(x, k), window={size=3x3 stride=2x2 pad=1_-1x2_0 rhs_dilate=1x2 rhs_reversal=0x1}, dim_labels=b01f_01io->b01f, feature_group_count=40
})",
      R"(HloModule m
ENTRY e {
  x = f32[2,9,11,24] parameter(0)
  k = f32[3,3,1,24] parameter(1)
  ROOT c = f32[2,9,11,24] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=24
})",
      R"(HloModule m
ENTRY e {
  x = f32[1,13,12,17] parameter(0)
  k = f32[3,2,1,17] parameter(1)
  ROOT c = f32[1,5,7,17] convolution(x, k), window={size=3x2 stride=2x2 pad=1_-1x1_1 rhs_dilate=2x1 rhs_reversal=1x0}, dim_labels=b01f_01io->b01f, feature_group_count=17
})",
      R"(HloModule m
ENTRY e {
  x = bf16[1,7,9,32] parameter(0)
  k = bf16[3,3,1,32] parameter(1)
  ROOT c = bf16[1,7,9,32] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=32
})",
      R"(HloModule m
ENTRY e {
  x = f64[3,40,8] parameter(0)
  k = f64[5,1,8] parameter(1)
  ROOT c = f64[3,36,8] convolution(x, k), window={size=5}, dim_labels=b0f_0io->b0f, feature_group_count=8
})",
      R"(HloModule m
ENTRY e {
  x = f32[1,5,6,7,4] parameter(0)
  k = f32[2,2,2,1,4] parameter(1)
  bias = f32[4] parameter(2)
  c = f32[1,4,5,6,4] convolution(x, k), window={size=2x2x2}, dim_labels=b012f_012io->b012f, feature_group_count=4
  bb = f32[1,4,5,6,4] broadcast(bias), dimensions={4}
  s = f32[1,4,5,6,4] add(c, bb)
  z = f32[] constant(0)
  zb = f32[1,4,5,6,4] broadcast(z), dimensions={}
  ROOT r = f32[1,4,5,6,4] maximum(s, zb)
})",
  };
  for (const std::string& hlo : cases) {
    SCOPED_TRACE(hlo);
    auto module = LoadModuleFromString(hlo, "test.hlo");
    ASSERT_TRUE(module.ok()) << module.status();
    const std::vector<Literal> args =
        testing::RandomArguments(*(*module)->entry(), 23);
    ASSERT_TRUE(OptimizeModule(**module, {}).ok());
    auto plan = PlanInstruction(*(*module)->entry()->root());
    ASSERT_TRUE(plan.ok()) << plan.status();
    EXPECT_EQ(plan->name, "depthwise");
    testing::ExpectEvaluatorsBits(hlo, args);
  }
}

TEST(ConvolutionE2eTest, TransposedThroughLhsDilation) {
  // x = 1 2 3 dilated by 2 is 1 0 2 0 3, padded 1_1: 0 1 0 2 0 3 0. The
  // kernel 1 10 over pairs: 0+10, 1+0, 0+20, 2+0, 0+30, 3+0.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[1,1,3] parameter(0)
  k = f32[1,1,2] parameter(1)
  ROOT c = f32[1,1,6] convolution(x, k), window={size=2 pad=1_1 lhs_dilate=2},
      dim_labels=bf0_oi0->bf0
})";
  RunBoth<P::kF32>(hlo,
                   {MakeArray<P::kF32>({1, 1, 3}, {1, 2, 3}),
                    MakeArray<P::kF32>({1, 1, 2}, {1, 10})},
                   {10, 1, 20, 2, 30, 3});
}

TEST(ConvolutionE2eTest, ReversedWindow) {
  // The kernel 1 10 reversed is 10 1: 1*10 + 2 = 12, 2*10 + 3 = 23.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = s32[1,1,3] parameter(0)
  k = s32[1,1,2] parameter(1)
  ROOT c = s32[1,1,2] convolution(x, k), window={size=2 rhs_reversal=1},
      dim_labels=bf0_oi0->bf0
})";
  RunBoth<P::kS32>(hlo,
                   {MakeArray<P::kS32>({1, 1, 3}, {1, 2, 3}),
                    MakeArray<P::kS32>({1, 1, 2}, {1, 10})},
                   {12, 23});
}

TEST(ConvolutionE2eTest, BatchGroups) {
  // batch_group_count=2: output feature 0 reads batch 0 (1 2) times 10,
  // output feature 1 reads batch 1 (3 4) times 100: 10 20 | 300 400.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[2,1,2] parameter(0)
  k = f32[1,2,1] parameter(1)
  ROOT c = f32[1,2,2] convolution(x, k), window={size=1},
      dim_labels=bf0_io0->bf0, batch_group_count=2
})";
  RunBoth<P::kF32>(hlo,
                   {MakeArray<P::kF32>({2, 1, 2}, {1, 2, 3, 4}),
                    MakeArray<P::kF32>({1, 2, 1}, {10, 100})},
                   {10, 20, 300, 400});
}

TEST(ConvolutionE2eTest, NoSpatialDimensionsIsAMatrixProduct) {
  // [[1 2] [3 4]] times [[1 10] [100 1000]] (io):
  //   1 + 200 = 201, 10 + 2000 = 2010, 3 + 400 = 403, 30 + 4000 = 4030.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[2,2] parameter(0)
  k = f32[2,2] parameter(1)
  ROOT c = f32[2,2] convolution(x, k), dim_labels=bf_io->bf
})";
  RunBoth<P::kF32>(hlo,
                   {MakeArray<P::kF32>({2, 2}, {1, 2, 3, 4}),
                    MakeArray<P::kF32>({2, 2}, {1, 10, 100, 1000})},
                   {201, 2010, 403, 4030});
}

TEST(ConvolutionE2eTest, FusedEpilogueAfterAConvolution) {
  // relu(conv + bias) with the 1-D case above (210 432 54) and bias
  // -300: 0, 132, 0.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[1,5,1] parameter(0)
  k = f32[3,1,1] parameter(1)
  c = f32[1,3,1] convolution(x, k), window={size=3 stride=2 pad=1_1},
      dim_labels=b0f_0io->b0f
  bias = f32[] constant(-300)
  bb = f32[1,3,1] broadcast(bias), dimensions={}
  a = f32[1,3,1] add(c, bb)
  zero = f32[] constant(0)
  zb = f32[1,3,1] broadcast(zero), dimensions={}
  ROOT r = f32[1,3,1] maximum(a, zb)
})";
  RunBoth<P::kF32>(hlo,
                   {MakeArray<P::kF32>({1, 5, 1}, {1, 2, 3, 4, 5}),
                    MakeArray<P::kF32>({3, 1, 1}, {1, 10, 100})},
                   {0, 132, 0});

  // Optimized, the convolution, add and maximum are one kOutput fusion:
  // the convolution's values never go through a buffer.
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  ASSERT_TRUE(OptimizeModule(**module, {}).ok());
  const Instruction* root = (*module)->entry()->root();
  ASSERT_EQ(root->opcode(), Opcode::kFusion);
  EXPECT_EQ(root->attrs().fusion_kind, FusionKind::kOutput);
  std::vector<Opcode> fused;
  for (const auto& inst : root->fused_computation()->instructions()) {
    fused.push_back(inst->opcode());
  }
  EXPECT_THAT(fused, ::testing::Contains(Opcode::kConvolution));
  EXPECT_THAT(fused, ::testing::Contains(Opcode::kMaximum));
}

TEST(ConvolutionE2eTest, Bf16OperandsAccumulateInFloatAndRoundOnce) {
  // 256 + 1 + 1 summed in bf16 one step at a time would stay 256 (bf16 has
  // 8 significant bits: 257 rounds to 256); in float the sum is 258,
  // exactly representable in bf16.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = bf16[1,3,1] parameter(0)
  k = bf16[3,1,1] parameter(1)
  ROOT c = bf16[1,1,1] convolution(x, k), window={size=3},
      dim_labels=b0f_0io->b0f
})";
  const std::vector<Literal> args = {
      MakeArray<P::kBF16>({1, 3, 1},
                          {BFloat16(256.0f), BFloat16(1.0f), BFloat16(1.0f)}),
      MakeArray<P::kBF16>({3, 1, 1},
                          {BFloat16(1.0f), BFloat16(1.0f), BFloat16(1.0f)})};
  auto results = CompileAndRun(hlo, args);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(static_cast<float>(Values<P::kBF16>((*results)[0])[0]), 258.0f);
  ExpectMatchesEvaluator(hlo, args);
}

// A 3x3 window over 8 input features (of a group) is 72 multiply-adds per
// output element: the element-loops plan (two feature groups of two output
// features, too few for the gemm) reports that as its work, so the
// f32[4,7,7,4] result (784 elements, 56448 units of work) is split by
// batch; a batch row is 196 * 72 = 14112 units, above the 8192 of a chunk,
// so each of the 4 batches is a chunk of its own.
TEST(ConvolutionE2eTest, LargeConvolutionIsSplitAcrossThreads) {
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[4,16,9,9] parameter(0)
  k = f32[3,3,8,4] parameter(1)
  ROOT c = f32[4,7,7,4] convolution(x, k), window={size=3x3},
      dim_labels=bf01_01io->b01f, feature_group_count=2
})";
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto plan = PlanInstruction(*(*module)->entry()->root());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->name, "element-loops");
  EXPECT_EQ(plan->work_per_element, 72);

  const std::vector<Literal> args = {
      RandomLiteral(Shape::Array(P::kF32, {4, 16, 9, 9}), 3, 0),
      RandomLiteral(Shape::Array(P::kF32, {3, 3, 8, 4}), 3, 1)};
  auto expected = EvaluateModule(**module, args);
  ASSERT_TRUE(expected.ok()) << expected.status();
  testing::HookLog log;
  aotc_set_parallel_for(&testing::ThreadedReverseHook, &log);
  auto results = CompileAndRun(hlo, args);
  aotc_set_parallel_for(nullptr, nullptr);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(log.iterations, 4);
  const Comparison c = CompareLiterals((*results)[0], *expected->Leaves()[0],
                                       DefaultTolerance(P::kF32));
  EXPECT_TRUE(c.ok()) << c.mismatches << " mismatches; first "
                      << c.first_mismatch;
}

// The verifier refuses such a module; code generation, which may be handed
// one that was never verified, refuses it too, at the convolution, rather
// than read past its buffers.
TEST(ConvolutionE2eTest, InconsistentShapesGiveALocatedError) {
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[1,5,1] parameter(0)
  k = f32[3,1,1] parameter(1)
  ROOT c = f32[1,4,1] convolution(x, k), window={size=3}, dim_labels=b0f_0io->b0f
})";
  EXPECT_EQ(testing::UnverifiedCompileError(hlo),
            "test.hlo:5:8: error: convolution: the result has shape "
            "f32[1,4,1], expected f32[1,3,1]");
}

// One random convolution: its HLO text and its arguments.
struct RandomConv {
  std::string hlo;
  std::vector<Literal> args;
};

// The result type and operand types of a sweep case.
struct ConvTypes {
  const char* lhs;
  const char* rhs;
  const char* out;
  PrimitiveType lhs_type;
  PrimitiveType rhs_type;
};

// "[d0,d1,...]", half the time followed by a random layout
// "{minor,...,major}".
std::string DimsText(const std::vector<int64_t>& dims, std::mt19937& rng) {
  std::string text = absl::StrCat("[", absl::StrJoin(dims, ","), "]");
  if (std::uniform_int_distribution<int>(0, 1)(rng) == 0) return text;
  std::vector<int64_t> minor_to_major(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) minor_to_major[d] = d;
  std::shuffle(minor_to_major.begin(), minor_to_major.end(), rng);
  return absl::StrCat(text, "{", absl::StrJoin(minor_to_major, ","), "}");
}

// Sizes are 1, primes and odd numbers; every window attribute and group
// count varies; each operand's and the result's dimension order is a random
// permutation of its labels, and half of them have a random layout.
RandomConv MakeRandomConv(std::mt19937& rng, int case_index) {
  auto pick = [&](std::vector<int64_t> v) {
    return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
  };
  static const ConvTypes kTypes[] = {
      {"f32", "f32", "f32", P::kF32, P::kF32},
      {"f32", "f32", "f32", P::kF32, P::kF32},
      {"f32", "f32", "f32", P::kF32, P::kF32},
      {"bf16", "bf16", "f32", P::kBF16, P::kBF16},
      {"f16", "f16", "f16", P::kF16, P::kF16},
      {"bf16", "bf16", "bf16", P::kBF16, P::kBF16},
      {"f32", "f32", "bf16", P::kF32, P::kF32},
      {"s32", "s32", "s32", P::kS32, P::kS32},
      {"s8", "s8", "s32", P::kS8, P::kS8},
      {"pred", "pred", "pred", P::kPred, P::kPred},
      {"f64", "f64", "f64", P::kF64, P::kF64},
      {"f8e4m3fn", "f8e4m3fn", "f8e4m3fn", P::kF8E4M3FN, P::kF8E4M3FN},
      {"f32", "f32", "f8e5m2", P::kF32, P::kF32},
      {"s4", "s4", "s4", P::kS4, P::kS4},
  };
  const ConvTypes& types =
      kTypes[std::uniform_int_distribution<size_t>(0, std::size(kTypes) - 1)(
          rng)];
  const int spatial = static_cast<int>(pick({0, 1, 1, 2, 2, 2, 3}));
  int64_t fgc = 1, bgc = 1;
  switch (pick({0, 0, 1, 2})) {
    case 1:
      fgc = pick({2, 3});
      break;
    case 2:
      bgc = pick({2, 3});
      break;
    default:
      break;
  }
  const int64_t batch = pick({1, 2, 3}) * bgc;
  const int64_t kernel_in = pick({1, 2, 3, 5});
  const int64_t out_features = pick({1, 2, 3}) * fgc * bgc;
  std::vector<int64_t> in_sizes, win_sizes, out_sizes;
  std::vector<std::string> size_t_, stride_t, pad_t, lhs_d, rhs_d, rev_t;
  for (int i = 0; i < spatial; ++i) {
    const int64_t in = pick({1, 2, 3, 5, 7});
    const int64_t size = pick({1, 2, 3, 5});
    const int64_t stride = pick({1, 1, 2, 3});
    const int64_t ld = pick({1, 1, 2, 3});
    const int64_t rd = pick({1, 1, 2});
    int64_t lo = pick({-2, -1, 0, 0, 1, 2, 3});
    int64_t hi = pick({-2, -1, 0, 0, 1, 2, 3});
    const int64_t dilated = (in - 1) * ld + 1;
    if (dilated + lo + hi < 0) hi = -dilated - lo;  // a padded size of 0
    const int64_t padded = dilated + lo + hi;
    const int64_t window = (size - 1) * rd + 1;
    in_sizes.push_back(in);
    win_sizes.push_back(size);
    out_sizes.push_back(padded < window ? 0 : (padded - window) / stride + 1);
    size_t_.push_back(absl::StrCat(size));
    stride_t.push_back(absl::StrCat(stride));
    pad_t.push_back(absl::StrCat(lo, "_", hi));
    lhs_d.push_back(absl::StrCat(ld));
    rhs_d.push_back(absl::StrCat(rd));
    rev_t.push_back(pick({0, 1}) == 1 ? "1" : "0");
  }
  auto labels = [&](char a, char b) { return ShuffledLabels(a, b, spatial, rng); };
  const std::string ll = labels('b', 'f');
  const std::string rl = labels('i', 'o');
  const std::string ol = labels('b', 'f');
  const std::vector<int64_t> lhs_dims =
      LabelDims(ll, batch, kernel_in * fgc, in_sizes);
  const std::vector<int64_t> rhs_dims =
      LabelDims(rl, kernel_in, out_features, win_sizes);
  const std::vector<int64_t> out_dims =
      LabelDims(ol, batch / bgc, out_features, out_sizes);
  std::string window;
  if (spatial > 0) {
    window = absl::StrCat(
        " window={size=", absl::StrJoin(size_t_, "x"),
        " stride=", absl::StrJoin(stride_t, "x"),
        " pad=", absl::StrJoin(pad_t, "x"),
        " lhs_dilate=", absl::StrJoin(lhs_d, "x"),
        " rhs_dilate=", absl::StrJoin(rhs_d, "x"),
        " rhs_reversal=", absl::StrJoin(rev_t, "x"), "},");
  }
  // One statement each, so that the draws happen in a fixed order.
  const std::string lhs_text = DimsText(lhs_dims, rng);
  const std::string rhs_text = DimsText(rhs_dims, rng);
  const std::string out_text = DimsText(out_dims, rng);
  RandomConv conv;
  conv.hlo = absl::StrCat(
      "HloModule m\nENTRY e {\n  x = ", types.lhs, lhs_text,
      " parameter(0)\n  k = ", types.rhs, rhs_text,
      " parameter(1)\n  ROOT c = ", types.out, out_text,
      " convolution(x, k),", window, " dim_labels=", ll, "_", rl, "->", ol,
      ", feature_group_count=", fgc, ", batch_group_count=", bgc, "\n}\n");
  conv.args.push_back(
      RandomLiteral(Shape::Array(types.lhs_type, lhs_dims), case_index, 0));
  conv.args.push_back(
      RandomLiteral(Shape::Array(types.rhs_type, rhs_dims), case_index, 1));
  return conv;
}

TEST(ConvolutionE2eTest, RandomFormsMatchTheEvaluator) {
  std::mt19937 rng(20261125);
  for (int i = 0; i < 60; ++i) {
    RandomConv conv = MakeRandomConv(rng, i);
    SCOPED_TRACE(conv.hlo);
    ExpectMatchesEvaluator(conv.hlo, conv.args);
    if (::testing::Test::HasFailure()) break;
  }
}

// A random feature-major convolution big enough for the gemm's transposed
// product most of the time: the input's features are never its most minor
// dimension (labels in a random order, a random layout that keeps the
// features off the minor end), kernel and result in any order and layout;
// sizes 1, primes and odd; strides, padding (negative too), kernel
// dilation and reversal vary. `gemm` says whether the product is big enough
// for the gemm: at least 8 output features, 16 positions and depth 16, and
// 2^14 multiply-adds. `padded` whether it reads B from padded input planes:
// stride 1 and no negative padding on every axis, more than one tap, at
// least 48 input features, and the padded columns (the first output size
// times the other padded input sizes) at most 5/4 of the positions.
struct FeatureMajorConv {
  RandomConv conv;
  bool gemm = false;
  bool padded = false;
};

// With `unit_strides`, every axis has stride 1 and no negative padding, at
// most two spatial axes, and the inputs larger and deeper (the padded
// planes' forms).
FeatureMajorConv MakeRandomFeatureMajorConv(std::mt19937& rng, int case_index,
                                            bool unit_strides = false) {
  auto pick = [&](std::vector<int64_t> v) {
    return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
  };
  const bool f64 = pick({0, 0, 0, 1}) == 1;
  const char* type = f64 ? "f64" : "f32";
  const P ptype = f64 ? P::kF64 : P::kF32;
  const int spatial =
      static_cast<int>(unit_strides ? pick({1, 2, 2}) : pick({1, 2, 2, 3}));
  const int64_t batch = pick({1, 2, 3});
  const int64_t in_features =
      unit_strides ? pick({32, 48, 53}) : pick({1, 3, 8, 17, 32});
  const int64_t out_features = pick({8, 13, 16, 33});
  const RandomWindow w = MakeRandomWindow(
      rng, spatial,
      [&](int) {
        return spatial == 1   ? pick({17, 31, 61})
               : unit_strides ? pick({5, 13, 23, 30})
                              : pick({1, 5, 7, 11, 13, 23});
      },
      unit_strides ? std::vector<int64_t>{0, 1, 2}
                   : std::vector<int64_t>{-1, 0, 0, 1, 2, 3},
      unit_strides ? std::vector<int64_t>{1} : std::vector<int64_t>{1, 1, 2, 3});
  int64_t positions = 1, taps = 1, columns = 1;
  bool plane_form = true;
  for (int i = 0; i < spatial; ++i) {
    positions *= w.out_sizes[i];
    taps *= w.win_sizes[i];
    const int64_t padded = w.in_sizes[i] + w.pad_lo[i] + w.pad_hi[i];
    columns *= i == 0 ? w.out_sizes[i] : padded;
    plane_form = plane_form && w.strides[i] == 1 && w.pad_lo[i] >= 0 && w.pad_hi[i] >= 0;
  }
  auto labels = [&](char a, char b) { return ShuffledLabels(a, b, spatial, rng); };
  const std::string ll = labels('b', 'f');
  const std::string rl = labels('i', 'o');
  const std::string ol = labels('b', 'f');
  const std::vector<int64_t> lhs_dims =
      LabelDims(ll, batch, in_features, w.in_sizes);
  const std::vector<int64_t> rhs_dims =
      LabelDims(rl, in_features, out_features, w.win_sizes);
  const std::vector<int64_t> out_dims =
      LabelDims(ol, batch, out_features, w.out_sizes);
  // The input's layout: a random order with the features not most minor.
  const std::string lhs_text = ShapeText(
      lhs_dims,
      RandomLayout(lhs_dims.size(), -1, static_cast<int64_t>(ll.find('f')), rng));
  const std::string rhs_text = DimsText(rhs_dims, rng);
  const std::string out_text = DimsText(out_dims, rng);
  FeatureMajorConv f;
  f.conv.hlo = absl::StrCat(
      "HloModule m\nENTRY e {\n  x = ", type, lhs_text,
      " parameter(0)\n  k = ", type, rhs_text, " parameter(1)\n  ROOT c = ",
      type, out_text, " convolution(x, k), ", w.text, ", dim_labels=", ll, "_",
      rl, "->", ol, "\n}\n");
  f.conv.args.push_back(
      RandomLiteral(Shape::Array(ptype, lhs_dims), case_index, 0));
  f.conv.args.push_back(
      RandomLiteral(Shape::Array(ptype, rhs_dims), case_index, 1));
  const int64_t depth = taps * in_features;
  f.gemm = out_features >= 8 && positions >= 16 && depth >= 16 &&
           batch * out_features * positions * depth >= (int64_t{1} << 14);
  f.padded = f.gemm && plane_form && taps > 1 && in_features >= 48 &&
             columns * 4 <= positions * 5;
  return f;
}

// Feature-major convolutions: the gemm's transposed product where it is big
// enough (and it fires there), the generic loops elsewhere; the
// evaluator's numbers at -O0 and -O2.
// Returns the number of cases on the gemm and of those on padded planes.
std::pair<int, int> CheckRandomFeatureMajorForms(uint32_t seed, int cases,
                                                 bool unit_strides) {
  std::mt19937 rng(seed);
  int gemm = 0, padded = 0;
  for (int i = 0; i < cases; ++i) {
    FeatureMajorConv f = MakeRandomFeatureMajorConv(rng, 100 + i, unit_strides);
    SCOPED_TRACE(f.conv.hlo);
    if (f.gemm) {
      ++gemm;
      padded += f.padded;
      auto module = LoadModuleFromString(f.conv.hlo, "test.hlo");
      EXPECT_TRUE(module.ok()) << module.status();
      if (!module.ok()) break;
      auto plan = PlanInstruction(*(*module)->entry()->root());
      EXPECT_TRUE(plan.ok()) << plan.status();
      if (plan.ok()) {
        EXPECT_EQ(plan->name, "gemm");
      }
      // The padded planes' copy loop is in the code exactly when expected.
      absl::StatusOr<std::string> ir = UnoptimizedIr(**module);
      EXPECT_TRUE(ir.ok()) << ir.status();
      if (ir.ok()) {
        EXPECT_EQ(ir->find("gemm.pad_planes") != std::string::npos, f.padded);
      }
    }
    ExpectMatchesEvaluator(f.conv.hlo, f.conv.args);
    if (::testing::Test::HasFailure()) break;
  }
  return {gemm, padded};
}

TEST(ConvolutionE2eTest, RandomFeatureMajorFormsMatchTheEvaluator) {
  const auto [gemm, padded] = CheckRandomFeatureMajorForms(20261126, 60, false);
  EXPECT_GE(gemm, 20);
  EXPECT_EQ(padded, 0);  // too few input features
}

// Stride 1 and no negative padding: mostly B read from padded planes, the
// rest (32 input features, few columns, a 1x1 window) the packed panels.
TEST(ConvolutionE2eTest, RandomPaddedPlaneFormsMatchTheEvaluator) {
  const auto [gemm, padded] = CheckRandomFeatureMajorForms(20261127, 40, true);
  EXPECT_GE(gemm, 20);
  EXPECT_GE(padded, 12);
}

// Every corpus module with a convolution is compiled through the
// optimization pipeline, run on seeded inputs and compared with the
// evaluator running it as read. Modules that code generation refuses for
// another reason (complex values, tiled layouts) or that are too large to
// run or evaluate are skipped with the reason.
TEST(ConvolutionE2eTest, CorpusConvolutionModulesMatchTheEvaluator) {
  // 20 of the 26: all but convolution_1 (c64), hlo_value_semantics_analysis_1
  // (tiled layouts) and the four beyond the evaluator's work budget
  // (constraint_propagator_5, convolution_cudnn_1, layouts_and_names_1,
  // resnet50_keras_jax_f32_1).
  constexpr int kExpectedCompared = 20;
  const CorpusSubset subset = CompareCorpusModulesUsing({"convolution"});
  EXPECT_THAT(subset.failures, ::testing::IsEmpty());
  EXPECT_GE(subset.matched, kExpectedCompared);
}

}  // namespace
}  // namespace aotc::codegen
