// What a composite is, read back from the call the front ends make of it.
//
// Both front ends turn a composite (StableHLO's `stablehlo.composite`, or
// XLA's `call ..., is_composite=true`) into a `call` of its decomposition
// with the raw attributes
//
//   is_composite=true,
//   frontend_attributes={composite.attributes=..., composite.name="ns.op",
//                        composite.version="1"}
//
// where composite.attributes is the attribute dictionary as its source
// wrote it: a quoted string from StableHLO text and the proto, a bare `{...}`
// group in JAX's HLO text. ReadComposite gives the three back; passes that
// act on a composite by name (composite kernels, the raising of named
// patterns) read it through here.
#ifndef AOTC_COMPILER_ANALYSIS_COMPOSITE_H_
#define AOTC_COMPILER_ANALYSIS_COMPOSITE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"

namespace aotc {

struct CompositeInfo {
  std::string name;        // "ns.op"
  std::string attributes;  // "{approximate = \"none\"}" as written; "{}"
  int64_t version = 0;
};

// The composite `inst` stands for; nullopt when it is not a composite call
// (not a call, or no is_composite=true). A composite call whose
// frontend_attributes do not parse, or lack a name, is a located error.
absl::StatusOr<std::optional<CompositeInfo>> ReadComposite(
    const Instruction& inst);

// The entries of a frontend_attributes text, `{key="value",key={...},...}`,
// in order: quoted values unescaped, brace groups as written. An error
// (without location) when the text is not of that form.
absl::StatusOr<std::vector<std::pair<std::string, std::string>>>
ParseFrontendAttributes(std::string_view text);

}  // namespace aotc

#endif  // AOTC_COMPILER_ANALYSIS_COMPOSITE_H_
