// Formatting of located diagnostics.
#include "compiler/support/diagnostic.h"

#include <algorithm>

#include "compiler/support/strings.h"

namespace aotc {
namespace {

// Returns the text of 1-based line `line` of `text` without its newline, or
// an empty view when the line does not exist.
std::string_view LineOf(std::string_view text, int line) {
  size_t start = 0;
  for (int i = 1; i < line; ++i) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  size_t end = text.find('\n', start);
  if (end == std::string_view::npos) end = text.size();
  std::string_view result = text.substr(start, end - start);
  if (!result.empty() && result.back() == '\r') result.remove_suffix(1);
  return result;
}

// Very long lines (a constant with a million elements) are cut around the
// column so that the diagnostic stays readable.
constexpr int kMaxQuotedLine = 160;

}  // namespace

std::string Location::ToString() const {
  if (!file) return "<unknown>";
  std::string s = file->name;
  if (line > 0) absl::StrAppend(&s, ":", line);
  if (line > 0 && column > 0) absl::StrAppend(&s, ":", column);
  return s;
}

std::string FormatError(const Location& loc, std::string_view message) {
  std::string out = absl::StrCat(loc.ToString(), ": error: ", Sv(message));
  if (!loc.file || loc.line <= 0 || loc.file->text.empty()) return out;
  std::string_view line = LineOf(loc.file->text, loc.line);
  if (line.empty()) return out;
  int column = loc.column > 0 ? loc.column : 1;
  int first = 0;
  if (static_cast<int>(line.size()) > kMaxQuotedLine) {
    first = std::max(0, column - 1 - kMaxQuotedLine / 2);
    line = line.substr(first, kMaxQuotedLine);
  }
  std::string caret;
  for (int i = first; i < column - 1 && i - first < static_cast<int>(line.size());
       ++i) {
    caret.push_back(line[i - first] == '\t' ? '\t' : ' ');
  }
  std::string quoted;
  for (char c : line) {
    // Binary garbage must not reach the terminal as control characters.
    unsigned char u = static_cast<unsigned char>(c);
    quoted.push_back((u < 0x20 && c != '\t') || u == 0x7f ? '?' : c);
  }
  absl::StrAppend(&out, "\n", quoted, "\n", caret, "^");
  return out;
}

absl::Status ErrorAt(const Location& loc, std::string_view message) {
  return absl::InvalidArgumentError(FormatError(loc, message));
}

}  // namespace aotc
