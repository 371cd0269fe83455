// floor, ceil, trunc and the two round-to-integer modes.
//
// All start from nearbyint(|x|), which adding and subtracting
// 2^mantissa_bits computes exactly in the default rounding mode (no
// llvm.floor & co., which are library calls on x86-64 without SSE4.1), and
// then step by one where that rounding went the wrong way. Values of 2^23
// (f32) or 2^52 (f64) and beyond are integers already and pass through, as do
// infinities and NaN.
#include "codegen/elemental/math/math_builder.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/math/math_internal.h"

namespace aotc::codegen {
namespace math_internal {

llvm::Value* TruncImpl(const Fp& f, llvm::Value* x) {
  llvm::Value* a = f.Abs(x);
  llvm::Value* r = f.RoundAbsHalfEven(a);
  r = f.Select(f.Gt(r, a), f.Sub(r, f.C(1)), r);
  return f.CopySign(r, x);
}

namespace {

llvm::Value* RoundHalfEvenImpl(const Fp& f, llvm::Value* x) {
  return f.CopySign(f.RoundAbsHalfEven(f.Abs(x)), x);
}

llvm::Value* FloorImpl(const Fp& f, llvm::Value* x) {
  llvm::Value* r = RoundHalfEvenImpl(f, x);
  // r - 1 is exact; the result keeps x's sign (floor(-0) = -0).
  return f.Select(f.Gt(r, x), f.Sub(r, f.C(1)), r);
}

llvm::Value* CeilImpl(const Fp& f, llvm::Value* x) {
  llvm::Value* r = RoundHalfEvenImpl(f, x);
  r = f.Select(f.Lt(r, x), f.Add(r, f.C(1)), r);
  // ceil(-0.5) is -0, not the +0 that -1 + 1 gives.
  return f.CopySign(r, x);
}

llvm::Value* RoundHalfAwayImpl(const Fp& f, llvm::Value* x) {
  llvm::Value* a = f.Abs(x);
  llvm::Value* t = f.RoundAbsHalfEven(a);
  t = f.Select(f.Gt(t, a), f.Sub(t, f.C(1)), t);
  // a - t is exact (t is a truncated a below 2^mantissa_bits).
  t = f.Select(f.Ge(f.Sub(a, t), f.C(0.5)), f.Add(t, f.C(1)), t);
  return f.CopySign(t, x);
}

}  // namespace
}  // namespace math_internal

using math_internal::Fp;
using math_internal::WithFp;

llvm::Value* EmitFloor(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x,
                [&](const Fp& f) { return math_internal::FloorImpl(f, x); });
}

llvm::Value* EmitCeil(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x,
                [&](const Fp& f) { return math_internal::CeilImpl(f, x); });
}

llvm::Value* EmitTrunc(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x,
                [&](const Fp& f) { return math_internal::TruncImpl(f, x); });
}

llvm::Value* EmitRoundHalfAwayFromZero(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x, [&](const Fp& f) {
    return math_internal::RoundHalfAwayImpl(f, x);
  });
}

llvm::Value* EmitRoundHalfEven(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x, [&](const Fp& f) {
    return math_internal::RoundHalfEvenImpl(f, x);
  });
}

}  // namespace aotc::codegen
