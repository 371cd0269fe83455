// End-to-end tests of the loop nests fusion creates: a split and fused
// mean, sibling reductions sharing one pass, a reduction writing the value
// it reduces, and a matrix product with its epilogue. Every expected value
// is computed by hand or by an independent formula in the test, and every
// test checks that the fusion and loop nest its name promises were chosen.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "codegen/strategy.h"
#include "codegen/tests/codegen_test_util.h"

namespace aotc::codegen {
namespace {

using P = PrimitiveType;
using testing::CompileAndRun;
using testing::HookLog;
using testing::MakeArray;
using testing::ThreadedReverseHook;
using testing::Values;

constexpr bool kOptimize = true;

// One fusion of the optimized entry computation: the strategy that plans it
// and the reduces inside it.
struct FusionInfo {
  std::string plan;
  int reduces = 0;
};

// The fusions of `hlo`'s entry after the optimization pipeline, in order.
std::vector<FusionInfo> OptimizedFusions(std::string_view hlo) {
  std::vector<FusionInfo> fusions;
  auto module = LoadModuleFromString(hlo, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return fusions;
  auto optimized = OptimizeModule(**module, {});
  EXPECT_TRUE(optimized.ok()) << optimized.status();
  for (const auto& inst : (*module)->entry()->instructions()) {
    if (inst->opcode() != Opcode::kFusion) continue;
    FusionInfo info;
    auto plan = PlanInstruction(*inst);
    info.plan = plan.ok() ? std::string(plan->name)
                          : std::string(plan.status().message());
    for (const auto& fused : inst->fused_computation()->instructions()) {
      if (fused->opcode() == Opcode::kReduce) ++info.reduces;
    }
    fusions.push_back(std::move(info));
  }
  return fusions;
}

TEST(FusedE2eTest, SplitFusedMeanIsExact) {
  // mean(x**2 * 3 + y) over f32[256,512] with x = (j % 4) / 4 and
  // y = i % 2: per row, 3 x^2 sums to 128 * 3 * (0 + 1 + 4 + 9) / 16 = 336
  // and y to 512 (i % 2); the mean is (256 * 336 + 128 * 512) / 131072 =
  // 1.15625. Every partial sum is a multiple of 1/16 below 2^20, so the
  // result is exact whatever the order of the additions.
  const char* hlo = R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[256,512] parameter(0)
  y = f32[256,512] parameter(1)
  sq = f32[256,512] multiply(x, x)
  three = f32[] constant(3)
  b3 = f32[256,512] broadcast(three), dimensions={}
  t = f32[256,512] multiply(sq, b3)
  s = f32[256,512] add(t, y)
  zero = f32[] constant(0)
  r = f32[] reduce(s, zero), dimensions={0,1}, to_apply=add
  n = f32[] constant(131072)
  ROOT mean = f32[] divide(r, n)
})";
  std::vector<float> x(256 * 512), y(256 * 512);
  for (int i = 0; i < 256; ++i) {
    for (int j = 0; j < 512; ++j) {
      x[i * 512 + j] = (j % 4) / 4.0f;
      y[i * 512 + j] = static_cast<float>(i % 2);
    }
  }
  for (int opt : {0, 2}) {
    auto results = CompileAndRun(hlo,
                                 {MakeArray<P::kF32>({256, 512}, x),
                                  MakeArray<P::kF32>({256, 512}, y)},
                                 opt, kOptimize);
    ASSERT_TRUE(results.ok()) << results.status();
    EXPECT_EQ(Values<P::kF32>((*results)[0]), (std::vector<float>{1.15625f}));
  }
  // Split: a fusion of the element-wise terms with the partial (row) sums,
  // then one of the final sum with the division.
  const std::vector<FusionInfo> fusions = OptimizedFusions(hlo);
  ASSERT_EQ(fusions.size(), 2u);
  EXPECT_EQ(fusions[0].reduces, 1);
  EXPECT_EQ(fusions[1].reduces, 1);
}

TEST(FusedE2eTest, MaxAndMinReductionsKeepNanAndSignedZero) {
  // Row maxima and minima of f32[4,64], long enough rows for vector
  // accumulators: row 0 holds j - 32 (max 31, min -32); row 1 the same with
  // a NaN at column 40 (NaN both ways); row 2 -0 everywhere but a +0 at
  // column 17 (max +0, min -0); row 3 -inf everywhere.
  const char* hlo = R"(
HloModule m
mx {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
mn {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] minimum(b, a)
}
ENTRY e {
  x = f32[4,64] parameter(0)
  lo = f32[] constant(-inf)
  hi = f32[] constant(inf)
  max = f32[4] reduce(x, lo), dimensions={1}, to_apply=mx
  min = f32[4] reduce(x, hi), dimensions={1}, to_apply=mn
  ROOT t = (f32[4], f32[4]) tuple(max, min)
})";
  std::vector<float> x(4 * 64);
  for (int j = 0; j < 64; ++j) {
    x[j] = static_cast<float>(j - 32);
    x[64 + j] = j == 40 ? NAN : static_cast<float>(j - 32);
    x[128 + j] = j == 17 ? 0.0f : -0.0f;
    x[192 + j] = -INFINITY;
  }
  for (int opt : {0, 2}) {
    auto results = CompileAndRun(hlo, {MakeArray<P::kF32>({4, 64}, x)}, opt,
                                 kOptimize);
    ASSERT_TRUE(results.ok()) << results.status();
    const std::vector<float> max = Values<P::kF32>((*results)[0]);
    const std::vector<float> min = Values<P::kF32>((*results)[1]);
    ASSERT_EQ(max.size(), 4u);
    ASSERT_EQ(min.size(), 4u);
    EXPECT_EQ(max[0], 31.0f);
    EXPECT_EQ(min[0], -32.0f);
    EXPECT_TRUE(std::isnan(max[1]));
    EXPECT_TRUE(std::isnan(min[1]));
    EXPECT_EQ(max[2], 0.0f);
    EXPECT_FALSE(std::signbit(max[2]));
    EXPECT_EQ(min[2], 0.0f);
    EXPECT_TRUE(std::signbit(min[2]));
    EXPECT_EQ(max[3], -INFINITY);
    EXPECT_EQ(min[3], -INFINITY);
  }
}

TEST(FusedE2eTest, SiblingSumsShareOnePass) {
  // Row sums of x and of x * x for x[i,j] = i + j over a 3x4 matrix:
  // sum_j (i + j) = 4i + 6; sum_j (i + j)^2 = 4i^2 + 12i + 14.
  const char* hlo = R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[3,4] parameter(0)
  z = f32[] constant(0)
  s = f32[3] reduce(x, z), dimensions={1}, to_apply=add
  xx = f32[3,4] multiply(x, x)
  s2 = f32[3] reduce(xx, z), dimensions={1}, to_apply=add
  ROOT t = (f32[3], f32[3]) tuple(s, s2)
})";
  auto results = CompileAndRun(
      hlo, {MakeArray<P::kF32>({3, 4}, {0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5})},
      2, kOptimize);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kF32>((*results)[0]), (std::vector<float>{6, 10, 14}));
  EXPECT_EQ(Values<P::kF32>((*results)[1]), (std::vector<float>{14, 30, 54}));
  // One pass: a single multi-output fusion of both sums, one loop nest.
  const std::vector<FusionInfo> fusions = OptimizedFusions(hlo);
  ASSERT_EQ(fusions.size(), 1u);
  EXPECT_EQ(fusions[0].plan, "reduce-loop");
  EXPECT_EQ(fusions[0].reduces, 2);
}

// Softmax over the rows of f32[R,C]: exp(x - max) is computed once, inside
// the loop of its row sum, which writes it for the division as a second
// output. Expected values are computed in double by the test.
constexpr char kSoftmax[] = R"(
HloModule m
mx {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[R,C] parameter(0)
  ninf = f32[] constant(-inf)
  max = f32[R] reduce(x, ninf), dimensions={1}, to_apply=mx
  maxb = f32[R,C] broadcast(max), dimensions={0}
  d = f32[R,C] subtract(x, maxb)
  ex = f32[R,C] exponential(d)
  z = f32[] constant(0)
  sum = f32[R] reduce(ex, z), dimensions={1}, to_apply=add
  sumb = f32[R,C] broadcast(sum), dimensions={0}
  ROOT y = f32[R,C] divide(ex, sumb)
})";

std::string SoftmaxHlo(int rows, int cols) {
  std::string hlo = kSoftmax;
  for (auto [from, to] : {std::pair<std::string, int>{"R", rows}, {"C", cols}}) {
    for (size_t at; (at = hlo.find(from + "]")) != std::string::npos ||
                    (at = hlo.find(from + ",")) != std::string::npos;) {
      hlo.replace(at, 1, std::to_string(to));
    }
  }
  return hlo;
}

void CheckSoftmax(int rows, int cols, bool hook) {
  const std::string hlo = SoftmaxHlo(rows, cols);
  std::vector<float> x(static_cast<size_t>(rows) * cols);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      x[i * cols + j] = static_cast<float>((i * 7 + j * 13) % 29) / 4.0f - 3.0f;
    }
  }
  HookLog log;
  if (hook) aotc_set_parallel_for(&ThreadedReverseHook, &log);
  auto results =
      CompileAndRun(hlo, {MakeArray<P::kF32>({rows, cols}, x)}, 2, kOptimize);
  if (hook) aotc_set_parallel_for(nullptr, nullptr);
  ASSERT_TRUE(results.ok()) << results.status();
  std::vector<float> y = Values<P::kF32>((*results)[0]);
  for (int i = 0; i < rows; ++i) {
    double max = -INFINITY, sum = 0;
    for (int j = 0; j < cols; ++j) max = std::max<double>(max, x[i * cols + j]);
    for (int j = 0; j < cols; ++j) sum += std::exp(x[i * cols + j] - max);
    for (int j = 0; j < cols; ++j) {
      const double want = std::exp(x[i * cols + j] - max) / sum;
      ASSERT_NEAR(y[i * cols + j], want, 1e-6 * want + 1e-9) << i << "," << j;
    }
  }
  if (hook) {
    // The row maximum and the exp-and-sum loop split their rows; the
    // division splits its rows too.
    EXPECT_EQ(log.calls, 3);
    EXPECT_EQ(log.iterations, 3 * rows);
  }
}

TEST(FusedE2eTest, SoftmaxWritesExpFromTheLoopOfItsSum) {
  CheckSoftmax(3, 5, /*hook=*/false);
  CheckSoftmax(64, 1024, /*hook=*/false);
  // The row maximum, the exp-and-sum loop (the reduce-loop strategy, which
  // writes exp as its element-shaped output) and the division.
  const std::vector<FusionInfo> fusions =
      OptimizedFusions(SoftmaxHlo(64, 1024));
  int exp_and_sum = 0;
  for (const FusionInfo& f : fusions) {
    if (f.plan == "reduce-loop" && f.reduces == 1) ++exp_and_sum;
  }
  EXPECT_EQ(exp_and_sum, 1);
}

TEST(FusedE2eTest, SoftmaxRowsSplitAcrossThreads) {
  CheckSoftmax(64, 1024, /*hook=*/true);
}

TEST(FusedE2eTest, MatrixProductWithBiasAndReluEpilogue) {
  // [[1,2,3],[4,5,6]] x [[7,8],[9,10],[11,12]] = [[58,64],[139,154]];
  // + bias [-60, -150] gives [[-2,-86],[79,4]]; relu [[0,0],[79,4]].
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  w = f32[3,2] parameter(1)
  bias = f32[2] parameter(2)
  d = f32[2,2] dot(a, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[2,2] broadcast(bias), dimensions={1}
  h = f32[2,2] add(d, bb)
  zero = f32[] constant(0)
  z = f32[2,2] broadcast(zero), dimensions={}
  ROOT r = f32[2,2] maximum(h, z)
})";
  for (int opt : {0, 2}) {
    auto results = CompileAndRun(
        hlo,
        {MakeArray<P::kF32>({2, 3}, {1, 2, 3, 4, 5, 6}),
         MakeArray<P::kF32>({3, 2}, {7, 8, 9, 10, 11, 12}),
         MakeArray<P::kF32>({2}, {-60, -150})},
        opt, kOptimize);
    ASSERT_TRUE(results.ok()) << results.status();
    EXPECT_EQ(Values<P::kF32>((*results)[0]),
              (std::vector<float>{0, 0, 79, 4}));
  }
  // The epilogue is fused into the product's row loops.
  const std::vector<FusionInfo> fusions = OptimizedFusions(hlo);
  ASSERT_EQ(fusions.size(), 1u);
  EXPECT_EQ(fusions[0].plan, "row-dot");
}

TEST(FusedE2eTest, LongChainOfDiamondsIsOneLoopAndCompilesQuickly) {
  // Twenty steps r' = (max(r, -100) + min(r, 100)) - r + 0.5, each reading
  // the last r three times at the same index: 3^20 paths from the root to
  // the parameter, one evaluation per element each (the generators are
  // memoized and shared, not copied down every path). The values stay in
  // [0, 100], so each step is r + 0.5, exactly.
  constexpr int kSteps = 20;
  std::string hlo = R"(
HloModule m
ENTRY e {
  r0 = f32[4] parameter(0)
  lo = f32[] constant(-100)
  los = f32[4] broadcast(lo), dimensions={}
  hi = f32[] constant(100)
  his = f32[4] broadcast(hi), dimensions={}
  half = f32[] constant(0.5)
  halfs = f32[4] broadcast(half), dimensions={}
)";
  for (int k = 0; k < kSteps; ++k) {
    const std::string r = "r" + std::to_string(k);
    const std::string n = std::to_string(k);
    hlo += "  mx" + n + " = f32[4] maximum(" + r + ", los)\n";
    hlo += "  mn" + n + " = f32[4] minimum(" + r + ", his)\n";
    hlo += "  s" + n + " = f32[4] add(mx" + n + ", mn" + n + ")\n";
    hlo += "  d" + n + " = f32[4] subtract(s" + n + ", " + r + ")\n";
    hlo += std::string(k + 1 == kSteps ? "  ROOT " : "  ") + "r" +
           std::to_string(k + 1) + " = f32[4] add(d" + n + ", halfs)\n";
  }
  hlo += "}\n";
  auto results = CompileAndRun(
      hlo, {MakeArray<P::kF32>({4}, {0, 0.25, 0.5, 0.75})}, 2, kOptimize);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kF32>((*results)[0]),
            (std::vector<float>{10, 10.25, 10.5, 10.75}));
  const std::vector<FusionInfo> fusions = OptimizedFusions(hlo);
  ASSERT_EQ(fusions.size(), 1u);
  EXPECT_EQ(fusions[0].plan, "element-loops");
}

TEST(FusedE2eTest, MatrixProductWithAColumnMajorRightOperand) {
  // The same product with w given in column-major layout {0,1}: the bytes
  // are w transposed, 7 9 11 8 10 12.
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  w = f32[3,2]{0,1} parameter(1)
  ROOT d = f32[2,2] dot(a, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";
  auto results = CompileAndRun(
      hlo,
      {MakeArray<P::kF32>({2, 3}, {1, 2, 3, 4, 5, 6}),
       MakeArray<P::kF32>({3, 2}, {7, 8, 9, 10, 11, 12})},
      2, kOptimize);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kF32>((*results)[0]),
            (std::vector<float>{58, 64, 139, 154}));
}

}  // namespace
}  // namespace aotc::codegen
