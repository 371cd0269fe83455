// End-to-end tests of the depthwise-rows strategy (depthwise.h):
// depthwise convolutions whose features are not the most minor dimension
// (NCHW and other feature-major orders), computed a row along the output's
// most minor spatial dimension at a time. Small cases have expected values
// worked out by hand; a seeded sweep over dim_labels orders, layouts,
// sizes (1, primes, odd, rows wide enough for the vector loop), strides,
// padding (negative too), dilation, reversal, channel multipliers and
// element types asserts that the strategy fired and compares its numbers
// with the evaluator's bit for bit; near misses must go elsewhere. The
// models run in buffers that end at guard pages (jit_runner.h), so a read
// outside an operand faults.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "codegen/strategy.h"
#include "codegen/tests/codegen_test_util.h"
#include "codegen/tests/conv_test_util.h"
#include "tools/inputs.h"

namespace aotc::codegen {
namespace {

using P = PrimitiveType;
using testing::CompileAndRun;
using testing::ExpectEvaluatorsBits;
using testing::LabelDims;
using testing::MakeArray;
using testing::MakeRandomWindow;
using testing::Pick;
using testing::RandomLayout;
using testing::RandomWindow;
using testing::ShapeText;
using testing::ShuffledLabels;
using testing::Values;

// The strategy that plans the root of `hlo`, after the optimization
// pipeline when `optimize` is set.
std::string RootStrategy(const std::string& hlo, bool optimize) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  if (!module.ok()) return std::string(module.status().message());
  if (optimize && !OptimizeModule(**module, {}).ok()) return "optimize failed";
  auto plan = PlanInstruction(*(*module)->entry()->root());
  if (!plan.ok()) return std::string(plan.status().message());
  return std::string(plan->name);
}

// The number of elements of the root of `hlo`.
int64_t RootElements(const std::string& hlo) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  return module.ok() ? (*module)->entry()->root()->shape().ElementCount() : 0;
}

TEST(DepthwiseRowsE2eTest, NarrowRowsHandComputed) {
  // Two features along W = 5, padding 1 on both sides (no vector fits):
  //   feature 0: x = 1 2 3 4 5, k = 1 10 100:
  //     out[x] = x[x-1] + 10 x[x] + 100 x[x+1]
  //     = 0+10+200, 1+20+300, 2+30+400, 3+40+500, 4+50+0
  //   feature 1: x = 10 20 30 40 50, k = 2 0 -1:
  //     out[x] = 2 x[x-1] - x[x+1] = -20, -10, 0, 10, 80
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[1,2,5] parameter(0)
  k = f32[2,1,3] parameter(1)
  ROOT c = f32[1,2,5] convolution(x, k), window={size=3 pad=1_1},
      dim_labels=bf0_oi0->bf0, feature_group_count=2
})";
  EXPECT_EQ(RootStrategy(hlo, false), "depthwise-rows");
  const std::vector<Literal> args = {
      MakeArray<P::kF32>({1, 2, 5}, {1, 2, 3, 4, 5, 10, 20, 30, 40, 50}),
      MakeArray<P::kF32>({2, 1, 3}, {1, 10, 100, 2, 0, -1})};
  auto results = CompileAndRun(hlo, args);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT(
      Values<P::kF32>((*results)[0]),
      ::testing::ElementsAre(210, 321, 432, 543, 54, -20, -10, 0, 10, 80));
}

TEST(DepthwiseRowsE2eTest, WideRowHandComputed) {
  // One row of W = 40, x[i] = i, k = 1 10 100, padding 1: inside the row
  // out[i] = (i - 1) + 10 i + 100 (i + 1) = 111 i + 99 (the vector loop);
  // at the ends the padded tap is missing: out[0] = 10 * 0 + 100 * 1 = 100,
  // out[39] = 38 + 390 = 428. Both features read the same numbers; the
  // second kernel is the first times 2.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[1,2,40] parameter(0)
  k = f32[2,1,3] parameter(1)
  ROOT c = f32[1,2,40] convolution(x, k), window={size=3 pad=1_1},
      dim_labels=bf0_oi0->bf0, feature_group_count=2
})";
  EXPECT_EQ(RootStrategy(hlo, false), "depthwise-rows");
  std::vector<float> x(80), want(80);
  for (int i = 0; i < 40; ++i) {
    x[i] = x[40 + i] = static_cast<float>(i);
    const float v = i == 0 ? 100.0f : i == 39 ? 428.0f : 111.0f * i + 99;
    want[i] = v;
    want[40 + i] = 2 * v;
  }
  auto results = CompileAndRun(
      hlo, {MakeArray<P::kF32>({1, 2, 40}, x),
            MakeArray<P::kF32>({2, 1, 3}, {1, 10, 100, 2, 20, 200})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kF32>((*results)[0]), want);
}

TEST(DepthwiseRowsE2eTest, ChannelMultiplierHandComputed) {
  // Two output features per input feature: output feature o reads input
  // feature o / 2. x = 1 2 3 | 4 5 6, kernels (size 2, no padding):
  //   o0: 1 1 -> 3 5      o1: 1 -1 -> -1 -1
  //   o2: 2 0 -> 8 10     o3: 0 3  -> 15 18
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[1,2,3] parameter(0)
  k = f32[4,1,2] parameter(1)
  ROOT c = f32[1,4,2] convolution(x, k), window={size=2},
      dim_labels=bf0_oi0->bf0, feature_group_count=2
})";
  EXPECT_EQ(RootStrategy(hlo, false), "depthwise-rows");
  auto results = CompileAndRun(
      hlo, {MakeArray<P::kF32>({1, 2, 3}, {1, 2, 3, 4, 5, 6}),
            MakeArray<P::kF32>({4, 1, 2}, {1, 1, 1, -1, 2, 0, 0, 3})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT(Values<P::kF32>((*results)[0]),
              ::testing::ElementsAre(3, 5, -1, -1, 8, 10, 15, 18));
}

// XLA's CPU benchmark module: bf16 NCHW 3x3 over 256 features at 56x56
// with a constant kernel, summed in float and rounded once like the
// evaluator.
TEST(DepthwiseRowsE2eTest, CorpusBf16ModuleGivesTheEvaluatorsBits) {
  std::ifstream file(std::string(AOTC_CORPUS_DIR) +
                     "/depthwise_conv_3x3_1x256x56x56_bf16_1.hlo");
  if (!file) GTEST_SKIP() << "no corpus at " << AOTC_CORPUS_DIR;
  std::stringstream text;
  text << file.rdbuf();
  const std::string hlo = text.str();
  EXPECT_EQ(RootStrategy(hlo, true), "depthwise-rows");
  ExpectEvaluatorsBits(
      hlo, {RandomLiteral(Shape::Array(P::kBF16, {1, 256, 56, 56}), 5, 0)});
}

TEST(DepthwiseRowsE2eTest, FusedBiasAndReluGiveTheEvaluatorsBits) {
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[2,6,13,37] parameter(0)
  k = f32[6,1,3,3] parameter(1)
  bias = f32[6] parameter(2)
  c = f32[2,6,13,37] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01, feature_group_count=6
  bb = f32[2,6,13,37] broadcast(bias), dimensions={1}
  s = f32[2,6,13,37] add(c, bb)
  z = f32[] constant(0)
  zb = f32[2,6,13,37] broadcast(z), dimensions={}
  ROOT r = f32[2,6,13,37] maximum(s, zb)
})";
  EXPECT_EQ(RootStrategy(hlo, true), "depthwise-rows");
  ExpectEvaluatorsBits(
      hlo, {RandomLiteral(Shape::Array(P::kF32, {2, 6, 13, 37}), 7, 0),
            RandomLiteral(Shape::Array(P::kF32, {6, 1, 3, 3}), 7, 1),
            RandomLiteral(Shape::Array(P::kF32, {6}), 7, 2)});
}

// Strides along W: vectors of inputs loaded as one contiguous run with
// every stride-th element kept up to stride 4, read one by one above it;
// the run ends at the last lane's input. In the first case the interior
// is x in [1, 33) (x = 33 would read past the row), whose last vector reads
// up to input 2 * 32 - 1 + 2 = 65, the row's last: for the last row of the
// last feature, the input's last element, right before a guard page (the
// input is 4224 bytes, a multiple of the buffers' 64-byte alignment).
TEST(DepthwiseRowsE2eTest, StridedRowsGiveTheEvaluatorsBits) {
  const std::vector<std::string> cases = {
      R"(HloModule m
ENTRY e {
  x = f32[1,4,4,66] parameter(0)
  k = f32[4,1,3,3] parameter(1)
  ROOT c = f32[1,4,2,33] convolution(x, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01, feature_group_count=4
})",
      R"(HloModule m
ENTRY e {
  x = bf16[2,2,7,71] parameter(0)
  k = bf16[2,1,2,3] parameter(1)
  ROOT c = bf16[2,2,6,23] convolution(x, k), window={size=2x3 stride=1x3 pad=0_0x-1_2 rhs_dilate=1x2 rhs_reversal=0x1}, dim_labels=bf01_oi01->bf01, feature_group_count=2
})",
      R"(HloModule m
ENTRY e {
  x = f32[1,2,3,130] parameter(0)
  k = f32[2,1,1,3] parameter(1)
  ROOT c = f32[1,2,3,32] convolution(x, k), window={size=1x3 stride=1x4}, dim_labels=bf01_oi01->bf01, feature_group_count=2
})",
      R"(HloModule m
ENTRY e {
  x = f64[1,2,3,170] parameter(0)
  k = f64[2,1,1,3] parameter(1)
  ROOT c = f64[1,2,3,34] convolution(x, k), window={size=1x3 stride=1x5 pad=0_0x1_1}, dim_labels=bf01_oi01->bf01, feature_group_count=2
})",
  };
  for (const std::string& hlo : cases) {
    SCOPED_TRACE(hlo);
    EXPECT_EQ(RootStrategy(hlo, true), "depthwise-rows");
    auto module = LoadModuleFromString(hlo, "test.hlo");
    ASSERT_TRUE(module.ok()) << module.status();
    ExpectEvaluatorsBits(hlo,
                         testing::RandomArguments(*(*module)->entry(), 17));
  }
}

// Depthwise convolutions that are not for depthwise-rows: the generic
// loops take them, with the evaluator's numbers.
TEST(DepthwiseRowsE2eTest, NearMissesGoElsewhere) {
  const std::vector<std::string> cases = {
      // Input dilation (a transposed convolution).
      R"(HloModule m
ENTRY e {
  x = f32[1,4,9,9] parameter(0)
  k = f32[4,1,3,3] parameter(1)
  ROOT c = f32[1,4,17,17] convolution(x, k), window={size=3x3 pad=1_1x1_1 lhs_dilate=2x2}, dim_labels=bf01_oi01->bf01, feature_group_count=4
})",
      // Features most minor in the result: no spatial row to vectorize.
      R"(HloModule m
ENTRY e {
  x = f32[1,4,9,9] parameter(0)
  k = f32[4,1,3,3] parameter(1)
  ROOT c = f32[1,9,9,4] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->b01f, feature_group_count=4
})",
      // Two input features per group: grouped, not depthwise.
      R"(HloModule m
ENTRY e {
  x = f32[1,8,9,9] parameter(0)
  k = f32[4,2,3,3] parameter(1)
  ROOT c = f32[1,4,9,9] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01, feature_group_count=4
})",
      // 4097 kernel taps, more than a row keeps on the stack.
      R"(HloModule m
ENTRY e {
  x = f32[1,2,4099] parameter(0)
  k = f32[2,1,4097] parameter(1)
  ROOT c = f32[1,2,3] convolution(x, k), window={size=4097}, dim_labels=bf0_oi0->bf0, feature_group_count=2
})",
      // Integers.
      R"(HloModule m
ENTRY e {
  x = s32[1,4,9,9] parameter(0)
  k = s32[4,1,3,3] parameter(1)
  ROOT c = s32[1,4,9,9] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01, feature_group_count=4
})",
  };
  for (const std::string& hlo : cases) {
    SCOPED_TRACE(hlo);
    EXPECT_EQ(RootStrategy(hlo, true), "element-loops");
    auto module = LoadModuleFromString(hlo, "test.hlo");
    ASSERT_TRUE(module.ok()) << module.status();
    testing::ExpectMatchesEvaluator(
        hlo, testing::RandomArguments(*(*module)->entry(), 11));
  }
}

struct RandomDepthwise {
  std::string hlo;
  std::vector<Literal> args;
  // The result's rows have at least 24 elements: most of them in the
  // vector loop, with 16 lanes or fewer.
  bool wide = false;
};

// A depthwise convolution with the labels of each operand and the result
// in a random order, the input's features never its most minor dimension
// (half the time W is, for the contiguous vector loads), the result's most
// minor dimension one of its spatial ones; sizes 1, primes and odd, some
// rows wide enough for vectors; strides, padding (negative too), kernel
// dilation, reversal and channel multipliers vary; f32, f64, bf16, f16.
RandomDepthwise MakeRandomDepthwise(std::mt19937& rng, int case_index) {
  auto pick = [&](std::vector<int64_t> v) { return Pick(rng, v); };
  static const char* const kTypes[] = {"f32", "f32", "f64", "bf16", "f16"};
  static const P kPTypes[] = {P::kF32, P::kF32, P::kF64, P::kBF16, P::kF16};
  const int64_t type = pick({0, 1, 2, 3, 4});
  const int spatial = static_cast<int>(pick({1, 2, 2, 2, 3}));
  const int64_t batch = pick({1, 2, 3});
  const int64_t features = pick({2, 3, 5, 7});
  const int64_t multiplier = pick({1, 1, 1, 2, 3});
  // W, the last spatial dimension, wide enough for vectors most of the
  // time.
  const RandomWindow window =
      MakeRandomWindow(rng, spatial,
                       [&](int i) {
                         return i == spatial - 1 ? pick({1, 5, 17, 31, 61, 67})
                                                 : pick({1, 2, 3, 5, 7});
                       },
                       {-2, -1, 0, 0, 1, 2, 3});
  const std::string ll = ShuffledLabels('b', 'f', spatial, rng);
  const std::string rl = ShuffledLabels('i', 'o', spatial, rng);
  const std::string ol = ShuffledLabels('b', 'f', spatial, rng);
  const std::vector<int64_t> lhs_dims =
      LabelDims(ll, batch, features, window.in_sizes);
  const std::vector<int64_t> rhs_dims =
      LabelDims(rl, 1, features * multiplier, window.win_sizes);
  const std::vector<int64_t> out_dims =
      LabelDims(ol, batch, features * multiplier, window.out_sizes);
  // W is the result's most minor dimension; the input's too half the time.
  const char w = static_cast<char>('0' + spatial - 1);
  const bool w_minor = pick({0, 1}) == 1;
  const std::vector<int64_t> lhs_m2m =
      RandomLayout(ll.size(), w_minor ? static_cast<int64_t>(ll.find(w)) : -1,
                   static_cast<int64_t>(ll.find('f')), rng);
  const std::vector<int64_t> rhs_m2m = RandomLayout(rl.size(), -1, -1, rng);
  const std::vector<int64_t> out_m2m =
      RandomLayout(ol.size(), static_cast<int64_t>(ol.find(w)), -1, rng);
  const char* t = kTypes[type];
  RandomDepthwise r;
  r.hlo = absl::StrCat(
      "HloModule m\nENTRY e {\n  x = ", t, ShapeText(lhs_dims, lhs_m2m),
      " parameter(0)\n  k = ", t, ShapeText(rhs_dims, rhs_m2m),
      " parameter(1)\n  ROOT c = ", t, ShapeText(out_dims, out_m2m),
      " convolution(x, k), ", window.text, ", dim_labels=", ll, "_", rl, "->",
      ol, ", feature_group_count=", features, "\n}\n");
  r.args.push_back(
      RandomLiteral(Shape::Array(kPTypes[type], lhs_dims), case_index, 0));
  r.args.push_back(
      RandomLiteral(Shape::Array(kPTypes[type], rhs_dims), case_index, 1));
  r.wide = window.out_sizes.back() >= 24;
  return r;
}

// Every random case with a non-empty input and result is planned by
// depthwise-rows and gives the evaluator's numbers bit for bit, on one
// thread and split over threads.
TEST(DepthwiseRowsE2eTest, RandomFeatureMajorFormsGiveTheEvaluatorsBits) {
  std::mt19937 rng(20261126);
  int planned = 0, wide = 0;
  for (int i = 0; i < 100; ++i) {
    RandomDepthwise r = MakeRandomDepthwise(rng, 300 + i);
    SCOPED_TRACE(r.hlo);
    if (r.args[0].shape().ElementCount() > 0 && RootElements(r.hlo) > 0) {
      EXPECT_EQ(RootStrategy(r.hlo, true), "depthwise-rows");
      ++planned;
      if (r.wide) ++wide;
    }
    ExpectEvaluatorsBits(r.hlo, r.args);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_GE(planned, 60);
  EXPECT_GE(wide, 15);
}

}  // namespace
}  // namespace aotc::codegen
