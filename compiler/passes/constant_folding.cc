// Constant folding through the reference evaluator: each foldable
// instruction is copied, with copies of its constant operands, into a
// scratch module whose entry computes just that instruction.
#include "compiler/passes/constant_folding.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "compiler/analysis/side_effects.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/oracle.h"
#include "compiler/ir/minifloat.h"
#include "compiler/rewrite/ir_rewrite.h"

namespace aotc {
namespace {

// Results larger than this stay computed at run time.
constexpr int64_t kMaxFoldedElements = 1024;
// Element operations one fold may cost (reductions over large constants,
// loops); beyond it the instruction is left alone.
constexpr int64_t kMaxWork = int64_t{1} << 22;
// Instructions the evaluator may run for all the folds of one pass run
// together (a loop's iterations and a reducer's calls each count): the
// work budget counts elements, which leaves a loop over scalars nearly
// free, and folds that fail are tried again on each run.
constexpr int64_t kMaxSteps = int64_t{1} << 16;
// And what one fold may take of them, so that an endless loop leaves the
// budget to the folds after it.
constexpr int64_t kMaxStepsPerFold = int64_t{1} << 12;

// Whether `t` holds values that code may compute inexactly (floats and
// complex).
bool IsInexactType(PrimitiveType t) {
  return IsRealFloat(t) || IsMinifloat(t) || t == PrimitiveType::kC64 ||
         t == PrimitiveType::kC128;
}

bool InvolvesInexactTypes(const Instruction& inst) {
  if (IsInexactType(inst.shape().element_type())) return true;
  for (const Instruction* o : inst.operands()) {
    if (o->shape().IsArray() && IsInexactType(o->shape().element_type())) {
      return true;
    }
  }
  return false;
}

// Whether compiled code would compute `inst` bit for bit as the evaluator
// does: data movement, integer and pred arithmetic, and the correctly
// rounded float operations of real operands. Elementary functions, float
// sums, products and windows, complex multiply and divide, and called
// computations of floats stay in the compiled code, where `aotc run --check`
// and the tests see them (a folded value would be the oracle's own).
bool ComputedExactly(const Instruction& inst) {
  const Opcode op = inst.opcode();
  if (!InvolvesInexactTypes(inst) || IsMovement(op)) return true;
  if (!IsElementwise(op) || !eval::IsCorrectlyRounded(op)) return false;
  for (const Instruction* o : inst.operands()) {
    const PrimitiveType t = o->shape().element_type();
    if (t == PrimitiveType::kC64 || t == PrimitiveType::kC128) {
      return op != Opcode::kMultiply && op != Opcode::kDivide &&
             op != Opcode::kSqrt && op != Opcode::kAbs;
    }
  }
  return true;
}

bool Foldable(const Instruction& inst, const SideEffects& effects) {
  const Opcode op = inst.opcode();
  if (op == Opcode::kParameter || op == Opcode::kConstant ||
      op == Opcode::kIota || op == Opcode::kOptimizationBarrier ||
      !IsEvaluable(op) || effects.Has(inst)) {
    return false;
  }
  const Shape& shape = inst.shape();
  if (!shape.IsArray() || !IsComputableType(shape.element_type()) ||
      shape.ElementCount() > kMaxFoldedElements) {
    return false;
  }
  for (const Instruction* o : inst.operands()) {
    if (o->opcode() != Opcode::kConstant || !o->attrs().literal.has_value() ||
        o->attrs().literal->elided()) {
      return false;
    }
  }
  if (op == Opcode::kBroadcast &&
      shape.ElementCount() > inst.operand(0)->shape().ElementCount()) {
    return false;
  }
  return ComputedExactly(inst);
}

// The value of `inst`, whose operands are constants. The evaluation may
// take up to kMaxStepsPerFold of the `steps_left` instructions beyond its
// own (loop iterations, reducer calls); what it took is subtracted.
absl::StatusOr<Literal> Evaluate(const Instruction& inst,
                                 int64_t& steps_left) {
  auto comp = std::make_unique<Computation>("fold", inst.location());
  // Lookup by linear search: an instruction has few operands, and one used
  // twice gets a single copy.
  std::vector<std::pair<const Instruction*, Instruction*>> copies;
  std::vector<Instruction*> operands;
  for (const Instruction* o : inst.operands()) {
    Instruction* copy = nullptr;
    for (const auto& [original, c] : copies) {
      if (original == o) copy = c;
    }
    if (copy == nullptr) {
      copy = comp->AddInstruction(CloneWithOperands(*o, {}));
      copies.emplace_back(o, copy);
    }
    operands.push_back(copy);
  }
  // The copy still calls the module's computations (reducers, bodies); the
  // evaluator only follows the pointers.
  comp->set_root(comp->AddInstruction(CloneWithOperands(inst, operands)));
  Module scratch("constant_folding");
  scratch.set_entry(scratch.AddComputation(std::move(comp)));
  EvaluateOptions options;
  options.max_work = kMaxWork;
  // The copies of the operands and of `inst` itself are free: a fold
  // without calls costs nothing against the budget.
  const int64_t own = static_cast<int64_t>(copies.size()) + 1;
  options.max_steps = own + std::min(steps_left, kMaxStepsPerFold);
  int64_t taken = 0;
  options.steps_taken = &taken;
  absl::StatusOr<Literal> value = EvaluateModule(scratch, {}, options);
  steps_left -= std::clamp<int64_t>(taken - own, 0, steps_left);
  return value;
}

// A constant replacing `inst` with value `value`, or null when the value
// does not fit the instruction's shape.
std::unique_ptr<Instruction> MakeConstant(const Instruction& inst,
                                          const Literal& value) {
  if (!value.shape().IsArray() || !value.shape().Compatible(inst.shape())) {
    return nullptr;
  }
  // A literal of exactly the instruction's shape (the evaluator's result
  // has the default layout); data is row-major either way.
  Literal literal(inst.shape());
  if (literal.raw_size() != value.raw_size()) return nullptr;
  if (value.raw_size() > 0) {
    std::memcpy(literal.mutable_raw(), value.raw(), value.raw_size());
  }
  std::unique_ptr<Instruction> constant = Instruction::Create(
      Opcode::kConstant, inst.name(), inst.shape(), {}, inst.location());
  constant->mutable_attrs().literal = std::move(literal);
  constant->mutable_metadata() = inst.metadata();
  return constant;
}

bool FoldIn(Computation& comp, const SideEffects& effects,
            int64_t& steps_left) {
  std::vector<Instruction*> order;
  for (const auto& inst : comp.instructions()) order.push_back(inst.get());
  std::vector<Instruction*> folded;
  for (Instruction* inst : order) {
    if (inst->users().empty() && inst != comp.root()) continue;
    if (!Foldable(*inst, effects)) continue;
    absl::StatusOr<Literal> value = Evaluate(*inst, steps_left);
    // An evaluation error (an unsupported case, the work budget) is no
    // error of the module: the instruction is simply computed at run time.
    if (!value.ok()) continue;
    std::unique_ptr<Instruction> constant = MakeConstant(*inst, *value);
    if (constant == nullptr) continue;
    inst->ReplaceAllUsesWith(comp.AddInstruction(std::move(constant)));
    folded.push_back(inst);
  }
  if (folded.empty()) return false;
  // Removing the folded instructions first frees their names for the
  // constants before anything looks at names again.
  RemoveDeadFrom(comp, effects, std::move(folded));
  comp.SortTopologically();
  return true;
}

}  // namespace

absl::StatusOr<bool> ConstantFolding::Run(Module& module) {
  const SideEffects effects(module);
  bool changed = false;
  int64_t steps_left = kMaxSteps;
  for (const auto& comp : module.computations()) {
    changed = FoldIn(*comp, effects, steps_left) || changed;
  }
  return changed;
}

}  // namespace aotc
