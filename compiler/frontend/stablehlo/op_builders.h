// StableHLO parser: the one table of the StableHLO operations aotc builds
// (name -> builder), read by the parser's "known operation" check, by
// BuildOp's dispatch and by reducers written as an operation name, and the
// builders it names. build_ops.cc has the table, the element-wise
// operations and those with simple attributes, calls and custom calls;
// build_compound_ops.cc those with dimension numbers, windows or reducers;
// build_regions.cc while, if and case; build_quantized.cc the rules for
// quantized tensors; build_linalg_ops.cc fft, triangular_solve and
// cholesky.
#ifndef AOTC_COMPILER_FRONTEND_STABLEHLO_OP_BUILDERS_H_
#define AOTC_COMPILER_FRONTEND_STABLEHLO_OP_BUILDERS_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/frontend/stablehlo/op_reader.h"
#include "compiler/frontend/stablehlo/parser.h"

namespace aotc::shlo {

// One operation being built: what every builder reads.
struct OpBuild {
  Parser& parser;
  Scope* scope;
  OpState& op;
  std::string_view name;  // without "stablehlo." or "chlo."
  Shape shape;            // the result; a tuple of several results
  OpReader reader;
  Opcode opcode;  // the table's opcode for `name` (unused for CHLO)

  // An instruction of the operation's computation, named after its result
  // and at its location.
  Instruction* Emit(Opcode opcode, Shape s,
                    std::vector<Instruction*> args) const;
  // The same with a name of the caller's choice (made unique).
  Instruction* EmitNamed(Opcode opcode, std::string_view name, Shape s,
                         std::vector<Instruction*> args) const;
};

using OpBuilder = absl::StatusOr<Instruction*> (*)(OpBuild& b);

struct StableHloOp {
  std::string_view name;  // without "stablehlo."
  Opcode opcode;
  OpBuilder build;
  // Maps to `opcode` with the operands in order and no attributes (so it
  // can also be applied as a reducer).
  bool simple;
};

// The table's entry for `name` (without "stablehlo."), or null.
const StableHloOp* FindStableHloOp(std::string_view name);

// The builders of the table (friends of Parser).
struct OpBuilders {
  static absl::StatusOr<Instruction*> Chlo(OpBuild& b);
  static absl::StatusOr<Instruction*> Simple(OpBuild& b);
  static absl::StatusOr<Instruction*> Constant(OpBuild& b);
  static absl::StatusOr<Instruction*> Iota(OpBuild& b);
  static absl::StatusOr<Instruction*> BroadcastInDim(OpBuild& b);
  static absl::StatusOr<Instruction*> Compare(OpBuild& b);
  static absl::StatusOr<Instruction*> Concatenate(OpBuild& b);
  static absl::StatusOr<Instruction*> TransposeOrReverse(OpBuild& b);
  static absl::StatusOr<Instruction*> Slice(OpBuild& b);
  static absl::StatusOr<Instruction*> Pad(OpBuild& b);
  static absl::StatusOr<Instruction*> DynamicSlice(OpBuild& b);
  static absl::StatusOr<Instruction*> ReducePrecision(OpBuild& b);
  static absl::StatusOr<Instruction*> Tuple(OpBuild& b);
  static absl::StatusOr<Instruction*> OptimizationBarrier(OpBuild& b);
  static absl::StatusOr<Instruction*> GetTupleElement(OpBuild& b);
  static absl::StatusOr<Instruction*> Call(OpBuild& b);
  static absl::StatusOr<Instruction*> Composite(OpBuild& b);
  static absl::StatusOr<Instruction*> CustomCall(OpBuild& b);
  static absl::StatusOr<Instruction*> While(OpBuild& b);
  static absl::StatusOr<Instruction*> Conditional(OpBuild& b);
  // build_compound_ops.cc.
  static absl::StatusOr<Instruction*> Dot(OpBuild& b);
  static absl::StatusOr<Instruction*> DotGeneral(OpBuild& b);
  static absl::StatusOr<Instruction*> Gather(OpBuild& b);
  static absl::StatusOr<Instruction*> Scatter(OpBuild& b);
  static absl::StatusOr<Instruction*> Reduce(OpBuild& b);
  static absl::StatusOr<Instruction*> Map(OpBuild& b);
  static absl::StatusOr<Instruction*> Sort(OpBuild& b);
  // reduce_window and select_and_scatter.
  static absl::StatusOr<Instruction*> Windowed(OpBuild& b);
  static absl::StatusOr<Instruction*> Convolution(OpBuild& b);
  // build_complex_ops.cc: the HLO opcode, or its complex meaning.
  static absl::StatusOr<Instruction*> MinMax(OpBuild& b);
  static absl::StatusOr<Instruction*> Convert(OpBuild& b);
  static absl::StatusOr<Instruction*> Atan2(OpBuild& b);
  // build_scan.cc: chlo.scan as a while loop.
  static absl::StatusOr<Instruction*> ChloScan(OpBuild& b);
  // build_ragged_dot.cc: chlo.ragged_dot through dot_general and masks.
  static absl::StatusOr<Instruction*> ChloRaggedDot(OpBuild& b);
  // build_bitcast.cc: HLO's bitcast-convert, or the lowering of one to or
  // from i1 or complex types.
  static absl::StatusOr<Instruction*> BitcastConvert(OpBuild& b);
  // build_quantized.cc: an operation with quantized operands or results,
  // built by `build` after its rule's conversions; the two conversions.
  static absl::StatusOr<Instruction*> Quantized(OpBuild& b, OpBuilder build);
  static absl::StatusOr<Instruction*> UniformQuantize(OpBuild& b);
  static absl::StatusOr<Instruction*> UniformDequantize(OpBuild& b);
  // build_linalg_ops.cc.
  static absl::StatusOr<Instruction*> Fft(OpBuild& b);
  static absl::StatusOr<Instruction*> TriangularSolve(OpBuild& b);
  static absl::StatusOr<Instruction*> Cholesky(OpBuild& b);
};

}  // namespace aotc::shlo

#endif  // AOTC_COMPILER_FRONTEND_STABLEHLO_OP_BUILDERS_H_
