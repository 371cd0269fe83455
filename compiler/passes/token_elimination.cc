// Token removal (see token_elimination.h).
#include "compiler/passes/token_elimination.h"

#include <optional>
#include <vector>

namespace aotc {
namespace {

// Drops the token operands of the custom-call `inst` (and their layout
// constraints); returns whether it had any.
bool DropTokenOperands(Instruction& inst) {
  bool changed = false;
  std::optional<std::vector<Shape>>& constraints =
      inst.mutable_attrs().operand_layout_constraints;
  for (int i = inst.operand_count() - 1; i >= 0; --i) {
    if (!inst.operand(i)->shape().IsToken()) continue;
    inst.RemoveOperand(i);
    if (constraints.has_value() &&
        i < static_cast<int>(constraints->size())) {
      constraints->erase(constraints->begin() + i);
    }
    changed = true;
  }
  return changed;
}

// Drops the token elements of the custom-call `inst`'s result: a token
// result becomes the empty tuple, a tuple loses its token elements and the
// get-tuple-elements of the others are renumbered. The get-tuple-elements
// of tokens are left for the caller to remove; they must be unused by then.
// Returns whether the shape changed.
bool DropTokenResults(Instruction& inst) {
  Shape& shape = inst.mutable_shape();
  if (shape.IsToken()) {
    shape = Shape::Tuple({});
    return true;
  }
  if (!shape.IsTuple()) return false;
  std::vector<int> new_index(shape.tuple_size(), -1);
  std::vector<Shape> kept;
  for (int i = 0; i < shape.tuple_size(); ++i) {
    if (shape.tuple_shapes(i).IsToken()) continue;
    new_index[i] = static_cast<int>(kept.size());
    kept.push_back(shape.tuple_shapes(i));
  }
  if (static_cast<int>(kept.size()) == shape.tuple_size()) return false;
  for (Instruction* user : inst.users()) {
    if (user->opcode() != Opcode::kGetTupleElement) continue;
    const int64_t old = user->tuple_index();
    if (new_index[old] >= 0) user->mutable_attrs().tuple_index = new_index[old];
  }
  shape = Shape::Tuple(std::move(kept));
  return true;
}

// Whether every user of the custom-call `inst` is a get-tuple-element, so
// its result shape can change under them.
bool OnlyReadThroughGetTupleElement(const Instruction& inst) {
  if (inst.parent() != nullptr && inst.parent()->root() == &inst) return false;
  for (const Instruction* user : inst.users()) {
    if (user->opcode() != Opcode::kGetTupleElement) return false;
  }
  return true;
}

bool RunOnComputation(Computation& comp) {
  bool changed = false;
  for (const auto& inst : comp.instructions()) {
    if (inst->opcode() == Opcode::kAddDependency) {
      inst->ReplaceAllUsesWith(inst->operand(0));
      changed = true;
    }
  }
  for (const auto& inst : comp.instructions()) {
    if (inst->opcode() == Opcode::kCustomCall) {
      changed |= DropTokenOperands(*inst);
    } else if (inst->opcode() == Opcode::kAfterAll &&
               inst->operand_count() > 0) {
      inst->DropAllOperands();
      changed = true;
    }
  }
  // Token values nothing reads any more, latest first so that a
  // get-tuple-element goes before what it reads; then the results.
  std::vector<Instruction*> dead;
  const auto& insts = comp.instructions();
  for (auto it = insts.rbegin(); it != insts.rend(); ++it) {
    Instruction* inst = it->get();
    if (inst == comp.root() || !inst->users().empty()) continue;
    const Opcode op = inst->opcode();
    const bool token_value =
        inst->shape().IsToken() &&
        (op == Opcode::kAfterAll || op == Opcode::kGetTupleElement);
    if (op == Opcode::kAddDependency || token_value) {
      inst->DropAllOperands();
      dead.push_back(inst);
    }
  }
  if (!dead.empty()) {
    comp.RemoveInstructions(dead);
    changed = true;
  }
  for (const auto& inst : comp.instructions()) {
    if (inst->opcode() != Opcode::kCustomCall ||
        !OnlyReadThroughGetTupleElement(*inst)) {
      continue;
    }
    bool reads_token = false;
    for (const Instruction* user : inst->users()) {
      reads_token |= user->shape().IsToken();
    }
    if (!reads_token) changed |= DropTokenResults(*inst);
  }
  return changed;
}

}  // namespace

absl::StatusOr<bool> TokenElimination::Run(Module& module) {
  bool changed = false;
  for (const auto& comp : module.computations()) {
    changed |= RunOnComputation(*comp);
  }
  return changed;
}

}  // namespace aotc
