// Buffer donation: the module header's `input_output_alias`, as JAX's
// `donate_argnums` and training steps produce it:
//
//   HloModule step, input_output_alias={ {0}: (1, {}, may-alias), {1}: (2, {}) }
//
// Each entry says that the root's leaf at the output index may (may-alias,
// the default) or must (must-alias) live in the buffer of the entry
// parameter's leaf at the parameter index: the caller donates that argument,
// and the result is written into it. The attribute stays in the module's
// header attributes verbatim (the printer reproduces it); this reads it.
#ifndef AOTC_COMPILER_IR_INPUT_OUTPUT_ALIAS_H_
#define AOTC_COMPILER_IR_INPUT_OUTPUT_ALIAS_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace aotc {

class Module;

struct InputOutputAlias {
  std::vector<int64_t> output_index;     // tuple indices into the root shape
  int64_t parameter = 0;                 // entry parameter number
  std::vector<int64_t> parameter_index;  // tuple indices into the parameter
  bool must_alias = false;
};

// Parses the attribute's value text, e.g. "{ {0}: (1, {}, may-alias) }".
// Errors name the offending position in the text.
absl::StatusOr<std::vector<InputOutputAlias>> ParseInputOutputAliasText(
    std::string_view text);

// The module's aliases (none when the attribute is absent), checked against
// its entry computation: each output index names an array leaf of the root,
// each parameter index an array leaf of an existing parameter, both leaves
// have the same byte size, and no output leaf or parameter leaf appears
// twice. Errors are located at the module's first line.
absl::StatusOr<std::vector<InputOutputAlias>> InputOutputAliases(
    const Module& module);

// For each array leaf of the entry's root (depth first), the argument leaf
// whose buffer holds it, or -1. Argument leaves are the array leaves of the
// entry parameters in parameter order, depth first inside a tuple (the
// header's arguments). The aliases must be valid (InputOutputAliases).
std::vector<int> DonatedArgumentPerResult(
    const Module& module, const std::vector<InputOutputAlias>& aliases);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_INPUT_OUTPUT_ALIAS_H_
