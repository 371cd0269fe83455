// Test harness: JIT-compiles loops around the math emitters and runs them.
//
// A kernel is `void name(const In0* in0, [const In1* in1,] Out* out, i64 n)`
// applying an emitter to `width` elements at a time (1 = scalar IR, more =
// explicit vector IR). Kernels go through LLVM's O2 pipeline (including the
// loop vectorizer) for the chosen target and are linked without the process's
// symbols, so any library call the backend emits fails the link.
#ifndef AOTC_CODEGEN_ELEMENTAL_MATH_MATH_TEST_JIT_H_
#define AOTC_CODEGEN_ELEMENTAL_MATH_MATH_TEST_JIT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace aotc::codegen::math_test {

enum class Elem { kF32, kF64, kI16, kI8 };

// The host CPU with all its features, or the x86-64 baseline (SSE2, no FMA,
// no SSE4.1, no F16C) where the process runs on x86-64.
enum class Target { kHost, kBaseline };

using KernelBody = std::function<llvm::Value*(llvm::IRBuilderBase&,
                                              std::span<llvm::Value* const>)>;

struct KernelSpec {
  std::string name;
  std::vector<Elem> inputs;
  Elem output;
  unsigned width = 1;
  KernelBody body;
};

llvm::Type* ElemType(llvm::LLVMContext& ctx, Elem e);

// Adds the kernel's function to `module`.
void AddKernel(llvm::Module& module, const KernelSpec& spec);

// Runs LLVM's O2 pipeline on `module` for `target`.
void OptimizeForTarget(llvm::Module& module, Target target);

// Compiles the kernels (one module, optimized unless `optimize` is false) and
// returns their addresses in order; records a test failure and returns an
// empty vector if building or linking fails.
std::vector<void*> CompileKernels(Target target,
                                  const std::vector<KernelSpec>& specs,
                                  bool optimize = true);

// Compiles an already built module (verified, then optimized unless
// `optimize` is false) and returns the addresses of `names`.
std::vector<void*> CompileModule(Target target,
                                 std::unique_ptr<llvm::LLVMContext> ctx,
                                 std::unique_ptr<llvm::Module> module,
                                 const std::vector<std::string>& names,
                                 bool optimize = true);

// Unique kernel names across a test process.
std::string KernelName(const std::string& base);

// Calls a compiled kernel over whole arrays; `width` pads the inputs to a
// multiple of the kernel's vector width.
template <typename In, typename Out>
std::vector<Out> RunKernel(void* fn, const std::vector<In>& in,
                           unsigned width = 1) {
  std::vector<In> padded = in;
  while (padded.size() % width != 0) padded.push_back(In{});
  std::vector<Out> out(padded.size());
  reinterpret_cast<void (*)(const In*, Out*, int64_t)>(fn)(
      padded.data(), out.data(), static_cast<int64_t>(padded.size()));
  out.resize(in.size());
  return out;
}

template <typename T>
std::vector<T> RunKernel2(void* fn, const std::vector<T>& a,
                          const std::vector<T>& b, unsigned width = 1) {
  std::vector<T> pa = a;
  std::vector<T> pb = b;
  while (pa.size() % width != 0) {
    pa.push_back(T{1});
    pb.push_back(T{1});
  }
  std::vector<T> out(pa.size());
  reinterpret_cast<void (*)(const T*, const T*, T*, int64_t)>(fn)(
      pa.data(), pb.data(), out.data(), static_cast<int64_t>(pa.size()));
  out.resize(a.size());
  return out;
}

}  // namespace aotc::codegen::math_test

#endif  // AOTC_CODEGEN_ELEMENTAL_MATH_MATH_TEST_JIT_H_
