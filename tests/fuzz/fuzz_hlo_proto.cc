// libFuzzer target for the HloModuleProto front end: import, verify, print.
//
// Any bytes must give a clean error or a module; never a crash, a sanitizer
// report, a hang or unbounded memory. A module that verifies is printed too,
// so that whatever the importer accepts also goes through the printer.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "compiler/frontend/proto/proto_importer.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto module = aotc::ImportHloProto(bytes, "fuzz.pb");
  if (!module.ok()) return 0;
  if (!aotc::VerifyModule(**module).ok()) return 0;
  aotc::PrintModule(**module);
  return 0;
}
