// Every corpus module loads (parse + verify) and evaluates on seeded random
// inputs, or is refused with a clean, located reason.
//
// Refusals are expected for element types the evaluator does not compute
// with (s4, f8...), for what aotc does not model ("not supported": bitcasts
// between tiled layouts), and for models whose work exceeds the evaluation
// budget (the corpus holds an endless loop, loops of ~1e12 element
// operations and 2B-parameter models).
// Any other error, and any crash, fails the test. The test prints how many
// modules evaluated and lists every refusal with its reason. The corpus is
// split into kShards shards by file index (file k in shard k % kShards),
// each its own test, so that ctest runs them side by side.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/load_module.h"
#include "compiler/support/file_io.h"
#include "tools/inputs.h"
#include "tests/corpus/corpus_files.h"

namespace aotc {
namespace {

// Element operations one module may take (EvaluateOptions::max_work): the
// whole corpus then evaluates in a few minutes on one core, while the
// large sorts, layer norms and reductions still run to the end.
constexpr int64_t kWorkBudget = 1'000'000'000;

// The first line of a (possibly multi-line, located) message.
std::string FirstLine(std::string_view message) {
  return std::string(message.substr(0, message.find('\n')));
}

bool IsCleanRefusal(std::string_view message) {
  return message.find("error: unsupported element type") != std::string::npos ||
         message.find("is not supported") != std::string::npos ||
         message.find("error: evaluation stopped after") != std::string::npos;
}

constexpr int kShards = 4;
// Modules each shard evaluates, at least: most of the corpus must evaluate,
// so a regression that refuses everything does not pass.
constexpr int kMinEvaluated[kShards] = {59, 60, 58, 54};

class CorpusEvalTest : public ::testing::TestWithParam<int> {};

TEST_P(CorpusEvalTest, EveryModuleEvaluatesOrIsRefusedCleanly) {
  const int shard = GetParam();
  const std::vector<std::filesystem::path> files = CorpusFiles();
  ASSERT_EQ(static_cast<int>(files.size()), kCorpusModules)
      << "corpus at " << AOTC_CORPUS_DIR << " is missing or incomplete";
  int evaluated = 0, modules = 0;
  std::map<std::string, std::string> refused;
  for (size_t i = shard; i < files.size(); i += kShards) {
    const std::filesystem::path& path = files[i];
    ++modules;
    const std::string name = path.filename().string();
    auto text = ReadFile(path.string());
    ASSERT_TRUE(text.ok()) << text.status();
    auto module = LoadModuleFromString(*text, name);
    if (!module.ok()) {
      ADD_FAILURE() << name << " does not load: " << module.status().message();
      continue;
    }
    InputOptions inputs;
    inputs.random_seed = 1;
    auto args = BindInputs(*(*module)->entry(), inputs);
    if (!args.ok()) {
      // Random inputs are refused only for element types aotc cannot
      // compute with; that is a clean refusal too.
      std::string message(args.status().message());
      if (message.find("unsupported element type") == std::string::npos) {
        ADD_FAILURE() << name << ": " << message;
      } else {
        refused[name] = FirstLine(message);
      }
      continue;
    }
    EvaluateOptions options;
    options.max_work = kWorkBudget;
    auto result = EvaluateModule(**module, *args, options);
    if (result.ok()) {
      ++evaluated;
      continue;
    }
    std::string message(result.status().message());
    if (IsCleanRefusal(message)) {
      refused[name] = FirstLine(message);
    } else {
      ADD_FAILURE() << name << ": " << message;
    }
  }
  std::printf("shard %d of %d: %d of %d corpus modules evaluated; %zu "
              "refused:\n",
              shard, kShards, evaluated, modules, refused.size());
  for (const auto& [name, why] : refused) {
    std::printf("  %s: %s\n", name.c_str(), why.c_str());
  }
  EXPECT_GE(evaluated, kMinEvaluated[shard]);
}

INSTANTIATE_TEST_SUITE_P(Shard, CorpusEvalTest, ::testing::Range(0, kShards));

}  // namespace
}  // namespace aotc
