// The evaluator's work budget: estimates per instruction and the located
// error when a model (here an endless loop) exceeds the budget.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/evaluator_plan.h"
#include "compiler/frontend/load_module.h"

namespace aotc {
namespace {

constexpr char kEndless[] = R"(HloModule endless
cond {
  c = s32[] parameter(0)
  ROOT t = pred[] constant(true)
}
body {
  b = s32[] parameter(0)
  one = s32[] constant(1)
  ROOT n = s32[] add(b, one)
}
ENTRY e {
  z = s32[] constant(0)
  ROOT w = s32[] while(z), condition=cond, body=body
}
)";

// The error evaluating kEndless with `options` stops with.
std::string EndlessLoopError(const EvaluateOptions& options) {
  auto module = LoadModuleFromString(kEndless, "endless.hlo");
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return "";
  auto result = EvaluateModule(**module, {}, options);
  EXPECT_FALSE(result.ok());
  return result.ok() ? "" : std::string(result.status().message());
}

TEST(WorkBudgetTest, EndlessLoopStopsWithLocatedError) {
  EvaluateOptions options;
  options.max_work = 1000;
  const std::string error = EndlessLoopError(options);
  // Every instruction of cond and body costs 1; the budget runs out inside
  // the loop, at one of the body's or condition's instructions.
  EXPECT_THAT(error, ::testing::StartsWith("endless.hlo:"));
  EXPECT_THAT(error, ::testing::HasSubstr(
                         ": error: evaluation stopped after 1000 element "
                         "operations, the work budget, at '"));
}

TEST(WorkBudgetTest, EndlessLoopStopsAtTheStepBudget) {
  EvaluateOptions options;
  options.max_steps = 100;
  int64_t taken = -1;
  options.steps_taken = &taken;
  const std::string error = EndlessLoopError(options);
  EXPECT_THAT(error, ::testing::StartsWith("endless.hlo:"));
  EXPECT_THAT(error, ::testing::HasSubstr(
                         ": error: evaluation stopped after 100 instructions, "
                         "the step budget, at '"));
  // The instruction refused is not counted.
  EXPECT_EQ(taken, 100);
}

TEST(WorkBudgetTest, BudgetLargeEnoughLetsModelFinish) {
  auto module = LoadModuleFromString(R"(HloModule m
ENTRY e {
  a = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  b = f32[3,2] constant({{1, 0}, {0, 1}, {1, 1}})
  ROOT d = f32[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)",
                                     "m.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  // a, b: 6 each; dot: 4 outputs x 3 contracted = 12; total 24.
  EvaluateOptions options;
  options.max_work = 24;
  int64_t taken = -1;
  options.steps_taken = &taken;
  auto result = EvaluateModule(**module, {}, options);
  ASSERT_TRUE(result.ok()) << result.status();
  // Three instructions: a, b and d.
  EXPECT_EQ(taken, 3);
  // [[1,2,3],[4,5,6]] x [[1,0],[0,1],[1,1]] = [[4,5],[10,11]].
  EXPECT_EQ(result->Get<float>(0), 4.0f);
  EXPECT_EQ(result->Get<float>(3), 11.0f);
  options.max_work = 23;
  EXPECT_FALSE(EvaluateModule(**module, {}, options).ok());
}

TEST(WorkBudgetTest, Estimates) {
  auto module = LoadModuleFromString(R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT l = pred[] compare(a, b), direction=LT
}
ENTRY e {
  p = f32[8,16] parameter(0)
  z = f32[] constant(0)
  r = f32[8] reduce(p, z), dimensions={1}, to_apply=add
  w = f32[4,8] reduce-window(p, z), window={size=2x2 stride=2x2}, to_apply=add
  ROOT s = f32[8,16] sort(p), dimensions={1}, to_apply=lt
}
)",
                                "m.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  const Computation& entry = *(*module)->entry();
  EXPECT_EQ(eval::EstimateWork(*entry.FindInstruction("r")), 128);     // 8*16 in
  EXPECT_EQ(eval::EstimateWork(*entry.FindInstruction("w")), 32 * 4);  // out*window
  EXPECT_EQ(eval::EstimateWork(*entry.FindInstruction("s")), 128 * 4); // n log2 16
}

}  // namespace
}  // namespace aotc
