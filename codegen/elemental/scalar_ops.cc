// Scalar HLO operations in LLVM IR (see scalar_ops.h). Every choice mirrors
// the reference evaluator (compiler/evaluator/elementwise_math.cc,
// convert.cc); the end-to-end tests compare the two.
#include "codegen/elemental/scalar_ops.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "codegen/elemental/complex_ops.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/emit/ir_types.h"
#include "compiler/ir/minifloat.h"
#include "compiler/ir/narrow_type.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"
#include "llvm/IR/Intrinsics.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

Value* Const(llvm::IRBuilderBase& b, Value* like, double v) {
  return llvm::ConstantFP::get(like->getType(), v);
}

Value* IntConst(Value* like, uint64_t v) {
  return llvm::ConstantInt::get(like->getType(), v);
}

Value* IsNan(llvm::IRBuilderBase& b, Value* x) {
  return b.CreateFCmpUNO(x, x);
}

// Exponentiation by squaring over every bit of the exponent, branch free.
Value* IntPower(llvm::IRBuilderBase& b, Value* base, Value* exponent,
                bool is_signed) {
  const unsigned bits = base->getType()->getIntegerBitWidth();
  Value* result = IntConst(base, 1);
  Value* square = base;
  Value* e = exponent;
  for (unsigned i = 0; i < bits; ++i) {
    Value* bit = b.CreateTrunc(e, b.getInt1Ty());
    result = b.CreateSelect(bit, b.CreateMul(result, square), result);
    square = b.CreateMul(square, square);
    e = b.CreateLShr(e, IntConst(e, 1));
  }
  Value* one = IntConst(base, 1);
  Value* trivial = b.CreateOr(b.CreateICmpEQ(base, one),
                              b.CreateICmpEQ(exponent, IntConst(exponent, 0)));
  if (is_signed) {
    Value* negative = b.CreateICmpSLT(exponent, IntConst(exponent, 0));
    result = b.CreateSelect(negative, IntConst(base, 0), result);
  }
  return b.CreateSelect(trivial, one, result);
}

Value* IntDivide(llvm::IRBuilderBase& b, Value* x, Value* y, bool is_signed,
                 bool remainder) {
  const unsigned bits = x->getType()->getIntegerBitWidth();
  Value* zero = IntConst(x, 0);
  Value* by_zero = b.CreateICmpEQ(y, zero);
  Value* overflow = b.getFalse();
  if (is_signed) {
    Value* int_min = llvm::ConstantInt::get(
        x->getType(), llvm::APInt::getSignedMinValue(bits));
    overflow = b.CreateAnd(b.CreateICmpEQ(x, int_min),
                           b.CreateICmpEQ(y, llvm::Constant::getAllOnesValue(
                                                 y->getType())));
  }
  // A divisor that cannot trap; the special cases are selected below.
  Value* safe = b.CreateSelect(b.CreateOr(by_zero, overflow), IntConst(y, 1), y);
  if (remainder) {
    Value* r = is_signed ? b.CreateSRem(x, safe) : b.CreateURem(x, safe);
    r = b.CreateSelect(overflow, zero, r);
    return b.CreateSelect(by_zero, x, r);
  }
  Value* q = is_signed ? b.CreateSDiv(x, safe) : b.CreateUDiv(x, safe);
  q = b.CreateSelect(overflow, x, q);
  // All ones: -1 for signed types, the maximum for unsigned ones.
  return b.CreateSelect(by_zero, llvm::Constant::getAllOnesValue(x->getType()),
                        q);
}

enum class ShiftKind { kLeft, kRightLogical, kRightArithmetic };

Value* Shift(llvm::IRBuilderBase& b, Value* x, Value* amount, ShiftKind kind) {
  const unsigned bits = x->getType()->getIntegerBitWidth();
  Value* in_range = b.CreateICmpULT(amount, IntConst(amount, bits));
  Value* masked = b.CreateAnd(amount, IntConst(amount, bits - 1));
  switch (kind) {
    case ShiftKind::kLeft:
      return b.CreateSelect(in_range, b.CreateShl(x, masked), IntConst(x, 0));
    case ShiftKind::kRightLogical:
      return b.CreateSelect(in_range, b.CreateLShr(x, masked), IntConst(x, 0));
    case ShiftKind::kRightArithmetic:
      return b.CreateSelect(in_range, b.CreateAShr(x, masked),
                            b.CreateAShr(x, IntConst(x, bits - 1)));
  }
  return nullptr;
}

// The signed integer whose order is IEEE totalOrder on the float's bits.
Value* TotalOrderKey(llvm::IRBuilderBase& b, Value* x) {
  const unsigned bits = x->getType()->getPrimitiveSizeInBits();
  llvm::Type* int_type = b.getIntNTy(bits);
  Value* s = b.CreateBitCast(x, int_type);
  Value* flipped = b.CreateXor(
      s, llvm::ConstantInt::get(int_type, llvm::APInt::getSignedMaxValue(bits)));
  return b.CreateSelect(b.CreateICmpSLT(s, llvm::ConstantInt::get(int_type, 0)),
                        flipped, s);
}

Value* Compare(llvm::IRBuilderBase& b, const Instruction& inst, Value* x,
               Value* y, PrimitiveType type) {
  const ComparisonDirection dir = inst.comparison_direction();
  ComparisonType kind = inst.comparison_type();
  if (IsFloat(type) && kind == ComparisonType::kTotalOrder) {
    x = TotalOrderKey(b, x);
    y = TotalOrderKey(b, y);
    type = PrimitiveType::kS64;
    kind = ComparisonType::kSigned;
  }
  if (IsFloat(type)) {
    switch (dir) {
      case ComparisonDirection::kEq:
        return b.CreateFCmpOEQ(x, y);
      case ComparisonDirection::kNe:
        return b.CreateFCmpUNE(x, y);
      case ComparisonDirection::kLt:
        return b.CreateFCmpOLT(x, y);
      case ComparisonDirection::kLe:
        return b.CreateFCmpOLE(x, y);
      case ComparisonDirection::kGt:
        return b.CreateFCmpOGT(x, y);
      case ComparisonDirection::kGe:
        return b.CreateFCmpOGE(x, y);
    }
  }
  bool is_signed = IsSignedInt(type);
  if (kind == ComparisonType::kSigned) is_signed = true;
  if (kind == ComparisonType::kUnsigned) is_signed = false;
  if (type == PrimitiveType::kPred) is_signed = false;
  switch (dir) {
    case ComparisonDirection::kEq:
      return b.CreateICmpEQ(x, y);
    case ComparisonDirection::kNe:
      return b.CreateICmpNE(x, y);
    case ComparisonDirection::kLt:
      return is_signed ? b.CreateICmpSLT(x, y) : b.CreateICmpULT(x, y);
    case ComparisonDirection::kLe:
      return is_signed ? b.CreateICmpSLE(x, y) : b.CreateICmpULE(x, y);
    case ComparisonDirection::kGt:
      return is_signed ? b.CreateICmpSGT(x, y) : b.CreateICmpUGT(x, y);
    case ComparisonDirection::kGe:
      return is_signed ? b.CreateICmpSGE(x, y) : b.CreateICmpUGE(x, y);
  }
  return nullptr;
}

// reduce-precision on the raw bits `x` of a float with the given source
// format; mirrors ReducePrecisionBits in compiler/evaluator/convert.cc.
Value* ReducePrecisionBits(llvm::IRBuilderBase& b, Value* x, int src_exponent,
                           int src_mantissa, int exponent_bits,
                           int mantissa_bits) {
  const unsigned bits = x->getType()->getIntegerBitWidth();
  auto c = [&](const llvm::APInt& v) {
    return llvm::ConstantInt::get(x->getType(), v);
  };
  auto u = [&](uint64_t v) { return IntConst(x, v); };
  const llvm::APInt sign_mask = llvm::APInt::getSignMask(bits);
  const llvm::APInt exp_mask =
      llvm::APInt::getLowBitsSet(bits, src_exponent).shl(src_mantissa);
  Value* original = x;
  Value* is_nan = b.CreateICmpUGT(b.CreateAnd(x, c(~sign_mask)), c(exp_mask));
  if (mantissa_bits < src_mantissa) {
    const int dropped = src_mantissa - mantissa_bits;
    const uint64_t last_kept = uint64_t{1} << dropped;
    Value* bias = b.CreateAdd(b.CreateLShr(b.CreateAnd(x, u(last_kept)),
                                           u(dropped)),
                              u((last_kept >> 1) - 1));
    x = b.CreateAnd(b.CreateAdd(x, bias), b.CreateNot(u(last_kept - 1)));
  }
  if (exponent_bits < src_exponent) {
    const uint64_t bias = (uint64_t{1} << (src_exponent - 1)) - 1;
    const uint64_t reduced = (uint64_t{1} << (exponent_bits - 1)) - 1;
    Value* max_exp = u((bias + reduced) << src_mantissa);
    Value* min_exp = u((bias - reduced) << src_mantissa);
    Value* exponent = b.CreateAnd(x, c(exp_mask));
    Value* signed_zero = b.CreateAnd(x, c(sign_mask));
    x = b.CreateSelect(b.CreateICmpUGT(exponent, max_exp),
                       b.CreateOr(signed_zero, c(exp_mask)), x);
    x = b.CreateSelect(b.CreateICmpULE(exponent, min_exp), signed_zero, x);
  }
  Value* nan_result = mantissa_bits > 0 ? original : c(exp_mask);
  return b.CreateSelect(is_nan, nan_result, x);
}

absl::StatusOr<Value*> ReducePrecision(llvm::IRBuilderBase& b,
                                       const Instruction& inst, Value* x,
                                       PrimitiveType type) {
  int src_e = 0, src_m = 0;
  switch (type) {
    case PrimitiveType::kF16:
      src_e = 5, src_m = 10;
      break;
    case PrimitiveType::kBF16:
      src_e = 8, src_m = 7;
      break;
    case PrimitiveType::kF32:
      src_e = 8, src_m = 23;
      break;
    case PrimitiveType::kF64:
      src_e = 11, src_m = 52;
      break;
    default:
      return NotDefinedFor(inst, type);
  }
  const int64_t e = inst.exponent_bits();
  const int64_t m = inst.mantissa_bits();
  if (e < 1 || m < 0) {
    return ErrorAt(inst.location(),
                   absl::StrCat("reduce-precision needs exponent_bits >= 1 and "
                                "mantissa_bits >= 0, got exponent_bits=",
                                e, " mantissa_bits=", m));
  }
  Value* bits = ComputeToStorage(b, x, type);
  if (!bits->getType()->isIntegerTy()) {
    bits = b.CreateBitCast(bits, b.getIntNTy(BitWidth(type)));
  }
  Value* r = ReducePrecisionBits(b, bits, src_e, src_m,
                                 static_cast<int>(std::min<int64_t>(e, src_e)),
                                 static_cast<int>(std::min<int64_t>(m, src_m)));
  llvm::Type* storage = StorageType(b.getContext(), type);
  if (!storage->isIntegerTy()) r = b.CreateBitCast(r, storage);
  return StorageToCompute(b, r, type);
}

Value* BitcastConvert(llvm::IRBuilderBase& b, Value* x, PrimitiveType from,
                      PrimitiveType to) {
  Value* bits = ComputeToStorage(b, x, from);
  return StorageToCompute(
      b, b.CreateBitCast(bits, StorageType(b.getContext(), to)), to);
}

absl::StatusOr<Value*> Unary(llvm::IRBuilderBase& b, const Instruction& inst,
                             Value* x, PrimitiveType type) {
  const Opcode op = inst.opcode();
  const bool is_float = IsFloat(type);
  const bool is_int = IsInteger(type);
  const bool is_pred = type == PrimitiveType::kPred;
  switch (op) {
    case Opcode::kCopy:
      return x;
    case Opcode::kReal:
      if (is_float) return x;
      break;
    case Opcode::kImag:
      if (is_float) return Const(b, x, 0.0);
      break;
    case Opcode::kNegate:
      if (is_float) return b.CreateFNeg(x);
      if (is_int) return b.CreateNeg(x);
      break;
    case Opcode::kAbs:
      if (is_float) {
        return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
      }
      if (IsSignedInt(type)) {
        return b.CreateSelect(b.CreateICmpSLT(x, IntConst(x, 0)),
                              b.CreateNeg(x), x);
      }
      if (is_int) return x;
      break;
    case Opcode::kSign:
      if (is_float) {
        Value* one = b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign,
                                             Const(b, x, 1.0), x);
        Value* keep = b.CreateOr(IsNan(b, x), b.CreateFCmpOEQ(x, Const(b, x, 0)));
        return b.CreateSelect(keep, x, one);
      }
      if (is_int) {
        Value* pos = b.CreateZExt(b.CreateICmpSGT(x, IntConst(x, 0)), x->getType());
        Value* neg = b.CreateZExt(b.CreateICmpSLT(x, IntConst(x, 0)), x->getType());
        if (!IsSignedInt(type)) {
          return b.CreateZExt(b.CreateICmpNE(x, IntConst(x, 0)), x->getType());
        }
        return b.CreateSub(pos, neg);
      }
      break;
    case Opcode::kNot:
      if (is_pred || is_int) return b.CreateNot(x);
      break;
    case Opcode::kPopulationCount:
      if (is_int) return b.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, x);
      break;
    case Opcode::kClz:
      if (is_int) {
        return b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, x, b.getFalse());
      }
      break;
    case Opcode::kIsFinite:
      if (is_float) {
        Value* a = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
        return b.CreateFCmpONE(
            a, llvm::ConstantFP::getInfinity(x->getType()));
      }
      break;
    default:
      break;
  }
  if (!is_float) return NotDefinedFor(inst, type);
  switch (op) {
    case Opcode::kFloor:
      return EmitFloor(b, x);
    case Opcode::kCeil:
      return EmitCeil(b, x);
    case Opcode::kRoundNearestAfz:
      return EmitRoundHalfAwayFromZero(b, x);
    case Opcode::kRoundNearestEven:
      return EmitRoundHalfEven(b, x);
    case Opcode::kCbrt:
      return EmitCbrt(b, x);
    case Opcode::kErf:
      return EmitErf(b, x);
    case Opcode::kExpm1:
      return EmitExpm1(b, x);
    case Opcode::kLog1p:
      return EmitLog1p(b, x);
    case Opcode::kSqrt:
      return EmitSqrt(b, x);
    case Opcode::kRsqrt:
      return EmitRsqrt(b, x);
    case Opcode::kExp:
      return EmitExp(b, x);
    case Opcode::kLog:
      return EmitLog(b, x);
    case Opcode::kLogistic:
      return EmitLogistic(b, x);
    case Opcode::kTanh:
      return EmitTanh(b, x);
    case Opcode::kSin:
      return EmitSin(b, x);
    case Opcode::kCos:
      return EmitCos(b, x);
    case Opcode::kTan:
      return EmitTan(b, x);
    default:
      return NotDefinedFor(inst, type);
  }
}

absl::StatusOr<Value*> Binary(llvm::IRBuilderBase& b, const Instruction& inst,
                              Value* x, Value* y, PrimitiveType type) {
  const Opcode op = inst.opcode();
  switch (op) {
    case Opcode::kAnd:
      if (!IsFloat(type)) return b.CreateAnd(x, y);
      break;
    case Opcode::kOr:
      if (!IsFloat(type)) return b.CreateOr(x, y);
      break;
    case Opcode::kXor:
      if (!IsFloat(type)) return b.CreateXor(x, y);
      break;
    case Opcode::kMaximum:
      return EmitMax(b, x, y, type);
    case Opcode::kMinimum:
      return EmitMin(b, x, y, type);
    default:
      break;
  }
  if (type == PrimitiveType::kPred) {
    if (op == Opcode::kAdd) return b.CreateOr(x, y);
    if (op == Opcode::kMultiply) return b.CreateAnd(x, y);
    if (op == Opcode::kPower) return b.CreateOr(x, b.CreateNot(y));
    return NotDefinedFor(inst, type);
  }
  if (IsInteger(type)) {
    const bool is_signed = IsSignedInt(type);
    switch (op) {
      case Opcode::kAdd:
        return b.CreateAdd(x, y);
      case Opcode::kSubtract:
        return b.CreateSub(x, y);
      case Opcode::kMultiply:
        return b.CreateMul(x, y);
      case Opcode::kDivide:
        return IntDivide(b, x, y, is_signed, /*remainder=*/false);
      case Opcode::kRemainder:
        return IntDivide(b, x, y, is_signed, /*remainder=*/true);
      case Opcode::kPower:
        return IntPower(b, x, y, is_signed);
      case Opcode::kShiftLeft:
        return Shift(b, x, y, ShiftKind::kLeft);
      case Opcode::kShiftRightLogical:
        return Shift(b, x, y, ShiftKind::kRightLogical);
      case Opcode::kShiftRightArithmetic:
        return Shift(b, x, y, ShiftKind::kRightArithmetic);
      default:
        return NotDefinedFor(inst, type);
    }
  }
  switch (op) {
    case Opcode::kAdd:
      return b.CreateFAdd(x, y);
    case Opcode::kSubtract:
      return b.CreateFSub(x, y);
    case Opcode::kMultiply:
      return b.CreateFMul(x, y);
    case Opcode::kDivide:
      return b.CreateFDiv(x, y);
    case Opcode::kRemainder:
      return EmitFmod(b, x, y);
    case Opcode::kAtan2:
      return EmitAtan2(b, x, y);
    case Opcode::kPower:
      return EmitPow(b, x, y);
    default:
      return NotDefinedFor(inst, type);
  }
}

}  // namespace

Value* EmitMax(llvm::IRBuilderBase& b, Value* x, Value* y, PrimitiveType type) {
  if (!IsFloat(type)) {
    const bool is_signed = IsSignedInt(type);
    return b.CreateSelect(is_signed ? b.CreateICmpSGT(x, y) : b.CreateICmpUGT(x, y),
                          x, y);
  }
  // NaN wins (the first NaN); max(-0, +0) = +0.
  Value* r = b.CreateSelect(b.CreateFCmpOGT(x, y), x, y);
  Value* equal = b.CreateFCmpOEQ(x, y);
  Value* x_negative = b.CreateICmpSLT(
      b.CreateBitCast(x, b.getIntNTy(x->getType()->getPrimitiveSizeInBits())),
      llvm::ConstantInt::get(
          b.getIntNTy(x->getType()->getPrimitiveSizeInBits()), 0));
  r = b.CreateSelect(equal, b.CreateSelect(x_negative, y, x), r);
  r = b.CreateSelect(IsNan(b, y), y, r);
  return b.CreateSelect(IsNan(b, x), x, r);
}

Value* EmitMin(llvm::IRBuilderBase& b, Value* x, Value* y, PrimitiveType type) {
  if (!IsFloat(type)) {
    const bool is_signed = IsSignedInt(type);
    return b.CreateSelect(is_signed ? b.CreateICmpSLT(x, y) : b.CreateICmpULT(x, y),
                          x, y);
  }
  Value* r = b.CreateSelect(b.CreateFCmpOLT(x, y), x, y);
  Value* equal = b.CreateFCmpOEQ(x, y);
  Value* x_negative = b.CreateICmpSLT(
      b.CreateBitCast(x, b.getIntNTy(x->getType()->getPrimitiveSizeInBits())),
      llvm::ConstantInt::get(
          b.getIntNTy(x->getType()->getPrimitiveSizeInBits()), 0));
  r = b.CreateSelect(equal, b.CreateSelect(x_negative, x, y), r);
  r = b.CreateSelect(IsNan(b, y), y, r);
  return b.CreateSelect(IsNan(b, x), x, r);
}

Value* EmitConvert(llvm::IRBuilderBase& b, Value* v, PrimitiveType from,
                   PrimitiveType to) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::Type* to_type = ComputeType(ctx, to);
  if (from == to) return v;
  if (IsComplex(from) || IsComplex(to)) {
    return EmitComplexConvert(b, v, from, to);
  }
  if (IsMinifloat(to)) {
    // One rounding from the exact source value: integers through double
    // (exact below 2^53; only f8e8m0fnu has range beyond), every float
    // type's compute value is float or double.
    Value* wide = v;
    if (from == PrimitiveType::kPred) {
      wide = b.CreateUIToFP(v, b.getFloatTy());
    } else if (IsInteger(from)) {
      wide = IsSignedInt(from) ? b.CreateSIToFP(v, b.getDoubleTy())
                               : b.CreateUIToFP(v, b.getDoubleTy());
    }
    return StorageToCompute(b, EmitToMinifloat(b, wide, GetMinifloatFormat(to)),
                            to);
  }
  if (to == PrimitiveType::kPred) {
    if (IsFloat(from)) {
      return b.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
    }
    return b.CreateICmpNE(v, IntConst(v, 0));
  }
  if (from == PrimitiveType::kPred) {
    if (IsFloat(to)) return b.CreateUIToFP(v, to_type);
    return b.CreateZExt(v, to_type);
  }
  if (IsInteger(from)) {
    const bool is_signed = IsSignedInt(from);
    if (IsInteger(to)) return b.CreateIntCast(v, to_type, is_signed);
    if (IsHalfFloat(to)) {
      // Exact in double for |v| < 2^53; beyond that f16 overflows anyway.
      Value* d = is_signed ? b.CreateSIToFP(v, b.getDoubleTy())
                           : b.CreateUIToFP(v, b.getDoubleTy());
      Value* bits = to == PrimitiveType::kF16 ? EmitDoubleToHalf(b, d)
                                              : EmitDoubleToBF16(b, d);
      return StorageToCompute(b, bits, to);
    }
    return is_signed ? b.CreateSIToFP(v, to_type) : b.CreateUIToFP(v, to_type);
  }
  // A float source (its compute value is float or double).
  if (IsInteger(to)) {
    const bool is_signed = IsSignedInt(to);
    return b.CreateIntrinsic(
        is_signed ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat,
        {to_type, v->getType()}, {v});
  }
  if (IsHalfFloat(to)) {
    Value* bits;
    if (v->getType()->isDoubleTy()) {
      bits = to == PrimitiveType::kF16 ? EmitDoubleToHalf(b, v)
                                       : EmitDoubleToBF16(b, v);
    } else {
      bits = to == PrimitiveType::kF16 ? EmitFloatToHalf(b, v)
                                       : EmitFloatToBF16(b, v);
    }
    return StorageToCompute(b, bits, to);
  }
  if (v->getType() == to_type) return v;
  return to == PrimitiveType::kF64 ? b.CreateFPExt(v, to_type)
                                   : b.CreateFPTrunc(v, to_type);
}

absl::StatusOr<Value*> EmitElementwise(llvm::IRBuilderBase& b,
                                       const Instruction& inst,
                                       const std::vector<Value*>& operands) {
  const Opcode op = inst.opcode();
  const PrimitiveType result_type = inst.shape().element_type();
  const PrimitiveType operand_type =
      inst.operand(op == Opcode::kSelect ? 1 : 0)->shape().element_type();
  const bool any_complex = IsComplex(operand_type) || IsComplex(result_type);
  if (any_complex && op != Opcode::kConvert && op != Opcode::kSelect &&
      op != Opcode::kBitcastConvert) {
    return EmitComplexElementwise(b, inst, operands);
  }
  Value* r = nullptr;
  switch (op) {
    case Opcode::kConvert:
      return EmitConvert(b, operands[0], operand_type, result_type);
    case Opcode::kBitcastConvert:
      return BitcastConvert(b, operands[0], operand_type, result_type);
    case Opcode::kReducePrecision:
      return ReducePrecision(b, inst, operands[0], operand_type);
    case Opcode::kCompare:
      return Compare(b, inst, operands[0], operands[1], operand_type);
    case Opcode::kSelect:
      return b.CreateSelect(operands[0], operands[1], operands[2]);
    case Opcode::kClamp:
      return EmitMin(b, EmitMax(b, operands[1], operands[0], result_type),
                     operands[2], result_type);
    default:
      break;
  }
  if (operands.size() == 1) {
    ASSIGN_OR_RETURN(r, Unary(b, inst, operands[0], operand_type));
  } else if (operands.size() == 2) {
    ASSIGN_OR_RETURN(r, Binary(b, inst, operands[0], operands[1], operand_type));
  } else {
    return NotDefinedFor(inst, operand_type);
  }
  return RoundToStorage(b, r, result_type);
}

PrimitiveType SumOfProductsType(PrimitiveType result) {
  if (IsMinifloat(result)) return PrimitiveType::kF32;
  if (!IsSubByteInt(result)) return result;
  return IsSignedInt(result) ? PrimitiveType::kS8 : PrimitiveType::kU8;
}

Value* EmitMultiplyAdd(llvm::IRBuilderBase& b, Value* sum, Value* x, Value* y,
                      PrimitiveType type) {
  if (type == PrimitiveType::kPred) return b.CreateOr(sum, b.CreateAnd(x, y));
  if (IsInteger(type)) return b.CreateAdd(sum, b.CreateMul(x, y));
  if (IsComplex(type)) return b.CreateFAdd(sum, EmitComplexMultiply(b, x, y));
  return b.CreateFAdd(sum, b.CreateFMul(x, y));
}

}  // namespace aotc::codegen
