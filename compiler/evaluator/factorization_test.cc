// Tests of the evaluator's triangular-solve and cholesky: hand-worked
// systems, residuals op(a) x - b and x op(a) - b for every combination of
// the options (computed here by plain matrix products), and l l^H = a.
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/kernel_test_util.h"
#include "compiler/ir/literal.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using ::aotc::testing_util::Make;
using ::aotc::testing_util::MustRun;
using ::aotc::testing_util::Values;
using C = std::complex<double>;

TEST(TriangularSolveTest, HandWorkedForwardSubstitution) {
  // [[2, 0], [1, 4]] x = [[2], [9]]: x0 = 1, x1 = (9 - 1) / 4 = 2. The
  // upper entry (99) is outside the lower triangle and never read.
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = f32[2,2] parameter(0)
  b = f32[2,1] parameter(1)
  ROOT x = f32[2,1] triangular-solve(a, b), left_side=true, lower=true
})";
  Literal x =
      MustRun(hlo, {Make<float>(PrimitiveType::kF32, {2, 2}, {2, 99, 1, 4}),
                    Make<float>(PrimitiveType::kF32, {2, 1}, {2, 9})});
  EXPECT_EQ(Values<float>(x), (std::vector<float>{1, 2}));
}

struct SolveCase {
  bool left, lower, unit;
  std::string transpose;
};

// op(a)[i][k] for the test's own product.
C OpA(const std::vector<C> &a, int n, int i, int k, const std::string &t) {
  if (t == "NO_TRANSPOSE")
    return a[i * n + k];
  if (t == "TRANSPOSE")
    return a[k * n + i];
  return std::conj(a[k * n + i]);
}

class TriangularSolveOptionsTest : public ::testing::TestWithParam<SolveCase> {
};

TEST_P(TriangularSolveOptionsTest, ResidualIsZero) {
  const SolveCase c = GetParam();
  const int batch = 2, m = 4, n = 3, k = c.left ? m : n;
  std::mt19937 gen(1);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<C> a(batch * k * k), b(batch * m * n);
  for (C &v : a)
    v = C(u(gen), u(gen));
  for (C &v : b)
    v = C(u(gen), u(gen));
  // A dominant diagonal keeps the system well conditioned.
  for (int q = 0; q < batch; ++q) {
    for (int i = 0; i < k; ++i)
      a[q * k * k + i * k + i] += C(4, 0);
  }
  const std::string hlo = absl::StrCat(
      "HloModule m\nENTRY e {\n  a = c128[2,", k, ",", k,
      "] parameter(0)\n  b = c128[2,4,3] parameter(1)\n"
      "  ROOT x = c128[2,4,3] triangular-solve(a, b), left_side=",
      c.left ? "true" : "false", ", lower=", c.lower ? "true" : "false",
      ", unit_diagonal=", c.unit ? "true" : "false",
      ", transpose_a=", c.transpose, "\n}\n");
  Literal xl = MustRun(hlo, {Make<C>(PrimitiveType::kC128, {batch, k, k}, a),
                             Make<C>(PrimitiveType::kC128, {batch, m, n}, b)});
  const std::vector<C> x = Values<C>(xl);
  ASSERT_EQ(x.size(), b.size());
  for (int q = 0; q < batch; ++q) {
    // The triangle the options name, with a unit diagonal if asked; the
    // rest is zero, whatever a holds there.
    std::vector<C> t(k * k);
    for (int i = 0; i < k; ++i) {
      for (int j = 0; j < k; ++j) {
        const bool in = c.lower ? j <= i : j >= i;
        t[i * k + j] = i == j && c.unit ? C(1)
                       : in             ? a[q * k * k + i * k + j]
                                        : C(0);
      }
    }
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        C s = 0;
        for (int p = 0; p < k; ++p) {
          s += c.left ? OpA(t, k, i, p, c.transpose) * x[q * m * n + p * n + j]
                      : x[q * m * n + i * n + p] * OpA(t, k, p, j, c.transpose);
        }
        EXPECT_NEAR(std::abs(s - b[q * m * n + i * n + j]), 0, 1e-12);
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

INSTANTIATE_TEST_SUITE_P(All, TriangularSolveOptionsTest,
                         ::testing::ValuesIn(AllOptions()));

TEST(CholeskyTest, HandWorkedAndUpper) {
  // [[4, 2], [2, 5]] = l l^T with l = [[2, 0], [1, 2]]; the other triangle
  // of the result is zero and the unread one (99) does not matter.
  const std::string lower = R"(HloModule m
ENTRY e {
  a = f64[2,2] parameter(0)
  ROOT l = f64[2,2] cholesky(a), lower=true
})";
  EXPECT_EQ(
      Values<double>(MustRun(
          lower, {Make<double>(PrimitiveType::kF64, {2, 2}, {4, 99, 2, 5})})),
      (std::vector<double>{2, 0, 1, 2}));
  const std::string upper = R"(HloModule m
ENTRY e {
  a = f64[2,2] parameter(0)
  ROOT u = f64[2,2] cholesky(a)
})";
  EXPECT_EQ(
      Values<double>(MustRun(
          upper, {Make<double>(PrimitiveType::kF64, {2, 2}, {4, 2, 99, 5})})),
      (std::vector<double>{2, 1, 0, 2}));
}

TEST(CholeskyTest, ReconstructsHermitianMatrices) {
  // a = g g^H + 5 I is Hermitian positive definite; l l^H must give it back.
  const int batch = 3, n = 5;
  std::mt19937 gen(2);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<C> a(batch * n * n);
  for (int q = 0; q < batch; ++q) {
    std::vector<C> g(n * n);
    for (C &v : g)
      v = C(u(gen), u(gen));
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        C s = i == j ? C(5) : C(0);
        for (int p = 0; p < n; ++p)
          s += g[i * n + p] * std::conj(g[j * n + p]);
        a[q * n * n + i * n + j] = s;
      }
    }
  }
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = c128[3,5,5] parameter(0)
  ROOT l = c128[3,5,5] cholesky(a), lower=true
})";
  const std::vector<C> l = Values<C>(
      MustRun(hlo, {Make<C>(PrimitiveType::kC128, {batch, n, n}, a)}));
  for (int q = 0; q < batch; ++q) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        if (j > i) {
          EXPECT_EQ(l[q * n * n + i * n + j], C(0));
        }
        C s = 0;
        for (int p = 0; p < n; ++p) {
          s += l[q * n * n + i * n + p] * std::conj(l[q * n * n + j * n + p]);
        }
        EXPECT_NEAR(std::abs(s - a[q * n * n + i * n + j]), 0, 1e-12);
      }
    }
  }
}

TEST(CholeskyTest, NotPositiveDefiniteIsAllNan) {
  // Batch 0: [[1, 2], [2, 1]] has the pivot 1 - 4 < 0; batch 1 is fine.
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = f32[2,2,2] parameter(0)
  ROOT l = f32[2,2,2] cholesky(a), lower=true
})";
  const std::vector<float> l =
      Values<float>(MustRun(hlo, {Make<float>(PrimitiveType::kF32, {2, 2, 2},
                                              {1, 0, 2, 1, 9, 0, 3, 5})}));
  for (int i = 0; i < 4; ++i)
    EXPECT_TRUE(std::isnan(l[i])) << i;
  // [[9, 3], [3, 5]]: l = [[3, 0], [1, 2]].
  EXPECT_EQ(std::vector<float>(l.begin() + 4, l.end()),
            (std::vector<float>{3, 0, 1, 2}));
}

} // namespace
} // namespace aotc
