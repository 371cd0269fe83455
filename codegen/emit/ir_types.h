// How HLO element types live in LLVM IR.
//
// Every element type has a storage type (what a buffer holds) and a compute
// type (what arithmetic works on): pred is stored as i8 and computed as i1;
// f16 and bf16 are stored as their i16 bit patterns and computed in float,
// rounded to nearest even after every operation, as the reference evaluator
// does; the 8-, 6- and 4-bit floats likewise, stored as i8 bits; sub-byte
// integers (s2, s4, u2, u4) are stored one per byte, sign- or zero-extended,
// and computed as LLVM's i2 / i4, whose arithmetic wraps at their width;
// c64 and c128 are stored as [2 x float] / [2 x double] (real part first,
// aligned like one component, as C's float _Complex) and computed as the
// vectors <2 x float> / <2 x double>, which select, phi and return like any
// scalar (complex_ops.h works on them); every other type is computed in its
// storage type. Conversions between the two are emitted inline (no calls
// into compiler runtimes).
#ifndef AOTC_CODEGEN_EMIT_IR_TYPES_H_
#define AOTC_CODEGEN_EMIT_IR_TYPES_H_

#include "absl/status/status.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/primitive_type.h"
#include "compiler/ir/shape.h"
#include "llvm/IR/IRBuilder.h"

namespace aotc::codegen {

// True for the element types the code generator computes with: the
// evaluator's computable types (IsComputableType) and, beyond them, the
// narrow ones (s2, s4, u2, u4, the 8-, 6- and 4-bit floats), which compiled
// code widens as the evaluator does.
bool IsCodegenType(PrimitiveType type);

// True when code generation handles the layout extension of `shape`: none,
// or E(n) (n-bit packing) on an n-bit narrow type, which inside a model
// changes nothing since aotc stores narrow elements one per byte.
bool IsCodegenLayoutExtension(const Shape& shape);

// A located error for a bitcast or bitcast-convert between element types
// code generation cannot reinterpret: a bitcast-convert that changes the bit
// width to or from a narrow type (s8 <-> s4[.., 2] would need two elements
// per byte, which aotc's buffers never hold), and a bitcast of either kind
// between a complex type and another type (a complex compute value is a
// pair, not one number; XLA refuses such a bitcast-convert too).
absl::Status CheckBitcastTypes(const Instruction& inst);

llvm::Type* StorageType(llvm::LLVMContext& ctx, PrimitiveType type);
llvm::Type* ComputeType(llvm::LLVMContext& ctx, PrimitiveType type);

// Storage value -> compute value and back.
llvm::Value* StorageToCompute(llvm::IRBuilderBase& b, llvm::Value* v,
                              PrimitiveType type);
llvm::Value* ComputeToStorage(llvm::IRBuilderBase& b, llvm::Value* v,
                              PrimitiveType type);

// For f16 / bf16 / minifloats: the compute value rounded to the storage precision (and
// back to float); identity for other types.
llvm::Value* RoundToStorage(llvm::IRBuilderBase& b, llvm::Value* v,
                            PrimitiveType type);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_EMIT_IR_TYPES_H_
