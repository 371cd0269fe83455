// Element-wise expression building for rewrites.
#include "compiler/rewrite/elementwise_builder.h"

#include <cstring>
#include <utility>

#include "compiler/ir/literal.h"
#include "compiler/ir/native_type.h"
#include "compiler/support/check.h"

namespace aotc {
namespace {

template <typename T>
void StoreScalar(Literal& literal, T value) {
  literal.Set<T>(0, value);
}

}  // namespace

ElementwiseBuilder::ElementwiseBuilder(Computation& computation,
                                       NameUniquer& names, const Shape& shape,
                                       Location location,
                                       std::string name_prefix)
    : computation_(computation),
      names_(names),
      shape_(shape),
      type_(shape.element_type()),
      location_(std::move(location)),
      prefix_(std::move(name_prefix)) {
  AOTC_CHECK(shape.IsArray(), "element-wise builder on a non-array shape");
}

Shape ElementwiseBuilder::ShapeOf(PrimitiveType type) const {
  Shape s = shape_;
  s.set_element_type(type);
  return s;
}

Instruction* ElementwiseBuilder::Add(std::unique_ptr<Instruction> inst) {
  return computation_.AddInstruction(std::move(inst));
}

Instruction* ElementwiseBuilder::IntConstant(PrimitiveType type,
                                             uint64_t bits) {
  AOTC_CHECK(IsInteger(type), "IntConstant of a non-integer type");
  Literal literal(Shape::Scalar(type));
  std::memcpy(literal.mutable_raw(), &bits, StorageBytes(type));  // little end
  auto c = Instruction::Create(Opcode::kConstant, names_.Unique(prefix_),
                               Shape::Scalar(type), {}, location_);
  c->mutable_attrs().literal = std::move(literal);
  Instruction* scalar = Add(std::move(c));
  if (shape_.IsScalar()) return scalar;
  return Add(Instruction::Create(Opcode::kBroadcast, names_.Unique(prefix_),
                                 ShapeOf(type), {scalar}, location_));
}

Instruction* ElementwiseBuilder::Constant(double value) {
  if (IsInteger(type_)) {
    return IntConstant(type_,
                       static_cast<uint64_t>(static_cast<int64_t>(value)));
  }
  Literal literal(Shape::Scalar(type_));
  switch (type_) {
    case PrimitiveType::kF32:
      StoreScalar(literal, static_cast<float>(value));
      break;
    case PrimitiveType::kF64:
      StoreScalar(literal, value);
      break;
    case PrimitiveType::kF16:
      StoreScalar(literal, Half(static_cast<float>(value)));
      break;
    case PrimitiveType::kBF16:
      StoreScalar(literal, BFloat16(static_cast<float>(value)));
      break;
    default:
      AOTC_CHECK(false, "Constant of an unexpected element type");
  }
  auto c = Instruction::Create(Opcode::kConstant, names_.Unique(prefix_),
                               Shape::Scalar(type_), {}, location_);
  c->mutable_attrs().literal = std::move(literal);
  Instruction* scalar = Add(std::move(c));
  if (shape_.IsScalar()) return scalar;
  return Add(Instruction::Create(Opcode::kBroadcast, names_.Unique(prefix_),
                                 ShapeOf(type_), {scalar}, location_));
}

Instruction* ElementwiseBuilder::Op(Opcode op,
                                    std::vector<Instruction*> operands,
                                    PrimitiveType result_type) {
  return Add(Instruction::Create(op, names_.Unique(prefix_),
                                 ShapeOf(result_type), std::move(operands),
                                 location_));
}

Instruction* ElementwiseBuilder::Op(Opcode op,
                                    std::vector<Instruction*> operands) {
  AOTC_CHECK(!operands.empty(), "Op without operands needs a result type");
  const PrimitiveType t = operands[0]->shape().element_type();
  return Op(op, std::move(operands), t);
}

Instruction* ElementwiseBuilder::Compare(ComparisonDirection direction,
                                         Instruction* a, Instruction* b) {
  Instruction* c = Op(Opcode::kCompare, {a, b}, PrimitiveType::kPred);
  c->mutable_attrs().comparison_direction = direction;
  return c;
}

Instruction* ElementwiseBuilder::Select(Instruction* pred, Instruction* on_true,
                                        Instruction* on_false) {
  return Op(Opcode::kSelect, {pred, on_true, on_false},
            on_true->shape().element_type());
}

Instruction* ElementwiseBuilder::Polynomial(Instruction* x,
                                            const std::vector<double>& c) {
  AOTC_CHECK(!c.empty(), "polynomial without coefficients");
  Instruction* acc = Constant(c.back());
  for (size_t i = c.size() - 1; i-- > 0;) {
    acc = Add(Mul(acc, x), Constant(c[i]));
  }
  return acc;
}

}  // namespace aotc
