// Storage and compute types of HLO elements in LLVM IR (see ir_types.h).
#include "codegen/ir_types.h"

#include "codegen/math/math_emitter.h"
#include "compiler/support/check.h"

namespace aotc::codegen {

bool IsCodegenType(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kPred:
    case PrimitiveType::kS8:
    case PrimitiveType::kS16:
    case PrimitiveType::kS32:
    case PrimitiveType::kS64:
    case PrimitiveType::kU8:
    case PrimitiveType::kU16:
    case PrimitiveType::kU32:
    case PrimitiveType::kU64:
    case PrimitiveType::kF16:
    case PrimitiveType::kBF16:
    case PrimitiveType::kF32:
    case PrimitiveType::kF64:
      return true;
    default:
      return false;
  }
}

llvm::Type* StorageType(llvm::LLVMContext& ctx, PrimitiveType type) {
  AOTC_CHECK(IsCodegenType(type), "no storage type for this element type");
  switch (type) {
    case PrimitiveType::kF32:
      return llvm::Type::getFloatTy(ctx);
    case PrimitiveType::kF64:
      return llvm::Type::getDoubleTy(ctx);
    default:
      return llvm::Type::getIntNTy(ctx, StorageBytes(type) * 8);
  }
}

llvm::Type* ComputeType(llvm::LLVMContext& ctx, PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kPred:
      return llvm::Type::getInt1Ty(ctx);
    case PrimitiveType::kF16:
    case PrimitiveType::kBF16:
      return llvm::Type::getFloatTy(ctx);
    default:
      return StorageType(ctx, type);
  }
}

llvm::Value* StorageToCompute(llvm::IRBuilderBase& b, llvm::Value* v,
                              PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kPred:
      return b.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
    case PrimitiveType::kF16:
      return EmitHalfToFloat(b, v);
    case PrimitiveType::kBF16:
      return EmitBF16ToFloat(b, v);
    default:
      return v;
  }
}

llvm::Value* ComputeToStorage(llvm::IRBuilderBase& b, llvm::Value* v,
                              PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kPred:
      return b.CreateZExt(v, b.getInt8Ty());
    case PrimitiveType::kF16:
      return EmitFloatToHalf(b, v);
    case PrimitiveType::kBF16:
      return EmitFloatToBF16(b, v);
    default:
      return v;
  }
}

llvm::Value* RoundToStorage(llvm::IRBuilderBase& b, llvm::Value* v,
                            PrimitiveType type) {
  if (type != PrimitiveType::kF16 && type != PrimitiveType::kBF16) return v;
  return StorageToCompute(b, ComputeToStorage(b, v, type), type);
}

}  // namespace aotc::codegen
