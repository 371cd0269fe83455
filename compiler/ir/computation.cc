// Computation bookkeeping.
#include "compiler/ir/computation.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

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

void Computation::RemoveInstructions(const std::vector<Instruction*>& insts) {
  std::unordered_map<const Instruction*, bool> doomed;
  for (Instruction* inst : insts) {
    AOTC_CHECK(inst != root_, "removing the root instruction");
    AOTC_CHECK(inst->parent() == this, "instruction not in this computation");
    doomed[inst] = true;
  }
  for (Instruction* inst : insts) inst->DropAllOperands();
  for (Instruction* inst : insts) {
    AOTC_CHECK(inst->users().empty(), "removing an instruction that has users");
  }
  std::vector<std::unique_ptr<Instruction>> kept;
  kept.reserve(instructions_.size());
  for (auto& inst : instructions_) {
    if (!doomed.count(inst.get())) kept.push_back(std::move(inst));
  }
  instructions_ = std::move(kept);
}

void Computation::SortTopologically() {
  // Iterative depth-first post-order from each instruction in current order,
  // so that deep chains cannot exhaust the stack.
  std::unordered_map<const Instruction*, size_t> position;
  for (size_t i = 0; i < instructions_.size(); ++i) {
    position[instructions_[i].get()] = i;
  }
  std::vector<bool> placed(instructions_.size(), false);
  std::vector<bool> on_stack(instructions_.size(), false);
  std::vector<size_t> order;
  order.reserve(instructions_.size());
  std::vector<std::pair<size_t, int>> stack;  // instruction, next operand
  for (size_t start = 0; start < instructions_.size(); ++start) {
    if (placed[start]) continue;
    stack.push_back({start, 0});
    on_stack[start] = true;
    while (!stack.empty()) {
      auto& [i, next] = stack.back();
      const Instruction* inst = instructions_[i].get();
      if (placed[i]) {
        stack.pop_back();
        continue;
      }
      if (next < inst->operand_count()) {
        const size_t o = position.at(inst->operand(next++));
        AOTC_CHECK(!on_stack[o], "a rewrite made the operand graph cyclic");
        if (!placed[o]) {
          stack.push_back({o, 0});
          on_stack[o] = true;
        }
        continue;
      }
      placed[i] = true;
      on_stack[i] = false;
      order.push_back(i);
      stack.pop_back();
    }
  }
  std::vector<std::unique_ptr<Instruction>> sorted;
  sorted.reserve(order.size());
  for (size_t i : order) sorted.push_back(std::move(instructions_[i]));
  instructions_ = std::move(sorted);
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
