// f16 and bf16 <-> float / double conversions on the raw i16 bits.
//
// Written with integer operations and selects instead of fptrunc / fpext to
// half, which become __truncsfhf2 and friends on x86-64 without F16C. Normal
// results round to nearest even by adding 0111...1 plus the lowest kept bit
// before shifting (a carry into the exponent is the correct result, up to
// infinity). Subnormal results round by adding a power of two whose ulp is
// the target's subnormal step, which the FPU rounds to nearest even. The
// special values match compiler/support/float16.h.
#include <cmath>
#include <cstdint>

#include "codegen/elemental/math/math_builder.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/math/math_internal.h"
#include "compiler/support/check.h"

namespace aotc::codegen {
namespace math_internal {
namespace {

// A 16-bit float format, described by its stored mantissa bits and bias.
struct Format {
  int mantissa;
  int bias;
  int64_t quiet_nan;  // magnitude bits of the NaN a double converts to
};
constexpr Format kHalf = {10, 15, 0x7e00};
constexpr Format kBF16 = {7, 127, 0x7fc0};

// The integer type with `bits` bits in the shape of `like`.
llvm::Type* IntLike(llvm::IRBuilderBase& b, llvm::Type* like, unsigned bits) {
  llvm::Type* element = b.getIntNTy(bits);
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(like)) {
    return llvm::FixedVectorType::get(element, vector->getNumElements());
  }
  return element;
}

llvm::Type* FloatLike(llvm::IRBuilderBase& b, llvm::Type* like) {
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(like)) {
    return llvm::FixedVectorType::get(b.getFloatTy(), vector->getNumElements());
  }
  return b.getFloatTy();
}

// Rounds a float or double (the Fp's type) to `fmt`, returning i16 bits.
llvm::Value* Narrow(const Fp& f, llvm::Value* x, const Format& fmt) {
  llvm::IRBuilderBase& b = f.b();
  int src_mantissa = f.mantissa_bits();
  int shift = src_mantissa - fmt.mantissa;
  int width = f.is_f64() ? 64 : 32;
  llvm::Value* u = f.ToBits(x);
  llvm::Value* sign = b.CreateAnd(b.CreateLShr(u, width - 16), f.I(0x8000));
  int64_t abs_mask = width == 64 ? INT64_MAX : INT32_MAX;
  llvm::Value* a = b.CreateAnd(u, f.I(abs_mask));
  int64_t inf_bits = static_cast<int64_t>(2 * f.bias() + 1) << src_mantissa;
  int64_t fmt_inf = int64_t{2 * fmt.bias + 1} << fmt.mantissa;

  // Normal range: rebias, then round on the `shift` dropped bits.
  int64_t rebias = int64_t{f.bias() - fmt.bias} << src_mantissa;
  llvm::Value* lsb = b.CreateAnd(b.CreateLShr(a, shift), f.I(1));
  llvm::Value* normal = b.CreateSub(a, f.I(rebias));
  normal = b.CreateAdd(normal,
                       b.CreateAdd(f.I((int64_t{1} << (shift - 1)) - 1), lsb));
  normal = b.CreateLShr(normal, shift);

  // Subnormal range: |x| + 2^(src_mantissa - fmt_sub_exp) rounds |x| to a
  // multiple of the format's smallest subnormal 2^fmt_sub_exp.
  int fmt_sub_exp = 1 - fmt.bias - fmt.mantissa;
  llvm::Value* magic = f.C(std::ldexp(1.0, src_mantissa + fmt_sub_exp));
  llvm::Value* subnormal =
      b.CreateSub(f.ToBits(f.Add(f.FromBits(a), magic)), f.ToBits(magic));

  double min_normal = std::ldexp(1.0, 1 - fmt.bias);
  // Halfway between the largest finite value and 2^(bias + 1) rounds up.
  double overflow =
      std::ldexp(2.0 - std::ldexp(1.0, -fmt.mantissa - 1), fmt.bias);
  llvm::Value* result = b.CreateSelect(
      b.CreateICmpUGE(a, f.ToBits(f.C(min_normal))), normal, subnormal);
  result = b.CreateSelect(b.CreateICmpUGE(a, f.ToBits(f.C(overflow))),
                          f.I(fmt_inf), result);
  result = b.CreateSelect(b.CreateICmpUGT(a, f.I(inf_bits)), f.I(fmt.quiet_nan),
                          result);
  result = b.CreateOr(result, sign);
  return b.CreateTrunc(result, IntLike(b, x->getType(), 16));
}

llvm::Value* HalfToFloatImpl(llvm::IRBuilderBase& b, llvm::Value* bits) {
  llvm::Type* i32 = IntLike(b, bits->getType(), 32);
  Fp f(b, FloatLike(b, bits->getType()));
  auto c = [&](int64_t v) { return llvm::ConstantInt::get(i32, v); };
  llvm::Value* h = b.CreateZExt(bits, i32);
  llvm::Value* sign = b.CreateShl(b.CreateAnd(h, c(0x8000)), 16);
  llvm::Value* exp = b.CreateAnd(b.CreateLShr(h, 10), c(0x1f));
  llvm::Value* mant = b.CreateAnd(h, c(0x3ff));
  // Normal: rebias the exponent from 15 to 127.
  llvm::Value* normal =
      b.CreateAdd(b.CreateShl(b.CreateAnd(h, c(0x7fff)), 13), c(112 << 23));
  // Infinity and NaN keep their payload.
  llvm::Value* special = b.CreateOr(c(0x7f800000), b.CreateShl(mant, 13));
  // Subnormal: mant * 2^-24, exact in float.
  llvm::Value* tiny =
      f.ToBits(f.Mul(f.IntToFp(mant), f.C(std::ldexp(1.0, -24))));
  llvm::Value* magnitude = b.CreateSelect(
      b.CreateICmpEQ(exp, c(0)), tiny,
      b.CreateSelect(b.CreateICmpEQ(exp, c(0x1f)), special, normal));
  return f.FromBits(b.CreateOr(magnitude, sign));
}

llvm::Value* FloatToBF16Impl(llvm::IRBuilderBase& b, llvm::Value* x) {
  Fp f(b, x->getType());
  llvm::Value* u = f.ToBits(x);
  llvm::Value* lsb = b.CreateAnd(b.CreateLShr(u, 16), f.I(1));
  llvm::Value* rounded =
      b.CreateLShr(b.CreateAdd(u, b.CreateAdd(f.I(0x7fff), lsb)), 16);
  // A NaN keeps its sign and top payload bits and becomes quiet.
  llvm::Value* nan = b.CreateOr(b.CreateLShr(u, 16), f.I(0x40));
  llvm::Value* result = b.CreateSelect(f.IsNaN(x), nan, rounded);
  return b.CreateTrunc(result, IntLike(b, x->getType(), 16));
}

void CheckSource(llvm::Value* x, bool f64) {
  llvm::Type* element = x->getType()->getScalarType();
  AOTC_CHECK(f64 ? element->isDoubleTy() : element->isFloatTy(),
             "16-bit conversion source has the wrong type");
}

void CheckBits(llvm::Value* bits) {
  AOTC_CHECK(bits->getType()->getScalarType()->isIntegerTy(16),
             "16-bit conversion expects i16 bits");
}

}  // namespace
}  // namespace math_internal

using math_internal::Fp;
using math_internal::WithFp;

llvm::Value* EmitHalfToFloat(llvm::IRBuilderBase& b, llvm::Value* bits) {
  math_internal::CheckBits(bits);
  llvm::IRBuilderBase::FastMathFlagGuard guard(b);
  b.clearFastMathFlags();
  return math_internal::HalfToFloatImpl(b, bits);
}

llvm::Value* EmitFloatToHalf(llvm::IRBuilderBase& b, llvm::Value* x) {
  math_internal::CheckSource(x, /*f64=*/false);
  return WithFp(b, x, [&](const Fp& f) {
    return math_internal::Narrow(f, x, math_internal::kHalf);
  });
}

llvm::Value* EmitDoubleToHalf(llvm::IRBuilderBase& b, llvm::Value* x) {
  math_internal::CheckSource(x, /*f64=*/true);
  return WithFp(b, x, [&](const Fp& f) {
    return math_internal::Narrow(f, x, math_internal::kHalf);
  });
}

llvm::Value* EmitBF16ToFloat(llvm::IRBuilderBase& b, llvm::Value* bits) {
  math_internal::CheckBits(bits);
  llvm::Type* i32 = math_internal::IntLike(b, bits->getType(), 32);
  llvm::Value* wide = b.CreateShl(b.CreateZExt(bits, i32), 16);
  return b.CreateBitCast(wide, math_internal::FloatLike(b, bits->getType()));
}

llvm::Value* EmitFloatToBF16(llvm::IRBuilderBase& b, llvm::Value* x) {
  math_internal::CheckSource(x, /*f64=*/false);
  llvm::IRBuilderBase::FastMathFlagGuard guard(b);
  b.clearFastMathFlags();
  return math_internal::FloatToBF16Impl(b, x);
}

llvm::Value* EmitDoubleToBF16(llvm::IRBuilderBase& b, llvm::Value* x) {
  math_internal::CheckSource(x, /*f64=*/true);
  return WithFp(b, x, [&](const Fp& f) {
    return math_internal::Narrow(f, x, math_internal::kBF16);
  });
}

}  // namespace aotc::codegen
