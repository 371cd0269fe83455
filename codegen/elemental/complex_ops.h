// Scalar HLO operations on complex compute values: c64 and c128 elements
// computed as <2 x float> / <2 x double> (ir_types.h), with the reference
// evaluator's semantics. The arithmetic and elementary functions come from
// codegen/elemental/math (complex.cc); this file maps opcodes onto them and defines
// the type changes: complex(re, im), real and imag, convert (complex ->
// real types take the real part, real types -> complex have imaginary part
// 0) and compare (EQ and NE only).
#ifndef AOTC_CODEGEN_ELEMENTAL_COMPLEX_OPS_H_
#define AOTC_CODEGEN_ELEMENTAL_COMPLEX_OPS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"
#include "llvm/IR/IRBuilder.h"

namespace aotc::codegen {

// The real type of a complex type (c64 -> f32, c128 -> f64).
PrimitiveType ComplexComponentType(PrimitiveType complex_type);

// The parts of a complex compute value, and one made of two parts.
llvm::Value* RealPart(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* ImagPart(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* MakeComplex(llvm::IRBuilderBase& b, llvm::Value* re,
                         llvm::Value* im);

// `convert` where `from` or `to` is complex.
llvm::Value* EmitComplexConvert(llvm::IRBuilderBase& b, llvm::Value* v,
                                PrimitiveType from, PrimitiveType to);

// The result element of the elementwise instruction `inst` whose operand or
// result type is complex (other than convert, bitcast-convert and select,
// which EmitElementwise handles for every type). Errors (located at inst)
// for opcodes HLO does not define on complex numbers.
absl::StatusOr<llvm::Value*> EmitComplexElementwise(
    llvm::IRBuilderBase& b, const Instruction& inst,
    const std::vector<llvm::Value*>& operands);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_ELEMENTAL_COMPLEX_OPS_H_
