// Helpers of the StableHLO end-to-end tests (quantized, lowered, scan and
// ragged_dot): compile a module, check it against the evaluator, and read
// the front end's errors.
#ifndef AOTC_COMPILER_FRONTEND_STABLEHLO_STABLEHLO_E2E_TEST_UTIL_H_
#define AOTC_COMPILER_FRONTEND_STABLEHLO_STABLEHLO_E2E_TEST_UTIL_H_

#include <string>
#include <utility>
#include <vector>

#include "codegen/tests/codegen_test_util.h"
#include "compiler/frontend/load_module.h"
#include "gtest/gtest.h"

namespace aotc::shlo_testing {

// Compiled results of `text` on `args`, after checking the compiled code
// against the evaluator (within its error budget).
inline std::vector<Literal> CompileChecked(const std::string& text,
                                           const std::vector<Literal>& args) {
  codegen::testing::ExpectMatchesEvaluator(text, args);
  auto results = codegen::testing::CompileAndRun(text, args);
  EXPECT_TRUE(results.ok()) << results.status();
  return results.ok() ? std::move(*results) : std::vector<Literal>{};
}

// The front end's error for `text`, which must not load.
inline std::string LoadError(const std::string& text) {
  auto m = LoadModuleFromString(text, "bad.mlir");
  EXPECT_FALSE(m.ok());
  return m.ok() ? "" : std::string(m.status().message());
}

}  // namespace aotc::shlo_testing

#endif  // AOTC_COMPILER_FRONTEND_STABLEHLO_STABLEHLO_E2E_TEST_UTIL_H_
