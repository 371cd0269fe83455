// Reading inputs and writing outputs with errors that name the file.
//
// Outputs are written atomically: into a temporary file beside the target,
// then renamed over it, so a failed or interrupted run never leaves a
// half-written file and never damages the previous output.
#ifndef AOTC_COMPILER_SUPPORT_FILE_IO_H_
#define AOTC_COMPILER_SUPPORT_FILE_IO_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace aotc {

// The whole file. Errors: "PATH: error: no such file", "PATH: error: is a
// directory, expected a file", "PATH: error: cannot read: <reason>".
absl::StatusOr<std::string> ReadFile(const std::string& path);

// Writes `contents` to `path` atomically (temporary file + fsync + rename).
absl::Status WriteFileAtomically(const std::string& path,
                                 std::string_view contents);

// Writes several files as a set: every temporary is written first, and only
// when all of them are complete are they renamed over their targets. A
// failure while writing (full disk, a target that is a directory...) leaves
// every previous file untouched and no temporary behind.
absl::Status WriteFilesAtomically(
    const std::vector<std::pair<std::string, std::string_view>>& files);

// Creates `dir` and its parents if missing; an error when it exists and is
// not a directory.
absl::Status EnsureDirectory(const std::string& dir);

}  // namespace aotc

#endif  // AOTC_COMPILER_SUPPORT_FILE_IO_H_
