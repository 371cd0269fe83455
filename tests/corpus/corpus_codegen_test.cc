// End to end over the shared corpus: every module whose operations code
// generation supports is compiled (through the whole optimization
// pipeline), run on seeded, domain-safe inputs and compared with the
// reference evaluator (tests/corpus/corpus_compare.h). Every third one of
// moderate size is also compiled with --no-fusion and the two compiled
// results are compared. Modules whose values exceed 1 GiB or whose
// evaluation exceeds the work budget are compiled but not compared (the
// oracle cannot afford them); unsupported modules are listed with the first
// operation that stops them. Any mismatch, compile error on a supported
// module, or crash fails the test, and each shard asserts how many modules
// it compared, so that a module silently becoming unsupported fails too.
//
// NaN matches NaN, so a comparison of NaNs proves nothing: each shard counts
// the compared float values that were finite and those that were NaN on
// both sides, lists the modules whose results are mostly NaN, and asserts a
// minimum number of finite values and a minimum finite fraction.
//
// The corpus is split into kShards shards by file index (file k in shard
// k % kShards), each its own test, so that ctest runs them side by side.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/support/file_io.h"
#include "tests/corpus/corpus_compare.h"
#include "tests/corpus/corpus_files.h"

namespace aotc {
namespace {

constexpr int kShards = 4;
// Modules each shard compiles and compares with the evaluator, at least.
constexpr int kMinMatched[kShards] = {58, 58, 56, 53};
// Finite compared float values per shard, at least, and the finite share of
// finite + both-NaN values. Measured: 9715690, 4090787, 2378836 and 7440498
// finite values; 2, 0, 2 and 1 NaN pairs.
constexpr int64_t kMinFinite[kShards] = {9'000'000, 3'800'000, 2'200'000,
                                         7'000'000};
constexpr double kMinFiniteShare = 0.999;
// Every kUnfusedStride-th module of a shard is also compiled unfused.
constexpr int kUnfusedStride = 3;
// Modules that take longer than this are named in the output.
constexpr double kSlowSeconds = 10;

class CorpusCodegenTest : public ::testing::TestWithParam<int> {};

TEST_P(CorpusCodegenTest, SupportedModulesCompileAndMatchTheEvaluator) {
  const int shard = GetParam();
  const std::vector<std::filesystem::path> files = CorpusFiles();
  ASSERT_EQ(static_cast<int>(files.size()), kCorpusModules)
      << "corpus at " << AOTC_CORPUS_DIR << " is missing or incomplete";
  int supported = 0, matched = 0;
  int64_t finite = 0, both_nan = 0;
  std::map<std::string, std::string> mostly_nan;
  std::map<std::string, std::string> unsupported, unchecked;
  for (size_t i = shard; i < files.size(); i += kShards) {
    const std::string name = files[i].filename().string();
    SCOPED_TRACE(name);
    auto text = ReadFile(files[i].string());
    ASSERT_TRUE(text.ok()) << text.status();
    CorpusCompareOptions options;
    options.compare_unfused = supported % kUnfusedStride == 0;
    options.compile_too_large = true;
    const auto start = std::chrono::steady_clock::now();
    const CorpusOutcome outcome = CompileAndCompare(*text, name, options);
    const double seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start)
                               .count();
    if (seconds > kSlowSeconds) {
      std::printf("slow: %s took %.1f s\n", name.c_str(), seconds);
    }
    switch (outcome.kind) {
      case CorpusOutcome::kUnsupported:
        unsupported[name] = outcome.detail;
        continue;
      case CorpusOutcome::kMatched:
        ++matched;
        finite += outcome.finite;
        both_nan += outcome.both_nan;
        if (outcome.both_nan > outcome.finite) {
          mostly_nan[name] = absl::StrCat(outcome.finite, " finite, ",
                                          outcome.both_nan, " NaN");
        }
        break;
      case CorpusOutcome::kTooLarge:
      case CorpusOutcome::kOverBudget:
        unchecked[name] = outcome.detail;
        break;
      case CorpusOutcome::kFailed:
        ADD_FAILURE() << name << ": " << outcome.detail;
        break;
    }
    ++supported;
  }
  std::printf("shard %d of %d:\n", shard, kShards);
  std::printf("%d of %d corpus modules compiled and matched\n", matched,
              supported - static_cast<int>(unchecked.size()));
  std::printf("%d modules are supported; %zu compiled but not compared:\n",
              supported, unchecked.size());
  for (const auto& [name, why] : unchecked) {
    std::printf("  %s: %s\n", name.c_str(), why.c_str());
  }
  std::printf("compared float values: %lld finite, %lld NaN on both sides\n",
              static_cast<long long>(finite),
              static_cast<long long>(both_nan));
  std::printf("modules with mostly NaN results (%zu):\n", mostly_nan.size());
  for (const auto& [name, counts] : mostly_nan) {
    std::printf("  %s: %s\n", name.c_str(), counts.c_str());
  }
  std::printf("unsupported (%zu):\n", unsupported.size());
  for (const auto& [name, why] : unsupported) {
    std::printf("  %s: %s\n", name.c_str(), why.c_str());
  }
  EXPECT_GE(matched, kMinMatched[shard]);
  EXPECT_GE(finite, kMinFinite[shard]);
  EXPECT_GE(static_cast<double>(finite),
            kMinFiniteShare * static_cast<double>(finite + both_nan));
}

INSTANTIATE_TEST_SUITE_P(Shard, CorpusCodegenTest, ::testing::Range(0, kShards));

}  // namespace
}  // namespace aotc
