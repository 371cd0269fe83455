// End-to-end tests of grouped convolutions on the gemm strategy (one
// product per feature group, docs/codegen.md "Convolution"): seeded random
// shapes (2, 3, 4 and 32 groups, prime and power-of-two features per group,
// strides, padding, dilation, batches, NHWC and NCHW) against the
// evaluator, a fused epilogue, constant kernels packed at compile time, the
// evaluator's numbers bit for bit under --strict-fp, and the grouped
// convolutions the gemm leaves to other strategies.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/tests/codegen_test_util.h"
#include "codegen/tests/gemm_test_util.h"

namespace aotc::codegen::testing {
namespace {

struct GroupedConv {
  int64_t groups, in, out;  // features per group
  int64_t batch, height, width;
  int64_t kh, kw, sh, sw, dh, dw;
  int64_t pad[4];  // low and high along height, then width
  bool nchw;

  int64_t OutSize(int64_t size, int64_t k, int64_t s, int64_t d, int64_t lo,
                  int64_t hi) const {
    return (size + lo + hi - ((k - 1) * d + 1)) / s + 1;
  }
  int64_t oh() const { return OutSize(height, kh, sh, dh, pad[0], pad[1]); }
  int64_t ow() const { return OutSize(width, kw, sw, dw, pad[2], pad[3]); }
  // The convolution's multiply-adds.
  int64_t work() const {
    return batch * oh() * ow() * groups * out * kh * kw * in;
  }

  std::string Hlo() const {
    auto dims = [](std::vector<int64_t> d) {
      std::string s;
      for (size_t i = 0; i < d.size(); ++i) absl::StrAppend(&s, i ? "," : "", d[i]);
      return s;
    };
    const int64_t c = groups * in, o = groups * out;
    const std::string x = nchw ? dims({batch, c, height, width})
                               : dims({batch, height, width, c});
    const std::string w = nchw ? dims({o, in, kh, kw}) : dims({kh, kw, in, o});
    const std::string y = nchw ? dims({batch, o, oh(), ow()})
                               : dims({batch, oh(), ow(), o});
    return absl::StrCat(
        "HloModule m\nENTRY e {\n  x = f32[", x, "] parameter(0)\n  w = f32[", w,
        "] parameter(1)\n  ROOT c = f32[", y, "] convolution(x, w), window={size=",
        kh, "x", kw, " stride=", sh, "x", sw, " pad=", pad[0], "_", pad[1], "x",
        pad[2], "_", pad[3], " rhs_dilate=", dh, "x", dw, "}, dim_labels=",
        nchw ? "bf01_oi01->bf01" : "b01f_01io->b01f",
        ", feature_group_count=", groups, "\n}\n");
  }
};

// A seeded random grouped convolution with `groups` groups, redrawn until
// the gemm takes it (docs/codegen.md: depth taps x features of 16, 2^14
// multiply-adds, 8 rows; feature-major, 16 output positions per batch
// element), with at least 2 output features per group (4 feature-major).
GroupedConv RandomGroupedConv(std::mt19937& rng, int64_t groups, bool nchw) {
  auto pick = [&](std::vector<int64_t> v) {
    return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
  };
  auto in_range = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (;;) {
    GroupedConv g;
    g.groups = groups;
    g.nchw = nchw;
    g.in = pick({2, 3, 4, 5, 7, 8, 11, 13, 16});
    g.out = nchw ? pick({4, 5, 7, 8, 13, 16}) : pick({2, 3, 5, 8, 13, 16});
    g.batch = in_range(1, 3);
    g.height = in_range(4, 12);
    g.width = in_range(4, 12);
    g.kh = in_range(1, 3);
    g.kw = in_range(1, 3);
    g.sh = in_range(1, 2);
    g.sw = in_range(1, 2);
    g.dh = in_range(1, 2);
    g.dw = in_range(1, 2);
    for (int64_t& p : g.pad) p = in_range(0, 2);
    if (g.kh * g.kw * g.in < 16 || g.oh() < 1 || g.ow() < 1 ||
        g.work() < (int64_t{1} << 14) || g.batch * g.oh() * g.ow() < 8 ||
        (nchw && g.oh() * g.ow() < 16)) {
      continue;
    }
    return g;
  }
}

TEST(GroupedConvE2eTest, RandomShapesMatchTheEvaluator) {
  std::mt19937 rng(20261126);
  std::vector<ConvCase> cases;
  for (int64_t groups : {2, 3, 4, 32}) {
    for (bool nchw : {false, true}) {
      for (int i = 0; i < 3; ++i) {
        const GroupedConv g = RandomGroupedConv(rng, groups, nchw);
        cases.push_back({absl::StrCat(groups, " groups of ", g.in, " -> ", g.out,
                                      nchw ? ", NCHW" : ", NHWC"),
                         g.Hlo()});
      }
    }
  }
  ExpectGemmConvolutionsMatch(cases);
}

// Hand-picked forms: ResNeXt's 32 groups of 4 at a small size, a 1-D
// convolution, f64 (NCHW, and NHWC interleaved), a reversed window with
// negative padding, a group with more input features than one depth slice,
// a window of more taps than one slice, a pointwise NCHW group and a fused
// bias and relu.
TEST(GroupedConvE2eTest, HandPickedFormsMatchTheEvaluator) {
  ExpectGemmConvolutionsMatch({
      {"ResNeXt 3x3, 32 groups of 4, NHWC", R"(HloModule m
ENTRY e {
  x = f32[1,14,14,128] parameter(0)
  w = f32[3,3,4,128] parameter(1)
  ROOT c = f32[1,14,14,128] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=32
})"},
      {"ResNeXt 3x3 stride 2, 32 groups of 8, NCHW", R"(HloModule m
ENTRY e {
  x = f32[1,256,15,15] parameter(0)
  w = f32[256,8,3,3] parameter(1)
  ROOT c = f32[1,256,8,8] convolution(x, w), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01, feature_group_count=32
})"},
      {"1-D, 3 groups of 7 -> 5", R"(HloModule m
ENTRY e {
  x = f32[2,40,21] parameter(0)
  w = f32[3,7,15] parameter(1)
  ROOT c = f32[2,38,15] convolution(x, w), window={size=3}, dim_labels=b0f_0io->b0f, feature_group_count=3
})"},
      {"f64, 2 groups, NCHW", R"(HloModule m
ENTRY e {
  x = f64[1,10,9,9] parameter(0)
  w = f64[12,5,3,3] parameter(1)
  ROOT c = f64[1,12,9,9] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01, feature_group_count=2
})"},
      {"f64, 4 groups of 4 interleaved two to a vector, NHWC", R"(HloModule m
ENTRY e {
  x = f64[2,9,8,16] parameter(0)
  w = f64[3,3,4,16] parameter(1)
  ROOT c = f64[2,9,8,16] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=4
})"},
      {"reversed, dilated, negative padding, 4 groups", R"(HloModule m
ENTRY e {
  x = f32[1,13,12,12] parameter(0)
  w = f32[3,2,3,20] parameter(1)
  ROOT c = f32[1,10,12,20] convolution(x, w), window={size=3x2 pad=2_-1x0_1 rhs_dilate=2x1 rhs_reversal=1x0}, dim_labels=b01f_01io->b01f, feature_group_count=4
})"},
      {"2 groups of 300 features: several depth slices per tap", R"(HloModule m
ENTRY e {
  x = f32[1,6,6,600] parameter(0)
  w = f32[2,2,300,32] parameter(1)
  ROOT c = f32[1,5,5,32] convolution(x, w), window={size=2x2}, dim_labels=b01f_01io->b01f, feature_group_count=2
})"},
      {"11x11 window, 4 groups of 5: a group's taps over several slices", R"(HloModule m
ENTRY e {
  x = f32[1,14,13,20] parameter(0)
  w = f32[11,11,5,16] parameter(1)
  ROOT c = f32[1,9,6,16] convolution(x, w), window={size=11x11 pad=2_3x2_1}, dim_labels=b01f_01io->b01f, feature_group_count=4
})"},
      {"1x1 pointwise NCHW, 2 groups (planes read in place)", R"(HloModule m
ENTRY e {
  x = f32[2,64,7,11] parameter(0)
  w = f32[24,32,1,1] parameter(1)
  ROOT c = f32[2,24,7,11] convolution(x, w), window={size=1x1}, dim_labels=bf01_oi01->bf01, feature_group_count=2
})"},
      {"bias and relu fused, 8 groups", R"(HloModule m
ENTRY e {
  x = f32[1,10,10,32] parameter(0)
  w = f32[3,3,4,64] parameter(1)
  bias = f32[64] parameter(2)
  c = f32[1,10,10,64] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=8
  bb = f32[1,10,10,64] broadcast(bias), dimensions={3}
  s = f32[1,10,10,64] add(c, bb)
  z = f32[] constant(0)
  zb = f32[1,10,10,64] broadcast(z), dimensions={}
  ROOT r = f32[1,10,10,64] maximum(s, zb)
})"},
  });
}

// Each group's sums in the evaluator's order (tap, then the group's input
// feature): under --strict-fp its numbers bit for bit.
TEST(GroupedConvE2eTest, StrictFpGivesTheEvaluatorsNumbersBitForBit) {
  for (const char* hlo : {R"(HloModule m
ENTRY e {
  x = f32[2,9,10,48] parameter(0)
  w = f32[3,3,12,20] parameter(1)
  ROOT c = f32[2,9,5,20] convolution(x, w), window={size=3x3 stride=1x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=4
})",
                          R"(HloModule m
ENTRY e {
  x = f32[1,10,9,32] parameter(0)
  w = f32[3,3,4,32] parameter(1)
  ROOT c = f32[1,10,9,32] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=8
})",
                          R"(HloModule m
ENTRY e {
  x = f32[2,15,11,13] parameter(0)
  w = f32[21,5,3,3] parameter(1)
  ROOT c = f32[2,21,6,13] convolution(x, w), window={size=3x3 stride=2x1 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01, feature_group_count=3
})"}) {
    SCOPED_TRACE(hlo);
    EXPECT_EQ(PlanName(hlo), "gemm");
    ExpectStrictFpBitForBit(hlo, 31);
  }
}

TEST(GroupedConvE2eTest, ConstantKernelsArePackedAtCompileTime) {
  // k[ky,kx,c,o] = (ky + 2 kx + 3 c + o) % 7 - 3 over 4 groups of 3 -> 8
  // features, in HWIO for an NHWC and an NCHW input.
  const std::string k_text = KernelLiteralText(3, 32, 7);
  const std::string nhwc = absl::StrCat(R"(HloModule m
ENTRY e {
  x = f32[1,12,10,12] parameter(0)
  k = f32[3,3,3,32] constant()", k_text, R"()
  ROOT c = f32[1,12,10,32] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=4
})");
  const std::string nchw = absl::StrCat(R"(HloModule m
ENTRY e {
  x = f32[1,12,12,10] parameter(0)
  k = f32[3,3,3,32] constant()", k_text, R"()
  ROOT c = f32[1,32,12,10] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_01io->bf01, feature_group_count=4
})");
  ExpectKernelsPackedAtCompileTime(
      {{&nhwc, {1, 12, 10, 12}}, {&nchw, {1, 12, 12, 10}}});
}

// A batch group instead of a feature group, one input feature per group
// (depthwise), one output feature per group in NHWC (10 groups, which do
// not fill whole vectors of 4, 8 or 16 lanes, so they are not interleaved)
// and three in NCHW stay with other strategies; one in NHWC over 16 groups
// (interleaved), two in NHWC and four in NCHW are the gemm's. Each still
// matches the evaluator.
TEST(GroupedConvE2eTest, GroupedConvolutionsTheGemmDeclines) {
  // A 3x3 window over 12x12, batch 1, of `groups` groups of `in` -> `out`
  // features.
  auto conv = [](int64_t groups, int64_t in, int64_t out, bool nchw) {
    const GroupedConv g{groups, in, out, 1, 12, 12, 3, 3,
                        1,      1,  1,   1, {0, 0, 0, 0}, nchw};
    return g.Hlo();
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"(HloModule m
ENTRY e {
  x = f32[4,10,10,16] parameter(0)
  w = f32[3,3,16,32] parameter(1)
  ROOT c = f32[2,8,8,32] convolution(x, w), window={size=3x3}, dim_labels=b01f_01io->b01f, batch_group_count=2
})",
       "element-loops"},
      {conv(32, 1, 1, false), "depthwise"},
      {conv(10, 4, 1, false), "element-loops"},
      {conv(16, 4, 1, false), "gemm"},
      {conv(16, 4, 2, false), "gemm"},
      {conv(16, 4, 3, true), "element-loops"},
      {conv(16, 4, 4, true), "gemm"},
  };
  for (const auto& [hlo, strategy] : cases) {
    SCOPED_TRACE(hlo);
    EXPECT_EQ(PlanName(hlo), strategy);
    auto module = LoadModuleFromString(hlo, "test.hlo");
    ASSERT_TRUE(module.ok()) << module.status();
    std::vector<Literal> args;
    for (const Instruction* p : (*module)->entry()->parameters()) {
      args.push_back(RandomLiteral(p->shape(), 23, args.size()));
    }
    ExpectMatchesEvaluator(hlo, args);
  }
}

}  // namespace
}  // namespace aotc::codegen::testing
