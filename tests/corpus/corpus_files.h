// The modules of the shared HLO corpus (AOTC_CORPUS_DIR), for the corpus
// tests. kCorpusModules makes a missing or partial corpus fail loudly
// instead of passing vacuously.
#ifndef AOTC_TESTS_CORPUS_CORPUS_FILES_H_
#define AOTC_TESTS_CORPUS_CORPUS_FILES_H_

#include <algorithm>
#include <filesystem>
#include <vector>

namespace aotc {

inline constexpr int kCorpusModules = 247;

// Every *.hlo file of the corpus, sorted by name.
inline std::vector<std::filesystem::path> CorpusFiles() {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry :
       std::filesystem::directory_iterator(AOTC_CORPUS_DIR, ec)) {
    if (entry.path().extension() == ".hlo") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace aotc

#endif  // AOTC_TESTS_CORPUS_CORPUS_FILES_H_
