// Fp: the IR-building vocabulary shared by aotc's math emitters.
//
// An Fp wraps an IRBuilderBase and one floating-point type (float or double,
// scalar or fixed vector) together with the integer type of the same shape
// and width. Constants are splatted to the shape, so every emitter is written
// once for scalars and vectors, and once for both widths where the algorithm
// only differs in constants. Everything here is branch-free and uses only
// the intrinsics listed in math_emitter.h.
#ifndef AOTC_CODEGEN_ELEMENTAL_MATH_MATH_BUILDER_H_
#define AOTC_CODEGEN_ELEMENTAL_MATH_MATH_BUILDER_H_

#include <cstdint>
#include <span>

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Value.h"

namespace aotc::codegen::math_internal {

// An unevaluated sum hi + lo with |lo| <= ulp(hi) / 2 (a double-double or
// float-float value).
struct Dd {
  llvm::Value* hi;
  llvm::Value* lo;
};

class Fp {
 public:
  // `type` must be float or double, scalar or a fixed vector of them.
  Fp(llvm::IRBuilderBase& b, llvm::Type* type);

  // The same shape with element type `element` (e.g. double for a float Fp).
  Fp WithElement(llvm::Type* element) const;

  llvm::IRBuilderBase& b() const { return b_; }
  llvm::Type* type() const { return type_; }
  llvm::Type* int_type() const { return int_type_; }
  bool is_f64() const { return is_f64_; }
  // Stored mantissa bits (23 or 52) and exponent bias (127 or 1023).
  int mantissa_bits() const { return is_f64_ ? 52 : 23; }
  int bias() const { return is_f64_ ? 1023 : 127; }

  // A constant of this type (rounded to it), or chosen by width.
  llvm::Value* C(double v) const;
  llvm::Value* C(double f32, double f64) const {
    return C(is_f64_ ? f64 : f32);
  }
  llvm::Value* I(int64_t v) const;
  llvm::Value* I(int64_t f32, int64_t f64) const {
    return I(is_f64_ ? f64 : f32);
  }
  // The coefficient table that matches the width.
  template <size_t N32, size_t N64>
  std::span<const double> Table(const double (&f32)[N32],
                                const double (&f64)[N64]) const {
    if (is_f64_) return f64;
    return f32;
  }
  llvm::Value* Inf() const;
  llvm::Value* NaN() const;
  // The smallest positive normal number.
  llvm::Value* MinNormal() const;

  llvm::Value* Add(llvm::Value* a, llvm::Value* c) const;
  llvm::Value* Sub(llvm::Value* a, llvm::Value* c) const;
  llvm::Value* Mul(llvm::Value* a, llvm::Value* c) const;
  llvm::Value* Div(llvm::Value* a, llvm::Value* c) const;
  llvm::Value* Neg(llvm::Value* a) const;
  // a * c + d, fused or not as the target prefers (llvm.fmuladd).
  llvm::Value* MulAdd(llvm::Value* a, llvm::Value* c, llvm::Value* d) const;
  llvm::Value* Abs(llvm::Value* a) const;
  // |magnitude| with the sign bit of `sign`.
  llvm::Value* CopySign(llvm::Value* magnitude, llvm::Value* sign) const;
  llvm::Value* Sqrt(llvm::Value* a) const;
  llvm::Value* Select(llvm::Value* cond, llvm::Value* t, llvm::Value* f) const;
  // Ordered comparisons (false when either side is NaN) and IsNaN.
  llvm::Value* Lt(llvm::Value* a, llvm::Value* c) const;
  llvm::Value* Le(llvm::Value* a, llvm::Value* c) const;
  llvm::Value* Gt(llvm::Value* a, llvm::Value* c) const;
  llvm::Value* Ge(llvm::Value* a, llvm::Value* c) const;
  llvm::Value* Eq(llvm::Value* a, llvm::Value* c) const;
  llvm::Value* IsNaN(llvm::Value* a) const;
  // True where the sign bit is set (including -0 and negative NaNs).
  llvm::Value* SignBit(llvm::Value* a) const;
  // Clamps into [lo, hi]; NaN stays NaN.
  llvm::Value* Clamp(llvm::Value* a, llvm::Value* lo, llvm::Value* hi) const;
  llvm::Value* And(llvm::Value* p, llvm::Value* q) const;
  llvm::Value* Or(llvm::Value* p, llvm::Value* q) const;
  llvm::Value* Not(llvm::Value* p) const;

  llvm::Value* ToBits(llvm::Value* a) const;
  llvm::Value* FromBits(llvm::Value* i) const;
  // sitofp for |i| < 2^(mantissa_bits - 1), written as integer and float adds
  // so that it vectorizes without 64-bit integer conversions.
  llvm::Value* IntToFp(llvm::Value* i) const;
  // 2^n for an integer n in the normal exponent range.
  llvm::Value* Exp2Int(llvm::Value* n) const;
  // a * 2^n for |n| < 2 * bias, in two exact steps so that both the huge and
  // the subnormal results round only once.
  llvm::Value* Ldexp(llvm::Value* a, llvm::Value* n) const;

  // Rounds to the nearest integer, ties to even, for |a| < 2^(mantissa_bits
  // - 1); `n` receives the integer.
  llvm::Value* RoundToInt(llvm::Value* a, llvm::Value** n) const;
  // nearbyint(|a|) for any |a| (NaN stays NaN).
  llvm::Value* RoundAbsHalfEven(llvm::Value* abs_a) const;

  // c[0] + x * (c[1] + x * (c[2] + ...)).
  llvm::Value* Horner(llvm::Value* x, std::span<const double> c) const;

  // Error-free transformations (no fused multiply-add needed).
  Dd TwoSum(llvm::Value* a, llvm::Value* c) const;
  // Requires |a| >= |c| or a == 0.
  Dd FastTwoSum(llvm::Value* a, llvm::Value* c) const;
  Dd TwoProd(llvm::Value* a, llvm::Value* c) const;

 private:
  Dd Split(llvm::Value* a) const;
  llvm::Value* Intrinsic(unsigned id, llvm::ArrayRef<llvm::Value*> args) const;

  llvm::IRBuilderBase& b_;
  llvm::Type* type_;
  llvm::Type* int_type_;
  bool is_f64_;
};

// Whether `type` is float or double, scalar or fixed vector.
bool IsMathType(llvm::Type* type);

}  // namespace aotc::codegen::math_internal

#endif  // AOTC_CODEGEN_ELEMENTAL_MATH_MATH_BUILDER_H_
