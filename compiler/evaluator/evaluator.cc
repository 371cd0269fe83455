// The reference evaluator's driver: evaluates a computation's instructions in
// definition order (a topological order), handles the opcodes that bind,
// alias or call (parameter, constant, tuple, get-tuple-element, opt-barrier,
// identity custom-calls, call, fusion, map, while, conditional) and
// dispatches the rest to the kernels of kernels.h.
//
// Each computation is analysed once per evaluation into a Plan
// (evaluator_plan.h), so calling a small computation such as a reducer once
// per element only walks the cached plan and reuses its slot storage.
//
// Values live in slots indexed by instruction position. Parameters,
// constants, get-tuple-element, opt-barrier and identity custom-calls do not
// copy: their slot points at the argument, the constant's literal or (a part
// of) the operand's value
// (which is then kept alive until the aliasing value's last use). A value is
// freed after its last use; tuple and while move an operand they use last
// instead of copying it.
//
// In oracle mode (EvaluateOptions::oracle, oracle.h) float add-reductions sum
// wide, and the values of the entry computation, and of the computations it
// reaches through call, fusion and conditional, carry error budgets in a
// second vector of slots per frame, freed with the values.
#include "compiler/evaluator/evaluator.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "compiler/evaluator/evaluator_plan.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/evaluator/narrow.h"
#include "compiler/evaluator/oracle.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

using eval::AliasesOperand;
using eval::BuildPlan;
using eval::Clear;
using eval::Plan;
using eval::Step;
using eval::Value;

// Bounds the nesting of call / fusion / map / while / conditional / kernel
// callbacks, so that a call cycle in an unverified module fails instead of
// overflowing the stack.
constexpr int kMaxCallDepth = 200;

class Evaluator {
 public:
  explicit Evaluator(int64_t max_work = 0, bool oracle = false,
                     bool wide_sums = true, int64_t max_steps = 0)
      : max_work_(max_work),
        max_steps_(max_steps),
        oracle_(oracle),
        wide_sums_(wide_sums) {
    call_ = [this](const Computation& comp,
                   eval::Operands args) -> absl::StatusOr<Literal> {
      return Call(comp, args, nullptr);
    };
    dispatch_ = [this](const Instruction& inst,
                       eval::Operands operands) -> absl::StatusOr<Literal> {
      return Dispatch(inst, operands);
    };
  }

  // Evaluates `comp` on `args`; `caller` (may be null) locates depth errors.
  // In oracle mode the entry computation's values carry budgets.
  absl::StatusOr<Literal> Call(const Computation& comp, eval::Operands args,
                               const Instruction* caller);

  // Oracle mode: the budget of the root of the last computation evaluated
  // with budgets (nullopt: exact).
  const std::optional<Literal>& root_bound() const { return root_bound_; }
  // Instructions evaluated so far.
  int64_t steps() const { return steps_; }

 private:
  // Whether the current frame's values carry budgets.
  bool InEntry() const { return tracking_; }
  const Literal* BoundOf(int slot) const {
    return tracking_ && bounds_[slot] ? &*bounds_[slot] : nullptr;
  }
  // Call() for a computation whose values carry budgets, its arguments'
  // being `arg_budgets` (null: exact); the root's budget in root_bound_.
  absl::StatusOr<Literal> CallWithBudgets(
      const Computation& comp, eval::Operands args,
      std::vector<const Literal*> arg_budgets, const Instruction* caller);
  // The branch a conditional takes, or a located error.
  absl::StatusOr<int64_t> Branch(const Instruction& inst,
                                 eval::Operands operands);
  absl::StatusOr<Plan*> GetPlan(const Computation& comp);
  absl::StatusOr<Literal> Run(Plan& plan, const Computation& comp,
                              eval::Operands args);
  absl::Status EvalStep(const Step& step, std::vector<Value>& frame,
                        eval::Operands args);
  absl::StatusOr<Literal> Dispatch(const Instruction& inst,
                                   eval::Operands operands);
  absl::StatusOr<Literal> EvalMap(const Instruction& inst,
                                  eval::Operands operands);
  absl::StatusOr<Literal> EvalWhile(const Instruction& inst, Literal state);
  absl::StatusOr<Literal> EvalConditional(const Instruction& inst,
                                          eval::Operands operands);

  absl::flat_hash_map<const Computation*, std::unique_ptr<Plan>> plans_;
  eval::CallFn call_;
  eval::DispatchFn dispatch_;
  eval::NarrowEvaluator narrow_;
  int depth_ = 0;
  const int64_t max_work_;  // 0: unlimited
  int64_t work_ = 0;
  const int64_t max_steps_;  // 0: unlimited
  int64_t steps_ = 0;
  const bool oracle_;
  const bool wide_sums_;
  // The current frame's budgets: whether it has them, one per slot, and its
  // arguments'.
  bool tracking_ = false;
  std::vector<std::optional<Literal>> bounds_;
  std::vector<const Literal*> arg_bounds_;
  // Set by CallWithBudgets for the frame it starts.
  bool next_tracked_ = false;
  std::vector<const Literal*> next_arg_bounds_;
  std::optional<Literal> root_bound_;
};

absl::Status CheckArguments(const Computation& comp, const Plan& plan,
                            eval::Operands args) {
  const size_t expected = plan.params.size();
  if (args.size() != expected) {
    return ErrorAt(
        comp.location(),
        absl::StrCat("computation '", comp.name(), "' takes ", expected,
                     expected == 1 ? " argument" : " arguments", ", got ",
                     args.size()));
  }
  for (size_t i = 0; i < expected; ++i) {
    const Instruction* param = plan.params[i];
    if (args[i]->elided()) {
      return ErrorAt(param->location(),
                     absl::StrCat("argument ", i, " for parameter '",
                                  param->name(), "' has no value"));
    }
    if (!args[i]->shape().Compatible(param->shape())) {
      return ErrorAt(
          param->location(),
          absl::StrCat("argument ", i, " has shape ",
                       args[i]->shape().ToString(false), " but parameter '",
                       param->name(), "' of computation '", comp.name(),
                       "' has shape ", param->shape().ToString(false)));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Literal> Evaluator::Call(const Computation& comp,
                                        eval::Operands args,
                                        const Instruction* caller) {
  if (depth_ >= kMaxCallDepth) {
    const Location& loc = caller ? caller->location() : comp.location();
    return ErrorAt(
        loc, absl::StrCat("calls nest deeper than ", kMaxCallDepth,
                          " levels (calling computation '", comp.name(), "')"));
  }
  ASSIGN_OR_RETURN(Plan * plan, GetPlan(comp));
  RETURN_IF_ERROR(CheckArguments(comp, *plan, args));
  ++depth_;
  absl::StatusOr<Literal> result = Run(*plan, comp, args);
  --depth_;
  return result;
}

absl::StatusOr<Plan*> Evaluator::GetPlan(const Computation& comp) {
  auto it = plans_.find(&comp);
  if (it != plans_.end()) return it->second.get();
  ASSIGN_OR_RETURN(std::unique_ptr<Plan> plan, BuildPlan(comp));
  Plan* raw = plan.get();
  plans_.emplace(&comp, std::move(plan));
  return raw;
}

absl::StatusOr<Literal> Evaluator::Run(Plan& plan, const Computation& comp,
                                       eval::Operands args) {
  std::vector<Value> frame;
  if (plan.spare_frames.empty()) {
    frame.resize(plan.num_slots);
  } else {
    frame = std::move(plan.spare_frames.back());
    plan.spare_frames.pop_back();
  }
  // Budgets for the entry's frame and those CallWithBudgets starts; the
  // caller's are kept aside meanwhile.
  const bool entry = oracle_ && (depth_ == 1 || next_tracked_);
  const bool caller_tracking = tracking_;
  std::vector<std::optional<Literal>> caller_bounds;
  std::vector<const Literal*> caller_arg_bounds;
  if (entry) {
    caller_bounds = std::move(bounds_);
    caller_arg_bounds = std::move(arg_bounds_);
    bounds_.assign(plan.num_slots, std::nullopt);
    arg_bounds_ = std::move(next_arg_bounds_);
    next_arg_bounds_.clear();
  } else if (tracking_) {
    caller_bounds = std::move(bounds_);
    bounds_.clear();
  }
  next_tracked_ = false;
  tracking_ = entry;
  absl::Status status;
  for (const Step& step : plan.steps) {
    status = EvalStep(step, frame, args);
    if (!status.ok()) break;
  }
  absl::StatusOr<Literal> result;
  if (!status.ok()) {
    result = status;
  } else if (Value& root = frame[plan.root_slot]; root.owns()) {
    result = std::move(root.owned);
    root.ptr = nullptr;
  } else {
    result = *root.ptr;
  }
  if (entry) {
    root_bound_ = std::move(bounds_[plan.root_slot]);
    arg_bounds_ = std::move(caller_arg_bounds);
  }
  bounds_ = std::move(caller_bounds);
  tracking_ = caller_tracking;
  for (Value& v : frame) Clear(v);
  plan.spare_frames.push_back(std::move(frame));
  return result;
}

absl::Status Evaluator::EvalStep(const Step& step, std::vector<Value>& frame,
                                 eval::Operands args) {
  RETURN_IF_ERROR(step.refusal);
  const Instruction& inst = *step.inst;
  if (max_work_ > 0) {
    work_ = step.work > max_work_ - work_ ? max_work_ + 1 : work_ + step.work;
    if (work_ > max_work_) {
      return ErrorAt(inst.location(),
                     absl::StrCat("evaluation stopped after ", max_work_,
                                  " element operations, the work budget, at '",
                                  inst.name(), "'"));
    }
  }
  if (max_steps_ > 0 && steps_ >= max_steps_) {
    return ErrorAt(inst.location(),
                   absl::StrCat("evaluation stopped after ", max_steps_,
                                " instructions, the step budget, at '",
                                inst.name(), "'"));
  }
  ++steps_;
  Value& out = frame[step.slot];
  absl::InlinedVector<const Literal*, 4> operands;
  operands.reserve(step.operands.size());
  for (int o : step.operands) operands.push_back(frame[o].ptr);

  // Whether this step set its own budget (nullopt in bounds_ is exact).
  bool budget_done = false;
  switch (inst.opcode()) {
    case Opcode::kParameter: {
      // BuildPlan and CheckArguments matched numbers and arguments.
      const int64_t number = inst.attrs().parameter_number;
      out.ptr = args[number];
      if (InEntry() && number < static_cast<int64_t>(arg_bounds_.size()) &&
          arg_bounds_[number] != nullptr) {
        bounds_[step.slot] = *arg_bounds_[number];
      }
      budget_done = true;
      break;
    }
    case Opcode::kConstant:
      out.ptr = &*inst.attrs().literal;
      break;
    case Opcode::kGetTupleElement: {
      const int64_t index = inst.tuple_index();
      const Literal& tuple = *operands[0];
      if (!tuple.IsTuple() || index < 0 ||
          index >= static_cast<int64_t>(tuple.tuple_elements().size())) {
        return ErrorAt(inst.location(),
                       absl::StrCat("get-tuple-element index ", index,
                                    " is out of range for a value of shape ",
                                    tuple.shape().ToString(false)));
      }
      out.ptr = &tuple.tuple_elements()[index];
      break;
    }
    case Opcode::kOptimizationBarrier:
    case Opcode::kAddDependency:
      out.ptr = operands[0];
      break;
    case Opcode::kAfterAll: {
      // A token has no value; every after-all reads the same one.
      static const Literal* const kToken = new Literal(Shape::Token());
      out.ptr = kToken;
      break;
    }
    case Opcode::kTuple: {
      std::vector<Literal> elements;
      elements.reserve(operands.size());
      for (size_t i = 0; i < operands.size(); ++i) {
        Value& v = frame[step.operands[i]];
        if (step.movable[i] && v.owns()) {
          elements.push_back(std::move(v.owned));
        } else {
          elements.push_back(*operands[i]);
        }
      }
      out.owned = Literal::MakeTuple(std::move(elements));
      out.ptr = &out.owned;
      break;
    }
    case Opcode::kWhile: {
      Value& v = frame[step.operands[0]];
      Literal state = step.movable[0] && v.owns() ? std::move(v.owned)
                                                  : Literal(*operands[0]);
      ASSIGN_OR_RETURN(out.owned, EvalWhile(inst, std::move(state)));
      out.ptr = &out.owned;
      break;
    }
    case Opcode::kCustomCall:
      // Sharding and placement annotations are their operand's value
      // (BuildPlan treats them as aliases too); other targets compute.
      if (AliasesOperand(inst)) {
        out.ptr = operands[0];
        if (const Literal* b = BoundOf(step.operands[0])) {
          bounds_[step.slot] = *b;
        }
        budget_done = true;
        break;
      }
      [[fallthrough]];
    default: {
      if (oracle_ && wide_sums_ && eval::IsFloatAddReduce(inst)) {
        Literal bound;
        ASSIGN_OR_RETURN(out.owned,
                         eval::EvalWideSum(inst, operands,
                                           BoundOf(step.operands[0]), &bound));
        out.ptr = &out.owned;
        if (InEntry()) bounds_[step.slot] = std::move(bound);
        budget_done = true;
        break;
      }
      const Opcode op = inst.opcode();
      if (InEntry() && (op == Opcode::kCall || op == Opcode::kFusion ||
                        op == Opcode::kConditional) &&
          !eval::NeedsNarrowEvaluation(inst)) {
        std::vector<const Literal*> budgets;
        for (int o : step.operands) budgets.push_back(BoundOf(o));
        if (op == Opcode::kConditional) {
          ASSIGN_OR_RETURN(const int64_t branch, Branch(inst, operands));
          ASSIGN_OR_RETURN(
              out.owned,
              CallWithBudgets(*inst.called_computations()[branch],
                              eval::Operands(operands).subspan(branch + 1, 1),
                              {budgets[branch + 1]}, &inst));
        } else {
          const Computation& callee = op == Opcode::kCall
                                          ? *inst.to_apply()
                                          : *inst.fused_computation();
          ASSIGN_OR_RETURN(out.owned, CallWithBudgets(callee, operands,
                                                      budgets, &inst));
        }
        out.ptr = &out.owned;
        bounds_[step.slot] = std::move(root_bound_);
        root_bound_.reset();
        budget_done = true;
        break;
      }
      ASSIGN_OR_RETURN(out.owned, Dispatch(inst, operands));
      out.ptr = &out.owned;
      break;
    }
  }
  if (out.owns() && !out.owned.shape().Compatible(inst.shape())) {
    // A kernel or called computation disagreeing with the instruction's
    // shape would hand its users misread data.
    return ErrorAt(
        inst.location(),
        absl::StrCat("evaluating '", inst.name(), "' produced ",
                     out.owned.shape().ToString(false), ", but its shape is ",
                     inst.shape().ToString(false)));
  }
  if (InEntry() && !budget_done) {
    absl::InlinedVector<const Literal*, 4> operand_bounds;
    for (int o : step.operands) operand_bounds.push_back(BoundOf(o));
    bounds_[step.slot] = eval::PropagateBudget(inst, operands, operand_bounds,
                                               *out.ptr, dispatch_);
  }
  for (int s : step.release) {
    if (s == step.slot) continue;
    Clear(frame[s]);
    if (InEntry()) bounds_[s].reset();
  }
  return absl::OkStatus();
}

absl::StatusOr<Literal> Evaluator::Dispatch(const Instruction& inst,
                                            eval::Operands operands) {
  if (eval::NeedsNarrowEvaluation(inst)) {
    // The widened instruction has no narrow types, so this does not recurse.
    return narrow_.Eval(inst, operands,
                        [this](const Instruction& wide, eval::Operands ops) {
                          return Dispatch(wide, ops);
                        });
  }
  switch (inst.opcode()) {
    case Opcode::kCall:
      return Call(*inst.to_apply(), operands, &inst);
    case Opcode::kFusion:
      return Call(*inst.fused_computation(), operands, &inst);
    case Opcode::kMap:
      return EvalMap(inst, operands);
    case Opcode::kConditional:
      return EvalConditional(inst, operands);
    case Opcode::kGather:
    case Opcode::kScatter:
      return eval::EvalGatherScatter(inst, operands, call_);
    case Opcode::kReduce:
    case Opcode::kReduceWindow:
    case Opcode::kSelectAndScatter:
    case Opcode::kSort:
    case Opcode::kTopK:
      return eval::EvalReduction(inst, operands, call_);
    case Opcode::kCustomCall:
      return eval::EvalCustomCall(inst, operands, call_);
    case Opcode::kDot:
    case Opcode::kConvolution:
      return eval::EvalLinalg(inst, operands);
    case Opcode::kFft:
      return eval::EvalFft(inst, operands);
    case Opcode::kTriangularSolve:
      return eval::EvalTriangularSolve(inst, operands);
    case Opcode::kCholesky:
      return eval::EvalCholesky(inst, operands);
    case Opcode::kIota:
      return eval::EvalMovement(inst, operands);
    default:
      break;
  }
  if (IsMovement(inst.opcode())) return eval::EvalMovement(inst, operands);
  if (IsElementwise(inst.opcode()) ||
      inst.opcode() == Opcode::kBitcastConvert) {
    return eval::EvalElementwise(inst, operands);
  }
  return ErrorAt(inst.location(),
                 absl::StrCat("opcode '", Sv(OpcodeName(inst.opcode())),
                              "' is not supported by the evaluator"));
}

// map applies its scalar computation to the elements at each position of
// its (same-shaped) operands.
absl::StatusOr<Literal> Evaluator::EvalMap(const Instruction& inst,
                                           eval::Operands operands) {
  const Computation& fn = *inst.to_apply();
  const Shape& shape = inst.shape();
  if (!shape.IsArray()) {
    return ErrorAt(inst.location(), "the result of 'map' must be an array");
  }
  const int64_t n = shape.ElementCount();
  std::vector<Literal> scalars;
  std::vector<const Literal*> scalar_ptrs;
  scalars.reserve(operands.size());
  for (size_t k = 0; k < operands.size(); ++k) {
    const Shape& s = operands[k]->shape();
    if (!s.IsArray() || !s.SameDimensions(shape)) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("operand ", k, " of 'map' has shape ", s.ToString(false),
                       ", expected dimensions of ", shape.ToString(false)));
    }
    scalars.emplace_back(Shape::Scalar(s.element_type()));
  }
  for (const Literal& s : scalars) scalar_ptrs.push_back(&s);
  Literal out(shape);
  const int out_bytes = StorageBytes(shape.element_type());
  for (int64_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < operands.size(); ++k) {
      const int bytes = StorageBytes(operands[k]->shape().element_type());
      std::memcpy(scalars[k].mutable_raw(), operands[k]->raw() + i * bytes,
                  bytes);
    }
    ASSIGN_OR_RETURN(Literal r, Call(fn, scalar_ptrs, &inst));
    if (!r.shape().IsScalar() ||
        r.shape().element_type() != shape.element_type()) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("the computation of 'map' returned ",
                       r.shape().ToString(false), ", expected ",
                       Sv(PrimitiveTypeName(shape.element_type())), "[]"));
    }
    std::memcpy(out.mutable_raw() + i * out_bytes, r.raw(), out_bytes);
  }
  return out;
}

// while: the condition is re-evaluated on every new state; there is no
// iteration limit (a loop that never ends is the program's meaning), but
// each state the body returns is checked against the loop's shape.
absl::StatusOr<Literal> Evaluator::EvalWhile(const Instruction& inst,
                                             Literal state) {
  const Computation& condition = *inst.while_condition();
  const Computation& body = *inst.while_body();
  while (true) {
    const Literal* arg = &state;
    ASSIGN_OR_RETURN(Literal keep_going, Call(condition, {&arg, 1}, &inst));
    if (!keep_going.shape().IsScalar() ||
        keep_going.shape().element_type() != PrimitiveType::kPred) {
      return ErrorAt(inst.location(),
                     absl::StrCat("the condition of 'while' returned ",
                                  keep_going.shape().ToString(false),
                                  ", expected pred[]"));
    }
    if (!keep_going.Get<bool>(0)) return state;
    ASSIGN_OR_RETURN(Literal next, Call(body, {&arg, 1}, &inst));
    if (!next.shape().Compatible(state.shape())) {
      return ErrorAt(inst.location(),
                     absl::StrCat("the body of 'while' returned ",
                                  next.shape().ToString(false), ", expected ",
                                  state.shape().ToString(false)));
    }
    state = std::move(next);
  }
}

absl::StatusOr<Literal> Evaluator::CallWithBudgets(
    const Computation& comp, eval::Operands args,
    std::vector<const Literal*> arg_budgets, const Instruction* caller) {
  next_tracked_ = true;
  next_arg_bounds_ = std::move(arg_budgets);
  absl::StatusOr<Literal> result = Call(comp, args, caller);
  next_tracked_ = false;  // when Call failed before its frame started
  next_arg_bounds_.clear();
  return result;
}

// conditional: a pred selector picks branch 0 (true) or 1 (false); an s32
// selector picks that branch, or the last one when out of range.
absl::StatusOr<int64_t> Evaluator::Branch(const Instruction& inst,
                                          eval::Operands operands) {
  const auto& branches = inst.called_computations();
  const Literal& selector = *operands[0];
  const PrimitiveType type = selector.shape().element_type();
  if (!selector.shape().IsScalar() ||
      (type != PrimitiveType::kPred && type != PrimitiveType::kS32)) {
    return ErrorAt(inst.location(),
                   absl::StrCat("the selector of 'conditional' must be pred[] "
                                "or s32[], got ",
                                selector.shape().ToString(false)));
  }
  const int64_t count = static_cast<int64_t>(branches.size());
  if (count == 0 || (type == PrimitiveType::kPred && count != 2) ||
      count != static_cast<int64_t>(operands.size()) - 1) {
    return ErrorAt(inst.location(),
                   absl::StrCat("'conditional' has ", count, " branches for ",
                                operands.size() - 1, " branch operands"));
  }
  if (type == PrimitiveType::kPred) return selector.Get<bool>(0) ? 0 : 1;
  const int64_t index = selector.Get<int32_t>(0);
  return index < 0 || index >= count ? count - 1 : index;
}

absl::StatusOr<Literal> Evaluator::EvalConditional(const Instruction& inst,
                                                   eval::Operands operands) {
  ASSIGN_OR_RETURN(const int64_t branch, Branch(inst, operands));
  return Call(*inst.called_computations()[branch],
              operands.subspan(branch + 1, 1), &inst);
}

}  // namespace

absl::StatusOr<Literal> EvaluateComputation(
    const Computation& computation, absl::Span<const Literal* const> args) {
  Evaluator evaluator;
  return evaluator.Call(computation, args, nullptr);
}

namespace {

// The entry's arguments as the evaluator takes them; an error for a module
// without entry.
absl::StatusOr<std::vector<const Literal*>> EntryArguments(
    const Module& module, absl::Span<const Literal> args) {
  if (module.entry() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("module '", module.name(), "' has no entry computation"));
  }
  std::vector<const Literal*> pointers;
  pointers.reserve(args.size());
  for (const Literal& arg : args) pointers.push_back(&arg);
  return pointers;
}

}  // namespace

absl::StatusOr<Literal> EvaluateModule(const Module& module,
                                       absl::Span<const Literal> args,
                                       const EvaluateOptions& options) {
  ASSIGN_OR_RETURN(const std::vector<const Literal*> pointers,
                   EntryArguments(module, args));
  Evaluator evaluator(options.max_work, options.oracle, /*wide_sums=*/true,
                      options.max_steps);
  absl::StatusOr<Literal> result =
      evaluator.Call(*module.entry(), pointers, nullptr);
  if (options.steps_taken != nullptr) *options.steps_taken = evaluator.steps();
  return result;
}

absl::StatusOr<OracleValue> EvaluateOracle(const Module& module,
                                           absl::Span<const Literal> args,
                                           EvaluateOptions options) {
  ASSIGN_OR_RETURN(const std::vector<const Literal*> pointers,
                   EntryArguments(module, args));
  Evaluator evaluator(options.max_work, /*oracle=*/true, options.wide_sums,
                      options.max_steps);
  OracleValue result;
  absl::StatusOr<Literal> value =
      evaluator.Call(*module.entry(), pointers, nullptr);
  if (options.steps_taken != nullptr) *options.steps_taken = evaluator.steps();
  ASSIGN_OR_RETURN(result.value, std::move(value));
  const std::optional<Literal>& bound = evaluator.root_bound();
  result.bounds = eval::BudgetLeaves(result.value, bound ? &*bound : nullptr);
  return result;
}

}  // namespace aotc
