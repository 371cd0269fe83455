// Elementwise kernels of the reference evaluator: operand checks and the
// dispatch of EvalElementwise, plus the operations whose result type differs
// from their operands' (compare, is-finite, complex, real, imag, abs of
// complex) and the ternary select and clamp. Same-typed arithmetic lives in
// elementwise_math.cc, type changes in convert.cc.
//
// compare: FLOAT (the default for floats) is IEEE comparison, so every
// direction but NE is false on NaN; TOTALORDER orders floats by their
// sign-magnitude bits, -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN;
// SIGNED / UNSIGNED read integer bits as signed / unsigned whatever the
// element type; complex numbers compare EQ and NE only.
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <type_traits>

#include "compiler/evaluator/elementwise_internal.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/ir/native_type.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::eval {
namespace {

using internal::ComputeType;
using internal::kIsComplex;
using internal::kIsInt;
using internal::kIsReal;
using internal::Load;
using internal::Map1;
using internal::Map2;

std::string_view Name(const Instruction& inst) {
  return OpcodeName(inst.opcode());
}

// The real type of a complex type (c64 -> f32), else the type itself.
PrimitiveType RealTypeOf(PrimitiveType t) {
  if (t == PrimitiveType::kC64) return PrimitiveType::kF32;
  if (t == PrimitiveType::kC128) return PrimitiveType::kF64;
  return t;
}

absl::Status TypeMismatch(const Instruction& inst, std::string_view what,
                          PrimitiveType actual, PrimitiveType expected) {
  return ErrorAt(
      inst.location(),
      absl::StrCat(Sv(what), " of '", Sv(Name(inst)), "' has element type ",
                   Sv(PrimitiveTypeName(actual)), ", expected ",
                   Sv(PrimitiveTypeName(expected))));
}

// Scalars broadcast only into the predicate of select and the bounds of
// clamp; every other operand has the result's dimensions.
bool MayBeScalar(Opcode op, int i) {
  return (op == Opcode::kSelect && i == 0) ||
         (op == Opcode::kClamp && (i == 0 || i == 2));
}

// The element type operand i must have, or kInvalid when any type goes.
PrimitiveType ExpectedOperandType(const Instruction& inst, Operands operands,
                                  int i) {
  const PrimitiveType result = inst.shape().element_type();
  const PrimitiveType first = operands[0]->shape().element_type();
  switch (inst.opcode()) {
    case Opcode::kConvert:
    case Opcode::kBitcastConvert:
    case Opcode::kReal:
    case Opcode::kImag:
    case Opcode::kAbs:
    case Opcode::kIsFinite:
      return PrimitiveType::kInvalid;
    case Opcode::kCompare:
    case Opcode::kComplex:
      return i == 0 ? PrimitiveType::kInvalid : first;
    case Opcode::kSelect:
      return i == 0 ? PrimitiveType::kPred : result;
    default:
      return result;
  }
}

// The element type the result must have given the operands, or kInvalid.
PrimitiveType ExpectedResultType(const Instruction& inst, Operands operands) {
  const PrimitiveType first = operands[0]->shape().element_type();
  switch (inst.opcode()) {
    case Opcode::kCompare:
    case Opcode::kIsFinite:
      return PrimitiveType::kPred;
    case Opcode::kReal:
    case Opcode::kImag:
    case Opcode::kAbs:
      return RealTypeOf(first);
    case Opcode::kComplex:
      if (first == PrimitiveType::kF32) return PrimitiveType::kC64;
      if (first == PrimitiveType::kF64) return PrimitiveType::kC128;
      return PrimitiveType::kInvalid;
    default:
      return PrimitiveType::kInvalid;
  }
}

// What verification normally guarantees, checked again so that the loops
// below never read out of bounds or misread an element type.
absl::Status CheckOperands(const Instruction& inst, Operands operands) {
  const Opcode op = inst.opcode();
  const int arity = OpcodeArity(op);
  if (arity != kVariadic && static_cast<int>(operands.size()) != arity) {
    return ErrorAt(inst.location(),
                   absl::StrCat("'", Sv(Name(inst)), "' expects ", arity,
                                " operands, got ", operands.size()));
  }
  if (!inst.shape().IsArray()) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("the result of '", Sv(Name(inst)),
                     "' must be an array, got ", inst.shape().ToString(false)));
  }
  for (int i = 0; i < static_cast<int>(operands.size()); ++i) {
    const Shape& shape = operands[i]->shape();
    if (!shape.IsArray() || operands[i]->elided()) {
      return ErrorAt(inst.location(),
                     absl::StrCat("operand ", i, " of '", Sv(Name(inst)),
                                  "' must be an array value, got ",
                                  shape.ToString(false)));
    }
    const bool dims_ok = op == Opcode::kBitcastConvert ||
                         shape.SameDimensions(inst.shape()) ||
                         (MayBeScalar(op, i) && shape.IsScalar());
    if (!dims_ok) {
      return ErrorAt(inst.location(),
                     absl::StrCat("operand ", i, " of '", Sv(Name(inst)),
                                  "' has shape ", shape.ToString(false),
                                  ", which does not match the result shape ",
                                  inst.shape().ToString(false)));
    }
    const PrimitiveType expected = ExpectedOperandType(inst, operands, i);
    if (expected != PrimitiveType::kInvalid &&
        shape.element_type() != expected) {
      return TypeMismatch(inst, absl::StrCat("operand ", i),
                          shape.element_type(), expected);
    }
  }
  const PrimitiveType expected = ExpectedResultType(inst, operands);
  if (expected != PrimitiveType::kInvalid &&
      inst.shape().element_type() != expected) {
    return TypeMismatch(inst, "the result", inst.shape().element_type(),
                        expected);
  }
  return absl::OkStatus();
}

// The total-order key of a float's storage bits: sign-magnitude bits mapped
// to a two's complement integer that orders like the floats.
template <typename C>
auto TotalOrderKey(C v) {
  using U = std::conditional_t<
      sizeof(C) == 2, uint16_t,
      std::conditional_t<sizeof(C) == 4, uint32_t, uint64_t>>;
  using S = std::make_signed_t<U>;
  U bits;
  std::memcpy(&bits, &v, sizeof(U));
  const S s = static_cast<S>(bits);
  return s < 0 ? static_cast<S>(s ^ std::numeric_limits<S>::max()) : s;
}

// out[i] = key(a[i]) <direction> key(b[i]).
template <typename C, typename Key>
void CompareLoop(ComparisonDirection direction, const Literal& a,
                 const Literal& b, Literal* out, Key key) {
  auto x = a.data<C>();
  auto y = b.data<C>();
  auto o = out->mutable_data<bool>();
  auto loop = [&](auto cmp) {
    for (size_t i = 0; i < o.size(); ++i) o[i] = cmp(key(x[i]), key(y[i]));
  };
  switch (direction) {
    case ComparisonDirection::kEq:
      return loop(std::equal_to<>());
    case ComparisonDirection::kNe:
      return loop(std::not_equal_to<>());
    case ComparisonDirection::kLt:
      return loop(std::less<>());
    case ComparisonDirection::kLe:
      return loop(std::less_equal<>());
    case ComparisonDirection::kGt:
      return loop(std::greater<>());
    case ComparisonDirection::kGe:
      return loop(std::greater_equal<>());
  }
}

absl::StatusOr<Literal> EvalCompare(const Instruction& inst, const Literal& a,
                                    const Literal& b) {
  const PrimitiveType type = a.shape().element_type();
  const ComparisonDirection direction = inst.comparison_direction();
  const ComparisonType kind = inst.comparison_type();
  if (IsComplex(type) && direction != ComparisonDirection::kEq &&
      direction != ComparisonDirection::kNe) {
    return ErrorAt(inst.location(),
                   absl::StrCat("comparison direction ",
                                Sv(ComparisonDirectionName(direction)),
                                " is not defined for element type ",
                                Sv(PrimitiveTypeName(type))));
  }
  Literal out(inst.shape());
  DispatchComputableType(type, [&]<PrimitiveType P>() {
    using C = NativeType<P>;
    using T = ComputeType<C>;
    if constexpr (kIsComplex<T>) {
      auto x = a.data<C>();
      auto y = b.data<C>();
      auto o = out.mutable_data<bool>();
      const bool eq = direction == ComparisonDirection::kEq;
      for (size_t i = 0; i < o.size(); ++i) o[i] = (x[i] == y[i]) == eq;
      return;
    }
    if constexpr (kIsReal<T>) {
      if (kind == ComparisonType::kTotalOrder) {
        return CompareLoop<C>(direction, a, b, &out,
                              [](C v) { return TotalOrderKey(v); });
      }
    }
    if constexpr (kIsInt<T>) {
      if (kind == ComparisonType::kSigned) {
        return CompareLoop<C>(direction, a, b, &out, [](C v) {
          return static_cast<std::make_signed_t<C>>(v);
        });
      }
      if (kind == ComparisonType::kUnsigned) {
        return CompareLoop<C>(direction, a, b, &out, [](C v) {
          return static_cast<std::make_unsigned_t<C>>(v);
        });
      }
    }
    if constexpr (!kIsComplex<T>) {
      CompareLoop<C>(direction, a, b, &out, [](C v) { return Load(v); });
    }
  });
  return out;
}

absl::StatusOr<Literal> EvalSelect(const Instruction& inst, const Literal& pred,
                                   const Literal& on_true,
                                   const Literal& on_false) {
  Literal out(inst.shape());
  DispatchComputableType(inst.shape().element_type(), [&]<PrimitiveType P>() {
    using C = NativeType<P>;
    auto p = pred.data<bool>();
    auto t = on_true.data<C>();
    auto f = on_false.data<C>();
    auto o = out.mutable_data<C>();
    const size_t sp = p.size() == o.size() ? 1 : 0;
    for (size_t i = 0; i < o.size(); ++i) o[i] = p[i * sp] ? t[i] : f[i];
  });
  return out;
}

// clamp(lo, x, hi) = min(max(x, lo), hi), NaN-propagating like maximum and
// minimum; lo and hi may be scalars.
absl::StatusOr<Literal> EvalClamp(const Instruction& inst, const Literal& lo,
                                  const Literal& x, const Literal& hi) {
  const PrimitiveType type = x.shape().element_type();
  if (IsComplex(type)) return NotDefinedFor(inst, type);
  Literal out(inst.shape());
  DispatchComputableType(type, [&]<PrimitiveType P>() {
    using C = NativeType<P>;
    if constexpr (!kIsComplex<C>) {
      auto l = lo.data<C>();
      auto v = x.data<C>();
      auto h = hi.data<C>();
      auto o = out.mutable_data<C>();
      const size_t sl = l.size() == o.size() ? 1 : 0;
      const size_t sh = h.size() == o.size() ? 1 : 0;
      for (size_t i = 0; i < o.size(); ++i) {
        o[i] = internal::Store<C>(internal::MinOf(
            internal::MaxOf(Load(v[i]), Load(l[i * sl])), Load(h[i * sh])));
      }
    }
  });
  return out;
}

// Dispatches over the real element type R of a float operand, calling
// fn.template operator()<R>(); false for other types.
template <typename Fn>
bool DispatchFloatPart(PrimitiveType t, Fn&& fn) {
  if (t == PrimitiveType::kF32 || t == PrimitiveType::kC64) {
    fn.template operator()<float>();
    return true;
  }
  if (t == PrimitiveType::kF64 || t == PrimitiveType::kC128) {
    fn.template operator()<double>();
    return true;
  }
  return false;
}

absl::StatusOr<Literal> EvalComplex(const Instruction& inst, const Literal& re,
                                    const Literal& im) {
  Literal out(inst.shape());
  const bool defined =
      DispatchFloatPart(re.shape().element_type(), [&]<typename R>() {
        Map2<R, std::complex<R>>(
            re, im, &out, [](R a, R b) { return std::complex<R>(a, b); });
      });
  if (!defined) return NotDefinedFor(inst, re.shape().element_type());
  return out;
}

// real, imag and abs of a complex operand, which give its real type.
absl::StatusOr<Literal> EvalComplexPart(const Instruction& inst,
                                        const Literal& z) {
  Literal out(inst.shape());
  DispatchFloatPart(z.shape().element_type(), [&]<typename R>() {
    using Z = std::complex<R>;
    switch (inst.opcode()) {
      case Opcode::kReal:
        return Map1<Z, R>(z, &out, [](Z v) { return v.real(); });
      case Opcode::kImag:
        return Map1<Z, R>(z, &out, [](Z v) { return v.imag(); });
      default:
        return Map1<Z, R>(z, &out, [](Z v) { return std::abs(v); });
    }
  });
  return out;
}

// real and imag of a real operand: the value itself and zero.
absl::StatusOr<Literal> EvalRealPart(const Instruction& inst,
                                     const Literal& x) {
  const PrimitiveType type = x.shape().element_type();
  if (!IsFloat(type)) return NotDefinedFor(inst, type);
  Literal out(inst.shape());
  if (inst.opcode() == Opcode::kReal && x.raw_size() > 0) {
    std::memcpy(out.mutable_raw(), x.raw(), static_cast<size_t>(x.raw_size()));
  }
  return out;
}

absl::StatusOr<Literal> EvalIsFinite(const Instruction& inst,
                                     const Literal& x) {
  const PrimitiveType type = x.shape().element_type();
  Literal out(inst.shape());
  bool defined = false;
  DispatchComputableType(type, [&]<PrimitiveType P>() {
    using C = NativeType<P>;
    if constexpr (kIsReal<ComputeType<C>>) {
      Map1<C, bool>(x, &out, [](ComputeType<C> v) { return std::isfinite(v); });
      defined = true;
    }
  });
  if (!defined) return NotDefinedFor(inst, type);
  return out;
}

}  // namespace

absl::StatusOr<Literal> EvalElementwise(const Instruction& inst,
                                        Operands operands) {
  RETURN_IF_ERROR(CheckOperands(inst, operands));
  const Opcode op = inst.opcode();
  const Literal& x = *operands[0];
  const bool complex_operand = IsComplex(x.shape().element_type());
  switch (op) {
    case Opcode::kCompare:
      return EvalCompare(inst, x, *operands[1]);
    case Opcode::kSelect:
      return EvalSelect(inst, x, *operands[1], *operands[2]);
    case Opcode::kClamp:
      return EvalClamp(inst, x, *operands[1], *operands[2]);
    case Opcode::kConvert:
      return internal::EvalConvert(inst, x);
    case Opcode::kBitcastConvert:
      return internal::EvalBitcastConvert(inst, x);
    case Opcode::kReducePrecision:
      return internal::EvalReducePrecision(inst, x);
    case Opcode::kIsFinite:
      return EvalIsFinite(inst, x);
    case Opcode::kComplex:
      return EvalComplex(inst, x, *operands[1]);
    case Opcode::kReal:
    case Opcode::kImag:
      if (complex_operand) return EvalComplexPart(inst, x);
      return EvalRealPart(inst, x);
    case Opcode::kAbs:
      if (complex_operand) return EvalComplexPart(inst, x);
      return internal::EvalUnaryMath(inst, x);
    default:
      break;
  }
  if (IsElementwiseUnary(op)) return internal::EvalUnaryMath(inst, x);
  if (IsElementwiseBinary(op)) {
    return internal::EvalBinaryMath(inst, x, *operands[1]);
  }
  return ErrorAt(inst.location(),
                 absl::StrCat("opcode '", Sv(Name(inst)),
                              "' is not an elementwise operation"));
}

}  // namespace aotc::eval
