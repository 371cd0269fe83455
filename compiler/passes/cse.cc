// Merging of identical instructions, bucketed by a hash of opcode, operands
// and shape so that each instruction is compared with few others.
#include "compiler/passes/cse.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "absl/hash/hash.h"
#include "compiler/analysis/side_effects.h"

namespace aotc {
namespace {

bool SameLiteral(const std::optional<Literal>& a,
                 const std::optional<Literal>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a.has_value()) return true;
  if (a->elided() || b->elided()) return false;
  return a->BitwiseEquals(*b);
}

// Every field of InstructionAttributes (a field added there must be added
// here, or different instructions would be merged).
bool SameAttributes(const InstructionAttributes& a,
                    const InstructionAttributes& b) {
  return a.parameter_number == b.parameter_number &&
         a.tuple_index == b.tuple_index && a.dimensions == b.dimensions &&
         a.slice == b.slice && a.padding == b.padding && a.window == b.window &&
         a.conv_dnums == b.conv_dnums &&
         a.feature_group_count == b.feature_group_count &&
         a.batch_group_count == b.batch_group_count &&
         a.dot_dnums == b.dot_dnums && a.gather_dnums == b.gather_dnums &&
         a.slice_sizes == b.slice_sizes && a.scatter_dnums == b.scatter_dnums &&
         a.dynamic_slice_sizes == b.dynamic_slice_sizes &&
         a.comparison_direction == b.comparison_direction &&
         a.comparison_type == b.comparison_type &&
         SameLiteral(a.literal, b.literal) && a.fusion_kind == b.fusion_kind &&
         a.exponent_bits == b.exponent_bits &&
         a.mantissa_bits == b.mantissa_bits &&
         a.custom_call_target == b.custom_call_target &&
         a.operand_layout_constraints == b.operand_layout_constraints &&
         a.indices_are_sorted == b.indices_are_sorted &&
         a.unique_indices == b.unique_indices && a.is_stable == b.is_stable &&
         a.operand_precision == b.operand_precision &&
         a.algorithm == b.algorithm && a.k == b.k && a.largest == b.largest &&
         a.fft_type == b.fft_type && a.fft_length == b.fft_length &&
         a.left_side == b.left_side && a.lower == b.lower &&
         a.unit_diagonal == b.unit_diagonal && a.transpose_a == b.transpose_a;
}

bool Identical(const Instruction& a, const Instruction& b) {
  return a.opcode() == b.opcode() && a.operands() == b.operands() &&
         a.shape() == b.shape() &&
         a.called_computations() == b.called_computations() &&
         a.raw_attributes() == b.raw_attributes() &&
         SameAttributes(a.attrs(), b.attrs());
}

bool Mergeable(const Instruction& inst, const SideEffects& effects) {
  const Opcode op = inst.opcode();
  if (op == Opcode::kParameter || IsCollective(op) || effects.Has(inst)) {
    return false;
  }
  if (op == Opcode::kConstant) {
    return inst.attrs().literal.has_value() && !inst.attrs().literal->elided();
  }
  return true;
}

// Equal for identical instructions. Operand pointers only pick a bucket;
// which instruction is kept depends on definition order alone.
size_t BucketKey(const Instruction& inst) {
  std::vector<uintptr_t> operands;
  operands.reserve(inst.operand_count());
  for (const Instruction* o : inst.operands()) {
    operands.push_back(reinterpret_cast<uintptr_t>(o));
  }
  size_t key = absl::HashOf(static_cast<int>(inst.opcode()), operands,
                            inst.shape().ToString());
  if (inst.opcode() == Opcode::kConstant) {
    const Literal& literal = *inst.attrs().literal;
    key = absl::HashOf(
        key, std::string_view(reinterpret_cast<const char*>(literal.raw()),
                              literal.raw_size()));
  }
  return key;
}

bool RunOnComputation(Computation& comp, const SideEffects& effects) {
  // Lookup only: each bucket lists the kept instructions in definition order.
  std::unordered_map<size_t, std::vector<Instruction*>> buckets;
  std::vector<Instruction*> merged;
  std::vector<Instruction*> order;
  for (const auto& inst : comp.instructions()) order.push_back(inst.get());
  for (Instruction* inst : order) {
    if (!Mergeable(*inst, effects)) continue;
    std::vector<Instruction*>& bucket = buckets[BucketKey(*inst)];
    Instruction* same = nullptr;
    for (Instruction* candidate : bucket) {
      if (Identical(*candidate, *inst)) {
        same = candidate;
        break;
      }
    }
    if (same == nullptr) {
      bucket.push_back(inst);
      continue;
    }
    inst->ReplaceAllUsesWith(same);
    merged.push_back(inst);
  }
  for (Instruction* inst : merged) comp.RemoveInstruction(inst);
  return !merged.empty();
}

}  // namespace

absl::StatusOr<bool> CommonSubexpressionElimination::Run(Module& module) {
  const SideEffects effects(module);
  bool changed = false;
  for (const auto& comp : module.computations()) {
    changed = RunOnComputation(*comp, effects) || changed;
  }
  return changed;
}

}  // namespace aotc
