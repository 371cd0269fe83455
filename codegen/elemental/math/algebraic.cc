// sqrt, rsqrt and cbrt.
//
// sqrt is llvm.sqrt (a correctly rounded instruction on every 64-bit target)
// and rsqrt divides by it. cbrt starts from a bit-pattern guess (the exponent
// divided by three, within 3.2%), then refines in double: two Halley steps,
// which triple the correct digits each, and for f64 a final Newton step
// written as a small correction so that its rounding errors stay below an ulp.
#include <cmath>

#include "codegen/elemental/math/math_builder.h"
#include "codegen/elemental/math/math_coefficients.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/math/math_internal.h"

namespace aotc::codegen {
namespace math_internal {
namespace {

// bits(y) = bits(a) / 3 + K approximates cbrt(a) for positive normal a; for
// f64 the division is done on the upper 32 bits, which keeps it a 32-bit
// (vectorizable) division by a constant.
llvm::Value* CbrtGuess(const Fp& f, llvm::Value* a) {
  llvm::IRBuilderBase& b = f.b();
  llvm::Value* bits = f.ToBits(a);
  if (!f.is_f64()) {
    return f.FromBits(
        b.CreateAdd(b.CreateUDiv(bits, f.I(3)), f.I(kCbrtGuessF32)));
  }
  llvm::Type* i32 = b.getInt32Ty();
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(f.type())) {
    i32 = llvm::FixedVectorType::get(i32, vector->getNumElements());
  }
  llvm::Value* hi = b.CreateTrunc(b.CreateLShr(bits, 32), i32);
  hi = b.CreateAdd(b.CreateUDiv(hi, llvm::ConstantInt::get(i32, 3)),
                   llvm::ConstantInt::get(i32, kCbrtGuessF64));
  return f.FromBits(b.CreateShl(b.CreateZExt(hi, f.int_type()), 32));
}

llvm::Value* CbrtImpl(const Fp& f, llvm::Value* x) {
  llvm::IRBuilderBase& b = f.b();
  llvm::Value* a = f.Abs(x);
  // Subnormals are scaled by 2^(3j) into the normal range.
  int scale_bits = f.is_f64() ? 54 : 24;
  llvm::Value* subnormal = f.Lt(a, f.MinNormal());
  llvm::Value* as =
      f.Select(subnormal, f.Mul(a, f.C(std::ldexp(1.0, scale_bits))), a);
  llvm::Value* y = CbrtGuess(f, as);

  Fp d = f.WithElement(b.getDoubleTy());
  llvm::Value* ad = as;
  if (!f.is_f64()) {
    ad = b.CreateFPExt(as, d.type());
    y = b.CreateFPExt(y, d.type());
  }
  for (int i = 0; i < 2; ++i) {
    // Halley: y (y^3 + 2a) / (2y^3 + a) = y (t + 2) / (2t + 1) with
    // t = y^3 / a, formed without overflowing for a near the maximum.
    llvm::Value* t = d.Mul(d.Mul(y, y), d.Div(y, ad));
    y = d.Mul(y, d.Div(d.Add(t, d.C(2)), d.MulAdd(t, d.C(2), d.C(1))));
  }
  if (f.is_f64()) {
    // Newton: y - (y - a / y^2) / 3.
    llvm::Value* diff = d.Sub(y, d.Div(ad, d.Mul(y, y)));
    y = d.Sub(y, d.Mul(diff, d.C(1.0 / 3)));
  }
  y = d.Mul(y,
            d.Select(subnormal, d.C(std::ldexp(1.0, -scale_bits / 3)), d.C(1)));
  if (!f.is_f64()) y = b.CreateFPTrunc(y, f.type());
  llvm::Value* result = f.CopySign(y, x);
  // 0, infinities and NaN are their own cube roots.
  llvm::Value* passthrough =
      f.Or(f.Or(f.Eq(a, f.C(0)), f.Eq(a, f.Inf())), f.IsNaN(x));
  return f.Select(passthrough, x, result);
}

}  // namespace
}  // namespace math_internal

using math_internal::Fp;
using math_internal::WithFp;

llvm::Value* EmitSqrt(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x, [&](const Fp& f) { return f.Sqrt(x); });
}

llvm::Value* EmitRsqrt(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x, [&](const Fp& f) { return f.Div(f.C(1), f.Sqrt(x)); });
}

llvm::Value* EmitCbrt(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x,
                [&](const Fp& f) { return math_internal::CbrtImpl(f, x); });
}

}  // namespace aotc::codegen
