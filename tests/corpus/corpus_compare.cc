// Compiled code against the evaluator for one corpus module (see
// corpus_compare.h).
#include "tests/corpus/corpus_compare.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <regex>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codegen/compile.h"
#include "codegen/jit/jit_runner.h"
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

std::string FirstLine(absl::string_view message) {
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
  if (literal->IsTuple()) {
    for (Literal& e : literal->mutable_tuple_elements()) MakePositive(&e);
    return;
  }
  const PrimitiveType type = literal->shape().element_type();
  if (!IsComputableType(type) || type == PrimitiveType::kPred) return;
  DispatchComputableType(type, [&]<PrimitiveType P>() {
    using C = NativeType<P>;
    if constexpr (std::is_integral_v<C> && !std::is_same_v<C, bool>) {
      // Random integers are small ([-8, 8), [0, 16)): no overflow.
      for (C& v : literal->mutable_data<C>()) {
        if constexpr (std::is_signed_v<C>) {
          if (v < 0) v = static_cast<C>(-v);
        }
        v = static_cast<C>(v + 1);
      }
    } else if constexpr (std::is_floating_point_v<C>) {
      for (C& v : literal->mutable_data<C>()) v = std::fabs(v) + C(0.5);
    } else if constexpr (std::is_same_v<C, Half> ||
                         std::is_same_v<C, BFloat16>) {
      for (C& v : literal->mutable_data<C>()) {
        v = C(std::fabs(static_cast<float>(v)) + 0.5f);
      }
    }
  });
}

// Compiles `text` after the pipeline with `optimize`.
absl::StatusOr<std::unique_ptr<codegen::LoadedModel>> CompileAndLoad(
    const std::string& text, const std::string& name,
    const OptimizeOptions& optimize) {
  auto module = LoadModuleFromString(text, name);
  if (!module.ok()) return module.status();
  auto timings = OptimizeModule(**module, optimize);
  if (!timings.ok()) {
    return absl::InternalError(absl::StrCat("the optimization passes failed: ",
                                            timings.status().message()));
  }
  codegen::CompileOptions options;
  options.name = "model";
  auto compiled = codegen::CompileModule(**module, options);
  if (!compiled.ok()) {
    return absl::InternalError(
        absl::StrCat("does not compile: ", compiled.status().message()));
  }
  return codegen::LoadedModel::Load(*compiled);
}

// An empty string when every result is within the default tolerance of
// `expected` plus `scale` times the oracle's summation bounds, else what
// differs.
// Adds the finite and both-NaN counts to `outcome` when given.
std::string Differences(const std::vector<Literal>& got,
                        const std::vector<const Literal*>& expected,
                        const std::vector<Literal>& bounds, double scale,
                        const std::string& what,
                        CorpusOutcome* outcome = nullptr) {
  if (got.size() != expected.size()) {
    return absl::StrCat(what, ": ", got.size(), " results, expected ",
                        expected.size());
  }
  for (size_t k = 0; k < got.size(); ++k) {
    Literal bound = bounds[k];
    for (double& b : bound.mutable_data<double>()) b *= scale;
    const Comparison c = CompareLiterals(
        got[k], *expected[k],
        DefaultTolerance(expected[k]->shape().element_type()), &bound);
    if (outcome != nullptr) {
      outcome->finite += c.finite;
      outcome->both_nan += c.both_nan;
    }
    if (!c.ok()) {
      return absl::StrCat(what, " result ", k, ": ", c.mismatches, " of ",
                          c.elements, " elements differ; first ",
                          c.first_mismatch);
    }
  }
  return "";
}

}  // namespace

CorpusOutcome CompileAndCompare(const std::string& text, const std::string& name,
                                const CorpusCompareOptions& options) {
  using Kind = CorpusOutcome::Kind;
  auto module = LoadModuleFromString(text, name);
  if (!module.ok()) return {Kind::kFailed, FirstLine(module.status().message())};
  if (absl::Status st = codegen::CheckSupported(**module); !st.ok()) {
    return {Kind::kUnsupported, FirstLine(st.message())};
  }
  // The evaluator keeps every value of the entry; unfused code needs
  // scratch for each of them too.
  int64_t bytes = 0;
  for (const auto& inst : (*module)->entry()->instructions()) {
    for (const Shape* leaf : inst->shape().Leaves()) {
      if (leaf->IsArray()) bytes += leaf->ByteSize();
    }
  }
  const bool too_large = bytes > options.max_run_bytes;
  if (too_large && !options.compile_too_large) {
    return {Kind::kTooLarge, absl::StrCat("its values need ", bytes >> 20,
                                          " MiB; neither compiled nor run")};
  }
  auto loaded = CompileAndLoad(text, name, {});
  if (!loaded.ok()) return {Kind::kFailed, FirstLine(loaded.status().message())};
  if (too_large) {
    return {Kind::kTooLarge,
            absl::StrCat("compiled; its values need ", bytes >> 20,
                         " MiB, not run")};
  }
  InputOptions inputs;
  inputs.random_seed = 1;
  auto args = BindInputs(*(*module)->entry(), inputs);
  if (!args.ok()) return {Kind::kFailed, FirstLine(args.status().message())};
  if (NeedsPositiveInputs(**module)) {
    for (Literal& a : *args) MakePositive(&a);
  }
  EvaluateOptions eval_options;
  eval_options.max_work = options.work_budget;
  auto expected = EvaluateOracle(**module, *args, eval_options);
  if (!expected.ok()) {
    const std::string message = FirstLine(expected.status().message());
    if (message.find("evaluation stopped after") != std::string::npos) {
      return {Kind::kOverBudget, "compiled; beyond the evaluator's work budget"};
    }
    return {Kind::kFailed, absl::StrCat("the evaluator failed: ", message)};
  }
  auto results = (*loaded)->Run(*args);
  if (!results.ok()) return {Kind::kFailed, FirstLine(results.status().message())};
  const std::vector<const Literal*> leaves = expected->value.Leaves();
  CorpusOutcome matched{Kind::kMatched, ""};
  if (std::string d = Differences(*results, leaves, expected->bounds, 1,
                                  "fused", &matched);
      !d.empty()) {
    return {Kind::kFailed, d};
  }
  if (options.compare_unfused &&
      (*module)->instruction_count() <= options.max_unfused_instructions) {
    OptimizeOptions no_fusion;
    no_fusion.fusion = false;
    auto unfused = CompileAndLoad(text, name, no_fusion);
    if (!unfused.ok()) {
      return {Kind::kFailed,
              absl::StrCat("unfused: ", FirstLine(unfused.status().message()))};
    }
    auto unfused_results = (*unfused)->Run(*args);
    if (!unfused_results.ok()) {
      return {Kind::kFailed, FirstLine(unfused_results.status().message())};
    }
    std::vector<const Literal*> fused;
    for (const Literal& r : *results) fused.push_back(&r);
    // Each within its bound of the oracle: within twice of each other.
    if (std::string d = Differences(*unfused_results, fused, expected->bounds,
                                    2, "unfused vs fused");
        !d.empty()) {
      return {Kind::kFailed, d};
    }
  }
  return matched;
}

CorpusSubset CompareCorpusSubset(
    const std::function<bool(const std::string& text, const std::string& name)>&
        wanted) {
  CorpusSubset subset;
  for (const auto& path : CorpusFiles()) {
    const std::string name = path.filename().string();
    absl::StatusOr<std::string> text = ReadFile(path.string());
    if (!text.ok()) {
      subset.failures.push_back(
          absl::StrCat(name, ": ", FirstLine(text.status().message())));
      continue;
    }
    if (!wanted(*text, name)) continue;
    ++subset.modules;
    const CorpusOutcome outcome = CompileAndCompare(*text, name);
    if (outcome.kind == CorpusOutcome::kFailed) {
      subset.failures.push_back(absl::StrCat(name, ": ", outcome.detail));
    } else if (outcome.kind == CorpusOutcome::kMatched) {
      ++subset.matched;
      std::printf("matched %s\n", name.c_str());
    } else {
      std::printf("skipped %s: %s\n", name.c_str(), outcome.detail.c_str());
    }
  }
  return subset;
}

CorpusSubset CompareCorpusModulesUsing(
    const std::vector<std::string>& opcodes) {
  return CompareCorpusSubset([&](const std::string& text, const std::string&) {
    for (const std::string& op : opcodes) {
      if (text.find(absl::StrCat(" ", op, "(")) != std::string::npos) {
        return true;
      }
    }
    return false;
  });
}

CorpusSubset CompareCorpusSubsetMatching(const std::string& pattern,
                                         const std::string& what) {
  const std::regex re(pattern);
  const CorpusSubset subset =
      CompareCorpusSubset([&](const std::string& text, const std::string&) {
        return std::regex_search(text, re);
      });
  std::printf("%d of %d %s corpus modules compiled and matched\n",
              subset.matched, subset.modules, what.c_str());
  return subset;
}

}  // namespace aotc
