// Splits large reductions into partial reductions plus a small final one.
#include "compiler/passes/reduction_splitting.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/rewrite/ir_rewrite.h"

namespace aotc {
namespace {

// The scalar value of a constant as a double, for the identity check.
std::optional<double> ScalarValue(const Instruction& inst) {
  if (inst.opcode() != Opcode::kConstant || !inst.shape().IsScalar() ||
      inst.literal().elided()) {
    return std::nullopt;
  }
  const Literal& l = inst.literal();
  switch (inst.shape().element_type()) {
    case PrimitiveType::kF32: return l.Get<float>(0);
    case PrimitiveType::kF64: return l.Get<double>(0);
    case PrimitiveType::kS8: return l.Get<int8_t>(0);
    case PrimitiveType::kS16: return l.Get<int16_t>(0);
    case PrimitiveType::kS32: return l.Get<int32_t>(0);
    case PrimitiveType::kS64: return static_cast<double>(l.Get<int64_t>(0));
    case PrimitiveType::kU8: return l.Get<uint8_t>(0);
    case PrimitiveType::kU16: return l.Get<uint16_t>(0);
    case PrimitiveType::kU32: return l.Get<uint32_t>(0);
    case PrimitiveType::kU64: return static_cast<double>(l.Get<uint64_t>(0));
    default: return std::nullopt;
  }
}

// Whether `reduce` may be split: one operand, row-major, at least two
// reduced dimensions (one reduced dimension would need a reshape), an add or
// multiply reducer of its two parameters whose order may change, and an
// identity init.
bool IsSplittable(const Instruction& reduce, bool strict_fp) {
  if (reduce.opcode() != Opcode::kReduce || reduce.operand_count() != 2 ||
      !reduce.shape().IsArray()) {
    return false;
  }
  const Shape& in = reduce.operand(0)->shape();
  if (!in.HasDefaultLayout() || !reduce.shape().HasDefaultLayout() ||
      reduce.dimensions().size() < 2 ||
      reduce.shape().ElementCount() >= ReductionSplitting::kMaxOutput ||
      in.ElementCount() < ReductionSplitting::kMinInput) {
    return false;
  }
  const PrimitiveType t = in.element_type();
  const bool is_float = t == PrimitiveType::kF32 || t == PrimitiveType::kF64;
  if (!is_float && !IsInteger(t)) return false;
  if (is_float && strict_fp) return false;
  const Computation& reducer = *reduce.to_apply();
  const Instruction* root = reducer.root();
  if (reducer.num_parameters() != 2 || reducer.instruction_count() != 3 ||
      (root->opcode() != Opcode::kAdd && root->opcode() != Opcode::kMultiply) ||
      root->operand(0)->opcode() != Opcode::kParameter ||
      root->operand(1)->opcode() != Opcode::kParameter ||
      root->operand(0) == root->operand(1)) {
    return false;
  }
  for (const Instruction* p : reducer.parameters()) {
    if (p->shape().element_type() != t) return false;
  }
  const std::optional<double> init = ScalarValue(*reduce.operand(1));
  if (!init.has_value()) return false;
  return *init == (root->opcode() == Opcode::kAdd ? 0.0 : 1.0);
}

}  // namespace

absl::StatusOr<bool> ReductionSplitting::Run(Module& module) {
  NameUniquer names(module);
  bool changed = false;
  for (const auto& comp : module.computations()) {
    if (comp->is_fusion_computation()) continue;
    std::vector<Instruction*> targets;
    // The final reductions take over the original names once the originals
    // are gone.
    std::vector<std::pair<Instruction*, std::string>> renames;
    for (const auto& inst : comp->instructions()) {
      if (IsSplittable(*inst, strict_fp_)) targets.push_back(inst.get());
    }
    for (Instruction* reduce : targets) {
      Instruction* operand = reduce->operand(0);
      Instruction* init = reduce->operand(1);
      const Shape& in = operand->shape();
      std::vector<int64_t> reduced = reduce->dimensions();
      std::sort(reduced.begin(), reduced.end());
      const int64_t outer = reduced.front();
      // The partials keep the outermost reduced dimension.
      std::vector<int64_t> partial_dims, inner_reduced;
      int64_t outer_position = 0;
      for (int64_t d = 0; d < in.rank(); ++d) {
        const bool is_reduced =
            std::binary_search(reduced.begin(), reduced.end(), d);
        if (d == outer) outer_position = static_cast<int64_t>(partial_dims.size());
        if (is_reduced && d != outer) {
          inner_reduced.push_back(d);
        } else {
          partial_dims.push_back(in.dimensions(d));
        }
      }
      auto partial = Instruction::Create(
          Opcode::kReduce, names.Unique(reduce->name() + ".partial"),
          Shape::Array(in.element_type(), partial_dims), {operand, init},
          reduce->location());
      partial->mutable_attrs().dimensions = inner_reduced;
      partial->set_called_computations({reduce->to_apply()});
      partial->mutable_metadata() = reduce->metadata();
      Instruction* p = comp->AddInstruction(std::move(partial));
      auto final_reduce = CloneWithOperands(*reduce, {p, init});
      final_reduce->set_name(names.Unique(reduce->name() + ".final"));
      renames.push_back({nullptr, reduce->name()});
      final_reduce->mutable_attrs().dimensions = {outer_position};
      Instruction* f = comp->AddInstruction(std::move(final_reduce));
      renames.back().first = f;
      reduce->ReplaceAllUsesWith(f);
      changed = true;
    }
    if (!renames.empty()) {
      RemoveDeadInstructions(*comp);
      comp->SortTopologically();
      for (auto& [inst, name] : renames) inst->set_name(std::move(name));
    }
  }
  return changed;
}

}  // namespace aotc
