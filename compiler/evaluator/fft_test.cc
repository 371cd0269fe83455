// Tests of the evaluator's fft: hand-worked transforms, and every type and
// rank against the defining DFT sum computed here in double, a formula of
// its own (std::polar of the angle 2 pi j k / n).
#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/evaluator/kernel_test_util.h"
#include "compiler/ir/literal.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using ::aotc::testing_util::Make;
using ::aotc::testing_util::MustRun;
using ::aotc::testing_util::Values;
using C = std::complex<double>;

std::string Dims(const std::vector<int64_t> &d) {
  return absl::StrJoin(d, ",");
}

// A module applying one fft to parameter 0.
std::string FftModule(const std::string &in_type, std::vector<int64_t> in_dims,
                      const std::string &out_type,
                      std::vector<int64_t> out_dims,
                      const std::string &fft_type, std::vector<int64_t> len) {
  return absl::StrCat("HloModule m\nENTRY e {\n  x = ", in_type, "[",
                      Dims(in_dims), "] parameter(0)\n  ROOT f = ", out_type,
                      "[", Dims(out_dims), "] fft(x), fft_type=", fft_type,
                      ", fft_length={", Dims(len), "}\n}\n");
}

std::vector<C> Random(int64_t n, uint32_t seed, bool real) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<C> v(n);
  for (C &c : v)
    c = real ? C(u(gen), 0) : C(u(gen), u(gen));
  return v;
}

// The 1-D DFT along `axis` of row-major `x` of `dims`, by its sum.
std::vector<C> Dft(const std::vector<C> &x, const std::vector<int64_t> &dims,
                   int axis, bool inverse) {
  const int64_t n = dims[axis];
  int64_t inner = 1;
  for (size_t d = axis + 1; d < dims.size(); ++d)
    inner *= dims[d];
  std::vector<C> y(x.size());
  const double sign = inverse ? 1 : -1;
  for (size_t base = 0; base < x.size(); ++base) {
    const int64_t k = (base / inner) % n;
    const size_t line = base - k * inner;
    C s = 0;
    for (int64_t j = 0; j < n; ++j) {
      s += x[line + j * inner] *
           std::polar(1.0, sign * 2 * std::numbers::pi * double(j * k % n) / n);
    }
    y[base] = inverse ? s / double(n) : s;
  }
  return y;
}

template <typename T> std::vector<C> Complexes(const Literal &lit) {
  std::vector<C> out;
  for (const T &v : lit.data<T>())
    out.push_back(C(v));
  return out;
}

void ExpectNear(const std::vector<C> &got, const std::vector<C> &want,
                double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i].real(), want[i].real(), tol) << "element " << i;
    EXPECT_NEAR(got[i].imag(), want[i].imag(), tol) << "element " << i;
  }
}

TEST(FftTest, HandWorkedLengthFour) {
  // X[k] = sum_j x[j] (-i)^(jk): X0 = 10, X1 = 1 - 2i - 3 + 4i = -2 + 2i,
  // X2 = 1 - 2 + 3 - 4 = -2, X3 = 1 + 2i - 3 - 4i = -2 - 2i.
  using c64 = std::complex<float>;
  Literal x = Make<c64>(PrimitiveType::kC64, {4}, {1, 2, 3, 4});
  Literal f =
      MustRun(FftModule("c64", {4}, "c64", {4}, "FFT", {4}), {std::move(x)});
  ExpectNear(Complexes<c64>(f), {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}}, 1e-6);
  // IFFT divides by n and gives the signal back.
  Literal X = Make<c64>(PrimitiveType::kC64, {4},
                        {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}});
  Literal g =
      MustRun(FftModule("c64", {4}, "c64", {4}, "IFFT", {4}), {std::move(X)});
  ExpectNear(Complexes<c64>(g), {1, 2, 3, 4}, 1e-6);
}

TEST(FftTest, RealTransformsKeepHalfTheSpectrum) {
  using c64 = std::complex<float>;
  Literal r = MustRun(FftModule("f32", {4}, "c64", {3}, "RFFT", {4}),
                      {Make<float>(PrimitiveType::kF32, {4}, {1, 2, 3, 4})});
  ExpectNear(Complexes<c64>(r), {{10, 0}, {-2, 2}, {-2, 0}}, 1e-6);
  // IRFFT ignores the imaginary parts of X[0] and X[n/2] (5 and 7 here).
  Literal X = Make<c64>(PrimitiveType::kC64, {3}, {{10, 5}, {-2, 2}, {-2, 7}});
  Literal x =
      MustRun(FftModule("c64", {3}, "f32", {4}, "IRFFT", {4}), {std::move(X)});
  EXPECT_EQ(Values<float>(x), (std::vector<float>{1, 2, 3, 4}));
}

class FftLengthTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(FftLengthTest, MatchesTheDftSumInEveryType) {
  const int64_t n = GetParam();
  using c128 = std::complex<double>;
  const std::vector<C> x = Random(2 * n, 7 + n, false);
  const std::vector<C> want = Dft(x, {2, n}, 1, false);
  std::vector<c128> in(x.begin(), x.end());
  Literal f = MustRun(FftModule("c128", {2, n}, "c128", {2, n}, "FFT", {n}),
                      {Make<c128>(PrimitiveType::kC128, {2, n}, in)});
  ExpectNear(Complexes<c128>(f), want, 1e-13 * n);
  Literal g = MustRun(FftModule("c128", {2, n}, "c128", {2, n}, "IFFT", {n}),
                      {Make<c128>(PrimitiveType::kC128, {2, n}, in)});
  ExpectNear(Complexes<c128>(g), Dft(x, {2, n}, 1, true), 1e-13);
  // The real transform of the real parts: the first n/2+1 outputs.
  const std::vector<C> xr = Random(n, 11 + n, true);
  std::vector<double> real;
  for (const C &c : xr)
    real.push_back(c.real());
  const std::vector<C> full = Dft(xr, {n}, 0, false);
  Literal r = MustRun(FftModule("f64", {n}, "c128", {n / 2 + 1}, "RFFT", {n}),
                      {Make<double>(PrimitiveType::kF64, {n}, real)});
  ExpectNear(Complexes<c128>(r),
             std::vector<C>(full.begin(), full.begin() + n / 2 + 1), 1e-13 * n);
  // IRFFT of that half spectrum is the signal again.
  std::vector<c128> half(full.begin(), full.begin() + n / 2 + 1);
  Literal back =
      MustRun(FftModule("c128", {n / 2 + 1}, "f64", {n}, "IRFFT", {n}),
              {Make<c128>(PrimitiveType::kC128, {n / 2 + 1}, half)});
  ExpectNear(Complexes<double>(back), xr, 1e-13 * n);
}

INSTANTIATE_TEST_SUITE_P(Lengths, FftLengthTest,
                         ::testing::Values(1, 2, 3, 5, 6, 7, 8, 12, 97, 100));

TEST(FftTest, TwoAndThreeDimensionsAreSuccessivePasses) {
  using c64 = std::complex<float>;
  using c128 = std::complex<double>;
  const std::vector<C> x = Random(2 * 3 * 4, 3, false);
  std::vector<c64> in(x.begin(), x.end());
  Literal f =
      MustRun(FftModule("c64", {2, 3, 4}, "c64", {2, 3, 4}, "FFT", {3, 4}),
              {Make<c64>(PrimitiveType::kC64, {2, 3, 4}, in)});
  ExpectNear(Complexes<c64>(f),
             Dft(Dft(x, {2, 3, 4}, 2, false), {2, 3, 4}, 1, false), 1e-5);
  const std::vector<C> y = Random(2 * 3 * 5, 4, false);
  std::vector<c128> yin(y.begin(), y.end());
  Literal g = MustRun(
      FftModule("c128", {2, 3, 5}, "c128", {2, 3, 5}, "IFFT", {2, 3, 5}),
      {Make<c128>(PrimitiveType::kC128, {2, 3, 5}, yin)});
  std::vector<C> want = y;
  for (int axis = 0; axis < 3; ++axis)
    want = Dft(want, {2, 3, 5}, axis, true);
  ExpectNear(Complexes<c128>(g), want, 1e-13);
}

TEST(FftTest, TwoDimensionalRealTransformAndItsInverse) {
  using c128 = std::complex<double>;
  const std::vector<C> x = Random(3 * 4, 5, true);
  std::vector<double> real;
  for (const C &c : x)
    real.push_back(c.real());
  std::vector<C> full = Dft(Dft(x, {3, 4}, 1, false), {3, 4}, 0, false);
  std::vector<C> half;
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k)
      half.push_back(full[i * 4 + k]);
  }
  Literal r = MustRun(FftModule("f64", {3, 4}, "c128", {3, 3}, "RFFT", {3, 4}),
                      {Make<double>(PrimitiveType::kF64, {3, 4}, real)});
  ExpectNear(Complexes<c128>(r), half, 1e-12);
  std::vector<c128> hin(half.begin(), half.end());
  Literal back =
      MustRun(FftModule("c128", {3, 3}, "f64", {3, 4}, "IRFFT", {3, 4}),
              {Make<c128>(PrimitiveType::kC128, {3, 3}, hin)});
  ExpectNear(Complexes<double>(back), x, 1e-12);
}

} // namespace
} // namespace aotc
