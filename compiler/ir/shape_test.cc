#include "compiler/ir/shape.h"

#include <gtest/gtest.h>

namespace aotc {
namespace {

TEST(ShapeTest, PrintsLikeHlo) {
  EXPECT_EQ(Shape::Array(PrimitiveType::kF32, {2, 3}).ToString(), "f32[2,3]{1,0}");
  EXPECT_EQ(Shape::Scalar(PrimitiveType::kS32).ToString(), "s32[]");
  Shape t = Shape::Tuple({Shape::Scalar(PrimitiveType::kPred),
                          Shape::Array(PrimitiveType::kBF16, {4})});
  EXPECT_EQ(t.ToString(), "(pred[], bf16[4]{0})");
  EXPECT_EQ(t.ToString(false), "(pred[], bf16[4])");
  EXPECT_EQ(Shape::Tuple({}).ToString(), "()");
  EXPECT_EQ(Shape::Token().ToString(), "token[]");
}

TEST(ShapeTest, SizesAndLeaves) {
  Shape s = Shape::Array(PrimitiveType::kF64, {3, 0, 2});
  EXPECT_EQ(s.ElementCount(), 0);
  Shape a = Shape::Array(PrimitiveType::kS16, {5, 7});
  EXPECT_EQ(a.ByteSize(), 70);
  Shape t = Shape::Tuple({a, Shape::Tuple({s, a})});
  auto leaves = t.Leaves();
  ASSERT_EQ(leaves.size(), 3u);
  EXPECT_EQ(*leaves[1], s);
}

TEST(ShapeTest, ValidateRejectsOverflowAndBadLayouts) {
  EXPECT_TRUE(ValidateShape(Shape::Array(PrimitiveType::kF32, {1 << 20})).ok());
  absl::Status st = ValidateShape(Shape::Array(
      PrimitiveType::kF32, {int64_t{1} << 40, int64_t{1} << 30}));
  EXPECT_EQ(st.message(), "shape f32[1099511627776,1073741824] has more elements "
                          "than fit in 64 bits");
  st = ValidateShape(
      Shape::Array(PrimitiveType::kF64, {int64_t{1} << 31, int64_t{1} << 31}));
  EXPECT_EQ(st.message(), "shape f64[2147483648,2147483648] has a byte size that "
                          "overflows 64 bits");
  st = ValidateShape(
      Shape::ArrayWithLayout(PrimitiveType::kF32, {2, 3}, Layout{{1, 1}, ""}));
  EXPECT_EQ(st.message(), "layout {1,1} is not a permutation of the dimensions");
  std::vector<int64_t> many(17, 1);
  st = ValidateShape(Shape::Array(PrimitiveType::kF32, many));
  EXPECT_EQ(st.message(), "rank 17 exceeds the maximum rank 16");
}

TEST(ShapeTest, CompatibleIgnoresLayout) {
  Shape a = Shape::Array(PrimitiveType::kF32, {2, 3});
  Shape b = Shape::ArrayWithLayout(PrimitiveType::kF32, {2, 3}, Layout{{0, 1}, ""});
  EXPECT_NE(a, b);
  EXPECT_TRUE(a.Compatible(b));
  EXPECT_FALSE(a.Compatible(Shape::Array(PrimitiveType::kF32, {3, 2})));
}

}  // namespace
}  // namespace aotc
