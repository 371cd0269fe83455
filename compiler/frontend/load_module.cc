// Scaffold: implemented with the proto importer.
#include "compiler/frontend/load_module.h"
namespace aotc {
absl::StatusOr<InputKind> DetectInputKind(std::string_view, std::string_view) {
  return InputKind::kHloText;
}
absl::StatusOr<std::unique_ptr<Module>> LoadModuleFromString(std::string_view, std::string_view) {
  return absl::UnimplementedError("not written yet");
}
absl::StatusOr<std::unique_ptr<Module>> LoadModuleFromFile(const std::string&) {
  return absl::UnimplementedError("not written yet");
}
}  // namespace aotc
