// The f16 / bf16 conversion emitters against compiler/support/float16.h.
//
// Widening is checked on all 65536 inputs; narrowing on a stride sweep over
// all bit patterns plus, for every finite 16-bit value, the midpoint to its
// successor and that midpoint's neighbours (the ties and near-ties where the
// rounding decides), bit for bit, NaN payloads included. Each conversion is
// also compiled as explicit <4 x ...> vector IR and for the x86-64
// baseline, where fptrunc to half would be a __truncsfhf2 call.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/math/math_test_jit.h"
#include "codegen/elemental/math/math_test_util.h"
#include "compiler/support/float16.h"
#include "gtest/gtest.h"

namespace aotc::codegen::math_test {
namespace {

using Converter = llvm::Value* (*)(llvm::IRBuilderBase&, llvm::Value*);

uint64_t RawBits(uint16_t v) { return v; }
uint64_t RawBits(float v) { return BitsOf(v); }
uint64_t RawBits(double v) { return BitsOf(v); }

KernelSpec ConversionSpec(const char* name, Converter emit, Elem in, Elem out,
                          unsigned width) {
  return {KernelName(name),
          {in},
          out,
          width,
          [emit](llvm::IRBuilderBase& b, std::span<llvm::Value* const> v) {
            return emit(b, v[0]);
          }};
}

// Runs `emit` as a scalar and a 4-wide vector kernel on the host and as a
// scalar kernel on the baseline target, and compares each with `expected`.
template <typename In, typename Out, typename Expected>
void CheckConversion(const char* name, Converter emit, Elem in, Elem out,
                     const std::vector<In>& inputs, Expected expected) {
  std::vector<void*> host =
      CompileKernels(Target::kHost, {ConversionSpec(name, emit, in, out, 1),
                                     ConversionSpec(name, emit, in, out, 4)});
  std::vector<void*> base = CompileKernels(
      Target::kBaseline, {ConversionSpec(name, emit, in, out, 1)});
  ASSERT_EQ(host.size(), 2u);
  ASSERT_EQ(base.size(), 1u);
  struct Variant {
    const char* what;
    std::vector<Out> got;
  };
  const Variant variants[] = {
      {"scalar", RunKernel<In, Out>(host[0], inputs)},
      {"vector", RunKernel<In, Out>(host[1], inputs, 4)},
      {"baseline", RunKernel<In, Out>(base[0], inputs)}};
  for (const Variant& v : variants) {
    int failures = 0;
    for (size_t i = 0; i < inputs.size() && failures < 5; ++i) {
      Out want = expected(inputs[i]);
      if (RawBits(want) == RawBits(v.got[i])) continue;
      ++failures;
      ADD_FAILURE() << name << " (" << v.what << ") of bits " << std::hex
                    << RawBits(inputs[i]) << ": got " << RawBits(v.got[i])
                    << ", want " << RawBits(want);
    }
  }
}

std::vector<uint16_t> All16() {
  std::vector<uint16_t> all(65536);
  for (uint32_t i = 0; i < 65536; ++i) all[i] = static_cast<uint16_t>(i);
  return all;
}

// Midpoints between consecutive finite 16-bit values (and between the
// largest and the first overflowing power of two), their neighbours one and
// a few ulps of T away, with both signs, plus a stride sweep.
template <typename T>
std::vector<T> NarrowingInputs(float (*widen)(uint16_t), uint16_t inf_bits) {
  std::vector<T> out = StrideSamples<T>(1 << 20);
  for (uint32_t h = 0; h < inf_bits; ++h) {
    long double lo = widen(static_cast<uint16_t>(h));
    long double hi = h + 1 == inf_bits
                         ? 2.0L * widen(static_cast<uint16_t>(h)) -
                               widen(static_cast<uint16_t>(h - 1))
                         : widen(static_cast<uint16_t>(h + 1));
    T mid = static_cast<T>((lo + hi) / 2);
    for (T v : {mid, std::nextafter(mid, T(0)), std::nextafter(mid, T(1e30)),
                static_cast<T>(lo), static_cast<T>(mid + (hi - lo) / 8)}) {
      out.push_back(v);
      out.push_back(-v);
    }
  }
  return out;
}

TEST(Float16Conversions, WideningAllInputs) {
  CheckConversion<uint16_t, float>("h2f", EmitHalfToFloat, Elem::kI16,
                                   Elem::kF32, All16(), HalfToFloat);
  CheckConversion<uint16_t, float>("b2f", EmitBF16ToFloat, Elem::kI16,
                                   Elem::kF32, All16(), BFloat16ToFloat);
}

TEST(Float16Conversions, FloatToHalf) {
  CheckConversion<float, uint16_t>(
      "f2h", EmitFloatToHalf, Elem::kF32, Elem::kI16,
      NarrowingInputs<float>(HalfToFloat, 0x7c00), FloatToHalf);
}

TEST(Float16Conversions, DoubleToHalfRoundsOnce) {
  std::vector<double> inputs = NarrowingInputs<double>(HalfToFloat, 0x7c00);
  // Just above a midpoint, but rounding to float first would land on it and
  // then tie to even: one rounding must go up.
  for (uint32_t h = 0x0001; h < 0x7c00; h += 37) {
    double mid = (static_cast<double>(HalfToFloat(h)) +
                  HalfToFloat(static_cast<uint16_t>(h + 1))) /
                 2;
    inputs.push_back(mid * (1 + 0x1p-40));
    inputs.push_back(-mid * (1 - 0x1p-40));
  }
  CheckConversion<double, uint16_t>("d2h", EmitDoubleToHalf, Elem::kF64,
                                    Elem::kI16, inputs, DoubleToHalf);
}

TEST(Float16Conversions, FloatToBF16) {
  CheckConversion<float, uint16_t>(
      "f2b", EmitFloatToBF16, Elem::kF32, Elem::kI16,
      NarrowingInputs<float>(BFloat16ToFloat, 0x7f80), FloatToBFloat16);
}

TEST(Float16Conversions, DoubleToBF16RoundsOnce) {
  std::vector<double> inputs = NarrowingInputs<double>(BFloat16ToFloat, 0x7f80);
  for (uint32_t h = 0x0001; h < 0x7f80; h += 37) {
    double mid = (static_cast<double>(BFloat16ToFloat(h)) +
                  BFloat16ToFloat(static_cast<uint16_t>(h + 1))) /
                 2;
    inputs.push_back(mid * (1 + 0x1p-40));
    inputs.push_back(-mid * (1 - 0x1p-40));
  }
  CheckConversion<double, uint16_t>("d2b", EmitDoubleToBF16, Elem::kF64,
                                    Elem::kI16, inputs, DoubleToBFloat16);
}

TEST(Float16Conversions, SpecialValues) {
  // Hand-written: signed zeros, infinities, overflow, NaNs with sign.
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> in = {0.0f,     -0.0f, inf, -inf, 65504.0f, 65519.0f,
                           65520.0f, -1e9f, nan, -nan, 0x1p-25f, 0x1.8p-25f};
  std::vector<uint16_t> want = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7bff, 0x7bff,
                                0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x0000, 0x0001};
  std::vector<void*> fn = CompileKernels(
      Target::kHost,
      {ConversionSpec("f2h", EmitFloatToHalf, Elem::kF32, Elem::kI16, 1)});
  ASSERT_EQ(fn.size(), 1u);
  std::vector<uint16_t> got = RunKernel<float, uint16_t>(fn[0], in);
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(got[i], want[i]) << "input " << in[i];
  }
}

}  // namespace
}  // namespace aotc::codegen::math_test
