// Test helpers for passes: modules from HLO text, verified before and after.
#ifndef AOTC_COMPILER_PASSES_PASS_TEST_UTIL_H_
#define AOTC_COMPILER_PASSES_PASS_TEST_UTIL_H_

#include <memory>
#include <string>
#include <string_view>

#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "compiler/passes/pass.h"
#include "gtest/gtest.h"

namespace aotc::testing {

// Parses and verifies `text`; fails the test (and returns null) otherwise.
inline std::unique_ptr<Module> ParseVerified(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> m = ParseHloText(text, "test.hlo");
  EXPECT_TRUE(m.ok()) << m.status();
  if (!m.ok()) return nullptr;
  absl::Status v = VerifyModule(**m);
  EXPECT_TRUE(v.ok()) << v;
  if (!v.ok()) return nullptr;
  return std::move(*m);
}

// Runs `pass` on `module` and checks that the result verifies; returns
// whether the pass reported a change (false on failure, with the test
// failed).
inline bool RunVerified(Pass& pass, Module& module) {
  absl::StatusOr<bool> changed = pass.Run(module);
  EXPECT_TRUE(changed.ok()) << changed.status();
  if (!changed.ok()) return false;
  absl::Status v = VerifyModule(module);
  EXPECT_TRUE(v.ok()) << v << "\n" << PrintModule(module);
  return *changed;
}

}  // namespace aotc::testing

#endif  // AOTC_COMPILER_PASSES_PASS_TEST_UTIL_H_
