// End to end over the shared corpus: every module whose operations code
// generation supports is compiled for this host, linked in memory, run on
// seeded random inputs and compared with the reference evaluator.
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
#include "compiler/support/file_io.h"
#include "tests/corpus/corpus_files.h"
#include "tools/compare.h"
#include "tools/inputs.h"

namespace aotc {
namespace {

constexpr int64_t kWorkBudget = 200'000'000;
// Modules whose buffers would exceed this are compiled but not run.
constexpr int64_t kMaxRunBytes = int64_t{1} << 30;

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
  int supported = 0, matched = 0;
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
    codegen::CompileOptions options;
    options.name = "model";
    auto compiled = codegen::CompileModule(**module, options);
    if (!compiled.ok()) {
      ADD_FAILURE() << name << " does not compile: " << compiled.status();
      continue;
    }
    int64_t bytes = compiled->signature.temp_bytes;
    for (const auto& t : compiled->signature.args) bytes += t.byte_size;
    for (const auto& t : compiled->signature.results) bytes += t.byte_size;
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
    if (ok) ++matched;
  }
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
