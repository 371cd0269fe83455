// The algebraic simplifier's rules, one visit function per opcode family,
// applied in definition order so that chains collapse in one round.
#include "compiler/passes/algebraic_simplifier.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <optional>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "compiler/analysis/side_effects.h"
#include "compiler/ir/native_type.h"
#include "compiler/rewrite/ir_rewrite.h"

namespace aotc {
namespace {

// Rounds over all computations before giving up on a fixed point. Every
// rule removes an instruction or shortens a chain, so a handful suffice;
// the bound only guards against a rule pair undoing each other.
constexpr int kMaxRounds = 16;

// The values the rules recognize. kZero is +0.0 for floats; integers and
// pred have a single zero, which both zero values name.
enum class Special { kZero, kNegativeZero, kOne };

template <typename T>
struct IsComplexType : std::false_type {};
template <typename T>
struct IsComplexType<std::complex<T>> : std::true_type {};

bool FloatIs(double x, Special value) {
  switch (value) {
    case Special::kZero:
      return x == 0 && !std::signbit(x);
    case Special::kNegativeZero:
      return x == 0 && std::signbit(x);
    case Special::kOne:
      return x == 1;
  }
  return false;
}

template <typename T>
bool ElementIs(const T& x, Special value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value == Special::kOne ? x : !x;
  } else if constexpr (IsComplexType<T>::value) {
    if (value == Special::kOne) {
      return x.real() == 1 && x.imag() == 0;
    }
    return FloatIs(x.real(), value) && FloatIs(x.imag(), value);
  } else if constexpr (std::is_integral_v<T>) {
    return value == Special::kOne ? x == 1 : x == 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    return FloatIs(x, value);
  } else {
    // Half and BFloat16 convert exactly to float.
    return FloatIs(static_cast<float>(x), value);
  }
}

bool AllElementsAre(const Literal& literal, Special value) {
  if (literal.elided() || !literal.shape().IsArray()) return false;
  bool all = false;
  DispatchComputableType(literal.shape().element_type(),
                         [&]<PrimitiveType P>() {
                           using T = NativeType<P>;
                           all = true;
                           for (const T& x : literal.data<T>()) {
                             if (!ElementIs(x, value)) {
                               all = false;
                               break;
                             }
                           }
                         });
  return all;
}

// Whether `inst` is a constant, or a broadcast of one, whose every element
// is `value`.
bool IsSpecial(const Instruction& inst, Special value) {
  const Instruction* c = &inst;
  if (c->opcode() == Opcode::kBroadcast) c = c->operand(0);
  if (c->opcode() != Opcode::kConstant || !c->attrs().literal.has_value()) {
    return false;
  }
  return AllElementsAre(*c->attrs().literal, value);
}

bool IsIdentityMap(const std::vector<int64_t>& dims) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// outer[inner[i]] for every i, or empty when an index is out of range (only
// possible in an unverified module).
std::vector<int64_t> Compose(const std::vector<int64_t>& outer,
                             const std::vector<int64_t>& inner) {
  std::vector<int64_t> composed;
  composed.reserve(inner.size());
  for (int64_t d : inner) {
    if (d < 0 || d >= static_cast<int64_t>(outer.size())) return {};
    composed.push_back(outer[d]);
  }
  return composed;
}

// One round of the rules over one computation.
class Simplifier {
 public:
  explicit Simplifier(Computation& comp) : comp_(comp) {}

  bool Run();
  // Instructions the rewrites took users away from.
  std::vector<Instruction*>& unused() { return unused_; }

 private:
  bool Visit(Instruction* inst);
  bool VisitAdd(Instruction* inst);
  bool VisitSubtract(Instruction* inst);
  bool VisitMultiply(Instruction* inst);
  bool VisitNegate(Instruction* inst);
  bool VisitReshape(Instruction* inst);
  // A transpose of a transpose or a broadcast of a broadcast becomes one
  // op over the composed dimension map; an identity map disappears.
  bool VisitDimensionMapChain(Instruction* inst);
  bool VisitSameShape(Instruction* inst);
  bool VisitSlice(Instruction* inst);
  // A convolution of a zero-padded input pads in its window instead.
  bool VisitConvolution(Instruction* inst);
  // A dot of a transposed operand reads the operand itself, through its
  // dimension numbers.
  bool VisitDot(Instruction* inst);

  // Makes the users of `inst` use `replacement`, if the shapes are equal.
  bool Replace(Instruction* inst, Instruction* replacement);
  // Makes `inst` read `operand` instead of its operand 0.
  void SetOperand(Instruction* inst, Instruction* operand);

  Computation& comp_;
  std::vector<Instruction*> unused_;
};

bool Simplifier::Run() {
  std::vector<Instruction*> order;
  for (const auto& inst : comp_.instructions()) order.push_back(inst.get());
  bool changed = false;
  for (Instruction* inst : order) {
    // Dead code (including what this round replaced) is dce's business.
    if (inst->users().empty() && inst != comp_.root()) continue;
    changed = Visit(inst) || changed;
  }
  return changed;
}

bool Simplifier::Visit(Instruction* inst) {
  switch (inst->opcode()) {
    case Opcode::kAdd:
      return VisitAdd(inst);
    case Opcode::kSubtract:
      return VisitSubtract(inst);
    case Opcode::kMultiply:
      return VisitMultiply(inst);
    case Opcode::kNegate:
      return VisitNegate(inst);
    case Opcode::kReshape:
      return VisitReshape(inst);
    case Opcode::kTranspose:
    case Opcode::kBroadcast:
      return VisitDimensionMapChain(inst);
    case Opcode::kConvert:
      return VisitSameShape(inst);
    case Opcode::kSlice:
      return VisitSlice(inst);
    case Opcode::kConvolution:
      return VisitConvolution(inst);
    case Opcode::kDot:
      return VisitDot(inst);
    default:
      return false;
  }
}

bool Simplifier::Replace(Instruction* inst, Instruction* replacement) {
  if (replacement->shape() != inst->shape()) return false;
  inst->ReplaceAllUsesWith(replacement);
  unused_.push_back(inst);
  return true;
}

void Simplifier::SetOperand(Instruction* inst, Instruction* operand) {
  unused_.push_back(inst->operand(0));
  inst->ReplaceOperand(0, operand);
}

bool Simplifier::VisitAdd(Instruction* inst) {
  const PrimitiveType type = inst->shape().element_type();
  const Special zero = IsFloat(type) || IsComplex(type) ? Special::kNegativeZero
                                                        : Special::kZero;
  Instruction* lhs = inst->operand(0);
  Instruction* rhs = inst->operand(1);
  if (IsSpecial(*rhs, zero) && Replace(inst, lhs)) return true;
  return IsSpecial(*lhs, zero) && Replace(inst, rhs);
}

bool Simplifier::VisitSubtract(Instruction* inst) {
  return IsSpecial(*inst->operand(1), Special::kZero) &&
         Replace(inst, inst->operand(0));
}

bool Simplifier::VisitMultiply(Instruction* inst) {
  if (IsComplex(inst->shape().element_type())) return false;
  Instruction* lhs = inst->operand(0);
  Instruction* rhs = inst->operand(1);
  if (IsSpecial(*rhs, Special::kOne) && Replace(inst, lhs)) return true;
  return IsSpecial(*lhs, Special::kOne) && Replace(inst, rhs);
}

bool Simplifier::VisitNegate(Instruction* inst) {
  Instruction* x = inst->operand(0);
  return x->opcode() == Opcode::kNegate && Replace(inst, x->operand(0));
}

bool Simplifier::VisitReshape(Instruction* inst) {
  bool changed = false;
  if (inst->operand(0)->opcode() == Opcode::kReshape) {
    SetOperand(inst, inst->operand(0)->operand(0));
    changed = true;
  }
  return Replace(inst, inst->operand(0)) || changed;
}

bool Simplifier::VisitDimensionMapChain(Instruction* inst) {
  bool changed = false;
  Instruction* x = inst->operand(0);
  if (x->opcode() == inst->opcode()) {
    // Transposes: output dimension j of the outer one is dimension outer[j]
    // of the inner one, which is dimension inner[outer[j]] of x.
    // Broadcasts: dimension i of x lands on inner[i] of the inner one,
    // which lands on outer[inner[i]].
    const bool transpose = inst->opcode() == Opcode::kTranspose;
    const std::vector<int64_t>& first =
        transpose ? x->attrs().dimensions : inst->attrs().dimensions;
    const std::vector<int64_t>& second =
        transpose ? inst->attrs().dimensions : x->attrs().dimensions;
    std::vector<int64_t> composed = Compose(first, second);
    if (composed.size() == second.size()) {
      inst->mutable_attrs().dimensions = std::move(composed);
      SetOperand(inst, x->operand(0));
      changed = true;
    }
  }
  if (IsIdentityMap(inst->attrs().dimensions) &&
      Replace(inst, inst->operand(0))) {
    return true;
  }
  return changed;
}

bool Simplifier::VisitSameShape(Instruction* inst) {
  return Replace(inst, inst->operand(0));
}

bool Simplifier::VisitSlice(Instruction* inst) {
  const Instruction* x = inst->operand(0);
  const std::vector<SliceDim>& slice = inst->slice();
  if (!x->shape().IsArray() ||
      static_cast<int>(slice.size()) != x->shape().rank()) {
    return false;
  }
  for (int i = 0; i < x->shape().rank(); ++i) {
    if (slice[i].start != 0 || slice[i].stride != 1 ||
        slice[i].limit != x->shape().dimensions(i)) {
      return false;
    }
  }
  return Replace(inst, inst->operand(0));
}

// Whether `inst` is +0 (a constant or broadcast of one, or a convert of
// one: every type converts +0 to +0).
bool IsPositiveZero(const Instruction& inst) {
  if (IsSpecial(inst, Special::kZero)) return true;
  return inst.opcode() == Opcode::kConvert &&
         IsSpecial(*inst.operand(0), Special::kZero);
}

bool Simplifier::VisitConvolution(Instruction* inst) {
  const Instruction* pad = inst->operand(0);
  if (pad->opcode() != Opcode::kPad || !IsPositiveZero(*pad->operand(1))) {
    return false;
  }
  const ConvolutionDimensionNumbers& dn = inst->attrs().conv_dnums;
  const std::vector<PaddingDim>& edges = pad->padding();
  std::vector<WindowDim> window = inst->attrs().window;
  if (static_cast<int>(edges.size()) != pad->shape().rank() ||
      window.size() != dn.input_spatial.size()) {
    return false;
  }
  // Batch and feature dimensions unpadded; spatial ones padded at the edges
  // only, by no negative amount, on an undilated base (the window pads the
  // dilated base).
  for (int64_t d = 0; d < static_cast<int64_t>(edges.size()); ++d) {
    const PaddingDim& e = edges[d];
    if (e.interior != 0 || e.low < 0 || e.high < 0) return false;
    const auto spatial =
        std::find(dn.input_spatial.begin(), dn.input_spatial.end(), d);
    if (spatial == dn.input_spatial.end()) {
      if (e.low != 0 || e.high != 0) return false;
      continue;
    }
    WindowDim& w = window[spatial - dn.input_spatial.begin()];
    if (w.base_dilation != 1 ||
        __builtin_add_overflow(w.pad_low, e.low, &w.pad_low) ||
        __builtin_add_overflow(w.pad_high, e.high, &w.pad_high)) {
      return false;
    }
  }
  inst->mutable_attrs().window = std::move(window);
  SetOperand(inst, pad->operand(0));
  return true;
}

// The dimension numbers of a dot whose operand `side` (0: lhs) was the
// transpose `t` and now is t's operand: batch and contracting dimension d
// of the transposed value is dimension perm[d] of the operand. Nullopt when
// the free dimensions would come out in another order, which would reorder
// the dot's result.
std::optional<DotDimensionNumbers> FoldTranspose(const DotDimensionNumbers& dn,
                                                 int side,
                                                 const Instruction& t) {
  const std::vector<int64_t>& perm = t.attrs().dimensions;
  DotDimensionNumbers out = dn;
  std::vector<int64_t>& batch = side == 0 ? out.lhs_batch : out.rhs_batch;
  std::vector<int64_t>& contracting =
      side == 0 ? out.lhs_contracting : out.rhs_contracting;
  const int64_t rank = static_cast<int64_t>(perm.size());
  std::vector<bool> bound(perm.size(), false);
  for (std::vector<int64_t>* dims : {&batch, &contracting}) {
    for (int64_t& d : *dims) {
      if (d < 0 || d >= rank) return std::nullopt;
      bound[d] = true;
      d = perm[d];
    }
  }
  int64_t last = -1;
  for (int64_t d = 0; d < rank; ++d) {
    if (bound[d]) continue;
    if (perm[d] < last) return std::nullopt;
    last = perm[d];
  }
  return out;
}

bool Simplifier::VisitDot(Instruction* inst) {
  bool changed = false;
  for (int side = 0; side < 2; ++side) {
    Instruction* t = inst->operand(side);
    if (t->opcode() != Opcode::kTranspose ||
        t->attrs().dimensions.size() !=
            static_cast<size_t>(t->shape().rank())) {
      continue;
    }
    std::optional<DotDimensionNumbers> dn =
        FoldTranspose(inst->attrs().dot_dnums, side, *t);
    if (!dn.has_value()) continue;
    inst->mutable_attrs().dot_dnums = *std::move(dn);
    unused_.push_back(t);
    inst->ReplaceOperand(side, t->operand(0));
    changed = true;
  }
  return changed;
}

}  // namespace

absl::StatusOr<bool> AlgebraicSimplifier::Run(Module& module) {
  const SideEffects effects(module);
  bool changed = false;
  for (int round = 0; round < kMaxRounds; ++round) {
    bool round_changed = false;
    for (const auto& comp : module.computations()) {
      Simplifier simplifier(*comp);
      if (!simplifier.Run()) continue;
      round_changed = true;
      RemoveDeadFrom(*comp, effects, std::move(simplifier.unused()));
    }
    if (!round_changed) break;
    changed = true;
  }
  return changed;
}

}  // namespace aotc
