// Attention patterns outlined into kCustom fusions (attention_fusion.h).
#include "compiler/passes/attention_fusion.h"

#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/analysis/attention_pattern.h"
#include "compiler/rewrite/ir_rewrite.h"

namespace aotc {
namespace {

// Whether no instruction outside the pattern reads a value only the
// pattern should compute.
bool IsSelfContained(const AttentionPattern& a) {
  std::unordered_set<const Instruction*> members(a.members.begin(),
                                                 a.members.end());
  std::unordered_set<const Instruction*> shareable(a.shareable.begin(),
                                                   a.shareable.end());
  for (const Instruction* m : a.members) {
    if (m == a.output || shareable.count(m)) continue;
    if (m->IsRoot()) return false;
    for (const Instruction* u : m->users()) {
      if (!members.count(u)) return false;
    }
  }
  return true;
}

// Replaces the pattern by a kCustom fusion of copies of its members.
void Outline(Module& module, Computation& comp, NameUniquer& names,
             const AttentionPattern& a) {
  auto fused = std::make_unique<Computation>(
      names.Unique("attention_computation"), a.output->location());
  fused->set_is_fusion_computation(true);
  std::unordered_set<const Instruction*> in_group(a.members.begin(),
                                                  a.members.end());
  std::unordered_map<const Instruction*, Instruction*> clones;
  std::vector<Instruction*> external;
  for (const Instruction* m : a.members) {
    std::vector<Instruction*> operands;
    for (Instruction* o : m->operands()) {
      auto it = clones.find(o);
      if (it == clones.end()) {
        // Q, K or V: a parameter of the fused computation.
        const int64_t number = static_cast<int64_t>(external.size());
        auto param = Instruction::Create(Opcode::kParameter,
                                         absl::StrCat("param_", number),
                                         o->shape(), {}, o->location());
        param->mutable_attrs().parameter_number = number;
        it = clones.emplace(o, fused->AddInstruction(std::move(param))).first;
        external.push_back(o);
      }
      operands.push_back(it->second);
    }
    clones[m] = fused->AddInstruction(CloneWithOperands(*m, operands));
  }
  fused->set_root(clones.at(a.output));
  Computation* callee = module.AddComputationBefore(std::move(fused), &comp);
  auto fusion = Instruction::Create(Opcode::kFusion, names.Unique("attention"),
                                    a.output->shape(), external,
                                    a.output->location());
  fusion->mutable_attrs().fusion_kind = FusionKind::kCustom;
  fusion->mutable_metadata() = a.output->metadata();
  fusion->set_called_computations({callee});
  Instruction* f = comp.AddInstruction(std::move(fusion));
  Instruction* output = const_cast<Instruction*>(a.output);
  output->ReplaceAllUsesWith(f);
  if (comp.root() == output) comp.set_root(f);
}

}  // namespace

absl::StatusOr<bool> AttentionFusion::Run(Module& module) {
  bool changed = false;
  NameUniquer names(module);
  for (Computation* comp : SequentialComputations(module)) {
    std::vector<Instruction*> dots;
    for (const auto& inst : comp->instructions()) {
      if (inst->opcode() == Opcode::kDot) dots.push_back(inst.get());
    }
    bool outlined = false;
    std::unordered_set<const Instruction*> taken;
    for (auto it = dots.rbegin(); it != dots.rend(); ++it) {
      if (taken.count(*it)) continue;
      std::optional<AttentionPattern> a = MatchAttention(**it);
      if (!a || !IsSelfContained(*a)) continue;
      taken.insert(a->members.begin(), a->members.end());
      Outline(module, *comp, names, *a);
      outlined = true;
    }
    if (!outlined) continue;
    comp->SortTopologically();
    RemoveDeadInstructions(*comp);
    changed = true;
  }
  return changed;
}

}  // namespace aotc
