// End to end: the CHLO lowerings compiled through the pipeline and the JIT
// (every operation they emit must have code generation, f64 included) agree
// with the C++ library within bounds a little above the evaluator's (code
// generation's own log, exp, sin... add a few ulps).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "codegen/tests/codegen_test_util.h"
#include "compiler/frontend/stablehlo/chlo_lowering.h"
#include "compiler/frontend/stablehlo/chlo_test_references.h"
#include "compiler/ir/printer.h"

namespace aotc {
namespace {

using P = PrimitiveType;
using chlo_testing::LD;
using chlo_testing::MixedError;

// HLO text of a module whose entry lowers `name` on `arity` parameters of
// `shape`.
std::string LoweredText(std::string_view name, const Shape& shape, int arity) {
  Module module("m");
  auto entry = std::make_unique<Computation>("e");
  ChloOp op;
  op.name = std::string(name);
  for (int i = 0; i < arity; ++i) {
    auto p = Instruction::Create(Opcode::kParameter, "p" + std::to_string(i),
                                 shape, {});
    p->mutable_attrs().parameter_number = i;
    op.operands.push_back(entry->AddInstruction(std::move(p)));
  }
  op.result_shape = shape;
  absl::StatusOr<Instruction*> root = LowerChloOp(op, *entry);
  EXPECT_TRUE(root.ok()) << root.status();
  if (!root.ok()) return "";
  entry->set_root(*root);
  module.set_entry(module.AddComputation(std::move(entry)));
  return PrintModule(module);
}

template <P kType>
void CheckCompiled(std::string_view name, const std::vector<double>& x,
                   const std::function<LD(LD)>& ref, double bound) {
  using T = NativeType<kType>;
  std::vector<T> in;
  for (double v : x) in.push_back(static_cast<T>(v));
  const std::string text = LoweredText(
      name, Shape::Array(kType, {static_cast<int64_t>(in.size())}), 1);
  auto results = codegen::testing::CompileAndRun(
      text, {testing::Vec<kType>(in)}, 2, /*optimize=*/true);
  ASSERT_TRUE(results.ok()) << results.status();
  const std::vector<T> got = testing::Values<kType>((*results)[0]);
  double worst = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    LD r = ref(in[i]);
    if (std::fabs(r) > std::numeric_limits<T>::max()) {
      r = std::copysign(LD(INFINITY), r);
    }
    const double e = MixedError(got[i], r);
    worst = std::max(worst, e);
    EXPECT_LE(e, bound) << name << "(" << in[i] << ") = " << got[i]
                        << ", expected " << double(r);
  }
  std::printf("compiled %s %s: max error %.3g\n", std::string(name).c_str(),
              std::string(PrimitiveTypeName(kType)).c_str(), worst);
}

std::vector<double> Grid(double lo, double hi, int n) {
  std::vector<double> v;
  for (int i = 0; i <= n; ++i) v.push_back(lo + (hi - lo) * i / n);
  v.push_back(std::numeric_limits<double>::infinity());
  v.push_back(std::nan(""));
  return v;
}

TEST(ChloLoweringE2eTest, LgammaAndErfc) {
  const auto lgamma = [](LD v) { return std::lgamma(v); };
  const auto erfc = [](LD v) { return std::erfc(v); };
  CheckCompiled<P::kF64>("lgamma", Grid(-20.3, 40.3, 3000), lgamma, 3e-14);
  CheckCompiled<P::kF32>("lgamma", Grid(-20.3, 40.3, 3000), lgamma, 1.2e-7);
  CheckCompiled<P::kF64>("erfc", Grid(-6, 27, 3000), erfc, 3e-15);
  CheckCompiled<P::kF32>("erfc", Grid(-6, 11, 3000), erfc, 1.2e-7);
}

TEST(ChloLoweringE2eTest, DigammaErfInvBesselI1e) {
  // Off the poles, where the difference quotient of the reference means
  // nothing (the evaluator test checks the poles).
  std::vector<double> x;
  for (int i = 0; i <= 2000; ++i) {
    const double v = -9.75 + 40.0 * i / 2000;
    if (v > 0 || std::fabs(v - std::round(v)) > 0.1) x.push_back(v);
  }
  CheckCompiled<P::kF64>("digamma", x, chlo_testing::DigammaByDifferences,
                         5e-11);
  CheckCompiled<P::kF32>("digamma", x, chlo_testing::DigammaByDifferences,
                         1.2e-7);
  std::vector<double> y = Grid(-1, 1, 2000);
  for (int k = 1; k < 50; ++k) y.push_back(1 - std::ldexp(1.0, -k));
  CheckCompiled<P::kF64>("erf_inv", y, chlo_testing::ErfInvReference, 3e-15);
  CheckCompiled<P::kF32>("erf_inv", y, chlo_testing::ErfInvReference, 1.2e-7);
  x = Grid(-40, 40, 2000);
  CheckCompiled<P::kF64>("bessel_i1e", x, chlo_testing::BesselI1eReference,
                         3e-15);
  CheckCompiled<P::kF32>("bessel_i1e", x, chlo_testing::BesselI1eReference,
                         1.2e-7);
}

TEST(ChloLoweringE2eTest, NextAfterAndHalfTypes) {
  // next_after on the bits, in f32 and through 16-bit integers for f16.
  for (P type : {P::kF32, P::kF16}) {
    const Shape shape = Shape::Array(type, {4});
    const std::string text = LoweredText("next_after", shape, 2);
    const bool f32 = type == P::kF32;
    const std::vector<float> x = {1, 0, -1, 2}, y = {2, -1, -1, 0};
    auto arg = [&](const std::vector<float>& v) {
      return f32 ? testing::Vec<P::kF32>(v) : testing::HalfVec<P::kF16>(v);
    };
    auto results = codegen::testing::CompileAndRun(text, {arg(x), arg(y)}, 2,
                                                   /*optimize=*/true);
    ASSERT_TRUE(results.ok()) << results.status();
    const std::vector<float> got =
        f32 ? testing::Values<P::kF32>((*results)[0])
            : testing::HalfValues<P::kF16>((*results)[0]);
    const float step = f32 ? 0x1p-23f : 0x1p-10f;   // above 1
    const float tiny = f32 ? 0x1p-149f : 0x1p-24f;  // smallest subnormal
    const float below2 = f32 ? 2 - 0x1p-23f : 2 - 0x1p-10f;
    EXPECT_EQ(got, (std::vector<float>{1 + step, -tiny, -1, below2}));
  }
  // lgamma in bf16 through f64: lgamma(3) = ln 2 rounded to bf16.
  const Shape shape = Shape::Array(P::kBF16, {2});
  auto results = codegen::testing::CompileAndRun(
      LoweredText("lgamma", shape, 1), {testing::HalfVec<P::kBF16>({3, 1})}, 2,
      /*optimize=*/true);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(
      testing::HalfValues<P::kBF16>((*results)[0]),
      (std::vector<float>{static_cast<float>(BFloat16(std::log(2.0f))), 0.0f}));
}

}  // namespace
}  // namespace aotc
