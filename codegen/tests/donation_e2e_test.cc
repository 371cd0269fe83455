// Buffer donation (input_output_alias) end to end: donated results come back
// in their arguments' buffers with the evaluator's values, a small
// dynamic-update-slice into a donated cache writes only the update, and a
// donated result that something still reads is computed aside and copied
// last.
#include <sys/mman.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "codegen/strategy.h"
#include "codegen/tests/codegen_test_util.h"
#include "compiler/analysis/buffer_assignment.h"
#include "gtest/gtest.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

// One step of a decoder's cache: row `pos` of the donated cache becomes 2x.
constexpr char kCacheStep[] = R"(
HloModule cache_step, input_output_alias={ {1}: (1, {}, must-alias) }

ENTRY main {
  x = f32[1,1024] parameter(0)
  cache = f32[256,1024] parameter(1)
  pos = s32[] parameter(2)
  two = f32[] constant(2)
  twos = f32[1,1024] broadcast(two), dimensions={}
  row = f32[1,1024] multiply(x, twos)
  three = f32[] constant(3)
  threes = f32[1,1024] broadcast(three), dimensions={}
  other = f32[1,1024] multiply(x, threes)
  zero = s32[] constant(0)
  new = f32[256,1024] dynamic-update-slice(cache, row, pos, zero)
  ROOT t = (f32[1,1024], f32[256,1024]) tuple(other, new)
}
)";

Literal Filled(const Shape& shape, float start, float step) {
  Literal l(shape);
  auto d = l.mutable_data<float>();
  for (size_t i = 0; i < d.size(); ++i) {
    d[i] = start + step * static_cast<float>(i % 1000);
  }
  return l;
}

TEST(DonationE2eTest, CacheStepMatchesEvaluator) {
  ExpectMatchesEvaluator(kCacheStep,
                         {Filled(Shape::Array(P::kF32, {1, 1024}), 1, 0.5f),
                          Filled(Shape::Array(P::kF32, {256, 1024}), -3, 0.25f),
                          Scalar<P::kS32>(77)});
  // Out of range: the start is clamped to the last row (255).
  ExpectMatchesEvaluator(kCacheStep,
                         {Filled(Shape::Array(P::kF32, {1, 1024}), 1, 0.5f),
                          Filled(Shape::Array(P::kF32, {256, 1024}), -3, 0.25f),
                          Scalar<P::kS32>(1000)});
}

// The cache is mapped read-only except the page of the row the step
// updates (row 100: exactly page 100, 4096 bytes of f32[1024]); any write
// elsewhere, such as copying the cache onto itself, faults.
TEST(DonationE2eTest, CacheStepWritesOnlyTheUpdatedRow) {
  absl::StatusOr<CompiledModel> compiled = CompileText(kCacheStep, 2, true);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  ASSERT_EQ(compiled->signature.results[1].aliased, 1);
  ASSERT_EQ(compiled->signature.args[1].aliased, 1);
  auto loaded = LoadedModel::Load(*compiled);
  ASSERT_TRUE(loaded.ok()) << loaded.status();

  constexpr size_t kPage = 4096, kRows = 256;
  void* map = mmap(nullptr, kRows * kPage, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  float* cache = static_cast<float*>(map);
  for (size_t i = 0; i < kRows * 1024; ++i) cache[i] = 0.5f;
  std::vector<float> x(1024), other(1024);
  for (int i = 0; i < 1024; ++i) x[i] = static_cast<float>(i);
  const int32_t pos = 100;
  ASSERT_EQ(mprotect(map, kRows * kPage, PROT_READ), 0);
  ASSERT_EQ(mprotect(static_cast<char*>(map) + pos * kPage, kPage,
                     PROT_READ | PROT_WRITE),
            0);
  auto temp = LoadedModel::AllocateBuffer(compiled->signature.temp_bytes);
  ASSERT_TRUE(temp.ok());
  const void* args[] = {x.data(), cache, &pos};
  void* results[] = {other.data(), nullptr};  // result 1 lives in the cache
  EXPECT_EQ((*loaded)->RunPacked(args, results, temp->get()), 0);
  EXPECT_EQ(cache[pos * 1024 + 7], 14.0f);
  EXPECT_EQ(cache[pos * 1024 + 1023], 2046.0f);
  EXPECT_EQ(cache[(pos - 1) * 1024 + 7], 0.5f);
  EXPECT_EQ(cache[(pos + 1) * 1024], 0.5f);
  EXPECT_EQ(other[5], 15.0f);
  munmap(map, kRows * kPage);
}

// c is donated to `inc` but read afterwards (by `later` and by result 3);
// d is donated to a reverse of itself, which reads it out of order. Both
// must be computed aside and copied last.
constexpr char kHazards[] = R"(
HloModule hazards, input_output_alias={ {0}: (0, {}), {2}: (1, {}) }

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  c = f32[4,4] parameter(0)
  d = f32[4,4] parameter(1)
  one = f32[] constant(1)
  ones = f32[4,4] broadcast(one), dimensions={}
  inc = f32[4,4] add(c, ones)
  z = f32[] constant(0)
  later = f32[] reduce(c, z), dimensions={0,1}, to_apply=add
  rev = f32[4,4] reverse(d), dimensions={0}
  ROOT t = (f32[4,4], f32[], f32[4,4], f32[4,4]) tuple(inc, later, rev, c)
}
)";

TEST(DonationE2eTest, DonatedResultsStillReadAreCopiedLast) {
  std::vector<float> c(16), d(16);
  for (int i = 0; i < 16; ++i) {
    c[i] = static_cast<float>(i);  // sum 120
    d[i] = static_cast<float>(100 + i);
  }
  auto square = [](const std::vector<float>& v) {
    Literal l(Shape::Array(P::kF32, {4, 4}));
    std::memcpy(l.mutable_raw(), v.data(), v.size() * sizeof(float));
    return l;
  };
  auto results = CompileAndRun(kHazards, {square(c), square(d)});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kF32>((*results)[0])[5], 6.0f);     // c + 1
  EXPECT_EQ(Values<P::kF32>((*results)[1])[0], 120.0f);   // sum of c
  EXPECT_EQ(Values<P::kF32>((*results)[2])[0], 112.0f);   // d row 3
  EXPECT_EQ(Values<P::kF32>((*results)[2])[12], 100.0f);  // d row 0
  EXPECT_EQ(Values<P::kF32>((*results)[3])[5], 5.0f);     // c unchanged
  // The plan: neither donated result is written in place.
  auto module = LoadModuleFromString(kHazards, "test.hlo");
  ASSERT_TRUE(module.ok());
  const BufferPlan plan = AssignBuffers(*(*module)->entry());
  EXPECT_EQ(plan.donated, (std::vector<int>{0, -1, 1, -1}));
  for (const auto& [inst, res] : plan.result_index) {
    for (int r : res) EXPECT_TRUE(r != 0 && r != 2) << inst->name();
  }
}

TEST(DonationE2eTest, ElementwiseUpdateOfTheLastReaderIsWrittenInPlace) {
  constexpr char kInPlace[] = R"(
HloModule in_place, input_output_alias={ {}: (0, {}) }
ENTRY main {
  c = f32[8] parameter(0)
  s = f32[8] parameter(1)
  ROOT n = f32[8] multiply(c, s)
})";
  auto module = LoadModuleFromString(kInPlace, "test.hlo");
  ASSERT_TRUE(module.ok());
  const BufferPlan plan = AssignBuffers(*(*module)->entry());
  const Instruction* n = (*module)->entry()->root();
  EXPECT_EQ(plan.result_index.at(n), (std::vector<int>{0}));
  ExpectMatchesEvaluator(kInPlace,
                         {Vec<P::kF32>({1, 2, 3, 4, 5, 6, 7, 8}),
                          Vec<P::kF32>({2, 2, 2, 2, -1, -1, 0, 0.5})});
}

TEST(DonationE2eTest, ExchangingDonatedBuffersIsRefused) {
  constexpr char kSwap[] = R"(
HloModule swap, input_output_alias={ {0}: (0, {}), {1}: (1, {}) }
ENTRY main {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT t = (f32[4], f32[4]) tuple(b, a)
})";
  auto compiled = CompileText(kSwap);
  ASSERT_FALSE(compiled.ok());
  EXPECT_NE(std::string(compiled.status().message())
                .find("exchanging donated buffers is not supported"),
            std::string::npos)
      << compiled.status();
}

TEST(DonationE2eTest, SmallDynamicUpdateSliceHasItsOwnStrategy) {
  auto module = LoadModuleFromString(kCacheStep, "test.hlo");
  ASSERT_TRUE(module.ok());
  const Instruction* dus = (*module)->entry()->FindInstruction("new");
  ASSERT_NE(dus, nullptr);
  auto plan = PlanInstruction(*dus);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->name, "dynamic-update-slice");
}

}  // namespace
}  // namespace aotc::codegen::testing
