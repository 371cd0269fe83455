// Tests of the data-movement kernels of movement.cc through HLO text and
// EvaluateModule (dynamic-slice and dynamic-update-slice:
// dynamic_slice_test.cc). Expected values are written out by hand or computed
// by an index formula written in the test; the error tests build instructions
// by hand (the verifier would reject their attributes) and call EvalMovement
// directly.
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
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

TEST(BroadcastTest, VectorAlongEitherDimension) {
  Literal rows = Eval(R"(
HloModule m
ENTRY e {
  c = s32[3] constant({1, 2, 3})
  ROOT b = s32[2,3] broadcast(c), dimensions={1}
})");
  EXPECT_THAT(Dims(rows), ElementsAre(2, 3));
  EXPECT_THAT(Values<int32_t>(rows), ElementsAre(1, 2, 3, 1, 2, 3));

  Literal cols = Eval(R"(
HloModule m
ENTRY e {
  c = s32[3] constant({1, 2, 3})
  ROOT b = s32[3,2] broadcast(c), dimensions={0}
})");
  EXPECT_THAT(Values<int32_t>(cols), ElementsAre(1, 1, 2, 2, 3, 3));
}

TEST(BroadcastTest, ScalarSizeOneAndSizeZero) {
  Literal scalar = Eval(R"(
HloModule m
ENTRY e {
  c = f32[] constant(7.5)
  ROOT b = f32[2,2] broadcast(c), dimensions={}
})");
  EXPECT_THAT(Values<float>(scalar), ElementsAre(7.5f, 7.5f, 7.5f, 7.5f));

  Literal middle = Eval(R"(
HloModule m
ENTRY e {
  c = s32[1,2] constant({{4, 5}})
  ROOT b = s32[3,1,2] broadcast(c), dimensions={1,2}
})");
  EXPECT_THAT(Values<int32_t>(middle), ElementsAre(4, 5, 4, 5, 4, 5));

  Literal empty = Eval(R"(
HloModule m
ENTRY e {
  c = s32[3] constant({1, 2, 3})
  ROOT b = s32[0,3] broadcast(c), dimensions={1}
})");
  EXPECT_THAT(Dims(empty), ElementsAre(0, 3));
  EXPECT_THAT(Values<int32_t>(empty), IsEmpty());
}

TEST(ReshapeTest, RowMajorReinterpretation) {
  Literal r = Eval(R"(
HloModule m
ENTRY e {
  c = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  ROOT r = s32[3,2] reshape(c)
})");
  EXPECT_THAT(Dims(r), ElementsAre(3, 2));
  EXPECT_THAT(Values<int32_t>(r), ElementsAre(1, 2, 3, 4, 5, 6));

  Literal scalar = Eval(R"(
HloModule m
ENTRY e {
  c = f64[1,1] constant({{2.25}})
  ROOT r = f64[] reshape(c)
})");
  EXPECT_THAT(Dims(scalar), IsEmpty());
  EXPECT_THAT(Values<double>(scalar), ElementsAre(2.25));
}

TEST(TransposeTest, TwoByThree) {
  Literal t = Eval(R"(
HloModule m
ENTRY e {
  c = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  ROOT t = s32[3,2] transpose(c), dimensions={1,0}
})");
  EXPECT_THAT(Dims(t), ElementsAre(3, 2));
  EXPECT_THAT(Values<int32_t>(t), ElementsAre(1, 4, 2, 5, 3, 6));
}

TEST(TransposeTest, SixteenBitAndPredElements) {
  // f16 bits 0x3C00 = 1.0, 0x4000 = 2.0, ... are moved untouched.
  Literal half = Eval(R"(
HloModule m
ENTRY e {
  c = f16[2,2] constant({{1, 2}, {3, 4}})
  ROOT t = f16[2,2] transpose(c), dimensions={1,0}
})");
  EXPECT_THAT(Values<uint16_t>(half),
              ElementsAre(0x3C00, 0x4200, 0x4000, 0x4400));

  Literal pred = Eval(R"(
HloModule m
ENTRY e {
  c = pred[2,3] constant({{true, false, false}, {true, true, false}})
  ROOT t = pred[3,2] transpose(c), dimensions={1,0}
})");
  EXPECT_THAT(Values<uint8_t>(pred), ElementsAre(1, 1, 0, 1, 0, 0));
}

TEST(TransposeTest, SizeZeroDimension) {
  Literal t = Eval(R"(
HloModule m
ENTRY e {
  p = f32[0,3] parameter(0)
  ROOT t = f32[3,0] transpose(p), dimensions={1,0}
})",
                   {Literal(Shape::Array(kF32, {0, 3}))});
  EXPECT_THAT(Dims(t), ElementsAre(3, 0));
}

// Transposes an array whose element at index x holds Encode(x) and checks
// every result element against the definition: result dimension i is
// operand dimension perm[i], so result index r reads operand index o with
// o[perm[i]] = r[i].
void CheckTranspose(std::vector<int64_t> dims, std::vector<int64_t> perm) {
  const int rank = static_cast<int>(dims.size());
  auto encode = [](const std::vector<int64_t>& index) {
    int32_t v = 0;
    for (int64_t x : index) v = v * 10 + static_cast<int32_t>(x);
    return v;
  };
  // Enumerate an index space in row-major order.
  auto all_indices = [](const std::vector<int64_t>& d) {
    std::vector<std::vector<int64_t>> out;
    std::vector<int64_t> index(d.size(), 0);
    int64_t count = 1;
    for (int64_t x : d) count *= x;
    for (int64_t n = 0; n < count; ++n) {
      out.push_back(index);
      for (int i = static_cast<int>(d.size()) - 1; i >= 0; --i) {
        if (++index[i] < d[i]) break;
        index[i] = 0;
      }
    }
    return out;
  };
  std::vector<int32_t> input;
  for (const auto& index : all_indices(dims)) input.push_back(encode(index));
  std::vector<int64_t> out_dims(rank);
  for (int i = 0; i < rank; ++i) out_dims[i] = dims[perm[i]];
  std::string hlo = absl::StrCat(
      "HloModule m\nENTRY e {\n  p = s32[", absl::StrJoin(dims, ","),
      "] parameter(0)\n  ROOT t = s32[", absl::StrJoin(out_dims, ","),
      "] transpose(p), dimensions={", absl::StrJoin(perm, ","), "}\n}\n");
  Literal t = Eval(hlo, {MakeArray<int32_t>(kS32, dims, input)});
  ASSERT_EQ(Dims(t), out_dims);
  std::vector<int32_t> got = Values<int32_t>(t);
  size_t n = 0;
  for (const auto& r : all_indices(out_dims)) {
    std::vector<int64_t> o(rank);
    for (int i = 0; i < rank; ++i) o[perm[i]] = r[i];
    ASSERT_LT(n, got.size());
    EXPECT_EQ(got[n], encode(o)) << "result element " << n;
    ++n;
  }
  EXPECT_EQ(n, got.size());
}

TEST(TransposeTest, RanksOneToFourAgainstIndexFormula) {
  CheckTranspose({4}, {0});
  CheckTranspose({2, 3}, {1, 0});
  CheckTranspose({2, 3, 4}, {1, 2, 0});
  CheckTranspose({2, 3, 4}, {2, 0, 1});
  CheckTranspose({2, 3, 4, 5}, {2, 0, 3, 1});
  CheckTranspose({2, 3, 4, 5}, {3, 2, 1, 0});
  CheckTranspose({2, 1, 3, 1}, {1, 3, 0, 2});
}

TEST(SliceTest, StridedSlices) {
  Literal one = Eval(R"(
HloModule m
ENTRY e {
  c = s32[6] constant({0, 1, 2, 3, 4, 5})
  ROOT s = s32[3] slice(c), slice={[1:6:2]}
})");
  EXPECT_THAT(Values<int32_t>(one), ElementsAre(1, 3, 5));

  // 3x4 with element (i, j) = 10 * i + j; rows 0 and 2, columns 1 and 3.
  Literal two = Eval(R"(
HloModule m
ENTRY e {
  c = s32[3,4] constant({{0, 1, 2, 3}, {10, 11, 12, 13}, {20, 21, 22, 23}})
  ROOT s = s32[2,2] slice(c), slice={[0:3:2], [1:4:2]}
})");
  EXPECT_THAT(Values<int32_t>(two), ElementsAre(1, 3, 21, 23));

  Literal stride_past_end = Eval(R"(
HloModule m
ENTRY e {
  c = s32[6] constant({0, 1, 2, 3, 4, 5})
  ROOT s = s32[2] slice(c), slice={[2:6:3]}
})");
  EXPECT_THAT(Values<int32_t>(stride_past_end), ElementsAre(2, 5));
}

TEST(SliceTest, EmptyAndSizeOne) {
  Literal empty = Eval(R"(
HloModule m
ENTRY e {
  c = s32[3,2] constant({{1, 2}, {3, 4}, {5, 6}})
  ROOT s = s32[0,2] slice(c), slice={[2:2], [0:2]}
})");
  EXPECT_THAT(Dims(empty), ElementsAre(0, 2));

  Literal single = Eval(R"(
HloModule m
ENTRY e {
  c = s32[3,2] constant({{1, 2}, {3, 4}, {5, 6}})
  ROOT s = s32[1,1] slice(c), slice={[2:3], [1:2]}
})");
  EXPECT_THAT(Values<int32_t>(single), ElementsAre(6));
}

TEST(ConcatenateTest, AlongEachDimension) {
  Literal vec = Eval(R"(
HloModule m
ENTRY e {
  a = s32[2] constant({1, 2})
  b = s32[1] constant({3})
  c = s32[0] constant({})
  d = s32[2] constant({4, 5})
  ROOT r = s32[5] concatenate(a, b, c, d), dimensions={0}
})");
  EXPECT_THAT(Values<int32_t>(vec), ElementsAre(1, 2, 3, 4, 5));

  Literal mat = Eval(R"(
HloModule m
ENTRY e {
  a = s32[2,1] constant({{1}, {2}})
  b = s32[2,2] constant({{3, 4}, {5, 6}})
  ROOT r = s32[2,3] concatenate(a, b), dimensions={1}
})");
  EXPECT_THAT(Values<int32_t>(mat), ElementsAre(1, 3, 4, 2, 5, 6));

  Literal rows = Eval(R"(
HloModule m
ENTRY e {
  a = s32[1,2] constant({{1, 2}})
  b = s32[2,2] constant({{3, 4}, {5, 6}})
  ROOT r = s32[3,2] concatenate(a, b), dimensions={0}
})");
  EXPECT_THAT(Values<int32_t>(rows), ElementsAre(1, 2, 3, 4, 5, 6));
}

TEST(PadTest, EdgeAndInteriorPadding) {
  // Dimension 1: interior 1 gives 1 9 2 9 3, low -1 drops the 1, high 1
  // appends a 9. Dimension 0: one row of 9 in front.
  Literal p = Eval(R"(
HloModule m
ENTRY e {
  c = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  v = s32[] constant(9)
  ROOT p = s32[3,5] pad(c, v), padding=1_0x-1_1_1
})");
  EXPECT_THAT(Values<int32_t>(p), ElementsAre(9, 9, 9, 9, 9,  //
                                              9, 2, 9, 3, 9,  //
                                              9, 5, 9, 6, 9));
}

TEST(PadTest, NegativeEdgesCrop) {
  Literal crop = Eval(R"(
HloModule m
ENTRY e {
  c = f32[5] constant({1, 2, 3, 4, 5})
  v = f32[] constant(0)
  ROOT p = f32[2] pad(c, v), padding=-2_-1
})");
  EXPECT_THAT(Values<float>(crop), ElementsAre(3.0f, 4.0f));

  // Interior 2 gives 1 0 0 2 0 0 3; cropping one on each side keeps 0 0 2 0 0.
  Literal interior = Eval(R"(
HloModule m
ENTRY e {
  c = f32[3] constant({1, 2, 3})
  v = f32[] constant(0)
  ROOT p = f32[5] pad(c, v), padding=-1_-1_2
})");
  EXPECT_THAT(Values<float>(interior),
              ElementsAre(0.0f, 0.0f, 2.0f, 0.0f, 0.0f));

  Literal mixed = Eval(R"(
HloModule m
ENTRY e {
  c = s32[4] constant({1, 2, 3, 4})
  v = s32[] constant(-1)
  ROOT p = s32[5] pad(c, v), padding=-3_4
})");
  EXPECT_THAT(Values<int32_t>(mixed), ElementsAre(4, -1, -1, -1, -1));
}

TEST(PadTest, EmptyOperandAndEmptyResult) {
  Literal from_empty = Eval(R"(
HloModule m
ENTRY e {
  c = s32[0] constant({})
  v = s32[] constant(7)
  ROOT p = s32[3] pad(c, v), padding=2_1_3
})");
  EXPECT_THAT(Values<int32_t>(from_empty), ElementsAre(7, 7, 7));

  Literal to_empty = Eval(R"(
HloModule m
ENTRY e {
  c = s32[2] constant({1, 2})
  v = s32[] constant(7)
  ROOT p = s32[0] pad(c, v), padding=-1_-1
})");
  EXPECT_THAT(Values<int32_t>(to_empty), IsEmpty());
}

TEST(PadTest, PaddingValueOfAnotherFloatPrecision) {
  // The f32 padding value is rounded once to bf16: 1/3 = 0x3EAAAAAB in f32
  // rounds to 0x3EAB; -inf is 0xFF80.
  Literal p = Eval(R"(
HloModule m
ENTRY e {
  c = bf16[1] constant({1})
  v = f32[] constant(0.333333343)
  ROOT p = bf16[2] pad(c, v), padding=0_1
})");
  EXPECT_THAT(Values<uint16_t>(p), ElementsAre(0x3F80, 0x3EAB));

  Literal inf = Eval(R"(
HloModule m
ENTRY e {
  c = bf16[1] constant({1})
  v = f32[] constant(-inf)
  ROOT p = bf16[2] pad(c, v), padding=1_0
})");
  EXPECT_THAT(Values<uint16_t>(inf), ElementsAre(0xFF80, 0x3F80));
}

TEST(ReverseTest, SomeAndAllDimensions) {
  Literal cols = Eval(R"(
HloModule m
ENTRY e {
  c = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  ROOT r = s32[2,3] reverse(c), dimensions={1}
})");
  EXPECT_THAT(Values<int32_t>(cols), ElementsAre(3, 2, 1, 6, 5, 4));

  Literal both = Eval(R"(
HloModule m
ENTRY e {
  c = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  ROOT r = s32[2,3] reverse(c), dimensions={0,1}
})");
  EXPECT_THAT(Values<int32_t>(both), ElementsAre(6, 5, 4, 3, 2, 1));

  Literal empty = Eval(R"(
HloModule m
ENTRY e {
  c = s32[0] constant({})
  ROOT r = s32[0] reverse(c), dimensions={0}
})");
  EXPECT_THAT(Values<int32_t>(empty), IsEmpty());
}

TEST(IotaTest, IntegerAndFloat) {
  Literal ints = Eval(R"(
HloModule m
ENTRY e {
  ROOT i = s32[2,3] iota(), iota_dimension=1
})");
  EXPECT_THAT(Values<int32_t>(ints), ElementsAre(0, 1, 2, 0, 1, 2));

  Literal floats = Eval(R"(
HloModule m
ENTRY e {
  ROOT i = f32[3,2] iota(), iota_dimension=0
})");
  EXPECT_THAT(Values<float>(floats), ElementsAre(0, 0, 1, 1, 2, 2));

  Literal bytes = Eval(R"(
HloModule m
ENTRY e {
  ROOT i = u8[4] iota(), iota_dimension=0
})");
  EXPECT_THAT(Values<uint8_t>(bytes), ElementsAre(0, 1, 2, 3));
}

TEST(IotaTest, HalfBFloat16AndComplex) {
  // f16: 0, 1.0 = 0x3C00, 2.0 = 0x4000, 3.0 = 0x4200.
  Literal half = Eval(R"(
HloModule m
ENTRY e {
  ROOT i = f16[4] iota(), iota_dimension=0
})");
  EXPECT_THAT(Values<uint16_t>(half),
              ElementsAre(0x0000, 0x3C00, 0x4000, 0x4200));

  // bf16: 1.0 = 0x3F80, 2.0 = 0x4000, 3.0 = 0x4040.
  Literal bf = Eval(R"(
HloModule m
ENTRY e {
  ROOT i = bf16[2,4] iota(), iota_dimension=1
})");
  EXPECT_THAT(Values<uint16_t>(bf),
              ElementsAre(0x0000, 0x3F80, 0x4000, 0x4040, 0x0000, 0x3F80,
                          0x4000, 0x4040));

  // In [2048, 4096) f16 has spacing 2: 2049 is a tie and rounds to the even
  // 2048 (0x6800); 2047 is exact (0x67FF).
  Literal big = Eval(R"(
HloModule m
ENTRY e {
  ROOT i = f16[2050] iota(), iota_dimension=0
})");
  std::vector<uint16_t> big_bits = Values<uint16_t>(big);
  EXPECT_EQ(big_bits[2047], 0x67FF);
  EXPECT_EQ(big_bits[2049], 0x6800);

  Literal complex = Eval(R"(
HloModule m
ENTRY e {
  ROOT i = c64[3] iota(), iota_dimension=0
})");
  EXPECT_THAT(Values<std::complex<float>>(complex),
              ElementsAre(std::complex<float>(0, 0), std::complex<float>(1, 0),
                          std::complex<float>(2, 0)));
}

TEST(CopyTest, ArrayAndTuple) {
  Literal array = Eval(R"(
HloModule m
ENTRY e {
  c = s32[2,2] constant({{1, 2}, {3, 4}})
  ROOT r = s32[2,2]{0,1} copy(c)
})");
  EXPECT_THAT(Values<int32_t>(array), ElementsAre(1, 2, 3, 4));

  Literal tuple = Eval(R"(
HloModule m
ENTRY e {
  a = s32[2] constant({5, 6})
  b = f32[] constant(1.5)
  t = (s32[2], f32[]) tuple(a, b)
  ROOT r = (s32[2], f32[]) copy(t)
})");
  ASSERT_TRUE(tuple.IsTuple());
  ASSERT_EQ(tuple.tuple_elements().size(), 2u);
  EXPECT_THAT(Values<int32_t>(tuple.tuple_elements()[0]), ElementsAre(5, 6));
  EXPECT_THAT(Values<float>(tuple.tuple_elements()[1]), ElementsAre(1.5f));
}

TEST(BitcastTest, DefaultLayoutsReshape) {
  Literal r = Eval(R"(
HloModule m
ENTRY e {
  c = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  ROOT r = s32[3,2] bitcast(c)
})");
  EXPECT_THAT(Values<int32_t>(r), ElementsAre(1, 2, 3, 4, 5, 6));

  // Same bytes, other element type: s8 -1 is u8 255.
  Literal u = Eval(R"(
HloModule m
ENTRY e {
  c = s8[2] constant({-1, 2})
  ROOT r = u8[2] bitcast(c)
})");
  EXPECT_THAT(Values<uint8_t>(u), ElementsAre(255, 2));
}

TEST(BitcastTest, LayoutChangeReordersLogicalElements) {
  // The buffer holds 1..6 in row-major order. Read with the column-major
  // layout {0,1} as a 3x2 array, element (i, j) sits at offset j * 3 + i:
  // {{1, 4}, {2, 5}, {3, 6}}.
  Literal r = Eval(R"(
HloModule m
ENTRY e {
  c = s32[2,3]{1,0} constant({{1, 2, 3}, {4, 5, 6}})
  ROOT r = s32[3,2]{0,1} bitcast(c)
})");
  EXPECT_THAT(Values<int32_t>(r), ElementsAre(1, 4, 2, 5, 3, 6));

  // The same dimensions with swapped layouts: a transpose.
  Literal t = Eval(R"(
HloModule m
ENTRY e {
  p = f32[2,2]{1,0} parameter(0)
  ROOT r = f32[2,2]{0,1} bitcast(p)
})",
                   {MakeArray<float>(kF32, {2, 2}, {1, 2, 3, 4})});
  EXPECT_THAT(Values<float>(t), ElementsAre(1, 3, 2, 4));
}

// Errors for attributes a verifier would reject, reported by the kernel
// itself on hand-built instructions.
absl::Status MovementError(HandBuilt& h, std::vector<const Literal*> args) {
  return EvalMovement(h.inst(), args).status();
}

TEST(MovementErrorTest, TransposeNotAPermutation) {
  Literal in(Shape::Array(kF32, {2, 2}));
  HandBuilt h(Opcode::kTranspose, Shape::Array(kF32, {2, 2}), {in.shape()});
  h.attrs().dimensions = {0, 0};
  EXPECT_EQ(MovementError(h, {&in}).message(),
            UnlocatedError("transpose dimensions {0,0} are not a permutation "
                           "of the operand's 2 dimensions"));
}

TEST(MovementErrorTest, BroadcastDimensionOutOfRange) {
  Literal in(Shape::Array(kF32, {3}));
  HandBuilt h(Opcode::kBroadcast, Shape::Array(kF32, {2, 3}), {in.shape()});
  h.attrs().dimensions = {2};
  EXPECT_EQ(MovementError(h, {&in}).message(),
            UnlocatedError("broadcast dimensions {2} are not distinct "
                           "dimensions of the rank-2 result"));
}

TEST(MovementErrorTest, SliceOutOfBounds) {
  Literal in(Shape::Array(kF32, {4}));
  HandBuilt h(Opcode::kSlice, Shape::Array(kF32, {3}), {in.shape()});
  h.attrs().slice = {SliceDim{2, 5, 1}};
  EXPECT_EQ(MovementError(h, {&in}).message(),
            UnlocatedError("slice [2:5] in dimension 0 does not lie within "
                           "[0:4]"));
  h.attrs().slice = {SliceDim{0, 4, 0}};
  EXPECT_EQ(MovementError(h, {&in}).message(),
            UnlocatedError("slice stride 0 in dimension 0 is not positive"));
}

TEST(MovementErrorTest, PadAttributes) {
  Literal in(Shape::Array(kF32, {3}));
  Literal value(Shape::Scalar(kF32));
  HandBuilt h(Opcode::kPad, Shape::Array(kF32, {3}),
              {in.shape(), value.shape()});
  h.attrs().padding = {PaddingDim{0, 0, -1}};
  EXPECT_EQ(MovementError(h, {&in, &value}).message(),
            UnlocatedError("interior padding -1 in dimension 0 is negative"));
  h.attrs().padding = {PaddingDim{std::numeric_limits<int64_t>::max(), 1, 0}};
  EXPECT_EQ(MovementError(h, {&in, &value}).message(),
            UnlocatedError("padded size of dimension 0 overflows 64 bits"));
  h.attrs().padding = {PaddingDim{1, 0, 0}};
  EXPECT_EQ(MovementError(h, {&in, &value}).message(),
            UnlocatedError("result has dimensions [3], expected [4]"));
}

TEST(MovementErrorTest, ConcatenateDimension) {
  Literal in(Shape::Array(kF32, {3}));
  HandBuilt h(Opcode::kConcatenate, Shape::Array(kF32, {6}),
              {in.shape(), in.shape()});
  h.attrs().dimensions = {1};
  EXPECT_EQ(MovementError(h, {&in, &in}).message(),
            UnlocatedError("concatenate dimensions {1} do not name one "
                           "dimension of the rank-1 result"));
}

TEST(MovementErrorTest, ReshapeAndBitcastSizes) {
  Literal in(Shape::Array(kF32, {2, 3}));
  HandBuilt reshape(Opcode::kReshape, Shape::Array(kF32, {5}), {in.shape()});
  EXPECT_EQ(MovementError(reshape, {&in}).message(),
            UnlocatedError("reshape of f32[2,3] to f32[5] changes the element "
                           "count"));
  HandBuilt bitcast(Opcode::kBitcast, Shape::Array(PrimitiveType::kF64, {6}),
                    {in.shape()});
  EXPECT_EQ(MovementError(bitcast, {&in}).message(),
            UnlocatedError("bitcast of f32[2,3] to f64[6] changes the byte "
                           "size"));
}

TEST(MovementErrorTest, IotaDimension) {
  HandBuilt h(Opcode::kIota, Shape::Array(kS32, {4}), {});
  h.attrs().dimensions = {1};
  EXPECT_EQ(MovementError(h, {}).message(),
            UnlocatedError("iota dimension {1} does not name one dimension of "
                           "the rank-1 result"));
}

}  // namespace
}  // namespace aotc::eval
