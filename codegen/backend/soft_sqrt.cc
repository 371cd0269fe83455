// Software square roots (see soft_sqrt.h).
#include "codegen/backend/soft_sqrt.h"

#include <cmath>
#include <limits>
#include <vector>

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

namespace aotc::codegen {
namespace {

// sqrt(x) for a float or double `type`:
//   NaN, +-0, +inf: x itself; x < 0: NaN;
//   tiny x (below 2^-900, 2^-100 for float; subnormals included) are
//   scaled up by an even power of two first, the root scaled back;
//   y0 halves the biased exponent (bits / 2 + bias / 2 in integer terms,
//   within a factor of 1.5 of the root), then y = (y + x / y) / 2, whose
//   error squares each step: 6 steps for double, 5 for float.
llvm::Function* DefineSqrt(llvm::Module& m, llvm::Type* type) {
  const bool f64 = type->isDoubleTy();
  const std::string name = f64 ? "aotc.soft_sqrt.f64" : "aotc.soft_sqrt.f32";
  if (llvm::Function* f = m.getFunction(name)) return f;
  llvm::LLVMContext& ctx = m.getContext();
  auto* f = llvm::Function::Create(llvm::FunctionType::get(type, {type}, false),
                                   llvm::GlobalValue::InternalLinkage, name, m);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  f->addFnAttr(llvm::Attribute::NoInline);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
  llvm::Value* x = f->getArg(0);
  auto c = [&](double v) { return llvm::ConstantFP::get(type, v); };
  llvm::Type* int_type = b.getIntNTy(f64 ? 64 : 32);
  const int scale = f64 ? 1000 : 64;  // even: the root's scale is exact
  const double tiny = std::ldexp(1.0, f64 ? -900 : -100);
  llvm::Value* is_tiny = b.CreateFCmpOLT(x, c(tiny));
  llvm::Value* scaled =
      b.CreateSelect(is_tiny, b.CreateFMul(x, c(std::ldexp(1.0, scale))), x);
  llvm::Value* unscale =
      b.CreateSelect(is_tiny, c(std::ldexp(1.0, -scale / 2)), c(1.0));
  const uint64_t half_bias =
      f64 ? (uint64_t{1023} << 52) / 2 : (uint64_t{127} << 23) / 2;
  llvm::Value* bits = b.CreateBitCast(scaled, int_type);
  llvm::Value* guess_bits = b.CreateAdd(
      b.CreateLShr(bits, 1), llvm::ConstantInt::get(int_type, half_bias));
  llvm::Value* y = b.CreateBitCast(guess_bits, type);
  for (int step = 0; step < (f64 ? 6 : 5); ++step) {
    y = b.CreateFMul(c(0.5), b.CreateFAdd(y, b.CreateFDiv(scaled, y)));
  }
  llvm::Value* root = b.CreateFMul(y, unscale);
  // Special values: x itself for NaN, +-0 and +inf; NaN below zero.
  llvm::Value* positive_finite = b.CreateAnd(
      b.CreateFCmpOGT(x, c(0.0)),
      b.CreateFCmpOLT(x, c(std::numeric_limits<double>::infinity())));
  llvm::Value* special = b.CreateSelect(
      b.CreateFCmpOLT(x, c(0.0)),
      c(std::numeric_limits<double>::quiet_NaN()), x);
  b.CreateRet(b.CreateSelect(positive_finite, root, special));
  return f;
}

}  // namespace

bool ReplaceSoftFloatSqrt(llvm::Module& m, const TargetInfo& target) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::Function& f : m) {
    if (f.getIntrinsicID() != llvm::Intrinsic::sqrt) continue;
    llvm::Type* type = f.getReturnType();
    if (!type->isFloatTy() && !type->isDoubleTy()) continue;
    if (target.HasHardwareFloat(type->getPrimitiveSizeInBits())) continue;
    for (llvm::User* u : f.users()) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(u)) calls.push_back(call);
    }
  }
  for (llvm::CallInst* call : calls) {
    llvm::Function* soft = DefineSqrt(m, call->getType());
    llvm::IRBuilder<> b(call);
    llvm::Value* r = b.CreateCall(soft, {call->getArgOperand(0)});
    call->replaceAllUsesWith(r);
    call->eraseFromParent();
  }
  return !calls.empty();
}

}  // namespace aotc::codegen
