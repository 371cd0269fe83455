// The causal mask read as an affine condition (attention_mask.h).
#include "compiler/analysis/attention_mask.h"

#include <map>

#include "compiler/analysis/op_facts.h"
#include "compiler/ir/primitive_type.h"

namespace aotc::attention_internal {

std::vector<int64_t> Squeezed(const Shape& shape) {
  std::vector<int64_t> out;
  if (!shape.IsArray()) return out;
  for (int64_t d : shape.dimensions()) {
    if (d != 1) out.push_back(d);
  }
  return out;
}

std::vector<int64_t> NonUnitDims(const Shape& shape) {
  std::vector<int64_t> out;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (shape.dimensions()[d] != 1) out.push_back(d);
  }
  return out;
}

namespace {

// An integer affine function of the score's positions' indices.
struct Affine {
  std::map<int64_t, int64_t> coefficients;  // position -> coefficient
  int64_t constant = 0;
};

// The map for an operand of a broadcast or a view.
std::optional<PositionMap> OperandMap(const Instruction& x,
                                      const PositionMap& map) {
  const Instruction& o = *x.operand(0);
  if (x.opcode() == Opcode::kBroadcast) {
    PositionMap out;
    for (int64_t d : x.dimensions()) out.push_back(map[d]);
    return out;
  }
  if (x.opcode() == Opcode::kTranspose) {
    PositionMap out(o.shape().rank(), -1);
    for (int64_t i = 0; i < x.shape().rank(); ++i) out[x.dimensions()[i]] = map[i];
    return out;
  }
  if (x.opcode() == Opcode::kReshape || x.opcode() == Opcode::kConvert ||
      x.opcode() == Opcode::kCopy) {
    if (Squeezed(x.shape()) != Squeezed(o.shape())) return std::nullopt;
    std::vector<int64_t> positions;
    for (int64_t d : NonUnitDims(x.shape())) positions.push_back(map[d]);
    PositionMap out(o.shape().rank(), -1);
    const std::vector<int64_t> dims = NonUnitDims(o.shape());
    for (size_t p = 0; p < dims.size(); ++p) out[dims[p]] = positions[p];
    return out;
  }
  return std::nullopt;
}

std::optional<Affine> AffineOf(const Instruction& x, const PositionMap& map) {
  if (std::optional<int64_t> c = ScalarIntegerConstant(x)) {
    Affine a;
    a.constant = *c;
    return a;
  }
  switch (x.opcode()) {
    case Opcode::kIota: {
      Affine a;
      const int64_t p = map[x.iota_dimension()];
      if (p >= 0) a.coefficients[p] = 1;
      return a;
    }
    case Opcode::kBroadcast:
    case Opcode::kReshape:
    case Opcode::kTranspose:
    case Opcode::kConvert: {
      if (x.opcode() == Opcode::kConvert &&
          !IsInteger(x.operand(0)->shape().element_type())) {
        return std::nullopt;
      }
      std::optional<PositionMap> m = OperandMap(x, map);
      if (!m) return std::nullopt;
      return AffineOf(*x.operand(0), *m);
    }
    case Opcode::kAdd:
    case Opcode::kSubtract: {
      std::optional<Affine> a = AffineOf(*x.operand(0), map);
      std::optional<Affine> b = AffineOf(*x.operand(1), map);
      if (!a || !b) return std::nullopt;
      const int64_t sign = x.opcode() == Opcode::kAdd ? 1 : -1;
      for (const auto& [p, c] : b->coefficients) a->coefficients[p] += sign * c;
      a->constant += sign * b->constant;
      return a;
    }
    default:
      return std::nullopt;
  }
}

// A comparison `e dir 0` of an affine function of the positions.
struct Condition {
  Affine e;
  ComparisonDirection dir;
};

ComparisonDirection Negated(ComparisonDirection d) {
  switch (d) {
    case ComparisonDirection::kGe:
      return ComparisonDirection::kLt;
    case ComparisonDirection::kGt:
      return ComparisonDirection::kLe;
    case ComparisonDirection::kLe:
      return ComparisonDirection::kGt;
    case ComparisonDirection::kLt:
      return ComparisonDirection::kGe;
    default:
      return d;
  }
}

std::optional<Condition> ConditionOf(const Instruction& x,
                                     const PositionMap& map) {
  switch (x.opcode()) {
    case Opcode::kCompare: {
      std::optional<Affine> a = AffineOf(*x.operand(0), map);
      std::optional<Affine> b = AffineOf(*x.operand(1), map);
      if (!a || !b) return std::nullopt;
      for (const auto& [p, c] : b->coefficients) a->coefficients[p] -= c;
      a->constant -= b->constant;
      return Condition{*a, x.comparison_direction()};
    }
    case Opcode::kBroadcast:
    case Opcode::kReshape:
    case Opcode::kTranspose: {
      std::optional<PositionMap> m = OperandMap(x, map);
      if (!m) return std::nullopt;
      return ConditionOf(*x.operand(0), *m);
    }
    case Opcode::kSelect: {
      // select(c, true, false) is c; select(c, false, true) is not c.
      std::optional<bool> t = ScalarPredConstant(*x.operand(1));
      std::optional<bool> f = ScalarPredConstant(*x.operand(2));
      if (!t || !f || *t == *f) return std::nullopt;
      std::optional<Condition> c = ConditionOf(*x.operand(0), map);
      if (c && !*t) c->dir = Negated(c->dir);
      return c;
    }
    case Opcode::kNot: {
      std::optional<Condition> c = ConditionOf(*x.operand(0), map);
      if (c) c->dir = Negated(c->dir);
      return c;
    }
    default:
      return std::nullopt;
  }
}

// A causal condition: key <= row + offset, the key and one row position
// with opposite unit coefficients.
bool ReadCausal(const Condition& c, int64_t key_position, int64_t* row_position,
                int64_t* offset) {
  int64_t ck = 0, cr = 0, row = -1;
  for (const auto& [p, coefficient] : c.e.coefficients) {
    if (coefficient == 0) continue;
    if (p == key_position) {
      ck = coefficient;
    } else if (row == -1) {
      row = p;
      cr = coefficient;
    } else {
      return false;
    }
  }
  if (row == -1 || cr != -ck || (ck != 1 && ck != -1)) return false;
  const int64_t c0 = c.e.constant;
  // ck = -1: row - key + c0 (dir) 0; ck = +1: key - row + c0 (dir) 0.
  switch (ck == -1 ? c.dir : Negated(c.dir)) {
    case ComparisonDirection::kGe:  // key - row <= c0
      *offset = ck == -1 ? c0 : -c0 - 1;
      break;
    case ComparisonDirection::kGt:  // key - row <= c0 - 1
      *offset = ck == -1 ? c0 - 1 : -c0;
      break;
    default:
      return false;
  }
  *row_position = row;
  return true;
}

}  // namespace

std::optional<CausalMask> ReadCausalMask(const Instruction& pred,
                                         const PositionMap& map,
                                         bool keep_when_true,
                                         int64_t key_position) {
  std::optional<Condition> c = ConditionOf(pred, map);
  if (!c) return std::nullopt;
  if (!keep_when_true) c->dir = Negated(c->dir);
  CausalMask mask;
  if (!ReadCausal(*c, key_position, &mask.row_position, &mask.offset)) {
    return std::nullopt;
  }
  return mask;
}

}  // namespace aotc::attention_internal
