// GenerateHeader: the C/C++ header NAME.h of a compiled model.
//
// The header compiles as C99 and as C++17 (and later) without warnings under
// -Wall -Wextra -pedantic. It holds, in order: a comment with the HLO
// signature, the argument and result names, shapes and layouts; size and
// shape macros (NAME_TEMP_BYTES, NAME_CONSTANTS_BYTES, NAME_ARG0_BYTES, ...);
// the extern "C" declarations of NAME_run and NAME_run_packed; and, for C++
// only, a class wrapping NAME_run. docs/header.md describes the format. The
// same signature always gives byte-identical text.
#ifndef AOTC_CODEGEN_HEADER_HEADER_WRITER_H_
#define AOTC_CODEGEN_HEADER_HEADER_WRITER_H_

#include <string>

#include "codegen/header/signature.h"

namespace aotc::codegen {

std::string GenerateHeader(const ModelSignature& sig);

// The C++ wrapper class's name: CamelCase(sig.name), e.g. "my_model" ->
// "MyModel".
std::string CppClassName(const ModelSignature& sig);

// The symbols the compiled object exports: "NAME_run", "NAME_run_packed".
std::string RunSymbol(const ModelSignature& sig);
std::string RunPackedSymbol(const ModelSignature& sig);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_HEADER_HEADER_WRITER_H_
