// Composites bound to external C functions (composite_kernels.h).
#include "compiler/passes/composite_kernels.h"

#include <memory>
#include <set>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "compiler/rewrite/ir_rewrite.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc {

std::string CompositeKernelOpaque(const CompositeInfo& composite) {
  return absl::StrCat(composite.attributes, ";version=", composite.version);
}

absl::StatusOr<bool> CompositeKernels::Run(Module& module) {
  std::set<std::string> seen;
  bool changed = false;
  for (const auto& comp : module.computations()) {
    // Collected first: adding the custom-calls grows the list.
    std::vector<Instruction*> calls;
    for (const auto& inst : comp->instructions()) {
      if (inst->opcode() == Opcode::kCall) calls.push_back(inst.get());
    }
    std::vector<Instruction*> bound;
    for (Instruction* inst : calls) {
      ASSIGN_OR_RETURN(std::optional<CompositeInfo> composite,
                       ReadComposite(*inst));
      if (!composite.has_value()) continue;
      seen.insert(composite->name);
      auto kernel = kernels_.find(composite->name);
      if (kernel == kernels_.end()) continue;
      std::unique_ptr<Instruction> call =
          Instruction::Create(Opcode::kCustomCall, inst->name(), inst->shape(),
                              inst->operands(), inst->location());
      call->mutable_attrs().custom_call_target = kernel->second;
      call->mutable_metadata() = inst->metadata();
      call->mutable_raw_attributes().emplace_back(
          "opaque", absl::StrCat("\"", absl::CEscape(Sv(CompositeKernelOpaque(
                                           *composite))),
                                 "\""));
      if (const std::string* fa = inst->FindRawAttribute("frontend_attributes")) {
        call->mutable_raw_attributes().emplace_back("frontend_attributes", *fa);
      }
      Instruction* replacement = comp->AddInstruction(std::move(call));
      inst->ReplaceAllUsesWith(replacement);
      if (comp->root() == inst) comp->set_root(replacement);
      bound.push_back(inst);
    }
    if (bound.empty()) continue;
    comp->RemoveInstructions(bound);
    comp->SortTopologically();
    changed = true;
  }
  unbound_.clear();
  for (const auto& [name, symbol] : kernels_) {
    if (!seen.contains(name)) unbound_.push_back(name);
  }
  if (changed) RemoveUnusedComputations(module);
  return changed;
}

}  // namespace aotc
