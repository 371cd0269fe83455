// The fusion pass: producer-consumer grouping with a cost model, then one
// fusion instruction per group.
#include "compiler/passes/fusion.h"

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/analysis/op_facts.h"
#include "compiler/rewrite/ir_rewrite.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

// Ops computed element by element through index arithmetic (opcode.def's E
// and L): both producers and consumers.
bool IsLoopFusible(const Instruction& inst) {
  if (!inst.shape().IsArray()) return false;
  const Opcode op = inst.opcode();
  if (!IsLoopMember(op) || HasSideEffect(op) || IsCollective(op)) return false;
  // A small update stays a dynamic-update-slice of its own, which writes
  // only the update's elements (in place over its operand when that dies
  // there, as a donated cache does); a fused one rewrites every element.
  if (op == Opcode::kDynamicUpdateSlice) return !IsSmallDynamicUpdate(inst);
  if (op == Opcode::kBitcastConvert) {
    // f16 and bf16 values are computed in float, where a NaN payload is
    // not kept; unfused, the bitcast-convert aliases its operand's bytes.
    const PrimitiveType from = inst.operand(0)->shape().element_type();
    const PrimitiveType to = inst.shape().element_type();
    return !IsWidthChangingBitcast(inst) && !IsHalfFloat(from) &&
           !IsHalfFloat(to);
  }
  return true;
}

bool IsReduction(const Instruction& inst) {
  return inst.opcode() == Opcode::kReduce ||
         inst.opcode() == Opcode::kReduceWindow;
}

// Dot and convolution: each result element sums many products, and each
// operand element is read for many result elements.
bool IsContraction(const Instruction& inst) {
  return inst.opcode() == Opcode::kDot || inst.opcode() == Opcode::kConvolution;
}

bool IsConsumer(const Instruction& inst) {
  if (!inst.shape().IsArray()) return false;
  return IsLoopFusible(inst) || IsReduction(inst);
}

bool IsProducer(const Instruction& inst) {
  if (!inst.shape().IsArray()) return false;
  return IsLoopFusible(inst) || IsReduction(inst) ||
         inst.opcode() == Opcode::kConstant || IsContraction(inst);
}

// Whether `consumer` reads some element of `operand` more than once.
bool ReadsElementsRepeatedly(const Instruction& consumer) {
  switch (consumer.opcode()) {
    case Opcode::kBroadcast:
      return consumer.shape().ElementCount() >
             consumer.operand(0)->shape().ElementCount();
    case Opcode::kReduceWindow: {
      int64_t window = 1, stride = 1;
      for (const WindowDim& w : consumer.window()) {
        window *= w.size;
        stride *= w.stride;
      }
      return window > stride;
    }
    case Opcode::kDot:
    case Opcode::kConvolution:
      return true;
    case Opcode::kGather:
      // Which operand elements it reads depends on the indices: the same
      // one may be read for many result elements, and each index vector
      // is read once per element of its slice.
      return true;
    default:
      return false;
  }
}

// Producers that are not worth evaluating more than once per element of the
// group's root: the expensive ones, and gather. A gather element is cheap
// once (the index vector and one operand element, like dynamic-slice), but
// under an expanding broadcast every copy reads the index vector again and
// then the operand at an address the loop cannot predict, where a buffer
// would be read contiguously.
bool AvoidRepeating(const Instruction& inst) {
  return IsExpensive(inst) || inst.opcode() == Opcode::kGather;
}

// Members whose element code branches or loops: concatenate picks its
// part, reduce and reduce-window loop over their windows, sine, cosine and
// tangent reduce huge arguments, remainder loops (codegen/elemental/). The
// emitter's per-index memo holds within one basic block, so a value asked
// for again after one of them is computed again, its operands too.
bool BranchesInElementCode(const Instruction& inst) {
  switch (inst.opcode()) {
    case Opcode::kConcatenate:
    case Opcode::kReduce:
    case Opcode::kReduceWindow:
    case Opcode::kMap:
    case Opcode::kSin:
    case Opcode::kCos:
    case Opcode::kTan:
    case Opcode::kRemainder:
      return true;
    default:
      return false;
  }
}

// Consumers that read each operand element at most once and keep the
// operand's elements in one-to-one correspondence with their own.
bool IsOneToOneConsumer(const Instruction& consumer,
                        const Instruction& producer) {
  if (!consumer.shape().SameDimensions(producer.shape())) return false;
  return IsElementwise(consumer.opcode());
}

// Where a fused loop computing `inst` would read memory: the instructions
// reached through loop-fusible producers that are not themselves fusible
// (parameters, reductions, calls...). The search is bounded; a large
// expression gives a partial set, which only makes siblings rarer.
std::set<const Instruction*> Sources(const Instruction* inst) {
  std::set<const Instruction*> sources, seen;
  std::vector<const Instruction*> stack(inst->operands().begin(),
                                        inst->operands().end());
  while (!stack.empty() && seen.size() < 256) {
    const Instruction* v = stack.back();
    stack.pop_back();
    if (!seen.insert(v).second || v->opcode() == Opcode::kConstant) continue;
    if (!IsLoopFusible(*v)) {
      sources.insert(v);
      continue;
    }
    for (const Instruction* o : v->operands()) stack.push_back(o);
  }
  return sources;
}

// Reduces that have a sibling: another single-result reduce with the same
// operand dimensions, reduced dimensions and result dimensions, reading a
// common source, with no path between the two. Multi-output fusion gives
// such pairs one pass over their input, so fusion leaves them as the roots
// of their groups instead of fusing them into their consumers.
std::set<const Instruction*> ReducesWithSiblings(const Computation& comp) {
  std::vector<const Instruction*> reduces;
  for (const auto& inst : comp.instructions()) {
    if (inst->opcode() == Opcode::kReduce && inst->operand_count() == 2 &&
        inst->shape().IsArray()) {
      reduces.push_back(inst.get());
    }
  }
  std::set<const Instruction*> out;
  // Quadratic in the number of reductions; modules with very many skip it.
  if (reduces.size() > 64) return out;
  std::vector<std::set<const Instruction*>> sources;
  for (const Instruction* r : reduces) sources.push_back(Sources(r));
  for (size_t i = 0; i < reduces.size(); ++i) {
    for (size_t j = i + 1; j < reduces.size(); ++j) {
      const Instruction* a = reduces[i];
      const Instruction* b = reduces[j];
      if (a->attrs().dimensions != b->attrs().dimensions ||
          !a->shape().SameDimensions(b->shape()) ||
          !a->operand(0)->shape().SameDimensions(b->operand(0)->shape())) {
        continue;
      }
      bool common = false;
      for (const Instruction* s : sources[i]) common = common || sources[j].count(s);
      if (!common || DependsOn(a, b) || DependsOn(b, a)) continue;
      out.insert(a);
      out.insert(b);
    }
  }
  return out;
}

class ComputationFuser {
 public:
  // A group takes at most this many instructions, and no member is reached
  // through more than kMaxPaths paths from the group's root (each path may
  // evaluate it again at another index).
  static constexpr int64_t kMaxGroupSize = 128;
  static constexpr int64_t kMaxPaths = 8;

  ComputationFuser(Module& module, Computation& comp, NameUniquer& names)
      : module_(module), comp_(comp), names_(names) {}

  bool Run() {
    std::vector<Instruction*> order;
    for (const auto& inst : comp_.instructions()) {
      position_[inst.get()] = static_cast<int64_t>(order.size());
      order.push_back(inst.get());
    }
    with_siblings_ = ReducesWithSiblings(comp_);
    bool changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      Instruction* consumer = *it;
      if (dead_.count(consumer) || !IsConsumer(*consumer)) continue;
      bool counted_once = false;
      std::vector<Instruction*> members = Group(consumer, true, counted_once);
      // A value at the root's index is computed once only in straight-line
      // element code; with a member that branches, count every path.
      if (counted_once &&
          std::any_of(members.begin(), members.end(),
                      [](const Instruction* m) {
                        return BranchesInElementCode(*m);
                      })) {
        members = Group(consumer, false, counted_once);
      }
      int non_constant = 0;
      for (const Instruction* m : members) {
        if (m->opcode() != Opcode::kConstant) ++non_constant;
      }
      if (non_constant < 2) continue;
      Materialize(consumer, members);
      changed = true;
    }
    if (changed) {
      RemoveDeadInstructions(comp_);
      comp_.SortTopologically();
    }
    return changed;
  }

 private:
  // The members of the group grown from `root`, in definition order. With
  // `once_at_root_index`, a member read only at the root's index counts as
  // one path, and `counted_once` says whether some member had more.
  std::vector<Instruction*> Group(Instruction* root, bool once_at_root_index,
                                  bool& counted_once) {
    counted_once = false;
    std::unordered_set<const Instruction*> in_group = {root};
    std::vector<Instruction*> members = {root};
    std::priority_queue<std::pair<int64_t, Instruction*>> candidates;
    std::unordered_set<const Instruction*> queued;
    auto enqueue = [&](Instruction* inst) {
      for (Instruction* o : inst->operands()) {
        if (queued.insert(o).second) candidates.push({position_.at(o), o});
      }
    };
    enqueue(root);
    // How many paths lead from the root to each member: a generator is
    // evaluated once per path (at most once per index), so this bounds the
    // recomputation inside the group.
    std::unordered_map<const Instruction*, int64_t> paths = {{root, 1}};
    // Whether some element of a member is evaluated more than once per
    // element of the root: below an expanding broadcast or an overlapping
    // reduce-window, however far down. Expensive members must not be.
    std::unordered_map<const Instruction*, bool> repeated = {{root, false}};
    // Members computed only at the root's own index: the element-wise
    // chain below the root. The emitter computes a value once per index
    // (its generators are memoized), so such a member costs one evaluation
    // however many paths reach it: JAX's erfc expansion reads x*x and 1/x^2
    // in a dozen Horner steps each.
    std::unordered_map<const Instruction*, bool> at_root_index = {
        {root, true}};
    // Members duplicated because some user outside the group needs them:
    // their original stays, and with it whatever it reads, so an operand
    // they read is used outside the group as well.
    std::unordered_set<const Instruction*> duplicated;
    // One contraction per group, and none under a reduction: code
    // generation computes a dot or a convolution with its element-wise
    // epilogue on the GEMM microkernel, one product at a time (two
    // convolutions summed in a residual block stay two fusions, and a
    // global average pool reads the convolution's result rather than
    // recomputing its sums one element at a time).
    bool has_contraction = IsContraction(*root);
    bool has_reduction = IsReduction(*root);
    while (!candidates.empty() &&
           static_cast<int64_t>(members.size()) < kMaxGroupSize) {
      Instruction* p = candidates.top().second;
      candidates.pop();
      if (!IsProducer(*p)) continue;
      const bool is_constant = p->opcode() == Opcode::kConstant;
      bool used_elsewhere = p->IsRoot();
      bool others_accept = !p->IsRoot();
      bool refused = false;
      int64_t p_paths = 0;
      bool p_repeated = false;
      bool p_at_root_index = true;
      for (const Instruction* u : p->users()) {
        const bool accepts = FusionRefusal(*p, *u).empty();
        if (!in_group.count(u)) {
          used_elsewhere = true;
          others_accept = others_accept && accepts;
          continue;
        }
        if (!accepts) {
          refused = true;
          continue;
        }
        if (duplicated.count(u)) {
          // The original of u reads p too, outside the group.
          used_elsewhere = true;
          others_accept = others_accept && accepts;
        }
        p_paths += paths.at(u);
        p_repeated =
            p_repeated || repeated.at(u) || ReadsElementsRepeatedly(*u);
        p_at_root_index = p_at_root_index && at_root_index.at(u) &&
                          IsOneToOneConsumer(*u, *p);
      }
      if (once_at_root_index && p_at_root_index) {
        counted_once = counted_once || p_paths > 1;
        p_paths = 1;
      }
      // A duplicated expensive producer would be computed twice; a cheap
      // one is duplicated only when every other user could take it too
      // (so the original can go away); an expensive producer or a gather
      // is never evaluated repeatedly, even through cheap members in
      // between; a reduce with a sibling stays a group root for
      // multi-output fusion.
      if (refused || (used_elsewhere && IsExpensive(*p)) ||
          (p_repeated && AvoidRepeating(*p)) ||
          (used_elsewhere && !others_accept && !is_constant) ||
          (p_paths > kMaxPaths && !is_constant) || with_siblings_.count(p) ||
          (IsContraction(*p) && (has_contraction || has_reduction)) ||
          (IsReduction(*p) && has_contraction)) {
        continue;
      }
      has_contraction = has_contraction || IsContraction(*p);
      has_reduction = has_reduction || IsReduction(*p);
      paths[p] = p_paths;
      repeated[p] = p_repeated;
      at_root_index[p] = p_at_root_index;
      if (used_elsewhere) duplicated.insert(p);
      in_group.insert(p);
      members.push_back(p);
      enqueue(p);
    }
    std::sort(members.begin(), members.end(),
              [&](const Instruction* a, const Instruction* b) {
                return position_.at(a) < position_.at(b);
              });
    return members;
  }

  void Materialize(Instruction* root, const std::vector<Instruction*>& members) {
    FusionKind kind = FusionKind::kLoop;
    for (const Instruction* m : members) {
      if (IsReduction(*m)) kind = FusionKind::kInput;
      if (IsContraction(*m) && kind == FusionKind::kLoop) {
        kind = FusionKind::kOutput;
      }
    }
    const OutlinedComputation outlined = OutlineIntoFusionComputation(
        module_, comp_, names_, "fused_computation",
        std::vector<const Instruction*>(members.begin(), members.end()), root);
    Computation* callee = outlined.computation;
    const std::vector<Instruction*>& external = outlined.operands;

    auto fusion = Instruction::Create(Opcode::kFusion, names_.Unique("fusion"),
                                      root->shape(), external, root->location());
    fusion->mutable_attrs().fusion_kind = kind;
    fusion->mutable_metadata() = root->metadata();
    fusion->set_called_computations({callee});
    Instruction* f = comp_.AddInstruction(std::move(fusion));
    position_[f] = position_.at(root);
    root->ReplaceAllUsesWith(f);
    // Members nothing outside uses any more are dead; duplicated cheap
    // producers stay for their other users.
    for (auto it = members.rbegin(); it != members.rend(); ++it) {
      Instruction* m = *it;
      if (m->users().empty() && !m->IsRoot()) {
        m->DropAllOperands();
        dead_.insert(m);
      }
    }
  }

  Module& module_;
  Computation& comp_;
  NameUniquer& names_;
  std::unordered_map<const Instruction*, int64_t> position_;
  std::unordered_set<const Instruction*> dead_;
  std::set<const Instruction*> with_siblings_;
};

}  // namespace

bool IsExpensive(const Instruction& inst) {
  return IsHeavy(inst.opcode());
}

std::string_view FusionRefusal(const Instruction& producer,
                               const Instruction& consumer) {
  if (!IsConsumer(consumer)) {
    return IsContraction(consumer)
               ? "a dot or convolution reads each operand element many times"
               : "the consumer has no element-wise form";
  }
  if (!IsProducer(producer)) return "the producer has no element-wise form";
  if (IsContraction(producer) || IsReduction(producer)) {
    if (!IsOneToOneConsumer(consumer, producer)) {
      return "a reduce, reduce-window, dot or convolution only fuses into a "
             "same-shaped element-wise consumer";
    }
    return {};
  }
  if (IsExpensive(producer) && ReadsElementsRepeatedly(consumer)) {
    return "an expensive producer would be recomputed for every element the "
           "consumer reads repeatedly";
  }
  if (producer.opcode() == Opcode::kGather &&
      ReadsElementsRepeatedly(consumer)) {
    return "a gather would read its indices and operand again for every "
           "element the consumer reads repeatedly";
  }
  return {};
}

absl::StatusOr<bool> FusionPass::Run(Module& module) {
  if (module.entry() == nullptr) return false;
  NameUniquer names(module);
  bool changed = false;
  for (Computation* comp : SequentialComputations(module)) {
    ComputationFuser fuser(module, *comp, names);
    changed = fuser.Run() || changed;
  }
  return changed;
}

}  // namespace aotc
