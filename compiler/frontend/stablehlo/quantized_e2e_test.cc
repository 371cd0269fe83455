// End to end: StableHLO programs on uniform quantized tensors, parsed,
// compiled and run, against values worked out by hand from the spec's
// formulas (written out beside each case) and against the reference
// evaluator; and the located errors of malformed quantized types.
//
// quantize(x) = round_nearest_even(clamp(min, x / scale + zero_point, max)),
// dequantize(q) = (q - zero_point) * scale, both in the expressed type.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codegen/tests/codegen_test_util.h"
#include "compiler/evaluator/evaluator_test_util.h"
#include "compiler/frontend/load_module.h"
#include "compiler/frontend/stablehlo/stablehlo_e2e_test_util.h"
#include "gmock/gmock.h"

namespace aotc {
namespace {

using ::testing::HasSubstr;
using P = PrimitiveType;

using shlo_testing::CompileChecked;
using shlo_testing::LoadError;

constexpr char kQ[] = "!quant.uniform<i8:f32, 0.1:-3>";

std::string Tensor(int n, const std::string& element) {
  return "tensor<" + std::to_string(n) + "x" + element + ">";
}

// Scale 0.1, zero point -3: the quotient x / 0.1 rounds to the f32 nearest
// the exact one, then the zero point is added before rounding, as the spec
// orders it (so 0.25 gives round_even(2.5 - 3) = round_even(-0.5) = 0, not
// round_even(2.5) - 3 = -1):
//   0.25 -> 2.5 - 3 = -0.5 -> 0;   0.35 -> 3.5 - 3 = 0.5 -> 0;
//   -20 -> -203, clamped to -128;  1.04 -> 10.4 - 3 = 7.4 -> 7;
//   20 -> 197 clamped to 127;      -0.45 -> -4.5 - 3 = -7.5 -> -8.
TEST(QuantizedE2eTest, QuantizeRoundsHalfToEvenAfterTheZeroPointAndClamps) {
  const std::string t = Tensor(6, kQ);
  const std::string text = "func.func @main(%x: tensor<6xf32>) -> "
                           "tensor<6xi8> {\n"
                           "  %q = stablehlo.uniform_quantize %x : "
                           "(tensor<6xf32>) -> " + t + "\n"
                           "  %r = stablehlo.bitcast_convert %q : (" + t +
                           ") -> tensor<6xi8>\n"
                           "  return %r : tensor<6xi8>\n}\n";
  auto r = CompileChecked(text, {testing::Vec<P::kF32>({0.25f, 0.35f, -20.0f, 1.04f,
                                              20.0f, -0.45f})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kS8>(r[0]),
            (std::vector<int8_t>{0, 0, -128, 7, 127, -8}));
}

// A storage range <-100:100>: 20 -> 197 clamps to 100, -20 to -100.
TEST(QuantizedE2eTest, StorageRangeClamps) {
  const std::string q = "!quant.uniform<i8<-100:100>:f32, 0.1:-3>";
  const std::string text =
      "func.func @main(%x: tensor<2xf32>) -> tensor<2x" + q + "> {\n"
      "  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> "
      "tensor<2x" + q + ">\n  return %q : tensor<2x" + q + ">\n}\n";
  auto r = CompileChecked(text, {testing::Vec<P::kF32>({20.0f, -20.0f})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kS8>(r[0]), (std::vector<int8_t>{100, -100}));
}

// Parameters and results of quantized type are their storage type: s8.
// add dequantizes (q + 3) * 0.1, adds in f32, quantizes:
//   q = 0: 0.3 + 0.3 = 0.6 -> 6 - 3 = 3;   q = 7: 1 + 1 = 2 -> 17;
//   q = -128: -12.5 - 12.5 = -25 -> -253 -> -128;
// multiply: 0.3 * 0.3 = 0.09 -> 0.9 - 3 = -2.1 -> -2; 1 * 1 -> 10 - 3 = 7;
//   156.25 -> 1559.5 -> 127.
// maximum against 0.5 (q = 2): 0.5 -> 2, 1 -> 7, 0.5 -> 2.
// uniform_dequantize: 0.3, 1, -12.5.
TEST(QuantizedE2eTest, ElementwiseOpsDequantizeComputeAndQuantize) {
  const std::string t = Tensor(3, kQ);
  const std::string text =
      "func.func @main(%q: " + t + ") -> (" + t + ", " + t + ", " + t +
      ", tensor<3xf32>) {\n"
      "  %s = stablehlo.add %q, %q : " + t + "\n"
      "  %m = stablehlo.multiply %q, %q : " + t + "\n"
      "  %h = stablehlo.constant dense<2> : " + t + "\n"
      "  %x = stablehlo.maximum %q, %h : " + t + "\n"
      "  %d = stablehlo.uniform_dequantize %q : (" + t + ") -> tensor<3xf32>\n"
      "  return %s, %m, %x, %d : " + t + ", " + t + ", " + t +
      ", tensor<3xf32>\n}\n";
  auto r = CompileChecked(text, {testing::Vec<P::kS8>({0, 7, -128})});
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(testing::Values<P::kS8>(r[0]), (std::vector<int8_t>{3, 17, -128}));
  EXPECT_EQ(testing::Values<P::kS8>(r[1]), (std::vector<int8_t>{-2, 7, 127}));
  EXPECT_EQ(testing::Values<P::kS8>(r[2]), (std::vector<int8_t>{2, 7, 2}));
  const std::vector<float> d = testing::Values<P::kF32>(r[3]);
  EXPECT_FLOAT_EQ(d[0], 0.3f);
  EXPECT_FLOAT_EQ(d[1], 1.0f);
  EXPECT_FLOAT_EQ(d[2], -12.5f);
}

// Per-axis along dimension 1: column 0 has scale 0.5 and zero point 1,
// column 1 scale 2 and zero point -1. [[3, 3], [-1, 0]] dequantizes to
// [[(3-1)*0.5, (3+1)*2], [(-1-1)*0.5, (0+1)*2]] = [[1, 8], [-1, 2]].
// Requantizing into ui8 with scale 0.25, zero point 10: x / 0.25 + 10 =
// [[14, 42], [6, 18]].
TEST(QuantizedE2eTest, PerAxisDequantizeAndRequantize) {
  const std::string pa = "tensor<2x2x!quant.uniform<i8:f32:1, {0.5:1, 2.0:-1}>>";
  const std::string u = "tensor<2x2x!quant.uniform<ui8:f32, 0.25:10>>";
  const std::string text =
      "func.func @main(%q: " + pa + ") -> (tensor<2x2xf32>, " + u + ") {\n"
      "  %d = stablehlo.uniform_dequantize %q : (" + pa +
      ") -> tensor<2x2xf32>\n"
      "  %r = stablehlo.uniform_quantize %q : (" + pa + ") -> " + u + "\n"
      "  return %d, %r : tensor<2x2xf32>, " + u + "\n}\n";
  auto r = CompileChecked(text, {testing::MakeArray<P::kS8>({2, 2}, {3, 3, -1, 0})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(testing::Values<P::kF32>(r[0]),
            (std::vector<float>{1, 8, -1, 2}));
  EXPECT_EQ(testing::Values<P::kU8>(r[1]),
            (std::vector<uint8_t>{14, 42, 6, 18}));
}

// dot_general of [2, 4] (scale 0.5: [1, 2]) and [4, 8] (scale 0.25:
// [1, 2]) is 1 + 4 = 5: quantized with scale 0.1 it is 50; the hybrid form
// (float lhs [1, 2], quantized rhs) gives 5 in f32.
TEST(QuantizedE2eTest, DotGeneralQuantizedAndHybrid) {
  const std::string l = "tensor<1x2x!quant.uniform<i8:f32, 0.5>>";
  const std::string rq = "tensor<2x1x!quant.uniform<i8:f32, 0.25>>";
  const std::string o = "tensor<1x1x!quant.uniform<i8:f32, 0.1>>";
  const std::string text =
      "func.func @main(%a: " + l + ", %b: " + rq +
      ", %f: tensor<1x2xf32>) -> (" + o + ", tensor<1x1xf32>) {\n"
      "  %p = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (" +
      l + ", " + rq + ") -> " + o + "\n"
      "  %h = stablehlo.dot_general %f, %b, contracting_dims = [1] x [0] : "
      "(tensor<1x2xf32>, " + rq + ") -> tensor<1x1xf32>\n"
      "  return %p, %h : " + o + ", tensor<1x1xf32>\n}\n";
  auto r = CompileChecked(text, {testing::MakeArray<P::kS8>({1, 2}, {2, 4}),
                      testing::MakeArray<P::kS8>({2, 1}, {4, 8}),
                      testing::MakeArray<P::kF32>({1, 2}, {1, 2})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(testing::Values<P::kS8>(r[0]), (std::vector<int8_t>{50}));
  EXPECT_EQ(testing::Values<P::kF32>(r[1]), (std::vector<float>{5}));
}

// A 1x3 input [1, 2, 3] (scale 1) convolved with the kernel [1, 1] (scale
// 0.5 per output feature, stored as 2) gives [3, 5]; quantized with scale
// 0.5 and zero point 1: [7, 11].
TEST(QuantizedE2eTest, ConvolutionDequantizesBothOperands) {
  const std::string in = "tensor<1x3x1x!quant.uniform<i8:f32, 1.0>>";
  const std::string k = "tensor<2x1x1x!quant.uniform<i8:f32:2, {0.5}>>";
  const std::string o = "tensor<1x2x1x!quant.uniform<i8:f32, 0.5:1>>";
  const std::string text =
      "func.func @main(%x: " + in + ", %w: " + k + ") -> " + o + " {\n"
      "  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, "
      "o]->[b, 0, f], window = {stride = [1]} {batch_group_count = 1 : i64, "
      "feature_group_count = 1 : i64} : (" + in + ", " + k + ") -> " + o +
      "\n  return %r : " + o + "\n}\n";
  auto r = CompileChecked(text, {testing::MakeArray<P::kS8>({1, 3, 1}, {1, 2, 3}),
                      testing::MakeArray<P::kS8>({2, 1, 1}, {2, 2})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kS8>(r[0]), (std::vector<int8_t>{7, 11}));
}

// Movement operations keep the storage values and need matching parameters.
TEST(QuantizedE2eTest, MovementKeepsStorageValues) {
  const std::string a = "tensor<2x3x" + std::string(kQ) + ">";
  const std::string b = "tensor<3x2x" + std::string(kQ) + ">";
  const std::string text = "func.func @main(%q: " + a + ") -> " + b +
                           " {\n  %r = stablehlo.transpose %q, dims = [1, 0] "
                           ": (" + a + ") -> " + b + "\n  return %r : " + b +
                           "\n}\n";
  auto r = CompileChecked(text, {testing::MakeArray<P::kS8>({2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kS8>(r[0]),
            (std::vector<int8_t>{1, 4, 2, 5, 3, 6}));
}

// reduce moves storage values and its region computes on quantized ones:
// with scale 0.1 and zero point -3, three 7s are 1.0 each and the init -3
// is 0; each step dequantizes, adds and quantizes: 1.0 -> 7, 2.0 -> 17,
// 3.0 -> 27. The `applies` form would add the storage integers: refused.
TEST(QuantizedE2eTest, ReduceRunsItsRegionOnQuantizedValues) {
  const std::string q = "tensor<!quant.uniform<i8:f32, 0.1:-3>>";
  const std::string v = "tensor<3x!quant.uniform<i8:f32, 0.1:-3>>";
  const std::string head =
      "func.func @main(%q: " + v + ") -> " + q + " {\n"
      "  %init = stablehlo.constant dense<-3> : " + q + "\n";
  const std::string text =
      head + "  %r = stablehlo.reduce(%q init: %init) across dimensions = [0] "
      ": (" + v + ", " + q + ") -> " + q + "\n"
      "   reducer(%a: " + q + ", %b: " + q + ") {\n"
      "    %s = stablehlo.add %a, %b : " + q + "\n"
      "    stablehlo.return %s : " + q + "\n  }\n"
      "  return %r : " + q + "\n}\n";
  auto r = CompileChecked(text, {testing::Vec<P::kS8>({7, 7, 7})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kS8>(r[0]), (std::vector<int8_t>{27}));
  EXPECT_THAT(
      LoadError(head + "  %r = stablehlo.reduce(%q init: %init) applies "
                "stablehlo.add across dimensions = [0] : (" + v + ", " + q +
                ") -> " + q + "\n  return %r : " + q + "\n}\n"),
      HasSubstr("bad.mlir:3:8: error: the region of quantized "
                "'stablehlo.reduce' must take quantized arguments"));
}

TEST(QuantizedErrorsTest, MalformedTypesAndMismatchesAreLocated) {
  auto one = [](const std::string& element, const std::string& body = "") {
    const std::string t = "tensor<2x" + element + ">";
    return "func.func @main(%q: " + t + ") -> " + t + " {\n" + body +
           "  return %q : " + t + "\n}\n";
  };
  EXPECT_THAT(LoadError(one("!quant.uniform<i8<-200:100>:f32, 0.1:0>")),
              HasSubstr("bad.mlir:1:47: error: storage range <-200:100> is "
                        "not an increasing range inside i8's [-128, 127]"));
  EXPECT_THAT(LoadError(one("!quant.uniform<i8<5:5>:f32, 0.1:0>")),
              HasSubstr("storage range <5:5>"));
  EXPECT_THAT(LoadError(one("!quant.uniform<i8<-10:10>:f32, 0.1:20>")),
              HasSubstr("zero point 20 is outside the storage range "
                        "[-10, 10]"));
  EXPECT_THAT(LoadError(one("!quant.uniform<i8:f32, -0.1:0>")),
              HasSubstr("is not a finite positive number"));
  EXPECT_THAT(LoadError(one("!quant.uniform<f32:f32, 0.1:0>")),
              HasSubstr("storage type of a quantized type must be an integer"));
  EXPECT_THAT(LoadError(one("!quant.uniform<i16:f16, 0.1:0>")),
              HasSubstr("wider than its storage type"));
  EXPECT_THAT(LoadError(one("!quant.uniform<i8:f32:0, {0.1:0}>")),
              HasSubstr("per-axis quantization has 1 scales for dimension 0 "
                        "of size 2"));
  EXPECT_THAT(LoadError(one("!quant.uniform<i8:f32:3, {0.1:0}>")),
              HasSubstr("quantization dimension 3 is not below the rank 1"));
  EXPECT_THAT(LoadError(one("!quant.uniform<i8:f32, 0.1:0, 0.2:0>")),
              HasSubstr("expected '>' closing the quantized type"));
  // A movement between different parameters would change the values.
  EXPECT_THAT(
      LoadError("func.func @main(%q: tensor<2x!quant.uniform<i8:f32, "
                "0.1:0>>) -> tensor<2x!quant.uniform<i8:f32, 0.2:0>> {\n"
                "  %r = stablehlo.reshape %q : (tensor<2x!quant.uniform<i8:"
                "f32, 0.1:0>>) -> tensor<2x!quant.uniform<i8:f32, 0.2:0>>\n"
                "  return %r : tensor<2x!quant.uniform<i8:f32, 0.2:0>>\n}\n"),
      HasSubstr("bad.mlir:2:8: error: mismatched quantization: operand 0 of "
                "'stablehlo.reshape' is !quant.uniform<i8:f32, 0.1:0>, its "
                "result !quant.uniform<i8:f32, 0.2:0>"));
  EXPECT_THAT(
      LoadError(one(std::string(kQ),
                    "  %s = stablehlo.popcnt %q : tensor<2x" + std::string(kQ) +
                        ">\n")),
      HasSubstr("quantized operands or results of 'stablehlo.popcnt' are "
                "not supported"));
  EXPECT_THAT(
      LoadError("func.func @main(%x: tensor<2xi8>) -> tensor<2xf32> {\n"
                "  %r = stablehlo.uniform_dequantize %x : (tensor<2xi8>) -> "
                "tensor<2xf32>\n  return %r : tensor<2xf32>\n}\n"),
      HasSubstr("uniform_dequantize takes a quantized tensor"));
}

// Every prefix of a module with the new syntax (quantized types, a dot
// algorithm, chlo.scan, chlo.ragged_dot) is refused or accepted, never a
// crash.
TEST(QuantizedErrorsTest, TruncatedInputNeverCrashes) {
  const std::string text = R"(func.func @main(%q: tensor<2x2x!quant.uniform<i8<-127:127>:f32:1, {0.5:1, 2.0:-1}>>, %a: tensor<2x2xf32>, %g: tensor<2xi64>) -> tensor<2x2xf32> {
  %d = stablehlo.uniform_dequantize %q : (tensor<2x2x!quant.uniform<i8<-127:127>:f32:1, {0.5:1, 2.0:-1}>>) -> tensor<2x2xf32>
  %p = stablehlo.dot_general %d, %a, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %c = stablehlo.constant dense<0.0> : tensor<2xf32>
  %s:2 = chlo.scan(%p) inits(%c) dimension=0 attributes {is_reverse = true} {
  ^bb0(%x: tensor<2xf32>, %y: tensor<2xf32>):
    %1 = stablehlo.add %x, %y : tensor<2xf32>
    stablehlo.return %1, %1 : tensor<2xf32>, tensor<2xf32>
  } : (tensor<2x2xf32>, tensor<2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>)
  %r = "chlo.ragged_dot"(%s#0, %a, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1], rhs_group_dimensions = []>} : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xi64>) -> tensor<2x2x2xf32>
  %t = stablehlo.slice %r [0:1, 0:2, 0:2] : (tensor<2x2x2xf32>) -> tensor<1x2x2xf32>
  %u = stablehlo.reshape %t : (tensor<1x2x2xf32>) -> tensor<2x2xf32>
  return %u : tensor<2x2xf32>
}
)";
  ASSERT_TRUE(LoadModuleFromString(text, "whole.mlir").ok());
  for (size_t n = 0; n < text.size(); ++n) {
    (void)LoadModuleFromString(text.substr(0, n), "cut.mlir");
  }
}

}  // namespace
}  // namespace aotc
