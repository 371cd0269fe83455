// HLO text parser: the text XLA's and JAX's printers emit -> aotc IR.
//
// Accepts the module header and its attributes, stack-frame tables, ENTRY and
// nested computations, ROOT, `//` and `/* */` comments, every opcode of
// opcode.def, constants of every element type (including inf/nan and large
// arrays) and elided constants `{...}`. Dynamic dimensions are refused.
// Errors are located: `file:line:col: error: message`, source line, caret.
// The result is not verified; LoadModule (frontend/load_module.h) runs the
// verifier.
#ifndef AOTC_COMPILER_FRONTEND_TEXT_HLO_PARSER_H_
#define AOTC_COMPILER_FRONTEND_TEXT_HLO_PARSER_H_

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "compiler/ir/module.h"

namespace aotc {

absl::StatusOr<std::unique_ptr<Module>> ParseHloText(std::string_view text,
                                                     std::string_view filename);

}  // namespace aotc

#endif  // AOTC_COMPILER_FRONTEND_TEXT_HLO_PARSER_H_
