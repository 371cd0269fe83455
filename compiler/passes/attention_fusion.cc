// Attention patterns outlined into kCustom fusions (attention_fusion.h).
#include "compiler/passes/attention_fusion.h"

#include <memory>
#include <unordered_set>
#include <vector>

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
      ReplaceByCustomFusion(module, *comp, names, "attention",
                            "attention_computation", a->members, a->output);
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
