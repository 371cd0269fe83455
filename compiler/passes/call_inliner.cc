// Call inlining: each computation holding calls is rebuilt with the callee
// bodies copied in at the calls' positions (one pass over the result, so
// the work is linear in the code produced), the rebuilt computations
// replace the originals, and callees left without callers are removed.
#include "compiler/passes/call_inliner.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/rewrite/ir_rewrite.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

// Bounds the instructions one run copies: a chain of computations each
// calling the next twice doubles the code at every level, so hostile input
// could otherwise exhaust memory. Calls beyond the budget stay calls.
constexpr int64_t kMaxCopiedInstructions = int64_t{1} << 20;

// Whether `from` can stand for a value of shape `to`, possibly through a
// layout-changing copy.
bool Reconcilable(const Shape& from, const Shape& to) {
  return from == to || (from.IsArray() && to.IsArray());
}

// Fresh names exactly as NameUniquer (ir_rewrite.h) hands them out: the
// prefix if free, else prefix.1, prefix.2, ... But the search for a prefix
// resumes where it last stopped: inlining copies the same callee names
// thousands of times, and restarting at .1 for each copy is quadratic.
class FreshNames {
 public:
  explicit FreshNames(const Module& module) {
    for (const auto& comp : module.computations()) {
      used_.insert(comp->name());
      for (const auto& inst : comp->instructions()) used_.insert(inst->name());
    }
  }

  std::string Make(std::string_view prefix) {
    int64_t& suffix = next_suffix_[std::string(prefix)];
    std::string name = suffix == 0 ? std::string(prefix)
                                   : absl::StrCat(Sv(prefix), ".", suffix);
    while (used_.count(name)) {
      ++suffix;
      name = absl::StrCat(Sv(prefix), ".", suffix);
    }
    used_.insert(name);
    return name;
  }

 private:
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, int64_t> next_suffix_;
};

// Rebuilds computations with their calls inlined.
class Inliner {
 public:
  explicit Inliner(const Module& module) : names_(module) {}

  // A copy of `comp` in which every call (also the calls of inlined code)
  // is replaced by the callee's instructions, at the call's position; null
  // when `comp` has no call to inline. Reads only the original module.
  std::unique_ptr<Computation> Rebuild(const Computation& comp);

  // Callees of inlined calls (lookup only).
  const std::unordered_set<const Computation*>& inlined_callees() const {
    return inlined_callees_;
  }

 private:
  // One computation being copied: the top one, or a callee being inlined
  // in place of `call` (an instruction of the frame below).
  struct Frame {
    const Computation* comp;
    const Instruction* call;  // null for the top frame
    // Lookup only: instruction of `comp` -> its value in the rebuilt one.
    std::unordered_map<const Instruction*, Instruction*> value_of;
    size_t next = 0;
  };

  // Whether `call`, whose operands are now `operands`, can be inlined.
  bool Inlinable(const Instruction& call,
                 const std::vector<Instruction*>& operands) const;

  // `value` itself when it has shape `shape`, else a copy of it with that
  // shape appended to `comp`, named after `name_hint`, located at `loc`.
  Instruction* WithShape(Computation& comp, Instruction* value,
                         const Shape& shape, std::string_view name_hint,
                         const Location& loc);

  FreshNames names_;
  std::unordered_set<const Computation*> inlined_callees_;
  int64_t copied_ = 0;
};

bool Inliner::Inlinable(const Instruction& call,
                        const std::vector<Instruction*>& operands) const {
  const Computation* callee = call.to_apply();
  if (callee == nullptr || callee->root() == nullptr ||
      !Reconcilable(callee->root()->shape(), call.shape())) {
    return false;
  }
  const std::vector<Instruction*> params = callee->parameters();
  if (params.size() != operands.size()) return false;
  for (size_t i = 0; i < params.size(); ++i) {
    if (!Reconcilable(operands[i]->shape(), params[i]->shape())) return false;
  }
  return copied_ + callee->instruction_count() <= kMaxCopiedInstructions;
}

Instruction* Inliner::WithShape(Computation& comp, Instruction* value,
                                const Shape& shape, std::string_view name_hint,
                                const Location& loc) {
  if (value->shape() == shape) return value;
  return comp.AddInstruction(Instruction::Create(
      Opcode::kCopy, names_.Make(absl::StrCat(Sv(name_hint), ".copy")), shape,
      {value}, loc));
}

std::unique_ptr<Computation> Inliner::Rebuild(const Computation& comp) {
  bool has_call = false;
  for (const auto& inst : comp.instructions()) {
    has_call = has_call || inst->opcode() == Opcode::kCall;
  }
  if (!has_call) return nullptr;
  auto out = std::make_unique<Computation>(comp.name(), comp.location());
  out->set_is_fusion_computation(comp.is_fusion_computation());
  out->set_execution_thread(comp.execution_thread());
  bool inlined = false;
  // An explicit stack rather than recursion: call chains may be deep.
  std::vector<Frame> stack;
  stack.push_back(Frame{&comp, nullptr, {}, 0});
  while (true) {
    Frame& frame = stack.back();
    const auto& insts = frame.comp->instructions();
    if (frame.next == insts.size()) {
      Instruction* result = frame.value_of.at(frame.comp->root());
      if (stack.size() == 1) {
        out->set_root(result);
        break;
      }
      const Instruction* call = frame.call;
      stack.pop_back();
      stack.back().value_of[call] = WithShape(*out, result, call->shape(),
                                              call->name(), call->location());
      continue;
    }
    const Instruction* inst = insts[frame.next++].get();
    // The parameters of an inlined callee were bound to the call's operands.
    if (stack.size() > 1 && inst->opcode() == Opcode::kParameter) continue;
    std::vector<Instruction*> operands;
    operands.reserve(inst->operand_count());
    for (const Instruction* o : inst->operands()) {
      operands.push_back(frame.value_of.at(o));
    }
    if (inst->opcode() == Opcode::kCall && Inlinable(*inst, operands)) {
      const Computation* callee = inst->to_apply();
      Frame inner{callee, inst, {}, 0};
      const std::vector<Instruction*> params = callee->parameters();
      for (size_t i = 0; i < params.size(); ++i) {
        inner.value_of[params[i]] =
            WithShape(*out, operands[i], params[i]->shape(), params[i]->name(),
                      inst->location());
      }
      copied_ += callee->instruction_count();
      inlined_callees_.insert(callee);
      inlined = true;
      stack.push_back(std::move(inner));  // `frame` is no longer valid
      continue;
    }
    std::unique_ptr<Instruction> clone =
        CloneWithOperands(*inst, std::move(operands));
    // Copies of callee instructions get fresh names; the computation's own
    // instructions keep theirs.
    if (stack.size() > 1) clone->set_name(names_.Make(inst->name()));
    frame.value_of[inst] = out->AddInstruction(std::move(clone));
  }
  if (!inlined) return nullptr;
  return out;
}

// Removes the computations of `candidates` that no instruction of a
// remaining computation calls. Callers come after their callees in a
// module, so visiting from last to first removes a chain of them in one
// sweep.
void RemoveUncalled(Module& module,
                    const std::unordered_set<const Computation*>& candidates) {
  // Lookup only: computation -> number of instructions calling it.
  std::unordered_map<const Computation*, int64_t> callers;
  for (const auto& comp : module.computations()) {
    for (const auto& inst : comp->instructions()) {
      for (const Computation* c : inst->called_computations()) ++callers[c];
    }
  }
  std::vector<const Computation*> ordered;
  for (const auto& comp : module.computations()) {
    if (candidates.count(comp.get())) ordered.push_back(comp.get());
  }
  for (auto it = ordered.rbegin(); it != ordered.rend(); ++it) {
    const Computation* comp = *it;
    if (comp == module.entry() || callers[comp] > 0) continue;
    for (const auto& inst : comp->instructions()) {
      for (const Computation* c : inst->called_computations()) --callers[c];
    }
    module.RemoveComputation(comp);
  }
}

}  // namespace

absl::StatusOr<bool> CallInliner::Run(Module& module) {
  Inliner inliner(module);
  // Callers first (a module lists callees first), so that the caller's
  // copies get the first free names. Every rebuild reads the original
  // computations; the rebuilt ones replace them only at the end.
  std::vector<std::pair<Computation*, std::unique_ptr<Computation>>> rebuilt;
  for (auto it = module.computations().rbegin();
       it != module.computations().rend(); ++it) {
    std::unique_ptr<Computation> fresh = inliner.Rebuild(**it);
    if (fresh != nullptr) rebuilt.emplace_back(it->get(), std::move(fresh));
  }
  if (rebuilt.empty()) return false;

  // Lookup only: original computation -> its rebuilt replacement.
  std::unordered_map<const Computation*, Computation*> replacement;
  for (auto& [old, fresh] : rebuilt) {
    replacement[old] = module.AddComputationBefore(std::move(fresh), old);
  }
  for (const auto& comp : module.computations()) {
    for (const auto& inst : comp->instructions()) {
      std::vector<Computation*> called = inst->called_computations();
      bool retarget = false;
      for (Computation*& c : called) {
        auto it = replacement.find(c);
        if (it == replacement.end()) continue;
        c = it->second;
        retarget = true;
      }
      if (retarget) inst->set_called_computations(std::move(called));
    }
  }
  if (auto it = replacement.find(module.entry()); it != replacement.end()) {
    module.set_entry(it->second);
  }
  for (const auto& [old, fresh] : rebuilt) module.RemoveComputation(old);

  std::unordered_set<const Computation*> candidates;
  for (const Computation* callee : inliner.inlined_callees()) {
    auto it = replacement.find(callee);
    candidates.insert(it == replacement.end() ? callee : it->second);
  }
  RemoveUncalled(module, candidates);
  return true;
}

}  // namespace aotc
