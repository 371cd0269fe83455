// Merges sibling reductions, and reductions with the expensive value they
// reduce, into multi-output fusions.
#include "compiler/passes/multi_output_fusion.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/rewrite/ir_rewrite.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

// The loop structure of a reduction: operand dimensions, reduced
// dimensions and the result shape (with layout).
struct LoopKey {
  std::vector<int64_t> operand_dims;
  std::vector<int64_t> reduced;
  std::string result;
  bool operator<(const LoopKey& o) const {
    return std::tie(operand_dims, reduced, result) <
           std::tie(o.operand_dims, o.reduced, o.result);
  }
};

std::optional<LoopKey> ReduceKey(const Instruction& reduce,
                                 const Shape& result) {
  if (reduce.opcode() != Opcode::kReduce || reduce.operand_count() != 2 ||
      !reduce.shape().IsArray() || !reduce.shape().SameDimensions(result)) {
    return std::nullopt;
  }
  return LoopKey{reduce.operand(0)->shape().dimensions(),
                 reduce.dimensions(), result.ToString(true)};
}

// The loop key of a candidate: a plain reduce, or a single-result kInput
// fusion with exactly one reduce loop producing results of its shape.
std::optional<LoopKey> CandidateKey(const Instruction& inst) {
  if (!inst.shape().IsArray()) return std::nullopt;
  if (inst.opcode() == Opcode::kReduce) return ReduceKey(inst, inst.shape());
  if (inst.opcode() != Opcode::kFusion ||
      inst.fusion_kind() != FusionKind::kInput) {
    return std::nullopt;
  }
  std::optional<LoopKey> key;
  for (const auto& f : inst.fused_computation()->instructions()) {
    if (f->opcode() == Opcode::kFusion) return std::nullopt;
    if (f->opcode() != Opcode::kReduce && f->opcode() != Opcode::kReduceWindow) {
      continue;
    }
    std::optional<LoopKey> k = ReduceKey(*f, inst.shape());
    if (!k.has_value() || (key.has_value() && k->reduced != key->reduced) ||
        (key.has_value() && k->operand_dims != key->operand_dims)) {
      return std::nullopt;
    }
    key = k;
  }
  return key;
}

bool ShareAnOperand(const Instruction& a, const Instruction& b) {
  for (const Instruction* x : a.operands()) {
    if (x->opcode() == Opcode::kConstant) continue;
    for (const Instruction* y : b.operands()) {
      if (x == y) return true;
    }
  }
  return false;
}

// Whether `producer` can be computed inside the loop of `consumer` and
// written from there: consumer is a plain reduce of producer (so its loop
// visits every element of producer exactly once, at producer's own index),
// producer is a loop fusion or an element-wise op whose value other
// instructions also read (had the reduce been its only user, fusion would
// have put it inside), and the reduce's init value does not come from it.
bool ProducerOfReduce(const Instruction& producer, const Instruction& consumer) {
  if (consumer.opcode() != Opcode::kReduce || consumer.operand_count() != 2 ||
      !consumer.shape().IsArray() || consumer.operand(0) != &producer ||
      DependsOn(consumer.operand(1), &producer)) {
    return false;
  }
  if (!producer.shape().IsArray() || producer.users().size() < 2) return false;
  if (producer.opcode() == Opcode::kFusion) {
    return producer.fusion_kind() == FusionKind::kLoop;
  }
  return IsElementwise(producer.opcode());
}

// Builds the merged fused computation of `parts` (each a candidate or an
// earlier multi-output fusion's results) and replaces them.
class Merger {
 public:
  Merger(Module& module, Computation& comp, NameUniquer& names)
      : module_(module), comp_(comp), names_(names) {}

  Instruction* Merge(Instruction* a, Instruction* b) {
    fused_ = std::make_unique<Computation>(names_.Unique("fused_computation"),
                                           a->location());
    fused_->set_is_fusion_computation(true);
    std::vector<Instruction*> roots = {AddPart(a), AddPart(b)};
    std::vector<Shape> shapes = {a->shape(), b->shape()};
    Instruction* tuple = fused_->AddInstruction(Instruction::Create(
        Opcode::kTuple, Fresh("tuple"), Shape::Tuple(shapes), roots));
    fused_->set_root(tuple);
    Computation* callee = module_.AddComputationBefore(std::move(fused_), &comp_);
    auto fusion = Instruction::Create(Opcode::kFusion, names_.Unique("fusion"),
                                      Shape::Tuple(shapes), external_,
                                      a->location());
    fusion->mutable_attrs().fusion_kind = FusionKind::kInput;
    fusion->mutable_metadata() = a->metadata();
    fusion->set_called_computations({callee});
    Instruction* f = comp_.AddInstruction(std::move(fusion));
    Instruction* parts[2] = {a, b};
    for (int k = 0; k < 2; ++k) {
      auto gte = Instruction::Create(
          Opcode::kGetTupleElement, names_.Unique(parts[k]->name() + ".out"),
          shapes[k], {f}, parts[k]->location());
      gte->mutable_attrs().tuple_index = k;
      parts[k]->ReplaceAllUsesWith(comp_.AddInstruction(std::move(gte)));
      parts[k]->DropAllOperands();
    }
    return f;
  }

 private:
  std::string Fresh(const std::string& name) {
    std::string n = name;
    for (int k = 1; used_.count(n); ++k) n = absl::StrCat(name, ".", k);
    used_.insert(n);
    return n;
  }

  Instruction* Param(Instruction* ext) {
    // The consumer of a merged producer reads the producer's root.
    if (auto p = produced_.find(ext); p != produced_.end()) return p->second;
    auto it = params_.find(ext);
    if (it != params_.end()) return it->second;
    const int64_t number = static_cast<int64_t>(external_.size());
    auto p = Instruction::Create(Opcode::kParameter,
                                 Fresh(absl::StrCat("param_", number)),
                                 ext->shape(), {}, ext->location());
    p->mutable_attrs().parameter_number = number;
    external_.push_back(ext);
    return params_[ext] = fused_->AddInstruction(std::move(p));
  }

  Instruction* Clone(const Instruction& inst, std::vector<Instruction*> ops) {
    std::unique_ptr<Instruction> c = CloneWithOperands(inst, std::move(ops));
    c->set_name(Fresh(inst.name()));
    return fused_->AddInstruction(std::move(c));
  }

  // Copies candidate `x` into the merged computation; returns its result.
  Instruction* AddPart(Instruction* x) {
    Instruction* result = CopyPart(x);
    produced_[x] = result;
    return result;
  }

  Instruction* CopyPart(Instruction* x) {
    if (x->opcode() != Opcode::kFusion) {
      std::vector<Instruction*> ops;
      for (Instruction* o : x->operands()) {
        ops.push_back(o->opcode() == Opcode::kConstant && o->shape().IsScalar()
                          ? Clone(*o, {})
                          : Param(o));
      }
      return Clone(*x, ops);
    }
    std::map<const Instruction*, Instruction*> map;
    const Computation& fc = *x->fused_computation();
    for (const auto& f : fc.instructions()) {
      if (f->opcode() == Opcode::kParameter) {
        map[f.get()] = Param(x->operand(f->parameter_number()));
        continue;
      }
      std::vector<Instruction*> ops;
      for (const Instruction* o : f->operands()) ops.push_back(map.at(o));
      map[f.get()] = Clone(*f, ops);
    }
    return map.at(fc.root());
  }

  Module& module_;
  Computation& comp_;
  NameUniquer& names_;
  std::unique_ptr<Computation> fused_;
  std::set<std::string> used_;
  std::map<const Instruction*, Instruction*> params_;
  // Each part added so far and its result inside the merged computation.
  std::map<const Instruction*, Instruction*> produced_;
  std::vector<Instruction*> external_;
};

}  // namespace

absl::StatusOr<bool> MultiOutputFusion::Run(Module& module) {
  if (module.entry() == nullptr) return false;
  NameUniquer names(module);
  bool changed = false;
  for (Computation* comp : SequentialComputations(module)) {
    // Pairs are merged one at a time (two candidates of the same loop key,
    // in definition order); a merged fusion is no candidate again, so each
    // merge leaves two results of one loop.
    std::map<LoopKey, std::vector<Instruction*>> by_key;
    for (const auto& inst : comp->instructions()) {
      if (std::optional<LoopKey> key = CandidateKey(*inst); key.has_value()) {
        by_key[*key].push_back(inst.get());
      }
    }
    bool merged_here = false;
    for (auto& [key, list] : by_key) {
      std::vector<bool> used(list.size(), false);
      for (size_t i = 0; i < list.size(); ++i) {
        for (size_t j = i + 1; j < list.size() && !used[i]; ++j) {
          if (used[j] || !ShareAnOperand(*list[i], *list[j]) ||
              DependsOn(list[i], list[j]) || DependsOn(list[j], list[i])) {
            continue;
          }
          Merger merger(module, *comp, names);
          merger.Merge(list[i], list[j]);
          used[i] = used[j] = true;
          merged_here = true;
        }
      }
    }
    // Producer and consumer: the value a reduce reduces, when others read it
    // too, is written by the reduce's loop instead of a pass of its own
    // (softmax's exp(x - max) and its sum). Pairs are found first, then
    // merged; an instruction takes part in one merge per run.
    std::vector<std::pair<Instruction*, Instruction*>> pairs;
    std::set<const Instruction*> taken;
    for (const auto& inst : comp->instructions()) {
      if (inst->operand_count() == 0) continue;
      Instruction* producer = inst->operands()[0];
      if (!ProducerOfReduce(*producer, *inst) || taken.count(producer) ||
          taken.count(inst.get())) {
        continue;
      }
      taken.insert(producer);
      taken.insert(inst.get());
      pairs.push_back({producer, inst.get()});
    }
    for (auto [producer, consumer] : pairs) {
      Merger merger(module, *comp, names);
      merger.Merge(producer, consumer);
      merged_here = true;
    }
    if (merged_here) {
      RemoveDeadInstructions(*comp);
      comp->SortTopologically();
      changed = true;
    }
  }
  return changed;
}

}  // namespace aotc
