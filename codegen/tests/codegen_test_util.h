// Test utilities for code generation: compile HLO text for this host, link
// the object in memory, run it, and compare with hand-computed values or
// with the reference evaluator.
#ifndef AOTC_CODEGEN_TESTS_CODEGEN_TEST_UTIL_H_
#define AOTC_CODEGEN_TESTS_CODEGEN_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "aotc/runtime.h"

#include "codegen/compile.h"
#include "codegen/strategy.h"
#include "codegen/jit/jit_runner.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/evaluator_test_util.h"
#include "compiler/frontend/load_module.h"
#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/passes/pipelines.h"
#include "compiler/support/status_macros.h"
#include "tools/compare.h"
#include "tools/inputs.h"

namespace aotc::codegen::testing {

using ::aotc::testing::MakeArray;
using ::aotc::testing::Scalar;
using ::aotc::testing::Values;
using ::aotc::testing::Vec;

// A parallel-for hook that runs every chunk of min_chunk iterations on its
// own thread, last chunk first, and counts what it was given.
struct HookLog {
  int calls = 0;
  int64_t iterations = 0;
};

inline void ThreadedReverseHook(void* user_data, aotc_task_fn task,
                                void* context, int64_t count,
                                int64_t min_chunk) {
  auto* log = static_cast<HookLog*>(user_data);
  ++log->calls;
  log->iterations += count;
  std::vector<std::thread> threads;
  for (int64_t begin = (count - 1) / min_chunk * min_chunk; begin >= 0;
       begin -= min_chunk) {
    const int64_t end = std::min(count, begin + min_chunk);
    threads.emplace_back([=] { task(context, begin, end); });
  }
  for (std::thread& t : threads) t.join();
}

// With `optimize`, the module goes through the optimization pipeline
// (fusion included) first, as `aotc compile` does.
inline absl::StatusOr<CompiledModel> CompileText(std::string_view hlo,
                                                 int opt_level = 2,
                                                 bool optimize = false) {
  ASSIGN_OR_RETURN(std::unique_ptr<Module> module,
                   LoadModuleFromString(hlo, "test.hlo"));
  if (optimize) RETURN_IF_ERROR(OptimizeModule(*module, {}).status());
  CompileOptions options;
  options.name = "m";
  options.opt_level = opt_level;
  return CompileModule(*module, options);
}

// The LLVM IR of `module` compiled at -O0, where no loop is unrolled away
// and every loop keeps its name.
inline absl::StatusOr<std::string> UnoptimizedIr(const Module& module) {
  CompileOptions options;
  options.name = "m";
  options.opt_level = 0;
  options.emit_llvm = true;
  ASSIGN_OR_RETURN(CompiledModel compiled, CompileModule(module, options));
  return std::move(compiled.llvm_ir);
}

// Compiles, links and runs; one literal per result leaf.
inline absl::StatusOr<std::vector<Literal>> CompileAndRun(
    std::string_view hlo, const std::vector<Literal>& args,
    int opt_level = 2, bool optimize = false) {
  ASSIGN_OR_RETURN(CompiledModel compiled,
                   CompileText(hlo, opt_level, optimize));
  ASSIGN_OR_RETURN(std::unique_ptr<LoadedModel> loaded,
                   LoadedModel::Load(compiled));
  return loaded->Run(args);
}

// Runs the compiled model at -O0 and -O2 and the reference evaluator (oracle
// mode) on the same arguments; every result must agree within the default
// tolerance plus the oracle's summation bounds (docs/testing.md).
inline void ExpectMatchesEvaluator(std::string_view hlo,
                                   const std::vector<Literal>& args) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto expected = EvaluateOracle(**module, args);
  ASSERT_TRUE(expected.ok()) << expected.status();
  const std::vector<const Literal*> leaves = expected->value.Leaves();
  for (int opt : {0, 2}) {
    SCOPED_TRACE(::testing::Message() << "-O" << opt);
    auto results = CompileAndRun(hlo, args, opt);
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_EQ(results->size(), leaves.size());
    for (size_t k = 0; k < leaves.size(); ++k) {
      const Comparison c = CompareLiterals(
          (*results)[k], *leaves[k],
          DefaultTolerance(leaves[k]->shape().element_type()),
          &expected->bounds[k]);
      EXPECT_TRUE(c.ok()) << "result " << k << ": " << c.mismatches
                          << " mismatches; first " << c.first_mismatch;
    }
  }
}

// Seeded random arguments for the parameters of `entry`, parameter i from
// stream i (tools/inputs.h).
inline std::vector<Literal> RandomArguments(const Computation& entry,
                                            uint64_t seed) {
  std::vector<Literal> args;
  for (size_t i = 0; i < entry.parameters().size(); ++i) {
    args.push_back(RandomLiteral(entry.parameters()[i]->shape(), seed, i));
  }
  return args;
}

// Compiles `hlo` through the optimization pipeline for this host with
// `features` ("-avx512f": vectors of 8 floats instead of 16) and runs it on
// `args`, its parallel loops split over threads (ThreadedReverseHook) when
// `threads` is set.
inline absl::StatusOr<std::vector<Literal>> CompileAndRunWith(
    const std::string& hlo, const std::vector<Literal>& args,
    const std::string& features, bool threads) {
  ASSIGN_OR_RETURN(std::unique_ptr<Module> module,
                   LoadModuleFromString(hlo, "test.hlo"));
  RETURN_IF_ERROR(OptimizeModule(*module, {}).status());
  CompileOptions options;
  options.name = "m";
  options.features = features;
  ASSIGN_OR_RETURN(CompiledModel compiled, CompileModule(*module, options));
  ASSIGN_OR_RETURN(std::unique_ptr<LoadedModel> loaded,
                   LoadedModel::Load(compiled));
  HookLog log;
  if (threads) aotc_set_parallel_for(&ThreadedReverseHook, &log);
  absl::StatusOr<std::vector<Literal>> results = loaded->Run(args);
  if (threads) aotc_set_parallel_for(nullptr, nullptr);
  return results;
}

// Compiles `hlo` through the optimization pipeline and runs it on `args`
// on one thread, split over threads, and with narrower vectors than this
// host's (no AVX-512), calling check(results) for each.
template <typename Check>
void RunOnEveryHostConfig(const std::string& hlo, const std::vector<Literal>& args,
                          Check check) {
  struct Config {
    const char* features;
    bool threads;
  };
  for (const Config& config :
       {Config{"", false}, Config{"", true}, Config{"-avx512f", false}}) {
    SCOPED_TRACE(::testing::Message() << "features '" << config.features
                                      << "', threads " << config.threads);
    auto results =
        CompileAndRunWith(hlo, args, config.features, config.threads);
    ASSERT_TRUE(results.ok()) << results.status();
    check(*results);
  }
}

// `hlo` on `args`, through the optimization pipeline, gives the
// evaluator's result (of the module as read) bit for bit: on one thread
// and split over threads, with this host's vectors and with narrower ones
// (no AVX-512).
inline void ExpectEvaluatorsBits(const std::string& hlo,
                                 const std::vector<Literal>& args) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto expected = EvaluateModule(**module, args);
  ASSERT_TRUE(expected.ok()) << expected.status();
  RunOnEveryHostConfig(hlo, args, [&](const std::vector<Literal>& results) {
    const Comparison c =
        CompareLiterals(results[0], *expected->Leaves()[0], {0, 0});
    EXPECT_TRUE(c.ok()) << c.mismatches << " mismatches; first "
                        << c.first_mismatch;
  });
}

// The strategies code generation plans for the fusions of kind kCustom of
// `hlo`'s optimized entry, in order ("failed" when it does not load or
// optimize, "refused" for a fusion no strategy takes).
inline std::vector<std::string> CustomFusionStrategies(const std::string& hlo) {
  std::vector<std::string> out;
  auto module = LoadModuleFromString(hlo, "test.hlo");
  if (!module.ok() || !OptimizeModule(**module, {}).ok()) return {"failed"};
  for (const auto& inst : (*module)->entry()->instructions()) {
    if (inst->opcode() != Opcode::kFusion ||
        inst->fusion_kind() != FusionKind::kCustom) {
      continue;
    }
    auto plan = PlanInstruction(*inst);
    out.push_back(plan.ok() ? std::string(plan->name) : "refused");
  }
  return out;
}

// `hlo` through the optimization pipeline agrees with the oracle on the
// module as read (its first result, within the default tolerance and the
// oracle's bounds, every element finite), on seeded random arguments, in
// every host configuration above.
inline void ExpectFirstResultMatchesOracle(const std::string& hlo,
                                           uint64_t seed) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  const std::vector<Literal> args = RandomArguments(*(*module)->entry(), seed);
  auto expected = EvaluateOracle(**module, args);
  ASSERT_TRUE(expected.ok()) << expected.status();
  const Literal& want = *expected->value.Leaves()[0];
  RunOnEveryHostConfig(hlo, args, [&](const std::vector<Literal>& results) {
    const Comparison c = CompareLiterals(results[0], want,
                                         DefaultTolerance(want.shape().element_type()),
                                         &expected->bounds[0]);
    EXPECT_TRUE(c.ok()) << c.mismatches << " mismatches; first " << c.first_mismatch
                        << "; at most " << c.max_error_ratio << " of the budget";
    EXPECT_EQ(c.finite, c.elements);
  });
}

// `hlo` optimizes into one kCustom fusion that `strategy` plans, and
// agrees with the oracle (ExpectFirstResultMatchesOracle).
inline void ExpectCustomFusionMatchesOracle(const std::string& hlo,
                                            const std::string& strategy,
                                            uint64_t seed) {
  SCOPED_TRACE(hlo);
  EXPECT_EQ(CustomFusionStrategies(hlo), std::vector<std::string>({strategy}));
  ExpectFirstResultMatchesOracle(hlo, seed);
}

// The first line of the error code generation gives for `hlo` parsed but
// never verified (the verifier would refuse an inconsistent module before
// code generation sees it); empty when it compiles.
inline std::string UnverifiedCompileError(std::string_view hlo) {
  auto module = ParseHloText(hlo, "test.hlo");
  if (!module.ok()) {
    return absl::StrCat("parse error: ", module.status().message());
  }
  CompileOptions options;
  options.name = "m";
  auto compiled = CompileModule(**module, options);
  if (compiled.ok()) return "";
  const std::string message(compiled.status().message());
  return message.substr(0, message.find('\n'));
}

}  // namespace aotc::codegen::testing

#endif  // AOTC_CODEGEN_TESTS_CODEGEN_TEST_UTIL_H_
