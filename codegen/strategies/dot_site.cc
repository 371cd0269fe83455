// Finding the product of an instruction and emitting its fused epilogue.
#include "codegen/strategies/dot_site.h"

#include <map>
#include <set>

#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// Whether every path from `dot` to the root of its computation goes through
// element-wise instructions of the dot's dimensions (each reads the dot at
// its own index).
bool OnlyElementwiseToRoot(const Instruction& dot) {
  std::set<const Instruction*> seen;
  std::vector<const Instruction*> stack(dot.users().begin(), dot.users().end());
  while (!stack.empty()) {
    const Instruction* v = stack.back();
    stack.pop_back();
    if (!seen.insert(v).second) continue;
    if (!IsElementwise(v->opcode()) || v->opcode() == Opcode::kMap ||
        !v->shape().SameDimensions(dot.shape())) {
      return false;
    }
    for (const Instruction* u : v->users()) stack.push_back(u);
  }
  return true;
}

}  // namespace

std::optional<DotSite> MatchDotSite(const Instruction& inst) {
  if (!inst.shape().IsArray()) return std::nullopt;
  DotSite site;
  auto is_product = [](const Instruction& i) {
    return i.opcode() == Opcode::kDot || i.opcode() == Opcode::kConvolution;
  };
  if (is_product(inst)) {
    site.dot = &inst;
    return site;
  }
  if (inst.opcode() != Opcode::kFusion) return std::nullopt;
  const Computation& fused = *inst.fused_computation();
  for (const auto& f : fused.instructions()) {
    if (!is_product(*f)) continue;
    if (site.dot != nullptr) return std::nullopt;  // one product only
    site.dot = f.get();
  }
  if (site.dot == nullptr ||
      site.dot->operand(0)->opcode() != Opcode::kParameter ||
      site.dot->operand(1)->opcode() != Opcode::kParameter ||
      !OnlyElementwiseToRoot(*site.dot) ||
      !fused.root()->shape().SameDimensions(site.dot->shape())) {
    return std::nullopt;
  }
  site.lhs = static_cast<int>(site.dot->operand(0)->parameter_number());
  site.rhs = static_cast<int>(site.dot->operand(1)->parameter_number());
  return site;
}

absl::StatusOr<Value*> EmitDotEpilogue(ElementalEmitter& emitter,
                                       const LoopArgs& args,
                                       const DotSite& site, Value* sum,
                                       const Index& at) {
  if (args.inst.opcode() != Opcode::kFusion) return sum;
  std::vector<Value*> multi = at.multi;
  Generator own = [sum, multi](const Index& idx) -> absl::StatusOr<Value*> {
    if (idx.multi == multi) return sum;
    return absl::InternalError("dot epilogue read at another index");
  };
  std::map<const Instruction*, LeafGenerators> overrides = {
      {site.dot, {own}}};
  ASSIGN_OR_RETURN(LeafGenerators roots,
                   emitter.EmitComputation(*args.inst.fused_computation(),
                                           args.ops, &overrides));
  return roots[0](at);
}

}  // namespace aotc::codegen
