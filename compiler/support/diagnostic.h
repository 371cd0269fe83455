// Source locations and located error messages.
//
// Every IR instruction carries a Location. A Location points into a SourceFile
// (shared by all locations of one input) so that a diagnostic can show the
// offending line with a caret under the column:
//
//   model.hlo:12:7: error: operand 1 has shape f32[4], expected f32[8]
//     %add = f32[8] add(%a, %b)
//         ^
//
// Messages start lower case and carry no trailing period.
#ifndef AOTC_COMPILER_SUPPORT_DIAGNOSTIC_H_
#define AOTC_COMPILER_SUPPORT_DIAGNOSTIC_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace aotc {

// The name of an input and, when it is text, its contents (used to quote the
// offending line). For a binary proto, `text` is empty.
struct SourceFile {
  std::string name;
  std::string text;
};

struct Location {
  std::shared_ptr<const SourceFile> file;
  int line = 0;    // 1-based; 0 when unknown.
  int column = 0;  // 1-based; 0 when unknown.

  bool known() const { return file != nullptr; }
  // "file:line:col", "file:line", "file" or "<unknown>".
  std::string ToString() const;
};

// Formats "file:line:col: error: message" followed, when the source text is
// available, by the source line and a caret under the column.
std::string FormatError(const Location& loc, std::string_view message);

// An InvalidArgument status carrying FormatError(loc, message).
absl::Status ErrorAt(const Location& loc, std::string_view message);

}  // namespace aotc

#endif  // AOTC_COMPILER_SUPPORT_DIAGNOSTIC_H_
