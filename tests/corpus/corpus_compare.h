// One corpus module through code generation and the reference evaluator:
// the comparison that the corpus tests (the whole corpus, and the subsets
// for gather, scatter, convolution, the narrow types and tuple parameters)
// share.
//
// The module goes through the optimization pipeline (fusion included), is
// compiled for this host, linked in memory, run on seeded random inputs and
// compared with the evaluator (oracle mode) running the module as read.
// Inputs are domain-safe: when a module takes logarithms, square roots or
// powers, float inputs are made positive (|x| + 0.5) and integer inputs at
// least 1 (|x| + 1, so that an integer converted to float and then taken
// the logarithm of is finite too), so that results are numbers rather than
// NaN, which would match trivially. The outcome says what happened, with a
// reason for everything but a match, and counts the compared float values
// that were finite and those that were NaN on both sides.
#ifndef AOTC_TESTS_CORPUS_CORPUS_COMPARE_H_
#define AOTC_TESTS_CORPUS_CORPUS_COMPARE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace aotc {

struct CorpusCompareOptions {
  // Evaluations beyond this many element operations are not compared.
  int64_t work_budget = 200'000'000;
  // Modules whose entry values would exceed this are not run; they are
  // compiled only with compile_too_large (the largest take a minute).
  int64_t max_run_bytes = int64_t{1} << 30;
  bool compile_too_large = false;
  // Also compile with --no-fusion and compare the two compiled results,
  // for modules of at most max_unfused_instructions (unfused, the largest
  // corpus modules take minutes to compile).
  bool compare_unfused = false;
  int64_t max_unfused_instructions = 2000;
};

struct CorpusOutcome {
  enum Kind {
    kMatched,      // compiled, ran, every result within tolerance
    kUnsupported,  // CheckSupported refused it (detail: the first line)
    kTooLarge,     // its values exceed max_run_bytes: not run
    kOverBudget,   // compiled; the evaluator stopped at its work budget
    kFailed,       // anything else: a bug (detail says what)
  };
  Kind kind;
  std::string detail;
  // Over the results of a compared module (Comparison::finite, both_nan).
  int64_t finite = 0;
  int64_t both_nan = 0;
};

// `text` is the module's HLO text, `name` its file name (for locations).
CorpusOutcome CompileAndCompare(const std::string& text, const std::string& name,
                                const CorpusCompareOptions& options = {});

// CompileAndCompare over the corpus modules whose text `wanted` accepts, in
// file order, printing one line per module ("matched NAME" or
// "skipped NAME: why").
struct CorpusSubset {
  int modules = 0;   // accepted by `wanted`
  int matched = 0;
  std::vector<std::string> failures;  // "NAME: what went wrong"
};
CorpusSubset CompareCorpusSubset(
    const std::function<bool(const std::string& text, const std::string& name)>&
        wanted);
// The same over the modules whose text contains a match of the ECMAScript
// regular expression `pattern`; prints "N of M <what> corpus modules
// compiled and matched" after them.
CorpusSubset CompareCorpusSubsetMatching(const std::string& pattern,
                                         const std::string& what);

// CompareCorpusSubset over the modules that use any of `opcodes` (text
// names: an instruction ` name(` in the module's text).
CorpusSubset CompareCorpusModulesUsing(const std::vector<std::string>& opcodes);

}  // namespace aotc

#endif  // AOTC_TESTS_CORPUS_CORPUS_COMPARE_H_
