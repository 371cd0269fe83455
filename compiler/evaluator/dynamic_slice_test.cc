// Tests of dynamic-slice and dynamic-update-slice (dynamic_slice.cc)
// through HLO text and EvaluateModule: in-range starts, clamping of
// negative and too-large starts, every signed and unsigned index type, and
// the older single-vector form of the start indices. Expected values are
// written out by hand; the error tests call EvalMovement on hand-built
// instructions.
#include <cstdint>
#include <limits>
#include <vector>

#include "compiler/evaluator/kernels.h"
#include "compiler/evaluator/movement_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aotc::eval {
namespace {

using ::testing::ElementsAre;
using testing::Eval;
using testing::HandBuilt;
using testing::MakeArray;
using testing::MakeScalar;
using testing::UnlocatedError;
using testing::Values;

constexpr PrimitiveType kS32 = PrimitiveType::kS32;
constexpr PrimitiveType kF32 = PrimitiveType::kF32;

constexpr const char* kDynamicSlice1D = R"(
HloModule m
ENTRY e {
  a = s32[5] constant({0, 10, 20, 30, 40})
  i = s32[] parameter(0)
  ROOT d = s32[2] dynamic-slice(a, i), dynamic_slice_sizes={2}
})";

TEST(DynamicSliceTest, InRangeStart) {
  EXPECT_THAT(
      Values<int32_t>(Eval(kDynamicSlice1D, {MakeScalar<int32_t>(kS32, 1)})),
      ElementsAre(10, 20));
  EXPECT_THAT(
      Values<int32_t>(Eval(kDynamicSlice1D, {MakeScalar<int32_t>(kS32, 3)})),
      ElementsAre(30, 40));
}

TEST(DynamicSliceTest, OutOfRangeStartsAreClamped) {
  // Starts clamp to [0, 5 - 2] = [0, 3].
  EXPECT_THAT(
      Values<int32_t>(Eval(kDynamicSlice1D, {MakeScalar<int32_t>(kS32, -3)})),
      ElementsAre(0, 10));
  EXPECT_THAT(
      Values<int32_t>(Eval(kDynamicSlice1D, {MakeScalar<int32_t>(kS32, 4)})),
      ElementsAre(30, 40));
  EXPECT_THAT(
      Values<int32_t>(Eval(
          kDynamicSlice1D,
          {MakeScalar<int32_t>(kS32, std::numeric_limits<int32_t>::min())})),
      ElementsAre(0, 10));
}

TEST(DynamicSliceTest, UnsignedIndexTypes) {
  Literal u8_start = Eval(R"(
HloModule m
ENTRY e {
  a = s32[5] constant({0, 10, 20, 30, 40})
  i = u8[] parameter(0)
  ROOT d = s32[2] dynamic-slice(a, i), dynamic_slice_sizes={2}
})",
                          {MakeScalar<uint8_t>(PrimitiveType::kU8, 200)});
  EXPECT_THAT(Values<int32_t>(u8_start), ElementsAre(30, 40));

  // 2^63 + 5 is above INT64_MAX: still clamped to the last start.
  Literal u64_start = Eval(
      R"(
HloModule m
ENTRY e {
  a = s32[5] constant({0, 10, 20, 30, 40})
  i = u64[] parameter(0)
  ROOT d = s32[2] dynamic-slice(a, i), dynamic_slice_sizes={2}
})",
      {MakeScalar<uint64_t>(PrimitiveType::kU64, (uint64_t{1} << 63) + 5)});
  EXPECT_THAT(Values<int32_t>(u64_start), ElementsAre(30, 40));
}

TEST(DynamicSliceTest, TwoDimensionsMixedIndexTypes) {
  // 3x4 with element (i, j) = 10 * i + j. Row start 1, column start 9
  // clamps to 4 - 2 = 2.
  Literal d = Eval(R"(
HloModule m
ENTRY e {
  a = s32[3,4] constant({{0, 1, 2, 3}, {10, 11, 12, 13}, {20, 21, 22, 23}})
  i = s64[] parameter(0)
  j = u32[] parameter(1)
  ROOT d = s32[2,2] dynamic-slice(a, i, j), dynamic_slice_sizes={2,2}
})",
                   {MakeScalar<int64_t>(PrimitiveType::kS64, 1),
                    MakeScalar<uint32_t>(PrimitiveType::kU32, 9)});
  EXPECT_THAT(Values<int32_t>(d), ElementsAre(12, 13, 22, 23));
}

TEST(DynamicSliceTest, StartIndexVectorOperand) {
  // The older form: one s32[2] operand holds both starts; 9 clamps to 2.
  Literal d = Eval(R"(
HloModule m
ENTRY e {
  a = s32[3,4] constant({{0, 1, 2, 3}, {10, 11, 12, 13}, {20, 21, 22, 23}})
  i = s32[2] constant({1, 9})
  ROOT d = s32[2,2] dynamic-slice(a, i), dynamic_slice_sizes={2,2}
})");
  EXPECT_THAT(Values<int32_t>(d), ElementsAre(12, 13, 22, 23));

  Literal u = Eval(R"(
HloModule m
ENTRY e {
  a = s32[3] constant({1, 2, 3})
  u = s32[1] constant({7})
  i = u8[1] constant({200})
  ROOT d = s32[3] dynamic-update-slice(a, u, i)
})");
  EXPECT_THAT(Values<int32_t>(u), ElementsAre(1, 2, 7));
}

constexpr const char* kDynamicUpdateSlice1D = R"(
HloModule m
ENTRY e {
  a = s32[5] constant({0, 1, 2, 3, 4})
  u = s32[2] constant({8, 9})
  i = s32[] parameter(0)
  ROOT d = s32[5] dynamic-update-slice(a, u, i)
})";

TEST(DynamicUpdateSliceTest, InRangeAndClampedStarts) {
  EXPECT_THAT(Values<int32_t>(
                  Eval(kDynamicUpdateSlice1D, {MakeScalar<int32_t>(kS32, 1)})),
              ElementsAre(0, 8, 9, 3, 4));
  EXPECT_THAT(Values<int32_t>(
                  Eval(kDynamicUpdateSlice1D, {MakeScalar<int32_t>(kS32, 4)})),
              ElementsAre(0, 1, 2, 8, 9));
  EXPECT_THAT(Values<int32_t>(
                  Eval(kDynamicUpdateSlice1D, {MakeScalar<int32_t>(kS32, -1)})),
              ElementsAre(8, 9, 2, 3, 4));
}

constexpr const char* kDynamicUpdateSlice2D = R"(
HloModule m
ENTRY e {
  b = f32[4,3] constant({{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}})
  u = f32[3,2] constant({{12, 13}, {14, 15}, {16, 17}})
  i = s32[] parameter(0)
  j = u16[] parameter(1)
  ROOT d = f32[4,3] dynamic-update-slice(b, u, i, j)
})";

TEST(DynamicUpdateSliceTest, TwoDimensions) {
  Literal d = Eval(kDynamicUpdateSlice2D,
                   {MakeScalar<int32_t>(kS32, 1),
                    MakeScalar<uint16_t>(PrimitiveType::kU16, 1)});
  EXPECT_THAT(Values<float>(d), ElementsAre(0, 1, 2,    //
                                            3, 12, 13,  //
                                            6, 14, 15,  //
                                            9, 16, 17));
  // Row start 5 clamps to 4 - 3 = 1; column start 60000 clamps to 3 - 2 = 1.
  Literal c = Eval(kDynamicUpdateSlice2D,
                   {MakeScalar<int32_t>(kS32, 5),
                    MakeScalar<uint16_t>(PrimitiveType::kU16, 60000)});
  EXPECT_THAT(Values<float>(c), ElementsAre(0, 1, 2,    //
                                            3, 12, 13,  //
                                            6, 14, 15,  //
                                            9, 16, 17));
  // Row start -7 clamps to 0; column 0.
  Literal z = Eval(kDynamicUpdateSlice2D,
                   {MakeScalar<int32_t>(kS32, -7),
                    MakeScalar<uint16_t>(PrimitiveType::kU16, 0)});
  EXPECT_THAT(Values<float>(z), ElementsAre(12, 13, 2,  //
                                            14, 15, 5,  //
                                            16, 17, 8,  //
                                            9, 10, 11));
}

absl::Status MovementError(HandBuilt& h, std::vector<const Literal*> args) {
  return EvalMovement(h.inst(), args).status();
}

TEST(DynamicSliceErrorTest, SizesAndIndexType) {
  Literal in(Shape::Array(kF32, {4}));
  Literal start = MakeScalar<int32_t>(kS32, 0);
  Literal float_start = MakeScalar<float>(kF32, 0);
  HandBuilt h(Opcode::kDynamicSlice, Shape::Array(kF32, {5}),
              {in.shape(), start.shape()});
  h.attrs().dynamic_slice_sizes = {5};
  EXPECT_EQ(MovementError(h, {&in, &start}).message(),
            UnlocatedError("dynamic-slice size 5 in dimension 0 does not fit "
                           "the operand size 4"));
  EXPECT_EQ(MovementError(h, {&in, &float_start}).message(),
            UnlocatedError("operand 1 has shape f32[], expected an integer "
                           "scalar"));
  EXPECT_EQ(MovementError(h, {&in}).message(),
            UnlocatedError("dynamic-slice has 1 operands, expected 2"));
}

TEST(DynamicUpdateSliceErrorTest, UpdateTooLarge) {
  Literal in(Shape::Array(kF32, {2}));
  Literal update(Shape::Array(kF32, {3}));
  Literal start = MakeScalar<int32_t>(kS32, 0);
  HandBuilt h(Opcode::kDynamicUpdateSlice, Shape::Array(kF32, {2}),
              {in.shape(), update.shape(), start.shape()});
  EXPECT_EQ(MovementError(h, {&in, &update, &start}).message(),
            UnlocatedError("update size 3 in dimension 0 exceeds the operand "
                           "size 2"));
}

}  // namespace
}  // namespace aotc::eval
