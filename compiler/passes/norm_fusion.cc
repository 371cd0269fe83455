// Row normalisations outlined into kCustom fusions (norm_fusion.h).
#include "compiler/passes/norm_fusion.h"

#include <unordered_set>
#include <vector>

#include "compiler/analysis/norm_pattern.h"
#include "compiler/rewrite/ir_rewrite.h"

namespace aotc {

absl::StatusOr<bool> NormFusion::Run(Module& module) {
  bool changed = false;
  NameUniquer names(module);
  for (Computation* comp : SequentialComputations(module)) {
    std::vector<Instruction*> order;
    for (const auto& inst : comp->instructions()) order.push_back(inst.get());
    bool outlined = false;
    std::unordered_set<const Instruction*> taken;
    // From the last value backwards, so that a region ends as late as it
    // can.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      if (taken.count(*it)) continue;
      std::optional<NormPattern> p = MatchNorm(**it);
      if (!p) continue;
      std::unordered_set<const Instruction*> shared(p->shared.begin(),
                                                    p->shared.end());
      bool overlaps = false;
      for (const Instruction* m : p->members) {
        overlaps |= !shared.count(m) && taken.count(m) > 0;
      }
      if (overlaps) continue;
      for (const Instruction* m : p->members) {
        if (!shared.count(m)) taken.insert(m);
      }
      ReplaceByCustomFusion(module, *comp, names, p->Describe(),
                            "norm_computation", p->members, *it);
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
