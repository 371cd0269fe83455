// Tests of the evaluator's convolution kernel. Small cases are worked out by
// hand in the comments; larger ones are compared with a naive NCHW formula
// written here.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/evaluator/kernel_test_util.h"
#include "compiler/ir/literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using ::aotc::testing_util::F32;
using ::aotc::testing_util::MustRun;
using ::aotc::testing_util::Values;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

// A 1-D convolution of x: f32[1,1,n] with kernel k: f32[1,1,3] (bf0 / oi0).
std::string Conv1D(int n, int out, std::string_view window) {
  return "HloModule m\nENTRY e {\n  x = f32[1,1," + std::to_string(n) +
         "] parameter(0)\n  k = f32[1,1,3] parameter(1)\n  ROOT c = f32[1,1," +
         std::to_string(out) + "] convolution(x, k), window={" +
         std::string(window) + "}, dim_labels=bf0_oi0->bf0\n}\n";
}

const std::vector<float> kX = {1, 2, 3, 4, 5};
const std::vector<float> kK = {1, 2, 3};

TEST(ConvolutionTest, OneDimensionalValid) {
  // out[j] = x[j] + 2 x[j+1] + 3 x[j+2]: 1+4+9, 2+6+12, 3+8+15.
  Literal r =
      MustRun(Conv1D(5, 3, "size=3"), {F32({1, 1, 5}, kX), F32({1, 1, 3}, kK)});
  EXPECT_THAT(Values<float>(r), ElementsAre(14, 20, 26));
}

TEST(ConvolutionTest, OneDimensionalStride) {
  Literal r = MustRun(Conv1D(5, 2, "size=3 stride=2"),
                      {F32({1, 1, 5}, kX), F32({1, 1, 3}, kK)});
  EXPECT_THAT(Values<float>(r), ElementsAre(14, 26));
}

TEST(ConvolutionTest, OneDimensionalPadding) {
  // [0, 1, 2, 3, 4, 5, 0]: 0+2+6, 14, 20, 26, 4+10+0.
  Literal r = MustRun(Conv1D(5, 5, "size=3 pad=1_1"),
                      {F32({1, 1, 5}, kX), F32({1, 1, 3}, kK)});
  EXPECT_THAT(Values<float>(r), ElementsAre(8, 14, 20, 26, 14));
}

TEST(ConvolutionTest, OneDimensionalNegativePadding) {
  // pad=-1_0 drops x[0]: [2, 3, 4, 5] -> 2+6+12, 3+8+15.
  Literal r = MustRun(Conv1D(5, 2, "size=3 pad=-1_0"),
                      {F32({1, 1, 5}, kX), F32({1, 1, 3}, kK)});
  EXPECT_THAT(Values<float>(r), ElementsAre(20, 26));
}

TEST(ConvolutionTest, OneDimensionalLhsDilation) {
  // lhs_dilate=2: d = [1, 0, 2, 0, 3, 0, 4, 0, 5] (holes read as nothing);
  // out[j] = d[j] + 2 d[j+1] + 3 d[j+2]:
  //   1+0+6, 0+4+0, 2+0+9, 0+6+0, 3+0+12, 0+8+0, 4+0+15.
  Literal r = MustRun(Conv1D(5, 7, "size=3 lhs_dilate=2"),
                      {F32({1, 1, 5}, kX), F32({1, 1, 3}, kK)});
  EXPECT_THAT(Values<float>(r), ElementsAre(7, 4, 11, 6, 15, 8, 19));
}

TEST(ConvolutionTest, OneDimensionalRhsDilation) {
  // rhs_dilate=2 reads x[j], x[j+2], x[j+4] of [1..6]:
  //   1 + 2*3 + 3*5 = 22, 2 + 2*4 + 3*6 = 28.
  Literal r = MustRun(Conv1D(6, 2, "size=3 rhs_dilate=2"),
                      {F32({1, 1, 6}, {1, 2, 3, 4, 5, 6}), F32({1, 1, 3}, kK)});
  EXPECT_THAT(Values<float>(r), ElementsAre(22, 28));
}

TEST(ConvolutionTest, OneDimensionalWindowReversal) {
  // rhs_reversal=1 uses the kernel as [3, 2, 1]: 3+4+3, 6+6+4, 9+8+5.
  Literal r = MustRun(Conv1D(5, 3, "size=3 rhs_reversal=1"),
                      {F32({1, 1, 5}, kX), F32({1, 1, 3}, kK)});
  EXPECT_THAT(Values<float>(r), ElementsAre(10, 16, 22));
}

TEST(ConvolutionTest, SameOperandAsInputAndKernel) {
  // x = [1, 2, 3] convolved with itself, size 3, pad 1_1:
  //   [0, 1, 2] . [1, 2, 3] = 8, [1, 2, 3] . [1, 2, 3] = 14,
  //   [2, 3, 0] . [1, 2, 3] = 8.
  std::string hlo = R"(HloModule m
ENTRY e {
  x = f32[1,1,3] parameter(0)
  ROOT c = f32[1,1,3] convolution(x, x), window={size=3 pad=1_1}, dim_labels=bf0_oi0->bf0
}
)";
  EXPECT_THAT(Values<float>(MustRun(hlo, {F32({1, 1, 3}, {1, 2, 3})})),
              ElementsAre(8, 14, 8));
}

TEST(ConvolutionTest, TwoDimensionalByHand) {
  // x = [[1, 2, 3], [4, 5, 6], [7, 8, 9]], k = [[1, 2], [3, 4]]
  //   out[0][0] = 1 + 4 + 12 + 20 = 37   out[0][1] = 2 + 6 + 15 + 24 = 47
  //   out[1][0] = 4 + 10 + 21 + 32 = 67  out[1][1] = 5 + 12 + 24 + 36 = 77
  std::string hlo = R"(HloModule m
ENTRY e {
  x = f32[1,1,3,3] parameter(0)
  k = f32[1,1,2,2] parameter(1)
  ROOT c = f32[1,1,2,2] convolution(x, k), window={size=2x2}, dim_labels=bf01_oi01->bf01
}
)";
  Literal r = MustRun(hlo, {F32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}),
                            F32({1, 1, 2, 2}, {1, 2, 3, 4})});
  EXPECT_THAT(Values<float>(r), ElementsAre(37, 47, 67, 77));
}

TEST(ConvolutionTest, FeatureGroupCountTwoIsDepthwise) {
  // Input features [1, 2, 3] and [4, 5, 6]; kernel o0 = [1, 1] reads
  // feature 0, o1 = [1, -1] reads feature 1:
  //   o0: [1+2, 2+3] = [3, 5]; o1: [4-5, 5-6] = [-1, -1].
  std::string hlo = R"(HloModule m
ENTRY e {
  x = f32[1,2,3] parameter(0)
  k = f32[2,1,2] parameter(1)
  ROOT c = f32[1,2,2] convolution(x, k), window={size=2}, dim_labels=bf0_oi0->bf0, feature_group_count=2
}
)";
  Literal r = MustRun(
      hlo, {F32({1, 2, 3}, {1, 2, 3, 4, 5, 6}), F32({2, 1, 2}, {1, 1, 1, -1})});
  EXPECT_THAT(Values<float>(r), ElementsAre(3, 5, -1, -1));
}

TEST(ConvolutionTest, BatchGroupCountTwo) {
  // Batches [1, 2, 3] and [4, 5, 6] (one feature); output feature o0 reads
  // batch group 0, o1 batch group 1; the output has one batch:
  //   o0 = [1, 1] on batch 0: [3, 5]; o1 = [1, -1] on batch 1: [-1, -1].
  std::string hlo = R"(HloModule m
ENTRY e {
  x = f32[2,1,3] parameter(0)
  k = f32[2,1,2] parameter(1)
  ROOT c = f32[1,2,2] convolution(x, k), window={size=2}, dim_labels=bf0_oi0->bf0, batch_group_count=2
}
)";
  Literal r = MustRun(
      hlo, {F32({2, 1, 3}, {1, 2, 3, 4, 5, 6}), F32({2, 1, 2}, {1, 1, 1, -1})});
  EXPECT_THAT(Values<float>(r), ElementsAre(3, 5, -1, -1));
}

// Naive 2-D convolution on NCHW input and OIHW kernel with stride and low /
// high padding, no groups: the independent formula for the tests below.
std::vector<float> NaiveConv2D(const std::vector<float>& x, int n, int c, int h,
                               int w, const std::vector<float>& k, int o,
                               int kh, int kw, int stride, int pad) {
  const int oh = (h + 2 * pad - kh) / stride + 1;
  const int ow = (w + 2 * pad - kw) / stride + 1;
  std::vector<float> out;
  for (int b = 0; b < n; ++b) {
    for (int f = 0; f < o; ++f) {
      for (int y = 0; y < oh; ++y) {
        for (int xo = 0; xo < ow; ++xo) {
          float sum = 0;
          for (int ky = 0; ky < kh; ++ky) {
            for (int kx = 0; kx < kw; ++kx) {
              const int iy = y * stride + ky - pad;
              const int ix = xo * stride + kx - pad;
              if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
              for (int z = 0; z < c; ++z) {
                sum += x[((b * c + z) * h + iy) * w + ix] *
                       k[((f * c + z) * kh + ky) * kw + kx];
              }
            }
          }
          out.push_back(sum);
        }
      }
    }
  }
  return out;
}

// Test data: small integers so that every sum is exact in f32.
std::vector<float> Ramp(int count, int mod, int offset) {
  std::vector<float> v;
  for (int i = 0; i < count; ++i)
    v.push_back(static_cast<float>((i * 7) % mod - offset));
  return v;
}

TEST(ConvolutionTest, NchwMatchesNaiveFormula) {
  // n=2, c=3, 5x4 input, o=2, 3x2 kernel, stride 2, pad 1.
  const std::vector<float> x = Ramp(2 * 3 * 5 * 4, 9, 4);
  const std::vector<float> k = Ramp(2 * 3 * 3 * 2, 5, 2);
  const std::vector<float> expected =
      NaiveConv2D(x, 2, 3, 5, 4, k, 2, 3, 2, 2, 1);
  // Output spatial: (5 + 2 - 3) / 2 + 1 = 3, (4 + 2 - 2) / 2 + 1 = 3.
  std::string hlo = R"(HloModule m
ENTRY e {
  x = f32[2,3,5,4] parameter(0)
  k = f32[2,3,3,2] parameter(1)
  ROOT c = f32[2,2,3,3] convolution(x, k), window={size=3x2 stride=2x2 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01
}
)";
  Literal r = MustRun(hlo, {F32({2, 3, 5, 4}, x), F32({2, 3, 3, 2}, k)});
  EXPECT_THAT(Values<float>(r), ElementsAreArray(expected));
}

TEST(ConvolutionTest, NhwcLabelsGiveTheSameNumbersOnTransposedData) {
  // The NCHW / OIHW case above, with the data transposed to NHWC / HWIO and
  // dim_labels b01f_01io->b01f; the result comes back as NHWC.
  const int n = 2, c = 3, h = 5, w = 4, o = 2, kh = 3, kw = 2, oh = 3, ow = 3;
  const std::vector<float> x = Ramp(n * c * h * w, 9, 4);
  const std::vector<float> k = Ramp(o * c * kh * kw, 5, 2);
  const std::vector<float> nchw =
      NaiveConv2D(x, n, c, h, w, k, o, kh, kw, 2, 1);
  std::vector<float> x_nhwc(x.size()), k_hwio(k.size()), expected(nchw.size());
  for (int b = 0; b < n; ++b)
    for (int z = 0; z < c; ++z)
      for (int y = 0; y < h; ++y)
        for (int i = 0; i < w; ++i)
          x_nhwc[((b * h + y) * w + i) * c + z] =
              x[((b * c + z) * h + y) * w + i];
  for (int f = 0; f < o; ++f)
    for (int z = 0; z < c; ++z)
      for (int y = 0; y < kh; ++y)
        for (int i = 0; i < kw; ++i)
          k_hwio[((y * kw + i) * c + z) * o + f] =
              k[((f * c + z) * kh + y) * kw + i];
  for (int b = 0; b < n; ++b)
    for (int f = 0; f < o; ++f)
      for (int y = 0; y < oh; ++y)
        for (int i = 0; i < ow; ++i)
          expected[((b * oh + y) * ow + i) * o + f] =
              nchw[((b * o + f) * oh + y) * ow + i];
  std::string hlo = R"(HloModule m
ENTRY e {
  x = f32[2,5,4,3] parameter(0)
  k = f32[3,2,3,2] parameter(1)
  ROOT c = f32[2,3,3,2] convolution(x, k), window={size=3x2 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
}
)";
  Literal r =
      MustRun(hlo, {F32({2, 5, 4, 3}, x_nhwc), F32({3, 2, 3, 2}, k_hwio)});
  EXPECT_THAT(Values<float>(r), ElementsAreArray(expected));
}

TEST(ConvolutionTest, S32WrapsAround) {
  // 65536 * 65536 = 2^32 -> 0, plus 7 * 1: 7.
  std::string hlo = R"(HloModule m
ENTRY e {
  x = s32[1,2,1] parameter(0)
  k = s32[1,2,1] parameter(1)
  ROOT c = s32[1,1,1] convolution(x, k), window={size=1}, dim_labels=bf0_oi0->bf0
}
)";
  Literal r = MustRun(hlo, {testing_util::S32({1, 2, 1}, {65536, 7}),
                            testing_util::S32({1, 2, 1}, {65536, 1})});
  EXPECT_THAT(Values<int32_t>(r), ElementsAre(7));
}

}  // namespace
}  // namespace aotc
