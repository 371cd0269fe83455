// End-to-end tests of code generation, one HLO feature at a time: each test
// compiles a small module for this host, links the object in memory, runs
// it, and checks the results against values computed by hand (or, for
// larger random cases, against the reference evaluator at -O0 and -O2).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <thread>

#include "aotc/runtime.h"
#include "codegen/tests/codegen_test_util.h"
#include "tools/inputs.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

std::vector<Literal> RandomArgs(std::string_view hlo, uint64_t seed = 7) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.status();
  std::vector<Literal> args;
  int k = 0;
  for (const Instruction* p : (*module)->entry()->parameters()) {
    args.push_back(RandomLiteral(p->shape(), seed, k++));
  }
  return args;
}

TEST(CodegenE2eTest, RunningExampleSmall) {
  // mean(x**2 * 3 + y) over 2x2: x = {1,2,3,4}, y = {1,1,1,1}:
  // (3*1+1 + 3*4+1 + 3*9+1 + 3*16+1) / 4 = (4 + 13 + 28 + 49) / 4 = 23.5.
  const char* hlo = R"(
HloModule m
sum { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  x = f32[2,2] parameter(0)
  y = f32[2,2] parameter(1)
  sq = f32[2,2] multiply(x, x)
  three = f32[] constant(3)
  b3 = f32[2,2] broadcast(three), dimensions={}
  m3 = f32[2,2] multiply(sq, b3)
  a = f32[2,2] add(m3, y)
  zero = f32[] constant(0)
  r = f32[] reduce(a, zero), dimensions={0,1}, to_apply=sum
  n = f32[] constant(4)
  ROOT d = f32[] divide(r, n)
})";
  auto results = CompileAndRun(hlo, {MakeArray<P::kF32>({2, 2}, {1, 2, 3, 4}),
                                     MakeArray<P::kF32>({2, 2}, {1, 1, 1, 1})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kF32>((*results)[0]), std::vector<float>{23.5f});
}

TEST(CodegenE2eTest, IntegerDivisionEdgeCases) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = s32[5] parameter(0)
  b = s32[5] parameter(1)
  q = s32[5] divide(a, b)
  r = s32[5] remainder(a, b)
  ROOT t = (s32[5], s32[5]) tuple(q, r)
})";
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  auto results = CompileAndRun(
      hlo, {Vec<P::kS32>({7, -7, 5, kMin, kMin}), Vec<P::kS32>({2, 2, 0, -1, 0})});
  ASSERT_TRUE(results.ok()) << results.status();
  // Truncating division; x / 0 = -1; INT_MIN / -1 = INT_MIN.
  EXPECT_EQ(Values<P::kS32>((*results)[0]),
            (std::vector<int32_t>{3, -3, -1, kMin, -1}));
  // Sign of the dividend; x % 0 = x; INT_MIN % -1 = 0.
  EXPECT_EQ(Values<P::kS32>((*results)[1]),
            (std::vector<int32_t>{1, -1, 5, 0, kMin}));
}

TEST(CodegenE2eTest, UnsignedDivisionAndShifts) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = u8[4] parameter(0)
  b = u8[4] parameter(1)
  q = u8[4] divide(a, b)
  l = u8[4] shift-left(a, b)
  s = u8[4] shift-right-logical(a, b)
  ROOT t = (u8[4], u8[4], u8[4]) tuple(q, l, s)
})";
  auto results = CompileAndRun(
      hlo, {Vec<P::kU8>({200, 9, 255, 128}), Vec<P::kU8>({0, 2, 8, 7})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kU8>((*results)[0]),
            (std::vector<uint8_t>{255, 4, 31, 18}));
  // 200 << 0 = 200; 9 << 2 = 36; shifting by >= 8 gives 0; 128 << 7 wraps.
  EXPECT_EQ(Values<P::kU8>((*results)[1]), (std::vector<uint8_t>{200, 36, 0, 0}));
  EXPECT_EQ(Values<P::kU8>((*results)[2]), (std::vector<uint8_t>{200, 2, 0, 1}));
}

TEST(CodegenE2eTest, ArithmeticShiftRightFillsWithSign) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = s16[3] parameter(0)
  b = s16[3] parameter(1)
  ROOT s = s16[3] shift-right-arithmetic(a, b)
})";
  auto results = CompileAndRun(
      hlo, {Vec<P::kS16>({-8, -8, 100}), Vec<P::kS16>({1, 16, 40})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kS16>((*results)[0]), (std::vector<int16_t>{-4, -1, 0}));
}

TEST(CodegenE2eTest, MaxMinCompareWithNanAndInf) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  mx = f32[4] maximum(a, b)
  mn = f32[4] minimum(a, b)
  lt = pred[4] compare(a, b), direction=LT
  ne = pred[4] compare(a, b), direction=NE
  ROOT t = (f32[4], f32[4], pred[4], pred[4]) tuple(mx, mn, lt, ne)
})";
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  auto results = CompileAndRun(
      hlo, {Vec<P::kF32>({nan, 1, -inf, -0.0f}), Vec<P::kF32>({1, nan, 2, 0.0f})});
  ASSERT_TRUE(results.ok()) << results.status();
  std::vector<float> mx = Values<P::kF32>((*results)[0]);
  std::vector<float> mn = Values<P::kF32>((*results)[1]);
  EXPECT_TRUE(std::isnan(mx[0]) && std::isnan(mx[1]));
  EXPECT_TRUE(std::isnan(mn[0]) && std::isnan(mn[1]));
  EXPECT_EQ(mx[2], 2.0f);
  EXPECT_EQ(mn[2], -inf);
  // max(-0, +0) = +0 and min(-0, +0) = -0.
  EXPECT_FALSE(std::signbit(mx[3]));
  EXPECT_TRUE(std::signbit(mn[3]));
  // Ordered compares with NaN are false; NE is true.
  EXPECT_EQ(Values<P::kPred>((*results)[2]),
            (std::vector<bool>{false, false, true, false}));
  EXPECT_EQ(Values<P::kPred>((*results)[3]),
            (std::vector<bool>{true, true, true, false}));
}

TEST(CodegenE2eTest, TotalOrderCompare) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = f32[3] parameter(0)
  b = f32[3] parameter(1)
  ROOT lt = pred[3] compare(a, b), direction=LT, type=TOTALORDER
})";
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  auto results = CompileAndRun(
      hlo, {Vec<P::kF32>({-0.0f, inf, -nan}), Vec<P::kF32>({0.0f, nan, -inf})});
  ASSERT_TRUE(results.ok()) << results.status();
  // -0 < +0; inf < NaN; -NaN < -inf.
  EXPECT_EQ(Values<P::kPred>((*results)[0]), (std::vector<bool>{true, true, true}));
}

TEST(CodegenE2eTest, NonDefaultLayouts) {
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

TEST(CodegenE2eTest, ColumnMajorResultAndConstant) {
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

TEST(CodegenE2eTest, SizeZeroAndSizeOneDimensions) {
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

TEST(CodegenE2eTest, TransposeRank6) {
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

TEST(CodegenE2eTest, StridedSliceAndReverse) {
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

TEST(CodegenE2eTest, NegativeAndInteriorPad) {
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

TEST(CodegenE2eTest, ConcatenateIotaDynamicSlice) {
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

TEST(CodegenE2eTest, DynamicSliceWithStartIndexVector) {
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

TEST(CodegenE2eTest, BitcastConvertKeepsEveryBit) {
  // 0xFFFF and 0xFFF8 are NaNs as f16 and as bf16; a chain of
  // bitcast-converts must give back the same bits.
  const char* hlo = R"(
HloModule m
ENTRY e {
  p = s16[3] parameter(0)
  b = bf16[3] bitcast-convert(p)
  u = u16[3] bitcast-convert(b)
  h = f16[3] bitcast-convert(u)
  ROOT s = s16[3] bitcast-convert(h)
})";
  auto results = CompileAndRun(hlo, {Vec<P::kS16>({-1, -8, 12345})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kS16>((*results)[0]), (std::vector<int16_t>{-1, -8, 12345}));
}

TEST(CodegenE2eTest, DynamicUpdateSliceClampsStart) {
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

TEST(CodegenE2eTest, PredArithmeticAndNot) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = pred[4] parameter(0)
  b = pred[4] parameter(1)
  x = pred[4] xor(a, b)
  n = pred[4] not(x)
  s = pred[4] add(a, b)
  ROOT t = (pred[4], pred[4]) tuple(n, s)
})";
  auto results = CompileAndRun(hlo, {Vec<P::kPred>({false, false, true, true}),
                                     Vec<P::kPred>({false, true, false, true})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kPred>((*results)[0]),
            (std::vector<bool>{true, false, false, true}));
  EXPECT_EQ(Values<P::kPred>((*results)[1]),
            (std::vector<bool>{false, true, true, true}));
}

TEST(CodegenE2eTest, ConvertSaturatesAndRoundsHalf) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  i = s8[4] convert(x)
  h = f16[4] convert(x)
  ROOT t = (s8[4], f16[4]) tuple(i, h)
})";
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // 1 + 2^-11 is halfway between f16 neighbours 1 and 1 + 2^-10: ties to even.
  const float tie = 1.0f + std::ldexp(1.0f, -11);
  auto results = CompileAndRun(hlo, {Vec<P::kF32>({300.0f, -2.9f, nan, tie})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kS8>((*results)[0]), (std::vector<int8_t>{127, -2, 0, 1}));
  std::vector<Half> h = Values<P::kF16>((*results)[1]);
  EXPECT_EQ(h[0].bits, 0x5CB0);  // 300 = 1.171875 * 2^8
  EXPECT_EQ(h[3].bits, 0x3C00);  // 1.0
}

TEST(CodegenE2eTest, WhileLoopWithTupleState) {
  // Sums 1..10 and counts iterations: state (i, acc) until i > 10.
  const char* hlo = R"(
HloModule m
cond {
  s = (s32[], f32[2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  ten = s32[] constant(10)
  ROOT c = pred[] compare(i, ten), direction=LE
}
body {
  s = (s32[], f32[2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  acc = f32[2] get-tuple-element(s), index=1
  one = s32[] constant(1)
  next = s32[] add(i, one)
  fi = f32[] convert(i)
  b = f32[2] broadcast(fi), dimensions={}
  sum = f32[2] add(acc, b)
  ROOT t = (s32[], f32[2]) tuple(next, sum)
}
ENTRY e {
  x = f32[2] parameter(0)
  zero = s32[] constant(1)
  init = (s32[], f32[2]) tuple(zero, x)
  ROOT w = (s32[], f32[2]) while(init), condition=cond, body=body
})";
  auto results = CompileAndRun(hlo, {Vec<P::kF32>({0.5f, -100.0f})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kS32>((*results)[0]), std::vector<int32_t>{11});
  EXPECT_EQ(Values<P::kF32>((*results)[1]), (std::vector<float>{55.5f, -45.0f}));
}

TEST(CodegenE2eTest, ConditionalWithIndexAndPred) {
  const char* hlo = R"(
HloModule m
b0 { p = f32[] parameter(0)  ROOT n = f32[] negate(p) }
b1 { p = f32[] parameter(0)  ROOT a = f32[] add(p, p) }
b2 { p = f32[] parameter(0)  ROOT m = f32[] multiply(p, p) }
ENTRY e {
  i = s32[] parameter(0)
  x = f32[] parameter(1)
  ROOT c = f32[] conditional(i, x, x, x), branch_computations={b0, b1, b2}
})";
  for (auto [index, expected] : std::vector<std::pair<int32_t, float>>{
           {0, -3}, {1, 6}, {2, 9}, {7, 9}, {-1, 9}}) {
    auto results =
        CompileAndRun(hlo, {Scalar<P::kS32>(index), Scalar<P::kF32>(3)});
    ASSERT_TRUE(results.ok()) << results.status();
    // Out-of-range indices run the last branch.
    EXPECT_EQ(Values<P::kF32>((*results)[0]), std::vector<float>{expected})
        << "index " << index;
  }
}

TEST(CodegenE2eTest, DotMatchesHandComputation) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[3,2] parameter(1)
  ROOT d = f32[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";
  auto results =
      CompileAndRun(hlo, {MakeArray<P::kF32>({2, 3}, {1, 2, 3, 4, 5, 6}),
                          MakeArray<P::kF32>({3, 2}, {7, 8, 9, 10, 11, 12})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kF32>((*results)[0]),
            (std::vector<float>{58, 64, 139, 154}));
}

TEST(CodegenE2eTest, RandomCasesMatchTheEvaluator) {
  const std::vector<std::string> modules = {
      R"(HloModule m
ENTRY e {
  a = f32[3,4,5] parameter(0)
  b = f32[3,5,2] parameter(1)
  ROOT d = f32[3,4,2] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
})",
      R"(HloModule m
mx { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT m = f32[] maximum(a, b) }
ENTRY e {
  x = f32[1,7,9,3] parameter(0)
  ninf = f32[] constant(-inf)
  ROOT r = f32[1,4,5,3] reduce-window(x, ninf), window={size=1x3x3x1 stride=1x2x2x1 pad=0_0x1_1x1_1x0_0}, to_apply=mx
})",
      R"(HloModule m
sum { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  x = f32[4,6] parameter(0)
  zero = f32[] constant(0)
  ROOT r = f32[7,7] reduce-window(x, zero), window={size=2x2 stride=1x1 pad=1_1x1_1 lhs_dilate=2x1 rhs_dilate=2x1}, to_apply=sum
})",
      R"(HloModule m
argmax {
  a = f32[] parameter(0)  ai = s32[] parameter(1)
  b = f32[] parameter(2)  bi = s32[] parameter(3)
  gt = pred[] compare(a, b), direction=GE
  v = f32[] select(gt, a, b)
  i = s32[] select(gt, ai, bi)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  x = f32[5,8] parameter(0)
  idx = s32[5,8] iota(), iota_dimension=1
  ninf = f32[] constant(-inf)
  z = s32[] constant(0)
  ROOT r = (f32[5], s32[5]) reduce(x, idx, ninf, z), dimensions={1}, to_apply=argmax
})",
      R"(HloModule m
ENTRY e {
  x = bf16[16] parameter(0)
  y = bf16[16] parameter(1)
  m = bf16[16] multiply(x, y)
  e = bf16[16] exponential(m)
  t = bf16[16] tanh(e)
  ROOT c = f32[16] convert(t)
})",
      R"(HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  x = f32[6,4] parameter(0)
  ROOT m = f32[6,4] map(x, x), dimensions={0,1}, to_apply=add
})",
      R"(HloModule m
fused {
  p0 = f32[8,8] parameter(0)
  p1 = f32[8] parameter(1)
  b = f32[8,8] broadcast(p1), dimensions={1}
  m = f32[8,8] multiply(p0, b)
  ROOT t = f32[8,8] transpose(m), dimensions={1,0}
}
ENTRY e {
  x = f32[8,8] parameter(0)
  y = f32[8] parameter(1)
  ROOT f = f32[8,8] fusion(x, y), kind=kLoop, calls=fused
})",
      R"(HloModule m
inner {
  a = f32[8] parameter(0)
  ROOT n = f32[8] negate(a)
}
outer {
  p = f32[8] parameter(0)
  f = f32[8] fusion(p), kind=kLoop, calls=inner
  ROOT m = f32[8] multiply(f, p)
}
ENTRY e {
  x = f32[8] parameter(0)
  ROOT f = f32[8] fusion(x), kind=kLoop, calls=outer
})",
      R"(HloModule m
ENTRY e {
  x = s64[3,4] parameter(0)
  y = u32[3,4] parameter(1)
  a = s64[3,4] abs(x)
  c = u32[3,4] count-leading-zeros(y)
  p = u32[3,4] popcnt(y)
  s = s64[3,4] sign(x)
  ROOT t = (s64[3,4], u32[3,4], u32[3,4], s64[3,4]) tuple(a, c, p, s)
})",
  };
  for (const std::string& hlo : modules) {
    SCOPED_TRACE(hlo);
    ExpectMatchesEvaluator(hlo, RandomArgs(hlo));
  }
}

TEST(CodegenE2eTest, LargeLoopsRunThroughTheParallelForHook) {
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[512,256] parameter(0)
  two = f32[] constant(2)
  b = f32[512,256] broadcast(two), dimensions={}
  m = f32[512,256] multiply(x, b)
  t = f32[256,512] transpose(m), dimensions={1,0}
  ROOT n = f32[256,512] negate(t)
})";
  Literal x(Shape::Array(P::kF32, {512, 256}));
  auto data = x.mutable_data<float>();
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i % 1000);
  HookLog log;
  aotc_set_parallel_for(&ThreadedReverseHook, &log);
  auto results = CompileAndRun(hlo, {x});
  aotc_set_parallel_for(nullptr, nullptr);
  ASSERT_TRUE(results.ok()) << results.status();
  // broadcast, multiply, transpose and negate each have 131072 elements:
  // four parallel loops, over 512, 512, 256 and 256 outermost rows.
  EXPECT_EQ(log.calls, 4);
  EXPECT_EQ(log.iterations, 512 + 512 + 256 + 256);
  std::vector<float> out = Values<P::kF32>((*results)[0]);
  for (int i = 0; i < 256; ++i) {
    for (int j = 0; j < 512; ++j) {
      ASSERT_EQ(out[i * 512 + j], -2.0f * static_cast<float>((j * 256 + i) % 1000))
          << i << "," << j;
    }
  }
}

TEST(CodegenE2eTest, UnsupportedOpsAreRefusedWithTheirLocation) {
  const char* hlo = R"(HloModule m
sum { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }
ENTRY e {
  x = f32[4] parameter(0)
  ROOT s = f32[4] all-reduce(x), to_apply=sum
})";
  auto compiled = CompileText(hlo);
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(std::string(compiled.status().message()),
            "test.hlo:5:8: error: 'all-reduce' is not supported yet by code "
            "generation\n"
            "  ROOT s = f32[4] all-reduce(x), to_apply=sum\n"
            "       ^");
}

TEST(CodegenE2eTest, LargeComputationsEmitEachLoopNestAsAFunction) {
  // 70 adds of 1 in a chain, unfused: more instructions with buffers of
  // their own than a computation keeps inline, so each gets a function of
  // its own; the result is still x + 70.
  std::string hlo = "HloModule m\nENTRY e {\n  v0 = f32[4] parameter(0)\n"
                    "  one = f32[4] constant({1, 1, 1, 1})\n";
  for (int i = 1; i <= 70; ++i) {
    hlo += "  v" + std::to_string(i) + " = f32[4] add(v" + std::to_string(i - 1) +
           ", one)\n";
  }
  hlo += "  ROOT r = f32[4] negate(v70)\n}\n";
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  CompileOptions options;
  options.name = "m";
  options.emit_llvm = true;
  auto compiled = CompileModule(**module, options);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  EXPECT_NE(compiled->llvm_ir.find(".loops.v70"), std::string::npos);
  auto loaded = LoadedModel::Load(*compiled);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  auto r = (*loaded)->Run({Vec<P::kF32>({0, 1, -70, 2.5f})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<P::kF32>((*r)[0]), (std::vector<float>{-70, -71, 0, -72.5f}));
  // A small computation keeps its loops inline.
  auto small_module = LoadModuleFromString(R"(HloModule m
ENTRY e { x = f32[4] parameter(0)  ROOT y = f32[4] negate(x) })",
                                           "small.hlo");
  ASSERT_TRUE(small_module.ok()) << small_module.status();
  auto small = CompileModule(**small_module, options);
  ASSERT_TRUE(small.ok()) << small.status();
  EXPECT_EQ(small->llvm_ir.find(".loops."), std::string::npos);
}

TEST(CodegenE2eTest, ObjectIsDeterministic) {
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[64] parameter(0)
  c = f32[64] constant({1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8})
  ROOT a = f32[64] add(x, c)
})";
  auto first = CompileText(hlo);
  auto second = CompileText(hlo);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->object, second->object);
  EXPECT_EQ(first->header, second->header);
  EXPECT_EQ(first->json, second->json);
}

}  // namespace
}  // namespace aotc::codegen::testing
