// Self-checking programs as a conformance suite (`aotc conform`).
//
// A self-checking program is a module whose entry computation
//   - calls computations without parameters for its inputs and its expected
//     values (`@inputs()`, `@expected()` in the StableHLO test data),
//   - computes the values under test from the inputs, and
//   - passes each value under test with its expected value to a custom-call
//     `check.expect_eq`, `check.expect_close` or `check.expect_almost_eq`.
// To test aotc rather than its constant folder, the calls of the computation
// named `inputs` become entry parameters, fed at run time with the values the
// calls return (computed by the reference evaluator, which for constants
// only copies them); any other call is compiled. The expected values are
// evaluated separately from the module as written. Compiled results must
// also agree with the evaluator's within the error budget (tools/compare.h).
#ifndef AOTC_TOOLS_CONFORM_H_
#define AOTC_TOOLS_CONFORM_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"

namespace aotc {

enum class CheckKind { kExpectEq, kExpectClose, kExpectAlmostEq };

// "check.expect_close" -> kExpectClose; an error for any other target.
absl::StatusOr<CheckKind> ParseCheckKind(std::string_view target);
std::string_view CheckKindName(CheckKind kind);

// Applies one check to two literals of the same shape:
//   expect_eq         exactly equal element by element; NaN equals NaN
//   expect_close      floats at most 3 units in the last place apart in their
//                     own type (NaN matches NaN); integers and pred exact
//   expect_almost_eq  floats at most 0.001 apart (NaN matches NaN, an
//                     infinity only itself); integers and pred exact
// Complex elements match when both parts do. Returns "" when the check holds,
// else what differs ("12 of 400 elements differ; first [3,1]: got 1.5,
// expected 2 (7 ulps)").
std::string ApplyCheck(CheckKind kind, const Literal& actual,
                       const Literal& expected);

// A self-checking module split into what runs and what it is checked
// against.
struct ConformProgram {
  // The entry computation's input calls replaced by parameters and its root
  // replaced by the values under test (a tuple when there are several).
  std::unique_ptr<Module> module;
  std::vector<Literal> inputs;  // one per entry parameter of `module`
  struct Check {
    CheckKind kind;
    Literal expected;
  };
  std::vector<Check> checks;  // result i of `module` is checked by checks[i]
};

// Builds the program from two copies of the same loaded module: `module`
// becomes ConformProgram::module; `expected_copy` is evaluated for the
// expected values. Errors (InvalidArgument) when the module is not
// self-checking: no checks, a check with other than two operands, or an
// input call that cannot be evaluated.
absl::StatusOr<ConformProgram> PrepareConformProgram(
    std::unique_ptr<Module> module, std::unique_ptr<Module> expected_copy);

enum class ConformOutcome { kPass, kFail, kUnsupported };

struct ConformResult {
  ConformOutcome outcome = ConformOutcome::kFail;
  std::string detail;  // why it failed or is unsupported; "" for a pass
};

// Loads, prepares, runs (compiled for this host, or with the reference
// evaluator) and checks one file. Never throws or aborts on bad input: load
// and preparation errors are failures; an error saying code generation or
// the front end does not support something is kUnsupported.
ConformResult ConformFile(const std::string& path, bool use_evaluator);

// The one-line report: "PASS file", "FAIL file: detail",
// "UNSUPPORTED file: detail".
std::string ConformLine(const std::string& path, const ConformResult& result);

}  // namespace aotc

#endif  // AOTC_TOOLS_CONFORM_H_
