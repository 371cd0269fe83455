// Storage and compute types of HLO elements in LLVM IR (see ir_types.h).
#include "codegen/emit/ir_types.h"

#include "absl/strings/str_cat.h"

#include "codegen/elemental/math/math_emitter.h"
#include "compiler/ir/minifloat.h"
#include "compiler/ir/narrow_type.h"
#include "compiler/support/check.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/strings.h"

namespace aotc::codegen {

bool IsCodegenType(PrimitiveType type) {
  return IsComputableType(type) || IsNarrowType(type);
}

bool IsCodegenLayoutExtension(const Shape& shape) {
  if (shape.layout().extension.empty()) return true;
  // E(n) packs n-bit elements; inside a model, where aotc stores them one per
  // byte, the packing is invisible. Module interfaces refuse it (signature.cc).
  return IsNarrowType(shape.element_type()) &&
         shape.layout().extension ==
             absl::StrCat("E(", BitWidth(shape.element_type()), ")");
}

absl::Status CheckBitcastTypes(const Instruction& inst) {
  const Opcode op = inst.opcode();
  if ((op != Opcode::kBitcastConvert && op != Opcode::kBitcast) ||
      inst.operand_count() != 1) {
    return absl::OkStatus();
  }
  const Shape& from = inst.operand(0)->shape();
  const Shape& to = inst.shape();
  if (!from.IsArray() || !to.IsArray()) return absl::OkStatus();
  const PrimitiveType a = from.element_type();
  const PrimitiveType b = to.element_type();
  const char* why = nullptr;
  if (a != b && (IsComplex(a) || IsComplex(b))) {
    why = "complex values bitcast only to their own type";
  } else if (op == Opcode::kBitcastConvert &&
             (IsNarrowType(a) || IsNarrowType(b)) &&
             BitWidth(a) != BitWidth(b)) {
    why = "narrow types bitcast only to types of the same bit width";
  } else {
    return absl::OkStatus();
  }
  return ErrorAt(inst.location(),
                 absl::StrCat(Sv(OpcodeName(op)), " from ",
                              from.ToString(false), " to ", to.ToString(false),
                              " is not supported by code generation: ", why));
}

llvm::Type* StorageType(llvm::LLVMContext& ctx, PrimitiveType type) {
  AOTC_CHECK(IsCodegenType(type), "no storage type for this element type");
  switch (type) {
    case PrimitiveType::kF32:
      return llvm::Type::getFloatTy(ctx);
    case PrimitiveType::kF64:
      return llvm::Type::getDoubleTy(ctx);
    case PrimitiveType::kC64:
      return llvm::ArrayType::get(llvm::Type::getFloatTy(ctx), 2);
    case PrimitiveType::kC128:
      return llvm::ArrayType::get(llvm::Type::getDoubleTy(ctx), 2);
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
    case PrimitiveType::kC64:
      return llvm::FixedVectorType::get(llvm::Type::getFloatTy(ctx), 2);
    case PrimitiveType::kC128:
      return llvm::FixedVectorType::get(llvm::Type::getDoubleTy(ctx), 2);
    default:
      if (IsMinifloat(type)) return llvm::Type::getFloatTy(ctx);
      // LLVM's iN arithmetic wraps at N bits: the backend computes in a
      // wider register and re-extends where the bits above N matter.
      if (IsSubByteInt(type)) return llvm::Type::getIntNTy(ctx, BitWidth(type));
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
    case PrimitiveType::kC64:
    case PrimitiveType::kC128: {
      llvm::Value* z =
          llvm::PoisonValue::get(ComputeType(b.getContext(), type));
      z = b.CreateInsertElement(z, b.CreateExtractValue(v, {0}), uint64_t{0});
      return b.CreateInsertElement(z, b.CreateExtractValue(v, {1}), 1);
    }
    default:
      if (IsMinifloat(type)) {
        return EmitMinifloatToFloat(b, v, GetMinifloatFormat(type));
      }
      // Only the low bits count, whatever a writer put above them.
      if (IsSubByteInt(type)) {
        return b.CreateTrunc(v, b.getIntNTy(BitWidth(type)));
      }
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
    case PrimitiveType::kC64:
    case PrimitiveType::kC128: {
      llvm::Value* pair =
          llvm::PoisonValue::get(StorageType(b.getContext(), type));
      pair = b.CreateInsertValue(pair, b.CreateExtractElement(v, uint64_t{0}),
                                 {0});
      return b.CreateInsertValue(pair, b.CreateExtractElement(v, 1), {1});
    }
    default:
      if (IsMinifloat(type)) {
        return EmitToMinifloat(b, v, GetMinifloatFormat(type));
      }
      // The canonical byte: sign-extended or zero-extended (narrow_type.h).
      if (IsSubByteInt(type)) {
        return IsSignedInt(type) ? b.CreateSExt(v, b.getInt8Ty())
                                 : b.CreateZExt(v, b.getInt8Ty());
      }
      return v;
  }
}

llvm::Value* RoundToStorage(llvm::IRBuilderBase& b, llvm::Value* v,
                            PrimitiveType type) {
  if (!IsHalfFloat(type) && !IsMinifloat(type)) return v;
  return StorageToCompute(b, ComputeToStorage(b, v, type), type);
}

}  // namespace aotc::codegen
