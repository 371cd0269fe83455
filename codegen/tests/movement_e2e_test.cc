// End-to-end tests of layouts and data movement: non-default and
// column-major layouts, size-0 and size-1 dimensions, transposes, strided
// slices, reverse, negative and interior padding, concatenate, iota and the
// dynamic slices with their clamped starts. Each compiles a small module for
// this host, runs it and checks values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "codegen/tests/codegen_test_util.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

TEST(MovementE2eTest, NonDefaultLayouts) {
  // A column-major parameter and result: buffers hold physical order. The
  // logical x = [[1,2,3],[4,5,6]] has physical (column-major) bytes
  // 1,4,2,5,3,6; x + 10 transposed to a row-major f32[3,2] is
  // [[11,14],[12,15],[13,16]].
  const char* hlo = R"(
HloModule m
ENTRY e {
  x = f32[2,3]{0,1} parameter(0)
  ten = f32[] constant(10)
  b = f32[2,3]{0,1} broadcast(ten), dimensions={}
  a = f32[2,3]{0,1} add(x, b)
  ROOT t = f32[3,2]{1,0} transpose(a), dimensions={1,0}
})";
  auto results =
      CompileAndRun(hlo, {MakeArray<P::kF32>({2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kF32>((*results)[0]),
            (std::vector<float>{11, 14, 12, 15, 13, 16}));
}

TEST(MovementE2eTest, ColumnMajorResultAndConstant) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  c = s32[2,2]{0,1} constant({{1, 2}, {3, 4}})
  x = s32[2,2]{1,0} parameter(0)
  ROOT a = s32[2,2]{0,1} add(c, x)
})";
  auto results =
      CompileAndRun(hlo, {MakeArray<P::kS32>({2, 2}, {10, 20, 30, 40})});
  ASSERT_TRUE(results.ok()) << results.status();
  // Results come back as logical row-major literals.
  EXPECT_EQ(Values<P::kS32>((*results)[0]), (std::vector<int32_t>{11, 22, 33, 44}));
}

TEST(MovementE2eTest, SizeZeroAndSizeOneDimensions) {
  const char* hlo = R"(
HloModule m
sum { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  x = f32[0,3] parameter(0)
  y = f32[1,3,1] parameter(1)
  zero = f32[] constant(5)
  r = f32[3] reduce(x, zero), dimensions={0}, to_apply=sum
  n = f32[0,3] negate(x)
  ry = f32[3] reshape(y)
  s = f32[3] add(r, ry)
  ROOT t = (f32[3], f32[0,3]) tuple(s, n)
})";
  auto results = CompileAndRun(
      hlo, {Literal(Shape::Array(P::kF32, {0, 3})),
            MakeArray<P::kF32>({1, 3, 1}, {1, 2, 3})});
  ASSERT_TRUE(results.ok()) << results.status();
  // Reducing zero rows leaves the init value 5.
  EXPECT_EQ(Values<P::kF32>((*results)[0]), (std::vector<float>{6, 7, 8}));
  EXPECT_EQ((*results)[1].element_count(), 0);
}

TEST(MovementE2eTest, TransposeRank6) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  x = s32[2,3,1,2,2,3] parameter(0)
  ROOT t = s32[3,2,2,1,3,2] transpose(x), dimensions={5,3,0,2,1,4}
})";
  Literal x(Shape::Array(P::kS32, {2, 3, 1, 2, 2, 3}));
  auto data = x.mutable_data<int32_t>();
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<int32_t>(i);
  auto results = CompileAndRun(hlo, {x});
  ASSERT_TRUE(results.ok()) << results.status();
  // out[a,b,c,d,e,f] = x[c,e,d,b,f,a]; x's row-major strides are
  // {36,12,12,6,3,1}, so the element is 36c + 12e + 12d + 6b + 3f + a.
  std::vector<int32_t> out = Values<P::kS32>((*results)[0]);
  size_t i = 0;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 2; ++c)
        for (int d = 0; d < 1; ++d)
          for (int e = 0; e < 3; ++e)
            for (int f = 0; f < 2; ++f) {
              ASSERT_EQ(out[i++], 36 * c + 12 * e + 12 * d + 6 * b + 3 * f + a);
            }
}

TEST(MovementE2eTest, StridedSliceAndReverse) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  x = s32[10] parameter(0)
  s = s32[3] slice(x), slice={[1:8:3]}
  ROOT r = s32[3] reverse(s), dimensions={0}
})";
  auto results =
      CompileAndRun(hlo, {Vec<P::kS32>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9})});
  ASSERT_TRUE(results.ok()) << results.status();
  // Elements 1, 4, 7, reversed.
  EXPECT_EQ(Values<P::kS32>((*results)[0]), (std::vector<int32_t>{7, 4, 1}));
}

TEST(MovementE2eTest, NegativeAndInteriorPad) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  x = s32[4] parameter(0)
  p = s32[] constant(-1)
  ROOT y = s32[7] pad(x, p), padding=-1_1_1
})";
  auto results = CompileAndRun(hlo, {Vec<P::kS32>({1, 2, 3, 4})});
  ASSERT_TRUE(results.ok()) << results.status();
  // Interior padding gives 1,-1,2,-1,3,-1,4; high 1 appends -1; low -1 drops
  // the first element.
  EXPECT_EQ(Values<P::kS32>((*results)[0]),
            (std::vector<int32_t>{-1, 2, -1, 3, -1, 4, -1}));
}

TEST(MovementE2eTest, ConcatenateIotaDynamicSlice) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = s32[2] parameter(0)
  i = s32[3] iota(), iota_dimension=0
  c = s32[5] concatenate(a, i), dimensions={0}
  start = s32[] parameter(1)
  ROOT d = s32[2] dynamic-slice(c, start), dynamic_slice_sizes={2}
})";
  // The start index 9 is clamped to 5 - 2 = 3.
  auto results = CompileAndRun(hlo, {Vec<P::kS32>({7, 8}), Scalar<P::kS32>(9)});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kS32>((*results)[0]), (std::vector<int32_t>{1, 2}));
}

TEST(MovementE2eTest, DynamicSliceWithStartIndexVector) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  x = s32[3,4] parameter(0)
  s = s32[2] parameter(1)
  ROOT d = s32[2,2] dynamic-slice(x, s), dynamic_slice_sizes={2,2}
})";
  // Starts (1, 5) clamp to (1, 2): rows 1-2, columns 2-3.
  auto results = CompileAndRun(
      hlo, {MakeArray<P::kS32>({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}),
            Vec<P::kS32>({1, 5})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kS32>((*results)[0]), (std::vector<int32_t>{6, 7, 10, 11}));
}

TEST(MovementE2eTest, DynamicUpdateSliceClampsStart) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = f64[5] parameter(0)
  u = f64[2] parameter(1)
  s = s64[] parameter(2)
  ROOT d = f64[5] dynamic-update-slice(a, u, s)
})";
  auto results = CompileAndRun(hlo, {Vec<P::kF64>({0, 0, 0, 0, 0}),
                                     Vec<P::kF64>({1.5, 2.5}),
                                     Scalar<P::kS64>(-3)});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kF64>((*results)[0]), (std::vector<double>{1.5, 2.5, 0, 0, 0}));
}

}  // namespace
}  // namespace aotc::codegen::testing
