// End to end over the shared corpus: every module whose operations code
// generation supports goes through the optimization pipeline (fusion
// included), is compiled for this host, linked in memory, run on seeded
// random inputs and compared with the reference evaluator running the
// module as read. Every third one (of moderate size) is also compiled with
// --no-fusion and the two compiled results are compared.
//
// Inputs are domain-safe: when a module takes logarithms, square roots or
// powers, float inputs are made positive (|x| + 0.5), so that results are
// numbers rather than NaN, which would match trivially. Modules whose
// evaluation exceeds the work budget are compiled but not compared (the
// oracle cannot afford them); unsupported modules are listed with the first
// operation that stops them. Any mismatch, compile error on a supported
// module, or crash fails the test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "codegen/compile.h"
#include "codegen/jit_runner.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/load_module.h"
#include "compiler/ir/native_type.h"
#include "compiler/passes/pipelines.h"
#include "compiler/support/file_io.h"
#include "tests/corpus/corpus_files.h"
#include "tools/compare.h"
#include "tools/inputs.h"

namespace aotc {
namespace {

constexpr int64_t kWorkBudget = 200'000'000;
// Modules whose entry values would exceed this are compiled but not run.
constexpr int64_t kMaxRunBytes = int64_t{1} << 30;
// Every kUnfusedStride-th supported module with at most
// kMaxUnfusedInstructions instructions is also compiled without fusion
// (unfused, the largest corpus module takes minutes to compile).
constexpr int kUnfusedStride = 3;
constexpr int64_t kMaxUnfusedInstructions = 2000;

std::string FirstLine(std::string_view message) {
  return std::string(message.substr(0, message.find('\n')));
}

bool NeedsPositiveInputs(const Module& module) {
  for (const auto& comp : module.computations()) {
    for (const auto& inst : comp->instructions()) {
      switch (inst->opcode()) {
        case Opcode::kLog:
        case Opcode::kLog1p:
        case Opcode::kSqrt:
        case Opcode::kRsqrt:
        case Opcode::kPower:
          return true;
        default:
          break;
      }
    }
  }
  return false;
}

void MakePositive(Literal* literal) {
  const PrimitiveType type = literal->shape().element_type();
  if (!IsFloat(type)) return;
  DispatchComputableType(type, [&]<PrimitiveType P>() {
    using C = NativeType<P>;
    if constexpr (std::is_floating_point_v<C>) {
      for (C& v : literal->mutable_data<C>()) v = std::fabs(v) + C(0.5);
    } else if constexpr (std::is_same_v<C, Half> ||
                         std::is_same_v<C, BFloat16>) {
      for (C& v : literal->mutable_data<C>()) {
        v = C(std::fabs(static_cast<float>(v)) + 0.5f);
      }
    }
  });
}

TEST(CorpusCodegenTest, SupportedModulesCompileAndMatchTheEvaluator) {
  const std::vector<std::filesystem::path> files = CorpusFiles();
  ASSERT_EQ(static_cast<int>(files.size()), kCorpusModules)
      << "corpus at " << AOTC_CORPUS_DIR << " is missing or incomplete";
  int supported = 0, matched = 0, compared_unfused = 0;
  std::map<std::string, std::string> unsupported, unchecked;
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    SCOPED_TRACE(name);
    auto text = ReadFile(path.string());
    ASSERT_TRUE(text.ok()) << text.status();
    auto module = LoadModuleFromString(*text, name);
    ASSERT_TRUE(module.ok()) << module.status();
    if (absl::Status st = codegen::CheckSupported(**module); !st.ok()) {
      unsupported[name] = FirstLine(std::string(st.message()));
      continue;
    }
    ++supported;
    // The evaluator runs the module as read; the compiled one went through
    // the whole optimization pipeline (fusion included).
    auto optimized = LoadModuleFromString(*text, name);
    ASSERT_TRUE(optimized.ok()) << optimized.status();
    auto timings = OptimizeModule(**optimized, {});
    if (!timings.ok()) {
      ADD_FAILURE() << name << ": the optimization passes failed: "
                    << timings.status();
      continue;
    }
    codegen::CompileOptions options;
    options.name = "model";
    auto compiled = codegen::CompileModule(**optimized, options);
    if (!compiled.ok()) {
      ADD_FAILURE() << name << " does not compile: " << compiled.status();
      continue;
    }
    // The evaluator keeps every value of the entry; the unfused code needs
    // scratch for each of them too.
    int64_t bytes = 0;
    for (const auto& inst : (*module)->entry()->instructions()) {
      for (const Shape* leaf : inst->shape().Leaves()) {
        if (leaf->IsArray()) bytes += leaf->ByteSize();
      }
    }
    if (bytes > kMaxRunBytes) {
      unchecked[name] = "buffers larger than 1 GiB";
      continue;
    }
    InputOptions inputs;
    inputs.random_seed = 1;
    auto args = BindInputs(*(*module)->entry(), inputs);
    ASSERT_TRUE(args.ok()) << args.status();
    if (NeedsPositiveInputs(**module)) {
      for (Literal& a : *args) MakePositive(&a);
    }
    EvaluateOptions eval_options;
    eval_options.max_work = kWorkBudget;
    auto expected = EvaluateModule(**module, *args, eval_options);
    if (!expected.ok()) {
      const std::string message = FirstLine(std::string(expected.status().message()));
      if (message.find("evaluation stopped after") == std::string::npos) {
        ADD_FAILURE() << name << ": the evaluator failed: " << message;
      } else {
        unchecked[name] = "beyond the evaluator's work budget";
      }
      continue;
    }
    auto loaded = codegen::LoadedModel::Load(*compiled);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    auto results = (*loaded)->Run(*args);
    if (!results.ok()) {
      ADD_FAILURE() << name << ": " << results.status();
      continue;
    }
    const std::vector<const Literal*> leaves = expected->Leaves();
    ASSERT_EQ(leaves.size(), results->size());
    bool ok = true;
    for (size_t k = 0; k < leaves.size(); ++k) {
      const Comparison c = CompareLiterals(
          (*results)[k], *leaves[k],
          DefaultTolerance(leaves[k]->shape().element_type()));
      if (!c.ok()) {
        ADD_FAILURE() << name << " result " << k << ": " << c.mismatches
                      << " of " << c.elements << " elements differ; first "
                      << c.first_mismatch;
        ok = false;
      }
    }
    // Every few modules, the unfused pipeline too: fused and unfused code
    // must agree within the same tolerance.
    if (ok && supported % kUnfusedStride == 0 &&
        (*module)->instruction_count() <= kMaxUnfusedInstructions) {
      auto unfused = LoadModuleFromString(*text, name);
      ASSERT_TRUE(unfused.ok()) << unfused.status();
      OptimizeOptions no_fusion;
      no_fusion.fusion = false;
      ASSERT_TRUE(OptimizeModule(**unfused, no_fusion).ok());
      auto unfused_compiled = codegen::CompileModule(**unfused, options);
      ASSERT_TRUE(unfused_compiled.ok()) << unfused_compiled.status();
      auto unfused_loaded = codegen::LoadedModel::Load(*unfused_compiled);
      ASSERT_TRUE(unfused_loaded.ok()) << unfused_loaded.status();
      auto unfused_results = (*unfused_loaded)->Run(*args);
      ASSERT_TRUE(unfused_results.ok()) << unfused_results.status();
      for (size_t k = 0; k < leaves.size(); ++k) {
        const Comparison c = CompareLiterals(
            (*results)[k], (*unfused_results)[k],
            DefaultTolerance(leaves[k]->shape().element_type()));
        if (!c.ok()) {
          ADD_FAILURE() << name << " result " << k << ": fused and unfused "
                        << "differ in " << c.mismatches << " of " << c.elements
                        << " elements; first " << c.first_mismatch;
          ok = false;
        }
      }
      ++compared_unfused;
    }
    if (ok) ++matched;
  }
  std::printf("%d modules also compared with --no-fusion\n", compared_unfused);
  std::printf("%d of %d corpus modules compiled and matched\n", matched,
              supported - static_cast<int>(unchecked.size()));
  std::printf("%d of %d modules are supported; %zu compiled but not compared:\n",
              supported, kCorpusModules, unchecked.size());
  for (const auto& [name, why] : unchecked) {
    std::printf("  %s: %s\n", name.c_str(), why.c_str());
  }
  std::printf("unsupported (%zu):\n", unsupported.size());
  for (const auto& [name, why] : unsupported) {
    std::printf("  %s: %s\n", name.c_str(), why.c_str());
  }
}

}  // namespace
}  // namespace aotc
