// sin, cos, tan and atan2.
//
// sin, cos and tan run in double for both widths and reduce x = n pi/2 + r
// with |r| <= pi/4 (r a double-double), then evaluate sin(r) and cos(r) as
// polynomials (f32 uses the shorter f32 fits and one final rounding) and let
// the quadrant n mod 4 pick and negate them.
//
// For |x| < 2^23 the reduction is Cody-Waite: pi/2 in four pieces whose first
// three have 30 significant bits, so n * piece is exact and r comes out
// accurate to about 2^-120 relative to x. Larger finite arguments take the
// exact path (Payne-Hanek): with x = m 2^E (m an integer of 24 or 53 bits),
// only a 128- or 192-bit window of 2/pi's bits starting at bit E - 1 matters
// mod 4, so m times that window, in 32-bit limbs with 32x32->64-bit products
// (no i128: 32-bit targets would need helpers), gives x * 2/pi mod 4 with
// 126 or 190 fraction bits; the nearest integer is n and the rest, times
// pi/2 in double-double, is r. That path is one private function per element
// type, called per large lane behind a branch taken only when some lane
// needs it. Scalar sin, cos and tan call private functions with vector
// variants for the loop vectorizer (ScalarTrigFunction), so that in a
// vectorized loop the branch stays a branch instead of being if-converted.
//
// atan2 reduces |y|/|x| (or its inverse) to [0, 1], then to |u| <=
// tan(pi/8) via atan(a) = pi/4 + atan((a - 1) / (a + 1)), and adds the
// multiple of pi/4 that the reductions and the signs imply as hi + lo.
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "codegen/elemental/math/math_builder.h"
#include "codegen/elemental/math/math_coefficients.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/math/math_internal.h"
#include "compiler/support/check.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

namespace aotc::codegen {
namespace math_internal {
namespace {

// Largest |x| reduced by Cody-Waite; see the file comment.
constexpr double kTrigLimit = 0x1p23;

struct TrigReduction {
  Dd r;
  llvm::Value* quadrant;  // n mod 4 (integer)
};

// `d` is a double Fp and x a double value.
TrigReduction ReduceTrig(const Fp& d, llvm::Value* x) {
  llvm::IRBuilderBase& b = d.b();
  llvm::Value* n = nullptr;
  llvm::Value* nf = d.RoundToInt(d.Mul(x, d.C(2 / std::numbers::pi)), &n);
  // x and nf * piece0 are within a factor of two (or nf is 0): exact.
  llvm::Value* a = d.Sub(x, d.Mul(nf, d.C(kPio2Pieces[0])));
  Dd s = d.TwoSum(a, d.Neg(d.Mul(nf, d.C(kPio2Pieces[1]))));
  Dd h = d.TwoSum(s.hi, d.Neg(d.Mul(nf, d.C(kPio2Pieces[2]))));
  llvm::Value* lo = d.Add(h.lo, d.Sub(s.lo, d.Mul(nf, d.C(kPio2Pieces[3]))));
  TrigReduction red;
  red.r = d.FastTwoSum(h.hi, lo);
  red.quadrant = b.CreateAnd(n, d.I(3));
  return red;
}

// The module's copy of kTwoOverPiBits (one per module, private).
llvm::GlobalVariable* TwoOverPiTable(llvm::IRBuilderBase& b) {
  llvm::Module* module = b.GetInsertBlock()->getModule();
  constexpr const char* kName = "aotc.math.two_over_pi";
  if (llvm::GlobalVariable* g = module->getNamedGlobal(kName)) return g;
  llvm::Constant* init = llvm::ConstantDataArray::get(
      b.getContext(), llvm::ArrayRef<uint32_t>(kTwoOverPiBits));
  auto* g = new llvm::GlobalVariable(*module, init->getType(),
                                     /*isConstant=*/true,
                                     llvm::GlobalValue::PrivateLinkage, init,
                                     kName);
  g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  g->setAlignment(llvm::Align(4));
  return g;
}

// kTwoOverPiBits[index] zero-extended to i64.
llvm::Value* LoadWord(llvm::IRBuilderBase& b, llvm::Value* index) {
  llvm::GlobalVariable* table = TwoOverPiTable(b);
  llvm::Value* ptr = b.CreateInBoundsGEP(table->getValueType(), table,
                                         {b.getInt64(0), index});
  return b.CreateZExt(b.CreateLoad(b.getInt32Ty(), ptr), b.getInt64Ty());
}

// The exact reduction of a finite scalar |x| >= 2^23 (`ax`, of f's type)
// into r and the quadrant, as doubles; see the file comment. `negative` is
// x's sign.
TrigReduction ReduceTrigExact(const Fp& f, const Fp& d, llvm::Value* ax,
                              llvm::Value* negative) {
  llvm::IRBuilderBase& b = f.b();
  AOTC_CHECK(!f.type()->isVectorTy(), "the exact reduction is scalar");
  llvm::Type* i64 = b.getInt64Ty();
  auto k64 = [&](uint64_t v) { return llvm::ConstantInt::get(i64, v); };
  llvm::Value* low32 = k64(0xffffffff);
  // ax = m 2^e with m < 2^(mantissa_bits + 1); ax is normal.
  llvm::Value* bits = b.CreateZExtOrBitCast(f.ToBits(ax), i64);
  llvm::Value* e = b.CreateSub(b.CreateLShr(bits, f.mantissa_bits()),
                               k64(f.bias() + f.mantissa_bits()));
  uint64_t implicit = uint64_t{1} << f.mantissa_bits();
  llvm::Value* m = b.CreateOr(b.CreateAnd(bits, k64(implicit - 1)),
                              k64(implicit));
  // The window starts at 2/pi's bit e - 1 (weight 2^(1 - e)); the table has
  // 64 zero bits in front, so that bit is table bit e + 62 (>= 62: ax >= 2^23
  // gives e >= -29 for f64, >= 0 for f32).
  const int limbs = f.is_f64() ? 6 : 4;
  const int frac_bits = 32 * limbs - 2;
  llvm::Value* start = b.CreateAdd(e, k64(62));
  llvm::Value* word = b.CreateLShr(start, 5);
  llvm::Value* shift = b.CreateAnd(start, k64(31));
  std::vector<llvm::Value*> words;
  for (int j = 0; j <= limbs; ++j) {
    words.push_back(LoadWord(b, b.CreateAdd(word, k64(j))));
  }
  // v[k]: the window's 32-bit limbs, least significant first.
  std::vector<llvm::Value*> v(limbs);
  for (int j = 0; j < limbs; ++j) {
    llvm::Value* pair = b.CreateOr(b.CreateShl(words[j], 32), words[j + 1]);
    v[limbs - 1 - j] = b.CreateLShr(b.CreateShl(pair, shift), 32);
  }
  // m * window mod 2^(32 limbs), column by column: each column sums at most
  // four 32-bit halves, so 64 bits hold it with the carry.
  std::vector<llvm::Value*> column(limbs, k64(0));
  auto add_product = [&](llvm::Value* a, int k) {
    for (int j = 0; j + k < limbs; ++j) {
      llvm::Value* product = b.CreateMul(a, v[j]);
      column[j + k] = b.CreateAdd(column[j + k], b.CreateAnd(product, low32));
      if (j + k + 1 < limbs) {
        column[j + k + 1] =
            b.CreateAdd(column[j + k + 1], b.CreateLShr(product, 32));
      }
    }
  };
  add_product(b.CreateAnd(m, low32), 0);
  if (f.is_f64()) add_product(b.CreateLShr(m, 32), 1);
  std::vector<llvm::Value*> q(limbs);
  llvm::Value* carry = k64(0);
  for (int k = 0; k < limbs; ++k) {
    llvm::Value* sum = b.CreateAdd(column[k], carry);
    q[k] = b.CreateAnd(sum, low32);
    carry = b.CreateLShr(sum, 32);
  }
  // The top two bits are x * 2/pi mod 4; rounding to the nearest integer n
  // leaves a signed fraction in [-1/2, 1/2) whose top limb is `top`.
  llvm::Value* n =
      b.CreateLShr(b.CreateAnd(b.CreateAdd(q[limbs - 1], k64(1u << 29)), low32),
                   30);
  q[limbs - 1] =
      b.CreateAnd(b.CreateSub(q[limbs - 1], b.CreateShl(n, 30)), low32);
  llvm::Value* below =
      b.CreateICmpNE(b.CreateAnd(q[limbs - 1], k64(1u << 31)), k64(0));
  // A negative fraction's magnitude is its one's complement (off by 2^-frac
  // bits, far below what r needs).
  llvm::Value* flip = b.CreateSelect(below, low32, k64(0));
  // |fraction| = sum q[k] 2^(32k - frac_bits): exact doubles, summed from
  // the smallest up with the rounding errors collected (no cancellation:
  // every term is non-negative).
  Dd sum{nullptr, nullptr};
  for (int k = 0; k < limbs; ++k) {
    llvm::Value* limb = d.Mul(d.IntToFp(b.CreateXor(q[k], flip)),
                              d.C(std::ldexp(1.0, 32 * k - frac_bits)));
    if (sum.hi == nullptr) {
      sum = {limb, d.C(0)};
      continue;
    }
    Dd s = d.TwoSum(limb, sum.hi);
    sum = {s.hi, d.Add(sum.lo, s.lo)};
  }
  sum = d.FastTwoSum(sum.hi, sum.lo);
  // r = fraction * pi/2 with pi/2 = hi + lo.
  Dd p = d.TwoProd(sum.hi, d.C(kQuarterPiHiF64[2]));
  llvm::Value* lo = d.Add(p.lo, d.Add(d.Mul(sum.hi, d.C(kQuarterPiLoF64[2])),
                                      d.Mul(sum.lo, d.C(kQuarterPiHiF64[2]))));
  TrigReduction red;
  red.r = d.FastTwoSum(p.hi, lo);
  // x = -|x| mirrors both: quadrant -n, remainder -r.
  llvm::Value* negate = b.CreateXor(below, negative);
  red.r.hi = d.Select(negate, d.Neg(red.r.hi), red.r.hi);
  red.r.lo = d.Select(negate, d.Neg(red.r.lo), red.r.lo);
  red.quadrant =
      b.CreateAnd(b.CreateSelect(negative, b.CreateSub(k64(0), n), n), k64(3));
  return red;
}

// ReduceTrigExact as a private noinline function of the scalar type
// returning {r.hi, r.lo, quadrant}: one copy per module, however many sites
// and lanes call it.
llvm::Function* ExactReductionFunction(llvm::Module& m, llvm::Type* scalar) {
  const char* name = scalar->isDoubleTy() ? "aotc.math.trig_reduce.f64"
                                          : "aotc.math.trig_reduce.f32";
  if (llvm::Function* fn = m.getFunction(name)) return fn;
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* dbl = llvm::Type::getDoubleTy(ctx);
  auto* result =
      llvm::StructType::get(ctx, {dbl, dbl, llvm::Type::getInt64Ty(ctx)});
  auto* fn = llvm::Function::Create(
      llvm::FunctionType::get(result, {scalar}, /*isVarArg=*/false),
      llvm::GlobalValue::InternalLinkage, name, m);
  fn->addFnAttr(llvm::Attribute::NoInline);
  fn->setDoesNotThrow();
  fn->setDoesNotAccessMemory();  // its loads read a constant table
  fn->setWillReturn();
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  Fp f(b, scalar);
  llvm::Value* x = fn->getArg(0);
  TrigReduction red = ReduceTrigExact(f, f.WithElement(dbl), f.Abs(x),
                                      f.SignBit(x));
  llvm::Value* out = llvm::PoisonValue::get(result);
  out = b.CreateInsertValue(out, red.r.hi, 0);
  out = b.CreateInsertValue(out, red.r.lo, 1);
  out = b.CreateInsertValue(out, red.quadrant, 2);
  b.CreateRet(out);
  return fn;
}

// The exact reduction of finite |x| >= 2^23 (every lane), by calls.
TrigReduction CallExactReduction(const Fp& f, const Fp& d, llvm::Value* x) {
  llvm::IRBuilderBase& b = f.b();
  llvm::Function* fn = ExactReductionFunction(
      *b.GetInsertBlock()->getModule(), f.type()->getScalarType());
  auto lane = [&](llvm::Value* v, llvm::Value** hi, llvm::Value** lo,
                  llvm::Value** quadrant) {
    llvm::CallInst* call = b.CreateCall(fn, {v});
    call->setDoesNotThrow();
    call->setDoesNotAccessMemory();
    *hi = b.CreateExtractValue(call, 0);
    *lo = b.CreateExtractValue(call, 1);
    *quadrant = b.CreateExtractValue(call, 2);
  };
  TrigReduction red;
  auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(x->getType());
  if (vector == nullptr) {
    lane(x, &red.r.hi, &red.r.lo, &red.quadrant);
    return red;
  }
  red.r.hi = llvm::PoisonValue::get(d.type());
  red.r.lo = llvm::PoisonValue::get(d.type());
  red.quadrant = llvm::PoisonValue::get(d.int_type());
  for (unsigned i = 0; i < vector->getNumElements(); ++i) {
    llvm::Value *hi, *lo, *quadrant;
    lane(b.CreateExtractElement(x, i), &hi, &lo, &quadrant);
    red.r.hi = b.CreateInsertElement(red.r.hi, hi, i);
    red.r.lo = b.CreateInsertElement(red.r.lo, lo, i);
    red.quadrant = b.CreateInsertElement(red.quadrant, quadrant, i);
  }
  return red;
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

// The reduction of any x (f's type) as doubles: Cody-Waite, and where some
// finite |x| >= 2^23, a branch to the exact path for those lanes.
TrigReduction ReduceTrigAll(const Fp& f, const Fp& d, llvm::Value* x,
                            llvm::Value* xd) {
  llvm::IRBuilderBase& b = f.b();
  TrigReduction fast = ReduceTrig(d, xd);
  llvm::Value* ax = f.Abs(x);
  llvm::Value* large = f.And(f.Ge(ax, f.C(kTrigLimit)), f.Lt(ax, f.Inf()));
  // Any lane: the mask's bits as one integer (no reduction intrinsic).
  llvm::Value* any = large;
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(large->getType())) {
    llvm::Type* mask = b.getIntNTy(vector->getNumElements());
    any = b.CreateICmpNE(b.CreateBitCast(large, mask),
                         llvm::ConstantInt::get(mask, 0));
  }
  llvm::BasicBlock* entry = b.GetInsertBlock();
  llvm::BasicBlock* done = SplitAtInsertPoint(b, "trig.reduced");
  llvm::BasicBlock* exact = llvm::BasicBlock::Create(
      b.getContext(), "trig.exact", entry->getParent(), done);
  b.SetInsertPoint(entry);
  b.CreateCondBr(any, exact, done);
  b.SetInsertPoint(exact);
  // Lanes that stay on the fast path reduce a stand-in.
  TrigReduction slow =
      CallExactReduction(f, d, f.Select(large, x, f.C(kTrigLimit)));
  TrigReduction merged;
  merged.r.hi = d.Select(large, slow.r.hi, fast.r.hi);
  merged.r.lo = d.Select(large, slow.r.lo, fast.r.lo);
  merged.quadrant = b.CreateSelect(large, slow.quadrant, fast.quadrant);
  llvm::BasicBlock* exact_end = b.GetInsertBlock();
  b.CreateBr(done);
  b.SetInsertPoint(done, done->begin());
  auto phi = [&](llvm::Value* from_exact, llvm::Value* from_fast) {
    llvm::PHINode* node = b.CreatePHI(from_fast->getType(), 2);
    node->addIncoming(from_exact, exact_end);
    node->addIncoming(from_fast, entry);
    return node;
  };
  TrigReduction red;
  red.r.hi = phi(merged.r.hi, fast.r.hi);
  red.r.lo = phi(merged.r.lo, fast.r.lo);
  red.quadrant = phi(merged.quadrant, fast.quadrant);
  return red;
}

struct SinCos {
  llvm::Value* sin;
  llvm::Value* cos;
};

// sin and cos of r.hi + r.lo for |r| <= pi/4, with the polynomials of width
// `f32` (the double evaluation then only has to be rounded to float once).
SinCos SinCosPoly(const Fp& d, Dd r, bool f32) {
  llvm::Value* z = d.Mul(r.hi, r.hi);
  // sin(h + l) = sin(h) + l cos(h), cos(h) ~ 1 - z/2.
  llvm::Value* s_poly = d.Horner(z, f32 ? std::span<const double>(kSinPolyF32)
                                        : std::span<const double>(kSinPolyF64));
  llvm::Value* lo = d.MulAdd(d.Mul(r.lo, d.C(-0.5)), z, r.lo);
  llvm::Value* sin = d.Add(r.hi, d.MulAdd(d.Mul(r.hi, z), s_poly, lo));
  // cos(h + l) = cos(h) - l sin(h); 1 - z/2 is split into w plus its exact
  // rounding error so that the small terms are added before w.
  llvm::Value* c_poly = d.Horner(z, f32 ? std::span<const double>(kCosPolyF32)
                                        : std::span<const double>(kCosPolyF64));
  llvm::Value* hz = d.Mul(d.C(0.5), z);
  llvm::Value* w = d.Sub(d.C(1), hz);
  llvm::Value* w_err = d.Sub(d.Sub(d.C(1), w), hz);
  llvm::Value* small = d.Sub(d.Mul(d.Mul(z, z), c_poly), d.Mul(r.hi, r.lo));
  llvm::Value* cos = d.Add(w, d.Add(w_err, small));
  return {sin, cos};
}

enum class TrigOp { kSin, kCos, kTan };

// sin, cos or tan emitted in place (the exact path behind its branch).
llvm::Value* TrigInline(const Fp& f, llvm::Value* x, TrigOp op) {
  llvm::IRBuilderBase& b = f.b();
  Fp d = f.WithElement(b.getDoubleTy());
  llvm::Value* xd = f.is_f64() ? x : b.CreateFPExt(x, d.type());
  TrigReduction red = ReduceTrigAll(f, d, x, xd);
  SinCos sc = SinCosPoly(d, red.r, !f.is_f64());
  llvm::Value* result = nullptr;
  if (op == TrigOp::kTan) {
    // tan(r + n pi/2) is tan(r) for even n and -1/tan(r) for odd n.
    llvm::Value* odd =
        b.CreateICmpNE(b.CreateAnd(red.quadrant, d.I(1)), d.I(0));
    llvm::Value* num = d.Select(odd, d.Neg(sc.cos), sc.sin);
    llvm::Value* den = d.Select(odd, sc.sin, sc.cos);
    result = d.Div(num, den);
  } else {
    llvm::Value* quadrant = red.quadrant;
    llvm::Value* first = sc.sin;
    llvm::Value* second = sc.cos;
    if (op == TrigOp::kCos) {
      // cos(x) = sin(x + pi/2).
      quadrant = b.CreateAdd(quadrant, d.I(1));
    }
    llvm::Value* odd_q = b.CreateICmpNE(b.CreateAnd(quadrant, d.I(1)), d.I(0));
    llvm::Value* negate = b.CreateICmpNE(b.CreateAnd(quadrant, d.I(2)), d.I(0));
    result = d.Select(odd_q, second, first);
    result = d.Select(negate, d.Neg(result), result);
  }
  if (!f.is_f64()) result = b.CreateFPTrunc(result, f.type());
  // Keeps the sign of a zero argument for the odd functions.
  if (op == TrigOp::kCos) return result;
  return f.Select(f.Eq(x, f.C(0)), x, result);
}

// Vector widths that get an out-of-line variant: those the loop vectorizer
// picks for float and double lanes on the module's target (SSE to AVX-512 on
// x86, NEON on AArch64). Elsewhere (Cortex-M, RISC-V) loops do not vectorize
// at a fixed width and scalars stay inline. A module without a triple (the
// emitter tests set it later) gets every width.
std::vector<unsigned> VariantWidths(const llvm::Module& m, bool f64) {
  if (m.getTargetTriple().empty()) return {2, 4, 8, 16};
  llvm::Triple triple(m.getTargetTriple());
  if (triple.isX86()) {
    if (f64) return {2, 4, 8};
    return {4, 8, 16};
  }
  if (triple.isAArch64()) return {f64 ? 2u : 4u};
  return {};
}

// A private function of `type` computing TrigInline, defined once.
llvm::Function* TrigFunction(llvm::Module& m, TrigOp op, llvm::Type* type,
                             const std::string& name) {
  if (llvm::Function* fn = m.getFunction(name)) return fn;
  auto* fn = llvm::Function::Create(
      llvm::FunctionType::get(type, {type}, /*isVarArg=*/false),
      llvm::GlobalValue::InternalLinkage, name, m);
  fn->setDoesNotThrow();
  fn->setDoesNotAccessMemory();  // only the constant table is read
  fn->setWillReturn();
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(m.getContext(), "entry", fn));
  Fp f(b, type);
  b.CreateRet(TrigInline(f, fn->getArg(0), op));
  return fn;
}

// The scalar function for `op` at `scalar` (float or double), with vector
// variants the loop vectorizer substitutes (vector-function-abi-variant), so
// that a vectorized loop calls one function per vector whose exact path is a
// real branch, instead of if-converting it into every iteration. The scalar
// function is noinline: inlined, its branch would be if-converted.
llvm::Function* ScalarTrigFunction(llvm::Module& m, TrigOp op,
                                   llvm::Type* scalar) {
  static constexpr const char* kNames[] = {"sin", "cos", "tan"};
  const std::string base =
      absl::StrCat("aotc.math.", kNames[static_cast<int>(op)],
                   scalar->isDoubleTy() ? ".f64" : ".f32");
  if (llvm::Function* fn = m.getFunction(base)) return fn;
  llvm::Function* fn = TrigFunction(m, op, scalar, base);
  fn->addFnAttr(llvm::Attribute::NoInline);
  std::vector<std::string> mappings;
  std::vector<llvm::GlobalValue*> variants;
  for (unsigned width : VariantWidths(m, scalar->isDoubleTy())) {
    std::string name = absl::StrCat(base, ".v", width);
    variants.push_back(TrigFunction(
        m, op, llvm::FixedVectorType::get(scalar, width), name));
    mappings.push_back(
        absl::StrCat("_ZGV_LLVM_N", width, "v_", base, "(", name, ")"));
  }
  fn->addFnAttr("vector-function-abi-variant", absl::StrJoin(mappings, ","));
  // The variants have no calls until the vectorizer makes them.
  llvm::appendToCompilerUsed(m, variants);
  return fn;
}

// Vectors inline; scalars call the function above.
llvm::Value* TrigImpl(const Fp& f, llvm::Value* x, TrigOp op) {
  llvm::IRBuilderBase& b = f.b();
  AOTC_CHECK(b.GetInsertBlock() != nullptr && b.GetInsertBlock()->getParent(),
             "sin, cos and tan branch and need an insertion point in a "
             "function");
  llvm::Module& m = *b.GetInsertBlock()->getModule();
  if (x->getType()->isVectorTy() || VariantWidths(m, f.is_f64()).empty()) {
    return TrigInline(f, x, op);
  }
  llvm::Function* fn = ScalarTrigFunction(m, op, x->getType());
  llvm::CallInst* call = b.CreateCall(fn, {x});
  call->setDoesNotThrow();
  call->setDoesNotAccessMemory();
  return call;
}

llvm::Value* Atan2Impl(const Fp& f, llvm::Value* y, llvm::Value* x) {
  llvm::IRBuilderBase& b = f.b();
  llvm::Value* ax = f.Abs(x);
  llvm::Value* ay = f.Abs(y);
  llvm::Value* swap = f.Gt(ay, ax);
  llvm::Value* mn = f.Select(swap, ax, ay);
  llvm::Value* mx = f.Select(swap, ay, ax);
  llvm::Value* a = f.Div(mn, mx);
  // 0/0 and inf/inf: both zero is angle 0 (before the sign rules), both
  // infinite is pi/4.
  a = f.Select(f.And(f.Eq(ax, f.C(0)), f.Eq(ay, f.C(0))), f.C(0), a);
  llvm::Value* both_inf = f.And(f.Eq(ax, f.Inf()), f.Eq(ay, f.Inf()));
  a = f.Select(both_inf, f.C(1), a);
  llvm::Value* reduce = f.Gt(a, f.C(std::numbers::sqrt2 - 1));
  // (a - 1) / (a + 1) from mn and mx directly, which avoids a's rounding
  // error; halving both (exact: mn > 0.4 mx) keeps mn + mx finite.
  llvm::Value* half = f.Select(f.Gt(mx, f.C(1)), f.C(0.5), f.C(1));
  llvm::Value* mn_h = f.Mul(mn, half);
  llvm::Value* mx_h = f.Mul(mx, half);
  llvm::Value* u =
      f.Select(reduce, f.Div(f.Sub(mn_h, mx_h), f.Add(mn_h, mx_h)), a);
  u = f.Select(both_inf, f.C(0), u);
  llvm::Value* z = f.Mul(u, u);
  llvm::Value* v = f.MulAdd(
      f.Mul(u, z), f.Horner(z, f.Table(kAtanPolyF32, kAtanPolyF64)), u);
  // angle = j pi/4 + sign * v with j in 0..4.
  llvm::Value* j = b.CreateSelect(reduce, f.I(1), f.I(0));
  j = b.CreateSelect(swap, b.CreateSub(f.I(2), j), j);
  llvm::Value* negative_x = f.SignBit(x);
  j = b.CreateSelect(negative_x, b.CreateSub(f.I(4), j), j);
  llvm::Value* flip = b.CreateXor(swap, negative_x);
  v = f.Select(flip, f.Neg(v), v);
  std::span<const double> hi = f.Table(kQuarterPiHiF32, kQuarterPiHiF64);
  std::span<const double> lo = f.Table(kQuarterPiLoF32, kQuarterPiLoF64);
  llvm::Value* k_hi = f.C(0);
  llvm::Value* k_lo = f.C(0);
  for (int i = 1; i <= 4; ++i) {
    llvm::Value* is_i = b.CreateICmpEQ(j, f.I(i));
    k_hi = f.Select(is_i, f.C(hi[i]), k_hi);
    k_lo = f.Select(is_i, f.C(lo[i]), k_lo);
  }
  llvm::Value* angle = f.Add(k_hi, f.Add(v, k_lo));
  // NaN propagates through a and v; copysign keeps it NaN.
  return f.CopySign(angle, y);
}

}  // namespace
}  // namespace math_internal

using math_internal::Fp;
using math_internal::TrigOp;
using math_internal::WithFp;

llvm::Value* EmitSin(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x, [&](const Fp& f) {
    return math_internal::TrigImpl(f, x, TrigOp::kSin);
  });
}

llvm::Value* EmitCos(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x, [&](const Fp& f) {
    return math_internal::TrigImpl(f, x, TrigOp::kCos);
  });
}

llvm::Value* EmitTan(llvm::IRBuilderBase& b, llvm::Value* x) {
  return WithFp(b, x, [&](const Fp& f) {
    return math_internal::TrigImpl(f, x, TrigOp::kTan);
  });
}

llvm::Value* EmitAtan2(llvm::IRBuilderBase& b, llvm::Value* y, llvm::Value* x) {
  AOTC_CHECK(y->getType() == x->getType(), "atan2 operands differ in type");
  return WithFp(b, y,
                [&](const Fp& f) { return math_internal::Atan2Impl(f, y, x); });
}

}  // namespace aotc::codegen
