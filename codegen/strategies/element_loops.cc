// The generic strategies: a variadic reduce's shared loop, the
// AllocateBuffer custom-call, and one loop nest per output leaf over the
// element generators.
#include "codegen/strategies/element_loops.h"

#include <algorithm>

#include "compiler/ir/custom_call_targets.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// The input elements one output element of `inst` reads, roughly: the
// largest array input's elements over the output's elements, at least 1
// (1 for element-wise loops, the row length for a row reduction). A
// convolution element reads a kernel's worth for one output feature, which
// the ratio underestimates when the kernel is small next to the input.
int64_t WorkPerElement(const Instruction& inst) {
  if (inst.opcode() == Opcode::kConvolution && inst.operand_count() == 2) {
    const Shape& kernel = inst.operand(1)->shape();
    const int64_t d = inst.conv_dnums().kernel_output_feature;
    if (kernel.IsArray() && d >= 0 && d < kernel.rank()) {
      return std::max<int64_t>(
          1, kernel.ElementCount() /
                 std::max<int64_t>(1, kernel.dimensions(d)));
    }
  }
  int64_t inputs = 0;
  for (const Instruction* o : inst.operands()) {
    for (const Shape* leaf : o->shape().Leaves()) {
      if (leaf->IsArray()) inputs = std::max(inputs, leaf->ElementCount());
    }
  }
  int64_t outputs = 0;
  for (const Shape* leaf : inst.shape().Leaves()) outputs += leaf->ElementCount();
  return std::max<int64_t>(1, inputs / std::max<int64_t>(1, outputs));
}

// The shape every output leaf shares (dimensions and layout), which a
// parallel loop can split; null when they differ.
const Shape* CommonLeafShape(const Instruction& inst) {
  const std::vector<const Shape*> leaves = inst.shape().Leaves();
  if (leaves.empty()) return nullptr;
  const Shape* first = leaves[0];
  for (const Shape* s : leaves) {
    if (!s->SameDimensions(*first) ||
        s->layout().minor_to_major != first->layout().minor_to_major) {
      return nullptr;
    }
  }
  return first;
}

}  // namespace

// All results of a variadic reduce at each index, computed in one pass
// over the reduced elements.
std::optional<StrategyPlan> PlanVariadicReduce(const Instruction& inst) {
  if (inst.opcode() != Opcode::kReduce || inst.shape().Leaves().size() < 2) {
    return std::nullopt;
  }
  StrategyPlan plan;
  plan.loop_shape = CommonLeafShape(inst);
  plan.split_skips_unit_dims = true;  // EmitArrayLoop over that shape
  plan.work_per_element = WorkPerElement(inst);
  plan.emit = [](const LoopArgs& a) -> absl::Status {
    ElementalEmitter emitter(a.mc, a.b);
    return EmitArrayLoop(
        a.b, a.out[0].shape(), a.inst.name(),
        [&](const Index& index) -> absl::Status {
          ASSIGN_OR_RETURN(std::vector<Value*> values,
                           emitter.EmitReduce(a.inst, a.ops, index));
          for (size_t k = 0; k < a.out.size(); ++k) {
            a.out[k].Write(a.b, index, values[k]);
          }
          return absl::OkStatus();
        },
        a.begin, a.end);
  };
  return plan;
}

// The `AllocateBuffer` custom-call: buffers of its own whose contents are
// unspecified until the program writes them (as in XLA), so no code at all.
std::optional<StrategyPlan> PlanAllocateBuffer(const Instruction& inst) {
  if (inst.opcode() != Opcode::kCustomCall ||
      inst.custom_call_target() != kAllocateBufferTarget ||
      inst.operand_count() != 0) {
    return std::nullopt;
  }
  for (const Shape* leaf : inst.shape().Leaves()) {
    if (!leaf->IsArray()) return std::nullopt;
  }
  StrategyPlan plan;
  plan.emit = [](const LoopArgs&) { return absl::OkStatus(); };
  return plan;
}

// One loop nest per output leaf, each element from the leaf's generator.
std::optional<StrategyPlan> PlanElementLoops(const Instruction& inst) {
  if (!HasElementalForm(inst)) return std::nullopt;
  StrategyPlan plan;
  plan.loop_shape = CommonLeafShape(inst);
  plan.split_skips_unit_dims = true;  // EmitArrayLoop over that shape
  plan.work_per_element = WorkPerElement(inst);
  plan.emit = [](const LoopArgs& a) -> absl::Status {
    ElementalEmitter emitter(a.mc, a.b);
    ASSIGN_OR_RETURN(LeafGenerators leaves,
                     emitter.MakeGenerators(a.inst, a.ops));
    for (size_t k = 0; k < a.out.size(); ++k) {
      const IrArray& array = a.out[k];
      const Generator& g = leaves[k];
      RETURN_IF_ERROR(EmitArrayLoop(
          a.b, array.shape(), a.inst.name(),
          [&](const Index& index) -> absl::Status {
            ASSIGN_OR_RETURN(Value * v, g(index));
            array.Write(a.b, index, v);
            return absl::OkStatus();
          },
          a.begin, a.end));
    }
    return absl::OkStatus();
  };
  return plan;
}

}  // namespace aotc::codegen
