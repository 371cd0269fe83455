// Computation bookkeeping.
#include "compiler/ir/computation.h"

#include <algorithm>

namespace aotc {

Instruction* Computation::AddInstruction(std::unique_ptr<Instruction> inst) {
  inst->set_parent(this);
  instructions_.push_back(std::move(inst));
  return instructions_.back().get();
}

void Computation::RemoveInstruction(Instruction* inst) {
  AOTC_CHECK(inst->users().empty(), "removing an instruction that has users");
  AOTC_CHECK(inst != root_, "removing the root instruction");
  auto it = std::find_if(instructions_.begin(), instructions_.end(),
                         [&](const auto& p) { return p.get() == inst; });
  AOTC_CHECK(it != instructions_.end(), "instruction not in this computation");
  std::unique_ptr<Instruction> owned = std::move(*it);
  instructions_.erase(it);
  owned->DropAllOperands();
}

std::vector<Instruction*> Computation::parameters() const {
  std::vector<Instruction*> params;
  for (const auto& inst : instructions_) {
    if (inst->opcode() == Opcode::kParameter) params.push_back(inst.get());
  }
  std::stable_sort(params.begin(), params.end(),
                   [](const Instruction* a, const Instruction* b) {
                     return a->attrs().parameter_number <
                            b->attrs().parameter_number;
                   });
  return params;
}

int Computation::num_parameters() const {
  int n = 0;
  for (const auto& inst : instructions_) {
    if (inst->opcode() == Opcode::kParameter) ++n;
  }
  return n;
}

Instruction* Computation::parameter(int64_t i) const {
  for (const auto& inst : instructions_) {
    if (inst->opcode() == Opcode::kParameter &&
        inst->attrs().parameter_number == i) {
      return inst.get();
    }
  }
  return nullptr;
}

Instruction* Computation::FindInstruction(std::string_view name) const {
  for (const auto& inst : instructions_) {
    if (inst->name() == name) return inst.get();
  }
  return nullptr;
}

}  // namespace aotc
