// Loading a model file: read, detect its kind from the content (never from
// the file extension), parse or import, then verify.
#ifndef AOTC_COMPILER_FRONTEND_LOAD_MODULE_H_
#define AOTC_COMPILER_FRONTEND_LOAD_MODULE_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "compiler/ir/module.h"

namespace aotc {

enum class InputKind { kHloText, kHloProto, kStableHlo };

// Decides from the bytes whether they are HLO text, StableHLO (MLIR) text
// or a binary HloModuleProto; an error naming `filename` when they are none
// of these.
absl::StatusOr<InputKind> DetectInputKind(std::string_view contents,
                                          std::string_view filename);

// Parses or imports `contents` (detected as above) and verifies the module.
absl::StatusOr<std::unique_ptr<Module>> LoadModuleFromString(
    std::string_view contents, std::string_view filename);

// Reads `path` and calls LoadModuleFromString. Missing, unreadable files and
// directories are errors naming the path.
absl::StatusOr<std::unique_ptr<Module>> LoadModuleFromFile(
    const std::string& path);

}  // namespace aotc

#endif  // AOTC_COMPILER_FRONTEND_LOAD_MODULE_H_
