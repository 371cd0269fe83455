// Tests of the CHLO lowering: each op is lowered into a small computation,
// verified, and run by the reference evaluator; the values are compared with
// the C++ library (std::lgamma, std::erfc, std::nextafter, ...), with
// references computed here in long double (erf_inv by bisection on erfc,
// bessel_i1e by its power series, digamma by Richardson-extrapolated
// differences of lgamma and by exact identities), over dense grids and the
// edge cases, within the bounds docs/stablehlo.md states.
#include "compiler/frontend/stablehlo/chlo_lowering.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/evaluator_test_util.h"
#include "compiler/frontend/stablehlo/chlo_test_references.h"
#include "compiler/ir/module.h"
#include "compiler/ir/verifier.h"

namespace aotc {
namespace {

using P = PrimitiveType;
using chlo_testing::BesselI1eReference;
using chlo_testing::DigammaByDifferences;
using chlo_testing::ErfInvReference;
using chlo_testing::kEulerGamma;
using chlo_testing::LD;
using chlo_testing::MixedError;

// A module whose entry lowers `name` on one parameter per shape in
// `operands`.
absl::StatusOr<std::unique_ptr<Module>> Build(
    std::string_view name, const std::vector<Shape>& operands, Shape result,
    std::optional<int64_t> k = std::nullopt) {
  auto module = std::make_unique<Module>("m");
  auto entry = std::make_unique<Computation>("e");
  ChloOp op;
  op.name = std::string(name);
  for (size_t i = 0; i < operands.size(); ++i) {
    auto p = Instruction::Create(Opcode::kParameter, "p" + std::to_string(i),
                                 operands[i], {});
    p->mutable_attrs().parameter_number = static_cast<int64_t>(i);
    op.operands.push_back(entry->AddInstruction(std::move(p)));
  }
  op.result_shape = std::move(result);
  op.k = k;
  absl::StatusOr<Instruction*> root = LowerChloOp(op, *entry);
  if (!root.ok()) return root.status();
  entry->set_root(*root);
  module->set_entry(module->AddComputation(std::move(entry)));
  if (absl::Status s = VerifyModule(*module); !s.ok()) return s;
  return module;
}

// Lowers the unary `name` on an f32 / f64 vector and evaluates it.
template <P kType>
std::vector<NativeType<kType>> RunUnary(
    std::string_view name, const std::vector<NativeType<kType>>& x) {
  const Shape shape = Shape::Array(kType, {static_cast<int64_t>(x.size())});
  auto module = Build(name, {shape}, shape);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return {};
  auto r = EvaluateModule(**module, {testing::Vec<kType>(x)});
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return {};
  return testing::Values<kType>(*r);
}

// Checks `name` in f64 and f32 against `ref` on `x`; the f32 results are
// the f64 ones rounded, so their bound is about half an f32 ulp.
void CheckAgainst(std::string_view name, const std::vector<double>& x,
                  const std::function<LD(LD)>& ref, double f64_bound,
                  double f32_bound) {
  const std::vector<double> got = RunUnary<P::kF64>(name, x);
  ASSERT_EQ(got.size(), x.size());
  double worst = 0, worst_x = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double e = MixedError(got[i], ref(x[i]));
    if (e > worst) worst = e, worst_x = x[i];
    EXPECT_LE(e, f64_bound) << name << "(" << x[i] << ") = " << got[i]
                            << ", expected " << double(ref(x[i]));
  }
  std::printf("%s f64: max error %.3g at %.17g\n", std::string(name).c_str(),
              worst, worst_x);
  std::vector<float> xf;
  for (double v : x) xf.push_back(static_cast<float>(v));
  const std::vector<float> gotf = RunUnary<P::kF32>(name, xf);
  ASSERT_EQ(gotf.size(), xf.size());
  worst = 0;
  for (size_t i = 0; i < xf.size(); ++i) {
    const LD r = ref(xf[i]);
    // Results beyond the f32 range must overflow to infinity.
    const LD rr = std::fabs(r) > std::numeric_limits<float>::max()
                      ? std::copysign(LD(INFINITY), r)
                      : r;
    const double e = MixedError(gotf[i], rr);
    if (e > worst) worst = e, worst_x = xf[i];
    EXPECT_LE(e, f32_bound) << name << "(" << xf[i] << ") = " << gotf[i]
                            << ", expected " << double(r);
  }
  std::printf("%s f32: max error %.3g at %.9g\n", std::string(name).c_str(),
              worst, worst_x);
}

std::vector<double> Grid(double lo, double hi, int n) {
  std::vector<double> v;
  for (int i = 0; i <= n; ++i) v.push_back(lo + (hi - lo) * i / n);
  return v;
}

std::vector<double> Specials() {
  const double inf = std::numeric_limits<double>::infinity();
  return {0.0,    -0.0,    inf,    -inf,  std::nan(""),
          1e-300, -1e-300, 5e-324, 1e300, -1e300};
}

// --- lgamma ----------------------------------------------------------------

TEST(ChloLoweringTest, Lgamma) {
  std::vector<double> x = Grid(-40.5, 40.5, 8101);  // integers excluded
  for (double v : Specials()) x.push_back(v);
  for (double e = -300; e <= 300; e += 1.7) x.push_back(std::pow(10.0, e));
  for (int n = 0; n >= -30; --n) {  // poles, and next to them
    x.push_back(n);
    x.push_back(n + 1e-9);
    x.push_back(n - 1e-6);
  }
  for (double v : {1.0, 2.0, 1 + 1e-10, 2 - 1e-12, 0.5, 1.5, 2.5})
    x.push_back(v);
  CheckAgainst(
      "lgamma", x, [](LD v) { return std::lgamma(v); }, 5e-15, 6.2e-8);
}

TEST(ChloLoweringTest, LgammaExactValues) {
  // Gamma(1) = Gamma(2) = 1, Gamma(1/2) = sqrt(pi), Gamma(-1/2) = -2 sqrt(pi),
  // Gamma(5) = 24.
  const std::vector<double> got =
      RunUnary<P::kF64>("lgamma", {1, 2, 0.5, -0.5, 5});
  const double log_sqrt_pi = 0.5 * std::log(M_PI);
  EXPECT_NEAR(got[0], 0, 1e-15);
  EXPECT_NEAR(got[1], 0, 1e-15);
  EXPECT_NEAR(got[2], log_sqrt_pi, 1e-15);
  EXPECT_NEAR(got[3], std::log(2.0) + log_sqrt_pi, 1e-15);
  EXPECT_NEAR(got[4], std::log(24.0), 1e-15);
}

// --- digamma ---------------------------------------------------------------

TEST(ChloLoweringTest, DigammaAgainstDifferencesOfLgamma) {
  std::vector<double> x = Grid(-20.25, 30.25, 2020);
  for (double v :
       {0.01, 0.1, 1.4616321449683623, 100.5, 1e4 + 0.5, 1e8 + 0.5}) {
    x.push_back(v);
  }
  // Keep off the poles, where the difference quotient means nothing.
  std::vector<double> off_poles;
  for (double v : x) {
    if (std::fabs(v - std::round(v)) > 0.1 || v > 0) off_poles.push_back(v);
  }
  CheckAgainst("digamma", off_poles, DigammaByDifferences, 5e-11, 6.2e-8);
}

TEST(ChloLoweringTest, DigammaIdentities) {
  // psi(n) = -gamma + H(n-1); psi(n + 1/2) = -gamma - 2 ln 2 + sum 2/(2k-1);
  // psi(-x) from psi(1 + x) = psi(-x) + pi cot(pi x)... at half-integers
  // cot vanishes, so psi(1/2 - n) = psi(1/2 + n).
  std::vector<double> x;
  std::vector<LD> want;
  LD harmonic = 0, odd = 0;
  for (int n = 1; n <= 40; ++n) {
    x.push_back(n);
    want.push_back(-kEulerGamma + harmonic);
    harmonic += 1.0L / n;
    x.push_back(n - 0.5);
    want.push_back(-kEulerGamma - 2 * std::log(2.0L) + odd);
    x.push_back(0.5 - n);  // psi(1/2 - n) = psi(1/2 + n)
    odd += 2.0L / (2 * n - 1);
    want.push_back(-kEulerGamma - 2 * std::log(2.0L) + odd);
  }
  const std::vector<double> got = RunUnary<P::kF64>("digamma", x);
  ASSERT_EQ(got.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_LE(MixedError(got[i], want[i]), 4e-15) << "digamma(" << x[i] << ")";
  }
}

TEST(ChloLoweringTest, DigammaPolesAndInfinities) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> got =
      RunUnary<P::kF64>("digamma", {0, -0.0, -1, -7, inf, -inf, std::nan("")});
  for (int i : {0, 1, 2, 3, 5, 6}) EXPECT_TRUE(std::isnan(got[i])) << i;
  EXPECT_EQ(got[4], inf);
}

// --- erfc ------------------------------------------------------------------

TEST(ChloLoweringTest, Erfc) {
  std::vector<double> x = Grid(-7, 28, 14000);
  for (double v : Specials()) x.push_back(v);
  for (double v : {0.4999999, 0.5, 4.0, 3.9999999, 26.5, 27.3}) x.push_back(v);
  // Relative error: erfc has no zeros, so relative is what matters even
  // where it underflows towards 0.
  const std::vector<double> got = RunUnary<P::kF64>("erfc", x);
  double worst = 0, worst_x = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const LD r = std::erfc(static_cast<LD>(x[i]));
    double e;
    if (std::isnan(r)) {
      e = std::isnan(got[i]) ? 0 : INFINITY;
    } else if (r < 1e-300L) {
      e = std::fabs(got[i] - r) <= 1e-300 ? 0 : INFINITY;  // subnormal range
    } else {
      e = static_cast<double>(std::fabs(got[i] - r) / r);
    }
    if (e > worst) worst = e, worst_x = x[i];
    EXPECT_LE(e, 2e-15) << "erfc(" << x[i] << ") = " << got[i] << ", expected "
                        << double(r);
  }
  std::printf("erfc f64: max relative error %.3g at %.17g\n", worst, worst_x);
  CheckAgainst(
      "erfc", Grid(-6, 11, 3400), [](LD v) { return std::erfc(v); }, 2e-15,
      6.2e-8);
}

// --- erf_inv ---------------------------------------------------------------

TEST(ChloLoweringTest, ErfInv) {
  std::vector<double> y = Grid(-1, 1, 20000);
  for (int k = 1; k < 60; ++k) {
    y.push_back(1 - std::ldexp(1.0, -k));
    y.push_back(-1 + std::ldexp(1.0, -k));
    y.push_back(std::ldexp(1.0, -10 * k));
  }
  for (double v : {std::nextafter(1.0, 0.0), -std::nextafter(1.0, 0.0), 1.5,
                   -2.0, 0.0, -0.0, std::nan("")}) {
    y.push_back(v);
  }
  // erf_inv's relative error matters; MixedError is relative above 1 only,
  // so check relative error explicitly.
  const std::vector<double> got = RunUnary<P::kF64>("erf_inv", y);
  double worst = 0, worst_y = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    const LD r = ErfInvReference(y[i]);
    double e;
    if (std::isnan(r) || std::isinf(r) || r == 0) {
      e = (std::isnan(r) ? std::isnan(got[i]) : got[i] == r) ? 0 : INFINITY;
    } else {
      e = static_cast<double>(std::fabs(got[i] - r) / std::fabs(r));
    }
    if (e > worst) worst = e, worst_y = y[i];
    EXPECT_LE(e, 2e-15) << "erf_inv(" << y[i] << ") = " << got[i]
                        << ", expected " << double(r);
  }
  std::printf("erf_inv f64: max relative error %.3g at %.17g\n", worst,
              worst_y);
  CheckAgainst("erf_inv", Grid(-0.9999, 0.9999, 4000), ErfInvReference, 2e-15,
               6.2e-8);
}

// --- bessel_i1e ------------------------------------------------------------

TEST(ChloLoweringTest, BesselI1e) {
  std::vector<double> x = Grid(-60, 60, 12000);
  for (double v : {7.9999999, 8.0, 8.0000001, 100.0, 700.0, -700.0, 1e-300, 0.0,
                   -0.0, std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity(), std::nan("")}) {
    x.push_back(v);
  }
  // i1e is below 1 everywhere (absolute error) and behaves like x/2 near 0
  // (relative error there): test both.
  const std::vector<double> got = RunUnary<P::kF64>("bessel_i1e", x);
  double worst = 0, worst_x = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const LD r = BesselI1eReference(x[i]);
    double e;
    if (std::isnan(r) || r == 0) {
      e = (std::isnan(r) ? std::isnan(got[i]) : got[i] == 0) ? 0 : INFINITY;
    } else {
      e = static_cast<double>(std::fabs(got[i] - r) / std::fabs(r));
    }
    if (e > worst) worst = e, worst_x = x[i];
    EXPECT_LE(e, 2e-15) << "bessel_i1e(" << x[i] << ") = " << got[i]
                        << ", expected " << double(r);
  }
  std::printf("bessel_i1e f64: max relative error %.3g at %.17g\n", worst,
              worst_x);
  CheckAgainst("bessel_i1e", Grid(-30, 30, 3000), BesselI1eReference, 2e-15,
               6.2e-8);
}

// --- next_after ------------------------------------------------------------

template <P kType>
void CheckNextAfter() {
  using T = NativeType<kType>;
  using L = std::numeric_limits<T>;
  const std::vector<T> values = {T(0),
                                 T(-0.0),
                                 T(1),
                                 T(-1),
                                 T(1.5),
                                 L::denorm_min(),
                                 -L::denorm_min(),
                                 L::min(),
                                 L::max(),
                                 -L::max(),
                                 L::infinity(),
                                 -L::infinity(),
                                 L::quiet_NaN(),
                                 T(3e-5),
                                 T(-7.25)};
  std::vector<T> x, y;
  for (T a : values) {
    for (T b : values) {
      x.push_back(a);
      y.push_back(b);
    }
  }
  const Shape shape = Shape::Array(kType, {static_cast<int64_t>(x.size())});
  auto module = Build("next_after", {shape, shape}, shape);
  ASSERT_TRUE(module.ok()) << module.status();
  auto r = EvaluateModule(**module,
                          {testing::Vec<kType>(x), testing::Vec<kType>(y)});
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<T> got = testing::Values<kType>(*r);
  for (size_t i = 0; i < x.size(); ++i) {
    const T want = std::nextafter(x[i], y[i]);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got[i])) << x[i] << " " << y[i];
      continue;
    }
    EXPECT_EQ(got[i], want) << "next_after(" << x[i] << ", " << y[i] << ")";
    EXPECT_EQ(std::signbit(got[i]), std::signbit(want))
        << "next_after(" << x[i] << ", " << y[i] << ")";
  }
}

TEST(ChloLoweringTest, NextAfterF32) { CheckNextAfter<P::kF32>(); }
TEST(ChloLoweringTest, NextAfterF64) { CheckNextAfter<P::kF64>(); }

TEST(ChloLoweringTest, NextAfterBF16) {
  // bf16 1 is 0x3F80: up is 0x3F81 = 1 + 2^-7, down 0x3F7F = 1 - 2^-8; from
  // 0 towards -1 the smallest negative subnormal 0x8001.
  const Shape shape = Shape::Array(P::kBF16, {3});
  auto module = Build("next_after", {shape, shape}, shape);
  ASSERT_TRUE(module.ok()) << module.status();
  auto r = EvaluateModule(**module, {testing::HalfVec<P::kBF16>({1, 1, 0}),
                                     testing::HalfVec<P::kBF16>({2, 0, -1})});
  ASSERT_TRUE(r.ok()) << r.status();
  const auto data = r->data<BFloat16>();
  EXPECT_EQ(data[0].bits, 0x3F81);
  EXPECT_EQ(data[1].bits, 0x3F7F);
  EXPECT_EQ(data[2].bits, 0x8001);
}

// --- ops that map to one HLO opcode -----------------------------------------

TEST(ChloLoweringTest, SameMeaningOpcodes) {
  const std::pair<const char*, Opcode> cases[] = {
      {"tan", Opcode::kTan},     {"erf", Opcode::kErf},
      {"asin", Opcode::kAsin},   {"acosh", Opcode::kAcosh},
      {"asinh", Opcode::kAsinh}, {"atanh", Opcode::kAtanh},
      {"sinh", Opcode::kSinh},   {"cosh", Opcode::kCosh}};
  const Shape shape = Shape::Array(P::kF32, {2, 3});
  for (const auto& [name, opcode] : cases) {
    auto module = Build(name, {shape}, shape);
    ASSERT_TRUE(module.ok()) << name << ": " << module.status();
    EXPECT_EQ((*module)->entry()->root()->opcode(), opcode) << name;
  }
}

TEST(ChloLoweringTest, AtanIsAtan2WithOne) {
  const std::vector<float> x = {0, -0.0f, 1, -1, 1e30f, -3, 0.25f};
  const std::vector<float> got = RunUnary<P::kF32>("atan", x);
  ASSERT_EQ(got.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(got[i], std::atan2(x[i], 1.0f)) << x[i];
    EXPECT_EQ(std::signbit(got[i]), std::signbit(x[i])) << x[i];
  }
}

// Complex atan is -i atanh(iz): against the C++ library's complex atan in
// c128, where both are within a few ulps of the exact value.
TEST(ChloLoweringTest, ComplexAtanIsMinusITimesAtanhOfIZ) {
  using C = std::complex<double>;
  const std::vector<C> z = {C(0.5, 0.25), C(-2, 3), C(0, 0.5), C(10, -0.1),
                            C(-0.3, -4)};
  const Shape shape = Shape::Array(P::kC128, {static_cast<int64_t>(z.size())});
  auto module = Build("atan", {shape}, shape);
  ASSERT_TRUE(module.ok()) << module.status();
  auto r = EvaluateModule(**module, {testing::Vec<P::kC128>(z)});
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<C> got = testing::Values<P::kC128>(*r);
  for (size_t i = 0; i < z.size(); ++i) {
    const C want = std::atan(z[i]);
    EXPECT_NEAR(got[i].real(), want.real(), 1e-15 * std::abs(want)) << z[i];
    EXPECT_NEAR(got[i].imag(), want.imag(), 1e-15 * std::abs(want)) << z[i];
  }
}

TEST(ChloLoweringTest, HalfTypesComputeWideAndRoundOnce) {
  // lgamma(3) = ln 2 and erfc(0) = 1; f16 and bf16 get the value rounded.
  for (P type : {P::kF16, P::kBF16}) {
    const Shape shape = Shape::Array(type, {2});
    auto module = Build("lgamma", {shape}, shape);
    ASSERT_TRUE(module.ok()) << module.status();
    Literal arg = type == P::kF16 ? testing::HalfVec<P::kF16>({3, 1})
                                  : testing::HalfVec<P::kBF16>({3, 1});
    auto r = EvaluateModule(**module, {arg});
    ASSERT_TRUE(r.ok()) << r.status();
    const std::vector<float> got = type == P::kF16
                                       ? testing::HalfValues<P::kF16>(*r)
                                       : testing::HalfValues<P::kBF16>(*r);
    const float ln2 = type == P::kF16
                          ? static_cast<float>(Half(std::log(2.0f)))
                          : static_cast<float>(BFloat16(std::log(2.0f)));
    EXPECT_EQ(got[0], ln2);
    EXPECT_EQ(got[1], 0.0f);
  }
}

// --- top_k -----------------------------------------------------------------

TEST(ChloLoweringTest, TopKReturnsValuesAndIndices) {
  const Shape in = Shape::Array(P::kF32, {2, 4});
  const Shape out = Shape::Tuple(
      {Shape::Array(P::kF32, {2, 2}), Shape::Array(P::kS32, {2, 2})});
  auto module = Build("top_k", {in}, out, 2);
  ASSERT_TRUE(module.ok()) << module.status();
  const Instruction* root = (*module)->entry()->root();
  EXPECT_EQ(root->opcode(), Opcode::kTopK);
  auto r = EvaluateModule(**module, {testing::MakeArray<P::kF32>(
                                        {2, 4}, {3, 1, 4, 1, 5, 9, 2, 6})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(testing::Values<P::kF32>(r->tuple_elements()[0]),
            (std::vector<float>{4, 3, 9, 6}));
  EXPECT_EQ(testing::Values<P::kS32>(r->tuple_elements()[1]),
            (std::vector<int32_t>{2, 0, 1, 3}));
}

// --- errors ----------------------------------------------------------------

TEST(ChloLoweringTest, UnknownOpIsALocatedError) {
  auto file = std::make_shared<SourceFile>();
  file->name = "model.mlir";
  file->text = "line one\n  %0 = chlo.frobnicate %arg0\n";
  Computation comp("main");
  auto p = Instruction::Create(Opcode::kParameter, "p0",
                               Shape::Array(P::kF32, {2}), {});
  ChloOp op;
  op.name = "frobnicate";
  op.operands.push_back(comp.AddInstruction(std::move(p)));
  op.result_shape = Shape::Array(P::kF32, {2});
  op.location = Location{file, 2, 8};
  absl::StatusOr<Instruction*> r = LowerChloOp(op, comp);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(
      r.status().message().find(
          "model.mlir:2:8: error: unknown CHLO operation 'chlo.frobnicate'"),
      std::string::npos)
      << r.status();
}

TEST(ChloLoweringTest, RefusesWhatItCannotLower) {
  const Shape f32 = Shape::Array(P::kF32, {2});
  const Shape c64 = Shape::Array(P::kC64, {2});
  const Shape s32 = Shape::Array(P::kS32, {2});
  EXPECT_FALSE(Build("lgamma", {c64}, c64).ok());
  EXPECT_FALSE(Build("erf", {c64}, c64).ok());
  EXPECT_FALSE(Build("atan", {s32}, s32).ok());
  EXPECT_FALSE(Build("lgamma", {f32, f32}, f32).ok());
  EXPECT_FALSE(Build("top_k", {f32}, Shape::Tuple({f32, s32})).ok());  // no k
  // k = 1 gives f32[1] values, not f32[2].
  EXPECT_FALSE(Build("top_k", {f32}, Shape::Tuple({f32, s32}), 1).ok());
  auto mismatch = Build("erfc", {Shape::Array(P::kF32, {3})}, f32);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_NE(mismatch.status().message().find("does not match"),
            std::string::npos);
  // Complex asin stays the HLO opcode (the evaluator computes it; code
  // generation refuses it with its own located error).
  EXPECT_TRUE(Build("asin", {c64}, c64).ok());
}

}  // namespace
}  // namespace aotc
