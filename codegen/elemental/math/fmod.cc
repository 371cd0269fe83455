// fmod(x, y): the exact remainder of x / y truncated, with the sign of x.
//
// With x = mx 2^ex and y = my 2^ey (integer mantissas, subnormals
// normalised), fmod is (mx 2^(ex - ey) mod my) 2^ey: a loop shifts the
// running remainder left by up to 39 (f32) or 10 (f64) bits at a time and
// reduces it modulo my with a 64-bit urem, so at most 8 (f32) or 210 (f64)
// iterations run. The result is exactly representable, so scaling it back
// is exact. Vector operands are handled lane by lane.
#include <cmath>

#include "codegen/elemental/math/math_builder.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/math/math_internal.h"
#include "compiler/support/check.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

namespace aotc::codegen {
namespace math_internal {
namespace {

// v = mantissa * 2^(exponent - bias - mantissa_bits) for positive finite v,
// with the mantissa's leading bit at position mantissa_bits.
struct Unpacked {
  llvm::Value* mantissa;  // i64
  llvm::Value* exponent;  // the Fp's integer type
};

Unpacked Unpack(const Fp& f, llvm::Value* v) {
  llvm::IRBuilderBase& b = f.b();
  int scale_bits = f.mantissa_bits() + 2;
  llvm::Value* subnormal = f.Lt(v, f.MinNormal());
  llvm::Value* vs =
      f.Select(subnormal, f.Mul(v, f.C(std::ldexp(1.0, scale_bits))), v);
  llvm::Value* bits = f.ToBits(vs);
  Unpacked u;
  u.exponent = b.CreateSub(b.CreateLShr(bits, f.mantissa_bits()),
                           b.CreateSelect(subnormal, f.I(scale_bits), f.I(0)));
  int64_t implicit = int64_t{1} << f.mantissa_bits();
  llvm::Value* m =
      b.CreateOr(b.CreateAnd(bits, f.I(implicit - 1)), f.I(implicit));
  u.mantissa = b.CreateZExtOrBitCast(m, b.getInt64Ty());
  return u;
}

// Moves everything after the builder's insertion point into a new block and
// returns it; the caller branches there when done.
llvm::BasicBlock* SplitAtInsertPoint(llvm::IRBuilderBase& b, const char* name) {
  llvm::BasicBlock* entry = b.GetInsertBlock();
  llvm::BasicBlock* rest = llvm::BasicBlock::Create(
      b.getContext(), name, entry->getParent(), entry->getNextNode());
  rest->splice(rest->end(), entry, b.GetInsertPoint(), entry->end());
  rest->replaceSuccessorsPhiUsesWith(entry, rest);
  return rest;
}

llvm::Value* FmodScalar(llvm::IRBuilderBase& b, llvm::Value* x,
                        llvm::Value* y) {
  Fp f(b, x->getType());
  llvm::Value* ax = f.Abs(x);
  llvm::Value* ay = f.Abs(y);
  llvm::Value* invalid = f.Or(f.Or(f.IsNaN(x), f.IsNaN(y)),
                              f.Or(f.Eq(ax, f.Inf()), f.Eq(ay, f.C(0))));
  // |x| < |y| (x = 0, or y infinite) returns x itself.
  llvm::Value* small = f.Lt(ax, ay);
  llvm::Value* run = f.Not(f.Or(invalid, small));
  // Stand-ins keep the loop count at 0 where the result is a special case.
  Unpacked ux = Unpack(f, f.Select(run, ax, f.C(1)));
  Unpacked uy = Unpack(f, f.Select(run, ay, f.C(1)));
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Value* start = b.CreateURem(ux.mantissa, uy.mantissa);
  llvm::Value* shifts =
      b.CreateSExtOrTrunc(b.CreateSub(ux.exponent, uy.exponent), i64);
  // The remainder stays below my < 2^(mantissa_bits + 1); shifting it by at
  // most `step` bits keeps it below 2^63.
  int64_t step = f.is_f64() ? 10 : 39;

  llvm::BasicBlock* entry = b.GetInsertBlock();
  llvm::BasicBlock* done = SplitAtInsertPoint(b, "fmod.done");
  llvm::Function* fn = entry->getParent();
  llvm::BasicBlock* loop =
      llvm::BasicBlock::Create(b.getContext(), "fmod.loop", fn, done);
  llvm::BasicBlock* body =
      llvm::BasicBlock::Create(b.getContext(), "fmod.step", fn, done);
  b.SetInsertPoint(entry);
  b.CreateBr(loop);

  b.SetInsertPoint(loop);
  llvm::PHINode* rem = b.CreatePHI(i64, 2, "fmod.rem");
  llvm::PHINode* left = b.CreatePHI(i64, 2, "fmod.left");
  rem->addIncoming(start, entry);
  left->addIncoming(shifts, entry);
  b.CreateCondBr(b.CreateICmpSGT(left, b.getInt64(0)), body, done);

  b.SetInsertPoint(body);
  llvm::Value* k = b.CreateSelect(b.CreateICmpSLT(left, b.getInt64(step)), left,
                                  b.getInt64(step));
  rem->addIncoming(b.CreateURem(b.CreateShl(rem, k), uy.mantissa), body);
  left->addIncoming(b.CreateSub(left, k), body);
  b.CreateBr(loop);

  b.SetInsertPoint(done, done->begin());
  // rem < my fits the mantissa, so the conversion is exact.
  llvm::Value* value = b.CreateSIToFP(rem, f.type());
  llvm::Value* scale =
      b.CreateSub(uy.exponent, f.I(f.bias() + f.mantissa_bits()));
  llvm::Value* result = f.CopySign(f.Ldexp(value, scale), x);
  result = f.Select(small, x, result);
  return f.Select(invalid, f.NaN(), result);
}

}  // namespace
}  // namespace math_internal

llvm::Value* EmitFmod(llvm::IRBuilderBase& b, llvm::Value* x, llvm::Value* y) {
  AOTC_CHECK(x->getType() == y->getType(), "fmod operands differ in type");
  AOTC_CHECK(b.GetInsertBlock() != nullptr && b.GetInsertBlock()->getParent(),
             "fmod emits a loop and needs an insertion point in a function");
  return math_internal::WithFp(b, x, [&](const math_internal::Fp&) {
    auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(x->getType());
    if (vector == nullptr) return math_internal::FmodScalar(b, x, y);
    llvm::Value* result = llvm::PoisonValue::get(vector);
    for (unsigned i = 0; i < vector->getNumElements(); ++i) {
      llvm::Value* lane = math_internal::FmodScalar(
          b, b.CreateExtractElement(x, i), b.CreateExtractElement(y, i));
      result = b.CreateInsertElement(result, lane, i);
    }
    return result;
  });
}

}  // namespace aotc::codegen
