// 8-, 6- and 4-bit floats <-> float / double on their bits, one generic
// emitter driven by the format's exponent bits, mantissa bits, bias and
// special-value conventions (compiler/ir/minifloat.h).
//
// Like the f16 conversions, these are integer operations and selects, so they
// vectorize and never become library calls. Decoding is exact: every value
// of every format is a float. Encoding mirrors DoubleToMinifloat in
// compiler/ir/minifloat.cc bit for bit: in the format's normal range the
// source's bits are rebiased and rounded on the dropped mantissa bits by
// adding 0111...1 plus the lowest kept bit (a carry into the exponent is the
// correct result); below it, adding a power of two whose ulp is the format's
// smallest subnormal makes the FPU round to nearest even. f8e8m0fnu has no
// mantissa: its ties round up, as minifloat.cc's nearbyint of 1.5 does.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "codegen/elemental/math/math_builder.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/math/math_internal.h"
#include "compiler/ir/minifloat.h"
#include "compiler/support/check.h"

namespace aotc::codegen {
namespace math_internal {
namespace {

int64_t Mask(int bits) { return (int64_t{1} << bits) - 1; }

llvm::Type* Like(llvm::Type* like, llvm::Type* element) {
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(like)) {
    return llvm::FixedVectorType::get(element, vector->getNumElements());
  }
  return element;
}

int64_t SignBit(const MinifloatFormat& f) {
  return f.has_sign ? int64_t{1} << (f.exponent_bits + f.mantissa_bits) : 0;
}

// The bits of the float v.
int64_t FloatBits(float v) { return std::bit_cast<uint32_t>(v); }

llvm::Value* DecodeImpl(llvm::IRBuilderBase& b, llvm::Value* bits,
                        const MinifloatFormat& f) {
  llvm::Type* i32 = Like(bits->getType(), b.getInt32Ty());
  llvm::Type* float_type = Like(bits->getType(), b.getFloatTy());
  auto c = [&](int64_t v) { return llvm::ConstantInt::get(i32, v); };
  const int e = f.exponent_bits;
  const int m = f.mantissa_bits;
  const int width = e + m + (f.has_sign ? 1 : 0);
  llvm::Value* v = b.CreateAnd(b.CreateZExt(bits, i32), c(Mask(width)));
  llvm::Value* exp = b.CreateAnd(b.CreateLShr(v, m), c(Mask(e)));
  llvm::Value* man = b.CreateAnd(v, c(Mask(m)));
  llvm::Value* sign = b.CreateShl(b.CreateAnd(v, c(SignBit(f))), 31 - (e + m));
  // A non-zero exponent field: rebias to float's 127, mantissa to the top.
  llvm::Value* normal =
      b.CreateOr(b.CreateShl(b.CreateAdd(exp, c(127 - f.bias)), 23),
                 b.CreateShl(man, 23 - m));
  // A zero exponent field: subnormal man * 2^(1 - bias - m), exact in float;
  // e8m0fnu's is its smallest value 2^-127 (a float subnormal).
  llvm::Value* low;
  if (m > 0) {
    llvm::Value* scaled = b.CreateFMul(
        b.CreateUIToFP(man, float_type),
        llvm::ConstantFP::get(float_type, std::ldexp(1.0, 1 - f.bias - m)));
    low = b.CreateBitCast(scaled, i32);
  } else {
    low = c(FloatBits(std::ldexp(1.0f, -f.bias)));
  }
  llvm::Value* magnitude =
      b.CreateSelect(b.CreateICmpEQ(exp, c(0)), low, normal);
  llvm::Value* exp_ones = b.CreateICmpEQ(exp, c(Mask(e)));
  if (f.has_inf) {
    llvm::Value* is_inf = b.CreateAnd(exp_ones, b.CreateICmpEQ(man, c(0)));
    magnitude = b.CreateSelect(is_inf, c(0x7f800000), magnitude);
  }
  llvm::Value* result = b.CreateOr(magnitude, sign);
  // NaNs decode to the quiet NaN with their sign (minifloat.cc's +-NAN); the
  // fnuz NaN 0x80 is positive.
  llvm::Value* quiet_nan = b.CreateOr(c(0x7fc00000), sign);
  switch (f.nan) {
    case MinifloatNan::kIeee:
      result = b.CreateSelect(b.CreateAnd(exp_ones, b.CreateICmpNE(man, c(0))),
                              quiet_nan, result);
      break;
    case MinifloatNan::kAllOnes:
      result =
          b.CreateSelect(b.CreateAnd(exp_ones, b.CreateICmpEQ(man, c(Mask(m)))),
                         quiet_nan, result);
      break;
    case MinifloatNan::kNegativeZero:
      result =
          b.CreateSelect(b.CreateICmpEQ(v, c(0x80)), c(0x7fc00000), result);
      break;
    case MinifloatNan::kNone:
      break;
  }
  return b.CreateBitCast(result, float_type);
}

llvm::Value* EncodeImpl(const Fp& fp, llvm::Value* x,
                        const MinifloatFormat& f) {
  llvm::IRBuilderBase& b = fp.b();
  const int e = f.exponent_bits;
  const int m = f.mantissa_bits;
  const int src_m = fp.mantissa_bits();
  const int shift = src_m - m;
  auto bits_of = [&](double v) { return fp.ToBits(fp.C(v)); };

  llvm::Value* u = fp.ToBits(x);
  llvm::Value* negative = b.CreateICmpSLT(u, fp.I(0));
  llvm::Value* a = b.CreateAnd(u, fp.I(fp.is_f64() ? INT64_MAX : INT32_MAX));

  // The format's normal range: rebias, round on the dropped bits.
  llvm::Value* lsb =
      m > 0 ? b.CreateAnd(b.CreateLShr(a, shift), fp.I(1)) : fp.I(1);
  llvm::Value* normal =
      b.CreateSub(a, fp.I(int64_t{fp.bias() - f.bias} << src_m));
  normal = b.CreateAdd(normal,
                       b.CreateAdd(fp.I((int64_t{1} << (shift - 1)) - 1), lsb));
  normal = b.CreateLShr(normal, shift);

  // Below it: subnormals, or for e8m0fnu (whose smallest value 2^-127 is
  // below float's normal range) the choice between the encodings 0 and 1.
  double min_normal;
  llvm::Value* low;
  if (m > 0) {
    min_normal = std::ldexp(1.0, 1 - f.bias);
    llvm::Value* magic = fp.C(std::ldexp(1.0, src_m + 1 - f.bias - m));
    low =
        b.CreateSub(fp.ToBits(fp.Add(fp.FromBits(a), magic)), fp.ToBits(magic));
  } else {
    min_normal =
        std::max(std::ldexp(1.0, -f.bias), std::ldexp(1.0, 1 - fp.bias()));
    low = b.CreateZExt(
        b.CreateICmpUGE(a, bits_of(1.5 * std::ldexp(1.0, -f.bias))),
        fp.int_type());
  }
  llvm::Value* magnitude =
      b.CreateSelect(b.CreateICmpUGE(a, bits_of(min_normal)), normal, low);

  llvm::Value* sign = b.CreateSelect(negative, fp.I(SignBit(f)), fp.I(0));
  const int64_t exp_ones = Mask(e) << m;
  llvm::Value* nan;
  switch (f.nan) {
    case MinifloatNan::kIeee:
      nan = b.CreateOr(sign, fp.I(exp_ones | (int64_t{1} << (m - 1))));
      break;
    case MinifloatNan::kAllOnes:
      nan = b.CreateOr(sign, fp.I(exp_ones | Mask(m)));
      break;
    case MinifloatNan::kNegativeZero:
      nan = fp.I(0x80);
      break;
    case MinifloatNan::kNone:
      // No NaN: minifloat.cc encodes it as +0.
      nan = fp.I(0);
      break;
  }
  llvm::Value* overflow;
  if (f.has_inf) {
    overflow = b.CreateOr(sign, fp.I(exp_ones));
  } else if (f.nan != MinifloatNan::kNone) {
    overflow = nan;
  } else {
    overflow = b.CreateOr(sign, fp.I(MaxFiniteMagnitude(f)));
  }

  llvm::Value* result = b.CreateOr(sign, magnitude);
  if (f.nan == MinifloatNan::kNegativeZero) {
    // No negative zero: 0x80 is the NaN.
    result =
        b.CreateSelect(b.CreateICmpEQ(magnitude, fp.I(0)), fp.I(0), result);
  }
  result = b.CreateSelect(
      b.CreateICmpUGT(magnitude, fp.I(MaxFiniteMagnitude(f))), overflow,
      result);
  if (!f.has_sign) {
    // An unsigned format has no negative numbers: they are NaN.
    llvm::Value* below_zero = b.CreateAnd(negative, b.CreateICmpNE(a, fp.I(0)));
    result = b.CreateSelect(below_zero, nan, result);
  }
  result = b.CreateSelect(fp.IsNaN(x), nan, result);
  return b.CreateTrunc(result, Like(x->getType(), b.getInt8Ty()));
}

}  // namespace
}  // namespace math_internal

llvm::Value* EmitMinifloatToFloat(llvm::IRBuilderBase& b, llvm::Value* bits,
                                  const MinifloatFormat& format) {
  AOTC_CHECK(bits->getType()->getScalarType()->isIntegerTy(8),
             "minifloat conversion expects i8 bits");
  llvm::IRBuilderBase::FastMathFlagGuard guard(b);
  b.clearFastMathFlags();
  return math_internal::DecodeImpl(b, bits, format);
}

llvm::Value* EmitToMinifloat(llvm::IRBuilderBase& b, llvm::Value* x,
                             const MinifloatFormat& format) {
  return math_internal::WithFp(b, x, [&](const math_internal::Fp& f) {
    return math_internal::EncodeImpl(f, x, format);
  });
}

}  // namespace aotc::codegen
