// Element generators: each HLO array value as a function from an Index to
// the element's compute value, emitted at the builder's insertion point.
//
// An instruction's generator is built from its operands' generators, so the
// same code serves three uses: materializing one instruction into a buffer
// (operands read from their buffers), inlining a fusion computation (the
// fused instructions call each other's generators and never touch memory),
// and computing scalar computations such as reducers (rank-0 indices).
#ifndef AOTC_CODEGEN_ELEMENTAL_ELEMENTAL_EMITTER_H_
#define AOTC_CODEGEN_ELEMENTAL_ELEMENTAL_EMITTER_H_

#include <functional>
#include <map>
#include <vector>

#include "absl/status/statusor.h"
#include "codegen/emit/ir_array.h"
#include "codegen/emit/module_context.h"
#include "compiler/ir/instruction.h"

namespace aotc::codegen {

using Generator = std::function<absl::StatusOr<llvm::Value*>(const Index&)>;
// One generator per array leaf of a value (one for an array value).
using LeafGenerators = std::vector<Generator>;

// A generator reading `array` (whose Shape must outlive the generator).
Generator ArrayReader(llvm::IRBuilderBase& b, IrArray array);

class ElementalEmitter {
 public:
  ElementalEmitter(ModuleContext& mc, llvm::IRBuilderBase& b)
      : mc_(mc), b_(b) {}

  // The leaf generators of `inst` from its operands' leaf generators.
  // Errors (located at inst) for opcodes that have no element-wise form
  // here (while, conditional, sort...) or are not defined for the type.
  absl::StatusOr<LeafGenerators> MakeGenerators(
      const Instruction& inst, const std::vector<LeafGenerators>& operands);

  // All results of a reduce at `index` (one per output of a variadic
  // reduce), computed in one pass.
  absl::StatusOr<std::vector<llvm::Value*>> EmitReduce(
      const Instruction& inst, const std::vector<LeafGenerators>& operands,
      const Index& index);

  // Values of several single-result reduces that share their operand
  // dimensions and reduced dimensions, at `index`, computed in one loop over
  // the reduced positions (each with its own accumulator): siblings of a
  // multi-output fusion read their common input once. `at_element`, when
  // given, runs at every reduced position before the reduces accumulate,
  // with the index into their operand shape.
  absl::StatusOr<std::vector<llvm::Value*>> EmitReduceGroup(
      const std::vector<const Instruction*>& reduces,
      const std::vector<std::vector<LeafGenerators>>& operands,
      const Index& index,
      const std::function<absl::Status(const Index&)>& at_element = nullptr);

  // Generators of every instruction of `comp` reachable from its root, with
  // its parameters given; returns the root's leaf generators. Instructions
  // in `overrides` use the given generators instead of their own.
  absl::StatusOr<LeafGenerators> EmitComputation(
      const Computation& comp, const std::vector<LeafGenerators>& parameters,
      const std::map<const Instruction*, LeafGenerators>* overrides = nullptr);
  // The same, returning every instruction's generators.
  absl::StatusOr<std::map<const Instruction*, LeafGenerators>>
  EmitComputationValues(
      const Computation& comp, const std::vector<LeafGenerators>& parameters,
      const std::map<const Instruction*, LeafGenerators>* overrides = nullptr);

  // Calls the scalar computation `comp` on compute values; returns its
  // root's leaves.
  absl::StatusOr<std::vector<llvm::Value*>> CallScalar(
      const Computation& comp, const std::vector<llvm::Value*>& args);

  // Start indices of dynamic-slice / dynamic-update-slice: the scalar
  // operands [first, first + rank), or the rank-1 operand `first`, clamped
  // to [0, dim - size] per dimension.
  absl::StatusOr<std::vector<llvm::Value*>> ClampedStarts(
      const Instruction& inst, const std::vector<LeafGenerators>& ops,
      int first, const std::vector<int64_t>& sizes);

 private:
  absl::StatusOr<Generator> Movement(const Instruction& inst,
                                     const std::vector<LeafGenerators>& ops);
  absl::StatusOr<Generator> Pad(const Instruction& inst,
                                const std::vector<LeafGenerators>& ops);
  absl::StatusOr<Generator> Concatenate(const Instruction& inst,
                                        const std::vector<LeafGenerators>& ops);
  absl::StatusOr<Generator> DynamicSlice(const Instruction& inst,
                                         const std::vector<LeafGenerators>& ops);
  absl::StatusOr<Generator> DynamicUpdateSlice(
      const Instruction& inst, const std::vector<LeafGenerators>& ops);
  // gather.cc: every dimension-numbers form the evaluator
  // accepts, start indices of any integer type clamped into the operand.
  absl::StatusOr<Generator> Gather(const Instruction& inst,
                                   const std::vector<LeafGenerators>& ops);
  // convolution.cc: every window, dimension-numbers and group
  // form, summed in the evaluator's order.
  absl::StatusOr<Generator> Convolution(const Instruction& inst,
                                        const std::vector<LeafGenerators>& ops);
  // The accumulators of a reduce or reduce-window (allocas of the reducer's
  // parameter types), set to the init operands [n, 2n).
  absl::StatusOr<std::vector<llvm::AllocaInst*>> InitAccumulators(
      const Instruction& inst, const std::vector<LeafGenerators>& ops);
  // acc = reducer(acc..., operand_k(index)...).
  absl::Status Accumulate(const Instruction& inst,
                          const std::vector<LeafGenerators>& ops,
                          const std::vector<llvm::AllocaInst*>& acc,
                          const Index& index);
  // Accumulator k converted to the type of result leaf k.
  llvm::Value* AccumulatorResult(const Instruction& inst,
                                 const std::vector<llvm::AllocaInst*>& acc,
                                 int k);
  absl::StatusOr<Generator> ReduceWindow(const Instruction& inst,
                                         const std::vector<LeafGenerators>& ops,
                                         int leaf);
  absl::StatusOr<Generator> Dot(const Instruction& inst,
                                const std::vector<LeafGenerators>& ops);
  absl::StatusOr<Generator> Map(const Instruction& inst,
                                const std::vector<LeafGenerators>& ops);
  // One array leaf of a constant: scalars become immediates, arrays are
  // read from a read-only global.
  absl::StatusOr<Generator> Constant(const Instruction& inst,
                                     const Literal& literal);

  ModuleContext& mc_;
  llvm::IRBuilderBase& b_;
};

// Evaluates a generator at `index`, converting a value of element type
// `from` into `to` when they differ.
absl::StatusOr<llvm::Value*> GenerateAs(llvm::IRBuilderBase& b,
                                        const Generator& g, const Index& index,
                                        PrimitiveType from, PrimitiveType to);

// The index into a scalar (rank-0) operand.
Index ScalarIndex(const Shape& scalar_shape);

// The position of tuple element `index`'s first array leaf among the array
// leaves of `tuple`.
int FirstLeafOf(const Shape& tuple, int64_t index);

// The leaves of get-tuple-element `gte`, picked from its operand's leaves
// (generators, buffers...).
template <typename T>
std::vector<T> TupleElementLeaves(const Instruction& gte,
                                  const std::vector<T>& operand_leaves) {
  const int first = FirstLeafOf(gte.operand(0)->shape(), gte.tuple_index());
  const int count = static_cast<int>(gte.shape().Leaves().size());
  return std::vector<T>(operand_leaves.begin() + first,
                        operand_leaves.begin() + first + count);
}

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_ELEMENTAL_ELEMENTAL_EMITTER_H_
