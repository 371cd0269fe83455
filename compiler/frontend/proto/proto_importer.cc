// Scaffold: implemented with the importer.
#include "compiler/frontend/proto/proto_importer.h"
namespace aotc {
absl::StatusOr<std::unique_ptr<Module>> ImportHloProto(std::string_view, std::string_view) {
  return absl::UnimplementedError("proto importer not written yet");
}
}  // namespace aotc
