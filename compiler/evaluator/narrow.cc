// Narrow element types in the reference evaluator (see narrow.h).
#include "compiler/evaluator/narrow.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "compiler/evaluator/elementwise_internal.h"
#include "compiler/evaluator/kernel_util.h"
#include "compiler/ir/minifloat.h"
#include "compiler/ir/narrow_type.h"
#include "compiler/ir/native_type.h"
#include "compiler/support/check.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::eval {
namespace {

// How an operation reads the bits of a sub-byte integer operand.
enum class Extension { kNatural, kZero, kSign };

Extension ExtensionFor(const Instruction& inst) {
  switch (inst.opcode()) {
    case Opcode::kShiftRightLogical:
    case Opcode::kPopulationCount:
    case Opcode::kClz:
      return Extension::kZero;
    case Opcode::kShiftRightArithmetic:
      return Extension::kSign;
    case Opcode::kCompare:
      if (inst.comparison_type() == ComparisonType::kUnsigned) {
        return Extension::kZero;
      }
      if (inst.comparison_type() == ComparisonType::kSigned) {
        return Extension::kSign;
      }
      return Extension::kNatural;
    default:
      return Extension::kNatural;
  }
}

// The type a narrow element is computed in; other types are unchanged.
PrimitiveType WideType(PrimitiveType t, Extension ext) {
  if (IsMinifloat(t)) return PrimitiveType::kF32;
  if (!IsSubByteInt(t)) return t;
  switch (ext) {
    case Extension::kZero:
      return PrimitiveType::kU8;
    case Extension::kSign:
      return PrimitiveType::kS8;
    case Extension::kNatural:
      break;
  }
  return IsSignedInt(t) ? PrimitiveType::kS8 : PrimitiveType::kU8;
}

bool AnyNarrowLeaf(const Shape& shape) {
  for (const Shape* leaf : shape.Leaves()) {
    if (leaf->IsArray() && IsNarrowType(leaf->element_type())) return true;
  }
  return false;
}

// The exact value of every element of narrow array `x` in type `wide`
// (s8, u8 or f32). s8 sign-extends and u8 zero-extends the low bits.
Literal Widen(const Literal& x, PrimitiveType wide) {
  const PrimitiveType t = x.shape().element_type();
  Shape shape = x.shape();
  shape.set_element_type(wide);
  Literal out(shape);
  const uint8_t* in = x.raw();
  const int64_t n = x.element_count();
  if (IsMinifloat(t)) {
    auto dst = out.mutable_data<float>();
    for (int64_t i = 0; i < n; ++i) {
      dst[i] = static_cast<float>(MinifloatToDouble(t, in[i]));
    }
    return out;
  }
  const int bits = BitWidth(t);
  uint8_t* dst = out.mutable_raw();
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t low = static_cast<uint8_t>(in[i] & ((1u << bits) - 1));
    const bool negative =
        wide == PrimitiveType::kS8 && (low >> (bits - 1)) != 0;
    dst[i] = negative ? static_cast<uint8_t>(low | (0xffu << bits)) : low;
  }
  return out;
}

// The widened result `r` narrowed to type `t`; `offset` is added to integer
// values first (count-leading-zeros counts the widening's extra bits).
Literal Narrow(const Literal& r, const Shape& shape, int offset) {
  const PrimitiveType t = shape.element_type();
  Literal out(shape);
  uint8_t* dst = out.mutable_raw();
  const int64_t n = out.element_count();
  if (IsMinifloat(t)) {
    auto src = r.data<float>();
    for (int64_t i = 0; i < n; ++i) dst[i] = DoubleToMinifloat(t, src[i]);
    return out;
  }
  const bool wide_signed = r.shape().element_type() == PrimitiveType::kS8;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = wide_signed ? static_cast<int8_t>(r.raw()[i])
                                  : static_cast<int64_t>(r.raw()[i]);
    dst[i] = WrapSubByteInt(t, v + offset);
  }
  return out;
}

// One element's value for convert: integers exactly, floats as double
// (exact for every real type), complex numbers by their real part.
struct Scalar {
  enum class Kind { kInt, kUint, kFloat } kind;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
};

Scalar ReadScalar(const Literal& lit, int64_t index) {
  const PrimitiveType t = lit.shape().element_type();
  const uint8_t byte_value =
      StorageBytes(t) == 1 ? lit.raw()[index] : uint8_t{0};
  if (IsSubByteInt(t)) {
    return {Scalar::Kind::kInt, SubByteIntValue(t, byte_value)};
  }
  if (IsMinifloat(t)) {
    return {Scalar::Kind::kFloat, 0, 0, MinifloatToDouble(t, byte_value)};
  }
  Scalar s{Scalar::Kind::kInt};
  const bool dispatched = DispatchComputableType(t, [&]<PrimitiveType P>() {
    using C = NativeType<P>;
    const C v = lit.data<C>()[index];
    if constexpr (internal::kIsPred<C>) {
      s = {Scalar::Kind::kInt, v ? 1 : 0};
    } else if constexpr (internal::kIsInt<C> && std::is_signed_v<C>) {
      s = {Scalar::Kind::kInt, static_cast<int64_t>(v)};
    } else if constexpr (internal::kIsInt<C>) {
      s = {Scalar::Kind::kUint, 0, static_cast<uint64_t>(v)};
    } else if constexpr (internal::kIsComplex<C>) {
      s = {Scalar::Kind::kFloat, 0, 0, static_cast<double>(v.real())};
    } else {
      s = {Scalar::Kind::kFloat, 0, 0, static_cast<double>(internal::Load(v))};
    }
  });
  AOTC_CHECK(dispatched, "convert from a type the evaluator does not compute");
  return s;
}

// Integers reach minifloats through double: exact below 2^53, and only
// f8e8m0fnu has range for larger integers.
double AsDouble(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::kInt:
      return static_cast<double>(s.i);
    case Scalar::Kind::kUint:
      return static_cast<double>(s.u);
    case Scalar::Kind::kFloat:
      return s.d;
  }
  return 0;
}

uint8_t ToNarrow(PrimitiveType t, const Scalar& s) {
  if (IsMinifloat(t)) return DoubleToMinifloat(t, AsDouble(s));
  switch (s.kind) {
    case Scalar::Kind::kInt:
      return WrapSubByteInt(t, s.i);
    case Scalar::Kind::kUint:
      return WrapSubByteInt(t, static_cast<int64_t>(s.u));
    case Scalar::Kind::kFloat:
      return DoubleToSubByteInt(t, s.d);
  }
  return 0;
}

absl::StatusOr<Literal> Convert(const Instruction& inst, const Literal& x) {
  const PrimitiveType to = inst.shape().element_type();
  const PrimitiveType from = x.shape().element_type();
  if (!IsNarrowType(to)) {
    // Widening is exact, so the ordinary conversion from the wide type is
    // the conversion from the narrow one.
    return internal::EvalConvert(inst,
                                 Widen(x, WideType(from, Extension::kNatural)));
  }
  Literal out(inst.shape());
  uint8_t* dst = out.mutable_raw();
  for (int64_t i = 0; i < out.element_count(); ++i) {
    dst[i] = ToNarrow(to, ReadScalar(x, i));
  }
  return out;
}

absl::StatusOr<Literal> BitcastConvert(const Instruction& inst,
                                       const Literal& x) {
  const PrimitiveType to = inst.shape().element_type();
  const PrimitiveType from = x.shape().element_type();
  if (BitWidth(to) != BitWidth(from) ||
      !x.shape().SameDimensions(inst.shape())) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("bitcast-convert from ", x.shape().ToString(false), " to ",
                     inst.shape().ToString(false),
                     " is not supported: narrow types bitcast only "
                     "to types of the same bit width"));
  }
  Literal out(inst.shape());
  for (int64_t i = 0; i < out.element_count(); ++i) {
    const uint8_t bits = x.raw()[i];
    out.mutable_raw()[i] =
        IsNarrowType(to) ? CanonicalNarrowBits(to, bits) : bits;
  }
  return out;
}

absl::StatusOr<Literal> Iota(const Instruction& inst) {
  const Shape& shape = inst.shape();
  const std::vector<int64_t>& dims = inst.dimensions();
  if (!shape.IsArray() || dims.size() != 1 || dims[0] < 0 ||
      dims[0] >= shape.rank()) {
    return ErrorAt(inst.location(),
                   "iota dimension does not name one dimension of the result");
  }
  // Row-major: element k's coordinate along d is (k / inner) % extent.
  int64_t inner = 1;
  for (int d = shape.rank() - 1; d > dims[0]; --d) inner *= shape.dimensions(d);
  const int64_t extent = shape.dimensions(static_cast<int>(dims[0]));
  Literal out(shape);
  for (int64_t k = 0; k < out.element_count(); ++k) {
    const int64_t value = (k / inner) % extent;
    out.mutable_raw()[k] =
        ToNarrow(shape.element_type(), {Scalar::Kind::kInt, value});
  }
  return out;
}

}  // namespace

bool NeedsNarrowEvaluation(const Instruction& inst) {
  const Opcode op = inst.opcode();
  const bool computes =
      (IsElementwise(op) && inst.called_computations().empty()) ||
      op == Opcode::kBitcastConvert || op == Opcode::kDot ||
      op == Opcode::kConvolution || op == Opcode::kIota;
  if (!computes) return false;
  if (AnyNarrowLeaf(inst.shape())) return true;
  for (const Instruction* o : inst.operands()) {
    if (AnyNarrowLeaf(o->shape())) return true;
  }
  return false;
}

void ConvertNarrowElement(const Literal& from, int64_t from_index, Literal& to,
                          int64_t to_index) {
  const PrimitiveType to_type = to.shape().element_type();
  if (IsNarrowType(to_type)) {
    to.mutable_raw()[to_index] =
        ToNarrow(to_type, ReadScalar(from, from_index));
    return;
  }
  const PrimitiveType from_type = from.shape().element_type();
  AOTC_CHECK(IsNarrowType(from_type),
             "ConvertNarrowElement without a narrow type");
  Literal one(Shape::Scalar(from_type));
  one.mutable_raw()[0] = from.raw()[from_index];
  const Literal wide = Widen(one, WideType(from_type, Extension::kNatural));
  ConvertElementInto(wide, 0, to, to_index);
}

struct NarrowEvaluator::Widened {
  // Declared before `inst` so that they outlive it.
  std::vector<std::unique_ptr<Instruction>> operands;
  std::unique_ptr<Instruction> inst;
  Extension extension = Extension::kNatural;
};

NarrowEvaluator::NarrowEvaluator() = default;
NarrowEvaluator::~NarrowEvaluator() = default;

absl::StatusOr<const NarrowEvaluator::Widened*> NarrowEvaluator::GetWidened(
    const Instruction& inst) {
  auto it = cache_.find(&inst);
  if (it != cache_.end()) return it->second.get();
  if (!inst.shape().IsArray()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("'", Sv(OpcodeName(inst.opcode())),
                                "' of narrow element types must have an "
                                "array result, not ",
                                inst.shape().ToString(false)));
  }
  auto w = std::make_unique<Widened>();
  w->extension = ExtensionFor(inst);
  std::vector<Instruction*> operands;
  for (const Instruction* o : inst.operands()) {
    Shape shape = o->shape();
    if (shape.IsArray()) {
      shape.set_element_type(WideType(shape.element_type(), w->extension));
    }
    w->operands.push_back(Instruction::Create(Opcode::kParameter, o->name(),
                                              std::move(shape), {}));
    operands.push_back(w->operands.back().get());
  }
  Shape shape = inst.shape();
  shape.set_element_type(WideType(shape.element_type(), w->extension));
  w->inst = Instruction::Create(inst.opcode(), inst.name(), std::move(shape),
                                std::move(operands), inst.location());
  w->inst->mutable_attrs() = inst.attrs();
  const Widened* raw = w.get();
  cache_.emplace(&inst, std::move(w));
  return raw;
}

absl::StatusOr<Literal> NarrowEvaluator::Eval(const Instruction& inst,
                                              Operands operands,
                                              const Kernel& kernel) {
  RETURN_IF_ERROR(CheckArrayOperands(inst, operands));
  switch (inst.opcode()) {
    case Opcode::kConvert:
      return Convert(inst, *operands[0]);
    case Opcode::kBitcastConvert:
      return BitcastConvert(inst, *operands[0]);
    case Opcode::kIota:
      return Iota(inst);
    case Opcode::kReducePrecision:
      // Defined on f16, bf16, f32 and f64 bits only, as in code generation.
      return NotDefinedFor(inst, operands[0]->shape().element_type());
    default:
      break;
  }
  ASSIGN_OR_RETURN(const Widened* w, GetWidened(inst));
  std::vector<Literal> widened;
  widened.reserve(operands.size());
  std::vector<const Literal*> pointers;
  for (size_t i = 0; i < operands.size(); ++i) {
    const PrimitiveType t = operands[i]->shape().element_type();
    if (!IsNarrowType(t)) {
      pointers.push_back(operands[i]);
      continue;
    }
    widened.push_back(Widen(*operands[i], WideType(t, w->extension)));
    pointers.push_back(&widened.back());
  }
  ASSIGN_OR_RETURN(Literal r, kernel(*w->inst, pointers));
  const PrimitiveType t = inst.shape().element_type();
  if (!IsNarrowType(t)) return r;
  const int offset = inst.opcode() == Opcode::kClz ? BitWidth(t) - 8 : 0;
  return Narrow(r, inst.shape(), offset);
}

}  // namespace aotc::eval
