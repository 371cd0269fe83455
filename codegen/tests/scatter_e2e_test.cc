// End-to-end tests of the scatter and select-and-scatter strategies. Each
// form has expected values worked out by hand in the comments and is also
// compared with the reference evaluator, as read and through the
// optimization pipeline, at -O0 and -O2. Windows that do not lie inside the
// operand must be skipped; the models run in buffers that end at guard pages
// (jit_runner.h), so a write past a result faults instead of passing. The
// corpus modules that scatter are compared with the evaluator too.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "codegen/strategy.h"
#include "codegen/tests/codegen_test_util.h"
#include "compiler/analysis/buffer_assignment.h"
#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/support/file_io.h"
#include "tests/corpus/corpus_compare.h"
#include "tests/corpus/corpus_files.h"
#include "tools/inputs.h"

namespace aotc::codegen {
namespace {

using P = PrimitiveType;
using testing::CompileAndRun;
using testing::ExpectMatchesEvaluator;
using testing::MakeArray;
using testing::Scalar;
using testing::Values;
using testing::Vec;

using Check = std::function<void(const std::vector<Literal>&)>;

// Runs `hlo` as read and through the optimization pipeline, checks the
// results of each with `check` and against the evaluator, then compares
// -O0 and -O2 builds as read with the evaluator.
void RunBoth(const std::string& hlo, const std::vector<Literal>& args,
             const Check& check) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto expected = EvaluateModule(**module, args);
  ASSERT_TRUE(expected.ok()) << expected.status();
  const std::vector<const Literal*> leaves = expected->Leaves();
  for (bool optimize : {false, true}) {
    SCOPED_TRACE(optimize ? "optimized" : "as read");
    auto results = CompileAndRun(hlo, args, 2, optimize);
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_EQ(results->size(), leaves.size());
    check(*results);
    for (size_t k = 0; k < leaves.size(); ++k) {
      const Comparison c =
          CompareLiterals((*results)[k], *leaves[k],
                          DefaultTolerance(leaves[k]->shape().element_type()));
      EXPECT_TRUE(c.ok()) << "result " << k << ": " << c.mismatches
                          << " mismatches with the evaluator; first "
                          << c.first_mismatch;
    }
  }
  ExpectMatchesEvaluator(hlo, args);
}

template <PrimitiveType T>
Check Expect(std::vector<NativeType<T>> want) {
  return [want](const std::vector<Literal>& r) {
    EXPECT_EQ(Values<T>(r[0]), want);
  };
}

// x[i][j] = 10 i + j over f32[rows, cols].
Literal Grid(int rows, int cols) {
  std::vector<float> x(rows * cols);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) x[i * cols + j] = 10.0f * i + j;
  }
  return MakeArray<P::kF32>({rows, cols}, x);
}

constexpr char kAddF32[] = R"(
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }
)";

// Rows of f32[3,3] updates added into rows idx[n] of f32[4,3].
std::string RowScatter(const std::string& combiner, const std::string& name) {
  return "HloModule m\n" + combiner + R"(
ENTRY e {
  x = f32[4,3] parameter(0)
  idx = s32[3] parameter(1)
  upd = f32[3,3] parameter(2)
  ROOT s = f32[4,3] scatter(x, idx, upd), update_window_dims={1},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=)" +
         name + "\n}";
}

// upd[n][j] = 100 (n + 1) + j over f32[3,3].
Literal RowUpdates() {
  return MakeArray<P::kF32>({3, 3},
                            {100, 101, 102, 200, 201, 202, 300, 301, 302});
}

TEST(ScatterE2eTest, AddRowsWithADuplicateIndexAppliesBoth) {
  // idx = {1, 3, 1}: row 1 gets updates 0 and 2, row 3 update 1.
  //   row 0: 0 1 2 (untouched)
  //   row 1: 10+100+300, 11+101+301, 12+102+302 = 410 413 416
  //   row 2: 20 21 22
  //   row 3: 30+200, 31+201, 32+202 = 230 232 234
  RunBoth(RowScatter(kAddF32, "add"),
          {Grid(4, 3), Vec<P::kS32>({1, 3, 1}), RowUpdates()},
          Expect<P::kF32>({0, 1, 2, 410, 413, 416, 20, 21, 22, 230, 232, 234}));
}

TEST(ScatterE2eTest, InPlaceOnAnOperandThatDiesThere) {
  // s scatters into n = -x, which dies there, so s takes n's bytes and
  // skips the copy; the root then doubles s.
  //   row 0: -0 -1 -2, row 2: -20 -21 -22 (untouched)
  //   row 1: -10+100+300, -11+101+301, -12+102+302 = 390 391 392
  //   row 3: -30+200, -31+201, -32+202 = 170 170 170
  // doubled.
  const std::string hlo = "HloModule m\n" + std::string(kAddF32) + R"(
ENTRY e {
  x = f32[4,3] parameter(0)
  idx = s32[3] parameter(1)
  upd = f32[3,3] parameter(2)
  n = f32[4,3] negate(x)
  s = f32[4,3] scatter(n, idx, upd), update_window_dims={1},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=add
  ROOT d = f32[4,3] add(s, s)
})";
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  const BufferPlan plan = AssignBuffers(*(*module)->entry());
  bool in_place = false;
  for (const Buffer& b : plan.buffers) {
    in_place = in_place || (b.instruction->name() == "s" && b.in_place_of >= 0);
  }
  EXPECT_TRUE(in_place);
  RunBoth(hlo, {Grid(4, 3), Vec<P::kS32>({1, 3, 1}), RowUpdates()},
          Expect<P::kF32>({-0.0f, -2, -4, 780, 782, 784, -40, -42, -44, 340,
                           340, 340}));
}

TEST(ScatterE2eTest, ReplacementCombinerLastUpdateWins) {
  // idx = {2, 0, 2} with a combiner returning the update: row 2 takes
  // update 0 and then update 2 (the last), row 0 update 1.
  const std::string set = R"(
set { a = f32[] parameter(0)  ROOT b = f32[] parameter(1) }
)";
  RunBoth(
      RowScatter(set, "set"),
      {Grid(4, 3), Vec<P::kS32>({2, 0, 2}), RowUpdates()},
      Expect<P::kF32>({200, 201, 202, 10, 11, 12, 300, 301, 302, 30, 31, 32}));
}

TEST(ScatterE2eTest, UpdatesApplyScatterPositionByScatterPosition) {
  // The window dimension of the updates comes first: upd[w][b]. Windows of
  // 2 start at idx[b] = {0, 1} in x = {-1, -1, -1, -1} with a replacement
  // combiner. The evaluator applies the whole window of b = 0, then that of
  // b = 1:
  //   b=0: x[0] = upd[0][0] = 10, x[1] = upd[1][0] = 11
  //   b=1: x[1] = upd[0][1] = 20, x[2] = upd[1][1] = 21
  // so x[1] ends as 20 (in row-major order of the updates, upd[1][0] = 11
  // would come last).
  const std::string hlo = R"(HloModule m
set { a = f32[] parameter(0)  ROOT b = f32[] parameter(1) }
ENTRY e {
  x = f32[4] parameter(0)
  idx = s32[2] parameter(1)
  upd = f32[2,2] parameter(2)
  ROOT s = f32[4] scatter(x, idx, upd), update_window_dims={0},
      inserted_window_dims={}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=set
})";
  RunBoth(hlo,
          {Vec<P::kF32>({-1, -1, -1, -1}), Vec<P::kS32>({0, 1}),
           MakeArray<P::kF32>({2, 2}, {10, 20, 11, 21})},
          Expect<P::kF32>({10, 20, 21, -1}));
}

// 2x2 windows of f32[N,2,2] updates added into f32[4,4] (64 bytes, so the
// result ends exactly at a guard page) at starts idx[n] of s32[N,2].
std::string WindowScatter(int n, const std::string& index_type) {
  const std::string count = std::to_string(n);
  return std::string("HloModule m\n") + kAddF32 + R"(
ENTRY e {
  x = f32[4,4] parameter(0)
  idx = )" +
         index_type + "[" + count + R"(,2] parameter(1)
  upd = f32[)" +
         count +
         R"(,2,2] parameter(2)
  ROOT s = f32[4,4] scatter(x, idx, upd), update_window_dims={1,2},
      inserted_window_dims={}, scatter_dims_to_operand_dims={0,1},
      index_vector_dim=1, to_apply=add
})";
}

// Window n of the updates is 100 (n + 1) everywhere.
Literal WindowUpdates(int n) {
  std::vector<float> u;
  for (int k = 0; k < n; ++k) u.insert(u.end(), 4, 100.0f * (k + 1));
  return MakeArray<P::kF32>({n, 2, 2}, u);
}

TEST(ScatterE2eTest, WindowsNotInsideTheOperandAreSkipped) {
  // Starts must lie in [0, 4 - 2] in both dimensions:
  //   (2, 2) inside: +100 on x[2..3][2..3]
  //   (3, 0) skipped (it would clamp to (2, 0))
  //   (-1, 1) skipped
  //   (0, 3) skipped
  //   (0, 0) inside: +500 on x[0..1][0..1]
  RunBoth(
      WindowScatter(5, "s32"),
      {Grid(4, 4), MakeArray<P::kS32>({5, 2}, {2, 2, 3, 0, -1, 1, 0, 3, 0, 0}),
       WindowUpdates(5)},
      Expect<P::kF32>({500, 501, 2, 3, 510, 511, 12, 13, 20, 21, 122, 123, 30,
                       31, 132, 133}));
}

TEST(ScatterE2eTest, ExtremeIndicesAreSkipped) {
  // (INT_MAX, 0), (INT_MIN, 0), (0, INT_MAX), (INT_MIN, INT_MIN) are all
  // skipped: no sum start + extent may wrap into range. (1, 1) is inside:
  // +500 on x[1..2][1..2].
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  RunBoth(WindowScatter(5, "s32"),
          {Grid(4, 4),
           MakeArray<P::kS32>({5, 2},
                              {kMax, 0, kMin, 0, 0, kMax, kMin, kMin, 1, 1}),
           WindowUpdates(5)},
          Expect<P::kF32>({0, 1, 2, 3, 10, 511, 512, 13, 20, 521, 522, 23, 30,
                           31, 32, 33}));
}

TEST(ScatterE2eTest, ExtremeS64AndU64IndicesAreSkipped) {
  // s64: INT64_MAX and INT64_MIN skipped, (2, 0) inside: +300 on
  // x[2..3][0..1]. u64: 2^64 - 1 and 2^63 (negative if read as signed)
  // skipped, (0, 2) inside: +300 on x[0..1][2..3].
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  RunBoth(WindowScatter(3, "s64"),
          {Grid(4, 4), MakeArray<P::kS64>({3, 2}, {kMax, 0, 0, kMin, 2, 0}),
           WindowUpdates(3)},
          Expect<P::kF32>({0, 1, 2, 3, 10, 11, 12, 13, 320, 321, 22, 23, 330,
                           331, 32, 33}));
  constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
  RunBoth(WindowScatter(3, "u64"),
          {Grid(4, 4),
           MakeArray<P::kU64>({3, 2}, {kU64Max, 0, 0, uint64_t{1} << 63, 0, 2}),
           WindowUpdates(3)},
          Expect<P::kF32>({0, 1, 302, 303, 10, 11, 312, 313, 20, 21, 22, 23, 30,
                           31, 32, 33}));
}

TEST(ScatterE2eTest, U8IndicesAreUnsigned) {
  // x[i] = i over f32[256] (1 KiB, ending at a guard page); idx = {200, 3,
  // 255, 200}, upd = {1000, 2000, 3000, 4000}, added:
  //   x[200] = 200 + 1000 + 4000 = 5200, x[3] = 2003, x[255] = 3255.
  // Read as signed, 200 and 255 would be -56 and -1 and be skipped.
  const std::string hlo = std::string("HloModule m\n") + kAddF32 + R"(
ENTRY e {
  x = f32[256] parameter(0)
  idx = u8[4] parameter(1)
  upd = f32[4] parameter(2)
  ROOT s = f32[256] scatter(x, idx, upd), update_window_dims={},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=add
})";
  std::vector<float> x(256);
  for (int i = 0; i < 256; ++i) x[i] = i;
  std::vector<float> want = x;
  want[200] = 5200;
  want[3] = 2003;
  want[255] = 3255;
  RunBoth(hlo,
          {Vec<P::kF32>(x), Vec<P::kU8>({200, 3, 255, 200}),
           Vec<P::kF32>({1000, 2000, 3000, 4000})},
          Expect<P::kF32>(want));
}

TEST(ScatterE2eTest, VariadicScatterKeepsTheLargestKeyAndItsValue) {
  // Keys s32 and values f32 scattered together; the combiner keeps the
  // update when its key is strictly greater. Start: keys 5 5 5 5, values
  // 0 0 0 0; idx = {1, 1, 3, 1}, keys {7, 9, 2, 8}, values {10, 20, 30, 40}:
  //   element 1: (5,0) -> 7>5: (7,10) -> 9>7: (9,20) -> 8>9 no: (9,20)
  //   element 3: 2>5 no: (5,0)
  const std::string hlo = R"(HloModule m
keep_max {
  k = s32[] parameter(0)  v = f32[] parameter(1)
  uk = s32[] parameter(2)  uv = f32[] parameter(3)
  gt = pred[] compare(uk, k), direction=GT
  rk = s32[] select(gt, uk, k)
  rv = f32[] select(gt, uv, v)
  ROOT t = (s32[], f32[]) tuple(rk, rv)
}
ENTRY e {
  k = s32[4] parameter(0)
  v = f32[4] parameter(1)
  idx = s32[4] parameter(2)
  uk = s32[4] parameter(3)
  uv = f32[4] parameter(4)
  ROOT s = (s32[4], f32[4]) scatter(k, v, idx, uk, uv),
      update_window_dims={}, inserted_window_dims={0},
      scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=keep_max
})";
  RunBoth(
      hlo,
      {Vec<P::kS32>({5, 5, 5, 5}), Vec<P::kF32>({0, 0, 0, 0}),
       Vec<P::kS32>({1, 1, 3, 1}), Vec<P::kS32>({7, 9, 2, 8}),
       Vec<P::kF32>({10, 20, 30, 40})},
      [](const std::vector<Literal>& r) {
        EXPECT_EQ(Values<P::kS32>(r[0]), (std::vector<int32_t>{5, 9, 5, 5}));
        EXPECT_EQ(Values<P::kF32>(r[1]), (std::vector<float>{0, 20, 0, 0}));
      });
}

// x[b][i] = 10 b + i over f32[2,4]: batch b of the indices picks elements
// of row b. idx[b][p] = {{3, 0}, {3, 9}}, upd[b][p] = {{100, 200}, {300,
// 400}}, added:
//   b=0: x[0][3] += 100, x[0][0] += 200
//   b=1: x[1][3] += 300, 9 is past the row: skipped
constexpr char kBatched[] = R"(HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }
ENTRY e {
  x = f32[2,4] parameter(0)
  idx = s32[2,2] parameter(1)
  upd = f32[2,2] parameter(2)
  ROOT s = f32[2,4] scatter(x, idx, upd), update_window_dims={},
      inserted_window_dims={1}, scatter_dims_to_operand_dims={1},
      input_batching_dims={0}, scatter_indices_batching_dims={0},
      index_vector_dim=2, to_apply=add
})";

TEST(ScatterE2eTest, BatchingDims) {
  RunBoth(kBatched,
          {Grid(2, 4), MakeArray<P::kS32>({2, 2}, {3, 0, 3, 9}),
           MakeArray<P::kF32>({2, 2}, {100, 200, 300, 400})},
          Expect<P::kF32>({200, 1, 2, 103, 10, 11, 12, 313}));
}

TEST(ScatterE2eTest, IndicesBatchingDimAfterTheIndexVectorDim) {
  // The same scatter with the indices as s32[1,2,2] = [v][p][b]: the index
  // vector dim in front, batching dim 2 paired with operand dim 0, and the
  // updates' dims in the order of the indices', upd[p][b] = {{100, 300},
  // {200, 400}}. Same result.
  const std::string hlo = R"(HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }
ENTRY e {
  x = f32[2,4] parameter(0)
  idx = s32[1,2,2] parameter(1)
  upd = f32[2,2] parameter(2)
  ROOT s = f32[2,4] scatter(x, idx, upd), update_window_dims={},
      inserted_window_dims={1}, scatter_dims_to_operand_dims={1},
      input_batching_dims={0}, scatter_indices_batching_dims={2},
      index_vector_dim=0, to_apply=add
})";
  RunBoth(hlo,
          {Grid(2, 4), MakeArray<P::kS32>({1, 2, 2}, {3, 3, 0, 9}),
           MakeArray<P::kF32>({2, 2}, {100, 300, 200, 400})},
          Expect<P::kF32>({200, 1, 2, 103, 10, 11, 12, 313}));
}

TEST(ScatterE2eTest, ScatterIntoAScalar) {
  // No index vector components and no window: the one update replaces the
  // scalar, 7 -> 42.
  const std::string hlo = R"(HloModule m
set { a = s32[] parameter(0)  ROOT b = s32[] parameter(1) }
ENTRY e {
  x = s32[] parameter(0)
  idx = s32[0] parameter(1)
  upd = s32[] parameter(2)
  ROOT s = s32[] scatter(x, idx, upd), update_window_dims={},
      inserted_window_dims={}, scatter_dims_to_operand_dims={},
      index_vector_dim=0, to_apply=set
})";
  RunBoth(hlo, {Scalar<P::kS32>(7), Vec<P::kS32>({}), Scalar<P::kS32>(42)},
          Expect<P::kS32>({42}));
}

TEST(ScatterE2eTest, ScatterInAWhileBody) {
  // Each of 3 iterations scatters upd = {10, 1} (each times x[i] + 1, a
  // fused producer reading the loop state) to idx = {i, i} of the state,
  // added: x[i] becomes x[i] + 10 (x[i] + 1) + (x[i] + 1) = 12 x[i] + 11
  // for i = 0, 1, 2. From x = {1, 2, 3, 4}: {23, 35, 47, 4}.
  const std::string hlo = R"(HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }
cond {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  three = s32[] constant(3)
  ROOT c = pred[] compare(i, three), direction=LT
}
body {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[4] get-tuple-element(s), index=1
  idx = s32[2] broadcast(i), dimensions={}
  xi = f32[1] dynamic-slice(x, i), dynamic_slice_sizes={1}
  one = f32[1] constant({1})
  xi1 = f32[1] add(xi, one)
  v = f32[] reshape(xi1)
  vs = f32[2] broadcast(v), dimensions={}
  w = f32[2] constant({10, 1})
  upd = f32[2] multiply(vs, w)
  y = f32[4] scatter(x, idx, upd), update_window_dims={},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=add
  k = s32[] constant(1)
  next = s32[] add(i, k)
  ROOT t = (s32[], f32[4]) tuple(next, y)
}
ENTRY e {
  x = f32[4] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[4]) tuple(zero, x)
  ROOT w = (s32[], f32[4]) while(init), condition=cond, body=body
})";
  RunBoth(hlo, {Vec<P::kF32>({1, 2, 3, 4})}, [](const std::vector<Literal>& r) {
    EXPECT_EQ(Values<P::kS32>(r[0]), std::vector<int32_t>{3});
    EXPECT_EQ(Values<P::kF32>(r[1]), (std::vector<float>{23, 35, 47, 4}));
  });
}

TEST(ScatterE2eTest, PlanIsSerialWithoutScratch) {
  // Duplicate indices must combine in order: the loop is never split.
  auto module = LoadModuleFromString(RowScatter(kAddF32, "add"), "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto plan = PlanInstruction(*(*module)->entry()->root());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->name, "scatter");
  EXPECT_EQ(plan->loop_shape, nullptr);
  EXPECT_EQ(plan->scratch_bytes, 0);
}

// The verifier refuses such a module; code generation, which may be handed
// one that was never verified, refuses it too, at the scatter.
TEST(ScatterE2eTest, InconsistentDimensionNumbersGiveALocatedError) {
  const char* hlo = R"(HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }
ENTRY e {
  x = f32[4,3] parameter(0)
  idx = s32[3] parameter(1)
  upd = f32[3,3] parameter(2)
  ROOT s = f32[4,3] scatter(x, idx, upd), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, to_apply=add
})";
  EXPECT_EQ(testing::UnverifiedCompileError(hlo),
            "test.hlo:7:8: error: scatter: "
            "scatter_dims_to_operand_dims={0,1} does not match index vectors "
            "of 1 components");
}

// Select-and-scatter with a GE select and an add scatter over f32[N...],
// the window given as `window`.
std::string MaxPoolGradient(const std::string& operand,
                            const std::string& source,
                            const std::string& window) {
  return R"(HloModule m
ge { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = pred[] compare(a, b), direction=GE }
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }
ENTRY e {
  x = )" +
         operand +
         R"( parameter(0)
  src = )" +
         source + R"( parameter(1)
  init = f32[] parameter(2)
  ROOT s = )" +
         operand + R"( select-and-scatter(x, src, init), window={)" + window +
         R"(}, select=ge, scatter=add
})";
}

TEST(SelectAndScatterE2eTest, MaxPoolGradient2x2Stride2) {
  //   x = 1 5 2 8      windows: {1,5,3,4} -> 5 at (0,1)
  //       3 4 8 1               {2,8,8,1} -> 8 at (0,3), the first of two
  //       9 0 1 1               {9,0,2,6} -> 9 at (2,0)
  //       2 6 1 7               {1,1,1,7} -> 7 at (3,3)
  // src = {10, 20, 30, 40} lands there; the rest is init 0. (With a GT
  // select the tie would go to (1,2).)
  RunBoth(
      MaxPoolGradient("f32[4,4]", "f32[2,2]", "size=2x2 stride=2x2"),
      {MakeArray<P::kF32>({4, 4},
                          {1, 5, 2, 8, 3, 4, 8, 1, 9, 0, 1, 1, 2, 6, 1, 7}),
       MakeArray<P::kF32>({2, 2}, {10, 20, 30, 40}), Scalar<P::kF32>(0)},
      Expect<P::kF32>({0, 10, 0, 20, 0, 0, 0, 0, 30, 0, 0, 0, 0, 0, 0, 40}));
}

TEST(SelectAndScatterE2eTest, OverlappingWindowsSelectAnElementTwice) {
  // x = {1, 7, 3, 2, 6}, windows of 3 at stride 1: {1,7,3} -> 7 at 1,
  // {7,3,2} -> 7 at 1, {3,2,6} -> 6 at 4. From init 0.5:
  //   out[1] = 0.5 + 10 + 20 = 30.5, out[4] = 0.5 + 40 = 40.5.
  RunBoth(MaxPoolGradient("f32[5]", "f32[3]", "size=3 stride=1"),
          {Vec<P::kF32>({1, 7, 3, 2, 6}), Vec<P::kF32>({10, 20, 40}),
           Scalar<P::kF32>(0.5f)},
          Expect<P::kF32>({0.5f, 30.5f, 0.5f, 0.5f, 40.5f}));
}

TEST(SelectAndScatterE2eTest, PaddingIsNeverSelected) {
  // x = {-1, -2, -3, -4} padded by 2 below and 1 above (7 positions),
  // windows of 2 at stride 2: padded positions {0,1}, {2,3}, {4,5}.
  //   window 0: both padding: nothing selected, src 100 is dropped
  //   window 1: x[0] = -1, x[1] = -2: -1 >= -2, x[0] gets 1
  //   window 2: x[2] = -3, x[3] = -4: x[2] gets 2
  // (Padding read as 0 would have won every window.)
  RunBoth(MaxPoolGradient("f32[4]", "f32[3]", "size=2 stride=2 pad=2_1"),
          {Vec<P::kF32>({-1, -2, -3, -4}), Vec<P::kF32>({100, 1, 2}),
           Scalar<P::kF32>(0)},
          Expect<P::kF32>({1, 0, 2, 0}));
}

TEST(SelectAndScatterE2eTest, DilatedPaddedWindowsMatchTheEvaluator) {
  // Base and window dilation with padding on seeded inputs: positions in
  // dilation holes are skipped like padding.
  const std::string hlo =
      MaxPoolGradient("f32[7,9]", "f32[7,4]",
                      "size=3x2 stride=2x2 pad=1_1x0_1 lhs_dilate=2x1 "
                      "rhs_dilate=1x2");
  std::vector<float> x(63), src(28);
  for (int i = 0; i < 63; ++i) x[i] = static_cast<float>((i * 37) % 23);
  for (int i = 0; i < 28; ++i) src[i] = static_cast<float>(i + 1);
  ExpectMatchesEvaluator(
      hlo, {MakeArray<P::kF32>({7, 9}, x), MakeArray<P::kF32>({7, 4}, src),
            Scalar<P::kF32>(0)});
}

// A source whose shape is not the window's positions, or a scatter
// combiner of the wrong types, in a module that was never verified: located
// errors at the instruction, not code that writes past the output.
TEST(SelectAndScatterE2eTest, InconsistentModulesGiveLocatedErrors) {
  CompileOptions options;
  options.name = "m";
  auto first_line = [](const absl::Status& status) {
    const std::string message(status.message());
    return message.substr(0, message.find('\n'));
  };
  auto source = ParseHloText(
      MaxPoolGradient("f32[4,4]", "f32[3,3]", "size=2x2 stride=2x2"),
      "test.hlo");
  ASSERT_TRUE(source.ok()) << source.status();
  auto compiled = CompileModule(**source, options);
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(first_line(compiled.status()),
            "test.hlo:8:8: error: select-and-scatter: source f32[3,3] does not "
            "match the window positions [2,2]");

  const char* combiner = R"(HloModule m
add { a = s32[] parameter(0)  b = s32[] parameter(1)  ROOT c = s32[] add(a, b) }
ENTRY e {
  x = f32[4] parameter(0)
  idx = s32[2] parameter(1)
  upd = f32[2] parameter(2)
  ROOT s = f32[4] scatter(x, idx, upd), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
})";
  auto scatter = ParseHloText(combiner, "test.hlo");
  ASSERT_TRUE(scatter.ok()) << scatter.status();
  compiled = CompileModule(**scatter, options);
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(first_line(compiled.status()),
            "test.hlo:7:8: error: scatter: to_apply computation 'add' does not "
            "take 2 scalars of the operand types and return 1");
}

TEST(SelectAndScatterE2eTest, PlanIsSerialWithoutScratch) {
  auto module = LoadModuleFromString(
      MaxPoolGradient("f32[4,4]", "f32[2,2]", "size=2x2 stride=2x2"),
      "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto plan = PlanInstruction(*(*module)->entry()->root());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->name, "select-and-scatter");
  EXPECT_EQ(plan->loop_shape, nullptr);
  EXPECT_EQ(plan->scratch_bytes, 0);
}

// Every corpus module with a scatter or select-and-scatter is compiled
// through the optimization pipeline, run on seeded inputs and compared with
// the evaluator running it as read. Modules that code generation refuses
// for another operation, whose values would not fit in memory, or that the
// evaluator cannot afford are skipped with the reason.
TEST(ScatterE2eTest, CorpusScatterModulesMatchTheEvaluator) {
  // All 19 but gemma3_1b_flax_call_1 (more than 1 GiB of values) and
  // in_place_dynamic_update_slice_fusion_1 (beyond the evaluator's budget).
  constexpr int kExpectedCompared = 17;
  const CorpusSubset subset =
      CompareCorpusModulesUsing({"scatter", "select-and-scatter"});
  EXPECT_THAT(subset.failures, ::testing::IsEmpty());
  EXPECT_GE(subset.matched, kExpectedCompared);
}

}  // namespace
}  // namespace aotc::codegen
