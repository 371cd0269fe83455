// Structural and exact-value tests of the math emitters.
//
// - The IR of every emitter calls only llvm.fabs/copysign/sqrt/fmuladd (and
//   scalar sin/cos/tan their module-private functions).
// - After O2, a loop around any emitter but fmod is vectorized (sin, cos and
//   tan through their vector variants).
// - Explicit vector IR gives bit-identical results to scalar IR.
// - Special values (zeros, infinities, NaN, the C99 Annex F cases of pow
//   and atan2) come out exactly as C's functions give them.
// - fmod is exact, and works wherever the insertion point is.
// - Fast-math flags on the caller's builder do not leak in.
#include "codegen/elemental/math/math_emitter.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/elemental/math/math_test_cases.h"
#include "codegen/elemental/math/math_test_jit.h"
#include "codegen/elemental/math/math_test_util.h"
#include "gtest/gtest.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"

namespace aotc::codegen::math_test {
namespace {

KernelSpec Unary(const std::string& name, UnaryEmitter emit, Elem e,
                 unsigned width) {
  return {KernelName(name),
          {e},
          e,
          width,
          [emit](llvm::IRBuilderBase& b, std::span<llvm::Value* const> v) {
            return emit(b, v[0]);
          }};
}

KernelSpec Binary(const std::string& name, BinaryEmitter emit, Elem e,
                  unsigned width) {
  return {KernelName(name),
          {e, e},
          e,
          width,
          [emit](llvm::IRBuilderBase& b, std::span<llvm::Value* const> v) {
            return emit(b, v[0], v[1]);
          }};
}

// Every kernel, scalar and 4-wide, for both widths.
std::vector<KernelSpec> AllKernels() {
  std::vector<KernelSpec> specs;
  for (Elem e : {Elem::kF32, Elem::kF64}) {
    for (unsigned width : {1u, 4u}) {
      for (const UnaryCase& c : UnaryCases()) {
        specs.push_back(Unary(c.name, c.emit, e, width));
      }
      for (const BinaryCase& c : BinaryCases()) {
        specs.push_back(Binary(c.name, c.emit, e, width));
      }
      specs.push_back(Binary("fmod", EmitFmod, e, width));
    }
  }
  using Conv = std::tuple<const char*, UnaryEmitter, Elem, Elem>;
  for (auto [name, emit, in, out] :
       {Conv{"h2f", EmitHalfToFloat, Elem::kI16, Elem::kF32},
        Conv{"f2h", EmitFloatToHalf, Elem::kF32, Elem::kI16},
        Conv{"d2h", EmitDoubleToHalf, Elem::kF64, Elem::kI16},
        Conv{"b2f", EmitBF16ToFloat, Elem::kI16, Elem::kF32},
        Conv{"f2b", EmitFloatToBF16, Elem::kF32, Elem::kI16},
        Conv{"d2b", EmitDoubleToBF16, Elem::kF64, Elem::kI16}}) {
    for (unsigned width : {1u, 4u}) {
      specs.push_back(
          {KernelName(name),
           {in},
           out,
           width,
           [emit](llvm::IRBuilderBase& b, std::span<llvm::Value* const> v) {
             return emit(b, v[0]);
           }});
    }
  }
  return specs;
}

TEST(MathIr, CallsOnlyAllowedIntrinsics) {
  llvm::LLVMContext ctx;
  llvm::Module module("m", ctx);
  for (const KernelSpec& spec : AllKernels()) AddKernel(module, spec);
  ASSERT_FALSE(llvm::verifyModule(module, &llvm::errs()));
  const std::set<llvm::Intrinsic::ID> allowed = {
      llvm::Intrinsic::fabs, llvm::Intrinsic::copysign, llvm::Intrinsic::sqrt,
      llvm::Intrinsic::fmuladd};
  int calls = 0;
  for (llvm::Function& fn : module) {
    if (fn.isDeclaration()) continue;
    for (llvm::Instruction& inst : llvm::instructions(fn)) {
      auto* call = llvm::dyn_cast<llvm::CallBase>(&inst);
      if (call == nullptr) continue;
      ++calls;
      llvm::Function* callee = call->getCalledFunction();
      ASSERT_NE(callee, nullptr) << fn.getName().str();
      // Scalar sin, cos and tan call a private function of the module (its
      // own calls are checked as part of the module).
      if (callee->hasLocalLinkage() && !callee->isDeclaration() &&
          callee->getName().starts_with("aotc.math.")) {
        continue;
      }
      EXPECT_TRUE(allowed.count(callee->getIntrinsicID()))
          << fn.getName().str() << " calls " << callee->getName().str();
    }
  }
  EXPECT_GT(calls, 0);
}

bool HasVectorFloatMath(llvm::Function& fn) {
  for (llvm::Instruction& inst : llvm::instructions(fn)) {
    if (!inst.getType()->isVectorTy()) continue;
    if (llvm::isa<llvm::BinaryOperator>(inst) ||
        llvm::isa<llvm::SelectInst>(inst) || llvm::isa<llvm::CallInst>(inst)) {
      return true;
    }
  }
  return false;
}

TEST(MathIr, ScalarLoopsVectorizeAtO2) {
  llvm::LLVMContext ctx;
  llvm::Module module("m", ctx);
  std::vector<KernelSpec> specs;
  for (const KernelSpec& spec : AllKernels()) {
    if (spec.width == 1 && spec.name.rfind("fmod", 0) != 0) {
      specs.push_back(spec);
    }
  }
  for (const KernelSpec& spec : specs) AddKernel(module, spec);
  OptimizeForTarget(module, Target::kHost);
  for (const KernelSpec& spec : specs) {
    llvm::Function* fn = module.getFunction(spec.name);
    ASSERT_NE(fn, nullptr);
    EXPECT_TRUE(HasVectorFloatMath(*fn)) << spec.name << " not vectorized";
  }
}

// A vectorized loop of scalar sin, cos or tan calls the vector variant of
// the function the scalar call names, one call per vector: the exact path's
// branch stays a branch there instead of being if-converted into the loop.
TEST(MathIr, TrigLoopsCallVectorVariants) {
  llvm::LLVMContext ctx;
  llvm::Module module("m", ctx);
  std::vector<KernelSpec> specs;
  for (const UnaryCase& c : UnaryCases()) {
    std::string name = c.name;
    if (name != "sin" && name != "cos" && name != "tan") continue;
    for (Elem e : {Elem::kF32, Elem::kF64}) {
      specs.push_back(Unary(name, c.emit, e, 1));
    }
  }
  ASSERT_EQ(specs.size(), 6u);
  for (const KernelSpec& spec : specs) AddKernel(module, spec);
  OptimizeForTarget(module, Target::kHost);
  for (const KernelSpec& spec : specs) {
    llvm::Function* fn = module.getFunction(spec.name);
    ASSERT_NE(fn, nullptr);
    bool variant = false;
    for (llvm::Instruction& inst : llvm::instructions(*fn)) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
      if (call == nullptr || call->getCalledFunction() == nullptr) continue;
      llvm::StringRef callee = call->getCalledFunction()->getName();
      variant |= callee.starts_with("aotc.math.") && callee.contains(".v") &&
                 call->getType()->isVectorTy();
    }
    EXPECT_TRUE(variant) << spec.name << " calls no vector variant";
  }
}

template <typename T>
bool SameValue(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return BitsOf(a) == BitsOf(b);
}

template <typename T>
bool IsSpecial(T v) {
  return v == 0 || std::isinf(v) || std::isnan(v);
}

template <typename T>
T Rounded(const UnaryCase& c, T x) {
  if constexpr (sizeof(T) == 4) return static_cast<T>(c.ref32(x));
  return static_cast<T>(c.ref64(x));
}

template <typename T>
T Rounded(const BinaryCase& c, T a, T b) {
  if constexpr (sizeof(T) == 4) return static_cast<T>(c.ref32(a, b));
  return static_cast<T>(c.ref64(a, b));
}

template <typename T>
std::string Show(T v) {
  std::ostringstream os;
  os << std::hexfloat << v;
  return os.str();
}

// Zero, infinite and NaN arguments must give C's results exactly (sign of
// zero included): these are the Annex F cases, not approximations.
template <typename T>
void CheckUnarySpecials(const UnaryCase& c, Elem e) {
  std::vector<void*> fn =
      CompileKernels(Target::kHost, {Unary(c.name, c.emit, e, 1)});
  ASSERT_EQ(fn.size(), 1u);
  std::vector<T> xs = EdgeValues<T>();
  std::vector<T> got = RunKernel<T, T>(fn[0], xs);
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!IsSpecial(xs[i])) continue;
    T want = Rounded(c, xs[i]);
    EXPECT_TRUE(SameValue(got[i], want))
        << c.name << "(" << Show(xs[i]) << ") = " << Show(got[i]) << ", want "
        << Show(want);
  }
}

TEST(MathSpecialValues, UnaryMatchC) {
  for (const UnaryCase& c : UnaryCases()) {
    CheckUnarySpecials<float>(c, Elem::kF32);
    CheckUnarySpecials<double>(c, Elem::kF64);
  }
}

// Every pair from a grid of special and small values; exact where an input
// is a zero, infinity or NaN, or where pow's base is +-1 or its exponent 0.
template <typename T>
void CheckBinarySpecials(const BinaryCase& c, Elem e) {
  std::vector<void*> fn =
      CompileKernels(Target::kHost, {Binary(c.name, c.emit, e, 1)});
  ASSERT_EQ(fn.size(), 1u);
  const T inf = std::numeric_limits<T>::infinity();
  std::vector<T> grid = {0,
                         T(0.5),
                         1,
                         T(1.5),
                         2,
                         3,
                         T(2.5),
                         4,
                         T(1e10),
                         inf,
                         std::numeric_limits<T>::quiet_NaN(),
                         std::numeric_limits<T>::denorm_min(),
                         std::numeric_limits<T>::max(),
                         T(0x1p60)};
  std::vector<T> a, b;
  for (T x : grid) {
    for (T y : grid) {
      for (T sx : {T(1), T(-1)}) {
        for (T sy : {T(1), T(-1)}) {
          a.push_back(sx * x);
          b.push_back(sy * y);
        }
      }
    }
  }
  std::vector<T> got = RunKernel2<T>(fn[0], a, b);
  bool pow = std::string(c.name) == "pow";
  for (size_t i = 0; i < a.size(); ++i) {
    T want = Rounded(c, a[i], b[i]);
    bool exact = IsSpecial(a[i]) || IsSpecial(b[i]) ||
                 (pow && (std::fabs(a[i]) == 1 || b[i] == 0));
    if (!exact) continue;
    EXPECT_TRUE(SameValue(got[i], want))
        << c.name << "(" << Show(a[i]) << ", " << Show(b[i])
        << ") = " << Show(got[i]) << ", want " << Show(want);
  }
}

TEST(MathSpecialValues, PowAndAtan2MatchC) {
  for (const BinaryCase& c : BinaryCases()) {
    CheckBinarySpecials<float>(c, Elem::kF32);
    CheckBinarySpecials<double>(c, Elem::kF64);
  }
}

// Random bit patterns, huge over tiny (long loops), subnormals, specials.
template <typename T>
void CheckFmod(Elem e) {
  std::vector<T> a = StrideSamples<T>(1 << 14);
  std::vector<T> b = a;
  std::mt19937_64 rng(3);
  std::shuffle(b.begin(), b.end(), rng);
  std::vector<T> edges = EdgeValues<T>();
  for (T x : edges) {
    for (T y : edges) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  for (int i = 0; i < 200; ++i) {
    a.push_back(std::ldexp(T(1.0) + T(i) / 256,
                           std::numeric_limits<T>::max_exponent - 1 - i));
    b.push_back(std::numeric_limits<T>::denorm_min() * T(3 + 2 * i));
  }
  std::vector<void*> fns = CompileKernels(
      Target::kHost,
      {Binary("fmod", EmitFmod, e, 1), Binary("fmod", EmitFmod, e, 4)});
  std::vector<void*> base =
      CompileKernels(Target::kBaseline, {Binary("fmod", EmitFmod, e, 1)});
  ASSERT_EQ(fns.size(), 2u);
  ASSERT_EQ(base.size(), 1u);
  std::vector<std::vector<T>> results = {RunKernel2<T>(fns[0], a, b),
                                         RunKernel2<T>(fns[1], a, b, 4),
                                         RunKernel2<T>(base[0], a, b)};
  for (const std::vector<T>& got : results) {
    int failures = 0;
    for (size_t i = 0; i < a.size() && failures < 5; ++i) {
      T want = std::fmod(a[i], b[i]);
      if (SameValue(got[i], want)) continue;
      ++failures;
      ADD_FAILURE() << "fmod(" << Show(a[i]) << ", " << Show(b[i])
                    << ") = " << Show(got[i]) << ", want " << Show(want);
    }
  }
}

TEST(MathFmod, ExactLikeC) {
  CheckFmod<float>(Elem::kF32);
  CheckFmod<double>(Elem::kF64);
}

// float f(float x, float y) whose entry block already ends in a branch to a
// block with a phi: fmod is emitted before the branch, so the rest of the
// block and the phi's predecessor must move behind its loop.
TEST(MathFmod, EmitsBeforeExistingInstructions) {
  auto ctx = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("m", *ctx);
  llvm::Type* f32 = llvm::Type::getFloatTy(*ctx);
  auto* fn = llvm::Function::Create(
      llvm::FunctionType::get(f32, {f32, f32}, false),
      llvm::Function::ExternalLinkage, "fmod_mid", *module);
  auto* entry = llvm::BasicBlock::Create(*ctx, "entry", fn);
  auto* next = llvm::BasicBlock::Create(*ctx, "next", fn);
  llvm::IRBuilder<> b(entry);
  llvm::Instruction* br = b.CreateBr(next);
  b.SetInsertPoint(next);
  llvm::PHINode* phi = b.CreatePHI(f32, 1);
  phi->addIncoming(llvm::ConstantFP::get(f32, 0.0), entry);
  b.CreateRet(phi);
  b.SetInsertPoint(br);
  llvm::Value* r = EmitFmod(b, fn->getArg(0), fn->getArg(1));
  phi->setIncomingValue(0, r);
  std::vector<void*> addr = CompileModule(Target::kHost, std::move(ctx),
                                          std::move(module), {"fmod_mid"});
  ASSERT_EQ(addr.size(), 1u);
  auto call = reinterpret_cast<float (*)(float, float)>(addr[0]);
  EXPECT_EQ(call(7.5f, 2.0f), 1.5f);
  EXPECT_EQ(call(-1e30f, 3.0f), std::fmod(-1e30f, 3.0f));
}

// Explicit <4 x T> and <8 x T> IR must give the scalar IR's bits.
template <typename T>
void CheckVectorsMatchScalar(Elem e) {
  std::vector<T> a = StrideSamples<T>(4096);
  std::vector<T> edges = EdgeValues<T>();
  a.insert(a.end(), edges.begin(), edges.end());
  std::vector<T> b = a;
  std::reverse(b.begin(), b.end());
  std::vector<KernelSpec> specs;
  for (const UnaryCase& c : UnaryCases()) {
    for (unsigned w : {1u, 4u, 8u})
      specs.push_back(Unary(c.name, c.emit, e, w));
  }
  for (const BinaryCase& c : BinaryCases()) {
    for (unsigned w : {1u, 4u, 8u}) {
      specs.push_back(Binary(c.name, c.emit, e, w));
    }
  }
  std::vector<void*> fns = CompileKernels(Target::kHost, specs);
  ASSERT_EQ(fns.size(), specs.size());
  for (size_t k = 0; k < specs.size(); k += 3) {
    bool binary = specs[k].inputs.size() == 2;
    auto run = [&](size_t j) {
      unsigned w = specs[j].width;
      return binary ? RunKernel2<T>(fns[j], a, b, w)
                    : RunKernel<T, T>(fns[j], a, w);
    };
    std::vector<T> scalar = run(k);
    for (size_t j = k + 1; j < k + 3; ++j) {
      std::vector<T> vec = run(j);
      for (size_t i = 0; i < a.size(); ++i) {
        if (SameValue(scalar[i], vec[i])) continue;
        ADD_FAILURE() << specs[j].name << " width " << specs[j].width << " at "
                      << Show(a[i]) << ": " << Show(vec[i]) << " vs scalar "
                      << Show(scalar[i]);
        break;
      }
    }
  }
}

TEST(MathVectors, MatchScalar) {
  CheckVectorsMatchScalar<float>(Elem::kF32);
  CheckVectorsMatchScalar<double>(Elem::kF64);
}

// A caller's fast-math flags (nnan, ninf...) must not reach the emitted
// special-value selects.
TEST(MathIr, IgnoresCallerFastMathFlags) {
  std::vector<KernelSpec> specs;
  for (UnaryEmitter emit : {EmitLog, EmitExp, EmitSin}) {
    specs.push_back(
        {KernelName("fast"),
         {Elem::kF32},
         Elem::kF32,
         1,
         [emit](llvm::IRBuilderBase& b, std::span<llvm::Value* const> v) {
           b.setFastMathFlags(llvm::FastMathFlags::getFast());
           llvm::Value* r = emit(b, v[0]);
           EXPECT_TRUE(b.getFastMathFlags().isFast());
           b.clearFastMathFlags();
           return r;
         }});
  }
  std::vector<void*> fns = CompileKernels(Target::kHost, specs);
  ASSERT_EQ(fns.size(), 3u);
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> log =
      RunKernel<float, float>(fns[0], {-1.0f, 0.0f, inf, nan});
  EXPECT_TRUE(std::isnan(log[0]));
  EXPECT_EQ(log[1], -inf);
  EXPECT_EQ(log[2], inf);
  EXPECT_TRUE(std::isnan(log[3]));
  std::vector<float> exp = RunKernel<float, float>(fns[1], {inf, -inf, nan});
  EXPECT_EQ(exp[0], inf);
  EXPECT_EQ(exp[1], 0.0f);
  EXPECT_TRUE(std::isnan(exp[2]));
  std::vector<float> sin = RunKernel<float, float>(fns[2], {-0.0f, inf});
  EXPECT_TRUE(std::signbit(sin[0]));
  EXPECT_TRUE(std::isnan(sin[1]));
}

}  // namespace
}  // namespace aotc::codegen::math_test
