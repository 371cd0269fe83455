// Compiled code stays inside its buffers whatever the indices: extreme
// start indices of dynamic-slice and dynamic-update-slice are clamped exactly
// as HLO defines them (gather's clamping is tested in gather_e2e_test.cc,
// scatter's skipping of windows outside the operand in scatter_e2e_test.cc).
// The models run in buffers that end at guard pages (jit_runner.h), so an
// access past a buffer faults instead of passing.
// Expected values are computed by hand; each model is also compared with the
// reference evaluator, fused and unfused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "codegen/jit/jit_runner.h"
#include "codegen/tests/codegen_test_util.h"

namespace aotc::codegen {
namespace {

using P = PrimitiveType;
using testing::CompileAndRun;
using testing::ExpectMatchesEvaluator;
using testing::MakeArray;
using testing::Scalar;
using testing::Values;

constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();

// x[i][j] = 10 i + j over f32[8,6].
std::vector<float> Grid() {
  std::vector<float> x(48);
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 6; ++j) x[i * 6 + j] = 10.0f * i + j;
  }
  return x;
}

// Runs `hlo` unfused and fused and checks `check` on the first result of
// each, then compares with the evaluator.
template <typename Check>
void RunBoth(const char* hlo, const std::vector<Literal>& args, Check check) {
  for (bool optimize : {false, true}) {
    SCOPED_TRACE(optimize ? "optimized" : "as read");
    auto results = CompileAndRun(hlo, args, 2, optimize);
    ASSERT_TRUE(results.ok()) << results.status();
    check((*results)[0]);
  }
  ExpectMatchesEvaluator(hlo, args);
}

TEST(BoundsE2eTest, BuffersEndAtAGuardPage) {
  // 100 bytes round up to 128: bytes 0..127 are usable, byte 128 and the
  // page before the buffer's first page are not.
  auto buffer = LoadedModel::AllocateBuffer(100);
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  volatile char* p = buffer->get();
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer->get()) % 64, 0u);
  p[0] = 1;
  p[127] = 1;
  EXPECT_EQ(p[0] + p[127], 2);
  EXPECT_DEATH(p[128] = 1, "");
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  volatile char* before = reinterpret_cast<volatile char*>(
      (reinterpret_cast<uintptr_t>(buffer->get()) & ~(page - 1)) - 1);
  EXPECT_DEATH(*before = 1, "");
  auto empty = LoadedModel::AllocateBuffer(0);
  ASSERT_TRUE(empty.ok()) << empty.status();
  volatile char* q = empty->get();
  EXPECT_DEATH(q[0] = 1, "");
}

TEST(BoundsE2eTest, DynamicSliceClampsExtremeStarts) {
  // Starts (INT32_MAX, INT32_MIN) clamp to (8 - 3, 0): rows 5-7, columns 0-1.
  const char* hlo = R"(
HloModule m
ENTRY e {
  x = f32[8,6] parameter(0)
  i = s32[] parameter(1)
  j = s32[] parameter(2)
  n = f32[8,6] negate(x)
  ROOT d = f32[3,2] dynamic-slice(n, i, j), dynamic_slice_sizes={3,2}
})";
  RunBoth(hlo,
          {MakeArray<P::kF32>({8, 6}, Grid()), Scalar<P::kS32>(kMax),
           Scalar<P::kS32>(kMin)},
          [](const Literal& r) {
            EXPECT_EQ(Values<P::kF32>(r),
                      (std::vector<float>{-50, -51, -60, -61, -70, -71}));
          });
}

TEST(BoundsE2eTest, DynamicUpdateSliceClampsExtremeStarts) {
  // Starts (INT32_MIN, INT32_MAX) clamp to (0, 6 - 2): the update lands on
  // rows 0-2, columns 4-5; everything else is x + 1.
  const char* hlo = R"(
HloModule m
ENTRY e {
  x = f32[8,6] parameter(0)
  u = f32[3,2] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  one = f32[] constant(1)
  ones = f32[8,6] broadcast(one), dimensions={}
  y = f32[8,6] add(x, ones)
  ROOT d = f32[8,6] dynamic-update-slice(y, u, i, j)
})";
  std::vector<float> want = Grid();
  for (float& v : want) v += 1;
  const std::vector<float> update = {-1, -2, -3, -4, -5, -6};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 2; ++c) want[r * 6 + 4 + c] = update[r * 2 + c];
  }
  RunBoth(hlo,
          {MakeArray<P::kF32>({8, 6}, Grid()),
           MakeArray<P::kF32>({3, 2}, update), Scalar<P::kS32>(kMin),
           Scalar<P::kS32>(kMax)},
          [&](const Literal& r) { EXPECT_EQ(Values<P::kF32>(r), want); });
}

}  // namespace
}  // namespace aotc::codegen
