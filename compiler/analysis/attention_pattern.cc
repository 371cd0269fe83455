// Attention recognised from its decomposition (attention_pattern.h): the
// walk up from the second product and the roles of every dimension (the
// causal mask is read by attention_mask.h).
#include "compiler/analysis/attention_pattern.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/analysis/attention_mask.h"
#include "compiler/analysis/op_facts.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/primitive_type.h"

namespace aotc {
namespace {

using attention_internal::CausalMask;
using attention_internal::NonUnitDims;
using attention_internal::PositionMap;
using attention_internal::ReadCausalMask;
using attention_internal::Squeezed;

bool IsFloat(const Shape& s) {
  return s.IsArray() && IsRealFloat(s.element_type());
}

// A value the pattern may look through: the same elements, their
// dimensions of size > 1 kept (reshapes that add or remove dimensions of
// size 1) or permuted (transposes; the positions, below, follow them), in
// any float type.
bool IsView(const Instruction& inst) {
  switch (inst.opcode()) {
    case Opcode::kReshape:
      return Squeezed(inst.shape()) == Squeezed(inst.operand(0)->shape());
    case Opcode::kConvert:
      return IsFloat(inst.shape()) && IsFloat(inst.operand(0)->shape());
    case Opcode::kCopy:
    case Opcode::kTranspose:
      return true;
    default:
      return false;
  }
}

const Instruction* Strip(const Instruction* x) {
  while (IsView(*x)) x = x->operand(0);
  return x;
}

// The types of the converts from `base` up to `top` (a chain of views), in
// that order.
std::vector<PrimitiveType> ConvertsUpTo(const Instruction* top,
                                        const Instruction* base) {
  std::vector<PrimitiveType> out;
  for (const Instruction* x = top; x != base && IsView(*x); x = x->operand(0)) {
    if (x->opcode() == Opcode::kConvert) out.push_back(x->shape().element_type());
  }
  std::reverse(out.begin(), out.end());
  return out;
}

bool IsNarrowFloat(PrimitiveType t) { return t != PrimitiveType::kF32; }

// The score position of each dimension of the values computed from the
// first product S (position p: S's p-th dimension of size > 1; -1 for
// dimensions of size 1), through views, element-wise operations, the
// softmax's reductions and the broadcasts of their results. nullopt for a
// value not computed from S, or whose dimensions cannot be followed (a
// reshape that merges or splits dimensions; operands of an element-wise
// operation whose positions disagree).
class PositionFinder {
 public:
  explicit PositionFinder(const Instruction& s)
      : s_(s), positions_(static_cast<int64_t>(NonUnitDims(s.shape()).size())) {}

  int64_t positions() const { return positions_; }

  std::optional<PositionMap> Of(const Instruction* x) {
    auto it = memo_.find(x);
    if (it != memo_.end()) return it->second;
    std::optional<PositionMap> m = Compute(*x);
    memo_[x] = m;
    return m;
  }

  // The positions a reduce reduces (its dimensions of size > 1), or empty.
  std::vector<int64_t> Reduced(const Instruction& reduce) {
    std::optional<PositionMap> in = Of(reduce.operand(0));
    std::vector<int64_t> out;
    if (!in) return out;
    for (int64_t d : reduce.dimensions()) {
      if ((*in)[d] >= 0) out.push_back((*in)[d]);
    }
    return out;
  }

 private:
  std::optional<PositionMap> Compute(const Instruction& x) {
    const Shape& shape = x.shape();
    if (!shape.IsArray()) return std::nullopt;
    if (&x == &s_) {
      PositionMap m(shape.rank(), -1);
      const std::vector<int64_t> dims = NonUnitDims(shape);
      for (size_t p = 0; p < dims.size(); ++p) m[dims[p]] = p;
      return m;
    }
    switch (x.opcode()) {
      case Opcode::kReshape:
      case Opcode::kTranspose: {
        std::optional<PositionMap> in = Of(x.operand(0));
        if (!in) return std::nullopt;
        PositionMap m(shape.rank(), -1);
        if (x.opcode() == Opcode::kTranspose) {
          for (int64_t i = 0; i < shape.rank(); ++i) m[i] = (*in)[x.dimensions()[i]];
          return m;
        }
        if (Squeezed(shape) != Squeezed(x.operand(0)->shape())) return std::nullopt;
        const std::vector<int64_t> from = NonUnitDims(x.operand(0)->shape());
        const std::vector<int64_t> to = NonUnitDims(shape);
        for (size_t p = 0; p < to.size(); ++p) m[to[p]] = (*in)[from[p]];
        return m;
      }
      case Opcode::kReduce: {
        if (x.operand_count() != 2) return std::nullopt;
        std::optional<PositionMap> in = Of(x.operand(0));
        if (!in) return std::nullopt;
        PositionMap m;
        for (int64_t d = 0; d < x.operand(0)->shape().rank(); ++d) {
          if (!std::count(x.dimensions().begin(), x.dimensions().end(), d)) {
            m.push_back((*in)[d]);
          }
        }
        return m;
      }
      case Opcode::kBroadcast: {
        std::optional<PositionMap> in = Of(x.operand(0));
        if (!in) return std::nullopt;
        PositionMap m(shape.rank(), -2);
        std::set<int64_t> seen;
        for (size_t i = 0; i < x.dimensions().size(); ++i) {
          m[x.dimensions()[i]] = (*in)[i];
          if ((*in)[i] >= 0) seen.insert((*in)[i]);
        }
        // The one new dimension of size > 1 takes the one missing position.
        for (int64_t d = 0; d < shape.rank(); ++d) {
          if (m[d] != -2) continue;
          m[d] = -1;
          if (shape.dimensions()[d] == 1) continue;
          if (static_cast<int64_t>(seen.size()) != positions_ - 1) return std::nullopt;
          for (int64_t p = 0; p < positions_; ++p) {
            if (!seen.count(p)) m[d] = p;
          }
          seen.insert(m[d]);
        }
        return m;
      }
      default:
        break;
    }
    if (!IsElementwise(x.opcode())) return std::nullopt;
    // Element-wise: the operands computed from S agree.
    std::optional<PositionMap> m;
    for (const Instruction* o : x.operands()) {
      std::optional<PositionMap> om = Of(o);
      if (!om) continue;
      if (m && *m != *om) return std::nullopt;
      m = om;
    }
    return m;
  }

  const Instruction& s_;
  const int64_t positions_;
  std::map<const Instruction*, std::optional<PositionMap>> memo_;
};

// One dimension of a dot's result: a batch pair, or a free dimension of
// one side.
struct DotDim {
  int side = -1;  // -1: batch
  int64_t lhs = -1, rhs = -1;
};

std::vector<DotDim> DotResultDims(const Instruction& dot) {
  const DotDimensionNumbers& dn = dot.dot_dnums();
  std::vector<DotDim> out;
  for (size_t i = 0; i < dn.lhs_batch.size(); ++i) {
    out.push_back({-1, dn.lhs_batch[i], dn.rhs_batch[i]});
  }
  for (int side = 0; side < 2; ++side) {
    const Shape& s = dot.operand(side)->shape();
    const auto& batch = side == 0 ? dn.lhs_batch : dn.rhs_batch;
    const auto& contract = side == 0 ? dn.lhs_contracting : dn.rhs_contracting;
    for (int64_t d = 0; d < s.rank(); ++d) {
      if (std::count(batch.begin(), batch.end(), d) ||
          std::count(contract.begin(), contract.end(), d)) {
        continue;
      }
      out.push_back(side == 0 ? DotDim{0, d, -1} : DotDim{1, -1, d});
    }
  }
  return out;
}

// A role of the index space.
struct Role {
  enum Kind { kNone, kBatch, kRow, kKey } kind = kNone;
  int64_t index = 0;
};

void SetRole(AttentionDims& dims, const Role& role, int64_t dim) {
  if (role.kind == Role::kBatch) dims.batch[role.index] = dim;
  if (role.kind == Role::kRow) dims.rows[role.index] = dim;
  if (role.kind == Role::kKey) dims.key = dim;
}

// Whether `inst` depends on nothing but constants and iotas.
bool IsCheap(const Instruction& inst, std::map<const Instruction*, bool>& memo) {
  auto it = memo.find(&inst);
  if (it != memo.end()) return it->second;
  bool cheap = false;
  switch (inst.opcode()) {
    case Opcode::kConstant:
    case Opcode::kIota:
      cheap = true;
      break;
    case Opcode::kBroadcast:
    case Opcode::kReshape:
    case Opcode::kConvert:
    case Opcode::kCompare:
    case Opcode::kSelect:
    case Opcode::kAnd:
    case Opcode::kOr:
    case Opcode::kNot:
    case Opcode::kAdd:
    case Opcode::kSubtract:
      cheap = true;
      for (const Instruction* o : inst.operands()) cheap = cheap && IsCheap(*o, memo);
      break;
    default:
      break;
  }
  memo[&inst] = cheap;
  return cheap;
}

std::optional<AttentionPattern> MatchWithProbabilities(const Instruction& out,
                                                       int p_side) {
  AttentionPattern a;
  a.output = &out;
  const Instruction* p = Strip(out.operand(p_side));
  // The normalisation: E / broadcast(L), or E * broadcast(1 / L).
  const Instruction* e_view = nullptr;
  const Instruction* l_broadcast = nullptr;
  const Instruction* l_view = nullptr;
  if (p->opcode() == Opcode::kDivide) {
    e_view = p->operand(0);
    l_broadcast = p->operand(1);
    if (l_broadcast->opcode() != Opcode::kBroadcast) return std::nullopt;
    l_view = l_broadcast->operand(0);
  } else if (p->opcode() == Opcode::kMultiply) {
    for (int i = 0; i < 2 && l_view == nullptr; ++i) {
      const Instruction* b = p->operand(i);
      if (b->opcode() != Opcode::kBroadcast) continue;
      const Instruction* r = Strip(b->operand(0));
      if (r->opcode() != Opcode::kDivide) continue;
      std::optional<double> one = ScalarFloatConstant(*r->operand(0));
      if (!one || *one != 1) continue;
      e_view = p->operand(1 - i);
      l_broadcast = b;
      l_view = r->operand(1);
    }
    if (l_view == nullptr) return std::nullopt;
  } else {
    return std::nullopt;
  }
  const Instruction* e = Strip(e_view);
  if (e->opcode() != Opcode::kExp) return std::nullopt;
  const Instruction* x = e->operand(0);
  if (x->opcode() != Opcode::kSubtract) return std::nullopt;
  const Instruction* scored = x->operand(0);  // the masked, scaled scores
  const Instruction* m_broadcast = x->operand(1);
  if (m_broadcast->opcode() != Opcode::kBroadcast) return std::nullopt;
  const Instruction* m = Strip(m_broadcast->operand(0));
  if (m->opcode() == Opcode::kMaximum) {
    for (int i = 0; i < 2; ++i) {
      std::optional<double> c = ScalarFloatConstant(*m->operand(i));
      if (c && std::isinf(*c) && *c < 0) {
        m = Strip(m->operand(1 - i));
        break;
      }
    }
  }
  if (m->opcode() != Opcode::kReduce || ReducerOpcode(*m) != Opcode::kMaximum ||
      Strip(m->operand(0)) != Strip(scored)) {
    return std::nullopt;
  }
  std::optional<double> max_init = ScalarFloatConstant(*m->operand(1));
  if (!max_init ||
      !(*max_init < 0 && (std::isinf(*max_init) || *max_init <= -1e30))) {
    return std::nullopt;
  }
  a.max_init = *max_init;
  const Instruction* l = Strip(l_view);
  if (l->opcode() != Opcode::kReduce || ReducerOpcode(*l) != Opcode::kAdd ||
      Strip(l->operand(0)) != e) {
    return std::nullopt;
  }
  std::optional<double> zero = ScalarFloatConstant(*l->operand(1));
  if (!zero || *zero != 0) return std::nullopt;

  // The scores: scale and mask down to the first product, the steps
  // recorded top down (reversed below).
  std::vector<AttentionStep> steps;
  auto record_views = [&](const Instruction* top, const Instruction* base) {
    std::vector<PrimitiveType> c = ConvertsUpTo(top, base);
    for (auto it = c.rbegin(); it != c.rend(); ++it) {
      steps.push_back({AttentionStep::kRound, *it, 0});
    }
  };
  const Instruction* s = Strip(scored);
  record_views(scored, s);
  const Instruction* mask = nullptr;
  const Instruction* mask_select = nullptr;
  bool keep_when_true = true;
  while (s->opcode() != Opcode::kDot) {
    if (s->opcode() == Opcode::kMultiply || s->opcode() == Opcode::kDivide) {
      std::optional<double> c = ScalarFloatConstant(*s->operand(1));
      int data = 0;
      if (!c && s->opcode() == Opcode::kMultiply) {
        c = ScalarFloatConstant(*s->operand(0));
        data = 1;
      }
      if (!c || *c == 0 || !std::isfinite(*c)) return std::nullopt;
      a.scale *= s->opcode() == Opcode::kMultiply ? *c : 1 / *c;
      const PrimitiveType t = s->shape().element_type();
      steps.push_back({AttentionStep::kRound, t, 0});
      steps.push_back({s->opcode() == Opcode::kMultiply ? AttentionStep::kMultiply
                                                        : AttentionStep::kDivide,
                       t, *c});
      const Instruction* below = s->operand(data);
      s = Strip(below);
      record_views(below, s);
    } else if (s->opcode() == Opcode::kSelect && mask == nullptr) {
      for (int i = 1; i <= 2; ++i) {
        std::optional<double> fill = ScalarFloatConstant(*s->operand(i));
        if (fill && *fill < 0 && (std::isinf(*fill) || *fill <= -1e30)) {
          a.mask_fill = *fill;
          mask = s->operand(0);
          mask_select = s;
          keep_when_true = i == 2;
          steps.push_back({AttentionStep::kMask, s->shape().element_type(), *fill});
          const Instruction* below = s->operand(3 - i);
          s = Strip(below);
          record_views(below, s);
          break;
        }
      }
      if (mask == nullptr) return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  const Instruction& s1 = *s;
  steps.push_back({AttentionStep::kRound, s1.shape().element_type(), 0});
  std::reverse(steps.begin(), steps.end());
  AttentionRounding& rd = a.rounding;
  rd.scores = steps;
  rd.subtract = x->shape().element_type();
  rd.exp = e->shape().element_type();
  rd.e_to_sum = ConvertsUpTo(l->operand(0), e);
  rd.sum = l->shape().element_type();
  rd.e_to_divide = ConvertsUpTo(e_view, e);
  rd.divide = p->shape().element_type();
  rd.p_to_product = ConvertsUpTo(out.operand(p_side), p);
  rd.output = out.shape().element_type();
  if (p->opcode() == Opcode::kMultiply) {
    const Instruction* r = Strip(l_broadcast->operand(0));
    rd.reciprocal = true;
    rd.reciprocal_type = r->shape().element_type();
    rd.sum_to_divide = ConvertsUpTo(r->operand(1), l);
    rd.after_reciprocal = ConvertsUpTo(l_broadcast->operand(0), r);
  } else {
    rd.sum_to_divide = ConvertsUpTo(l_broadcast->operand(0), l);
  }
  const std::vector<int64_t> sq = Squeezed(s1.shape());
  PositionFinder where(s1);
  const int64_t positions = where.positions();
  // The key: what the max reduces, and the sum too; every value from the
  // scores to P follows the positions consistently (the element-wise
  // operations check that their operands agree).
  const std::vector<int64_t> max_over = where.Reduced(*m);
  if (max_over.size() != 1 || where.Reduced(*l) != max_over) return std::nullopt;
  const int64_t key = max_over[0];
  std::optional<PositionMap> p_positions = where.Of(out.operand(p_side));
  if (!p_positions || !where.Of(m_broadcast) || !where.Of(l_broadcast)) {
    return std::nullopt;
  }
  for (int64_t pos = 0; pos < positions; ++pos) {
    if (std::count(p_positions->begin(), p_positions->end(), pos) != 1) {
      return std::nullopt;
    }
  }

  // The roles of the first product's dimensions.
  const std::vector<DotDim> s_dims = DotResultDims(s1);
  const std::vector<int64_t> s_non_unit = NonUnitDims(s1.shape());
  if (key >= static_cast<int64_t>(s_non_unit.size())) return std::nullopt;
  const DotDim key_dim = s_dims[s_non_unit[key]];
  if (key_dim.side < 0) return std::nullopt;
  const int k_side = key_dim.side, q_side = 1 - k_side;
  const Instruction* q = s1.operand(q_side);
  const Instruction* k = s1.operand(k_side);
  std::vector<Role> roles(positions);
  for (int64_t pos = 0; pos < positions; ++pos) {
    const DotDim& d = s_dims[s_non_unit[pos]];
    if (pos == key) {
      roles[pos] = {Role::kKey, 0};
    } else if (d.side < 0) {
      roles[pos] = {Role::kBatch, static_cast<int64_t>(a.batch.size())};
      a.batch.push_back(sq[pos]);
    } else if (d.side == q_side) {
      roles[pos] = {Role::kRow, static_cast<int64_t>(a.rows.size())};
      a.rows.push_back(sq[pos]);
    } else {
      return std::nullopt;  // a second free dimension of K
    }
  }
  a.keys = sq[key];
  auto fresh = [&] {
    AttentionDims d;
    d.batch.assign(a.batch.size(), -1);
    d.rows.assign(a.rows.size(), -1);
    return d;
  };
  a.q_dims = a.k_dims = a.v_dims = a.out_dims = fresh();
  for (int64_t pos = 0; pos < positions; ++pos) {
    const DotDim& d = s_dims[s_non_unit[pos]];
    const int64_t qd = q_side == 0 ? d.lhs : d.rhs;
    const int64_t kd = k_side == 0 ? d.lhs : d.rhs;
    if (roles[pos].kind == Role::kBatch) {
      a.q_dims.batch[roles[pos].index] = qd;
      a.k_dims.batch[roles[pos].index] = kd;
    } else if (roles[pos].kind == Role::kRow) {
      a.q_dims.rows[roles[pos].index] = qd;
    } else {
      a.k_dims.key = kd;
    }
  }
  const DotDimensionNumbers& dn1 = s1.dot_dnums();
  for (size_t i = 0; i < dn1.lhs_contracting.size(); ++i) {
    const int64_t ld = dn1.lhs_contracting[i], rd = dn1.rhs_contracting[i];
    if (s1.operand(0)->shape().dimensions()[ld] == 1) continue;
    if (a.head != 0) return std::nullopt;  // one head dimension
    a.head = s1.operand(0)->shape().dimensions()[ld];
    a.q_dims.head = q_side == 0 ? ld : rd;
    a.k_dims.head = k_side == 0 ? ld : rd;
  }
  if (a.head == 0) return std::nullopt;

  // The second product: P's dimensions by position, V's by pairing.
  auto role_of_p = [&](int64_t dim) -> Role {
    const int64_t pos = (*p_positions)[dim];
    return pos < 0 ? Role{} : roles[pos];
  };
  const int v_side = 1 - p_side;
  const Instruction* v = out.operand(v_side);
  const DotDimensionNumbers& dn2 = out.dot_dnums();
  const auto& p_contract = p_side == 0 ? dn2.lhs_contracting : dn2.rhs_contracting;
  const auto& v_contract = v_side == 0 ? dn2.lhs_contracting : dn2.rhs_contracting;
  for (size_t i = 0; i < p_contract.size(); ++i) {
    const Role r = role_of_p(p_contract[i]);
    if (r.kind == Role::kNone) continue;
    if (r.kind != Role::kKey || a.v_dims.key != -1) return std::nullopt;
    a.v_dims.key = v_contract[i];
  }
  if (a.v_dims.key == -1) return std::nullopt;
  const std::vector<DotDim> o_dims = DotResultDims(out);
  for (size_t od = 0; od < o_dims.size(); ++od) {
    const DotDim& d = o_dims[od];
    const int64_t pd = p_side == 0 ? d.lhs : d.rhs;
    const int64_t vd = v_side == 0 ? d.lhs : d.rhs;
    if (d.side < 0) {
      const Role r = role_of_p(pd);
      if (r.kind == Role::kKey) return std::nullopt;
      SetRole(a.v_dims, r, vd);
      SetRole(a.out_dims, r, static_cast<int64_t>(od));
    } else if (d.side == p_side) {
      const Role r = role_of_p(pd);
      if (r.kind == Role::kKey) return std::nullopt;
      SetRole(a.out_dims, r, static_cast<int64_t>(od));
    } else if (v->shape().dimensions()[vd] != 1) {
      if (a.v_dims.value != -1) return std::nullopt;  // one value dimension
      a.v_dims.value = vd;
      a.out_dims.value = static_cast<int64_t>(od);
      a.value_head = v->shape().dimensions()[vd];
    }
  }
  if (a.v_dims.value == -1) return std::nullopt;
  for (int64_t d : a.out_dims.batch) if (d < 0) return std::nullopt;
  for (int64_t d : a.out_dims.rows) if (d < 0) return std::nullopt;

  // The mask, as a condition on the positions.
  if (mask != nullptr) {
    std::optional<PositionMap> map = where.Of(mask_select);
    if (!map) return std::nullopt;
    std::optional<CausalMask> causal = ReadCausalMask(*mask, *map, keep_when_true, key);
    if (!causal || roles[causal->row_position].kind != Role::kRow ||
        causal->offset < 0) {
      return std::nullopt;  // only causal masks that leave no row empty
    }
    a.causal = true;
    a.causal_row = static_cast<int>(roles[causal->row_position].index);
    a.causal_offset = causal->offset;
  }

  // Members: everything from the products down to Q, K and V.
  a.scores = &s1;
  a.q = q;
  a.k = k;
  a.v = v;
  std::unordered_set<const Instruction*> members;
  std::vector<const Instruction*> stack = {&out};
  while (!stack.empty()) {
    const Instruction* i = stack.back();
    stack.pop_back();
    if (!members.insert(i).second) continue;
    // Q and K are the first product's operands, V the second's other one.
    if (i == &s1) continue;
    for (int o = 0; o < i->operand_count(); ++o) {
      if (i == &out && o == v_side) continue;
      stack.push_back(i->operand(o));
    }
  }
  std::map<const Instruction*, bool> cheap;
  for (const auto& inst : out.parent()->instructions()) {
    if (!members.count(inst.get())) continue;
    const Opcode op = inst->opcode();
    if (op == Opcode::kParameter || HasSideEffect(op) ||
        (!IsFloat(inst->shape()) && !IsCheap(*inst, cheap))) {
      return std::nullopt;
    }
    a.members.push_back(inst.get());
    if (IsCheap(*inst, cheap)) a.shareable.push_back(inst.get());
  }
  if (a.members.empty() || a.members.back() != &out) return std::nullopt;
  // Single precision at most: the online softmax computes in f32.
  auto narrow = [](const Shape& shape) {
    const PrimitiveType t = shape.element_type();
    return t == PrimitiveType::kF32 || t == PrimitiveType::kBF16 ||
           t == PrimitiveType::kF16;
  };
  for (const Instruction* i : {q, k, v}) {
    if (!i->shape().IsArray() || !narrow(i->shape())) return std::nullopt;
  }
  for (const Instruction* i : a.members) {
    if (IsFloat(i->shape()) && !narrow(i->shape())) return std::nullopt;
  }
  return a;
}

}  // namespace

bool AttentionRounding::Narrow() const {
  for (const AttentionStep& st : scores) {
    if (IsNarrowFloat(st.type)) return true;
  }
  for (const auto* list : {&e_to_sum, &sum_to_divide, &after_reciprocal,
                           &e_to_divide, &p_to_product}) {
    for (PrimitiveType t : *list) {
      if (IsNarrowFloat(t)) return true;
    }
  }
  for (PrimitiveType t : {subtract, exp, sum, divide}) {
    if (IsNarrowFloat(t)) return true;
  }
  return reciprocal && IsNarrowFloat(reciprocal_type);
}

std::string AttentionPattern::Describe() const {
  std::vector<std::string> parts;
  if (causal) parts.push_back("causal");
  // Query row roles beyond the one that runs along the sequence (the
  // causal mask's, else the largest) are heads sharing K and V.
  int64_t group = 1;
  if (rows.size() > 1) {
    size_t seq = causal ? static_cast<size_t>(causal_row)
                        : static_cast<size_t>(std::max_element(rows.begin(),
                                                               rows.end()) -
                                              rows.begin());
    for (size_t i = 0; i < rows.size(); ++i) {
      if (i != seq) group *= rows[i];
    }
  }
  if (group > 1) parts.push_back(absl::StrCat("gqa=", group));
  if (scale != 1) parts.push_back(absl::StrCat("scale=", scale));
  return absl::StrCat("attention(", absl::StrJoin(parts, ", "), ")");
}

std::optional<AttentionPattern> MatchAttention(const Instruction& output) {
  if (output.opcode() != Opcode::kDot || output.parent() == nullptr) {
    return std::nullopt;
  }
  for (int side = 0; side < 2; ++side) {
    if (std::optional<AttentionPattern> a = MatchWithProbabilities(output, side)) {
      return a;
    }
  }
  return std::nullopt;
}

}  // namespace aotc
