// Tests of the evaluator's sort kernel, the topk opcode and the TopK
// custom-call. Expected values are worked out by hand in the comments.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
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

// A comparator over (lhs_0, rhs_0, lhs_1, rhs_1, ...) that looks only at
// operand 0 with the given direction.
std::string Comparator(std::string_view direction,
                       std::vector<std::string_view> types) {
  std::string s = "cmp {\n";
  for (size_t i = 0; i < types.size(); ++i) {
    for (int side = 0; side < 2; ++side) {
      s += "  p" + std::to_string(2 * i + side) + " = " +
           std::string(types[i]) + "[] parameter(" +
           std::to_string(2 * i + side) + ")\n";
    }
  }
  s +=
      "  ROOT c = pred[] compare(p0, p1), direction=" + std::string(direction) +
      "\n}\n";
  return s;
}

std::string SortModule(std::string_view comparator, std::string_view body) {
  return "HloModule m\n" + std::string(comparator) + "ENTRY e {\n" +
         std::string(body) + "}\n";
}

TEST(SortTest, AscendingAndDescending) {
  std::string asc = SortModule(Comparator("LT", {"f32"}), R"(
  x = f32[5] parameter(0)
  ROOT s = f32[5] sort(x), dimensions={0}, to_apply=cmp
)");
  std::string desc = SortModule(Comparator("GT", {"f32"}), R"(
  x = f32[5] parameter(0)
  ROOT s = f32[5] sort(x), dimensions={0}, to_apply=cmp
)");
  EXPECT_THAT(Values<float>(MustRun(asc, {F32({5}, {3, -1, 2, 10, 0})})),
              ElementsAre(-1, 0, 2, 3, 10));
  EXPECT_THAT(Values<float>(MustRun(desc, {F32({5}, {3, -1, 2, 10, 0})})),
              ElementsAre(10, 3, 2, 0, -1));
}

TEST(SortTest, KeyValueSortIsStable) {
  // keys   [2, 1, 2, 1, 2]
  // values [0, 1, 2, 3, 4]
  // Ascending by key, equal keys keep their order: keys [1, 1, 2, 2, 2],
  // values [1, 3, 0, 2, 4].
  std::string hlo = SortModule(Comparator("LT", {"s32", "s32"}), R"(
  k = s32[5] parameter(0)
  v = s32[5] parameter(1)
  ROOT s = (s32[5], s32[5]) sort(k, v), dimensions={0}, is_stable=true, to_apply=cmp
)");
  Literal r =
      MustRun(hlo, {S32({5}, {2, 1, 2, 1, 2}), S32({5}, {0, 1, 2, 3, 4})});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[0]),
              ElementsAre(1, 1, 2, 2, 2));
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[1]),
              ElementsAre(1, 3, 0, 2, 4));
}

TEST(SortTest, UnstableSortIsStableToo) {
  // Descending by key [1, 3, 1, 3] with values [a=0, b=1, c=2, d=3]:
  // keys [3, 3, 1, 1], values [1, 3, 0, 2].
  std::string hlo = SortModule(Comparator("GT", {"f32", "s32"}), R"(
  k = f32[4] parameter(0)
  v = s32[4] parameter(1)
  ROOT s = (f32[4], s32[4]) sort(k, v), dimensions={0}, to_apply=cmp
)");
  Literal r = MustRun(hlo, {F32({4}, {1, 3, 1, 3}), S32({4}, {0, 1, 2, 3})});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_THAT(Values<float>(r.tuple_elements()[0]), ElementsAre(3, 3, 1, 1));
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[1]), ElementsAre(1, 3, 0, 2));
}

TEST(SortTest, ComparatorReadingEveryOperand) {
  // Lexicographic: key ascending, then value descending.
  // keys [2, 1, 2, 1], values [5, 7, 3, 6] -> keys [1, 1, 2, 2],
  // values [7, 6, 5, 3].
  std::string hlo = R"(HloModule m
cmp {
  kl = s32[] parameter(0)
  kr = s32[] parameter(1)
  vl = s32[] parameter(2)
  vr = s32[] parameter(3)
  lt = pred[] compare(kl, kr), direction=LT
  eq = pred[] compare(kl, kr), direction=EQ
  gt = pred[] compare(vl, vr), direction=GT
  tie = pred[] and(eq, gt)
  ROOT c = pred[] or(lt, tie)
}
ENTRY e {
  k = s32[4] parameter(0)
  v = s32[4] parameter(1)
  ROOT s = (s32[4], s32[4]) sort(k, v), dimensions={0}, to_apply=cmp
}
)";
  Literal r = MustRun(hlo, {S32({4}, {2, 1, 2, 1}), S32({4}, {5, 7, 3, 6})});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[0]), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[1]), ElementsAre(7, 6, 5, 3));
}

TEST(SortTest, AlongDimension0Of2D) {
  // x = [[3, 1],
  //      [1, 2],
  //      [2, 0]]  -> each column sorted: [[1, 0], [2, 1], [3, 2]]
  std::string hlo = SortModule(Comparator("LT", {"f32"}), R"(
  x = f32[3,2] parameter(0)
  ROOT s = f32[3,2] sort(x), dimensions={0}, to_apply=cmp
)");
  EXPECT_THAT(Values<float>(MustRun(hlo, {F32({3, 2}, {3, 1, 1, 2, 2, 0})})),
              ElementsAre(1, 0, 2, 1, 3, 2));
}

TEST(SortTest, AlongDimension1Of2D) {
  // Each row sorted: [[3, 1, 2], [0, -5, 9]] -> [[1, 2, 3], [-5, 0, 9]].
  std::string hlo = SortModule(Comparator("LT", {"f32"}), R"(
  x = f32[2,3] parameter(0)
  ROOT s = f32[2,3] sort(x), dimensions={1}, to_apply=cmp
)");
  EXPECT_THAT(Values<float>(MustRun(hlo, {F32({2, 3}, {3, 1, 2, 0, -5, 9})})),
              ElementsAre(1, 2, 3, -5, 0, 9));
}

TEST(SortTest, LongRowMatchesIndependentCheck) {
  // 1000 keys from a fixed LCG, argsorted with an iota operand: the keys
  // must come out non-decreasing, and equal keys in increasing index order.
  std::vector<int32_t> keys;
  uint32_t state = 12345;
  for (int i = 0; i < 1000; ++i) {
    state = state * 1664525u + 1013904223u;
    keys.push_back(static_cast<int32_t>(state >> 24) % 50);
  }
  std::string hlo = SortModule(Comparator("LT", {"s32", "s32"}), R"(
  k = s32[1000] parameter(0)
  i = s32[1000] iota(), iota_dimension=0
  ROOT s = (s32[1000], s32[1000]) sort(k, i), dimensions={0}, is_stable=true, to_apply=cmp
)");
  Literal r = MustRun(hlo, {S32({1000}, keys)});
  ASSERT_TRUE(r.IsTuple());
  std::vector<int32_t> sorted = Values<int32_t>(r.tuple_elements()[0]);
  std::vector<int32_t> index = Values<int32_t>(r.tuple_elements()[1]);
  ASSERT_EQ(sorted.size(), 1000u);
  std::vector<bool> seen(1000, false);
  for (size_t j = 0; j < sorted.size(); ++j) {
    ASSERT_TRUE(index[j] >= 0 && index[j] < 1000);
    EXPECT_FALSE(seen[index[j]]);
    seen[index[j]] = true;
    EXPECT_EQ(sorted[j], keys[index[j]]);
    if (j > 0) {
      EXPECT_LE(sorted[j - 1], sorted[j]);
      if (sorted[j - 1] == sorted[j]) {
        EXPECT_LT(index[j - 1], index[j]);
      }
    }
  }
}

constexpr char kTopK[] = R"(
HloModule m
ENTRY e {
  x = f32[3,5] parameter(0)
  ROOT t = (f32[3,3], s32[3,3]) custom-call(x), custom_call_target="TopK"
}
)";

TEST(TopKTest, LargestFirstTiesByLowerIndex) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // row 0 [1, 5, 3, 5, 2]       -> 5 (1), 5 (3), 3 (2)
  // row 1 [0, -0, 7, -inf, 2]   -> 7 (2), 2 (4), +0 (0) since -0 < +0
  // row 2 [1, nan, -inf, 4, 4]  -> nan (1), 4 (3), 4 (4)
  Literal r = MustRun(kTopK, {F32({3, 5}, {1, 5, 3, 5, 2,         //
                                           0, -0.0f, 7, -inf, 2,  //
                                           1, nan, -inf, 4, 4})});
  ASSERT_TRUE(r.IsTuple());
  std::vector<float> values = Values<float>(r.tuple_elements()[0]);
  std::vector<int32_t> indices = Values<int32_t>(r.tuple_elements()[1]);
  EXPECT_THAT(indices, ElementsAre(1, 3, 2, 2, 4, 0, 1, 3, 4));
  ASSERT_EQ(values.size(), 9u);
  EXPECT_EQ(values[0], 5);
  EXPECT_EQ(values[1], 5);
  EXPECT_EQ(values[2], 3);
  EXPECT_EQ(values[3], 7);
  EXPECT_EQ(values[4], 2);
  EXPECT_EQ(values[5], 0);
  EXPECT_FALSE(std::signbit(values[5]));
  EXPECT_TRUE(std::isnan(values[6]));
  EXPECT_EQ(values[7], 4);
  EXPECT_EQ(values[8], 4);
}

TEST(TopKTest, CorpusModule) {
  // runtime_topk_1.hlo: f32[10,10] -> top 3 per row. Row i holds
  // (7 * j + 3 * i) % 10 for j = 0..9, a permutation of 0..9, so the top 3
  // are 9, 8, 7 at the j solving 7 * j = v - 3 * i (mod 10).
  std::vector<float> x;
  for (int i = 0; i < 10; ++i) {
    for (int j = 0; j < 10; ++j)
      x.push_back(static_cast<float>((7 * j + 3 * i) % 10));
  }
  std::string hlo = R"(
HloModule topk
ENTRY TopK {
  x = f32[10,10] parameter(0)
  ROOT topk = (f32[10,3], s32[10,3]) custom-call(x), custom_call_target="TopK"
}
)";
  Literal r = MustRun(hlo, {F32({10, 10}, x)});
  ASSERT_TRUE(r.IsTuple());
  std::vector<float> values = Values<float>(r.tuple_elements()[0]);
  std::vector<int32_t> indices = Values<int32_t>(r.tuple_elements()[1]);
  for (int i = 0; i < 10; ++i) {
    for (int j = 0; j < 3; ++j) {
      const int v = 9 - j;
      int expected_index = -1;
      for (int c = 0; c < 10; ++c) {
        if ((7 * c + 3 * i) % 10 == v) expected_index = c;
      }
      EXPECT_EQ(values[i * 3 + j], v) << i << "," << j;
      EXPECT_EQ(indices[i * 3 + j], expected_index) << i << "," << j;
    }
  }
}

// The topk opcode: along the last dimension, batch dimensions before it.
std::string TopKModule(std::string_view in_shape, std::string_view out_dims,
                       std::string_view attrs) {
  return "HloModule m\nENTRY e {\n  x = " + std::string(in_shape) +
         " parameter(0)\n  ROOT t = (f32" + std::string(out_dims) + ", s32" +
         std::string(out_dims) + ") topk(x), " + std::string(attrs) + "\n}\n";
}

uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }

std::vector<uint32_t> BitsOf(const std::vector<float>& values) {
  std::vector<uint32_t> bits;
  for (float v : values) bits.push_back(Bits(v));
  return bits;
}

// Four rows of f32[2,2,4]: ties, signed zeros, NaNs of both signs, infinities.
Literal TopKInput() {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float neg_nan = std::copysign(nan, -1.0f);
  return F32({2, 2, 4}, {3, 1, 3, 2,            //
                         0, -0.0f, -1, -0.0f,   //
                         nan, inf, neg_nan, 5,  //
                         -inf, neg_nan, -inf, -3});
}

TEST(TopKOpcodeTest, LargestByTotalOrderTiesToLowerIndex) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // largest=true is the default. Total order:
  //   -NaN < -inf < -3 < -1 < -0 < +0 < 1 < ... < inf < +NaN.
  // [3, 1, 3, 2]          -> 3 (0), 3 (2): the tie keeps index order
  // [0, -0, -1, -0]       -> +0 (0), -0 (1): -0 < +0; the -0 tie takes 1
  // [nan, inf, -nan, 5]   -> nan (0), inf (1): +NaN is the largest
  // [-inf, -nan, -inf, -3] -> -3 (3), -inf (0): -NaN is the smallest
  Literal r =
      MustRun(TopKModule("f32[2,2,4]", "[2,2,2]", "k=2"), {TopKInput()});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[1]),
              ElementsAre(0, 2, 0, 1, 0, 1, 3, 0));
  EXPECT_THAT(BitsOf(Values<float>(r.tuple_elements()[0])),
              ElementsAre(Bits(3), Bits(3), Bits(0.0f), Bits(-0.0f), Bits(nan),
                          Bits(inf), Bits(-3), Bits(-inf)));
}

TEST(TopKOpcodeTest, SmallestAscending) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // largest=false: the k smallest, ascending, ties to the lower index.
  // [3, 1, 3, 2]           -> 1 (1), 2 (3)
  // [0, -0, -1, -0]        -> -1 (2), -0 (1)
  // [nan, inf, -nan, 5]    -> -nan (2), 5 (3)
  // [-inf, -nan, -inf, -3] -> -nan (1), -inf (0)
  Literal r = MustRun(TopKModule("f32[2,2,4]", "[2,2,2]", "k=2, largest=false"),
                      {TopKInput()});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[1]),
              ElementsAre(1, 3, 2, 1, 2, 3, 1, 0));
  EXPECT_THAT(BitsOf(Values<float>(r.tuple_elements()[0])),
              ElementsAre(Bits(1), Bits(2), Bits(-1), Bits(-0.0f),
                          Bits(std::copysign(nan, -1.0f)), Bits(5),
                          Bits(std::copysign(nan, -1.0f)), Bits(-inf)));
}

TEST(TopKOpcodeTest, KEqualsNIsAFullStableSort) {
  // s32 [5, -2, 5, 0], k = n = 4.
  // largest:  5 (0), 5 (2), 0 (3), -2 (1)
  // smallest: -2 (1), 0 (3), 5 (0), 5 (2)
  const std::string largest = R"(HloModule m
ENTRY e {
  x = s32[4] parameter(0)
  ROOT t = (s32[4], s32[4]) topk(x), k=4, largest=true
}
)";
  Literal r = MustRun(largest, {S32({4}, {5, -2, 5, 0})});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[0]), ElementsAre(5, 5, 0, -2));
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[1]), ElementsAre(0, 2, 3, 1));
  const std::string smallest = R"(HloModule m
ENTRY e {
  x = s32[4] parameter(0)
  ROOT t = (s32[4], s32[4]) topk(x), k=4, largest=false
}
)";
  r = MustRun(smallest, {S32({4}, {5, -2, 5, 0})});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[0]), ElementsAre(-2, 0, 5, 5));
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[1]), ElementsAre(1, 3, 0, 2));
}

TEST(TopKOpcodeTest, UnsignedKeysUseTheirFullRange) {
  // u32 0xFFFFFFFF is the largest, not -1: [1, 0xFFFFFFFF, 0] -> (1).
  const std::string hlo = R"(HloModule m
ENTRY e {
  x = u32[3] parameter(0)
  ROOT t = (u32[1], s32[1]) topk(x), k=1
}
)";
  Literal x = testing_util::Make<uint32_t>(PrimitiveType::kU32, {3},
                                           {1, 0xFFFFFFFFu, 0});
  Literal r = MustRun(hlo, {std::move(x)});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_THAT(Values<uint32_t>(r.tuple_elements()[0]),
              ElementsAre(0xFFFFFFFFu));
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[1]), ElementsAre(1));
}

TEST(TopKOpcodeTest, KZeroGivesEmptyRows) {
  Literal r =
      MustRun(TopKModule("f32[2,2,4]", "[2,2,0]", "k=0"), {TopKInput()});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_EQ(r.tuple_elements()[0].shape().ToString(false), "f32[2,2,0]");
  EXPECT_TRUE(Values<int32_t>(r.tuple_elements()[1]).empty());
}

TEST(TopKOpcodeTest, ComplexIsRefusedWithItsLocation) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  x = c64[3] parameter(0)
  ROOT t = (c64[2], s32[2]) topk(x), k=2
}
)";
  absl::StatusOr<Literal> r =
      testing_util::Run(hlo, {Literal(Shape::Array(PrimitiveType::kC64, {3}))});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "test.hlo:4:8: error: topk does not support element type c64\n"
            "  ROOT t = (c64[2], s32[2]) topk(x), k=2\n"
            "       ^");
}

TEST(TopKTest, UnknownCustomCallTargetIsRefused) {
  std::string hlo = R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  ROOT y = f32[4] custom-call(x), custom_call_target="Foo"
}
)";
  absl::StatusOr<Literal> r = testing_util::Run(hlo, {F32({4}, {1, 2, 3, 4})});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "test.hlo:4:8: error: custom-call target 'Foo' is not supported "
            "by the reference evaluator, which cannot run external functions\n"
            "  ROOT y = f32[4] custom-call(x), custom_call_target=\"Foo\"\n"
            "       ^");
}

}  // namespace
}  // namespace aotc
