// End-to-end tests of the fft, triangular-solve and cholesky strategies:
// hand-worked cases, compiled transforms against the DFT sum computed here
// (lengths that are powers of two, small composites and primes, c64 and
// c128, 1 to 3 dimensions, all four types), substitution residuals
// op(a) x - b for every option, l l^H = a reconstructions, and every case
// against the evaluator. Each test checks that its strategy was chosen.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "codegen/strategy.h"
#include "codegen/tests/codegen_test_util.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;
using C = std::complex<double>;

// The strategy code generation picks for the root of `hlo`.
std::string RootStrategy(std::string_view hlo) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  if (!module.ok())
    return std::string(module.status().message());
  auto plan = PlanInstruction(*(*module)->entry()->root());
  return plan.ok() ? std::string(plan->name)
                   : std::string(plan.status().message());
}

std::string FftModule(const std::string &in, std::vector<int64_t> in_dims,
                      const std::string &out, std::vector<int64_t> out_dims,
                      const std::string &type, std::vector<int64_t> len) {
  return absl::StrCat("HloModule m\nENTRY e {\n  x = ", in, "[",
                      absl::StrJoin(in_dims, ","),
                      "] parameter(0)\n  ROOT f = ", out, "[",
                      absl::StrJoin(out_dims, ","), "] fft(x), fft_type=", type,
                      ", fft_length={", absl::StrJoin(len, ","), "}\n}\n");
}

std::vector<C> Random(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<C> v(n);
  for (C &c : v)
    c = C(u(gen), u(gen));
  return v;
}

// X[k] = sum_j x[j] exp(-2 pi i j k / n), summed here directly.
std::vector<C> Dft(const std::vector<C> &x) {
  const int64_t n = static_cast<int64_t>(x.size());
  std::vector<C> y(n);
  for (int64_t k = 0; k < n; ++k) {
    for (int64_t j = 0; j < n; ++j) {
      y[k] += x[j] * std::polar(1.0, -2 * std::numbers::pi *
                                         static_cast<double>(j * k % n) / n);
    }
  }
  return y;
}

TEST(FftE2eTest, HandWorkedLengthFour) {
  const std::string hlo = FftModule("c64", {4}, "c64", {4}, "FFT", {4});
  EXPECT_EQ(RootStrategy(hlo), "fft");
  using c64 = std::complex<float>;
  auto r = CompileAndRun(hlo, {MakeArray<P::kC64>({4}, {1, 2, 3, 4})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<P::kC64>((*r)[0]),
            (std::vector<c64>{{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}}));
}

class FftLengthE2eTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(FftLengthE2eTest, MatchesTheDftSum) {
  const int64_t n = GetParam();
  const std::vector<C> x = Random(n, 100 + n);
  const std::vector<C> want = Dft(x);
  // c128: radix 2 or Bluestein in double, against the exact sum.
  {
    const std::string hlo = FftModule("c128", {n}, "c128", {n}, "FFT", {n});
    EXPECT_EQ(RootStrategy(hlo), "fft");
    auto r = CompileAndRun(hlo, {MakeArray<P::kC128>({n}, x)});
    ASSERT_TRUE(r.ok()) << r.status();
    const std::vector<C> got = Values<P::kC128>((*r)[0]);
    for (int64_t k = 0; k < n; ++k) {
      EXPECT_LT(std::abs(got[k] - want[k]), 1e-13 * std::sqrt(n) * 8) << k;
    }
  }
  // c64: computed in double, so within the rounding of the f32 result.
  {
    using c64 = std::complex<float>;
    std::vector<c64> x32(x.begin(), x.end());
    std::vector<C> x32d(x32.begin(), x32.end());
    const std::vector<C> want32 = Dft(x32d);
    const std::string hlo = FftModule("c64", {n}, "c64", {n}, "FFT", {n});
    auto r = CompileAndRun(hlo, {MakeArray<P::kC64>({n}, x32)});
    ASSERT_TRUE(r.ok()) << r.status();
    const std::vector<c64> got = Values<P::kC64>((*r)[0]);
    for (int64_t k = 0; k < n; ++k) {
      EXPECT_LT(std::abs(C(got[k]) - want32[k]),
                1.2e-7 * (std::abs(want32[k]) + 1))
          << k;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Lengths, FftLengthE2eTest,
                         ::testing::Values(1, 2, 8, 1024, 3, 5, 6, 7, 12, 100,
                                           97));

TEST(FftE2eTest, EveryTypeAndRankMatchesTheEvaluator) {
  struct Case {
    std::string in, out;
    std::vector<int64_t> in_dims, out_dims;
    std::string type;
    std::vector<int64_t> len;
  };
  const std::vector<Case> cases = {
      {"c64", "c64", {3, 8}, {3, 8}, "FFT", {8}},
      {"c64", "c64", {2, 6}, {2, 6}, "IFFT", {6}},
      {"f32", "c64", {2, 7}, {2, 4}, "RFFT", {7}},
      {"c64", "f32", {2, 5}, {2, 8}, "IRFFT", {8}},
      {"c128", "c128", {2, 3, 4}, {2, 3, 4}, "FFT", {3, 4}},
      {"c128", "c128", {2, 3, 5, 4}, {2, 3, 5, 4}, "IFFT", {3, 5, 4}},
      {"f64", "c128", {2, 5, 6}, {2, 5, 4}, "RFFT", {5, 6}},
      {"c128", "f64", {3, 5, 4}, {3, 5, 7}, "IRFFT", {3, 5, 7}},
      {"f32", "c64", {4, 16}, {4, 9}, "RFFT", {4, 16}},
      {"c64", "f32", {6, 9}, {6, 16}, "IRFFT", {6, 16}},
  };
  for (const Case &c : cases) {
    const std::string hlo =
        FftModule(c.in, c.in_dims, c.out, c.out_dims, c.type, c.len);
    SCOPED_TRACE(hlo);
    EXPECT_EQ(RootStrategy(hlo), "fft");
    auto module = LoadModuleFromString(hlo, "test.hlo");
    ASSERT_TRUE(module.ok()) << module.status();
    ExpectMatchesEvaluator(hlo, RandomArguments(*(*module)->entry(), 5));
  }
}

TEST(LinalgLayoutE2eTest, NonDefaultLayoutsMatchTheEvaluator) {
  // Column-major operands and results: the loops address them by logical
  // index, so only the bytes' order changes.
  const std::vector<std::string> hlos = {
      R"(HloModule m
ENTRY e {
  x = c64[8,6]{0,1} parameter(0)
  ROOT f = c64[8,6]{0,1} fft(x), fft_type=FFT, fft_length={6}
})",
      R"(HloModule m
ENTRY e {
  x = f64[3,8]{0,1} parameter(0)
  ROOT f = c128[3,5]{0,1} fft(x), fft_type=RFFT, fft_length={3,8}
})",
      R"(HloModule m
ENTRY e {
  a = f64[2,4,4]{1,2,0} parameter(0)
  b = f64[2,4,3]{1,2,0} parameter(1)
  ROOT x = f64[2,4,3]{0,1,2} triangular-solve(a, b), left_side=true, lower=true
})",
  };
  for (const std::string &hlo : hlos) {
    SCOPED_TRACE(hlo);
    auto module = LoadModuleFromString(hlo, "test.hlo");
    ASSERT_TRUE(module.ok()) << module.status();
    std::vector<Literal> args = RandomArguments(*(*module)->entry(), 7);
    if (args.size() == 2) {
      // A dominant diagonal keeps the solve well conditioned.
      auto a = args[0].mutable_data<double>();
      for (int q = 0; q < 2; ++q) {
        for (int i = 0; i < 4; ++i)
          a[q * 16 + i * 5] += 4;
      }
    }
    ExpectMatchesEvaluator(hlo, args);
  }
}

TEST(FftE2eTest, InverseRealTransformIgnoresTheRedundantImaginaryParts) {
  // The spectrum of [1, 2, 3, 4] with garbage in imag X[0] and imag X[2].
  const std::string hlo = FftModule("c64", {3}, "f32", {4}, "IRFFT", {4});
  using c64 = std::complex<float>;
  auto r = CompileAndRun(
      hlo, {MakeArray<P::kC64>({3}, {c64(10, 5), c64(-2, 2), c64(-2, 7)})});
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<float> v = Values<P::kF32>((*r)[0]);
  ASSERT_EQ(v.size(), 4u);
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(v[i], i + 1, 1e-6);
}

struct SolveCase {
  bool left, lower, unit;
  std::string transpose;
};

class TriangularSolveE2eTest : public ::testing::TestWithParam<SolveCase> {};

// a batch of 2 triangular systems with a dominant diagonal, and b.
std::vector<Literal> SolveArgs(P type, int64_t k, int64_t m, int64_t n) {
  std::vector<C> a = Random(2 * k * k, 9), b = Random(2 * m * n, 10);
  for (int q = 0; q < 2; ++q) {
    for (int i = 0; i < k; ++i)
      a[q * k * k + i * k + i] += 4;
  }
  if (type == P::kC128) {
    return {MakeArray<P::kC128>({2, k, k}, a),
            MakeArray<P::kC128>({2, m, n}, b)};
  }
  std::vector<float> ar, br;
  for (const C &c : a)
    ar.push_back(static_cast<float>(c.real()));
  for (const C &c : b)
    br.push_back(static_cast<float>(c.real()));
  return {MakeArray<P::kF32>({2, k, k}, ar), MakeArray<P::kF32>({2, m, n}, br)};
}

TEST_P(TriangularSolveE2eTest, ResidualAndEvaluator) {
  const SolveCase c = GetParam();
  const int64_t m = 5, n = 3, k = c.left ? m : n;
  for (const char *type : {"c128", "f32"}) {
    const std::string hlo = absl::StrCat(
        "HloModule m\nENTRY e {\n  a = ", type, "[2,", k, ",", k,
        "] parameter(0)\n  b = ", type,
        "[2,5,3] parameter(1)\n  ROOT x = ", type,
        "[2,5,3] triangular-solve(a, b), left_side=", c.left ? "true" : "false",
        ", lower=", c.lower ? "true" : "false",
        ", unit_diagonal=", c.unit ? "true" : "false",
        ", transpose_a=", c.transpose, "\n}\n");
    SCOPED_TRACE(hlo);
    EXPECT_EQ(RootStrategy(hlo), "triangular-solve");
    const P p = std::string(type) == "c128" ? P::kC128 : P::kF32;
    const std::vector<Literal> args = SolveArgs(p, k, m, n);
    ExpectMatchesEvaluator(hlo, args);
    if (p != P::kC128)
      continue;
    // The residual, with the test's own product of the named triangle.
    auto r = CompileAndRun(hlo, args);
    ASSERT_TRUE(r.ok()) << r.status();
    const std::vector<C> x = Values<P::kC128>((*r)[0]);
    const std::vector<C> a = Values<P::kC128>(args[0]);
    const std::vector<C> b = Values<P::kC128>(args[1]);
    auto op = [&](int q, int i, int j) {
      const int r0 = c.transpose == "NO_TRANSPOSE" ? i : j;
      const int c0 = c.transpose == "NO_TRANSPOSE" ? j : i;
      const bool in = c.lower ? c0 <= r0 : c0 >= r0;
      C v = r0 == c0 && c.unit ? C(1) : in ? a[q * k * k + r0 * k + c0] : C(0);
      return c.transpose == "ADJOINT" ? std::conj(v) : v;
    };
    for (int q = 0; q < 2; ++q) {
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          C s = 0;
          for (int p2 = 0; p2 < k; ++p2) {
            s += c.left ? op(q, i, p2) * x[q * m * n + p2 * n + j]
                        : x[q * m * n + i * n + p2] * op(q, p2, j);
          }
          EXPECT_LT(std::abs(s - b[q * m * n + i * n + j]), 1e-12);
        }
      }
    }
  }
}

std::vector<SolveCase> AllOptions() {
  std::vector<SolveCase> cases;
  for (bool left : {true, false}) {
    for (bool lower : {true, false}) {
      for (bool unit : {false, true}) {
        for (const char *t : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
          cases.push_back({left, lower, unit, t});
        }
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, TriangularSolveE2eTest,
                         ::testing::ValuesIn(AllOptions()));

TEST(CholeskyE2eTest, ReconstructsAndMatchesTheEvaluator) {
  // a = g g^H + 6 I per batch element, Hermitian positive definite.
  const int64_t batch = 3, n = 6;
  std::vector<C> a(batch * n * n);
  const std::vector<C> g = Random(batch * n * n, 12);
  for (int q = 0; q < batch; ++q) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        C s = i == j ? C(6) : C(0);
        for (int p = 0; p < n; ++p) {
          s += g[q * n * n + i * n + p] * std::conj(g[q * n * n + j * n + p]);
        }
        a[q * n * n + i * n + j] = s;
      }
    }
  }
  for (bool lower : {true, false}) {
    const std::string hlo =
        absl::StrCat("HloModule m\nENTRY e {\n  a = c128[3,6,6] parameter(0)\n"
                     "  ROOT l = c128[3,6,6] cholesky(a), lower=",
                     lower ? "true" : "false", "\n}\n");
    SCOPED_TRACE(hlo);
    EXPECT_EQ(RootStrategy(hlo), "cholesky");
    const Literal arg = MakeArray<P::kC128>({batch, n, n}, a);
    ExpectMatchesEvaluator(hlo, {arg});
    auto r = CompileAndRun(hlo, {arg});
    ASSERT_TRUE(r.ok()) << r.status();
    const std::vector<C> f = Values<P::kC128>((*r)[0]);
    // lower: l l^H = a, zero above; upper: u^H u = a, zero below.
    for (int q = 0; q < batch; ++q) {
      auto l = [&](int i, int j) {
        return lower ? f[q * n * n + i * n + j]
                     : std::conj(f[q * n * n + j * n + i]);
      };
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
          if (j > i)
            EXPECT_EQ(l(i, j), C(0));
          C s = 0;
          for (int p = 0; p < n; ++p)
            s += l(i, p) * std::conj(l(j, p));
          EXPECT_LT(std::abs(s - a[q * n * n + i * n + j]), 1e-12);
        }
      }
    }
  }
  // f32 and f64 on the real parts (g g^T + 6 I is symmetric positive
  // definite too), against the evaluator.
  std::vector<double> ad;
  for (int q = 0; q < batch; ++q) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        double s = i == j ? 6 : 0;
        for (int p = 0; p < n; ++p) {
          s +=
              g[q * n * n + i * n + p].real() * g[q * n * n + j * n + p].real();
        }
        ad.push_back(s);
      }
    }
  }
  std::vector<float> af(ad.begin(), ad.end());
  ExpectMatchesEvaluator(
      "HloModule m\nENTRY e {\n  a = f32[3,6,6] parameter(0)\n"
      "  ROOT l = f32[3,6,6] cholesky(a), lower=true\n}\n",
      {MakeArray<P::kF32>({batch, n, n}, af)});
  ExpectMatchesEvaluator(
      "HloModule m\nENTRY e {\n  a = f64[3,6,6] parameter(0)\n"
      "  ROOT l = f64[3,6,6] cholesky(a)\n}\n",
      {MakeArray<P::kF64>({batch, n, n}, ad)});
}

TEST(CholeskyE2eTest, NotPositiveDefiniteIsAllNan) {
  // Batch 0 [[1, 2], [2, 1]]: pivot 1 - 4 < 0, all NaN; batch 1
  // [[9, 3], [3, 5]] = [[3, 0], [1, 2]] [[3, 1], [0, 2]].
  const char *hlo = R"(HloModule m
ENTRY e {
  a = f32[2,2,2] parameter(0)
  ROOT l = f32[2,2,2] cholesky(a), lower=true
})";
  auto r = CompileAndRun(
      hlo, {MakeArray<P::kF32>({2, 2, 2}, {1, 0, 2, 1, 9, 0, 3, 5})});
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<float> v = Values<P::kF32>((*r)[0]);
  for (int i = 0; i < 4; ++i)
    EXPECT_TRUE(std::isnan(v[i])) << i;
  EXPECT_EQ(std::vector<float>(v.begin() + 4, v.end()),
            (std::vector<float>{3, 0, 1, 2}));
}

} // namespace
} // namespace aotc::codegen::testing
