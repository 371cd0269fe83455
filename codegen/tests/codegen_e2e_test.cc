// End-to-end tests of code generation as a whole: the running example and a
// dot against hand-computed values, random modules against the reference
// evaluator at -O0 and -O2, loops run through the parallel-for hook, located
// refusals, one function per loop nest in large computations, and
// deterministic objects. The tests of one subject each are beside this file
// (scalar semantics, movement, control flow, fusion, sort, ...).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <thread>

#include "aotc/runtime.h"
#include "codegen/tests/codegen_test_util.h"
#include "tools/inputs.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

std::vector<Literal> RandomArgs(std::string_view hlo, uint64_t seed = 7) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.status();
  std::vector<Literal> args;
  int k = 0;
  for (const Instruction* p : (*module)->entry()->parameters()) {
    args.push_back(RandomLiteral(p->shape(), seed, k++));
  }
  return args;
}

TEST(CodegenE2eTest, RunningExampleSmall) {
  // mean(x**2 * 3 + y) over 2x2: x = {1,2,3,4}, y = {1,1,1,1}:
  // (3*1+1 + 3*4+1 + 3*9+1 + 3*16+1) / 4 = (4 + 13 + 28 + 49) / 4 = 23.5.
  const char* hlo = R"(
HloModule m
sum { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  x = f32[2,2] parameter(0)
  y = f32[2,2] parameter(1)
  sq = f32[2,2] multiply(x, x)
  three = f32[] constant(3)
  b3 = f32[2,2] broadcast(three), dimensions={}
  m3 = f32[2,2] multiply(sq, b3)
  a = f32[2,2] add(m3, y)
  zero = f32[] constant(0)
  r = f32[] reduce(a, zero), dimensions={0,1}, to_apply=sum
  n = f32[] constant(4)
  ROOT d = f32[] divide(r, n)
})";
  auto results = CompileAndRun(hlo, {MakeArray<P::kF32>({2, 2}, {1, 2, 3, 4}),
                                     MakeArray<P::kF32>({2, 2}, {1, 1, 1, 1})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kF32>((*results)[0]), std::vector<float>{23.5f});
}

TEST(CodegenE2eTest, DotMatchesHandComputation) {
  const char* hlo = R"(
HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[3,2] parameter(1)
  ROOT d = f32[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";
  auto results =
      CompileAndRun(hlo, {MakeArray<P::kF32>({2, 3}, {1, 2, 3, 4, 5, 6}),
                          MakeArray<P::kF32>({3, 2}, {7, 8, 9, 10, 11, 12})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kF32>((*results)[0]),
            (std::vector<float>{58, 64, 139, 154}));
}

TEST(CodegenE2eTest, RandomCasesMatchTheEvaluator) {
  const std::vector<std::string> modules = {
      R"(HloModule m
ENTRY e {
  a = f32[3,4,5] parameter(0)
  b = f32[3,5,2] parameter(1)
  ROOT d = f32[3,4,2] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
})",
      R"(HloModule m
mx { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT m = f32[] maximum(a, b) }
ENTRY e {
  x = f32[1,7,9,3] parameter(0)
  ninf = f32[] constant(-inf)
  ROOT r = f32[1,4,5,3] reduce-window(x, ninf), window={size=1x3x3x1 stride=1x2x2x1 pad=0_0x1_1x1_1x0_0}, to_apply=mx
})",
      R"(HloModule m
sum { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  x = f32[4,6] parameter(0)
  zero = f32[] constant(0)
  ROOT r = f32[7,7] reduce-window(x, zero), window={size=2x2 stride=1x1 pad=1_1x1_1 lhs_dilate=2x1 rhs_dilate=2x1}, to_apply=sum
})",
      R"(HloModule m
argmax {
  a = f32[] parameter(0)  ai = s32[] parameter(1)
  b = f32[] parameter(2)  bi = s32[] parameter(3)
  gt = pred[] compare(a, b), direction=GE
  v = f32[] select(gt, a, b)
  i = s32[] select(gt, ai, bi)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  x = f32[5,8] parameter(0)
  idx = s32[5,8] iota(), iota_dimension=1
  ninf = f32[] constant(-inf)
  z = s32[] constant(0)
  ROOT r = (f32[5], s32[5]) reduce(x, idx, ninf, z), dimensions={1}, to_apply=argmax
})",
      R"(HloModule m
ENTRY e {
  x = bf16[16] parameter(0)
  y = bf16[16] parameter(1)
  m = bf16[16] multiply(x, y)
  e = bf16[16] exponential(m)
  t = bf16[16] tanh(e)
  ROOT c = f32[16] convert(t)
})",
      R"(HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  x = f32[6,4] parameter(0)
  ROOT m = f32[6,4] map(x, x), dimensions={0,1}, to_apply=add
})",
      R"(HloModule m
fused {
  p0 = f32[8,8] parameter(0)
  p1 = f32[8] parameter(1)
  b = f32[8,8] broadcast(p1), dimensions={1}
  m = f32[8,8] multiply(p0, b)
  ROOT t = f32[8,8] transpose(m), dimensions={1,0}
}
ENTRY e {
  x = f32[8,8] parameter(0)
  y = f32[8] parameter(1)
  ROOT f = f32[8,8] fusion(x, y), kind=kLoop, calls=fused
})",
      R"(HloModule m
inner {
  a = f32[8] parameter(0)
  ROOT n = f32[8] negate(a)
}
outer {
  p = f32[8] parameter(0)
  f = f32[8] fusion(p), kind=kLoop, calls=inner
  ROOT m = f32[8] multiply(f, p)
}
ENTRY e {
  x = f32[8] parameter(0)
  ROOT f = f32[8] fusion(x), kind=kLoop, calls=outer
})",
      R"(HloModule m
ENTRY e {
  x = s64[3,4] parameter(0)
  y = u32[3,4] parameter(1)
  a = s64[3,4] abs(x)
  c = u32[3,4] count-leading-zeros(y)
  p = u32[3,4] popcnt(y)
  s = s64[3,4] sign(x)
  ROOT t = (s64[3,4], u32[3,4], u32[3,4], s64[3,4]) tuple(a, c, p, s)
})",
  };
  for (const std::string& hlo : modules) {
    SCOPED_TRACE(hlo);
    ExpectMatchesEvaluator(hlo, RandomArgs(hlo));
  }
}

TEST(CodegenE2eTest, LargeLoopsRunThroughTheParallelForHook) {
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[512,256] parameter(0)
  two = f32[] constant(2)
  b = f32[512,256] broadcast(two), dimensions={}
  m = f32[512,256] multiply(x, b)
  t = f32[256,512] transpose(m), dimensions={1,0}
  ROOT n = f32[256,512] negate(t)
})";
  Literal x(Shape::Array(P::kF32, {512, 256}));
  auto data = x.mutable_data<float>();
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i % 1000);
  HookLog log;
  aotc_set_parallel_for(&ThreadedReverseHook, &log);
  auto results = CompileAndRun(hlo, {x});
  aotc_set_parallel_for(nullptr, nullptr);
  ASSERT_TRUE(results.ok()) << results.status();
  // broadcast, multiply, transpose and negate each have 131072 elements:
  // four parallel loops, over 512, 512, 256 and 256 outermost rows.
  EXPECT_EQ(log.calls, 4);
  EXPECT_EQ(log.iterations, 512 + 512 + 256 + 256);
  std::vector<float> out = Values<P::kF32>((*results)[0]);
  for (int i = 0; i < 256; ++i) {
    for (int j = 0; j < 512; ++j) {
      ASSERT_EQ(out[i * 512 + j], -2.0f * static_cast<float>((j * 256 + i) % 1000))
          << i << "," << j;
    }
  }
}

TEST(CodegenE2eTest, ABatchOfOneSplitsItsNextDimension) {
  // A batch of one (NHWC activations of one image) splits the first
  // dimension with more than one element: the negate's 256 rows and the
  // reduce's 512 outputs, each loop run in reverse chunks on threads.
  const char* hlo = R"(HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }
ENTRY e {
  x = f32[1,256,512] parameter(0)
  n = f32[1,256,512] negate(x)
  y = f32[1,512,256] parameter(1)
  zero = f32[] constant(0)
  r = f32[1,512] reduce(y, zero), dimensions={2}, to_apply=add
  ROOT t = (f32[1,256,512], f32[1,512]) tuple(n, r)
})";
  Literal x(Shape::Array(P::kF32, {1, 256, 512}));
  auto xs = x.mutable_data<float>();
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(i % 1000);
  // Row i of y holds 256 copies of i: its sum, 256 i, is exact.
  Literal y(Shape::Array(P::kF32, {1, 512, 256}));
  auto ys = y.mutable_data<float>();
  for (size_t i = 0; i < ys.size(); ++i) ys[i] = static_cast<float>(i / 256);
  HookLog log;
  aotc_set_parallel_for(&ThreadedReverseHook, &log);
  auto results = CompileAndRun(hlo, {x, y});
  aotc_set_parallel_for(nullptr, nullptr);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(log.calls, 2);
  EXPECT_EQ(log.iterations, 256 + 512);
  std::vector<float> n = Values<P::kF32>((*results)[0]);
  for (size_t i = 0; i < n.size(); ++i) {
    ASSERT_EQ(n[i], -static_cast<float>(i % 1000)) << i;
  }
  std::vector<float> r = Values<P::kF32>((*results)[1]);
  for (int i = 0; i < 512; ++i) ASSERT_EQ(r[i], 256.0f * i) << i;
}

TEST(CodegenE2eTest, UnsupportedOpsAreRefusedWithTheirLocation) {
  const char* hlo = R"(HloModule m
sum { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = f32[] add(a, b) }
ENTRY e {
  x = f32[4] parameter(0)
  ROOT s = f32[4] all-reduce(x), to_apply=sum
})";
  auto compiled = CompileText(hlo);
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(std::string(compiled.status().message()),
            "test.hlo:5:8: error: 'all-reduce' is not supported yet by code "
            "generation\n"
            "  ROOT s = f32[4] all-reduce(x), to_apply=sum\n"
            "       ^");
}

TEST(CodegenE2eTest, LargeComputationsEmitEachLoopNestAsAFunction) {
  // 70 adds of 1 in a chain, unfused: more instructions with buffers of
  // their own than a computation keeps inline, so each gets a function of
  // its own; the result is still x + 70.
  std::string hlo = "HloModule m\nENTRY e {\n  v0 = f32[4] parameter(0)\n"
                    "  one = f32[4] constant({1, 1, 1, 1})\n";
  for (int i = 1; i <= 70; ++i) {
    hlo += "  v" + std::to_string(i) + " = f32[4] add(v" + std::to_string(i - 1) +
           ", one)\n";
  }
  hlo += "  ROOT r = f32[4] negate(v70)\n}\n";
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  CompileOptions options;
  options.name = "m";
  options.emit_llvm = true;
  auto compiled = CompileModule(**module, options);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  EXPECT_NE(compiled->llvm_ir.find(".loops.v70"), std::string::npos);
  auto loaded = LoadedModel::Load(*compiled);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  auto r = (*loaded)->Run({Vec<P::kF32>({0, 1, -70, 2.5f})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<P::kF32>((*r)[0]), (std::vector<float>{-70, -71, 0, -72.5f}));
  // A small computation keeps its loops inline.
  auto small_module = LoadModuleFromString(R"(HloModule m
ENTRY e { x = f32[4] parameter(0)  ROOT y = f32[4] negate(x) })",
                                           "small.hlo");
  ASSERT_TRUE(small_module.ok()) << small_module.status();
  auto small = CompileModule(**small_module, options);
  ASSERT_TRUE(small.ok()) << small.status();
  EXPECT_EQ(small->llvm_ir.find(".loops."), std::string::npos);
}

TEST(CodegenE2eTest, ObjectIsDeterministic) {
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[64] parameter(0)
  c = f32[64] constant({1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8})
  ROOT a = f32[64] add(x, c)
})";
  auto first = CompileText(hlo);
  auto second = CompileText(hlo);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->object, second->object);
  EXPECT_EQ(first->header, second->header);
  EXPECT_EQ(first->json, second->json);
}

}  // namespace
}  // namespace aotc::codegen::testing
