// Builds the evaluation plans described in evaluator_plan.h.
#include "compiler/evaluator/evaluator_plan.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "compiler/ir/custom_call_targets.h"
#include "compiler/ir/narrow_type.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/strings.h"

namespace aotc::eval {
namespace {

// The computable types plus the narrow ones, which narrow.h widens.
// Token leaves carry no elements: after-all makes them, and tuples,
// get-tuple-element, while state and add-dependency pass them along.
bool IsEvaluatorType(PrimitiveType t) {
  return IsComputableType(t) || IsNarrowType(t) || t == PrimitiveType::kToken;
}

std::string UnsupportedTypeMessage(PrimitiveType t) {
  return absl::StrCat("unsupported element type ", Sv(PrimitiveTypeName(t)));
}

// Why `inst` cannot be evaluated, or OK.
absl::Status Refusal(const Instruction& inst) {
  if (!IsEvaluable(inst.opcode())) {
    return ErrorAt(inst.location(),
                   absl::StrCat("opcode '", Sv(OpcodeName(inst.opcode())),
                                "' is not supported by the evaluator"));
  }
  for (const Shape* leaf : inst.shape().Leaves()) {
    if (!IsEvaluatorType(leaf->element_type())) {
      return ErrorAt(inst.location(),
                     UnsupportedTypeMessage(leaf->element_type()));
    }
  }
  for (const Instruction* operand : inst.operands()) {
    for (const Shape* leaf : operand->shape().Leaves()) {
      if (!IsEvaluatorType(leaf->element_type())) {
        return ErrorAt(inst.location(),
                       UnsupportedTypeMessage(leaf->element_type()));
      }
    }
  }
  // opcode.def's count; conditional needs at least one branch.
  const size_t called = inst.called_computations().size();
  const int count = OpcodeCalledComputationCount(inst.opcode());
  size_t needed = count == kVariadic ? called : static_cast<size_t>(count);
  if (inst.opcode() == Opcode::kConditional && called == 0) needed = 1;
  if (called != needed) {
    return ErrorAt(inst.location(),
                   absl::StrCat("'", Sv(OpcodeName(inst.opcode())), "' needs ",
                                needed, " called computations, has ", called));
  }
  for (const Computation* c : inst.called_computations()) {
    if (c == nullptr) {
      return ErrorAt(inst.location(),
                     absl::StrCat("'", Sv(OpcodeName(inst.opcode())),
                                  "' has a missing called computation"));
    }
  }
  if (inst.opcode() == Opcode::kConstant) {
    const std::optional<Literal>& literal = inst.attrs().literal;
    if (!literal.has_value()) {
      return ErrorAt(inst.location(),
                     absl::StrCat("constant '", inst.name(), "' has no value"));
    }
    if (literal->elided()) {
      return ErrorAt(inst.location(),
                     absl::StrCat("constant '", inst.name(),
                                  "' has an elided value {...} and cannot be "
                                  "evaluated"));
    }
  }
  return absl::OkStatus();
}

// Opcodes that may take over an operand's value instead of copying it.
bool ConsumesOperands(Opcode op) {
  return op == Opcode::kTuple || op == Opcode::kWhile;
}

}  // namespace

bool AliasesOperand(const Instruction& inst) {
  const Opcode op = inst.opcode();
  return op == Opcode::kGetTupleElement || op == Opcode::kOptimizationBarrier ||
         op == Opcode::kAddDependency ||
         IsIdentityCustomCall(inst);
}

absl::StatusOr<std::unique_ptr<Plan>> BuildPlan(const Computation& comp) {
  const auto& insts = comp.instructions();
  const int n = static_cast<int>(insts.size());
  if (comp.root() == nullptr) {
    return ErrorAt(comp.location(),
                   absl::StrCat("computation '", comp.name(), "' has no root"));
  }
  absl::flat_hash_map<const Instruction*, int> index;
  index.reserve(n);
  for (int i = 0; i < n; ++i) index[insts[i].get()] = i;
  auto plan = std::make_unique<Plan>();
  plan->num_slots = n;
  auto root_it = index.find(comp.root());
  if (root_it == index.end()) {
    return ErrorAt(comp.location(),
                   absl::StrCat("the root of computation '", comp.name(),
                                "' is not one of its instructions"));
  }
  plan->root_slot = root_it->second;

  // Parameters by number: 0..n-1, each once.
  for (int i = 0; i < n; ++i) {
    const Instruction& inst = *insts[i];
    if (inst.opcode() != Opcode::kParameter) continue;
    const int64_t number = inst.attrs().parameter_number;
    if (number < 0 || number >= n) {
      return ErrorAt(inst.location(), absl::StrCat("parameter number ", number,
                                                   " is out of range"));
    }
    if (static_cast<int64_t>(plan->params.size()) <= number) {
      plan->params.resize(number + 1, nullptr);
    }
    if (plan->params[number] != nullptr) {
      return ErrorAt(inst.location(), absl::StrCat("parameter number ", number,
                                                   " is used twice"));
    }
    plan->params[number] = &inst;
  }
  for (size_t i = 0; i < plan->params.size(); ++i) {
    if (plan->params[i] == nullptr) {
      return ErrorAt(comp.location(),
                     absl::StrCat("computation '", comp.name(),
                                  "' has no parameter number ", i));
    }
  }

  // Operand slots; an operand must be defined earlier in this computation.
  std::vector<absl::InlinedVector<int, 4>> operand_slots(n);
  for (int i = 0; i < n; ++i) {
    for (const Instruction* operand : insts[i]->operands()) {
      auto it = index.find(operand);
      if (it == index.end() || it->second >= i) {
        return ErrorAt(insts[i]->location(),
                       absl::StrCat("operand '", operand->name(), "' of '",
                                    insts[i]->name(),
                                    "' is not defined before it in "
                                    "computation '",
                                    comp.name(), "'"));
      }
      operand_slots[i].push_back(it->second);
    }
  }

  // Live instructions: those the root depends on. Operands come first in
  // definition order, so one backward pass finds them all.
  std::vector<bool> live(n, false);
  live[plan->root_slot] = true;
  for (int i = n - 1; i >= 0; --i) {
    if (!live[i]) continue;
    for (int o : operand_slots[i]) live[o] = true;
  }

  // The slot whose storage each value lives in, and the last step that
  // reads that storage through any alias.
  std::vector<int> storage(n);
  for (int i = 0; i < n; ++i) {
    storage[i] = AliasesOperand(*insts[i]) && !operand_slots[i].empty()
                     ? storage[operand_slots[i][0]]
                     : i;
  }
  constexpr int kNever = -1;
  constexpr int kPinned = 1 << 30;  // the root's storage is never released
  std::vector<int> last_use(n, kNever);
  int step_count = 0;
  for (int i = 0; i < n; ++i) {
    if (!live[i]) continue;
    for (int o : operand_slots[i]) last_use[storage[o]] = step_count;
    ++step_count;
  }
  last_use[storage[plan->root_slot]] = kPinned;

  plan->steps.reserve(step_count);
  for (int i = 0; i < n; ++i) {
    if (!live[i]) continue;
    const int step_index = static_cast<int>(plan->steps.size());
    Step& step = plan->steps.emplace_back();
    step.inst = insts[i].get();
    step.slot = i;
    step.operands = operand_slots[i];
    step.refusal = Refusal(*insts[i]);
    step.work = EstimateWork(*insts[i]);
    const bool consumes = ConsumesOperands(insts[i]->opcode());
    for (int o : operand_slots[i]) {
      bool movable = consumes && storage[o] == o && last_use[o] == step_index;
      for (int other : operand_slots[i]) {
        if (other != o && storage[other] == storage[o]) movable = false;
      }
      int uses = 0;
      for (int other : operand_slots[i]) uses += other == o;
      step.movable.push_back(movable && uses == 1);
    }
    for (int o : operand_slots[i]) {
      const int s = storage[o];
      if (last_use[s] != step_index) continue;
      bool listed = false;
      for (int r : step.release) listed |= r == s;
      if (!listed) step.release.push_back(s);
    }
  }
  return plan;
}

namespace {

int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t r;
  if (a < 0 || b < 0 || !CheckedMul(a, b, &r)) return INT64_MAX;
  return r;
}

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (!CheckedAdd(a, b, &r)) return INT64_MAX;
  return r;
}

int64_t Elements(const Shape& shape) {
  int64_t n = 0;
  for (const Shape* leaf : shape.Leaves()) {
    if (leaf->IsArray()) n = SaturatingAdd(n, leaf->ElementCount());
  }
  return n;
}

// The product of `shape`'s dimensions listed in `dims`, ignoring indices
// out of range (the verifier reports those).
int64_t DimProduct(const Shape& shape, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (shape.IsArray() && d >= 0 && d < shape.rank()) {
      n = SaturatingMul(n, shape.dimensions(d));
    }
  }
  return n;
}

// ceil(log2(n)), at least 1: the merge passes of a sort of n elements.
int64_t CeilLog2(int64_t n) {
  int64_t log2n = 1;
  while (log2n < 63 && (int64_t{1} << log2n) < n) ++log2n;
  return log2n;
}

int64_t WindowSize(const Instruction& inst) {
  int64_t n = 1;
  for (const WindowDim& w : inst.window()) n = SaturatingMul(n, w.size);
  return n;
}

}  // namespace

int64_t EstimateWork(const Instruction& inst) {
  const int64_t out = std::max<int64_t>(Elements(inst.shape()), 1);
  const InstructionAttributes& a = inst.attrs();
  switch (inst.opcode()) {
    case Opcode::kDot:
      return SaturatingMul(out, DimProduct(inst.operand(0)->shape(),
                                           a.dot_dnums.lhs_contracting));
    case Opcode::kConvolution: {
      const Shape& kernel = inst.operand(1)->shape();
      int64_t per_output = DimProduct(kernel, a.conv_dnums.kernel_spatial);
      per_output = SaturatingMul(
          per_output, DimProduct(kernel, {a.conv_dnums.kernel_input_feature}));
      return SaturatingMul(out, per_output);
    }
    case Opcode::kReduce: {
      int64_t in = 0;
      for (int i = 0; i < inst.operand_count() / 2; ++i) {
        in = SaturatingAdd(in, Elements(inst.operand(i)->shape()));
      }
      return std::max<int64_t>(in, 1);
    }
    case Opcode::kReduceWindow:
      return SaturatingMul(out, WindowSize(inst));
    case Opcode::kSelectAndScatter:
      return SaturatingMul(
          std::max<int64_t>(Elements(inst.operand(1)->shape()), 1),
          WindowSize(inst));
    case Opcode::kSort: {
      const Shape& keys = inst.operand(0)->shape();
      int64_t n = keys.IsArray() ? DimProduct(keys, a.dimensions) : 1;
      return SaturatingMul(out, CeilLog2(n));
    }
    case Opcode::kFft: {
      // The direct sum: every result element reads a whole line per
      // transformed dimension.
      int64_t per_output = 0;
      for (int64_t n : a.fft_length) per_output = SaturatingAdd(per_output, n);
      return SaturatingMul(out, std::max<int64_t>(per_output, 1));
    }
    case Opcode::kTriangularSolve:
    case Opcode::kCholesky: {
      const Shape& m = inst.operand(0)->shape();
      if (!m.IsArray() || m.rank() == 0) return out;
      return SaturatingMul(out, std::max<int64_t>(m.dimensions().back(), 1));
    }
    case Opcode::kTopK: {
      // A whole sort of every row, however small k is.
      const Shape& x = inst.operand(0)->shape();
      if (!x.IsArray() || x.rank() == 0) return out;
      return SaturatingMul(std::max<int64_t>(x.ElementCount(), 1),
                           CeilLog2(x.dimensions().back()));
    }
    default:
      return out;
  }
}

}  // namespace aotc::eval
