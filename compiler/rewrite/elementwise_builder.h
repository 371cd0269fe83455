// ElementwiseBuilder: appends element-wise HLO expressions of one array shape
// to a computation, for rewrites that replace one instruction by a formula
// (transcendental_expander, the CHLO lowering in compiler/frontend/stablehlo).
//
// Every instruction it creates has the builder's dimensions and layout, the
// location of the instruction it stands for, and a fresh name from the
// caller's NameUniquer. Scalar constants are broadcast to the shape. The
// instructions are appended: a pass that rewrites inside a computation calls
// Computation::SortTopologically afterwards.
#ifndef AOTC_COMPILER_REWRITE_ELEMENTWISE_BUILDER_H_
#define AOTC_COMPILER_REWRITE_ELEMENTWISE_BUILDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/computation.h"
#include "compiler/rewrite/ir_rewrite.h"

namespace aotc {

class ElementwiseBuilder {
 public:
  // `shape` is an array shape; its element type is the default type of
  // constants and arithmetic (see set_type).
  ElementwiseBuilder(Computation& computation, NameUniquer& names,
                     const Shape& shape, Location location,
                     std::string name_prefix);

  PrimitiveType type() const { return type_; }
  // The element type later constants and results of Op take.
  void set_type(PrimitiveType type) { type_ = type; }
  // The array shape with element type `type`.
  Shape ShapeOf(PrimitiveType type) const;

  // `value` converted to type() (a float or an integer type), broadcast.
  Instruction* Constant(double value);
  // An integer constant of an integer type, broadcast; for bit patterns.
  Instruction* IntConstant(PrimitiveType type, uint64_t bits);

  // An instruction of opcode `op` on `operands` whose elements have type
  // `result_type`.
  Instruction* Op(Opcode op, std::vector<Instruction*> operands,
                  PrimitiveType result_type);
  // The same with the element type of the first operand.
  Instruction* Op(Opcode op, std::vector<Instruction*> operands);

  Instruction* Add(Instruction* a, Instruction* b) {
    return Op(Opcode::kAdd, {a, b});
  }
  Instruction* Sub(Instruction* a, Instruction* b) {
    return Op(Opcode::kSubtract, {a, b});
  }
  Instruction* Mul(Instruction* a, Instruction* b) {
    return Op(Opcode::kMultiply, {a, b});
  }
  Instruction* Div(Instruction* a, Instruction* b) {
    return Op(Opcode::kDivide, {a, b});
  }
  Instruction* Neg(Instruction* a) { return Op(Opcode::kNegate, {a}); }
  Instruction* Abs(Instruction* a) { return Op(Opcode::kAbs, {a}); }
  Instruction* Sqrt(Instruction* a) { return Op(Opcode::kSqrt, {a}); }
  Instruction* Log(Instruction* a) { return Op(Opcode::kLog, {a}); }
  Instruction* Log1p(Instruction* a) { return Op(Opcode::kLog1p, {a}); }
  Instruction* Exp(Instruction* a) { return Op(Opcode::kExp, {a}); }
  Instruction* Expm1(Instruction* a) { return Op(Opcode::kExpm1, {a}); }
  Instruction* Atan2(Instruction* y, Instruction* x) {
    return Op(Opcode::kAtan2, {y, x});
  }
  // A pred result.
  Instruction* Compare(ComparisonDirection direction, Instruction* a,
                       Instruction* b);
  Instruction* Lt(Instruction* a, Instruction* b) {
    return Compare(ComparisonDirection::kLt, a, b);
  }
  Instruction* Gt(Instruction* a, Instruction* b) {
    return Compare(ComparisonDirection::kGt, a, b);
  }
  Instruction* Eq(Instruction* a, Instruction* b) {
    return Compare(ComparisonDirection::kEq, a, b);
  }
  Instruction* Ne(Instruction* a, Instruction* b) {
    return Compare(ComparisonDirection::kNe, a, b);
  }
  Instruction* Select(Instruction* pred, Instruction* on_true,
                      Instruction* on_false);
  Instruction* Convert(Instruction* a, PrimitiveType to) {
    return Op(Opcode::kConvert, {a}, to);
  }
  Instruction* BitcastConvert(Instruction* a, PrimitiveType to) {
    return Op(Opcode::kBitcastConvert, {a}, to);
  }
  // c[0] + c[1]*x + c[2]*x^2 + ... by Horner's rule.
  Instruction* Polynomial(Instruction* x, const std::vector<double>& c);

 private:
  Instruction* Add(std::unique_ptr<Instruction> inst);

  Computation& computation_;
  NameUniquer& names_;
  Shape shape_;
  PrimitiveType type_;
  Location location_;
  std::string prefix_;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_REWRITE_ELEMENTWISE_BUILDER_H_
