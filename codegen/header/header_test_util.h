// Shared by the codegen/header tests: modules from HLO text, and signatures
// built from them.
#ifndef AOTC_CODEGEN_HEADER_HEADER_TEST_UTIL_H_
#define AOTC_CODEGEN_HEADER_HEADER_TEST_UTIL_H_

#include <memory>
#include <string>
#include <string_view>

#include "codegen/header/signature.h"
#include "compiler/frontend/load_module.h"
#include "compiler/frontend/text/hlo_parser.h"
#include "gtest/gtest.h"

namespace aotc::codegen::testing {

// Loads (parses and verifies) HLO text named "test.hlo"; a failure is
// reported and gives null.
inline std::unique_ptr<Module> LoadText(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> m =
      LoadModuleFromString(text, "test.hlo");
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : nullptr;
}

// The signature of verified HLO text; a failure is reported and gives an
// empty signature.
inline ModelSignature SignatureOf(std::string_view text,
                                  std::string name = "model",
                                  std::string cpp_namespace = "") {
  std::unique_ptr<Module> m = LoadText(text);
  if (m == nullptr) return {};
  absl::StatusOr<ModelSignature> sig =
      BuildSignature(*m, std::move(name), std::move(cpp_namespace));
  EXPECT_TRUE(sig.ok()) << sig.status();
  return sig.ok() ? std::move(*sig) : ModelSignature{};
}

// The error BuildSignature gives for HLO text that is parsed but not
// verified (so that the verifier does not refuse it first).
inline std::string SignatureError(std::string_view text,
                                  std::string name = "model",
                                  std::string cpp_namespace = "") {
  absl::StatusOr<std::unique_ptr<Module>> m = ParseHloText(text, "test.hlo");
  EXPECT_TRUE(m.ok()) << m.status();
  if (!m.ok()) return "";
  absl::StatusOr<ModelSignature> sig =
      BuildSignature(**m, std::move(name), std::move(cpp_namespace));
  EXPECT_FALSE(sig.ok());
  if (sig.ok()) return "";
  EXPECT_EQ(sig.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(sig.status().message());
}

}  // namespace aotc::codegen::testing

#endif  // AOTC_CODEGEN_HEADER_HEADER_TEST_UTIL_H_
