// libFuzzer target for the .npy reader (tools/npy.h).
//
// Any bytes must give a clean error or a literal; never a crash, a sanitizer
// report or an allocation the file's own size does not justify. A literal
// that was read must write back to a .npy that reads as the same bytes and
// dimensions; a violation traps so that libFuzzer keeps the input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "tools/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto literal = aotc::ReadNpy(bytes, "fuzz.npy");
  if (!literal.ok()) return 0;

  auto written = aotc::WriteNpy(*literal);
  if (!written.ok()) {
    std::fprintf(stderr, "fuzz_npy: a literal read from .npy cannot be written: %s\n",
                 std::string(written.status().message()).c_str());
    __builtin_trap();
  }
  auto reread = aotc::ReadNpy(*written, "written.npy");
  if (!reread.ok()) {
    std::fprintf(stderr, "fuzz_npy: written .npy does not read: %s\n",
                 std::string(reread.status().message()).c_str());
    __builtin_trap();
  }
  // bf16 is written as raw '<u2' bits and reads back as u16: compare bytes.
  if (reread->shape().dimensions() != literal->shape().dimensions() ||
      reread->raw_size() != literal->raw_size() ||
      (literal->raw_size() > 0 &&
       std::memcmp(reread->raw(), literal->raw(),
                  static_cast<size_t>(literal->raw_size())) != 0)) {
    std::fprintf(stderr, "fuzz_npy: write -> read changed the literal\n");
    __builtin_trap();
  }
  return 0;
}
