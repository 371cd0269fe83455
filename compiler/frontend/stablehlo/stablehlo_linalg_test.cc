// Tests of the StableHLO builders of fft, triangular_solve and cholesky:
// the pretty and the generic form give the same IR with the attributes
// translated, unknown enum values are located errors, and a program
// evaluates to numbers worked out by hand.
#include <complex>
#include <string>

#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/load_module.h"
#include "compiler/ir/printer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using ::testing::HasSubstr;

std::string Main(const std::string &args, const std::string &result,
                 const std::string &body) {
  return "module @m {\n  func.func public @main(" + args + ") -> " + result +
         " {\n    " + body + "\n    return %r : " + result + "\n  }\n}\n";
}

std::string Printed(const std::string &text) {
  absl::StatusOr<std::unique_ptr<Module>> m =
      LoadModuleFromString(text, "test.mlir");
  EXPECT_TRUE(m.ok()) << m.status().message() << "\n" << text;
  return m.ok() ? PrintModule(**m) : "";
}

std::string Error(const std::string &text) {
  absl::StatusOr<std::unique_ptr<Module>> m =
      LoadModuleFromString(text, "bad.mlir");
  EXPECT_FALSE(m.ok());
  return m.ok() ? "" : std::string(m.status().message());
}

TEST(StableHloLinalgTest, FftPrettyAndGenericForms) {
  const std::string args = "%a: tensor<3x8xf32>";
  const std::string result = "tensor<3x5xcomplex<f32>>";
  const std::string pretty =
      Printed(Main(args, result,
                   "%r = stablehlo.fft %a, type =  RFFT, length = [8] : "
                   "(tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>"));
  const std::string generic = Printed(
      Main(args, result,
           "%r = \"stablehlo.fft\"(%a) <{fft_type = #stablehlo<fft_type RFFT>, "
           "fft_length = array<i64: 8>}> : (tensor<3x8xf32>) -> "
           "tensor<3x5xcomplex<f32>>"));
  EXPECT_EQ(pretty, generic);
  EXPECT_THAT(pretty, HasSubstr("fft_type=RFFT, fft_length={8}"));
}

TEST(StableHloLinalgTest, TriangularSolveAndCholeskyAttributes) {
  const std::string solve = Printed(Main(
      "%a: tensor<2x3x3xf32>, %b: tensor<2x3x4xf32>", "tensor<2x3x4xf32>",
      "%r = \"stablehlo.triangular_solve\"(%a, %b) <{left_side = true, "
      "lower = true, transpose_a = #stablehlo<transpose ADJOINT>, "
      "unit_diagonal = false}> : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> "
      "tensor<2x3x4xf32>"));
  EXPECT_THAT(solve, HasSubstr("triangular-solve(%a, %b), left_side=true, "
                               "lower=true, transpose_a=ADJOINT"));
  const std::string pretty = Printed(
      Main("%a: tensor<3x3xf64>", "tensor<3x3xf64>",
           "%r = stablehlo.cholesky %a, lower = true : tensor<3x3xf64>"));
  const std::string generic =
      Printed(Main("%a: tensor<3x3xf64>", "tensor<3x3xf64>",
                   "%r = \"stablehlo.cholesky\"(%a) <{lower = true}> : "
                   "(tensor<3x3xf64>) -> tensor<3x3xf64>"));
  EXPECT_EQ(pretty, generic);
  EXPECT_THAT(pretty, HasSubstr("cholesky(%a), lower=true"));
}

TEST(StableHloLinalgTest, UnknownEnumsAreLocated) {
  EXPECT_THAT(Error(Main("%a: tensor<4xcomplex<f32>>", "tensor<4xcomplex<f32>>",
                         "%r = \"stablehlo.fft\"(%a) <{fft_type = "
                         "#stablehlo<fft_type DCT>, fft_length = array<i64: "
                         "4>}> : (tensor<4xcomplex<f32>>) -> "
                         "tensor<4xcomplex<f32>>")),
              HasSubstr("unknown fft type 'DCT'"));
  EXPECT_THAT(
      Error(Main("%a: tensor<3x3xf32>, %b: tensor<3x1xf32>", "tensor<3x1xf32>",
                 "%r = \"stablehlo.triangular_solve\"(%a, %b) <{left_side = "
                 "true, lower = true, transpose_a = #stablehlo<transpose "
                 "FLIP>, unit_diagonal = false}> : (tensor<3x3xf32>, "
                 "tensor<3x1xf32>) -> tensor<3x1xf32>")),
      HasSubstr("unknown transpose kind 'FLIP'"));
  // The verifier checks the shapes: RFFT of 8 keeps 5, not 8.
  EXPECT_THAT(Error(Main("%a: tensor<8xf32>", "tensor<8xcomplex<f32>>",
                         "%r = stablehlo.fft %a, type =  RFFT, length = [8] "
                         ": (tensor<8xf32>) -> tensor<8xcomplex<f32>>")),
              HasSubstr("does not match inferred shape c64[5]"));
}

TEST(StableHloLinalgTest, SpecExampleEvaluates) {
  // The spec's example: the FFT of a unit impulse is all ones.
  absl::StatusOr<std::unique_ptr<Module>> m = LoadModuleFromString(
      Main("%a: tensor<4xcomplex<f32>>", "tensor<4xcomplex<f32>>",
           "%r = \"stablehlo.fft\"(%a) {fft_type = #stablehlo<fft_type FFT>, "
           "fft_length = dense<4> : tensor<1xi64>} : "
           "(tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>"),
      "spec.mlir");
  ASSERT_TRUE(m.ok()) << m.status();
  Literal x(Shape::Array(PrimitiveType::kC64, {4}));
  x.mutable_data<std::complex<float>>()[0] = 1;
  absl::StatusOr<Literal> r = EvaluateModule(**m, {x});
  ASSERT_TRUE(r.ok()) << r.status();
  for (const auto &v : r->data<std::complex<float>>()) {
    EXPECT_EQ(v, std::complex<float>(1, 0));
  }
}

} // namespace
} // namespace aotc
