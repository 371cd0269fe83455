// GenerateJson: NAME.json, the machine-readable description of a compiled
// model for build systems and runtimes that load it without parsing C.
//
// Pretty-printed (two-space indent) with keys in a fixed order, so the same
// signature always gives byte-identical text; ends with a newline.
// docs/header.md lists the fields. Strings that are not valid UTF-8 (HLO
// names from a binary proto) have the invalid bytes replaced by U+FFFD.
#ifndef AOTC_CODEGEN_HEADER_MODEL_JSON_H_
#define AOTC_CODEGEN_HEADER_MODEL_JSON_H_

#include <string>

#include "codegen/header/signature.h"
#include "compiler/ir/module.h"

namespace aotc::codegen {

// With `module` (the optimized module that was compiled), the JSON also
// carries "fusion" (compiler/analysis/fusion_report.h) and "memory" (the
// entry's buffer plan, compiler/analysis/buffer_assignment.h).
std::string GenerateJson(const ModelSignature& sig,
                         const Module* module = nullptr);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_HEADER_MODEL_JSON_H_
