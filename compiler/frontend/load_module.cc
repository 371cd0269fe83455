// Reading a model file, telling HLO text from a binary HloModuleProto by its
// bytes, and handing it to the right front end and then to the verifier.
//
// StableHLO: text whose first token is `module`, `func.func` or a `#loc`
// alias (stablehlo_parser.h); checked first, since `module {` would also
// pass for an HLO computation named "module". Text: every byte is printable
// (or whitespace, or part of a UTF-8 sequence) and the first token after
// whitespace and comments is `HloModule`, `ENTRY`, or a computation name
// followed by its signature or body. Text that is neither but mentions
// `stablehlo.` or `func.func` goes to the StableHLO parser, whose located
// error says what is wrong. Proto: the top level is well-formed protobuf wire
// format holding computations, directly or inside an HloProto (wire_scan.h).
// The check only walks tags and lengths; the importer does the full parse.
#include "compiler/frontend/load_module.h"

#include <cctype>

#include "compiler/frontend/proto/proto_importer.h"
#include "compiler/frontend/proto/wire_scan.h"
#include "compiler/frontend/stablehlo/stablehlo_parser.h"
#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/verifier.h"
#include "compiler/support/file_io.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

Location FileLocation(std::string_view filename) {
  return Location{
      std::make_shared<SourceFile>(SourceFile{std::string(filename), ""}), 0,
      0};
}

bool IsTextByte(unsigned char c) {
  return c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c != 0x7f);
}

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
         c == '-' || c == '%';
}

// Skips whitespace and `//` / `/* */` comments from `pos`.
size_t SkipSpaceAndComments(std::string_view s, size_t pos) {
  while (pos < s.size()) {
    if (std::isspace(static_cast<unsigned char>(s[pos]))) {
      ++pos;
    } else if (s.substr(pos, 2) == "//") {
      size_t nl = s.find('\n', pos);
      pos = nl == std::string_view::npos ? s.size() : nl + 1;
    } else if (s.substr(pos, 2) == "/*") {
      size_t end = s.find("*/", pos + 2);
      pos = end == std::string_view::npos ? s.size() : end + 2;
    } else {
      break;
    }
  }
  return pos;
}

bool AllTextBytes(std::string_view contents) {
  for (char c : contents) {
    if (!IsTextByte(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

bool LooksLikeHloText(std::string_view contents) {
  if (!AllTextBytes(contents)) return false;
  size_t pos = SkipSpaceAndComments(contents, 0);
  size_t end = pos;
  while (end < contents.size() && IsNameChar(contents[end])) ++end;
  std::string_view token = contents.substr(pos, end - pos);
  if (token == "HloModule" || token == "ENTRY") return true;
  if (token.empty() || token == "%") return false;
  // A module without header starts with a computation: `name (...) -> ...`
  // or `name {`.
  size_t next = SkipSpaceAndComments(contents, end);
  return next < contents.size() &&
         (contents[next] == '(' || contents[next] == '{');
}

// "path: error: cannot read file: reason", the system's reason in lower case
// like every aotc message.
}  // namespace

absl::StatusOr<InputKind> DetectInputKind(std::string_view contents,
                                          std::string_view filename) {
  if (SkipSpaceAndComments(contents, 0) == contents.size() &&
      AllTextBytes(contents)) {
    return ErrorAt(FileLocation(filename), "input is empty");
  }
  const bool text = AllTextBytes(contents);
  if (text && LooksLikeStableHlo(contents)) return InputKind::kStableHlo;
  if (LooksLikeHloText(contents)) return InputKind::kHloText;
  if (ClassifyHloProtoBytes(contents) != ProtoKind::kNone) {
    return InputKind::kHloProto;
  }
  if (text && (contents.find("stablehlo.") != std::string_view::npos ||
               contents.find("func.func") != std::string_view::npos)) {
    return InputKind::kStableHlo;
  }
  return ErrorAt(FileLocation(filename),
                 "input is not HLO text, StableHLO text or an "
                 "HloModuleProto");
}

absl::StatusOr<std::unique_ptr<Module>> LoadModuleFromString(
    std::string_view contents, std::string_view filename) {
  ASSIGN_OR_RETURN(InputKind kind, DetectInputKind(contents, filename));
  absl::StatusOr<std::unique_ptr<Module>> module =
      kind == InputKind::kHloText     ? ParseHloText(contents, filename)
      : kind == InputKind::kStableHlo ? ParseStableHlo(contents, filename)
                                      : ImportHloProto(contents, filename);
  if (!module.ok()) return module.status();
  RETURN_IF_ERROR(VerifyModule(**module));
  return module;
}

absl::StatusOr<std::unique_ptr<Module>> LoadModuleFromFile(
    const std::string& path) {
  ASSIGN_OR_RETURN(std::string contents, ReadFile(path));
  return LoadModuleFromString(contents, path);
}

}  // namespace aotc
