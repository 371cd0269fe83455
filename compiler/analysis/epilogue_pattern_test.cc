// Each epilogue pattern fires on the forms exporters print, and near misses
// (a wrong constant, another operand) do not.
#include "compiler/analysis/epilogue_pattern.h"

#include <string>
#include "absl/strings/string_view.h"

#include "absl/strings/str_cat.h"
#include "compiler/passes/fusion.h"
#include "compiler/passes/pass_test_util.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ParseVerified;
using testing::RunVerified;

// Fuses `d = dot(x, w)` (f32[4,16]) followed by `body`, which defines ROOT
// from `d` and the parameters b (f32[16]) and r (f32[4,16]); returns the
// pattern of the one fusion, or why there is none.
std::string PatternOf(absl::string_view body) {
  const std::string text = absl::StrCat(R"(HloModule m
ENTRY e {
  x = f32[4,8] parameter(0)
  w = f32[8,16] parameter(1)
  b = f32[16] parameter(2)
  r = f32[4,16] parameter(3)
  d = f32[4,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
)",
                                        body, "\n}\n");
  std::unique_ptr<Module> m = ParseVerified(text);
  if (m == nullptr) return "parse error";
  FusionPass pass;
  RunVerified(pass, *m);
  const Instruction* root = m->entry()->root();
  if (root->opcode() != Opcode::kFusion) return "not fused";
  return DescribeProductEpilogue(*root->fused_computation());
}

// The broadcasts of scalars the bodies use.
constexpr absl::string_view kScalars = R"(
  zero = f32[] constant(0)
  z = f32[4,16] broadcast(zero), dimensions={}
  one = f32[] constant(1)
  o = f32[4,16] broadcast(one), dimensions={}
  half = f32[] constant(0.5)
  h = f32[4,16] broadcast(half), dimensions={}
  bb = f32[4,16] broadcast(b), dimensions={1}
)";
// ... and v = d + b, the biased product the activations read.
constexpr absl::string_view kBiased = R"(
  v = f32[4,16] add(d, bb)
)";

TEST(EpiloguePatternTest, BiasThenRelu) {
  EXPECT_EQ(PatternOf(absl::StrCat(kScalars, kBiased, "  ROOT y = f32[4,16] maximum(v, z)")),
            "dot+bias+relu");
}

TEST(EpiloguePatternTest, ScaleBiasResidualRelu) {
  // A convolution-style batch norm folded into scale and shift, a shortcut,
  // then relu, as ResNet's blocks end.
  EXPECT_EQ(PatternOf(absl::StrCat(kScalars, R"(
  s = f32[4,16] multiply(d, bb)
  t = f32[4,16] add(s, bb)
  u = f32[4,16] add(t, r)
  ROOT y = f32[4,16] maximum(z, u))")),
            "dot+scale+bias+residual+relu");
}

TEST(EpiloguePatternTest, Relu6AsClamp) {
  EXPECT_EQ(PatternOf(absl::StrCat(kScalars, kBiased, R"(
  six = f32[] constant(6)
  sb = f32[4,16] broadcast(six), dimensions={}
  ROOT y = f32[4,16] clamp(z, v, sb))")),
            "dot+bias+relu6");
}

// (v * half) * (1 + erf(v * 0.70710678)), as torch-xla and JAX print it.
std::string GeluErf(absl::string_view half) {
  return absl::StrCat(kScalars, kBiased, R"(
  c = f32[] constant(0.70710678)
  cb = f32[4,16] broadcast(c), dimensions={}
  s = f32[4,16] multiply(v, cb)
  e = f32[4,16] erf(s)
  p = f32[4,16] add(e, o)
  hh = f32[] constant()", half, R"()
  hb = f32[4,16] broadcast(hh), dimensions={}
  q = f32[4,16] multiply(v, hb)
  ROOT y = f32[4,16] multiply(q, p))");
}

TEST(EpiloguePatternTest, GeluWithErfAsTorchAndJaxPrintIt) {
  EXPECT_EQ(PatternOf(GeluErf("0.5")), "dot+bias+gelu_erf");
}

// 0.5 x (1 + tanh(k (x + a x^3))) with the cube spelled `cube` and the
// constants k and a.
std::string GeluTanh(absl::string_view cube, absl::string_view k,
                     absl::string_view a) {
  return absl::StrCat(kScalars, kBiased, cube, R"(
  a = f32[] constant()", a, R"()
  ab = f32[4,16] broadcast(a), dimensions={}
  ac = f32[4,16] multiply(x3, ab)
  inner = f32[4,16] add(v, ac)
  k = f32[] constant()", k, R"()
  kb = f32[4,16] broadcast(k), dimensions={}
  ki = f32[4,16] multiply(inner, kb)
  th = f32[4,16] tanh(ki)
  p = f32[4,16] add(th, o)
  q = f32[4,16] multiply(h, v)
  ROOT y = f32[4,16] multiply(q, p))");
}

constexpr absl::string_view kCubeByMultiplies = R"(
  x2 = f32[4,16] multiply(v, v)
  x3 = f32[4,16] multiply(x2, v))";
constexpr absl::string_view kCubeByPower = R"(
  three = f32[] constant(3)
  tb = f32[4,16] broadcast(three), dimensions={}
  x3 = f32[4,16] power(v, tb))";

TEST(EpiloguePatternTest, GeluWithTanhEveryWay) {
  EXPECT_EQ(PatternOf(GeluTanh(kCubeByMultiplies, "0.7978845608", "0.044715")),
            "dot+bias+gelu_tanh");
  EXPECT_EQ(PatternOf(GeluTanh(kCubeByPower, "0.7978845608", "0.044715")),
            "dot+bias+gelu_tanh");
  // The constants rounded to bf16, as bf16 exports carry them.
  EXPECT_EQ(PatternOf(GeluTanh(kCubeByMultiplies, "0.796875", "0.0446777")),
            "dot+bias+gelu_tanh");
}

TEST(EpiloguePatternTest, SigmoidAndSilu) {
  EXPECT_EQ(PatternOf(absl::StrCat(kScalars, kBiased, "  ROOT y = f32[4,16] logistic(v)")),
            "dot+bias+sigmoid");
  EXPECT_EQ(PatternOf(absl::StrCat(kScalars, kBiased, R"(
  n = f32[4,16] negate(v)
  e = f32[4,16] exponential(n)
  p = f32[4,16] add(o, e)
  ROOT y = f32[4,16] divide(o, p))")),
            "dot+bias+sigmoid");
  EXPECT_EQ(PatternOf(absl::StrCat(kScalars, kBiased, R"(
  g = f32[4,16] logistic(v)
  ROOT y = f32[4,16] multiply(v, g))")),
            "dot+bias+silu");
}

TEST(EpiloguePatternTest, ActivationsWrittenWithoutTheirOwnOperation) {
  // relu as TensorFlow's select form: no max or min, but relu to f32
  // precision at every sample.
  EXPECT_EQ(PatternOf(absl::StrCat(kScalars, kBiased, R"(
  gt = pred[4,16] compare(v, z), direction=GT
  ROOT y = f32[4,16] select(gt, v, z))")),
            "dot+bias+relu");
  // tanh-GELU with its tanh written as 1 - 2 / (exp(2t) + 1): gelu_tanh,
  // never gelu_erf, which is 3.7e-4 away at -3.1.
  EXPECT_EQ(PatternOf(absl::StrCat(kScalars, kBiased, kCubeByMultiplies, R"(
  a = f32[] constant(0.044715)
  ab = f32[4,16] broadcast(a), dimensions={}
  ac = f32[4,16] multiply(x3, ab)
  inner = f32[4,16] add(v, ac)
  k = f32[] constant(1.5957691216)
  kb = f32[4,16] broadcast(k), dimensions={}
  t2 = f32[4,16] multiply(inner, kb)
  e = f32[4,16] exponential(t2)
  ep = f32[4,16] add(e, o)
  two = f32[] constant(2)
  tw = f32[4,16] broadcast(two), dimensions={}
  fr = f32[4,16] divide(tw, ep)
  th = f32[4,16] subtract(o, fr)
  p = f32[4,16] add(th, o)
  q = f32[4,16] multiply(h, v)
  ROOT y = f32[4,16] multiply(q, p))")),
            "dot+bias+gelu_tanh");
}

TEST(EpiloguePatternTest, ActivationsWithoutTheirOwnOperationMustBeClose) {
  // A leaky relu of slope 1e-4 in the select form: without a maximum the
  // 1e-5 bound applies, and -3.1 gives -3.1e-4 where relu gives 0.
  EXPECT_EQ(PatternOf(absl::StrCat(kScalars, kBiased, R"(
  gt = pred[4,16] compare(v, z), direction=GT
  l = f32[] constant(0.0001)
  lb = f32[4,16] broadcast(l), dimensions={}
  lv = f32[4,16] multiply(v, lb)
  ROOT y = f32[4,16] select(gt, v, lv))")),
            "dot+bias+epilogue");
  // The same slope through a maximum, relu's own operation, is within
  // the 2e-3 that bf16 constants need.
  EXPECT_EQ(PatternOf(absl::StrCat(kScalars, kBiased, R"(
  l = f32[] constant(0.0001)
  lb = f32[4,16] broadcast(l), dimensions={}
  lv = f32[4,16] multiply(v, lb)
  ROOT y = f32[4,16] maximum(v, lv))")),
            "dot+bias+relu");
}

TEST(EpiloguePatternTest, PlainProductsAndConvolutions) {
  EXPECT_EQ(PatternOf("  ROOT y = f32[4,16] add(d, r)"),
            "dot+residual");
  std::unique_ptr<Module> m = ParseVerified(R"(HloModule m
ENTRY e {
  x = f32[1,6,6,8] parameter(0)
  k = f32[3,3,8,4] parameter(1)
  b = f32[4] parameter(2)
  c = f32[1,4,4,4] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f
  bb = f32[1,4,4,4] broadcast(b), dimensions={3}
  a = f32[1,4,4,4] add(c, bb)
  b4 = f32[1,4] reshape(b)
  bb4 = f32[1,4,4,4] broadcast(b4), dimensions={0,3}
  ROOT y = f32[1,4,4,4] multiply(a, bb4)
}
)");
  ASSERT_NE(m, nullptr);
  FusionPass pass;
  RunVerified(pass, *m);
  ASSERT_EQ(m->entry()->root()->opcode(), Opcode::kFusion);
  EXPECT_EQ(DescribeProductEpilogue(*m->entry()->root()->fused_computation()),
            "conv+bias+scale");
}

TEST(EpiloguePatternTest, NearMissesAreNotNamed) {
  // GELU with 0.6 where 0.5 belongs.
  EXPECT_EQ(PatternOf(GeluErf("0.6")), "dot+bias+epilogue");
  // tanh-GELU with the cube's coefficient off by 10%.
  EXPECT_EQ(PatternOf(GeluTanh(kCubeByMultiplies, "0.7978845608", "0.049")),
            "dot+bias+epilogue");
  // x * sigmoid(r): the sigmoid of another operand is not SiLU, just a
  // multiply by a value the product does not feed.
  EXPECT_EQ(PatternOf(absl::StrCat(kScalars, kBiased, R"(
  g = f32[4,16] logistic(r)
  ROOT y = f32[4,16] multiply(v, g))")),
            "dot+bias+scale");
  // relu against 1, not 0.
  EXPECT_EQ(PatternOf(absl::StrCat(kScalars, kBiased, "  ROOT y = f32[4,16] maximum(v, o)")),
            "dot+bias+epilogue");
}

}  // namespace
}  // namespace aotc
