// Building blocks shared between the math emitter files.
//
// Each *Impl function is the body of the public emitter of the same name,
// taking an Fp so that other emitters can reuse it (pow calls log and exp,
// tanh calls expm1, float pow runs the double versions).
#ifndef AOTC_CODEGEN_ELEMENTAL_MATH_MATH_INTERNAL_H_
#define AOTC_CODEGEN_ELEMENTAL_MATH_MATH_INTERNAL_H_

#include "codegen/elemental/math/math_builder.h"
#include "llvm/IR/IRBuilder.h"

namespace aotc::codegen::math_internal {

// Runs `body(fp)` for the type of `x` with the builder's fast-math flags
// cleared: the special-value selects must not be folded away by nnan/ninf.
template <typename Body>
llvm::Value* WithFp(llvm::IRBuilderBase& b, llvm::Value* x, Body body) {
  llvm::IRBuilderBase::FastMathFlagGuard guard(b);
  b.clearFastMathFlags();
  Fp f(b, x->getType());
  return body(f);
}

// exp(x + x_lo); x_lo (nullptr for 0) is a small correction carried by pow.
llvm::Value* ExpImpl(const Fp& f, llvm::Value* x, llvm::Value* x_lo = nullptr);
llvm::Value* Expm1Impl(const Fp& f, llvm::Value* x);
llvm::Value* LogImpl(const Fp& f, llvm::Value* x);

// x = 2^k * m with m in [sqrt(1/2), sqrt(2)) and k an integer held as a
// floating-point value, for positive finite x (subnormals included).
struct LogReduction {
  llvm::Value* k;
  llvm::Value* m;
};
LogReduction ReduceForLog(const Fp& f, llvm::Value* x);

llvm::Value* TruncImpl(const Fp& f, llvm::Value* x);

}  // namespace aotc::codegen::math_internal

#endif  // AOTC_CODEGEN_ELEMENTAL_MATH_MATH_INTERNAL_H_
