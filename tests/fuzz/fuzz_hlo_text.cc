// libFuzzer target for the HLO text front end: parse, verify, print, parse
// again.
//
// Any input must give a clean error or a module; never a crash, a sanitizer
// report, a hang or unbounded memory. A module that verifies must also print
// to text that parses and verifies again and prints identically (printer.h
// promises print -> parse -> print is the identity); a violation traps so that
// libFuzzer keeps the input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"

namespace {

[[noreturn]] void Fail(const char* what, const std::string& detail,
                       const std::string& printed) {
  std::fprintf(stderr, "fuzz_hlo_text: %s\n%s\n--- printed text ---\n%s\n",
               what, detail.c_str(), printed.c_str());
  __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto module = aotc::ParseHloText(text, "fuzz.hlo");
  if (!module.ok()) return 0;
  if (!aotc::VerifyModule(**module).ok()) return 0;

  const std::string printed = aotc::PrintModule(**module);
  auto reparsed = aotc::ParseHloText(printed, "printed.hlo");
  if (!reparsed.ok()) {
    Fail("printed text of a verified module does not parse",
         std::string(reparsed.status().message()), printed);
  }
  if (absl::Status verified = aotc::VerifyModule(**reparsed); !verified.ok()) {
    Fail("printed text of a verified module does not verify",
         std::string(verified.message()), printed);
  }
  const std::string reprinted = aotc::PrintModule(**reparsed);
  if (reprinted != printed) {
    Fail("print -> parse -> print changed the text", reprinted, printed);
  }
  return 0;
}
