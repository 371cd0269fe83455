// Tests of the pass pipeline: order, disabling, callbacks, verification
// after each pass; the registry of pipelines.h (the whole pipeline, a named
// list, unknown names); and the shared rewriting tools.
#include "compiler/passes/pass_pipeline.h"

#include <string>
#include <vector>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/pipelines.h"
#include "compiler/rewrite/ir_rewrite.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ParseVerified;

constexpr char kModule[] = R"(
HloModule m

ENTRY main {
  p = f32[4] parameter(0)
  n = f32[4] negate(p)
  unused = f32[4] exponential(p)
  ROOT a = f32[4] add(n, p)
}
)";

// Records its name in `log` and changes nothing.
class LoggingPass : public Pass {
 public:
  LoggingPass(std::string name, std::vector<std::string>* log)
      : name_(std::move(name)), log_(log) {}
  std::string_view name() const override { return name_; }
  absl::StatusOr<bool> Run(Module&) override {
    log_->push_back(name_);
    return false;
  }

 private:
  std::string name_;
  std::vector<std::string>* log_;
};

// Breaks the module: gives the root a wrong shape.
class BreakingPass : public Pass {
 public:
  std::string_view name() const override { return "breaker"; }
  absl::StatusOr<bool> Run(Module& m) override {
    m.entry()->root()->mutable_shape() = Shape::Array(PrimitiveType::kF32, {5});
    return true;
  }
};

TEST(PassPipelineTest, RunsInOrderSkipsDisabledAndReportsEachPass) {
  std::unique_ptr<Module> m = ParseVerified(kModule);
  ASSERT_NE(m, nullptr);
  std::vector<std::string> log;
  PassPipeline pipeline("test");
  pipeline.AddPass<LoggingPass>("first", &log);
  pipeline.AddPass<LoggingPass>("second", &log);
  pipeline.AddPass<LoggingPass>("third", &log);
  EXPECT_EQ(pipeline.PassNames(),
            (std::vector<std::string>{"first", "second", "third"}));
  std::vector<std::string> seen;
  PipelineOptions options;
  options.disabled = {"second"};
  options.after_pass = [&](std::string_view pass, bool changed,
                           const Module&) {
    seen.emplace_back(pass);
    EXPECT_FALSE(changed);
  };
  absl::StatusOr<bool> changed = pipeline.Run(*m, options);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
  EXPECT_EQ(log, (std::vector<std::string>{"first", "third"}));
  EXPECT_EQ(seen, log);
  ASSERT_EQ(pipeline.timings().size(), 2u);
  EXPECT_EQ(pipeline.timings()[1].pass, "third");
}

TEST(PassPipelineTest, VerifierAfterEachPassNamesTheBrokenPass) {
  std::unique_ptr<Module> m = ParseVerified(kModule);
  ASSERT_NE(m, nullptr);
  PassPipeline pipeline("test");
  pipeline.AddPass<BreakingPass>();
  PipelineOptions options;
  options.verify_after_each = true;
  absl::StatusOr<bool> changed = pipeline.Run(*m, options);
  ASSERT_FALSE(changed.ok());
  EXPECT_EQ(changed.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE(changed.status().message().find(
                "fails verification after pass 'breaker' of pipeline 'test'"),
            std::string_view::npos)
      << changed.status();
}

TEST(PipelinesTest, PassNamesAreTheWholePipelineInOrder) {
  EXPECT_EQ(OptimizationPassNames(),
            (std::vector<std::string>{
                "custom-call-simplifier", "token-elimination",
                "transcendental-expander", "call-inliner", "algsimp",
                "constant-folding", "cse", "dce", "attention-fusion",
                "norm-fusion", "reduction-splitting", "fusion", "multi-output-fusion", "cleanup"}));
  absl::StatusOr<PassPipeline> all =
      BuildPassPipeline(OptimizationPassNames(), /*strict_fp=*/false);
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->PassNames(), OptimizationPassNames());
}

TEST(PipelinesTest, NamedPassesRunExactlyInTheGivenOrder) {
  std::unique_ptr<Module> m = ParseVerified(kModule);
  ASSERT_NE(m, nullptr);
  OptimizeOptions options;
  options.passes = {"dce", "algsimp", "dce"};
  std::vector<std::string> ran;
  options.after_pass = [&](std::string_view pass, bool, const Module&) {
    ran.emplace_back(pass);
  };
  absl::StatusOr<std::vector<PassTiming>> timings =
      OptimizeModule(*m, options);
  ASSERT_TRUE(timings.ok()) << timings.status();
  EXPECT_EQ(ran, options.passes);
  ASSERT_EQ(timings->size(), 3u);
  // The first dce removes the unused exponential; nothing is left for the
  // second.
  EXPECT_TRUE((*timings)[0].changed);
  EXPECT_FALSE((*timings)[2].changed);
  EXPECT_EQ(m->entry()->FindInstruction("unused"), nullptr);
  // Nothing else ran: fusion would have fused the negate into the add.
  EXPECT_NE(m->entry()->FindInstruction("n"), nullptr);
}

TEST(PipelinesTest, UnknownPassNameIsAnErrorListingThePasses) {
  absl::StatusOr<PassPipeline> pipeline =
      BuildPassPipeline({"dce", "bogus"}, /*strict_fp=*/false);
  ASSERT_FALSE(pipeline.ok());
  EXPECT_EQ(pipeline.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(pipeline.status().message().find(
                "unknown pass 'bogus' (passes: custom-call-simplifier, "),
            std::string_view::npos)
      << pipeline.status();
  std::unique_ptr<Module> m = ParseVerified(kModule);
  ASSERT_NE(m, nullptr);
  OptimizeOptions options;
  options.disabled = {"bogus"};
  EXPECT_EQ(OptimizeModule(*m, options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(IrRewriteTest, RemoveDeadInstructionsKeepsParametersAndRoot) {
  std::unique_ptr<Module> m = ParseVerified(kModule);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(RemoveDeadInstructions(*m->entry()));
  EXPECT_EQ(m->entry()->FindInstruction("unused"), nullptr);
  EXPECT_EQ(m->entry()->instruction_count(), 3);
  EXPECT_FALSE(RemoveDeadInstructions(*m->entry()));
  EXPECT_TRUE(VerifyModule(*m).ok());
}

TEST(IrRewriteTest, SortTopologicallyMovesAppendedUsersAfterOperands) {
  std::unique_ptr<Module> m = ParseVerified(kModule);
  ASSERT_NE(m, nullptr);
  Computation& entry = *m->entry();
  Instruction* n = entry.FindInstruction("n");
  Instruction* a = entry.root();
  // A new producer appended at the end, then used by an earlier instruction.
  Instruction* abs = entry.AddInstruction(Instruction::Create(
      Opcode::kAbs, "abs", n->shape(), {entry.parameter(0)}));
  a->ReplaceOperand(1, abs);
  EXPECT_FALSE(VerifyModule(*m).ok());
  entry.SortTopologically();
  EXPECT_TRUE(VerifyModule(*m).ok()) << PrintModule(*m);
  std::vector<std::string> order;
  for (const auto& inst : entry.instructions()) order.push_back(inst->name());
  EXPECT_EQ(order,
            (std::vector<std::string>{"p", "n", "unused", "abs", "a"}));
}

TEST(IrRewriteTest, NameUniquerAvoidsEveryExistingName) {
  std::unique_ptr<Module> m = ParseVerified(kModule);
  ASSERT_NE(m, nullptr);
  NameUniquer names(*m);
  EXPECT_EQ(names.Unique("fusion"), "fusion");
  EXPECT_EQ(names.Unique("fusion"), "fusion.1");
  EXPECT_EQ(names.Unique("n"), "n.1");
  EXPECT_EQ(names.Unique("main"), "main.1");
}

}  // namespace
}  // namespace aotc
