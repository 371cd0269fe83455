// CHLO operations (the "client HLO" ops JAX leaves in StableHLO output, such
// as chlo.lgamma, chlo.erf_inv or chlo.top_k) lowered into aotc IR while the
// StableHLO front end builds a computation.
//
// Where HLO has an opcode of the same meaning (tan, erf, topk, asin, ...) the
// lowering emits that opcode; otherwise it emits the decomposition into
// element-wise HLO operations. Either way the result is ordinary IR that the
// evaluator and code generation handle.
#ifndef AOTC_COMPILER_FRONTEND_STABLEHLO_CHLO_LOWERING_H_
#define AOTC_COMPILER_FRONTEND_STABLEHLO_CHLO_LOWERING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/shape.h"
#include "compiler/support/diagnostic.h"

namespace aotc {

// One CHLO operation as the parser read it.
struct ChloOp {
  std::string name;                   // without the "chlo." prefix: "lgamma"
  std::vector<Instruction*> operands; // already in `computation`
  // The result type; a tuple shape for ops with several results (top_k:
  // values, indices).
  Shape result_shape;
  std::optional<int64_t> k;           // top_k
  // broadcast_compare and friends, when the parser meets them.
  std::optional<ComparisonDirection> comparison_direction;
  Location location;
};

// Adds the instructions computing `op` to `computation` and returns the one
// holding the result (for several results, a tuple). Instruction names are
// made unique within the computation. An unknown CHLO op is an error located
// at op.location.
absl::StatusOr<Instruction*> LowerChloOp(const ChloOp& op,
                                         Computation& computation);

}  // namespace aotc

#endif  // AOTC_COMPILER_FRONTEND_STABLEHLO_CHLO_LOWERING_H_
