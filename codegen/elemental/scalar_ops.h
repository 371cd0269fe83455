// Scalar HLO operations on compute values, with the reference evaluator's
// semantics (docs/evaluator.md): integer division by zero, shifts past the
// bit width, NaN-propagating maximum/minimum, total-order compares,
// saturating float -> integer conversion, f16/bf16 rounding after every
// operation, and so on; complex operands and results go to complex_ops.h.
// Transcendentals come from codegen/elemental/math, so nothing here calls a library
// function.
#ifndef AOTC_CODEGEN_ELEMENTAL_SCALAR_OPS_H_
#define AOTC_CODEGEN_ELEMENTAL_SCALAR_OPS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"
#include "llvm/IR/IRBuilder.h"

namespace aotc::codegen {

// The result element (a compute value) of the elementwise instruction
// `inst` given its operands' elements as compute values. Errors (located at
// inst) for an opcode that is not defined for the element type.
absl::StatusOr<llvm::Value*> EmitElementwise(
    llvm::IRBuilderBase& b, const Instruction& inst,
    const std::vector<llvm::Value*>& operands);

// `convert` of one compute value.
llvm::Value* EmitConvert(llvm::IRBuilderBase& b, llvm::Value* v,
                         PrimitiveType from, PrimitiveType to);

// NaN-propagating maximum / minimum of two compute values of `type`.
llvm::Value* EmitMax(llvm::IRBuilderBase& b, llvm::Value* x, llvm::Value* y,
                     PrimitiveType type);
llvm::Value* EmitMin(llvm::IRBuilderBase& b, llvm::Value* x, llvm::Value* y,
                     PrimitiveType type);

// The type a dot or convolution with result type `result` converts its
// operands to and sums in, converting the sum to `result` once: f32 for the
// minifloats and s8/u8 for sub-byte integers (the evaluator's widening,
// compiler/evaluator/narrow.h), else `result` itself.
PrimitiveType SumOfProductsType(PrimitiveType result);

// sum + x * y, one step of a dot's or a convolution's sum of products in
// compute type `type`: OR of ANDs for pred, wrapping for integers, and for
// floats a multiply then an add that LLVM may not contract into an FMA (the
// evaluator rounds the product).
llvm::Value* EmitMultiplyAdd(llvm::IRBuilderBase& b, llvm::Value* sum,
                             llvm::Value* x, llvm::Value* y,
                             PrimitiveType type);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_ELEMENTAL_SCALAR_OPS_H_
