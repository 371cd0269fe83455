// Tests of the evaluator's reduce, reduce-window and select-and-scatter
// kernels. Every expected value is worked out by hand in the comments.
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
using ::aotc::testing_util::S32;
using ::aotc::testing_util::Values;
using ::testing::ElementsAre;

constexpr char kAddF32[] = R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)";

constexpr char kMaxF32[] = R"(
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
)";

std::string ReduceModule(std::string_view reducer, std::string_view body) {
  return std::string("HloModule m\n") + std::string(reducer) + "ENTRY e {\n" +
         std::string(body) + "}\n";
}

TEST(ReduceTest, SumOverEachDimensionOf2x3) {
  // x = [[1, 2, 3], [4, 5, 6]]
  std::string dim0 = ReduceModule(kAddF32, R"(
  x = f32[2,3] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[3] reduce(x, z), dimensions={0}, to_apply=add
)");
  std::string dim1 = ReduceModule(kAddF32, R"(
  x = f32[2,3] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2] reduce(x, z), dimensions={1}, to_apply=add
)");
  Literal a = MustRun(dim0, {F32({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_THAT(Values<float>(a), ElementsAre(5, 7, 9));
  Literal b = MustRun(dim1, {F32({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_THAT(Values<float>(b), ElementsAre(6, 15));
}

TEST(ReduceTest, MaxOverEachDimensionOf2x3) {
  // x = [[1, 5, 3], [4, 2, 6]]; the init value -10 never wins.
  std::string dim0 = ReduceModule(kMaxF32, R"(
  x = f32[2,3] parameter(0)
  z = f32[] constant(-10)
  ROOT r = f32[3] reduce(x, z), dimensions={0}, to_apply=max
)");
  std::string dim1 = ReduceModule(kMaxF32, R"(
  x = f32[2,3] parameter(0)
  z = f32[] constant(-10)
  ROOT r = f32[2] reduce(x, z), dimensions={1}, to_apply=max
)");
  Literal a = MustRun(dim0, {F32({2, 3}, {1, 5, 3, 4, 2, 6})});
  EXPECT_THAT(Values<float>(a), ElementsAre(4, 5, 6));
  Literal b = MustRun(dim1, {F32({2, 3}, {1, 5, 3, 4, 2, 6})});
  EXPECT_THAT(Values<float>(b), ElementsAre(5, 6));
}

TEST(ReduceTest, ToScalarAddsTheInitValueOnce) {
  // 1 + 2 + ... + 6 = 21, plus the init value 100.
  std::string hlo = ReduceModule(kAddF32, R"(
  x = f32[2,3] parameter(0)
  z = f32[] constant(100)
  ROOT r = f32[] reduce(x, z), dimensions={0,1}, to_apply=add
)");
  Literal r = MustRun(hlo, {F32({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(r.shape().rank(), 0);
  EXPECT_THAT(Values<float>(r), ElementsAre(121));
}

// acc * 10 + x is not commutative, so the digits show the visiting order.
constexpr char kDigits[] = R"(
digits {
  acc = s32[] parameter(0)
  x = s32[] parameter(1)
  ten = s32[] constant(10)
  shifted = s32[] multiply(acc, ten)
  ROOT r = s32[] add(shifted, x)
}
)";

TEST(ReduceTest, VisitsReducedDimensionsInRowMajorOrder) {
  // x = [[1, 2], [3, 4]]. Row-major order is 1, 2, 3, 4 whatever order
  // `dimensions` lists: ((((0*10+1)*10+2)*10+3)*10+4) = 1234.
  for (const char* dims : {"{0,1}", "{1,0}"}) {
    std::string hlo = ReduceModule(kDigits, std::string(R"(
  x = s32[2,2] parameter(0)
  z = s32[] constant(0)
  ROOT r = s32[] reduce(x, z), dimensions=)") + dims +
                                                ", to_apply=digits\n");
    Literal r = MustRun(hlo, {S32({2, 2}, {1, 2, 3, 4})});
    EXPECT_THAT(Values<int32_t>(r), ElementsAre(1234)) << dims;
  }
  // Reducing dimension 0 only: column 0 visits 1 then 3, column 1 2 then 4.
  std::string cols = ReduceModule(kDigits, R"(
  x = s32[2,2] parameter(0)
  z = s32[] constant(0)
  ROOT r = s32[2] reduce(x, z), dimensions={0}, to_apply=digits
)");
  Literal c = MustRun(cols, {S32({2, 2}, {1, 2, 3, 4})});
  EXPECT_THAT(Values<int32_t>(c), ElementsAre(13, 24));
}

TEST(ReduceTest, NarrowerResultTypeIsConvertedOnce) {
  // An f32 reducer with a bf16 result: 1 + 2^-8 + 2^-8 = 1 + 2^-7 in f32,
  // which bf16 represents. Rounding to bf16 after each step would give 1
  // (1 + 2^-8 is a tie that rounds to even, 1).
  std::string hlo = ReduceModule(kAddF32, R"(
  x = f32[3] parameter(0)
  z = f32[] constant(0)
  ROOT r = bf16[] reduce(x, z), dimensions={0}, to_apply=add
)");
  Literal r = MustRun(hlo, {F32({3}, {1, 1.0f / 256, 1.0f / 256})});
  EXPECT_THAT(testing_util::Half16Values(r), ElementsAre(1.0f + 1.0f / 128));
}

constexpr char kArgMax[] = R"(
argmax {
  av = f32[] parameter(0)
  ai = s32[] parameter(1)
  bv = f32[] parameter(2)
  bi = s32[] parameter(3)
  gt = pred[] compare(av, bv), direction=GT
  eq = pred[] compare(av, bv), direction=EQ
  lower = pred[] compare(ai, bi), direction=LT
  tie = pred[] and(eq, lower)
  keep = pred[] or(gt, tie)
  v = f32[] select(keep, av, bv)
  i = s32[] select(keep, ai, bi)
  ROOT r = (f32[], s32[]) tuple(v, i)
}
)";

TEST(ReduceTest, VariadicArgMax) {
  // Rows [3, 7, 7, 1] and [2, 0, 9, 9]: maxima 7 and 9, first at 1 and 2.
  std::string hlo = ReduceModule(kArgMax, R"(
  x = f32[2,4] parameter(0)
  idx = s32[2,4] iota(), iota_dimension=1
  vinit = f32[] constant(-inf)
  iinit = s32[] constant(-1)
  ROOT r = (f32[2], s32[2]) reduce(x, idx, vinit, iinit), dimensions={1}, to_apply=argmax
)");
  Literal r = MustRun(hlo, {F32({2, 4}, {3, 7, 7, 1, 2, 0, 9, 9})});
  ASSERT_TRUE(r.IsTuple());
  ASSERT_EQ(r.tuple_elements().size(), 2u);
  EXPECT_THAT(Values<float>(r.tuple_elements()[0]), ElementsAre(7, 9));
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[1]), ElementsAre(1, 2));
}

TEST(ReduceWindowTest, MaxPool2x2Stride2) {
  // x = [[1, 5, 2, 0],
  //      [3, 4, 8, 1],
  //      [0, 2, 6, 7],
  //      [9, 1, 3, 5]]
  // windows: {1,5,3,4} -> 5, {2,0,8,1} -> 8, {0,2,9,1} -> 9, {6,7,3,5} -> 7.
  std::string hlo = ReduceModule(kMaxF32, R"(
  x = f32[4,4] parameter(0)
  z = f32[] constant(-inf)
  ROOT r = f32[2,2] reduce-window(x, z), window={size=2x2 stride=2x2}, to_apply=max
)");
  Literal r = MustRun(
      hlo, {F32({4, 4}, {1, 5, 2, 0, 3, 4, 8, 1, 0, 2, 6, 7, 9, 1, 3, 5})});
  EXPECT_THAT(Values<float>(r), ElementsAre(5, 8, 9, 7));
}

TEST(ReduceWindowTest, PaddingIsSkipped) {
  // x = [1, 2, 3, 4], size 3, pad 1 on each side, init 10 (added once):
  // [p,1,2] -> 13, [1,2,3] -> 16, [2,3,4] -> 19, [3,4,p] -> 17.
  std::string hlo = ReduceModule(kAddF32, R"(
  x = f32[4] parameter(0)
  z = f32[] constant(10)
  ROOT r = f32[4] reduce-window(x, z), window={size=3 pad=1_1}, to_apply=add
)");
  Literal r = MustRun(hlo, {F32({4}, {1, 2, 3, 4})});
  EXPECT_THAT(Values<float>(r), ElementsAre(13, 16, 19, 17));
}

TEST(ReduceWindowTest, NegativePaddingCropsTheInput) {
  // pad=-1_0 drops x[0]: [2,3,4] with size 2 -> [5, 7].
  std::string hlo = ReduceModule(kAddF32, R"(
  x = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2] reduce-window(x, z), window={size=2 pad=-1_0}, to_apply=add
)");
  Literal r = MustRun(hlo, {F32({4}, {1, 2, 3, 4})});
  EXPECT_THAT(Values<float>(r), ElementsAre(5, 7));
}

TEST(ReduceWindowTest, BaseDilation) {
  // lhs_dilate=2 turns [1, 2, 3] into [1, _, 2, _, 3]; size-2 windows:
  // [1,_] -> 1, [_,2] -> 2, [2,_] -> 2, [_,3] -> 3.
  std::string hlo = ReduceModule(kAddF32, R"(
  x = f32[3] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[4] reduce-window(x, z), window={size=2 lhs_dilate=2}, to_apply=add
)");
  Literal r = MustRun(hlo, {F32({3}, {1, 2, 3})});
  EXPECT_THAT(Values<float>(r), ElementsAre(1, 2, 2, 3));
}

TEST(ReduceWindowTest, WindowDilation) {
  // rhs_dilate=2 with size 2 reads x[i] and x[i+2] of [1, 2, 3, 4, 5]:
  // 1+3, 2+4, 3+5.
  std::string hlo = ReduceModule(kAddF32, R"(
  x = f32[5] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[3] reduce-window(x, z), window={size=2 rhs_dilate=2}, to_apply=add
)");
  Literal r = MustRun(hlo, {F32({5}, {1, 2, 3, 4, 5})});
  EXPECT_THAT(Values<float>(r), ElementsAre(4, 6, 8));
}

TEST(ReduceWindowTest, TwoDimensionalWithStridePaddingAndDilations) {
  // x = [[1, 2], [3, 4]] with lhs_dilate=2x2 becomes
  //   [[1, _, 2],
  //    [_, _, _],
  //    [3, _, 4]]
  // Window 2x2 with rhs_dilate=1x2 reads rows {r, r+1} and columns {c, c+2};
  // stride 1x2. Without padding: 2 rows x 1 column of output:
  //   rows {0,1} x cols {0,2} = 1 + 2 = 3; rows {1,2} x cols {0,2} = 3 + 4 = 7.
  std::string unpadded = ReduceModule(kAddF32, R"(
  x = f32[2,2] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2,1] reduce-window(x, z), window={size=2x2 stride=1x2 lhs_dilate=2x2 rhs_dilate=1x2}, to_apply=add
)");
  Literal a = MustRun(unpadded, {F32({2, 2}, {1, 2, 3, 4})});
  EXPECT_THAT(Values<float>(a), ElementsAre(3, 7));
  // Padding 2 at the low end of dimension 1 gives columns [p, p, 1, _, 2]
  // (and [p, p, 3, _, 4]); output columns (5 - 3) / 2 + 1 = 2:
  //   column 0 reads cols {0, 2}: p and the first value;
  //   column 1 reads cols {2, 4}: both values.
  //   row 0: 1, 1 + 2 = 3; row 1: 3, 3 + 4 = 7.
  std::string padded = ReduceModule(kAddF32, R"(
  x = f32[2,2] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2,2] reduce-window(x, z), window={size=2x2 stride=1x2 pad=0_0x2_0 lhs_dilate=2x2 rhs_dilate=1x2}, to_apply=add
)");
  Literal b = MustRun(padded, {F32({2, 2}, {1, 2, 3, 4})});
  EXPECT_THAT(Values<float>(b), ElementsAre(1, 3, 3, 7));
}

TEST(ReduceWindowTest, VariadicMaxWithIndex) {
  // Values [3, 9, 9, 1] with indices; windows of 2, stride 1:
  // {3,9} -> (9, 1), {9,9} -> (9, 1) (tie: lower index), {9,1} -> (9, 2).
  std::string hlo = ReduceModule(kArgMax, R"(
  x = f32[4] parameter(0)
  idx = s32[4] iota(), iota_dimension=0
  vinit = f32[] constant(-inf)
  iinit = s32[] constant(-1)
  ROOT r = (f32[3], s32[3]) reduce-window(x, idx, vinit, iinit), window={size=2}, to_apply=argmax
)");
  Literal r = MustRun(hlo, {F32({4}, {3, 9, 9, 1})});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_THAT(Values<float>(r.tuple_elements()[0]), ElementsAre(9, 9, 9));
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[1]), ElementsAre(1, 1, 2));
}

constexpr char kSelectGe[] = R"(
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
)";

std::string SelectAndScatterModule(std::string_view body) {
  return std::string("HloModule m\n") + kSelectGe + kAddF32 + "ENTRY e {\n" +
         std::string(body) + "}\n";
}

TEST(SelectAndScatterTest, MaxPoolBackwardFirstMaximumWins) {
  // operand = [[1, 5, 5, 0],
  //            [3, 4, 8, 1],
  //            [9, 2, 6, 7],
  //            [9, 1, 3, 7]]
  // windows 2x2 stride 2 and their selected positions:
  //   {1,5,3,4} -> (0,1); {5,0,8,1} -> (1,2);
  //   {9,2,9,1} -> tie, first wins -> (2,0); {6,7,3,7} -> tie -> (2,3).
  // source [[10, 20], [30, 40]] lands there; everything else is init 0.
  std::string hlo = SelectAndScatterModule(R"(
  x = f32[4,4] parameter(0)
  s = f32[2,2] parameter(1)
  z = f32[] constant(0)
  ROOT r = f32[4,4] select-and-scatter(x, s, z), window={size=2x2 stride=2x2}, select=ge, scatter=add
)");
  Literal r = MustRun(
      hlo, {F32({4, 4}, {1, 5, 5, 0, 3, 4, 8, 1, 9, 2, 6, 7, 9, 1, 3, 7}),
            F32({2, 2}, {10, 20, 30, 40})});
  EXPECT_THAT(Values<float>(r), ElementsAre(0, 10, 0, 0,   //
                                            0, 0, 20, 0,   //
                                            30, 0, 0, 40,  //
                                            0, 0, 0, 0));
}

TEST(SelectAndScatterTest, OverlappingWindowsAccumulate) {
  // operand [1, 3, 2], windows {1,3} and {3,2} both select index 1:
  // 10 + 20 = 30 there.
  std::string hlo = SelectAndScatterModule(R"(
  x = f32[3] parameter(0)
  s = f32[2] parameter(1)
  z = f32[] constant(0)
  ROOT r = f32[3] select-and-scatter(x, s, z), window={size=2}, select=ge, scatter=add
)");
  Literal r = MustRun(hlo, {F32({3}, {1, 3, 2}), F32({2}, {10, 20})});
  EXPECT_THAT(Values<float>(r), ElementsAre(0, 30, 0));
}

TEST(SelectAndScatterTest, PaddingIsNeverSelected) {
  // operand [5, 1] padded to [p, 5, 1, p]; windows {p,5} -> index 0 and
  // {1,p} -> index 1 even though the padding would compare as larger or
  // smaller. Init 1 is the starting value: 1 + 7 = 8, 1 + 8 = 9.
  std::string hlo = SelectAndScatterModule(R"(
  x = f32[2] parameter(0)
  s = f32[2] parameter(1)
  z = f32[] constant(1)
  ROOT r = f32[2] select-and-scatter(x, s, z), window={size=2 stride=2 pad=1_1}, select=ge, scatter=add
)");
  Literal r = MustRun(hlo, {F32({2}, {5, 1}), F32({2}, {7, 8})});
  EXPECT_THAT(Values<float>(r), ElementsAre(8, 9));
}

}  // namespace
}  // namespace aotc
