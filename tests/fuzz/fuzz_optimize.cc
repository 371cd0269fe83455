// libFuzzer target for the optimization pipeline: parse, verify, optimize.
//
// Every module that parses and verifies must go through the whole pipeline
// (simplification, fusion, multi-output fusion, clean-up), with the verifier
// run after each pass, and print afterwards. The pipeline has no errors of
// its own for a verified module, so any error is a pass that broke the
// module; it traps so that libFuzzer keeps the input, as do crashes,
// sanitizer reports and hangs.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "compiler/passes/pipelines.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto module = aotc::ParseHloText(text, "fuzz.hlo");
  if (!module.ok()) return 0;
  if (!aotc::VerifyModule(**module).ok()) return 0;
  for (bool fusion : {true, false}) {
    // The unfused pipeline on a second copy: parse again rather than clone.
    auto copy = fusion ? std::move(module) : aotc::ParseHloText(text, "fuzz.hlo");
    if (!copy.ok()) __builtin_trap();
    aotc::OptimizeOptions options;
    options.fusion = fusion;
    auto optimized = aotc::OptimizeModule(**copy, options);
    if (!optimized.ok()) {
      std::fprintf(stderr, "fuzz_optimize: the pipeline (fusion %s) failed on a "
                           "verified module:\n%s\n",
                   fusion ? "on" : "off",
                   std::string(optimized.status().message()).c_str());
      __builtin_trap();
    }
    aotc::PrintModule(**copy);
  }
  return 0;
}
