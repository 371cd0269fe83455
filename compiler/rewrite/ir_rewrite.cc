// Cloning, naming and dead-code removal for the passes.
#include "compiler/rewrite/ir_rewrite.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "compiler/support/strings.h"

namespace aotc {

std::unique_ptr<Instruction> CloneWithOperands(
    const Instruction& inst, std::vector<Instruction*> operands) {
  std::unique_ptr<Instruction> clone =
      Instruction::Create(inst.opcode(), inst.name(), inst.shape(),
                          std::move(operands), inst.location());
  clone->mutable_attrs() = inst.attrs();
  clone->mutable_raw_attributes() = inst.raw_attributes();
  clone->mutable_metadata() = inst.metadata();
  clone->set_called_computations(inst.called_computations());
  return clone;
}

NameUniquer::NameUniquer(const Module& module) {
  for (const auto& comp : module.computations()) {
    used_.insert(comp->name());
    for (const auto& inst : comp->instructions()) used_.insert(inst->name());
  }
}

NameUniquer::NameUniquer(const Computation& computation) {
  if (computation.parent() != nullptr) {
    *this = NameUniquer(*computation.parent());
    return;
  }
  used_.insert(computation.name());
  for (const auto& inst : computation.instructions()) {
    used_.insert(inst->name());
  }
}

std::string NameUniquer::Unique(std::string_view prefix) {
  std::string name(prefix);
  // Each prefix remembers where its search stopped, so handing out many
  // copies of one name stays linear.
  int& next = next_suffix_[name];
  while (used_.count(name)) name = absl::StrCat(Sv(prefix), ".", ++next);
  used_.insert(name);
  return name;
}

bool RemoveDeadInstructions(Computation& comp) {
  AOTC_CHECK(comp.parent() != nullptr, "computation outside a module");
  return RemoveDeadInstructions(comp, SideEffects(*comp.parent()));
}

bool RemoveDeadInstructions(Computation& comp, const SideEffects& effects) {
  std::unordered_set<const Instruction*> live;
  std::vector<const Instruction*> stack;
  for (const auto& inst : comp.instructions()) {
    if (inst.get() == comp.root() || effects.Has(*inst) ||
        inst->opcode() == Opcode::kParameter) {
      stack.push_back(inst.get());
    }
  }
  while (!stack.empty()) {
    const Instruction* inst = stack.back();
    stack.pop_back();
    if (!live.insert(inst).second) continue;
    for (const Instruction* o : inst->operands()) stack.push_back(o);
  }
  std::vector<Instruction*> dead;
  for (const auto& inst : comp.instructions()) {
    if (!live.count(inst.get())) dead.push_back(inst.get());
  }
  comp.RemoveInstructions(dead);
  return !dead.empty();
}

std::vector<Computation*> SequentialComputations(Module& module) {
  std::vector<Computation*> out;
  std::set<const Computation*> seen;
  std::vector<Computation*> stack = {module.entry()};
  while (!stack.empty()) {
    Computation* comp = stack.back();
    stack.pop_back();
    if (comp == nullptr || !seen.insert(comp).second) continue;
    out.push_back(comp);
    for (const auto& inst : comp->instructions()) {
      const Opcode op = inst->opcode();
      if (op == Opcode::kWhile || op == Opcode::kConditional ||
          op == Opcode::kCall) {
        for (Computation* c : inst->called_computations()) stack.push_back(c);
      }
    }
  }
  return out;
}

OutlinedComputation OutlineIntoFusionComputation(
    Module& module, const Computation& before, NameUniquer& names,
    std::string_view prefix, const std::vector<const Instruction*>& members,
    const Instruction* root) {
  std::unordered_set<std::string> member_names;
  for (const Instruction* m : members) member_names.insert(m->name());
  auto fused = std::make_unique<Computation>(names.Unique(prefix), root->location());
  fused->set_is_fusion_computation(true);
  std::unordered_map<const Instruction*, Instruction*> clones;
  OutlinedComputation out;
  for (const Instruction* m : members) {
    std::vector<Instruction*> operands;
    for (Instruction* o : m->operands()) {
      auto it = clones.find(o);
      if (it == clones.end()) {
        std::string name = absl::StrCat("param_", out.operands.size());
        while (member_names.count(name)) absl::StrAppend(&name, ".p");
        auto param = Instruction::Create(Opcode::kParameter, std::move(name),
                                         o->shape(), {}, o->location());
        param->mutable_attrs().parameter_number =
            static_cast<int64_t>(out.operands.size());
        out.operands.push_back(o);
        it = clones.emplace(o, fused->AddInstruction(std::move(param))).first;
      }
      operands.push_back(it->second);
    }
    clones[m] = fused->AddInstruction(CloneWithOperands(*m, operands));
  }
  fused->set_root(clones.at(root));
  out.computation = module.AddComputationBefore(std::move(fused), &before);
  return out;
}

Instruction* ReplaceByCustomFusion(Module& module, Computation& comp,
                                   NameUniquer& names, std::string_view name,
                                   std::string_view prefix,
                                   const std::vector<const Instruction*>& members,
                                   const Instruction* root) {
  const OutlinedComputation outlined =
      OutlineIntoFusionComputation(module, comp, names, prefix, members, root);
  auto fusion = Instruction::Create(Opcode::kFusion, names.Unique(name),
                                    root->shape(), outlined.operands,
                                    root->location());
  fusion->mutable_attrs().fusion_kind = FusionKind::kCustom;
  fusion->mutable_metadata() = root->metadata();
  fusion->set_called_computations({outlined.computation});
  Instruction* f = comp.AddInstruction(std::move(fusion));
  Instruction* replaced = const_cast<Instruction*>(root);
  replaced->ReplaceAllUsesWith(f);
  if (comp.root() == replaced) comp.set_root(f);
  return f;
}

bool DependsOn(const Instruction* to, const Instruction* from) {
  std::unordered_set<const Instruction*> seen;
  std::vector<const Instruction*> stack = {to};
  while (!stack.empty()) {
    const Instruction* inst = stack.back();
    stack.pop_back();
    if (inst == from) return true;
    if (!seen.insert(inst).second) continue;
    for (const Instruction* o : inst->operands()) stack.push_back(o);
  }
  return false;
}

bool RemoveUnusedComputations(Module& module) {
  if (module.entry() == nullptr) return false;
  std::unordered_set<const Computation*> used;
  std::vector<const Computation*> stack = {module.entry()};
  while (!stack.empty()) {
    const Computation* comp = stack.back();
    stack.pop_back();
    if (!used.insert(comp).second) continue;
    for (const auto& inst : comp->instructions()) {
      for (const Computation* c : inst->called_computations()) {
        stack.push_back(c);
      }
    }
  }
  std::vector<const Computation*> unused;
  for (const auto& comp : module.computations()) {
    if (!used.count(comp.get())) unused.push_back(comp.get());
  }
  for (const Computation* comp : unused) module.RemoveComputation(comp);
  return !unused.empty();
}

bool RemoveDeadFrom(Computation& comp, const SideEffects& effects,
                    std::vector<Instruction*> candidates) {
  // Membership only: a removed instruction is never dereferenced again.
  std::unordered_set<const Instruction*> removed;
  bool changed = false;
  while (!candidates.empty()) {
    Instruction* inst = candidates.back();
    candidates.pop_back();
    if (removed.count(inst)) continue;
    if (!inst->users().empty() || inst == comp.root() ||
        inst->opcode() == Opcode::kParameter || effects.Has(*inst)) {
      continue;
    }
    std::vector<Instruction*> operands = inst->operands();
    comp.RemoveInstruction(inst);
    removed.insert(inst);
    changed = true;
    // Reversed so that operands are examined in operand order.
    std::reverse(operands.begin(), operands.end());
    candidates.insert(candidates.end(), operands.begin(), operands.end());
  }
  return changed;
}

}  // namespace aotc
