// Shape inference tests for gather, scatter, dot, convolution, reductions,
// windowed operations and calls. Modules are written in HLO text; every
// expected shape is computed by hand in the comment above it (convolution
// sizes also by an independent formula), and negative cases assert the
// exact unlocated message.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "compiler/ir/shape_inference_test_util.h"

namespace aotc {
namespace {

using ::aotc::shape_test::Entry;
using ::aotc::shape_test::Infer;
using ::aotc::shape_test::WithAdd;

// ---------------------------------------------------------------------------
// Gather and scatter

TEST(ShapeInferenceGather, OperationSemanticsExample) {
  // XLA's gather documentation example: operand [16,11], start indices [5,2]
  // with index_vector_dim=1, slice sizes [8,6] kept as offset dims {1,2}:
  // batch [5] then the window [8,6].
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[16,11] parameter(0)
  i = s32[5,2] parameter(1)
  ROOT r = f32[5,8,6] gather(a, i), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={8,6})")),
            "f32[5,8,6]");
}

TEST(ShapeInferenceGather, CollapsedRowsWithImplicitIndexVector) {
  // Rows of a [3,3] matrix picked by a vector of 2 indices: index_vector_dim
  // equals the index rank, so each index is one scalar; dimension 0 of the
  // [1,3] slice collapses: [2] batch + [3] window.
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[3,3] parameter(0)
  i = s32[2] parameter(1)
  ROOT r = f32[2,3] gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3})")),
            "f32[2,3]");
}

TEST(ShapeInferenceGather, ManyDimensions) {
  // Index vectors of 5 in dimension 4 of [10,9,8,7,5]: batch [10,9,8,7],
  // then the [3,4,5,6,7] window at offset dims 4..8.
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[50,49,48,47,46] parameter(0)
  i = s64[10,9,8,7,5] parameter(1)
  ROOT r = f32[10,9,8,7,3,4,5,6,7] gather(a, i), offset_dims={4,5,6,7,8}, collapsed_slice_dims={}, start_index_map={0,1,2,3,4}, index_vector_dim=4, slice_sizes={3,4,5,6,7})")),
            "f32[10,9,8,7,3,4,5,6,7]");
}

TEST(ShapeInferenceGather, BatchingDimensions) {
  // Operand dims: 0 batching, 1 collapsed, 2 window of 6. Index batch dims
  // [4,3] (dimension 2 is the index vector), then the window.
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[4,5,6] parameter(0)
  i = s32[4,3,1] parameter(1)
  ROOT r = f32[4,3,6] gather(a, i), offset_dims={2}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=2, slice_sizes={1,1,6})")),
            "f32[4,3,6]");
}

TEST(ShapeInferenceGather, Errors) {
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[3,3] parameter(0)
  i = s32[2] parameter(1)
  ROOT r = f32[2,3] gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={2,3})")),
            "error: gather collapses operand dimension 0 whose slice size 2 "
            "is larger than 1");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[3,3] parameter(0)
  i = s32[2] parameter(1)
  ROOT r = f32[2,3] gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4})")),
            "error: gather slice size 4 in dimension 1 is not within [0, 3]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[3,3] parameter(0)
  i = s32[2] parameter(1)
  ROOT r = f32[2,3] gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=2, slice_sizes={1,3})")),
            "error: index_vector_dim 2 is out of range for start indices of "
            "rank 1");
}

TEST(ShapeInferenceScatter, SingleAndVariadic) {
  // Rows 2 of a [3,3] operand updated by [2,3] updates.
  EXPECT_EQ(Infer(WithAdd(R"(
  a = f32[3,3] parameter(0)
  i = s32[2] parameter(1)
  u = f32[2,3] parameter(2)
  ROOT r = f32[3,3] scatter(a, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add)")),
            "f32[3,3]");
  std::string two = R"(HloModule m

add2 {
  x0 = f32[] parameter(0)
  y0 = s32[] parameter(1)
  x1 = f32[] parameter(2)
  y1 = s32[] parameter(3)
  sx = f32[] add(x0, x1)
  sy = s32[] add(y0, y1)
  ROOT t = (f32[], s32[]) tuple(sx, sy)
}

ENTRY e {
  a = f32[3,3] parameter(0)
  b = s32[3,3] parameter(1)
  i = s32[2] parameter(2)
  u = f32[2,3] parameter(3)
  v = s32[2,3] parameter(4)
  ROOT r = (f32[3,3], s32[3,3]) scatter(a, b, i, u, v), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add2
}
)";
  EXPECT_EQ(Infer(two), "(f32[3,3], s32[3,3])");
}

TEST(ShapeInferenceScatter, Errors) {
  // The updates' scatter dimension (3) does not match the 2 indices.
  EXPECT_EQ(Infer(WithAdd(R"(
  a = f32[3,3] parameter(0)
  i = s32[2] parameter(1)
  u = f32[3,3] parameter(2)
  ROOT r = f32[3,3] scatter(a, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add)")),
            "error: scatter updates have scatter dimensions {3}, expected {2} "
            "from the indices");
  EXPECT_EQ(Infer(WithAdd(R"(
  a = f32[3,3] parameter(0)
  i = s32[2] parameter(1)
  u = f32[2,4] parameter(2)
  ROOT r = f32[3,3] scatter(a, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add)")),
            "error: scatter update window dimension 1 has size 4, larger than "
            "operand dimension 1 of size 3");
}

// ---------------------------------------------------------------------------
// Dot and convolution

TEST(ShapeInferenceDot, BatchThenLhsFreeThenRhsFree) {
  // batch 2, lhs free 3, rhs free 5; contracting 4.
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,3,4] parameter(0)
  b = f32[2,4,5] parameter(1)
  ROOT r = f32[2,3,5] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1})")),
            "f32[2,3,5]");
  // Free dimensions keep operand order: lhs [7,3] around contracting 4,
  // rhs [6,5] around contracting 4.
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[7,4,3] parameter(0)
  b = f32[6,4,5] parameter(1)
  ROOT r = f32[7,3,6,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1})")),
            "f32[7,3,6,5]");
}

TEST(ShapeInferenceDot, MixedPrecisionTakesDeclaredType) {
  EXPECT_EQ(Infer(Entry(R"(
  a = bf16[3,4] parameter(0)
  b = bf16[4] parameter(1)
  ROOT r = f32[3] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0})")),
            "f32[3]");
}

TEST(ShapeInferenceDot, Errors) {
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[3,4] parameter(0)
  b = f32[5,2] parameter(1)
  ROOT r = f32[3,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0})")),
            "error: dot contracting dimension sizes differ: lhs dimension 1 "
            "has size 4, rhs dimension 0 has size 5");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[3,4] parameter(0)
  b = f32[4,2] parameter(1)
  ROOT r = f32[3,2] dot(a, b), lhs_contracting_dims={2}, rhs_contracting_dims={0})")),
            "error: lhs dot dimension 2 is out of range for rank 2");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,3,4] parameter(0)
  b = f32[4,5] parameter(1)
  ROOT r = f32[2,3,5] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={0})")),
            "error: dot has 1 lhs batch dimensions but 0 rhs batch dimensions");
}

// Output size of one convolution spatial dimension, written independently of
// the implementation: dilate the input and the window, pad, then count the
// strided window positions.
int64_t ConvOut(int64_t in, int64_t k, int64_t stride, int64_t lo, int64_t hi,
                int64_t lhs_dilate, int64_t rhs_dilate) {
  int64_t padded = (in - 1) * lhs_dilate + 1 + lo + hi;
  int64_t window = (k - 1) * rhs_dilate + 1;
  return padded < window ? 0 : (padded - window) / stride + 1;
}

TEST(ShapeInferenceConvolution, StridePaddingDilation) {
  // 7x7 input, 3x3 kernel, stride 2, pad 1: (7+2-3)/2+1 = 4.
  ASSERT_EQ(ConvOut(7, 3, 2, 1, 1, 1, 1), 4);
  EXPECT_EQ(Infer(Entry(R"(
  x = f32[1,7,7,3] parameter(0)
  k = f32[3,3,3,8] parameter(1)
  ROOT r = f32[1,4,4,8] convolution(x, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f)")),
            "f32[1,4,4,8]");
  // rhs_dilate 2: the window spans 5; (9-5)/2+1 = 3.
  ASSERT_EQ(ConvOut(7, 3, 2, 1, 1, 1, 2), 3);
  EXPECT_EQ(Infer(Entry(R"(
  x = f32[1,7,7,3] parameter(0)
  k = f32[3,3,3,8] parameter(1)
  ROOT r = f32[1,3,3,8] convolution(x, k), window={size=3x3 stride=2x2 pad=1_1x1_1 rhs_dilate=2x2}, dim_labels=b01f_01io->b01f)")),
            "f32[1,3,3,8]");
  // lhs_dilate 2 on 7: 13, padded 15; (15-3)/2+1 = 7. The second spatial
  // dimension has no dilation, pad 0_2: (7+2-3)/1+1 = 7. Layout bf01.
  ASSERT_EQ(ConvOut(7, 3, 2, 1, 1, 2, 1), 7);
  ASSERT_EQ(ConvOut(7, 3, 1, 0, 2, 1, 1), 7);
  EXPECT_EQ(Infer(Entry(R"(
  x = f32[2,3,7,7] parameter(0)
  k = f32[8,3,3,3] parameter(1)
  ROOT r = f32[2,8,7,7] convolution(x, k), window={size=3x3 stride=2x1 pad=1_1x0_2 lhs_dilate=2x1}, dim_labels=bf01_oi01->bf01)")),
            "f32[2,8,7,7]");
}

TEST(ShapeInferenceConvolution, GroupCounts) {
  // feature_group_count 2: 4 input features = 2 groups of the kernel's 2.
  ASSERT_EQ(ConvOut(5, 3, 1, 0, 0, 1, 1), 3);
  EXPECT_EQ(Infer(Entry(R"(
  x = f32[1,5,5,4] parameter(0)
  k = f32[3,3,2,6] parameter(1)
  ROOT r = f32[1,3,3,6] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f, feature_group_count=2)")),
            "f32[1,3,3,6]");
  // batch_group_count 2: batch 4 / 2 = 2.
  EXPECT_EQ(Infer(Entry(R"(
  x = f32[4,5,5,3] parameter(0)
  k = f32[3,3,3,6] parameter(1)
  ROOT r = f32[2,3,3,6] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f, batch_group_count=2)")),
            "f32[2,3,3,6]");
  EXPECT_EQ(Infer(Entry(R"(
  x = f32[1,5,5,4] parameter(0)
  k = f32[3,3,3,6] parameter(1)
  ROOT r = f32[1,3,3,6] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f)")),
            "error: convolution input feature size 4 does not match kernel "
            "input feature size 3 times feature_group_count 1");
}

// ---------------------------------------------------------------------------
// Reductions and windows

TEST(ShapeInferenceReduce, DropsReducedDimensions) {
  EXPECT_EQ(Infer(WithAdd(R"(
  a = f32[2,3,4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[3] reduce(a, z), dimensions={0,2}, to_apply=add)")),
            "f32[3]");
}

TEST(ShapeInferenceReduce, VariadicGivesTuple) {
  std::string hlo = R"(HloModule m

argmax {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  gt = pred[] compare(v0, v1), direction=GT
  v = f32[] select(gt, v0, v1)
  i = s32[] select(gt, i0, i1)
  ROOT t = (f32[], s32[]) tuple(v, i)
}

ENTRY e {
  a = f32[3,5] parameter(0)
  b = s32[3,5] parameter(1)
  za = f32[] constant(0)
  zb = s32[] constant(0)
  ROOT r = (f32[3], s32[3]) reduce(a, b, za, zb), dimensions={1}, to_apply=argmax
}
)";
  EXPECT_EQ(Infer(hlo), "(f32[3], s32[3])");
}

TEST(ShapeInferenceReduce, ReducerSignature) {
  std::string hlo = R"(HloModule m

add3 {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  w = f32[] parameter(2)
  ROOT s = f32[] add(x, y)
}

ENTRY e {
  a = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=add3
}
)";
  EXPECT_EQ(Infer(hlo), "error: reducer 'add3' has 3 parameters, expected 2");
}

TEST(ShapeInferenceWindow, ReduceWindow) {
  // dim 0: (4-2)/2+1 = 2; dim 1: padded 6+2 = 8, (8-3)/1+1 = 6.
  EXPECT_EQ(Infer(WithAdd(R"(
  a = f32[4,6] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2,6] reduce-window(a, z), window={size=2x3 stride=2x1 pad=0_0x1_1}, to_apply=add)")),
            "f32[2,6]");
  // rhs_dilate 2 widens the window to 5: 9-5+1 = 5; lhs_dilate 2 turns 5
  // into 9: 9-3+1 = 7.
  std::string hlo = WithAdd(R"(
  a = f32[9] parameter(0)
  b = f32[5] parameter(1)
  z = f32[] constant(0)
  w = f32[5] reduce-window(a, z), window={size=3 rhs_dilate=2}, to_apply=add
  ROOT r = f32[7] reduce-window(b, z), window={size=3 lhs_dilate=2}, to_apply=add)");
  EXPECT_EQ(Infer(hlo, "w"), "f32[5]");
  EXPECT_EQ(Infer(hlo), "f32[7]");
  EXPECT_EQ(Infer(WithAdd(R"(
  a = f32[4,6] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2,6] reduce-window(a, z), window={size=2x3 stride=0x1}, to_apply=add)")),
            "error: window dimension 0 has size 2, stride 0, lhs_dilate 1 and "
            "rhs_dilate 1; each must be at least 1");
}

TEST(ShapeInferenceWindow, SelectAndScatter) {
  // 2x2 windows with stride 2 over [4,6]: source [2,3].
  std::string hlo = R"(HloModule m

ge {
  ge.a = f32[] parameter(0)
  ge.b = f32[] parameter(1)
  ROOT ge.r = pred[] compare(ge.a, ge.b), direction=GE
}

add {
  add.a = f32[] parameter(0)
  add.b = f32[] parameter(1)
  ROOT add.r = f32[] add(add.a, add.b)
}

ENTRY e {
  a = f32[4,6] parameter(0)
  s = f32[2,3] parameter(1)
  z = f32[] constant(0)
  ROOT r = f32[4,6] select-and-scatter(a, s, z), window={size=2x2 stride=2x2}, select=ge, scatter=add
}
)";
  EXPECT_EQ(Infer(hlo), "f32[4,6]");
}

// ---------------------------------------------------------------------------
// Calls and control flow

TEST(ShapeInferenceCalls, SortMapCall) {
  std::string hlo = R"(HloModule m

lt {
  lt.a = f32[] parameter(0)
  lt.b = f32[] parameter(1)
  lt.c = s32[] parameter(2)
  lt.d = s32[] parameter(3)
  ROOT lt.r = pred[] compare(lt.a, lt.b), direction=LT
}

twice {
  tw.a = f32[] parameter(0)
  ROOT tw.r = f32[] add(tw.a, tw.a)
}

pair {
  pa.a = f32[4] parameter(0)
  pa.b = s32[] parameter(1)
  ROOT pa.t = (f32[4], s32[]) tuple(pa.a, pa.b)
}

ENTRY e {
  a = f32[4] parameter(0)
  b = s32[4] parameter(1)
  n = s32[] parameter(2)
  s = (f32[4], s32[4]) sort(a, b), dimensions={0}, to_apply=lt
  m = f32[4] map(a), dimensions={0}, to_apply=twice
  ROOT r = (f32[4], s32[]) call(a, n), to_apply=pair
}
)";
  EXPECT_EQ(Infer(hlo, "s"), "(f32[4], s32[4])");
  EXPECT_EQ(Infer(hlo, "m"), "f32[4]");
  EXPECT_EQ(Infer(hlo), "(f32[4], s32[])");
}

TEST(ShapeInferenceCalls, WhileAndConditional) {
  std::string hlo = R"(HloModule m

cond {
  c.s = (s32[], f32[2]) parameter(0)
  c.i = s32[] get-tuple-element(c.s), index=0
  c.n = s32[] constant(10)
  ROOT c.r = pred[] compare(c.i, c.n), direction=LT
}

body {
  b.s = (s32[], f32[2]) parameter(0)
  b.i = s32[] get-tuple-element(b.s), index=0
  b.x = f32[2] get-tuple-element(b.s), index=1
  b.one = s32[] constant(1)
  b.j = s32[] add(b.i, b.one)
  ROOT b.t = (s32[], f32[2]) tuple(b.j, b.x)
}

neg {
  n.x = f32[2] parameter(0)
  ROOT n.r = f32[2] negate(n.x)
}

ident {
  i.x = f32[2] parameter(0)
  ROOT i.r = f32[2] copy(i.x)
}

ENTRY e {
  s = (s32[], f32[2]) parameter(0)
  p = pred[] parameter(1)
  x = f32[2] parameter(2)
  w = (s32[], f32[2]) while(s), condition=cond, body=body
  ROOT r = f32[2] conditional(p, x, x), true_computation=neg, false_computation=ident
}
)";
  EXPECT_EQ(Infer(hlo, "w"), "(s32[], f32[2])");
  EXPECT_EQ(Infer(hlo), "f32[2]");
}

TEST(ShapeInferenceCalls, CallOperandMismatch) {
  std::string hlo = R"(HloModule m

f {
  f.a = f32[3] parameter(0)
  ROOT f.r = f32[3] negate(f.a)
}

ENTRY e {
  a = f32[2] parameter(0)
  ROOT r = f32[3] call(a), to_apply=f
}
)";
  EXPECT_EQ(Infer(hlo),
            "error: operand 0 has shape f32[2], but parameter 0 "
            "of 'f' has shape f32[3]");
}

TEST(ShapeInferenceCalls, FusionOptBarrierTopK) {
  std::string hlo = R"(HloModule m

fused {
  f.a = f32[2,3] parameter(0)
  f.b = f32[2,3] parameter(1)
  ROOT f.r = f32[2,3] multiply(f.a, f.b)
}

ENTRY e {
  a = f32[2,3] parameter(0)
  x = f32[10,7] parameter(1)
  t = (f32[2,3], f32[10,7]) tuple(a, x)
  o = (f32[2,3], f32[10,7]) opt-barrier(t)
  f = f32[2,3] fusion(a, a), kind=kLoop, calls=fused
  ROOT r = (f32[10,3], s32[10,3]) topk(x), k=3, largest=true
}
)";
  EXPECT_EQ(Infer(hlo, "o"), "(f32[2,3], f32[10,7])");
  EXPECT_EQ(Infer(hlo, "f"), "f32[2,3]");
  // The 3 largest of each row of 7.
  EXPECT_EQ(Infer(hlo), "(f32[10,3], s32[10,3])");
}

TEST(ShapeInferenceTopK, LastDimensionWithBatchDimensions) {
  // k replaces the last dimension; the others are batch dimensions.
  EXPECT_EQ(Infer(Entry(R"(
  x = bf16[2,3,5] parameter(0)
  ROOT r = (bf16[2,3,4], s32[2,3,4]) topk(x), k=4, largest=false)")),
            "(bf16[2,3,4], s32[2,3,4])");
  // k = n and k = 0 are both valid.
  EXPECT_EQ(Infer(Entry(R"(
  x = s32[5] parameter(0)
  ROOT r = (s32[5], s32[5]) topk(x), k=5)")),
            "(s32[5], s32[5])");
  EXPECT_EQ(Infer(Entry(R"(
  x = s32[5] parameter(0)
  ROOT r = (s32[0], s32[0]) topk(x), k=0)")),
            "(s32[0], s32[0])");
}

TEST(ShapeInferenceTopK, Errors) {
  EXPECT_EQ(Infer(Entry(R"(
  x = f32[5] parameter(0)
  ROOT r = (f32[2], s32[2]) topk(x))")),
            "error: topk needs k=");
  EXPECT_EQ(Infer(Entry(R"(
  x = f32[5] parameter(0)
  ROOT r = (f32[2], s32[2]) topk(x), k=-1)")),
            "error: topk k=-1 is negative");
  EXPECT_EQ(Infer(Entry(R"(
  x = f32[5] parameter(0)
  ROOT r = (f32[6], s32[6]) topk(x), k=6)")),
            "error: topk k=6 exceeds the last dimension size 5");
  EXPECT_EQ(Infer(Entry(R"(
  x = f32[] parameter(0)
  ROOT r = (f32[], s32[]) topk(x), k=0)")),
            "error: operand 0 has shape f32[], expected rank 1 or more");
  EXPECT_EQ(Infer(Entry(R"(
  x = f32[5] parameter(0)
  ROOT r = (f32[2], s32[2]) topk(x), k=2, largest=maybe)")),
            "parse error: test.hlo:6:51: error: expected true or false, "
            "found 'maybe'\n"
            "  ROOT r = (f32[2], s32[2]) topk(x), k=2, largest=maybe\n"
            "                                                  ^");
}

TEST(ShapeInferenceLinalg, FftTypesAndLengths) {
  // FFT keeps the shape; RFFT of n = 6 keeps 6/2+1 = 4, IRFFT gives n back.
  EXPECT_EQ(Infer(Entry(R"(
  x = c64[2,3,8] parameter(0)
  ROOT r = c64[2,3,8] fft(x), fft_type=FFT, fft_length={3,8})")),
            "c64[2,3,8]");
  EXPECT_EQ(Infer(Entry(R"(
  x = f64[5,6] parameter(0)
  ROOT r = c128[5,4] fft(x), fft_type=RFFT, fft_length={6})")),
            "c128[5,4]");
  EXPECT_EQ(Infer(Entry(R"(
  x = c64[2,5,4] parameter(0)
  ROOT r = f32[2,5,7] fft(x), fft_type=IRFFT, fft_length={2,5,7})")),
            "f32[2,5,7]");
  // Length 0 keeps 0 outputs.
  EXPECT_EQ(Infer(Entry(R"(
  x = f32[0] parameter(0)
  ROOT r = c64[0] fft(x), fft_type=RFFT, fft_length={0})")),
            "c64[0]");
}

TEST(ShapeInferenceLinalg, FftErrors) {
  EXPECT_EQ(Infer(Entry(R"(
  x = c64[8] parameter(0)
  ROOT r = c64[8] fft(x), fft_type=FFT, fft_length={4})")),
            "error: operand 0 has shape c64[8], expected {4} as its last "
            "dimensions for FFT with fft_length {4}");
  EXPECT_EQ(Infer(Entry(R"(
  x = c64[2,2,2,2] parameter(0)
  ROOT r = c64[2,2,2,2] fft(x), fft_type=FFT, fft_length={2,2,2,2})")),
            "error: fft_length has 4 entries, expected 1, 2 or 3");
  EXPECT_EQ(Infer(Entry(R"(
  x = c64[8] parameter(0)
  ROOT r = c64[5] fft(x), fft_type=RFFT, fft_length={8})")),
            "error: operand 0 has shape c64[8], expected f32 or f64 for RFFT");
  EXPECT_EQ(Infer(Entry(R"(
  x = f16[8] parameter(0)
  ROOT r = c64[8] fft(x), fft_type=FFT, fft_length={8})")),
            "error: operand 0 has shape f16[8], expected c64 or c128 for FFT");
  EXPECT_EQ(Infer(Entry(R"(
  x = c64[8] parameter(0)
  ROOT r = f32[8] fft(x), fft_type=IRFFT, fft_length={8})")),
            "error: operand 0 has shape c64[8], expected {5} as its last "
            "dimensions for IRFFT with fft_length {8}");
}

TEST(ShapeInferenceLinalg, TriangularSolveAndCholesky) {
  // left_side: a [2,4,4] solves b [2,4,3]; right side: a [2,3,3].
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,4,4] parameter(0)
  b = f32[2,4,3] parameter(1)
  ROOT r = f32[2,4,3] triangular-solve(a, b), left_side=true)")),
            "f32[2,4,3]");
  EXPECT_EQ(Infer(Entry(R"(
  a = c64[2,3,3] parameter(0)
  b = c64[2,4,3] parameter(1)
  ROOT r = c64[2,4,3] triangular-solve(a, b), transpose_a=ADJOINT)")),
            "c64[2,4,3]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,4,4] parameter(0)
  b = f32[2,4,3] parameter(1)
  ROOT r = f32[2,4,3] triangular-solve(a, b))")),
            "error: operand 1 has shape f32[2,4,3], expected size 4 in "
            "dimension 2 for left_side=false");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[3,4,4] parameter(0)
  b = f32[2,4,3] parameter(1)
  ROOT r = f32[2,4,3] triangular-solve(a, b), left_side=true)")),
            "error: operand 1 has shape f32[2,4,3], expected the batch "
            "dimensions of operand 0 f32[3,4,4]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f64[5,3,3] parameter(0)
  ROOT r = f64[5,3,3] cholesky(a), lower=true)")),
            "f64[5,3,3]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f64[3,4] parameter(0)
  ROOT r = f64[3,4] cholesky(a))")),
            "error: operand 0 has shape f64[3,4], expected square matrices "
            "[..., n, n]");
  EXPECT_EQ(Infer(Entry(R"(
  a = s32[3,3] parameter(0)
  ROOT r = s32[3,3] cholesky(a))")),
            "error: operand 0 has shape s32[3,3], expected a floating-point "
            "or complex type");
}

}  // namespace
}  // namespace aotc
