// Scaffold: implemented with the parser.
#include "compiler/frontend/text/hlo_parser.h"
namespace aotc {
absl::StatusOr<std::unique_ptr<Module>> ParseHloText(std::string_view, std::string_view) {
  return absl::UnimplementedError("hlo text parser not written yet");
}
}  // namespace aotc
