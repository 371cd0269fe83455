// Round trip of the shared HLO corpus: every module parses, prints, parses
// again and prints to the same text.
//
// The corpus directory comes from AOTC_CORPUS_DIR; the expected module count
// makes a missing or partial corpus fail loudly instead of passing vacuously.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/printer.h"

namespace aotc {
namespace {

constexpr int kCorpusModules = 247;

std::vector<std::filesystem::path> CorpusFiles() {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry :
       std::filesystem::directory_iterator(AOTC_CORPUS_DIR, ec)) {
    if (entry.path().extension() == ".hlo") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string ReadAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Empty on success, else what went wrong.
std::string RoundTrip(const std::filesystem::path& path) {
  const std::string text = ReadAll(path);
  auto first = ParseHloText(text, path.filename().string());
  if (!first.ok()) return "parse: " + std::string(first.status().message());
  const std::string printed = PrintModule(**first);
  auto second = ParseHloText(printed, "printed");
  if (!second.ok()) {
    return "reparse of printed text: " + std::string(second.status().message());
  }
  const std::string reprinted = PrintModule(**second);
  if (reprinted != printed) {
    size_t at = 0;
    while (at < printed.size() && at < reprinted.size() &&
           printed[at] == reprinted[at]) {
      ++at;
    }
    size_t from = at < 80 ? 0 : at - 80;
    return "print -> parse -> print differs near:\n  first:  " +
           printed.substr(from, 160) +
           "\n  second: " + reprinted.substr(from, 160);
  }
  return "";
}

TEST(CorpusRoundTripTest, EveryModuleRoundTrips) {
  const std::vector<std::filesystem::path> files = CorpusFiles();
  EXPECT_EQ(static_cast<int>(files.size()), kCorpusModules)
      << "corpus at " << AOTC_CORPUS_DIR << " is missing or incomplete";
  int failures = 0;
  for (const auto& path : files) {
    std::string error = RoundTrip(path);
    if (!error.empty()) {
      ++failures;
      ADD_FAILURE() << path.filename().string() << ": " << error;
    }
  }
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace aotc
