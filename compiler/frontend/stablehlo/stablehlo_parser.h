// StableHLO front end: the MLIR text form of StableHLO (what JAX's
// `jax.jit(f).lower(...).as_text()` and the StableHLO test suite contain) ->
// aotc IR.
//
// Accepts `module` with `func.func` definitions (public and private), `call`
// / `func.call`, `return` / `func.return` / `stablehlo.return`, the pretty
// and the generic form of the StableHLO operations aotc maps to HLO opcodes
// (docs/stablehlo.md lists them), regions as called computations, and
// `chlo.*` operations through LowerChloOp (chlo_lowering.h). Each function
// becomes a computation of the same name; the entry is `@main`, else the only
// public function. Dynamic shapes are refused. Errors are located:
// `file:line:col: error: message`, source line, caret. The result is not
// verified; LoadModule (frontend/load_module.h) runs the verifier.
#ifndef AOTC_COMPILER_FRONTEND_STABLEHLO_STABLEHLO_PARSER_H_
#define AOTC_COMPILER_FRONTEND_STABLEHLO_STABLEHLO_PARSER_H_

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "compiler/ir/module.h"

namespace aotc {

absl::StatusOr<std::unique_ptr<Module>> ParseStableHlo(
    std::string_view text, std::string_view filename);

// Whether `contents` looks like StableHLO text: printable, and the first
// token after whitespace and `//` comments is `module`, `func.func` or a
// `#loc` alias, or the text contains `stablehlo.` or `func.func`.
bool LooksLikeStableHlo(std::string_view contents);

}  // namespace aotc

#endif  // AOTC_COMPILER_FRONTEND_STABLEHLO_STABLEHLO_PARSER_H_
