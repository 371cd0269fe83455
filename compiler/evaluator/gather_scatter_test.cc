// Tests of the gather and scatter kernels (gather_scatter.cc) through HLO
// text and EvaluateModule. Every expected value is worked out by hand from
// the operation semantics, in the comments next to it. The error tests build
// instructions by hand (the verifier would reject their attributes) and call
// EvalGatherScatter directly.
#include <cstdint>
#include <vector>

#include "compiler/evaluator/kernels.h"
#include "compiler/evaluator/movement_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aotc::eval {
namespace {

using testing::Dims;
using ::testing::ElementsAre;
using testing::Eval;
using testing::HandBuilt;
using ::testing::IsEmpty;
using testing::MakeArray;
using testing::UnlocatedError;
using testing::Values;

constexpr PrimitiveType kS32 = PrimitiveType::kS32;
constexpr PrimitiveType kF32 = PrimitiveType::kF32;

TEST(GatherTest, RowsWithImplicitIndexVectorDimension) {
  // tf.gather on axis 0: index_vector_dim equals the indices' rank, so each
  // index is a vector of one component.
  Literal g = Eval(R"(
HloModule m
ENTRY e {
  operand = s32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
  indices = s32[2] constant({0, 2})
  ROOT g = s32[2,3] gather(operand, indices), offset_dims={1},
      collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1,
      slice_sizes={1,3}
})");
  EXPECT_THAT(Dims(g), ElementsAre(2, 3));
  EXPECT_THAT(Values<int32_t>(g), ElementsAre(1, 2, 3, 7, 8, 9));
}

TEST(GatherTest, ColumnsWithOffsetDimensionFirst) {
  // Output (i, g) = operand[i, indices[g]].
  Literal g = Eval(R"(
HloModule m
ENTRY e {
  operand = s32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
  indices = s32[2] constant({0, 2})
  ROOT g = s32[3,2] gather(operand, indices), offset_dims={0},
      collapsed_slice_dims={1}, start_index_map={1}, index_vector_dim=1,
      slice_sizes={3,1}
})");
  EXPECT_THAT(Values<int32_t>(g), ElementsAre(1, 3, 4, 6, 7, 9));
}

TEST(GatherTest, IndexVectorDimensionFirst) {
  // indices[0, g] is the one-component index vector of batch position g.
  Literal g = Eval(R"(
HloModule m
ENTRY e {
  operand = s32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
  indices = s32[1,2] constant({{0, 2}})
  ROOT g = s32[2,3] gather(operand, indices), offset_dims={1},
      collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=0,
      slice_sizes={1,3}
})");
  EXPECT_THAT(Values<int32_t>(g), ElementsAre(1, 2, 3, 7, 8, 9));
}

TEST(GatherTest, GatherNdPoints) {
  // Index vectors (0, 1) and (2, 0) pick single elements 2 and 7.
  Literal g = Eval(R"(
HloModule m
ENTRY e {
  operand = s32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
  indices = s32[2,2] constant({{0, 1}, {2, 0}})
  ROOT g = s32[2] gather(operand, indices), offset_dims={},
      collapsed_slice_dims={0,1}, start_index_map={0,1}, index_vector_dim=1,
      slice_sizes={1,1}
})");
  EXPECT_THAT(Values<int32_t>(g), ElementsAre(2, 7));
}

TEST(GatherTest, BatchOfWindowsLikeTheDocumentation) {
  // The documentation's batched dynamic slice ([G, O0, O1] reads operand
  // [X + O0, Y + O1]), scaled down: 2x2 windows of a 4x3 operand whose
  // element (i, j) is 10 * i + j. Start (1, 1) gives {{11, 12}, {21, 22}};
  // start (3, 0) is clamped to (4 - 2, 0) = (2, 0): {{20, 21}, {30, 31}}.
  Literal g = Eval(R"(
HloModule m
ENTRY e {
  operand = s32[4,3] constant({{0, 1, 2}, {10, 11, 12}, {20, 21, 22}, {30, 31, 32}})
  indices = s64[2,2] constant({{1, 1}, {3, 0}})
  ROOT g = s32[2,2,2] gather(operand, indices), offset_dims={1,2},
      collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1,
      slice_sizes={2,2}
})");
  EXPECT_THAT(Values<int32_t>(g), ElementsAre(11, 12, 21, 22, 20, 21, 30, 31));
}

TEST(GatherTest, TwoBatchDimensionsLikeGatherNd) {
  // The documentation's gather_nd case: [G0, G1, O0] reads operand
  // [indices[G0, G1, 0], O0]. Rows 2, 0, 1, 1.
  Literal g = Eval(R"(
HloModule m
ENTRY e {
  operand = s32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
  indices = s32[2,2,1] constant({{{2}, {0}}, {{1}, {1}}})
  ROOT g = s32[2,2,3] gather(operand, indices), offset_dims={2},
      collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=2,
      slice_sizes={1,3}
})");
  EXPECT_THAT(Values<int32_t>(g),
              ElementsAre(7, 8, 9, 1, 2, 3, 4, 5, 6, 4, 5, 6));
}

TEST(GatherTest, StartIndicesAreClamped) {
  // Windows of 2 from 5 elements: starts clamp to [0, 3]. -1 -> 0, 4 -> 3.
  Literal g = Eval(R"(
HloModule m
ENTRY e {
  operand = s32[5] constant({0, 10, 20, 30, 40})
  indices = s32[3] constant({-1, 4, 1})
  ROOT g = s32[3,2] gather(operand, indices), offset_dims={1},
      collapsed_slice_dims={}, start_index_map={0}, index_vector_dim=1,
      slice_sizes={2}
})");
  EXPECT_THAT(Values<int32_t>(g), ElementsAre(0, 10, 30, 40, 10, 20));
}

TEST(GatherTest, UnsignedIndicesAndDoubleOperand) {
  // u8 255 clamps to the last element.
  Literal g = Eval(R"(
HloModule m
ENTRY e {
  operand = f64[4] constant({0.5, 1.5, 2.5, 3.5})
  indices = u8[3] constant({3, 0, 255})
  ROOT g = f64[3] gather(operand, indices), offset_dims={},
      collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1,
      slice_sizes={1}
})");
  EXPECT_THAT(Values<double>(g), ElementsAre(3.5, 0.5, 3.5));
}

TEST(GatherTest, BatchingDimensions) {
  // Batch b reads operand[b, indices[b, 0]]: operand[0, 2] = 3 and
  // operand[1, 0] = 4.
  Literal g = Eval(R"(
HloModule m
ENTRY e {
  operand = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  indices = s32[2,1] constant({{2}, {0}})
  ROOT g = s32[2] gather(operand, indices), offset_dims={},
      collapsed_slice_dims={1}, start_index_map={1}, index_vector_dim=1,
      operand_batching_dims={0}, start_indices_batching_dims={0},
      slice_sizes={1,1}
})");
  EXPECT_THAT(Values<int32_t>(g), ElementsAre(3, 4));
}

TEST(GatherTest, BatchingDimensionsWithWindow) {
  // Batch b reads operand[b, start : start + 2]; start 1 for b = 0, start 5
  // clamps to 4 - 2 = 2 for b = 1.
  Literal g = Eval(R"(
HloModule m
ENTRY e {
  operand = s32[2,4] constant({{1, 2, 3, 4}, {5, 6, 7, 8}})
  indices = s32[2] constant({1, 5})
  ROOT g = s32[2,2] gather(operand, indices), offset_dims={1},
      collapsed_slice_dims={}, start_index_map={1}, index_vector_dim=1,
      operand_batching_dims={0}, start_indices_batching_dims={0},
      slice_sizes={1,2}
})");
  EXPECT_THAT(Values<int32_t>(g), ElementsAre(2, 3, 7, 8));
}

TEST(GatherTest, NoIndices) {
  Literal g = Eval(R"(
HloModule m
ENTRY e {
  operand = s32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
  indices = s32[0] constant({})
  ROOT g = s32[0,3] gather(operand, indices), offset_dims={1},
      collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1,
      slice_sizes={1,3}
})");
  EXPECT_THAT(Dims(g), ElementsAre(0, 3));
  EXPECT_THAT(Values<int32_t>(g), IsEmpty());
}

constexpr const char* kCombiners = R"(
HloModule m
add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
overwrite {
  a = s32[] parameter(0)
  ROOT b = s32[] parameter(1)
}
subtract {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] subtract(a, b)
}
)";

std::string WithCombiners(std::string_view entry) {
  return std::string(kCombiners) + std::string(entry);
}

TEST(ScatterTest, AddAccumulatesDuplicateIndices) {
  // Index 2 receives 20 and 30: 3 + 20 + 30 = 53.
  Literal s = Eval(WithCombiners(R"(
ENTRY e {
  operand = s32[5] constant({1, 2, 3, 4, 5})
  indices = s32[4] constant({0, 2, 2, 4})
  updates = s32[4] constant({10, 20, 30, 40})
  ROOT s = s32[5] scatter(operand, indices, updates), update_window_dims={},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=add
})"));
  EXPECT_THAT(Values<int32_t>(s), ElementsAre(11, 2, 53, 4, 45));
}

TEST(ScatterTest, OverwriteKeepsTheLastUpdateInIndexOrder) {
  // Index 1 receives 7, then 8.
  Literal s = Eval(WithCombiners(R"(
ENTRY e {
  operand = s32[5] constant({1, 2, 3, 4, 5})
  indices = s32[3] constant({1, 1, 3})
  updates = s32[3] constant({7, 8, 9})
  ROOT s = s32[5] scatter(operand, indices, updates), update_window_dims={},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=overwrite
})"));
  EXPECT_THAT(Values<int32_t>(s), ElementsAre(1, 8, 3, 9, 5));
}

TEST(ScatterTest, CombinerTakesCurrentValueFirst) {
  // subtract(current, update) = 10 - 3 = 7 (the reverse order would be -7).
  Literal s = Eval(WithCombiners(R"(
ENTRY e {
  operand = s32[1] constant({10})
  indices = s32[1] constant({0})
  updates = s32[1] constant({3})
  ROOT s = s32[1] scatter(operand, indices, updates), update_window_dims={},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=subtract
})"));
  EXPECT_THAT(Values<int32_t>(s), ElementsAre(7));
}

TEST(ScatterTest, RowWindows) {
  // Rows 0 and 2 of a matrix of ones receive {1, 2, 3} and {4, 5, 6}.
  Literal s = Eval(WithCombiners(R"(
ENTRY e {
  operand = s32[3,3] constant({{1, 1, 1}, {1, 1, 1}, {1, 1, 1}})
  indices = s32[2] constant({0, 2})
  updates = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  ROOT s = s32[3,3] scatter(operand, indices, updates), update_window_dims={1},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=add
})"));
  EXPECT_THAT(Values<int32_t>(s), ElementsAre(2, 3, 4, 1, 1, 1, 5, 6, 7));
}

TEST(ScatterTest, OutOfBoundsWindowsAreSkipped) {
  // Windows of 2 in 4 elements may start at 0..2. Start -1 and start 3
  // (which gather would clamp to 2) are skipped whole; start 1 adds {5, 6}.
  Literal s = Eval(WithCombiners(R"(
ENTRY e {
  operand = s32[4] constant({0, 0, 0, 0})
  indices = s32[3] constant({-1, 3, 1})
  updates = s32[3,2] constant({{1, 2}, {3, 4}, {5, 6}})
  ROOT s = s32[4] scatter(operand, indices, updates), update_window_dims={1},
      inserted_window_dims={}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=add
})"));
  EXPECT_THAT(Values<int32_t>(s), ElementsAre(0, 5, 6, 0));

  // u32 4294967295 is far out of range (and not negative).
  Literal u =
      Eval(WithCombiners(R"(
ENTRY e {
  operand = s32[4] constant({1, 2, 3, 4})
  indices = u32[1] parameter(0)
  updates = s32[1] constant({100})
  ROOT s = s32[4] scatter(operand, indices, updates), update_window_dims={},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=add
})"),
           {MakeArray<uint32_t>(PrimitiveType::kU32, {1}, {4294967295u})});
  EXPECT_THAT(Values<int32_t>(u), ElementsAre(1, 2, 3, 4));
}

TEST(ScatterTest, VariadicWithTwoOperands) {
  // The combiner adds the s32 values and takes the maximum of the f32 ones.
  // Index 0 receives (10, 1) and (20, 3); index 2 receives (30, 2).
  Literal s = Eval(R"(
HloModule m
combine {
  a0 = s32[] parameter(0)
  a1 = f32[] parameter(1)
  b0 = s32[] parameter(2)
  b1 = f32[] parameter(3)
  sum = s32[] add(a0, b0)
  max = f32[] maximum(a1, b1)
  ROOT t = (s32[], f32[]) tuple(sum, max)
}
ENTRY e {
  o0 = s32[3] constant({1, 2, 3})
  o1 = f32[3] constant({0.5, 0.5, 0.5})
  indices = s32[3] constant({0, 0, 2})
  u0 = s32[3] constant({10, 20, 30})
  u1 = f32[3] constant({1, 3, 2})
  ROOT s = (s32[3], f32[3]) scatter(o0, o1, indices, u0, u1),
      update_window_dims={}, inserted_window_dims={0},
      scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=combine
})");
  ASSERT_TRUE(s.IsTuple());
  ASSERT_EQ(s.tuple_elements().size(), 2u);
  EXPECT_THAT(Values<int32_t>(s.tuple_elements()[0]), ElementsAre(31, 2, 33));
  EXPECT_THAT(Values<float>(s.tuple_elements()[1]),
              ElementsAre(3.0f, 0.5f, 2.0f));
}

TEST(ScatterTest, IntoScalar) {
  // No index components: the single update replaces the scalar.
  Literal s = Eval(WithCombiners(R"(
ENTRY e {
  operand = s32[] constant(5)
  indices = s32[0] constant({})
  update = s32[] constant(9)
  ROOT s = s32[] scatter(operand, indices, update), update_window_dims={},
      inserted_window_dims={}, scatter_dims_to_operand_dims={},
      index_vector_dim=0, to_apply=overwrite
})"));
  EXPECT_THAT(Values<int32_t>(s), ElementsAre(9));
}

TEST(ScatterTest, BatchingDimensions) {
  // Batch b writes operand[b, indices[b, 0]]: [0, 2] = 7 and [1, 0] = 8.
  Literal s = Eval(WithCombiners(R"(
ENTRY e {
  operand = s32[2,3] constant({{0, 0, 0}, {0, 0, 0}})
  indices = s32[2,1] constant({{2}, {0}})
  updates = s32[2] constant({7, 8})
  ROOT s = s32[2,3] scatter(operand, indices, updates), update_window_dims={},
      inserted_window_dims={1}, scatter_dims_to_operand_dims={1},
      input_batching_dims={0}, scatter_indices_batching_dims={0},
      index_vector_dim=1, to_apply=add
})"));
  EXPECT_THAT(Values<int32_t>(s), ElementsAre(0, 0, 7, 8, 0, 0));
}

TEST(ScatterTest, IndexVectorDimensionFirst) {
  // Index vector k is (indices[0, k], indices[1, k]): (0, 1) and (1, 1).
  Literal s = Eval(WithCombiners(R"(
ENTRY e {
  operand = s32[2,2] constant({{0, 0}, {0, 0}})
  indices = s32[2,2] constant({{0, 1}, {1, 1}})
  updates = s32[2] constant({5, 6})
  ROOT s = s32[2,2] scatter(operand, indices, updates), update_window_dims={},
      inserted_window_dims={0,1}, scatter_dims_to_operand_dims={0,1},
      index_vector_dim=0, to_apply=add
})"));
  EXPECT_THAT(Values<int32_t>(s), ElementsAre(0, 5, 0, 6));
}

TEST(ScatterTest, NoUpdates) {
  Literal s = Eval(WithCombiners(R"(
ENTRY e {
  operand = s32[3] constant({1, 2, 3})
  indices = s32[0] constant({})
  updates = s32[0] constant({})
  ROOT s = s32[3] scatter(operand, indices, updates), update_window_dims={},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=add
})"));
  EXPECT_THAT(Values<int32_t>(s), ElementsAre(1, 2, 3));
}

// A gather of rows from f32[3,3] by s32[2] indices, with valid attributes
// that each test then spoils.
HandBuilt RowGather(PrimitiveType index_type = kS32) {
  HandBuilt h(Opcode::kGather, Shape::Array(kF32, {2, 3}),
              {Shape::Array(kF32, {3, 3}), Shape::Array(index_type, {2})});
  GatherDimensionNumbers& g = h.attrs().gather_dnums;
  g.offset_dims = {1};
  g.collapsed_slice_dims = {0};
  g.start_index_map = {0};
  g.index_vector_dim = 1;
  h.attrs().slice_sizes = {1, 3};
  return h;
}

absl::StatusOr<Literal> NoCall(const Computation&, Operands) {
  return absl::InternalError("unexpected call");
}

std::string GatherError(HandBuilt& h, PrimitiveType index_type = kS32) {
  Literal operand(Shape::Array(kF32, {3, 3}));
  Literal indices(Shape::Array(index_type, {2}));
  return std::string(EvalGatherScatter(h.inst(), {&operand, &indices}, NoCall)
                         .status()
                         .message());
}

TEST(GatherErrorTest, StartIndexMapOutOfRange) {
  HandBuilt h = RowGather();
  h.attrs().gather_dnums.start_index_map = {2};
  EXPECT_EQ(GatherError(h), UnlocatedError("start_index_map={2} names "
                                           "dimension 2, outside [0, 2)"));
}

TEST(GatherErrorTest, DimensionClaimedTwice) {
  HandBuilt h = RowGather();
  h.attrs().gather_dnums.collapsed_slice_dims = {0, 0};
  EXPECT_EQ(GatherError(h), UnlocatedError("collapsed_slice_dims={0,0} names "
                                           "dimension 0 twice"));
  h.attrs().gather_dnums.collapsed_slice_dims = {0};
  h.attrs().gather_dnums.operand_batching_dims = {0};
  h.attrs().gather_dnums.start_indices_batching_dims = {0};
  EXPECT_EQ(GatherError(h),
            UnlocatedError("start_index_map={0} names dimension 0, which "
                           "operand_batching_dims names too"));
}

TEST(GatherErrorTest, IndexVectorDimensionOutOfRange) {
  HandBuilt h = RowGather();
  h.attrs().gather_dnums.index_vector_dim = 3;
  EXPECT_EQ(GatherError(h),
            UnlocatedError("index_vector_dim=3 is out of range for indices of "
                           "rank 1"));
}

TEST(GatherErrorTest, SliceSizes) {
  HandBuilt h = RowGather();
  h.attrs().slice_sizes = {1, 4};
  EXPECT_EQ(GatherError(h),
            UnlocatedError("slice size 4 in dimension 1 does not fit the "
                           "operand size 3"));
  h.attrs().slice_sizes = {2, 3};
  EXPECT_EQ(GatherError(h),
            UnlocatedError("slice size 2 in collapsed or batching dimension 0 "
                           "of size 3 is not 1"));
}

TEST(GatherErrorTest, FloatIndices) {
  HandBuilt h = RowGather(kF32);
  EXPECT_EQ(GatherError(h, kF32),
            UnlocatedError("indices have element type f32, expected an "
                           "integer type"));
}

// A scatter of s32 scalars into s32[4] at s32[2] indices.
HandBuilt PointScatter(Shape updates) {
  HandBuilt h(Opcode::kScatter, Shape::Array(kS32, {4}),
              {Shape::Array(kS32, {4}), Shape::Array(kS32, {2}), updates});
  ScatterDimensionNumbers& s = h.attrs().scatter_dnums;
  s.inserted_window_dims = {0};
  s.scatter_dims_to_operand_dims = {0};
  s.index_vector_dim = 1;
  h.AddCalledComputation();
  return h;
}

TEST(ScatterErrorTest, EvenOperandCount) {
  HandBuilt h = PointScatter(Shape::Array(kS32, {2}));
  Literal a(Shape::Array(kS32, {4}));
  Literal i(Shape::Array(kS32, {2}));
  EXPECT_EQ(
      EvalGatherScatter(h.inst(), {&a, &i, &i, &i}, NoCall).status().message(),
      UnlocatedError("scatter has 4 operands, expected N operands, the "
                     "indices and N updates"));
}

TEST(ScatterErrorTest, UpdateWindowLargerThanOperand) {
  HandBuilt h = PointScatter(Shape::Array(kS32, {2, 5}));
  ScatterDimensionNumbers& s = h.attrs().scatter_dnums;
  s.update_window_dims = {1};
  s.inserted_window_dims = {};
  Literal a(Shape::Array(kS32, {4}));
  Literal i(Shape::Array(kS32, {2}));
  Literal u(Shape::Array(kS32, {2, 5}));
  EXPECT_EQ(
      EvalGatherScatter(h.inst(), {&a, &i, &u}, NoCall).status().message(),
      UnlocatedError("updates window dimension 1 has size 5, larger than "
                     "operand dimension 0 of size 4"));
}

TEST(ScatterErrorTest, CombinerResultAndErrors) {
  HandBuilt h = PointScatter(Shape::Array(kS32, {2}));
  Literal a(Shape::Array(kS32, {4}));
  Literal i(Shape::Array(kS32, {2}));
  Literal u(Shape::Array(kS32, {2}));
  CallFn wrong_type = [](const Computation&,
                         Operands) -> absl::StatusOr<Literal> {
    return Literal(Shape::Scalar(kF32));
  };
  EXPECT_EQ(
      EvalGatherScatter(h.inst(), {&a, &i, &u}, wrong_type).status().message(),
      UnlocatedError("scatter combiner returned f32[], expected s32[]"));
  CallFn failing = [](const Computation&, Operands) -> absl::StatusOr<Literal> {
    return absl::InvalidArgumentError("combiner failed");
  };
  EXPECT_EQ(
      EvalGatherScatter(h.inst(), {&a, &i, &u}, failing).status().message(),
      "combiner failed");
}

}  // namespace
}  // namespace aotc::eval
