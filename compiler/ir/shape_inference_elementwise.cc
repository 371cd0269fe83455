// Shape inference for elementwise operations and element-type conversions.
//
// HLO elementwise operations do not broadcast: every array operand has the
// result's dimensions (select's predicate and clamp's bounds may also be
// scalars). Operands share one element type; the result keeps it except for
// compare and is-finite (pred), complex (c64/c128) and abs/real/imag of a
// complex value (its component type). convert, bitcast-convert and
// stochastic-convert take their result element type from the declared shape.
#include <string_view>

#include "compiler/ir/shape_inference_internal.h"
#include "compiler/support/status_macros.h"

namespace aotc::shape_internal {
namespace {

// Operand i's element type must be in the opcode's class (opcode.def).
absl::Status CheckOperandType(const Instruction& inst, int i) {
  const Opcode op = inst.opcode();
  PrimitiveType t = inst.operand(i)->shape().element_type();
  if (OpcodeAcceptsElementType(op, t)) return absl::OkStatus();
  return ShapeError("operand ", i, " of ", OpName(inst), " has element type ",
                    Sv(PrimitiveTypeName(t)), ", expected ",
                    Sv(ElementTypeClassText(OpcodeElementTypes(op))));
}

// The real type of a complex type's components.
PrimitiveType ComponentType(PrimitiveType t) {
  if (t == PrimitiveType::kC64) return PrimitiveType::kF32;
  if (t == PrimitiveType::kC128) return PrimitiveType::kF64;
  return t;
}

absl::StatusOr<Shape> InferUnaryShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  RETURN_IF_ERROR(CheckOperandType(inst, 0));
  PrimitiveType type = operand->element_type();
  switch (inst.opcode()) {
    case Opcode::kAbs:
    case Opcode::kReal:
    case Opcode::kImag:
      type = ComponentType(type);
      break;
    case Opcode::kIsFinite:
      type = PrimitiveType::kPred;
      break;
    default:
      break;
  }
  return Shape::Array(type, operand->dimensions());
}

// Operand i must have exactly `expected`'s dimensions and element type.
absl::Status ExpectOperandLike(const Instruction& inst, int i,
                               const Shape& expected) {
  ASSIGN_OR_RETURN(const Shape* s, ArrayOperand(inst, i));
  if (s->Compatible(expected)) return absl::OkStatus();
  return ShapeError("operand ", i, " has shape ", ShapeText(*s), ", expected ",
                    ShapeText(expected));
}

absl::StatusOr<Shape> InferBinaryShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* lhs, ArrayOperand(inst, 0));
  Shape expected = Shape::Array(lhs->element_type(), lhs->dimensions());
  RETURN_IF_ERROR(ExpectOperandLike(inst, 1, expected));
  RETURN_IF_ERROR(CheckOperandType(inst, 0));
  switch (inst.opcode()) {
    case Opcode::kCompare:
      return Shape::Array(PrimitiveType::kPred, lhs->dimensions());
    case Opcode::kComplex:
      if (lhs->element_type() == PrimitiveType::kF32) {
        return Shape::Array(PrimitiveType::kC64, lhs->dimensions());
      }
      if (lhs->element_type() == PrimitiveType::kF64) {
        return Shape::Array(PrimitiveType::kC128, lhs->dimensions());
      }
      return ShapeError("operand 0 of complex has element type ",
                        Sv(PrimitiveTypeName(lhs->element_type())),
                        ", expected f32 or f64");
    default:
      return expected;
  }
}

// An operand that may be a scalar or have `full`'s dimensions, with `full`'s
// element type (select's predicate, clamp's bounds).
absl::Status ExpectOperandOrScalar(const Instruction& inst, int i,
                                   const Shape& full) {
  ASSIGN_OR_RETURN(const Shape* s, ArrayOperand(inst, i));
  Shape scalar = Shape::Scalar(full.element_type());
  if (s->Compatible(full) || s->Compatible(scalar)) return absl::OkStatus();
  return ShapeError("operand ", i, " has shape ", ShapeText(*s), ", expected ",
                    ShapeText(full), " or ", ShapeText(scalar));
}

absl::StatusOr<Shape> InferSelectShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* on_true, ArrayOperand(inst, 1));
  Shape result = Shape::Array(on_true->element_type(), on_true->dimensions());
  RETURN_IF_ERROR(ExpectOperandLike(inst, 2, result));
  RETURN_IF_ERROR(ExpectOperandOrScalar(
      inst, 0, Shape::Array(PrimitiveType::kPred, on_true->dimensions())));
  return result;
}

absl::StatusOr<Shape> InferClampShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 1));
  Shape result = Shape::Array(operand->element_type(), operand->dimensions());
  RETURN_IF_ERROR(ExpectOperandOrScalar(inst, 0, result));
  RETURN_IF_ERROR(ExpectOperandOrScalar(inst, 2, result));
  return result;
}

// bitcast-convert between types of different widths adds (narrowing) or
// removes (widening) a minor dimension holding the width ratio.
absl::StatusOr<Shape> InferBitcastConvertShape(const Instruction& inst,
                                               const Shape& operand,
                                               PrimitiveType to) {
  int from_bits = BitWidth(operand.element_type());
  int to_bits = BitWidth(to);
  std::vector<int64_t> dims = operand.dimensions();
  if (from_bits == to_bits) return Shape::Array(to, dims);
  if (from_bits == 0 || to_bits == 0) {
    return ShapeError("bitcast-convert from ",
                      Sv(PrimitiveTypeName(operand.element_type())), " to ",
                      Sv(PrimitiveTypeName(to)), " is not supported");
  }
  if (from_bits > to_bits) {
    if (from_bits % to_bits != 0) {
      return ShapeError("bitcast-convert from ",
                        Sv(PrimitiveTypeName(operand.element_type())), " to ",
                        Sv(PrimitiveTypeName(to)),
                        ": bit widths are not multiples of each other");
    }
    if (static_cast<int>(dims.size()) >= kMaxRank) {
      return ShapeError("bitcast-convert result would exceed rank ", kMaxRank);
    }
    dims.push_back(from_bits / to_bits);
    return Shape::Array(to, dims);
  }
  int64_t ratio = to_bits / from_bits;
  if (to_bits % from_bits != 0 || dims.empty() || dims.back() != ratio) {
    return ShapeError("bitcast-convert from ", ShapeText(operand), " to ",
                      Sv(PrimitiveTypeName(to)),
                      " needs a minor dimension of size ", ratio);
  }
  dims.pop_back();
  return Shape::Array(to, dims);
}

}  // namespace

absl::StatusOr<Shape> InferElementwiseShape(const Instruction& inst) {
  switch (inst.operand_count()) {
    case 1:
      return InferUnaryShape(inst);
    case 2:
      return InferBinaryShape(inst);
    default:
      break;
  }
  if (inst.opcode() == Opcode::kSelect) return InferSelectShape(inst);
  if (inst.opcode() == Opcode::kClamp) return InferClampShape(inst);
  return inst.shape();
}

absl::StatusOr<Shape> InferConversionShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* operand, ArrayOperand(inst, 0));
  PrimitiveType from = operand->element_type();
  PrimitiveType to = DeclaredElementType(inst, from);
  switch (inst.opcode()) {
    case Opcode::kConvert:
      if (IsComplex(from) && !IsComplex(to)) {
        return ShapeError("convert from ", Sv(PrimitiveTypeName(from)), " to ",
                          Sv(PrimitiveTypeName(to)),
                          " is not defined; use real, imag or abs");
      }
      return Shape::Array(to, operand->dimensions());
    case Opcode::kBitcastConvert:
      return InferBitcastConvertShape(inst, *operand, to);
    case Opcode::kReducePrecision:
      RETURN_IF_ERROR(CheckOperandType(inst, 0));
      if (inst.exponent_bits() < 1 || inst.mantissa_bits() < 0) {
        return ShapeError(
            "reduce-precision needs exponent_bits >= 1 and "
            "mantissa_bits >= 0, got ",
            inst.exponent_bits(), " and ", inst.mantissa_bits());
      }
      return Shape::Array(from, operand->dimensions());
    default: {
      // stochastic-convert(operand, random bits): random has the operand's
      // dimensions.
      ASSIGN_OR_RETURN(const Shape* random, ArrayOperand(inst, 1));
      if (!random->SameDimensions(*operand)) {
        return ShapeError("operand 1 has shape ", ShapeText(*random),
                          ", expected dimensions ",
                          DimsText(operand->dimensions()));
      }
      return Shape::Array(to, operand->dimensions());
    }
  }
}

}  // namespace aotc::shape_internal
