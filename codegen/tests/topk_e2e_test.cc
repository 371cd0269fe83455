// End-to-end tests of the top-k strategy: hand-worked selections (ties,
// NaN and signed zeros in the total order, smallest, unsigned), the TopK
// custom-call with and without a comparator against the evaluator, and long
// rows checked against std::stable_sort, also split across threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/str_replace.h"
#include "codegen/strategy.h"
#include "codegen/tests/codegen_test_util.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

const float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(TopKE2eTest, LargestWithTiesNaNAndSignedZeros) {
  // Row 0 [1, 5, 3, 5, 2]: the two 5s by index (1 then 3), then 3 (index 2).
  // Row 1 [-1, NaN, 0, -0, 7]: +NaN is above +Inf in the total order, then
  // 7, then +0 (index 2) above -0.
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[2,5] parameter(0)
  ROOT t = (f32[2,3], s32[2,3]) topk(x), k=3, largest=true
})";
  auto r = CompileAndRun(
      hlo, {MakeArray<P::kF32>({2, 5}, {1, 5, 3, 5, 2, -1, kNaN, 0, -0.0f, 7})});
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<float> v = Values<P::kF32>((*r)[0]);
  EXPECT_EQ(std::vector<float>(v.begin(), v.begin() + 3),
            (std::vector<float>{5, 5, 3}));
  EXPECT_TRUE(std::isnan(v[3]));
  EXPECT_EQ(v[4], 7);
  EXPECT_EQ(v[5], 0);
  EXPECT_FALSE(std::signbit(v[5]));
  EXPECT_EQ(Values<P::kS32>((*r)[1]), (std::vector<int32_t>{1, 3, 2, 1, 4, 2}));
}

TEST(TopKE2eTest, SmallestAscending) {
  // Row 0 [1, 5, 3, 5, 2]: 1 (index 0), 2 (index 4). Row 1 [-1, NaN, 0, -0,
  // 7]: -1 (index 0), then -0 (index 3), below +0.
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[2,5] parameter(0)
  ROOT t = (f32[2,2], s32[2,2]) topk(x), k=2, largest=false
})";
  auto r = CompileAndRun(
      hlo, {MakeArray<P::kF32>({2, 5}, {1, 5, 3, 5, 2, -1, kNaN, 0, -0.0f, 7})});
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<float> v = Values<P::kF32>((*r)[0]);
  EXPECT_EQ(v, (std::vector<float>{1, 2, -1, 0}));
  EXPECT_TRUE(std::signbit(v[3]));
  EXPECT_EQ(Values<P::kS32>((*r)[1]), (std::vector<int32_t>{0, 4, 0, 3}));
}

TEST(TopKE2eTest, UnsignedValuesCompareUnsigned) {
  // [200, 3, 255, 7]: 255 (index 2) and 200 (index 0); signed bytes would
  // have put 7 first.
  const char* hlo = R"(HloModule m
ENTRY e {
  x = u8[4] parameter(0)
  ROOT t = (u8[2], s32[2]) topk(x), k=2
})";
  auto r = CompileAndRun(hlo, {Vec<P::kU8>({200, 3, 255, 7})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<P::kU8>((*r)[0]), (std::vector<uint8_t>{255, 200}));
  EXPECT_EQ(Values<P::kS32>((*r)[1]), (std::vector<int32_t>{2, 0}));
}

TEST(TopKE2eTest, CustomCallMatchesTheEvaluator) {
  // As in the corpus's runtime_topk_1.hlo.
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[10,10] parameter(0)
  ROOT t = (f32[10,3], s32[10,3]) custom-call(x), custom_call_target="TopK"
})";
  std::vector<float> x(100);
  for (int i = 0; i < 100; ++i) x[i] = static_cast<float>((i * 37) % 11) - 5.0f;
  ExpectMatchesEvaluator(hlo, {MakeArray<P::kF32>({10, 10}, x)});
}

TEST(TopKE2eTest, CustomCallWithAComparatorOfValuesAndIndices) {
  // The comparator orders by value ascending, and equal values by the
  // larger index first: the evaluator's stable sort with it is the oracle.
  const char* hlo = R"(HloModule m
cmp {
  a = s32[] parameter(0)  b = s32[] parameter(1)
  i = s32[] parameter(2)  j = s32[] parameter(3)
  lt = pred[] compare(a, b), direction=LT
  eq = pred[] compare(a, b), direction=EQ
  gt = pred[] compare(i, j), direction=GT
  tie = pred[] and(eq, gt)
  ROOT r = pred[] or(lt, tie)
}
ENTRY e {
  x = s32[3,7] parameter(0)
  ROOT t = (s32[3,4], s32[3,4]) custom-call(x), custom_call_target="TopK", to_apply=cmp
})";
  std::vector<int32_t> x(21);
  for (int i = 0; i < 21; ++i) x[i] = (i * 5) % 4;
  ExpectMatchesEvaluator(hlo, {MakeArray<P::kS32>({3, 7}, x)});
}

// Rows of `cols` keys with many duplicates; the first k of a stable sort,
// descending, is the expected result.
void CheckLongRows(int rows, int cols, int k, bool hook) {
  SCOPED_TRACE(::testing::Message() << rows << "x" << cols << " k=" << k);
  const std::string hlo = absl::StrReplaceAll(R"(HloModule m
ENTRY e {
  x = s32[$R,$C] parameter(0)
  ROOT t = (s32[$R,$K], s32[$R,$K]) topk(x), k=$K
})",
                                              {{"$R", std::to_string(rows)},
                                               {"$C", std::to_string(cols)},
                                               {"$K", std::to_string(k)}});
  std::vector<int32_t> x(static_cast<size_t>(rows) * cols);
  uint32_t state = 99;
  for (int32_t& v : x) {
    state = state * 1664525u + 1013904223u;
    v = static_cast<int32_t>((state >> 8) % 50) - 25;
  }
  HookLog log;
  if (hook) aotc_set_parallel_for(&ThreadedReverseHook, &log);
  auto r = CompileAndRun(hlo, {MakeArray<P::kS32>({rows, cols}, x)});
  if (hook) aotc_set_parallel_for(nullptr, nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<int32_t> values = Values<P::kS32>((*r)[0]);
  const std::vector<int32_t> indices = Values<P::kS32>((*r)[1]);
  for (int i = 0; i < rows; ++i) {
    std::vector<int> order(cols);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return x[i * cols + a] > x[i * cols + b];
    });
    for (int j = 0; j < k; ++j) {
      ASSERT_EQ(indices[i * k + j], order[j]) << i << "," << j;
      ASSERT_EQ(values[i * k + j], x[i * cols + order[j]]) << i << "," << j;
    }
  }
  if (hook) {
    EXPECT_EQ(log.calls, 1);
    EXPECT_EQ(log.iterations, rows);
  }
}

TEST(TopKE2eTest, LongRowsMatchTheFirstKOfAStableSort) {
  for (int k : {1, 2, 5, 16, 1000}) CheckLongRows(3, 1000, k, false);
  CheckLongRows(2, 7, 7, false);
}

TEST(TopKE2eTest, RowsSplitAcrossThreads) { CheckLongRows(64, 2048, 5, true); }

TEST(TopKE2eTest, TheTopKStrategyPlansIt) {
  auto module = LoadModuleFromString(R"(HloModule m
ENTRY e {
  x = f32[4,100] parameter(0)
  ROOT t = (f32[4,5], s32[4,5]) topk(x), k=5
})",
                                     "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto plan = PlanInstruction(*(*module)->entry()->root());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->name, "top-k");
  EXPECT_EQ(plan->scratch_bytes, 0);  // the heap lives in the results
}

}  // namespace
}  // namespace aotc::codegen::testing
