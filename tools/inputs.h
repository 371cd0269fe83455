// Binding command-line inputs to a computation's parameters.
//
// Files bind to array leaves: an array parameter is one leaf, a tuple
// parameter has one per array inside it, named by tuple indices (`p.1.0`).
// `--input NAME=FILE` names a parameter by its instruction name (with or
// without '%') or by its number, followed by the leaf path for a tuple
// parameter; positional FILEs take the leaves of parameters 0, 1, ... in
// order (depth first by tuple index); with a seed, every leaf left unbound
// gets seeded random values. Every leaf must end up bound exactly once.
#ifndef AOTC_TOOLS_INPUTS_H_
#define AOTC_TOOLS_INPUTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/literal.h"

namespace aotc {

struct InputOptions {
  std::vector<std::string> named;       // "NAME=FILE"
  std::vector<std::string> positional;  // "FILE"
  std::optional<uint64_t> random_seed;
};

// One literal per parameter of `entry`, in parameter order. Errors (unknown
// name or leaf, a leaf bound twice or not at all, a file of the wrong shape)
// name the leaf and, for file errors, the file.
absl::StatusOr<std::vector<Literal>> BindInputs(const Computation& entry,
                                                const InputOptions& options);

// Seeded pseudo-random values for an array shape, the same on every
// platform: floats uniform in [-1, 1), signed integers in [-8, 8), unsigned
// integers in [0, 16), pred 0 or 1, complex parts each in [-1, 1).
// `stream` separates parameters: parameter i uses stream i.
Literal RandomLiteral(const Shape& shape, uint64_t seed, uint64_t stream);

}  // namespace aotc

#endif  // AOTC_TOOLS_INPUTS_H_
