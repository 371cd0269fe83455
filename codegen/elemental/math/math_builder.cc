// Fp: constants, arithmetic, bit tricks and error-free transformations.
#include "codegen/elemental/math/math_builder.h"

#include <cmath>
#include <limits>

#include "compiler/support/check.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Intrinsics.h"

namespace aotc::codegen::math_internal {

bool IsMathType(llvm::Type* type) {
  llvm::Type* element = type->getScalarType();
  if (!element->isFloatTy() && !element->isDoubleTy()) return false;
  return !type->isVectorTy() || llvm::isa<llvm::FixedVectorType>(type);
}

Fp::Fp(llvm::IRBuilderBase& b, llvm::Type* type)
    : b_(b), type_(type), is_f64_(type->getScalarType()->isDoubleTy()) {
  AOTC_CHECK(IsMathType(type),
             "math emitters take float or double scalars or fixed vectors");
  llvm::Type* int_element = b.getIntNTy(is_f64_ ? 64 : 32);
  int_type_ = int_element;
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    int_type_ =
        llvm::FixedVectorType::get(int_element, vector->getNumElements());
  }
}

Fp Fp::WithElement(llvm::Type* element) const {
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type_)) {
    return Fp(b_,
              llvm::FixedVectorType::get(element, vector->getNumElements()));
  }
  return Fp(b_, element);
}

llvm::Value* Fp::C(double v) const { return llvm::ConstantFP::get(type_, v); }

llvm::Value* Fp::I(int64_t v) const {
  return llvm::ConstantInt::get(int_type_, static_cast<uint64_t>(v),
                                /*IsSigned=*/true);
}

llvm::Value* Fp::Inf() const {
  return C(std::numeric_limits<double>::infinity());
}

llvm::Value* Fp::NaN() const {
  return C(std::numeric_limits<double>::quiet_NaN());
}

llvm::Value* Fp::MinNormal() const { return C(std::ldexp(1.0, 1 - bias())); }

llvm::Value* Fp::Add(llvm::Value* a, llvm::Value* c) const {
  return b_.CreateFAdd(a, c);
}
llvm::Value* Fp::Sub(llvm::Value* a, llvm::Value* c) const {
  return b_.CreateFSub(a, c);
}
llvm::Value* Fp::Mul(llvm::Value* a, llvm::Value* c) const {
  return b_.CreateFMul(a, c);
}
llvm::Value* Fp::Div(llvm::Value* a, llvm::Value* c) const {
  return b_.CreateFDiv(a, c);
}
llvm::Value* Fp::Neg(llvm::Value* a) const { return b_.CreateFNeg(a); }

llvm::Value* Fp::Intrinsic(unsigned id,
                           llvm::ArrayRef<llvm::Value*> args) const {
  return b_.CreateIntrinsic(static_cast<llvm::Intrinsic::ID>(id),
                            {args[0]->getType()}, args);
}

llvm::Value* Fp::MulAdd(llvm::Value* a, llvm::Value* c, llvm::Value* d) const {
  return Intrinsic(llvm::Intrinsic::fmuladd, {a, c, d});
}
llvm::Value* Fp::Abs(llvm::Value* a) const {
  return Intrinsic(llvm::Intrinsic::fabs, {a});
}
llvm::Value* Fp::CopySign(llvm::Value* magnitude, llvm::Value* sign) const {
  return Intrinsic(llvm::Intrinsic::copysign, {magnitude, sign});
}
llvm::Value* Fp::Sqrt(llvm::Value* a) const {
  return Intrinsic(llvm::Intrinsic::sqrt, {a});
}

llvm::Value* Fp::Select(llvm::Value* cond, llvm::Value* t,
                        llvm::Value* f) const {
  return b_.CreateSelect(cond, t, f);
}

llvm::Value* Fp::Lt(llvm::Value* a, llvm::Value* c) const {
  return b_.CreateFCmpOLT(a, c);
}
llvm::Value* Fp::Le(llvm::Value* a, llvm::Value* c) const {
  return b_.CreateFCmpOLE(a, c);
}
llvm::Value* Fp::Gt(llvm::Value* a, llvm::Value* c) const {
  return b_.CreateFCmpOGT(a, c);
}
llvm::Value* Fp::Ge(llvm::Value* a, llvm::Value* c) const {
  return b_.CreateFCmpOGE(a, c);
}
llvm::Value* Fp::Eq(llvm::Value* a, llvm::Value* c) const {
  return b_.CreateFCmpOEQ(a, c);
}
llvm::Value* Fp::IsNaN(llvm::Value* a) const { return b_.CreateFCmpUNO(a, a); }

llvm::Value* Fp::SignBit(llvm::Value* a) const {
  return b_.CreateICmpSLT(ToBits(a), I(0));
}

llvm::Value* Fp::Clamp(llvm::Value* a, llvm::Value* lo, llvm::Value* hi) const {
  return Select(Gt(a, hi), hi, Select(Lt(a, lo), lo, a));
}

llvm::Value* Fp::And(llvm::Value* p, llvm::Value* q) const {
  return b_.CreateAnd(p, q);
}
llvm::Value* Fp::Or(llvm::Value* p, llvm::Value* q) const {
  return b_.CreateOr(p, q);
}
llvm::Value* Fp::Not(llvm::Value* p) const { return b_.CreateNot(p); }

llvm::Value* Fp::ToBits(llvm::Value* a) const {
  return b_.CreateBitCast(a, int_type_);
}
llvm::Value* Fp::FromBits(llvm::Value* i) const {
  return b_.CreateBitCast(i, type_);
}

// 1.5 * 2^mantissa_bits: adding it to |v| < 2^(mantissa_bits - 1) leaves a
// sum in one binade whose ulp is 1, so the sum is v rounded to an integer and
// its low bits are that integer.
static double Shifter(const Fp& f) {
  return 1.5 * std::ldexp(1.0, f.mantissa_bits());
}

llvm::Value* Fp::IntToFp(llvm::Value* i) const {
  llvm::Value* shifter = C(Shifter(*this));
  return Sub(FromBits(b_.CreateAdd(i, ToBits(shifter))), shifter);
}

llvm::Value* Fp::Exp2Int(llvm::Value* n) const {
  return FromBits(b_.CreateShl(b_.CreateAdd(n, I(bias())), mantissa_bits()));
}

llvm::Value* Fp::Ldexp(llvm::Value* a, llvm::Value* n) const {
  llvm::Value* n1 = b_.CreateAShr(n, 1);
  llvm::Value* n2 = b_.CreateSub(n, n1);
  return Mul(Mul(a, Exp2Int(n1)), Exp2Int(n2));
}

llvm::Value* Fp::RoundToInt(llvm::Value* a, llvm::Value** n) const {
  llvm::Value* shifter = C(Shifter(*this));
  llvm::Value* k = Add(a, shifter);
  *n = b_.CreateSub(ToBits(k), ToBits(shifter));
  return Sub(k, shifter);
}

llvm::Value* Fp::RoundAbsHalfEven(llvm::Value* abs_a) const {
  // From 2^mantissa_bits on every value is an integer; below it, adding that
  // power of two rounds away the fraction (to even, the default mode).
  llvm::Value* two_p = C(std::ldexp(1.0, mantissa_bits()));
  llvm::Value* rounded = Sub(Add(abs_a, two_p), two_p);
  return Select(Lt(abs_a, two_p), rounded, abs_a);
}

llvm::Value* Fp::Horner(llvm::Value* x, std::span<const double> c) const {
  AOTC_CHECK(!c.empty(), "empty polynomial");
  llvm::Value* acc = C(c.back());
  for (size_t k = c.size() - 1; k-- > 0;) acc = MulAdd(acc, x, C(c[k]));
  return acc;
}

Dd Fp::TwoSum(llvm::Value* a, llvm::Value* c) const {
  llvm::Value* s = Add(a, c);
  llvm::Value* c_part = Sub(s, a);
  llvm::Value* a_part = Sub(s, c_part);
  llvm::Value* err = Add(Sub(a, a_part), Sub(c, c_part));
  return {s, err};
}

Dd Fp::FastTwoSum(llvm::Value* a, llvm::Value* c) const {
  llvm::Value* s = Add(a, c);
  return {s, Sub(c, Sub(s, a))};
}

// Veltkamp's split: a = hi + lo with each half fitting in half the mantissa,
// so products of halves are exact. Needs |a| < 2^996 (f64) to not overflow.
Dd Fp::Split(llvm::Value* a) const {
  double factor = std::ldexp(1.0, is_f64_ ? 27 : 12) + 1;
  llvm::Value* t = Mul(a, C(factor));
  llvm::Value* hi = Sub(t, Sub(t, a));
  return {hi, Sub(a, hi)};
}

// Dekker's product: a * c = p + err exactly (barring underflow).
Dd Fp::TwoProd(llvm::Value* a, llvm::Value* c) const {
  llvm::Value* p = Mul(a, c);
  Dd sa = Split(a);
  Dd sc = Split(c);
  llvm::Value* err = Sub(Mul(sa.hi, sc.hi), p);
  err = Add(err, Mul(sa.hi, sc.lo));
  err = Add(err, Mul(sa.lo, sc.hi));
  err = Add(err, Mul(sa.lo, sc.lo));
  return {p, err};
}

}  // namespace aotc::codegen::math_internal
