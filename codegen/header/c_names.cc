// Identifier checks and conversions for the generated model interface.
//
// Plain ASCII rules on purpose: the names end up in C and C++ source that
// must compile with any compiler, so nothing locale- or Unicode-dependent
// may decide what an identifier is.
#include "codegen/header/c_names.h"

#include <algorithm>
#include <iterator>

namespace aotc::codegen {
namespace {

// Keywords of C99, C11 and C23 and of C++20, plus C++'s alternative tokens,
// which cannot be identifiers either. Identifiers with a special meaning only
// in some contexts (final, override, import, module) are usable names.
// clang-format off
constexpr std::string_view kKeywords[] = {
    "_Alignas", "_Alignof", "_Atomic", "_BitInt", "_Bool", "_Complex",
    "_Decimal128", "_Decimal32", "_Decimal64", "_Generic", "_Imaginary",
    "_Noreturn", "_Static_assert", "_Thread_local", "alignas", "alignof",
    "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
    "case", "catch", "char", "char16_t", "char32_t", "char8_t", "class",
    "co_await", "co_return", "co_yield", "compl", "concept", "const",
    "const_cast", "consteval", "constexpr", "constinit", "continue",
    "decltype", "default", "delete", "do", "double", "dynamic_cast", "else",
    "enum", "explicit", "export", "extern", "false", "float", "for", "friend",
    "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
    "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq",
    "private", "protected", "public", "register", "reinterpret_cast",
    "requires", "restrict", "return", "short", "signed", "sizeof", "static",
    "static_assert", "static_cast", "struct", "switch", "template", "this",
    "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
    "typeof", "typeof_unqual", "union", "unsigned", "using", "virtual",
    "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
};
// clang-format on

bool IsAsciiLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentifierChar(char c) {
  return IsAsciiLetter(c) || IsAsciiDigit(c) || c == '_';
}

char ToUpper(char c) { return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c; }

}  // namespace

bool IsCOrCppKeyword(std::string_view s) {
  return std::find(std::begin(kKeywords), std::end(kKeywords), s) !=
         std::end(kKeywords);
}

bool IsValidCIdentifier(std::string_view s) {
  if (s.empty() || IsAsciiDigit(s[0])) return false;
  if (!std::all_of(s.begin(), s.end(), IsIdentifierChar)) return false;
  return !IsCOrCppKeyword(s);
}

bool HasReservedUnderscores(std::string_view s) {
  if (s.empty()) return false;
  return s.front() == '_' || s.back() == '_' ||
         s.find("__") != std::string_view::npos;
}

std::string SanitizeIdentifier(std::string_view text) {
  std::string out;
  for (char c : text) {
    char mapped = IsIdentifierChar(c) ? c : '_';
    if (mapped == '_' && (out.empty() || out.back() == '_')) continue;
    out.push_back(mapped);
  }
  if (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

std::string ModelNameFromPath(std::string_view path) {
  size_t slash = path.find_last_of("/\\");
  std::string_view file =
      slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t dot = file.find_last_of('.');
  if (dot != std::string_view::npos) file = file.substr(0, dot);
  std::string name = SanitizeIdentifier(file);
  if (name.empty()) return "model";
  if (IsAsciiDigit(name[0]) || IsCOrCppKeyword(name)) return "m_" + name;
  return name;
}

std::string CamelCase(std::string_view name) {
  std::string out;
  bool start_of_part = true;
  for (char c : name) {
    if (c == '_') {
      start_of_part = true;
      continue;
    }
    out.push_back(start_of_part ? ToUpper(c) : c);
    start_of_part = false;
  }
  if (out.empty() || IsAsciiDigit(out[0])) out.insert(0, "Model");
  return out;
}

std::string UpperCase(std::string_view name) {
  std::string out(name);
  for (char& c : out) c = ToUpper(c);
  return out;
}

}  // namespace aotc::codegen
