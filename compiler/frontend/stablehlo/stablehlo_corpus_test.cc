// Every program of the StableHLO test suite (../shared/stablehlo-testdata,
// generated from JAX by the StableHLO authors) loads: parses and verifies.
//
// Files named *_chlo.mlir (or *_chlo.large.mlir) use chlo.* operations, which
// depend on the CHLO lowering; they are counted apart. The test prints the
// failures grouped by message so that a drop shows what broke.
#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "compiler/frontend/load_module.h"
#include "compiler/support/file_io.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

// The message of a located error without its location and source lines.
std::string Reason(std::string_view message) {
  std::string first(message.substr(0, message.find('\n')));
  const size_t error = first.find("error: ");
  if (error != std::string::npos) first = first.substr(error + 7);
  // Quoted names vary from file to file; keep the kind of failure.
  if (first.size() > 90) first = first.substr(0, 90);
  return first;
}

TEST(StableHloCorpusTest, EveryFileParsesAndVerifies) {
  const std::filesystem::path dir = AOTC_STABLEHLO_TESTDATA_DIR;
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no " << dir;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".mlir") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  int total = 0, loaded = 0, chlo_total = 0, chlo_loaded = 0;
  std::map<std::string, int> reasons;
  std::map<std::string, std::string> example;
  for (const auto& path : files) {
    absl::StatusOr<std::string> text = ReadFile(path.string());
    ASSERT_TRUE(text.ok()) << path;
    const std::string name = path.filename().string();
    const bool chlo = name.find("_chlo.") != std::string::npos;
    ++(chlo ? chlo_total : total);
    absl::StatusOr<std::unique_ptr<Module>> module =
        LoadModuleFromString(*text, path.filename().string());
    if (module.ok()) {
      ++(chlo ? chlo_loaded : loaded);
      continue;
    }
    const std::string reason = (chlo ? "[chlo] " : "") +
                               Reason(std::string(module.status().message()));
    if (++reasons[reason] == 1) {
      example[reason] = std::string(module.status().message());
    }
  }
  std::printf(
      "StableHLO test data: %d of %d files without chlo load; %d of "
      "%d with chlo; %d of %d in all\n",
      loaded, total, chlo_loaded, chlo_total, loaded + chlo_loaded,
      total + chlo_total);
  for (const auto& [reason, count] : reasons) {
    std::printf("%5d  %s\n", count, reason.c_str());
    std::printf("       e.g. %s\n", example[reason].substr(0, 300).c_str());
  }
  EXPECT_EQ(total + chlo_total, 1820);
  // Every file loads, those with CHLO operations included.
  EXPECT_GE(loaded, 1728);
  EXPECT_GE(chlo_loaded, 92);
}

}  // namespace
}  // namespace aotc
