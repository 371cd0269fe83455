// End-to-end tests of control flow: a while loop carrying a tuple state and
// a conditional selected by an index and by a pred, compiled for this host,
// run, and checked against values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "codegen/tests/codegen_test_util.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

TEST(ControlFlowE2eTest, WhileLoopWithTupleState) {
  // Sums 1..10 and counts iterations: state (i, acc) until i > 10.
  const char* hlo = R"(
HloModule m
cond {
  s = (s32[], f32[2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  ten = s32[] constant(10)
  ROOT c = pred[] compare(i, ten), direction=LE
}
body {
  s = (s32[], f32[2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  acc = f32[2] get-tuple-element(s), index=1
  one = s32[] constant(1)
  next = s32[] add(i, one)
  fi = f32[] convert(i)
  b = f32[2] broadcast(fi), dimensions={}
  sum = f32[2] add(acc, b)
  ROOT t = (s32[], f32[2]) tuple(next, sum)
}
ENTRY e {
  x = f32[2] parameter(0)
  zero = s32[] constant(1)
  init = (s32[], f32[2]) tuple(zero, x)
  ROOT w = (s32[], f32[2]) while(init), condition=cond, body=body
})";
  auto results = CompileAndRun(hlo, {Vec<P::kF32>({0.5f, -100.0f})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kS32>((*results)[0]), std::vector<int32_t>{11});
  EXPECT_EQ(Values<P::kF32>((*results)[1]), (std::vector<float>{55.5f, -45.0f}));
}

TEST(ControlFlowE2eTest, ConditionalWithIndexAndPred) {
  const char* hlo = R"(
HloModule m
b0 { p = f32[] parameter(0)  ROOT n = f32[] negate(p) }
b1 { p = f32[] parameter(0)  ROOT a = f32[] add(p, p) }
b2 { p = f32[] parameter(0)  ROOT m = f32[] multiply(p, p) }
ENTRY e {
  i = s32[] parameter(0)
  x = f32[] parameter(1)
  ROOT c = f32[] conditional(i, x, x, x), branch_computations={b0, b1, b2}
})";
  for (auto [index, expected] : std::vector<std::pair<int32_t, float>>{
           {0, -3}, {1, 6}, {2, 9}, {7, 9}, {-1, 9}}) {
    auto results =
        CompileAndRun(hlo, {Scalar<P::kS32>(index), Scalar<P::kF32>(3)});
    ASSERT_TRUE(results.ok()) << results.status();
    // Out-of-range indices run the last branch.
    EXPECT_EQ(Values<P::kF32>((*results)[0]), std::vector<float>{expected})
        << "index " << index;
  }
}

}  // namespace
}  // namespace aotc::codegen::testing
