// End to end: HLO with acos, acosh, asin, asinh, atanh, cosh and sinh
// compiles through the pipeline (the transcendental-expander pass rewrites
// them into operations code generation has) and the compiled results agree
// with the C++ library's functions within the bound docs/passes.md states.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/tests/codegen_test_util.h"
#include "compiler/support/strings.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

struct OpCase {
  const char* op;
  std::function<long double(long double)> f;
  double lo, hi;  // the sampled domain
};

const OpCase kCases[] = {
    {"asinh", [](long double x) { return std::asinh(x); }, -1e4, 1e4},
    {"acosh", [](long double x) { return std::acosh(x); }, 1, 1e4},
    {"atanh", [](long double x) { return std::atanh(x); }, -1, 1},
    {"asin", [](long double x) { return std::asin(x); }, -1, 1},
    {"acos", [](long double x) { return std::acos(x); }, -1, 1},
    {"sinh", [](long double x) { return std::sinh(x); }, -100, 100},
    {"cosh", [](long double x) { return std::cosh(x); }, -100, 100},
};

// Error of `got` against the exact `ref` in ulps of T at ref; NaN and
// infinities must match exactly.
template <typename T>
double UlpError(T got, long double ref) {
  if (std::isnan(ref) || std::isnan(got)) {
    return std::isnan(ref) && std::isnan(got) ? 0 : INFINITY;
  }
  const T rounded = static_cast<T>(ref);
  if (std::isinf(rounded) || std::isinf(got))
    return rounded == got ? 0 : INFINITY;
  const T mag = std::fabs(rounded);
  const T ulp = std::nextafter(mag, std::numeric_limits<T>::infinity()) - mag;
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) /
                             ulp);
}

// Evenly spread points of [lo, hi], the ends, values near 0 and 1, and the
// special values.
template <typename T>
std::vector<T> Inputs(const OpCase& c) {
  std::vector<T> v = {T(0),
                      T(-0.0),
                      T(1),
                      T(-1),
                      T(1e-20),
                      T(-3e-8),
                      std::numeric_limits<T>::infinity(),
                      -std::numeric_limits<T>::infinity(),
                      std::numeric_limits<T>::quiet_NaN(),
                      T(89.2),
                      T(709.5)};
  for (int i = 0; i <= 2000; ++i) {
    v.push_back(T(c.lo + (c.hi - c.lo) * i / 2000.0));
  }
  for (int k = 1; k < 200; ++k)
    v.push_back(T(1) + T(k) * std::numeric_limits<T>::epsilon());
  return v;
}

template <P kType>
void CheckCompiled(const OpCase& c, double bound) {
  using T = NativeType<kType>;
  const std::vector<T> x = Inputs<T>(c);
  const std::string type(PrimitiveTypeName(kType));
  const std::string hlo =
      absl::StrCat("HloModule m\n\nENTRY e {\n  p = ", type, "[", x.size(),
                   "] parameter(0)\n  ROOT r = ", type, "[", x.size(), "] ",
                   Sv(c.op), "(p)\n}\n");
  auto results = CompileAndRun(hlo, {Vec<kType>(x)}, 2, /*optimize=*/true);
  ASSERT_TRUE(results.ok()) << results.status();
  const std::vector<T> got = Values<kType>((*results)[0]);
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double e = UlpError<T>(got[i], c.f(x[i]));
    worst = std::max(worst, e);
    EXPECT_LE(e, bound) << c.op << "(" << x[i] << ") = " << got[i];
  }
  std::printf("compiled %s %s: max error %.2f ulp\n", c.op, type.c_str(),
              worst);
}

TEST(TranscendentalE2eTest, F32) {
  for (const OpCase& c : kCases) CheckCompiled<P::kF32>(c, 3);
}

TEST(TranscendentalE2eTest, F64) {
  for (const OpCase& c : kCases) CheckCompiled<P::kF64>(c, 3);
}

TEST(TranscendentalE2eTest, HalfComputesInFloat) {
  // f16 goes through f32: the result is the exact value rounded to f16, off
  // by at most one f16 step (2^-10 relative).
  const char* hlo = R"(HloModule m

ENTRY e {
  p = f16[5] parameter(0)
  s = f16[5] sinh(p)
  c = f16[5] cosh(p)
  ROOT t = (f16[5], f16[5]) tuple(s, c)
}
)";
  const std::vector<float> x = {0, 0.5f, -2, 10, -0.001f};
  auto results = CompileAndRun(hlo, {aotc::testing::HalfVec<P::kF16>(x)}, 2,
                               /*optimize=*/true);
  ASSERT_TRUE(results.ok()) << results.status();
  const std::vector<float> s =
      aotc::testing::HalfValues<P::kF16>((*results)[0]);
  const std::vector<float> c =
      aotc::testing::HalfValues<P::kF16>((*results)[1]);
  for (size_t i = 0; i < x.size(); ++i) {
    const float xi = static_cast<float>(Half(x[i]));
    EXPECT_NEAR(s[i], std::sinh(xi), std::fabs(std::sinh(xi)) * 0x1p-10f) << xi;
    EXPECT_NEAR(c[i], std::cosh(xi), std::cosh(xi) * 0x1p-10f) << xi;
  }
}

// The complex functions the pass expands, with the C library's long double
// versions as the reference (std::complex<long double> calls casinl and
// friends), which share nothing with the expansion.
using LZ = std::complex<long double>;
struct ComplexCase {
  const char* op;
  std::function<LZ(LZ)> f;
  // Inputs with a larger imaginary part are left out: for sinh and cosh,
  // the infinite ones (their special values are checked against C99's in
  // complex_extremes_e2e_test.cc).
  double max_imag = INFINITY;
};

const ComplexCase kComplexCases[] = {
    {"asin", [](LZ z) { return std::asin(z); }},
    {"acos", [](LZ z) { return std::acos(z); }},
    {"asinh", [](LZ z) { return std::asinh(z); }},
    {"acosh", [](LZ z) { return std::acosh(z); }},
    {"atanh", [](LZ z) { return std::atanh(z); }},
    {"sinh", [](LZ z) { return std::sinh(z); }, DBL_MAX},
    {"cosh", [](LZ z) { return std::cosh(z); }, DBL_MAX},
};

// Every pair of parts from a list of magnitudes around the branch points
// (0, 1), small and large ones, the infinities, both signs and -0; then
// pseudo-random points of moderate size like those of the StableHLO suite.
template <typename T>
std::vector<std::complex<T>> ComplexInputs() {
  const T inf = std::numeric_limits<T>::infinity();
  const bool wide = sizeof(T) == 8;
  std::vector<T> parts = {T(0),    T(1e-30), T(1e-9), T(0.25), T(0.5),
                          T(0.64), T(0.9),   T(1),    T(1.01), T(1.5),
                          T(2),    T(7.25),  T(1e5),  T(1e9),  T(1e30),
                          inf};
  if (wide) {
    for (T v : {T(1e-200), T(1e-310), T(1e200), T(1e300)}) parts.push_back(v);
  }
  parts.push_back(std::nextafter(T(1), T(0)));
  parts.push_back(std::nextafter(T(1), T(2)));
  std::vector<T> signed_parts;
  for (T p : parts) {
    signed_parts.push_back(p);
    signed_parts.push_back(-p);
  }
  std::vector<std::complex<T>> z;
  for (T re : signed_parts) {
    for (T im : signed_parts) z.emplace_back(re, im);
  }
  uint64_t state = 12345;
  auto uniform = [&state]() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) * 0x1p-53;
  };
  for (int i = 0; i < 2000; ++i) {
    z.emplace_back(T(16 * uniform() - 8), T(16 * uniform() - 8));
  }
  // The worst point found in the StableHLO suite (asinh_complex128): its
  // imaginary part is 3.3 ulps off in c128.
  z.emplace_back(T(-1.9301022550466813), T(1.1161053739261066));
  return z;
}

// Compiles `op` on c64 or c128 and returns the worst error over the inputs
// in ulps of the part type, checking each part against `bound`.
template <P kType>
double CheckComplexCompiled(const ComplexCase& c, double bound) {
  using T = std::conditional_t<kType == P::kC64, float, double>;
  std::vector<std::complex<T>> z;
  for (std::complex<T> v : ComplexInputs<T>()) {
    if (std::fabs(v.imag()) <= c.max_imag) z.push_back(v);
  }
  const std::string type(PrimitiveTypeName(kType));
  const std::string hlo =
      absl::StrCat("HloModule m\n\nENTRY e {\n  p = ", type, "[", z.size(),
                   "] parameter(0)\n  ROOT r = ", type, "[", z.size(), "] ",
                   Sv(c.op), "(p)\n}\n");
  auto results =
      CompileAndRun(hlo, {MakeArray<kType>({static_cast<int64_t>(z.size())}, z)},
                    2, /*optimize=*/true);
  EXPECT_TRUE(results.ok()) << results.status();
  if (!results.ok()) return INFINITY;
  const auto got = (*results)[0].template data<std::complex<T>>();
  double worst = 0;
  for (size_t i = 0; i < z.size(); ++i) {
    const LZ ref = c.f(LZ(z[i].real(), z[i].imag()));
    const double e_re = UlpError<T>(got[i].real(), ref.real());
    const double e_im = UlpError<T>(got[i].imag(), ref.imag());
    worst = std::max({worst, e_re, e_im});
    EXPECT_LE(std::max(e_re, e_im), bound)
        << c.op << "(" << z[i].real() << ", " << z[i].imag() << ") = ("
        << got[i].real() << ", " << got[i].imag() << "), expected ("
        << static_cast<double>(ref.real()) << ", "
        << static_cast<double>(ref.imag()) << ")";
  }
  std::printf("compiled %s %s: max error %.2f ulp\n", c.op, type.c_str(),
              worst);
  return worst;
}

TEST(TranscendentalE2eTest, Complex64) {
  // Computed in f64 and rounded once: within one ulp of each part.
  for (const ComplexCase& c : kComplexCases) CheckComplexCompiled<P::kC64>(c, 1);
}

TEST(TranscendentalE2eTest, Complex128) {
  // The bound docs/passes.md states: a / A carries about an ulp and atan2
  // up to 1.7 (docs/math.md).
  for (const ComplexCase& c : kComplexCases) {
    CheckComplexCompiled<P::kC128>(c, 3.5);
  }
}

TEST(TranscendentalE2eTest, WithoutThePassIsALocatedError) {
  // Compiled without the pipeline, the opcode reaches code generation.
  const char* hlo = R"(HloModule m

ENTRY e {
  p = f32[2] parameter(0)
  ROOT r = f32[2] asinh(p)
}
)";
  auto compiled = CompileText(hlo, 2, /*optimize=*/false);
  ASSERT_FALSE(compiled.ok());
  EXPECT_NE(compiled.status().message().find(
                "test.hlo:5:8: error: 'asinh' must be rewritten by the "
                "transcendental-expander pass (in the optimization pipeline) "
                "before code generation"),
            std::string::npos)
      << compiled.status();
}

}  // namespace
}  // namespace aotc::codegen::testing
