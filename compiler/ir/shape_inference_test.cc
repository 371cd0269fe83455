// Shape inference tests for elementwise operations, conversions and data
// movement. Modules are written in HLO text; every expected shape is
// computed by hand in the comment above it, and negative cases assert the
// exact unlocated message.
#include "compiler/ir/shape_inference.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "compiler/ir/shape_inference_test_util.h"

namespace aotc {
namespace {

using ::aotc::shape_test::Entry;
using ::aotc::shape_test::Infer;
using ::aotc::shape_test::WithAdd;

// ---------------------------------------------------------------------------
// Elementwise

TEST(ShapeInferenceElementwise, BinaryKeepsOperandShape) {
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,3] parameter(0)
  b = f32[2,3] parameter(1)
  ROOT r = f32[2,3] add(a, b))")),
            "f32[2,3]");
}

TEST(ShapeInferenceElementwise, CompareGivesPred) {
  EXPECT_EQ(Infer(Entry(R"(
  a = s32[4] parameter(0)
  b = s32[4] parameter(1)
  ROOT r = pred[4] compare(a, b), direction=LT)")),
            "pred[4]");
}

TEST(ShapeInferenceElementwise, ComplexParts) {
  // abs, real and imag of c64 are f32; complex(f64, f64) is c128.
  std::string hlo = Entry(R"(
  c = c64[3] parameter(0)
  x = f64[2] parameter(1)
  y = f64[2] parameter(2)
  ab = f32[3] abs(c)
  re = f32[3] real(c)
  im = f32[3] imag(c)
  ROOT r = c128[2] complex(x, y))");
  EXPECT_EQ(Infer(hlo, "ab"), "f32[3]");
  EXPECT_EQ(Infer(hlo, "re"), "f32[3]");
  EXPECT_EQ(Infer(hlo, "im"), "f32[3]");
  EXPECT_EQ(Infer(hlo), "c128[2]");
}

TEST(ShapeInferenceElementwise, IsFiniteGivesPred) {
  EXPECT_EQ(Infer(Entry(R"(
  a = f16[2,2] parameter(0)
  ROOT r = pred[2,2] is-finite(a))")),
            "pred[2,2]");
}

TEST(ShapeInferenceElementwise, SelectAcceptsScalarPredicate) {
  std::string hlo = Entry(R"(
  p = pred[] parameter(0)
  q = pred[3] parameter(1)
  a = s8[3] parameter(2)
  b = s8[3] parameter(3)
  s = s8[3] select(q, a, b)
  ROOT r = s8[3] select(p, a, b))");
  EXPECT_EQ(Infer(hlo, "s"), "s8[3]");
  EXPECT_EQ(Infer(hlo), "s8[3]");
}

TEST(ShapeInferenceElementwise, ClampAcceptsScalarBounds) {
  EXPECT_EQ(Infer(Entry(R"(
  lo = f32[] parameter(0)
  x = f32[5] parameter(1)
  hi = f32[5] parameter(2)
  ROOT r = f32[5] clamp(lo, x, hi))")),
            "f32[5]");
}

TEST(ShapeInferenceElementwise, OperandShapeMismatch) {
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[8] parameter(0)
  b = f32[4] parameter(1)
  ROOT r = f32[8] multiply(a, b))")),
            "error: operand 1 has shape f32[4], expected f32[8]");
}

TEST(ShapeInferenceElementwise, ElementTypeMismatch) {
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2] parameter(0)
  b = s32[2] parameter(1)
  ROOT r = f32[2] subtract(a, b))")),
            "error: operand 1 has shape s32[2], expected f32[2]");
}

TEST(ShapeInferenceElementwise, SelectPredicateDimensions) {
  EXPECT_EQ(Infer(Entry(R"(
  p = pred[2] parameter(0)
  a = f32[3] parameter(1)
  b = f32[3] parameter(2)
  ROOT r = f32[3] select(p, a, b))")),
            "error: operand 0 has shape pred[2], expected pred[3] or pred[]");
}

TEST(ShapeInferenceElementwise, OperandTypeRules) {
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2] parameter(0)
  ROOT r = f32[2] not(a))")),
            "error: operand 0 of not has element type f32, expected pred or "
            "an integer type");
  EXPECT_EQ(Infer(Entry(R"(
  a = s32[2] parameter(0)
  ROOT r = s32[2] floor(a))")),
            "error: operand 0 of floor has element type s32, expected a "
            "floating-point type");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2] parameter(0)
  b = f32[2] parameter(1)
  ROOT r = f32[2] shift-left(a, b))")),
            "error: operand 0 of shift-left has element type f32, expected an "
            "integer type");
}

TEST(ShapeInferenceElementwise, TupleOperandIsRejected) {
  EXPECT_EQ(Infer(Entry(R"(
  a = (f32[2]) parameter(0)
  ROOT r = f32[2] negate(a))")),
            "error: operand 0 has shape (f32[2]), expected an array");
}

// ---------------------------------------------------------------------------
// Conversions

TEST(ShapeInferenceConversion, ConvertTakesDeclaredType) {
  EXPECT_EQ(Infer(Entry(R"(
  a = s32[2,3] parameter(0)
  ROOT r = bf16[2,3] convert(a))")),
            "bf16[2,3]");
}

TEST(ShapeInferenceConversion, ConvertFromComplexToRealIsRejected) {
  EXPECT_EQ(Infer(Entry(R"(
  a = c64[2] parameter(0)
  ROOT r = f32[2] convert(a))")),
            "error: convert from c64 to f32 is not defined; use real, imag or "
            "abs");
}

TEST(ShapeInferenceConversion, BitcastConvertWidths) {
  // f32 -> s8: 32/8 = 4, a new minor dimension of 4.
  // s8[4,4] -> f32: the minor dimension of 4 = 32/8 disappears.
  // u16[3,2] -> u32: 32/16 = 2.
  std::string hlo = Entry(R"(
  a = f32[4] parameter(0)
  b = s8[4,4] parameter(1)
  c = u16[3,2] parameter(2)
  narrow = s8[4,4] bitcast-convert(a)
  wide = f32[4] bitcast-convert(b)
  ROOT r = u32[3] bitcast-convert(c))");
  EXPECT_EQ(Infer(hlo, "narrow"), "s8[4,4]");
  EXPECT_EQ(Infer(hlo, "wide"), "f32[4]");
  EXPECT_EQ(Infer(hlo), "u32[3]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[3] parameter(0)
  ROOT r = f64[] bitcast-convert(a))")),
            "error: bitcast-convert from f32[3] to f64 needs a minor dimension "
            "of size 2");
}

TEST(ShapeInferenceConversion, ReducePrecisionKeepsShape) {
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[7] parameter(0)
  ROOT r = f32[7] reduce-precision(a), exponent_bits=5, mantissa_bits=10)")),
            "f32[7]");
}

// ---------------------------------------------------------------------------
// Data movement

TEST(ShapeInferenceMovement, Broadcast) {
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[3] parameter(0)
  ROOT r = f32[2,3] broadcast(a), dimensions={1})")),
            "f32[2,3]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[3] parameter(0)
  ROOT r = f32[3,3] broadcast(a), dimensions={0,1})")),
            "error: broadcast dimensions {0,1} do not match operand rank 1");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[3] parameter(0)
  ROOT r = f32[3,4] broadcast(a), dimensions={1})")),
            "error: broadcast maps operand dimension 0 of size 3 to result "
            "dimension 1 of size 4");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[3] parameter(0)
  ROOT r = f32[3,4] broadcast(a), dimensions={2})")),
            "error: broadcast dimension 2 is out of range for rank 2");
}

TEST(ShapeInferenceMovement, Reshape) {
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,3] parameter(0)
  ROOT r = f32[3,1,2] reshape(a))")),
            "f32[3,1,2]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,3] parameter(0)
  ROOT r = f32[5] reshape(a))")),
            "error: reshape from f32[2,3] to f32[5] changes the element count");
}

TEST(ShapeInferenceMovement, Transpose) {
  // result dimension i is operand dimension perm[i]: {4, 2, 3}.
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,3,4] parameter(0)
  ROOT r = f32[4,2,3] transpose(a), dimensions={2,0,1})")),
            "f32[4,2,3]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,3] parameter(0)
  ROOT r = f32[2,2] transpose(a), dimensions={0,0})")),
            "error: transpose dimensions {0,0} are not a permutation of the 2 "
            "operand dimensions");
}

TEST(ShapeInferenceMovement, Slice) {
  // [1:10:3] takes 1, 4, 7: three elements. [0:5:2] takes 0, 2, 4; [2:4]
  // two; [3:3] none.
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[10] parameter(0)
  ROOT r = f32[3] slice(a), slice={[1:10:3]})")),
            "f32[3]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[5,4,6] parameter(0)
  ROOT r = f32[3,2,0] slice(a), slice={[0:5:2], [2:4], [3:3]})")),
            "f32[3,2,0]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[10] parameter(0)
  ROOT r = f32[10] slice(a), slice={[2:12]})")),
            "error: slice dimension 0 range [2:12] is not within [0:10]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[10] parameter(0)
  ROOT r = f32[10] slice(a), slice={[0:10:0]})")),
            "error: slice dimension 0 has stride 0, expected at least 1");
}

TEST(ShapeInferenceMovement, Concatenate) {
  // 3 + 5 + 1 = 9 along dimension 1.
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,3] parameter(0)
  b = f32[2,5] parameter(1)
  c = f32[2,1] parameter(2)
  ROOT r = f32[2,9] concatenate(a, b, c), dimensions={1})")),
            "f32[2,9]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,3] parameter(0)
  b = f32[3,3] parameter(1)
  ROOT r = f32[2,6] concatenate(a, b), dimensions={1})")),
            "error: operand 1 has shape f32[3,3], which does not match operand "
            "0 f32[2,3] outside dimension 1");
}

TEST(ShapeInferenceMovement, PadWithNegativeLowAndInterior) {
  // dim 0: 5 elements, interior 1 adds 4 -> 9, low -1, high 2 -> 10.
  // 2-D: dim 0 2 + 1 + 1 = 4; dim 1 3 + 2*2 = 7, low -2 -> 5.
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[5] parameter(0)
  z = f32[] parameter(1)
  ROOT r = f32[10] pad(a, z), padding=-1_2_1)")),
            "f32[10]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,3] parameter(0)
  z = f32[] parameter(1)
  ROOT r = f32[4,5] pad(a, z), padding=1_1x-2_0_2)")),
            "f32[4,5]");
  // 3 elements, low -3, high -1: 3 - 4 = -1.
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[3] parameter(0)
  z = f32[] parameter(1)
  ROOT r = f32[0] pad(a, z), padding=-3_-1)")),
            "error: pad dimension 0 has negative size -1");
}

TEST(ShapeInferenceMovement, ReverseIotaCopy) {
  EXPECT_EQ(Infer(Entry(R"(
  a = s32[2,3] parameter(0)
  ROOT r = s32[2,3] reverse(a), dimensions={0,1})")),
            "s32[2,3]");
  EXPECT_EQ(Infer(Entry(R"(
  ROOT r = s32[4,5] iota(), iota_dimension=1)")),
            "s32[4,5]");
  EXPECT_EQ(Infer(Entry(R"(
  ROOT r = s32[4,5] iota(), iota_dimension=2)")),
            "error: iota_dimension 2 is out of range for rank 2");
  EXPECT_EQ(Infer(Entry(R"(
  a = (f32[2], s32[]) parameter(0)
  ROOT r = (f32[2], s32[]) copy(a))")),
            "(f32[2], s32[])");
}

TEST(ShapeInferenceMovement, BitcastKeepsByteSize) {
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,3] parameter(0)
  ROOT r = s32[6] bitcast(a))")),
            "s32[6]");
  // 2*3*4 = 24 bytes against 5*4 = 20.
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[2,3] parameter(0)
  ROOT r = f32[5] bitcast(a))")),
            "error: bitcast from f32[2,3] (24 bytes) to f32[5] (20 bytes) "
            "changes the byte size");
}

TEST(ShapeInferenceMovement, DynamicSliceAndUpdate) {
  std::string hlo = Entry(R"(
  a = f32[10,20] parameter(0)
  i = s32[] parameter(1)
  j = s32[] parameter(2)
  u = f32[2,5] parameter(3)
  ds = f32[2,5] dynamic-slice(a, i, j), dynamic_slice_sizes={2,5}
  ROOT r = f32[10,20] dynamic-update-slice(a, u, i, j))");
  EXPECT_EQ(Infer(hlo, "ds"), "f32[2,5]");
  EXPECT_EQ(Infer(hlo), "f32[10,20]");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[10,20] parameter(0)
  i = s32[] parameter(1)
  ROOT r = f32[2,5] dynamic-slice(a, i), dynamic_slice_sizes={2,5})")),
            "error: dynamic-slice of a rank-2 array needs 2 start indices, "
            "got 1");
  EXPECT_EQ(Infer(Entry(R"(
  a = f32[10,20] parameter(0)
  i = s32[] parameter(1)
  ROOT r = f32[2,21] dynamic-slice(a, i, i), dynamic_slice_sizes={2,21})")),
            "error: dynamic-slice size 21 in dimension 1 is not within [0, "
            "20]");
}

TEST(ShapeInferenceMovement, TupleAndGetTupleElement) {
  std::string hlo = Entry(R"(
  a = f32[2] parameter(0)
  b = s32[] parameter(1)
  t = (f32[2], s32[]) tuple(a, b)
  g = s32[] get-tuple-element(t), index=1
  ROOT r = f32[2] get-tuple-element(t), index=2)");
  EXPECT_EQ(Infer(hlo, "t"), "(f32[2], s32[])");
  EXPECT_EQ(Infer(hlo, "g"), "s32[]");
  EXPECT_EQ(Infer(hlo),
            "error: get-tuple-element index 2 is out of range "
            "for a tuple of 2 elements");
}

TEST(ShapeInferenceMixedPrecision, ReductionAndPadMayChangeFloatPrecision) {
  // An f32 accumulation declared as a bf16 result, an f32 padding value
  // for a bf16 array; integer types must still match.
  EXPECT_EQ(Infer(WithAdd(R"(
  a = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = bf16[] reduce(a, z), dimensions={0}, to_apply=add)")),
            "bf16[]");
  EXPECT_EQ(Infer(Entry(R"(
  a = bf16[2] parameter(0)
  z = f32[] parameter(1)
  ROOT r = bf16[3] pad(a, z), padding=0_1)")),
            "bf16[3]");
  EXPECT_EQ(Infer(Entry(R"(
  a = s8[2] parameter(0)
  z = s32[] parameter(1)
  ROOT r = s8[3] pad(a, z), padding=0_1)")),
            "error: operand 1 has shape s32[], expected s8[]");
}

TEST(ShapeInferenceMovement, BitcastBetweenTiledLayoutsIsNotSizeChecked) {
  // u32[10] and u32[5] both occupy one padded T(128) tile.
  EXPECT_EQ(Infer(Entry(R"(
  a = u32[10]{0:T(128)} parameter(0)
  ROOT r = u32[5]{0:T(128)} bitcast(a))")),
            "u32[5]");
}

TEST(ShapeInferenceMovement, ShapelessOpsThatNeedADeclaredShape) {
  // Without a declared shape, convert has no element type and broadcast no
  // dimensions: inference hands back the (invalid) declared shape.
  std::unique_ptr<Instruction> p = Instruction::Create(
      Opcode::kParameter, "p", Shape::Array(PrimitiveType::kS32, {2}), {});
  std::unique_ptr<Instruction> convert =
      Instruction::Create(Opcode::kConvert, "c", Shape(), {p.get()});
  absl::StatusOr<Shape> shape = InferShape(*convert);
  ASSERT_TRUE(shape.ok());
  EXPECT_FALSE(shape->IsValid());
  std::unique_ptr<Instruction> negate =
      Instruction::Create(Opcode::kNegate, "n", Shape(), {p.get()});
  shape = InferShape(*negate);
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ(shape->ToString(false), "s32[2]");
  negate->DropAllOperands();
  convert->DropAllOperands();
}

}  // namespace
}  // namespace aotc
