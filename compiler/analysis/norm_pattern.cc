// Row normalisations in decomposed form (norm_pattern.h).
#include "compiler/analysis/norm_pattern.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <set>
#include <unordered_set>

#include "compiler/analysis/op_facts.h"
#include "compiler/ir/computation.h"

namespace aotc {
namespace {

constexpr size_t kMaxMembers = 128;  // fusion's own bound on a group
constexpr size_t kMaxSearch = 256;   // values visited looking for reduces

std::vector<int64_t> NonUnitSizes(const std::vector<int64_t>& dims) {
  std::vector<int64_t> out;
  for (int64_t d : dims) {
    if (d != 1) out.push_back(d);
  }
  return out;
}

// k when `r` add-reduces a value of `s`'s dimensions over exactly its
// trailing dimensions [k, rank).
std::optional<int64_t> TrailingSumStart(const Instruction& r, const Shape& s) {
  if (r.opcode() != Opcode::kReduce || r.operand_count() != 2 ||
      !r.shape().IsArray() || !r.operand(0)->shape().SameDimensions(s) ||
      ReducerOpcode(r) != Opcode::kAdd || r.dimensions().empty()) {
    return std::nullopt;
  }
  std::vector<int64_t> dims = r.dimensions();
  std::sort(dims.begin(), dims.end());
  const int64_t k = static_cast<int64_t>(s.rank() - dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != k + static_cast<int64_t>(i)) return std::nullopt;
  }
  return k;
}

// Whether `x` is a square, multiply(a, a) or power(a, 2), under
// float-to-float converts, all of them in `members` (a square computed
// outside is an input like any other: the fusion only sees its value).
bool IsSquare(const Instruction* x,
              const std::set<const Instruction*>& members) {
  while (members.count(x) && x->opcode() == Opcode::kConvert &&
         IsFloat(x->operand(0)->shape().element_type())) {
    x = x->operand(0);
  }
  if (!members.count(x)) return false;
  if (x->opcode() == Opcode::kMultiply) return x->operand(0) == x->operand(1);
  if (x->opcode() == Opcode::kPower) {
    return ScalarFloatConstant(*x->operand(1)) == 2.0;
  }
  return false;
}

bool IsSquareRoot(const Instruction& x) {
  if (x.opcode() == Opcode::kSqrt || x.opcode() == Opcode::kRsqrt) return true;
  if (x.opcode() != Opcode::kPower) return false;
  const std::optional<double> e = ScalarFloatConstant(*x.operand(1));
  return e == 0.5 || e == -0.5;
}

bool Near(double a, double b) { return std::abs(a - b) <= 1e-2 * std::abs(b); }

// Whether the sum `r` of a row of `n` values is divided by n: through
// row-level reshapes, broadcasts and converts, a divide by n or a multiply by 1 / n.
bool IsAveraged(const Instruction* r, int64_t n) {
  const Instruction* x = r;
  while (x->users().size() == 1) {
    const Instruction* u = x->users()[0];
    if (u->opcode() == Opcode::kReshape || u->opcode() == Opcode::kConvert ||
        u->opcode() == Opcode::kBroadcast) {
      x = u;
      continue;
    }
    const double nd = static_cast<double>(n);
    if (u->opcode() == Opcode::kDivide && u->operand(0) == x) {
      std::optional<double> c = ScalarFloatConstant(*u->operand(1));
      return c.has_value() && Near(*c, nd);
    }
    if (u->opcode() == Opcode::kMultiply) {
      std::optional<double> c =
          ScalarFloatConstant(*u->operand(u->operand(0) == x ? 1 : 0));
      return c.has_value() && Near(*c, 1.0 / nd);
    }
    return false;
  }
  return false;
}

// The region of `root` for rows over [k, rank) (norm_pattern.h).
class Region {
 public:
  Region(const Instruction& root, int64_t k)
      : root_(root), s_(root.shape()), k_(k) {
    const std::vector<int64_t>& d = s_.dimensions();
    row_sizes_ = NonUnitSizes({d.begin(), d.begin() + k});
    for (int64_t i = 0; i < k; ++i) {
      if (d[i] != 1) row_dims_.push_back(i);
    }
  }

  std::optional<NormPattern> Match() {
    Grow();
    NormPattern p;
    p.root = &root_;
    p.first_row_dim = k_;
    for (int64_t i = 0; i < s_.rank(); ++i) {
      (i < k_ ? p.rows : p.row_length) *= s_.dimensions()[i];
    }
    if (p.row_length < 2) return std::nullopt;
    bool square = false, plain = false, root_taken = false;
    // In the computation's order, so that what is built from the pattern
    // (the fusion, the order of the row's sums) never depends on where
    // instructions happen to live in memory.
    if (root_.parent() == nullptr) return std::nullopt;
    std::vector<const Instruction*> ordered_members;
    for (const auto& inst : root_.parent()->instructions()) {
      if (members_.count(inst.get())) ordered_members.push_back(inst.get());
    }
    for (const Instruction* m : ordered_members) {
      p.members.push_back(m);
      if (Shareable(*m)) p.shared.push_back(m);
      if (m->opcode() != Opcode::kReduce) continue;
      p.reduces.push_back(m);
      (IsSquare(m->operand(0), members_) ? square : plain) = true;
      if (FeedsExpensiveElementValue(m->operand(0))) return std::nullopt;
    }
    if (!square) return std::nullopt;
    for (const Instruction* m : members_) {
      if (!IsSquareRoot(*m)) continue;
      for (const Instruction* r : p.reduces) {
        if (IsSquare(r->operand(0), members_) && Reads(m, r)) {
          root_taken = true;
        }
      }
    }
    if (!root_taken) return std::nullopt;
    // Each reduce after those it reads.
    std::vector<const Instruction*> ordered;
    while (ordered.size() < p.reduces.size()) {
      for (const Instruction* r : p.reduces) {
        if (std::find(ordered.begin(), ordered.end(), r) != ordered.end()) {
          continue;
        }
        bool ready = true;
        for (const Instruction* o : p.reduces) {
          if (o != r && Reads(r, o) &&
              std::find(ordered.begin(), ordered.end(), o) == ordered.end()) {
            ready = false;
          }
        }
        if (ready) ordered.push_back(r);
      }
    }
    p.reduces = ordered;
    if (plain) {
      p.kind = NormPattern::kLayerNorm;
    } else {
      p.kind = NormPattern::kRmsNorm;
      for (const Instruction* r : p.reduces) {
        if (!IsAveraged(r, p.row_length)) p.kind = NormPattern::kL2Norm;
      }
    }
    return p;
  }

 private:
  enum Level { kOther, kElement, kRow };

  Level LevelOf(const Shape& shape) const {
    if (!shape.IsArray()) return kOther;
    if (shape.SameDimensions(s_)) return kElement;
    if (NonUnitSizes(shape.dimensions()) == row_sizes_) return kRow;
    return kOther;
  }

  // A broadcast that keeps a row-level operand's values on their rows: the
  // operand's dimensions of size > 1 map, in order, onto the row
  // dimensions of the result (S's first k, or a row-level result's own).
  bool KeepsRows(const Instruction& b) const {
    const Shape& in = b.operand(0)->shape();
    std::vector<int64_t> got;
    for (int64_t i = 0; i < in.rank(); ++i) {
      if (in.dimensions()[i] != 1) got.push_back(b.dimensions()[i]);
    }
    if (LevelOf(b.shape()) == kElement) return got == row_dims_;
    std::vector<int64_t> want;
    for (int64_t i = 0; i < b.shape().rank(); ++i) {
      if (b.shape().dimensions()[i] != 1) want.push_back(i);
    }
    return got == want;
  }

  // Cheap values any number of regions may copy: scalar constants and
  // their broadcasts.
  static bool Shareable(const Instruction& x) {
    if (x.opcode() == Opcode::kBroadcast) {
      return x.operand(0)->opcode() == Opcode::kConstant &&
             x.operand(0)->shape().IsScalar();
    }
    return x.opcode() == Opcode::kConstant && x.shape().IsArray() &&
           x.shape().IsScalar();
  }

  // Whether `x` may be a member, its users aside.
  bool Admissible(const Instruction& x) const {
    if (Shareable(x)) return true;
    const Opcode op = x.opcode();
    if (HasSideEffect(op) || (CallsComputations(op) && op != Opcode::kReduce) ||
        op == Opcode::kParameter || op == Opcode::kConstant) {
      return false;
    }
    switch (LevelOf(x.shape())) {
      case kElement:
        return op == Opcode::kIota || op == Opcode::kBroadcast ||
               IsElementwise(op);
      case kRow:
        if (op == Opcode::kReduce) return TrailingSumStart(x, s_) == k_;
        if (op == Opcode::kReshape) {
          return LevelOf(x.operand(0)->shape()) == kRow;
        }
        if (op == Opcode::kBroadcast) {
          return x.operand(0)->shape().IsScalar() ||
                 (LevelOf(x.operand(0)->shape()) == kRow && KeepsRows(x));
        }
        return IsElementwise(op);
      case kOther:
        // Per-column values (the scale widened, 1 + scale): cheap
        // element-wise operations, read through the broadcasts into S.
        // Reshapes and broadcasts among such values only: a row value
        // reaches S through its own broadcast, which keeps rows.
        if (op == Opcode::kReshape || op == Opcode::kBroadcast) {
          return LevelOf(x.operand(0)->shape()) == kOther;
        }
        return IsElementwise(op) && !IsHeavy(op);
    }
    return false;
  }

  // Whether `x` may join: admissible, read by members only (unless
  // shareable), and every broadcast of it keeps rows when it is row-level.
  enum Decision { kJoin, kLeaf, kUndecided };
  Decision Decide(const Instruction& x) const {
    if (!Admissible(x)) return kLeaf;
    if (Shareable(x)) return kJoin;
    if (x.IsRoot()) return kLeaf;
    for (const Instruction* u : x.users()) {
      if (!members_.count(u)) return kUndecided;
      if (u->opcode() == Opcode::kBroadcast && LevelOf(x.shape()) == kRow &&
          !KeepsRows(*u)) {
        return kLeaf;
      }
    }
    return kJoin;
  }

  void Grow() {
    members_.insert(&root_);
    std::vector<const Instruction*> pending(root_.operands().begin(),
                                            root_.operands().end());
    std::unordered_set<const Instruction*> decided;
    bool progress = true;
    while (progress && members_.size() < kMaxMembers) {
      progress = false;
      std::vector<const Instruction*> next;
      std::unordered_set<const Instruction*> queued;
      for (const Instruction* x : pending) {
        if (decided.count(x) || members_.count(x) || !queued.insert(x).second) {
          continue;
        }
        const Decision d = Decide(*x);
        if (d == kUndecided) {
          next.push_back(x);
          continue;
        }
        decided.insert(x);
        if (d == kLeaf || members_.size() >= kMaxMembers) continue;
        members_.insert(x);
        progress = true;
        for (const Instruction* o : x->operands()) next.push_back(o);
      }
      pending = std::move(next);
    }
  }

  // Whether member `to` is `from` or is computed from it. Only members
  // need be followed: a member's value reaches no other instruction.
  bool Reads(const Instruction* to, const Instruction* from) const {
    std::vector<const Instruction*> stack = {to};
    std::unordered_set<const Instruction*> seen;
    while (!stack.empty()) {
      const Instruction* v = stack.back();
      stack.pop_back();
      if (v == from) return true;
      if (!members_.count(v) || !seen.insert(v).second) continue;
      for (const Instruction* o : v->operands()) stack.push_back(o);
    }
    return false;
  }

  // Whether a member that `x` is or reads at element level is expensive
  // (opcode.def's H): each pass over the row would compute it again.
  bool FeedsExpensiveElementValue(const Instruction* x) const {
    std::vector<const Instruction*> stack = {x};
    std::unordered_set<const Instruction*> seen;
    while (!stack.empty()) {
      const Instruction* v = stack.back();
      stack.pop_back();
      if (!members_.count(v) || !seen.insert(v).second ||
          LevelOf(v->shape()) != kElement) {
        continue;
      }
      if (IsHeavy(v->opcode())) return true;
      for (const Instruction* o : v->operands()) stack.push_back(o);
    }
    return false;
  }

  const Instruction& root_;
  const Shape& s_;
  const int64_t k_;
  std::vector<int64_t> row_sizes_;  // S's first k sizes, without the 1s
  std::vector<int64_t> row_dims_;   // which of S's first k they are
  std::set<const Instruction*> members_;
};

// The row starts k of trailing add-reduces of root-shaped values found
// above `root` through the operations a region may hold, nearest first.
std::vector<int64_t> CandidateRowStarts(const Instruction& root) {
  std::vector<int64_t> ks;
  std::deque<const Instruction*> queue = {&root};
  std::unordered_set<const Instruction*> seen = {&root};
  while (!queue.empty() && seen.size() < kMaxSearch) {
    const Instruction* x = queue.front();
    queue.pop_front();
    if (std::optional<int64_t> k = TrailingSumStart(*x, root.shape())) {
      if (std::find(ks.begin(), ks.end(), *k) == ks.end()) ks.push_back(*k);
    }
    const Opcode op = x->opcode();
    if (!(IsElementwise(op) || op == Opcode::kBroadcast ||
          op == Opcode::kReshape || op == Opcode::kReduce) ||
        HasSideEffect(op)) {
      continue;
    }
    for (const Instruction* o : x->operands()) {
      if (seen.insert(o).second) queue.push_back(o);
    }
  }
  return ks;
}

}  // namespace

std::string NormPattern::Describe() const {
  switch (kind) {
    case kRmsNorm:
      return "rms_norm";
    case kLayerNorm:
      return "layer_norm";
    case kL2Norm:
      return "l2_norm";
  }
  return "norm";
}

std::optional<NormPattern> MatchNorm(const Instruction& root) {
  if (!root.shape().IsArray() || root.shape().rank() == 0 ||
      !IsFloat(root.shape().element_type()) || !IsElementwise(root.opcode()) ||
      HasSideEffect(root.opcode())) {
    return std::nullopt;
  }
  for (int64_t k : CandidateRowStarts(root)) {
    if (std::optional<NormPattern> p = Region(root, k).Match()) return p;
  }
  return std::nullopt;
}

}  // namespace aotc
