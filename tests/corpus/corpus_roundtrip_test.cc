// Round trip of the shared HLO corpus: every module parses, prints, parses
// again and prints to the same text.
//
// The corpus directory comes from AOTC_CORPUS_DIR; the expected module count
// makes a missing or partial corpus fail loudly instead of passing vacuously.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/printer.h"
#include "compiler/support/file_io.h"
#include "tests/corpus/corpus_files.h"

namespace aotc {
namespace {

// Empty on success, else what went wrong.
std::string RoundTrip(const std::filesystem::path& path) {
  auto text = ReadFile(path.string());
  if (!text.ok()) return std::string(text.status().message());
  auto first = ParseHloText(*text, path.filename().string());
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
