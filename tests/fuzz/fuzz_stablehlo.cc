// libFuzzer target for the StableHLO front end: parse, verify, print.
//
// Any input must give a clean error or a module; never a crash, a sanitizer
// report, a hang or unbounded memory. A module that verifies must also
// print (the printer walks every instruction and attribute the parser
// filled in). Seeds: the StableHLO test suite (../shared/stablehlo-testdata).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "compiler/frontend/stablehlo/stablehlo_parser.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)aotc::LooksLikeStableHlo(text);
  auto module = aotc::ParseStableHlo(text, "fuzz.mlir");
  if (!module.ok()) return 0;
  if (!aotc::VerifyModule(**module).ok()) return 0;
  const std::string printed = aotc::PrintModule(**module);
  (void)printed;
  return 0;
}
