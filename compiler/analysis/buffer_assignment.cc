// Liveness over definition order, in-place reuse, scratch, and packing.
#include "compiler/analysis/buffer_assignment.h"

#include <algorithm>
#include <cstddef>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "compiler/analysis/side_effects.h"
#include "compiler/ir/input_output_alias.h"
#include "compiler/ir/module.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

int FirstLeafOfElement(const Shape& tuple, int64_t index) {
  int first = 0;
  for (int64_t k = 0; k < index; ++k) {
    first += static_cast<int>(tuple.tuple_shapes(k).Leaves().size());
  }
  return first;
}

// Whether `inst` reads operand `k` only at the element it writes, so that
// its result may overwrite the operand's buffer.
bool ReadsOperandAtOutputIndex(const Instruction& inst, int k) {
  const Shape& in = inst.operand(k)->shape();
  if (!in.IsArray() || !inst.shape().IsArray() || in != inst.shape()) {
    return false;
  }
  if (inst.opcode() == Opcode::kDynamicUpdateSlice) return k == 0;
  // A scatter (one operand) starts as a copy of its operand, element for
  // element, then reads only its own result.
  if (inst.opcode() == Opcode::kScatter) return k == 0;
  if (IsElementwise(inst.opcode()) && inst.opcode() != Opcode::kMap) {
    return true;
  }
  if (inst.opcode() != Opcode::kFusion) return false;
  // In a fusion: every path from the parameter to the root goes through
  // element-wise instructions of the root's shape.
  const Computation& fused = *inst.fused_computation();
  std::vector<const Instruction*> stack = {fused.parameter(k)};
  std::set<const Instruction*> seen;
  while (!stack.empty()) {
    const Instruction* v = stack.back();
    stack.pop_back();
    if (!seen.insert(v).second) continue;
    if (v->opcode() != Opcode::kParameter &&
        !(IsElementwise(v->opcode()) && v->opcode() != Opcode::kMap &&
          v->shape() == inst.shape())) {
      return false;
    }
    for (const Instruction* u : v->users()) stack.push_back(u);
  }
  return true;
}

}  // namespace

ValueKind ClassifyValue(const Instruction& inst) {
  switch (inst.opcode()) {
    case Opcode::kParameter:
      return ValueKind::kParameter;
    case Opcode::kConstant:
      return inst.shape().IsScalar() ? ValueKind::kOwned : ValueKind::kConstant;
    case Opcode::kTuple:
    case Opcode::kGetTupleElement:
    case Opcode::kOptimizationBarrier:
    case Opcode::kBitcast:
      return ValueKind::kAlias;
    case Opcode::kCopy:
      // A tuple copy copies nothing but the tuple: its leaves are the
      // operand's (buffers are never written twice).
      return inst.shape().IsTuple() ? ValueKind::kAlias : ValueKind::kOwned;
    case Opcode::kReshape:
      return inst.shape().HasDefaultLayout() &&
                     inst.operand(0)->shape().HasDefaultLayout()
                 ? ValueKind::kAlias
                 : ValueKind::kOwned;
    case Opcode::kBitcastConvert: {
      // Aliasing keeps every bit, NaN payloads included.
      const Shape& in = inst.operand(0)->shape();
      const Shape& out = inst.shape();
      const bool same_width =
          BitWidth(in.element_type()) == BitWidth(out.element_type());
      if ((in.HasDefaultLayout() && out.HasDefaultLayout()) ||
          (same_width &&
           in.layout().minor_to_major == out.layout().minor_to_major)) {
        return ValueKind::kAlias;
      }
      return ValueKind::kOwned;
    }
    case Opcode::kWhile:
      return ValueKind::kWhile;
    case Opcode::kConditional:
      return ValueKind::kConditional;
    case Opcode::kCall:
      return ValueKind::kCall;
    default:
      return ValueKind::kOwned;
  }
}

std::vector<const Computation*> BufferFunctionCallees(const Instruction& inst) {
  switch (ClassifyValue(inst)) {
    case ValueKind::kWhile:
      return {inst.while_condition(), inst.while_body()};
    case ValueKind::kConditional:
    case ValueKind::kCall:
      return {inst.called_computations().begin(),
              inst.called_computations().end()};
    default:
      return {};
  }
}

std::pair<const Instruction*, int> TraceLeaf(const Instruction* inst,
                                             int leaf) {
  while (true) {
    if (inst->opcode() == Opcode::kTuple) {
      int k = 0;
      for (; k < inst->operand_count(); ++k) {
        const int n =
            static_cast<int>(inst->operand(k)->shape().Leaves().size());
        if (leaf < n) break;
        leaf -= n;
      }
      inst = inst->operand(k);
    } else if (inst->opcode() == Opcode::kGetTupleElement) {
      leaf += FirstLeafOfElement(inst->operand(0)->shape(), inst->tuple_index());
      inst = inst->operand(0);
    } else {
      return {inst, leaf};
    }
  }
}

namespace {

// Donation (the entry's input_output_alias): which argument leaves each
// value leaf reads through aliases, and the last schedule position where
// each argument leaf is read.
struct ArgumentReads {
  std::map<const Instruction*, std::vector<int>> refs;  // per leaf, or -1
  std::vector<int64_t> last_read;                       // per argument leaf
};

ArgumentReads FindArgumentReads(
    const Computation& comp, const std::vector<const Instruction*>& schedule,
    const std::map<const Instruction*, int64_t>& position) {
  ArgumentReads reads;
  std::map<const Instruction*, int> first_arg;
  int args = 0;
  for (const Instruction* p : comp.parameters()) {
    first_arg[p] = args;
    args += static_cast<int>(p->shape().Leaves().size());
  }
  reads.last_read.assign(args, -1);
  for (const Instruction* inst : schedule) {
    const std::vector<const Shape*> leaves = inst->shape().Leaves();
    std::vector<int>& ref = reads.refs[inst];
    switch (ClassifyValue(*inst)) {
      case ValueKind::kParameter:
        for (size_t k = 0; k < leaves.size(); ++k) {
          ref.push_back(first_arg.at(inst) + static_cast<int>(k));
        }
        continue;
      case ValueKind::kAlias:
        if (inst->opcode() == Opcode::kTuple) {
          for (const Instruction* o : inst->operands()) {
            const std::vector<int>& r = reads.refs.at(o);
            ref.insert(ref.end(), r.begin(), r.end());
          }
        } else if (inst->opcode() == Opcode::kGetTupleElement) {
          const std::vector<int>& r = reads.refs.at(inst->operand(0));
          const int first = FirstLeafOfElement(inst->operand(0)->shape(),
                                               inst->tuple_index());
          ref.assign(r.begin() + first, r.begin() + first + leaves.size());
        } else {
          ref = reads.refs.at(inst->operand(0));
        }
        continue;
      default:
        ref.assign(leaves.size(), -1);
        break;
    }
    for (const Instruction* o : inst->operands()) {
      for (int a : reads.refs.at(o)) {
        if (a >= 0) {
          reads.last_read[a] = std::max(reads.last_read[a], position.at(inst));
        }
      }
    }
  }
  return reads;
}

// Whether `inst` (at the last read of argument leaf `arg`) may write its
// result over that argument: it reads the argument only at the element it
// writes.
bool OverwritesArgumentSafely(const Instruction& inst, int arg,
                              const ArgumentReads& reads) {
  if (ClassifyValue(inst) != ValueKind::kOwned || !inst.shape().IsArray()) {
    return false;
  }
  for (int k = 0; k < inst.operand_count(); ++k) {
    const std::vector<int>& r = reads.refs.at(inst.operand(k));
    if (std::find(r.begin(), r.end(), arg) == r.end()) continue;
    if (r.size() != 1 || !ReadsOperandAtOutputIndex(inst, k)) return false;
  }
  return true;
}

}  // namespace

namespace {

// Positions in the schedule, and where each value leaf's bytes live: the
// buffer it refers to, or -1 (a parameter, a constant, a result buffer).
using Positions = std::map<const Instruction*, int64_t>;
using Refers = std::map<const Instruction*, std::vector<int>>;

// The donated argument of each result leaf (-1: none); donation applies to
// the entry computation only. An alias table aotc cannot honour is recorded
// in plan.unsupported.
std::vector<int> DonatedArguments(const Computation& comp, BufferPlan& plan) {
  if (comp.parent() == nullptr || comp.parent()->entry() != &comp) return {};
  absl::StatusOr<std::vector<InputOutputAlias>> aliases =
      InputOutputAliases(*comp.parent());
  if (!aliases.ok()) {
    plan.unsupported = std::string(aliases.status().message());
    return {};
  }
  return DonatedArgumentPerResult(*comp.parent(), *aliases);
}

// The schedule: instructions the root depends on, and those that must run
// though nothing reads them (a side effect such as an external call, which
// DCE keeps) with what they depend on, in definition order.
Positions Schedule(const Computation& comp, BufferPlan& plan) {
  std::set<const Instruction*> live;
  std::vector<const Instruction*> stack = {comp.root()};
  if (comp.parent() != nullptr) {
    const SideEffects effects(*comp.parent());
    for (const auto& inst : comp.instructions()) {
      if (effects.Has(*inst)) stack.push_back(inst.get());
    }
  }
  while (!stack.empty()) {
    const Instruction* inst = stack.back();
    stack.pop_back();
    if (!live.insert(inst).second) continue;
    for (const Instruction* o : inst->operands()) stack.push_back(o);
  }
  Positions position;
  for (const auto& inst : comp.instructions()) {
    if (!live.count(inst.get())) continue;
    position[inst.get()] = static_cast<int64_t>(plan.schedule.size());
    plan.schedule.push_back(inst.get());
  }
  return position;
}

// Root leaves written straight into the result buffers, keyed by (producer,
// leaf), with their result index. A donated result (whose buffer is an
// argument's) is written there only when nothing reads the argument
// afterwards; otherwise it is computed in temp and copied at the end.
std::map<std::pair<const Instruction*, int>, int> DirectResults(
    const Computation& comp, const BufferPlan& plan, const Positions& position,
    const ArgumentReads& reads) {
  const int64_t last = static_cast<int64_t>(plan.schedule.size()) - 1;
  const int results = static_cast<int>(comp.root()->shape().Leaves().size());
  const std::vector<int>& root_args = reads.refs.at(comp.root());
  std::vector<int64_t> last_read = reads.last_read;
  for (int r = 0; r < results; ++r) {
    // The final copies read arguments after everything else.
    if (root_args[r] >= 0 && root_args[r] != plan.donated[r]) {
      last_read[root_args[r]] = last + 1;
    }
  }
  std::map<std::pair<const Instruction*, int>, int> direct;
  for (int r = 0; r < results; ++r) {
    auto [producer, leaf] = TraceLeaf(comp.root(), r);
    const ValueKind kind = ClassifyValue(*producer);
    if (kind == ValueKind::kParameter || kind == ValueKind::kConstant ||
        kind == ValueKind::kAlias) {
      continue;
    }
    if (const int a = plan.donated[r]; a >= 0) {
      const int64_t at = position.at(producer);
      if (!(last_read[a] < at ||
            (last_read[a] == at &&
             OverwritesArgumentSafely(*producer, a, reads)))) {
        continue;
      }
    }
    direct.emplace(std::make_pair(producer, leaf), r);
  }
  return direct;
}

// Copies into donated results run last, and must not overwrite an argument
// another of them still copies from: such a module is recorded in
// plan.unsupported.
void CheckDonatedCopies(const Computation& comp, const ArgumentReads& reads,
                        BufferPlan& plan) {
  const int results = static_cast<int>(comp.root()->shape().Leaves().size());
  const std::vector<int>& root_args = reads.refs.at(comp.root());
  for (int r = 0; r < results; ++r) {
    const int a = plan.donated[r];
    if (a < 0 || root_args[r] == a) continue;
    for (int other = 0; other < results; ++other) {
      if (other != r && root_args[other] == a && plan.donated[other] >= 0 &&
          root_args[other] != plan.donated[other]) {
        plan.unsupported = absl::StrCat(
            "input_output_alias: result ", other,
            " is copied from the donated argument that result ", r,
            " overwrites (exchanging donated buffers is not supported)");
      }
    }
  }
}

int AddBuffer(BufferPlan& plan, const Instruction* inst, int leaf,
              Buffer::Role role, int64_t size, int64_t at) {
  Buffer b;
  b.instruction = inst;
  b.leaf = leaf;
  b.role = role;
  b.size = size;
  b.start = at;
  b.end = at;
  plan.buffers.push_back(b);
  return static_cast<int>(plan.buffers.size()) - 1;
}

// The buffers every value leaf refers to for an alias (tuple,
// get-tuple-element, bitcast...): its operands'.
std::vector<int> AliasRefers(const Instruction& inst, const Refers& refers) {
  if (inst.opcode() == Opcode::kTuple) {
    std::vector<int> ref;
    for (const Instruction* o : inst.operands()) {
      const std::vector<int>& r = refers.at(o);
      ref.insert(ref.end(), r.begin(), r.end());
    }
    return ref;
  }
  if (inst.opcode() == Opcode::kGetTupleElement) {
    const std::vector<int>& r = refers.at(inst.operand(0));
    const int first =
        FirstLeafOfElement(inst.operand(0)->shape(), inst.tuple_index());
    const size_t leaves = inst.shape().Leaves().size();
    return std::vector<int>(r.begin() + first, r.begin() + first + leaves);
  }
  return refers.at(inst.operand(0));
}

// A buffer for every leaf an instruction owns (except those written straight
// into a result), the while loop's next-state and predicate buffers, and
// each buffer's live range: from its definition to its last reader.
Refers CreateBuffers(
    const Computation& comp, const Positions& position,
    const std::map<std::pair<const Instruction*, int>, int>& direct,
    BufferPlan& plan) {
  Refers refers;
  for (const Instruction* inst : plan.schedule) {
    const int64_t p = position.at(inst);
    const ValueKind kind = ClassifyValue(*inst);
    const std::vector<const Shape*> leaves = inst->shape().Leaves();
    // Every buffer an operand refers to is read here.
    for (const Instruction* o : inst->operands()) {
      for (int b : refers.at(o)) {
        if (b >= 0) plan.buffers[b].end = std::max(plan.buffers[b].end, p);
      }
    }
    if (kind == ValueKind::kParameter || kind == ValueKind::kConstant) {
      refers[inst].assign(leaves.size(), -1);
      continue;
    }
    if (kind == ValueKind::kAlias) {
      refers[inst] = AliasRefers(*inst, refers);
      continue;
    }
    std::vector<int>& own = plan.leaf_buffers[inst];
    std::vector<int>& res = plan.result_index[inst];
    for (size_t k = 0; k < leaves.size(); ++k) {
      auto it = direct.find({inst, static_cast<int>(k)});
      if (it != direct.end()) {
        own.push_back(-1);
        res.push_back(it->second);
      } else {
        own.push_back(AddBuffer(plan, inst, static_cast<int>(k),
                                Buffer::Role::kValue, leaves[k]->ByteSize(),
                                p));
        res.push_back(-1);
      }
    }
    refers[inst] = own;
    if (kind == ValueKind::kWhile) {
      std::vector<int>& next = plan.while_next[inst];
      for (size_t k = 0; k < leaves.size(); ++k) {
        next.push_back(AddBuffer(plan, inst, static_cast<int>(k),
                                 Buffer::Role::kWhileNext,
                                 leaves[k]->ByteSize(), p));
      }
      plan.while_predicate[inst] =
          AddBuffer(plan, inst, 0, Buffer::Role::kWhilePredicate, 1, p);
    }
  }
  // Whatever the root refers to lives to the end.
  const int64_t last = static_cast<int64_t>(plan.schedule.size()) - 1;
  for (int b : refers.at(comp.root())) {
    if (b >= 0) plan.buffers[b].end = last;
  }
  return refers;
}

// In place: a single-leaf owned result over an operand buffer that dies
// here, of the same size, read only at the output's own index.
void AssignInPlace(const Positions& position, const Refers& refers,
                   BufferPlan& plan) {
  for (const Instruction* inst : plan.schedule) {
    if (ClassifyValue(*inst) != ValueKind::kOwned || !inst->shape().IsArray()) {
      continue;
    }
    const int out = plan.leaf_buffers.at(inst)[0];
    if (out < 0) continue;
    const int64_t p = position.at(inst);
    for (int k = 0; k < inst->operand_count(); ++k) {
      const std::vector<int>& r = refers.at(inst->operand(k));
      if (r.size() != 1 || r[0] < 0) continue;
      Buffer& in = plan.buffers[r[0]];
      if (in.end != p || in.size != plan.buffers[out].size ||
          in.role != Buffer::Role::kValue) {
        continue;
      }
      // Every operand reading this buffer must read it at the output index.
      bool ok = true;
      for (int j = 0; j < inst->operand_count(); ++j) {
        const std::vector<int>& rj = refers.at(inst->operand(j));
        if (std::find(rj.begin(), rj.end(), r[0]) != rj.end() &&
            !ReadsOperandAtOutputIndex(*inst, j)) {
          ok = false;
        }
      }
      if (!ok) continue;
      plan.buffers[out].in_place_of = r[0];
      break;
    }
  }
}

// A region of the arena: a buffer and those that take over its bytes in
// place, with their joint live range.
struct Region {
  int64_t size = 0, start = 0, end = 0, offset = 0;
};

// The regions of the plan's buffers and, per buffer, its region.
std::vector<Region> MakeRegions(const BufferPlan& plan,
                                std::vector<size_t>& region_of) {
  std::vector<Region> regions;
  region_of.assign(plan.buffers.size(), 0);
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const Buffer& b = plan.buffers[i];
    if (b.in_place_of >= 0) {
      region_of[i] = region_of[b.in_place_of];
      Region& r = regions[region_of[i]];
      r.end = std::max(r.end, b.end);
      continue;
    }
    region_of[i] = regions.size();
    regions.push_back({AlignUp(b.size), b.start, b.end, 0});
  }
  return regions;
}

// Places the regions one after the other in `order`, each at the lowest
// offset where it overlaps no region placed before it that is live at the
// same time. Returns the arena's size.
int64_t PlaceLowest(std::vector<Region>& regions,
                    const std::vector<size_t>& order) {
  std::vector<size_t> placed;
  int64_t arena = 0;
  for (size_t i : order) {
    Region& r = regions[i];
    std::vector<const Region*> busy;
    for (size_t j : placed) {
      const Region& q = regions[j];
      if (q.start <= r.end && r.start <= q.end) busy.push_back(&q);
    }
    std::sort(busy.begin(), busy.end(), [](const Region* x, const Region* y) {
      return x->offset < y->offset;
    });
    int64_t offset = 0;
    for (const Region* q : busy) {
      if (offset + r.size <= q->offset) break;
      offset = std::max(offset, q->offset + q->size);
    }
    r.offset = offset;
    placed.push_back(i);
    arena = std::max(arena, offset + r.size);
  }
  return arena;
}

// Two orders, the smaller arena kept: definition order (first fit as the
// code runs) and decreasing size (the big buffers first, the small ones in
// the gaps they leave), ties in definition order.
void PackArena(BufferPlan& plan) {
  std::vector<size_t> region_of;
  std::vector<Region> by_definition = MakeRegions(plan, region_of);
  std::vector<Region> by_size = by_definition;
  std::vector<size_t> order(by_definition.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const int64_t first_fit = PlaceLowest(by_definition, order);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return by_size[x].size > by_size[y].size;
  });
  const int64_t size_order = PlaceLowest(by_size, order);
  const std::vector<Region>& best =
      size_order < first_fit ? by_size : by_definition;
  plan.arena_bytes = std::min(first_fit, size_order);
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    Buffer& b = plan.buffers[i];
    b.offset = best[region_of[i]].offset;
    plan.unshared_bytes += AlignUp(b.size);
  }
}

// A scratch buffer for every scheduled instruction that `scratch` says
// needs one, live only where the instruction runs.
void AddScratch(const ScratchBytesFn& scratch, BufferPlan& plan) {
  if (!scratch) return;
  for (size_t p = 0; p < plan.schedule.size(); ++p) {
    const Instruction* inst = plan.schedule[p];
    const int64_t bytes = scratch(*inst);
    if (bytes <= 0) continue;
    plan.scratch_buffer[inst] = AddBuffer(plan, inst, 0, Buffer::Role::kScratch,
                                          bytes, static_cast<int64_t>(p));
  }
}

}  // namespace

BufferPlan AssignBuffers(const Computation& comp,
                         const ScratchBytesFn& scratch) {
  BufferPlan plan;
  plan.donated = DonatedArguments(comp, plan);
  const Positions position = Schedule(comp, plan);
  plan.donated.resize(comp.root()->shape().Leaves().size(), -1);
  const ArgumentReads reads = FindArgumentReads(comp, plan.schedule, position);
  const auto direct = DirectResults(comp, plan, position, reads);
  CheckDonatedCopies(comp, reads, plan);
  const Refers refers = CreateBuffers(comp, position, direct, plan);
  AssignInPlace(position, refers, plan);
  AddScratch(scratch, plan);
  PackArena(plan);
  return plan;
}

std::string BufferPlanToString(const BufferPlan& plan) {
  std::string out = absl::StrFormat("%-32s %5s %14s %14s %11s  %s\n",
                                    "buffer", "leaf", "bytes", "offset",
                                    "live", "note");
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const Buffer& b = plan.buffers[i];
    std::string note;
    if (b.role == Buffer::Role::kWhileNext) note = "while body result";
    if (b.role == Buffer::Role::kWhilePredicate) note = "while condition";
    if (b.role == Buffer::Role::kScratch) note = "scratch";
    if (b.in_place_of >= 0) {
      const Buffer& src = plan.buffers[b.in_place_of];
      note = absl::StrCat("in place of ", src.instruction->name());
    }
    out += absl::StrFormat("%-32s %5d %14d %14d %5d..%-5d %s\n",
                           b.instruction->name(), b.leaf, b.size, b.offset,
                           b.start, b.end, note);
  }
  int direct = 0;
  for (const auto& [inst, res] : plan.result_index) {
    for (int r : res) direct += r >= 0;
  }
  absl::StrAppend(&out, "peak ", plan.arena_bytes, " bytes (without reuse ",
                  plan.unshared_bytes, "); ", direct,
                  " result leaves written in place in the caller's buffers\n");
  return out;
}

}  // namespace aotc
