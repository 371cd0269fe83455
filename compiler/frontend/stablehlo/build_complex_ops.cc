// StableHLO parser: the operations whose StableHLO meaning on complex
// numbers HLO has no opcode for, lowered into real and complex HLO
// instructions; on other element types they are the HLO opcode of the same
// name (OpBuilders::Simple).
//
//   maximum, minimum  lexicographic on (real, imaginary), as the spec orders
//                     complex numbers; an operand with a NaN part wins, as a
//                     NaN does for floats
//   convert           complex to a real or integer type (pred included): the
//                     real part, then the conversion of that float
//   atan2(y, x)       the spec's complex atan2,
//                     -i log((x + i y) / sqrt(x^2 + y^2))
#include "compiler/frontend/stablehlo/op_builders.h"
#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/support/status_macros.h"

namespace aotc::shlo {
namespace {

PrimitiveType PartType(PrimitiveType complex) {
  return complex == PrimitiveType::kC64 ? PrimitiveType::kF32
                                        : PrimitiveType::kF64;
}

bool IsComplexArray(const Instruction* v) {
  return v->shape().IsArray() && IsComplex(v->shape().element_type());
}

// Emits element-wise instructions of one array shape for the operation.
class ComplexEmitter {
 public:
  ComplexEmitter(OpBuild& b, const Shape& shape) : b_(b), shape_(shape) {}

  Instruction* Op(Opcode opcode, PrimitiveType type,
                  std::vector<Instruction*> operands) {
    Shape s = shape_;
    s.set_element_type(type);
    return b_.EmitNamed(opcode, absl::StrCat(std::string(b_.name), ".part"), std::move(s),
                        std::move(operands));
  }
  Instruction* Real(Instruction* z) {
    return Op(Opcode::kReal, PartType(z->shape().element_type()), {z});
  }
  Instruction* Imag(Instruction* z) {
    return Op(Opcode::kImag, PartType(z->shape().element_type()), {z});
  }
  Instruction* Compare(ComparisonDirection d, Instruction* a, Instruction* c) {
    Instruction* r = Op(Opcode::kCompare, PrimitiveType::kPred, {a, c});
    r->mutable_attrs().comparison_direction = d;
    return r;
  }
  Instruction* Or(Instruction* a, Instruction* c) {
    return Op(Opcode::kOr, PrimitiveType::kPred, {a, c});
  }
  Instruction* And(Instruction* a, Instruction* c) {
    return Op(Opcode::kAnd, PrimitiveType::kPred, {a, c});
  }
  Instruction* Binary(Opcode opcode, Instruction* a, Instruction* c) {
    return Op(opcode, a->shape().element_type(), {a, c});
  }
  // Whether either part of z is NaN.
  Instruction* HasNan(Instruction* z) {
    Instruction* re = Real(z);
    Instruction* im = Imag(z);
    return Or(Compare(ComparisonDirection::kNe, re, re),
              Compare(ComparisonDirection::kNe, im, im));
  }
  // -i * z, and i * z.
  Instruction* TimesMinusI(Instruction* z) {
    return Op(Opcode::kComplex, z->shape().element_type(),
              {Imag(z), Op(Opcode::kNegate, PartType(z->shape().element_type()),
                           {Real(z)})});
  }
  Instruction* TimesI(Instruction* z) {
    return Op(Opcode::kComplex, z->shape().element_type(),
              {Op(Opcode::kNegate, PartType(z->shape().element_type()),
                  {Imag(z)}),
               Real(z)});
  }

 private:
  OpBuild& b_;
  Shape shape_;
};

}  // namespace

absl::StatusOr<Instruction*> OpBuilders::MinMax(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(2));
  Instruction* x = b.op.operands[0];
  Instruction* y = b.op.operands[1];
  if (!IsComplexArray(x)) return Simple(b);
  if (!IsComplexArray(y) || !x->shape().Compatible(y->shape()) ||
      !b.shape.IsArray() || !b.shape.Compatible(x->shape())) {
    return b.parser.ErrorAt(
        b.op.name_tok, absl::StrCat(std::string(b.name), " needs operands and a result "
                                            "of one complex type"));
  }
  // x wins when it has a NaN part, or y has none and x orders after y
  // (before, for minimum).
  ComplexEmitter e(b, b.shape);
  const ComparisonDirection strict = b.opcode == Opcode::kMaximum
                                         ? ComparisonDirection::kGt
                                         : ComparisonDirection::kLt;
  Instruction* xr = e.Real(x);
  Instruction* yr = e.Real(y);
  Instruction* wins = e.Or(
      e.Compare(strict, xr, yr),
      e.And(e.Compare(ComparisonDirection::kEq, xr, yr),
            e.Compare(strict, e.Imag(x), e.Imag(y))));
  Instruction* y_is_number = e.Op(Opcode::kNot, PrimitiveType::kPred,
                                  {e.HasNan(y)});
  wins = e.Or(e.HasNan(x), e.And(y_is_number, wins));
  return b.Emit(Opcode::kSelect, b.shape, {wins, x, y});
}

absl::StatusOr<Instruction*> OpBuilders::Convert(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(1));
  Instruction* z = b.op.operands[0];
  if (!IsComplexArray(z) || !b.shape.IsArray() ||
      IsComplex(b.shape.element_type())) {
    return Simple(b);
  }
  ComplexEmitter e(b, b.shape);
  Instruction* re = e.Real(z);
  if (re->shape().element_type() == b.shape.element_type()) return re;
  return b.Emit(Opcode::kConvert, b.shape, {re});
}

absl::StatusOr<Instruction*> OpBuilders::Atan2(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(2));
  Instruction* y = b.op.operands[0];
  Instruction* x = b.op.operands[1];
  if (!IsComplexArray(y)) return Simple(b);
  if (!IsComplexArray(x) || !x->shape().Compatible(y->shape()) ||
      !b.shape.IsArray() || !b.shape.Compatible(y->shape())) {
    return b.parser.ErrorAt(b.op.name_tok,
                            "atan2 needs operands and a result of one "
                            "complex type");
  }
  ComplexEmitter e(b, b.shape);
  const PrimitiveType t = b.shape.element_type();
  Instruction* num = e.Binary(Opcode::kAdd, x, e.TimesI(y));
  Instruction* sum_of_squares = e.Binary(
      Opcode::kAdd, e.Binary(Opcode::kMultiply, x, x),
      e.Binary(Opcode::kMultiply, y, y));
  Instruction* root = e.Op(Opcode::kSqrt, t, {sum_of_squares});
  Instruction* log = e.Op(Opcode::kLog, t, {e.Binary(Opcode::kDivide, num,
                                                     root)});
  return e.TimesMinusI(log);
}

}  // namespace aotc::shlo
