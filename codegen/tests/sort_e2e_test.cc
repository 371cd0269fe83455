// End-to-end tests of the sort strategy: hand-worked small sorts, key/value
// stability, sorts along a major dimension and in other layouts, and long
// rows (many merge passes, odd lengths) checked against std::stable_sort,
// also with rows split across threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "codegen/strategy.h"
#include "codegen/tests/codegen_test_util.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

TEST(SortE2eTest, OneOperandAscending) {
  const char* hlo = R"(HloModule m
lt { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = pred[] compare(a, b), direction=LT }
ENTRY e {
  x = f32[6] parameter(0)
  ROOT s = f32[6] sort(x), dimensions={0}, to_apply=lt
})";
  auto r = CompileAndRun(hlo, {Vec<P::kF32>({3, -1, 2, -1, 5, 0})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<P::kF32>((*r)[0]),
            (std::vector<float>{-1, -1, 0, 2, 3, 5}));
}

// Keys [2,1,2,1,0,2,1,0] with values 0..7, comparing keys only: equal keys
// keep their order, so the zeros carry values 4,7, the ones 1,3,6 and the
// twos 0,2,5.
constexpr char kKeyValue[] = R"(HloModule m
lt { a = s32[] parameter(0)  b = s32[] parameter(1)  c = s32[] parameter(2)  d = s32[] parameter(3)
     ROOT r = pred[] compare(a, b), direction=LT }
ENTRY e {
  k = s32[8] parameter(0)
  v = s32[8] parameter(1)
  ROOT s = (s32[8], s32[8]) sort(k, v), dimensions={0}, to_apply=lt, is_stable=true
})";

TEST(SortE2eTest, KeyValuePairsKeepTheOrderOfEqualKeys) {
  auto r = CompileAndRun(kKeyValue, {Vec<P::kS32>({2, 1, 2, 1, 0, 2, 1, 0}),
                                     Vec<P::kS32>({0, 1, 2, 3, 4, 5, 6, 7})});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ(Values<P::kS32>((*r)[0]),
            (std::vector<int32_t>{0, 0, 1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(Values<P::kS32>((*r)[1]),
            (std::vector<int32_t>{4, 7, 1, 3, 6, 0, 2, 5}));
}

TEST(SortE2eTest, DescendingAlongTheMajorDimensionInAColumnMajorLayout) {
  // x = [[1, 6], [5, 2], [3, 4]] (logical), sorted down each column with
  // GT: column 0 becomes 5,3,1 and column 1 becomes 6,4,2. The result is
  // stored column-major ({0,1}), so each column is a contiguous row.
  const char* hlo = R"(HloModule m
gt { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = pred[] compare(a, b), direction=GT }
ENTRY e {
  x = f32[3,2] parameter(0)
  ROOT s = f32[3,2]{0,1} sort(x), dimensions={0}, to_apply=gt
})";
  auto r = CompileAndRun(hlo, {MakeArray<P::kF32>({3, 2}, {1, 6, 5, 2, 3, 4})});
  ASSERT_TRUE(r.ok()) << r.status();
  // Results come back in logical row-major order: [[5, 6], [3, 4], [1, 2]].
  EXPECT_EQ(Values<P::kF32>((*r)[0]), (std::vector<float>{5, 6, 3, 4, 1, 2}));
}

// Rows of `cols` pseudo-random keys in [0, 97) with their column as value,
// sorted on keys; checked against std::stable_sort of each row.
void CheckLongRows(int rows, int cols, bool hook) {
  SCOPED_TRACE(absl::StrCat(rows, "x", cols, hook ? " threaded" : ""));
  std::string hlo = absl::StrReplaceAll(
      R"(HloModule m
lt { a = f32[] parameter(0)  b = f32[] parameter(1)  c = s32[] parameter(2)  d = s32[] parameter(3)
     ROOT r = pred[] compare(a, b), direction=LT }
ENTRY e {
  k = f32[$R,$C] parameter(0)
  v = s32[$R,$C] parameter(1)
  ROOT s = (f32[$R,$C], s32[$R,$C]) sort(k, v), dimensions={1}, to_apply=lt
})",
      {{"$R", std::to_string(rows)}, {"$C", std::to_string(cols)}});
  std::vector<float> keys(static_cast<size_t>(rows) * cols);
  std::vector<int32_t> values(keys.size());
  uint32_t state = 12345;
  for (size_t i = 0; i < keys.size(); ++i) {
    state = state * 1664525u + 1013904223u;
    keys[i] = static_cast<float>((state >> 8) % 97) - 40.0f;
    values[i] = static_cast<int32_t>(i % cols);
  }
  HookLog log;
  if (hook) aotc_set_parallel_for(&ThreadedReverseHook, &log);
  auto r = CompileAndRun(hlo, {MakeArray<P::kF32>({rows, cols}, keys),
                               MakeArray<P::kS32>({rows, cols}, values)});
  if (hook) aotc_set_parallel_for(nullptr, nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<float> got_keys = Values<P::kF32>((*r)[0]);
  const std::vector<int32_t> got_values = Values<P::kS32>((*r)[1]);
  for (int i = 0; i < rows; ++i) {
    std::vector<int> order(cols);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return keys[i * cols + a] < keys[i * cols + b];
    });
    for (int j = 0; j < cols; ++j) {
      ASSERT_EQ(got_keys[i * cols + j], keys[i * cols + order[j]]) << i << "," << j;
      ASSERT_EQ(got_values[i * cols + j], order[j]) << i << "," << j;
    }
  }
  if (hook) {
    EXPECT_EQ(log.calls, 1);
    EXPECT_EQ(log.iterations, rows);
  }
}

TEST(SortE2eTest, LongRowsMatchStableSort) {
  // 1, 2 and 17 elements: no merge, one run, a run and one element; 1000
  // and 1037: several merge passes ending in scratch or in the output.
  for (int cols : {1, 2, 17, 1000, 1037}) CheckLongRows(3, cols, false);
}

TEST(SortE2eTest, RowsSplitAcrossThreads) { CheckLongRows(64, 1000, true); }

TEST(SortE2eTest, TheSortStrategyPlansIt) {
  auto module = LoadModuleFromString(kKeyValue, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto plan = PlanInstruction(*(*module)->entry()->root());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->name, "sort");
  // One more copy of both outputs, each 64-byte aligned: 2 * 64 bytes.
  EXPECT_EQ(plan->scratch_bytes, 128);
}

TEST(SortE2eTest, MatchesTheEvaluatorWithATotalOrderComparator) {
  // Floats with NaN, infinities and signed zeros sorted by the total order
  // comparison, as jnp.sort emits it.
  const char* hlo = R"(HloModule m
lt { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = pred[] compare(a, b), direction=LT, type=TOTALORDER }
ENTRY e {
  x = f32[2,9] parameter(0)
  ROOT s = f32[2,9] sort(x), dimensions={1}, to_apply=lt
})";
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  ExpectMatchesEvaluator(
      hlo, {MakeArray<P::kF32>({2, 9}, {0.0f, -0.0f, nan, 1, -inf, inf, -nan, 2, -1,
                                        5, 4, 3, 2, 1, 0, -1, -2, -3})});
}

}  // namespace
}  // namespace aotc::codegen::testing
