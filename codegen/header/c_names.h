// C and C++ identifiers for the generated interface of a compiled model.
//
// Every symbol, macro, class and member the generated header declares is
// derived from the model name and the argument and result names. These
// functions decide which names are acceptable and how arbitrary text (a file
// name, an HLO instruction name) becomes one:
//   - IsValidCIdentifier: [A-Za-z_][A-Za-z0-9_]* and not a keyword of C99,
//     C11, C23 or C++17/20 (alternative tokens such as `and` included).
//   - HasReservedUnderscores: a leading or trailing '_' or a "__" anywhere.
//     Such names are refused: after the `NAME_` / `_BYTES` affixes they would
//     produce identifiers that C and C++ reserve to the implementation.
//   - SanitizeIdentifier: every byte outside [A-Za-z0-9_] becomes '_', runs
//     of '_' collapse to one, and leading and trailing '_' are dropped
//     ("Arg_0.1" -> "Arg_0_1", "my-model.v2" -> "my_model_v2").
#ifndef AOTC_CODEGEN_HEADER_C_NAMES_H_
#define AOTC_CODEGEN_HEADER_C_NAMES_H_

#include <string>
#include <string_view>

namespace aotc::codegen {

// True when `s` is an identifier in both C and C++ and no keyword of either.
bool IsValidCIdentifier(std::string_view s);

// True when `s` is a keyword (or alternative token) of C or C++.
bool IsCOrCppKeyword(std::string_view s);

// True when `s` starts or ends with '_' or contains "__".
bool HasReservedUnderscores(std::string_view s);

// See the file comment; may return "" or a string starting with a digit,
// which callers handle.
std::string SanitizeIdentifier(std::string_view text);

// The default model name for an input path: the file name without its last
// extension, sanitized. A result that is empty becomes "model"; one that
// starts with a digit or is a keyword gets the prefix "m_" (not "_", since
// file-scope names starting with '_' are reserved in C).
//   "dir/my-model.v2.hlo" -> "my_model_v2", "2layer.pb" -> "m_2layer",
//   "int.hlo" -> "m_int", ".hlo" -> "model"
std::string ModelNameFromPath(std::string_view path);

// "my_model_v2" -> "MyModelV2": the '_'-separated parts, each with its first
// letter upper-cased, joined. Used for the C++ class name and the k<Name>...
// constants. A result that is empty or starts with a digit gets the prefix
// "Model".
std::string CamelCase(std::string_view name);

// ASCII upper case: the spelling of names inside macros ("my_model" ->
// "MY_MODEL").
std::string UpperCase(std::string_view name);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_HEADER_C_NAMES_H_
