// End to end: chlo.scan (a while loop over slices) and chlo.ragged_dot
// (dot_general with group masks) parsed in their pretty and generic forms,
// compiled and run, against values worked out by hand and the reference
// evaluator; and their located errors.
#include <gtest/gtest.h>

#include <cmath>
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

// A cumulative sum, forwards and backwards: [1, 2, 3, 4] gives
// [1, 3, 6, 10] and the carry 10; reversed, the suffix sums [10, 9, 7, 4].
std::string CumSum(const std::string& attributes) {
  return "func.func @main(%x: tensor<4xi32>, %c: tensor<i32>) -> "
         "(tensor<4xi32>, tensor<i32>) {\n"
         "  %0:2 = chlo.scan(%x) inits(%c) dimension=0 " + attributes + " {\n"
         "  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
         "    %1 = stablehlo.add %a, %b : tensor<i32>\n"
         "    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>\n"
         "  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)\n"
         "  return %0#0, %0#1 : tensor<4xi32>, tensor<i32>\n}\n";
}

TEST(ChloScanE2eTest, CumulativeSumForwardsAndBackwards) {
  const std::vector<Literal> args = {testing::Vec<P::kS32>({1, 2, 3, 4}),
                                     testing::Scalar<P::kS32>(0)};
  auto r = CompileChecked(CumSum(""), args);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(testing::Values<P::kS32>(r[0]), (std::vector<int32_t>{1, 3, 6, 10}));
  EXPECT_EQ(testing::Values<P::kS32>(r[1]), (std::vector<int32_t>{10}));
  r = CompileChecked(CumSum("attributes {is_reverse = true}"), args);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(testing::Values<P::kS32>(r[0]), (std::vector<int32_t>{10, 9, 7, 4}));
  EXPECT_EQ(testing::Values<P::kS32>(r[1]), (std::vector<int32_t>{10}));
}

// Along dimension 1 of [[1, 2, 3], [4, 5, 6]] in the generic form, with an
// f32 running product as a second carry-only result: sums [[1, 3, 6],
// [4, 9, 15]], carries [6, 15]; products 1 * 2 * 3 = 6, 4 * 5 * 6 = 120.
TEST(ChloScanE2eTest, GenericFormAlongAnInnerDimensionWithTwoCarries) {
  const std::string text = R"(func.func @main(%x: tensor<2x3xi32>, %y: tensor<2x3xf32>, %c: tensor<2xi32>, %p: tensor<2xf32>) -> (tensor<2x3xi32>, tensor<2xi32>, tensor<2xf32>) {
  %0:3 = "chlo.scan"(%x, %y, %c, %p) <{dimension = 1 : i64, operandSegmentSizes = array<i32: 2, 2>}> ({
  ^bb0(%a: tensor<2xi32>, %f: tensor<2xf32>, %s: tensor<2xi32>, %q: tensor<2xf32>):
    %1 = stablehlo.add %a, %s : tensor<2xi32>
    %2 = stablehlo.multiply %f, %q : tensor<2xf32>
    stablehlo.return %1, %1, %2 : tensor<2xi32>, tensor<2xi32>, tensor<2xf32>
  }) : (tensor<2x3xi32>, tensor<2x3xf32>, tensor<2xi32>, tensor<2xf32>) -> (tensor<2x3xi32>, tensor<2xi32>, tensor<2xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3xi32>, tensor<2xi32>, tensor<2xf32>
}
)";
  auto r = CompileChecked(
      text, {testing::MakeArray<P::kS32>({2, 3}, {1, 2, 3, 4, 5, 6}),
             testing::MakeArray<P::kF32>({2, 3}, {1, 2, 3, 4, 5, 6}),
             testing::Vec<P::kS32>({0, 0}), testing::Vec<P::kF32>({1, 1})});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(testing::Values<P::kS32>(r[0]),
            (std::vector<int32_t>{1, 3, 6, 4, 9, 15}));
  EXPECT_EQ(testing::Values<P::kS32>(r[1]), (std::vector<int32_t>{6, 15}));
  EXPECT_EQ(testing::Values<P::kF32>(r[2]), (std::vector<float>{6, 120}));
}

TEST(ChloScanE2eTest, MismatchedBodiesAreLocated) {
  std::string text = CumSum("");
  text.replace(text.find("%1, %1 : tensor<i32>, tensor<i32>"),
               std::string("%1, %1 : tensor<i32>, tensor<i32>").size(),
               "%1 : tensor<i32>");
  EXPECT_THAT(LoadError(text),
              HasSubstr("bad.mlir:2:10: error: chlo.scan's body takes 2 values "
                        "and returns 1; the scan has 1 inputs, 1 inits and 2 "
                        "results"));
}

std::string RaggedDot(const std::string& lhs, const std::string& rhs,
                      const std::string& result, const std::string& dnums) {
  return "func.func @main(%l: " + lhs + ", %r: " + rhs +
         ", %g: tensor<2xi64>) -> " + result + " {\n"
         "  %0 = \"chlo.ragged_dot\"(%l, %r, %g) {\n"
         "    ragged_dot_dimension_numbers = #chlo.ragged_dot<" + dnums + ">,\n"
         "    precision_config = [#chlo<precision DEFAULT>, "
         "#chlo<precision DEFAULT>]\n"
         "  } : (" + lhs + ", " + rhs + ", tensor<2xi64>) -> " + result + "\n"
         "  return %0 : " + result + "\n}\n";
}

// Rows grouped [1, 2]: row 0 uses group 0 [[1, 2], [3, 4]], rows 1 and 2
// group 1 (10 I), row 3 no group (zero, though it holds a NaN):
//   [1, 0] g0 = [1, 2];  [0, 1] g1 = [0, 10];  [1, 1] g1 = [10, 10].
TEST(ChloRaggedDotE2eTest, RaggedRowsTakeTheirGroupsMatrix) {
  const float nan = std::nanf("");
  auto r = CompileChecked(
      RaggedDot("tensor<4x2xf32>", "tensor<2x2x2xf32>", "tensor<4x2xf32>",
                "lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
                "lhs_contracting_dimensions = [1], rhs_contracting_dimensions "
                "= [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = "
                "[0]"),
      {testing::MakeArray<P::kF32>({4, 2}, {1, 0, 0, 1, 1, 1, nan, 0}),
       testing::MakeArray<P::kF32>({2, 2, 2}, {1, 2, 3, 4, 10, 0, 0, 10}),
       testing::Vec<P::kS64>({1, 2})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kF32>(r[0]),
            (std::vector<float>{1, 2, 0, 10, 10, 10, 0, 0}));
}

// Ragged contraction, groups [2, 1] of k: [1, 2, 3] . [1, 10, 100] split
// into 1 + 20 = 21 and 300.
TEST(ChloRaggedDotE2eTest, RaggedContractionGivesOneProductPerGroup) {
  auto r = CompileChecked(
      RaggedDot("tensor<1x3xf32>", "tensor<3x1xf32>", "tensor<2x1x1xf32>",
                "lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
                "lhs_contracting_dimensions = [1], rhs_contracting_dimensions "
                "= [0], lhs_ragged_dimensions = [1], rhs_group_dimensions = "
                "[]"),
      {testing::MakeArray<P::kF32>({1, 3}, {1, 2, 3}),
       testing::MakeArray<P::kF32>({3, 1}, {1, 10, 100}),
       testing::Vec<P::kS64>({2, 1})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kF32>(r[0]), (std::vector<float>{21, 300}));
}

// Ragged batch: a batched product, [1, 2] . [3, 4] = 11 and [5, 6] . [7, 8]
// = 83.
TEST(ChloRaggedDotE2eTest, RaggedBatchIsABatchedProduct) {
  auto r = CompileChecked(
      RaggedDot("tensor<2x1x2xf32>", "tensor<2x2x1xf32>", "tensor<2x1x1xf32>",
                "lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
                "lhs_contracting_dimensions = [2], rhs_contracting_dimensions "
                "= [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = "
                "[]"),
      {testing::MakeArray<P::kF32>({2, 1, 2}, {1, 2, 5, 6}),
       testing::MakeArray<P::kF32>({2, 2, 1}, {3, 4, 7, 8}),
       testing::Vec<P::kS64>({1, 1})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kF32>(r[0]), (std::vector<float>{11, 83}));
}

TEST(ChloRaggedDotE2eTest, BadDimensionNumbersAreLocated) {
  EXPECT_THAT(
      LoadError(RaggedDot(
          "tensor<4x2xf32>", "tensor<3x2x2xf32>", "tensor<4x2xf32>",
          "lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
          "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = "
          "[1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]")),
      HasSubstr("bad.mlir:2:8: error: chlo.ragged_dot needs an rhs group "
                "dimension of the group sizes' length"));
}

}  // namespace
}  // namespace aotc
