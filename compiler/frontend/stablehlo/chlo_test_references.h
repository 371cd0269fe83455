// Reference values for the CHLO lowering tests, computed in long double
// independently of the lowering: std:: functions, bisection, power series
// and difference quotients.
#ifndef AOTC_COMPILER_FRONTEND_STABLEHLO_CHLO_TEST_REFERENCES_H_
#define AOTC_COMPILER_FRONTEND_STABLEHLO_CHLO_TEST_REFERENCES_H_

#include <algorithm>
#include <cmath>

namespace aotc::chlo_testing {

using LD = long double;

inline constexpr LD kEulerGamma = 0.577215664901532860606512090082402431L;

// Error of `got` against `ref`: relative for |ref| >= 1, absolute below (the
// special functions have zeros where only an absolute bound makes sense).
// NaN and infinities must match.
inline double MixedError(LD got, LD ref) {
  if (std::isnan(ref) || std::isnan(got)) {
    return std::isnan(ref) && std::isnan(got) ? 0 : INFINITY;
  }
  if (std::isinf(ref) || std::isinf(got)) return ref == got ? 0 : INFINITY;
  return static_cast<double>(std::fabs(got - ref) /
                             std::max<LD>(1, std::fabs(ref)));
}

// digamma from lgamma by Richardson-extrapolated central differences in long
// double: about 1e-12 relative, an independent check of the dense grid.
inline LD DigammaByDifferences(LD x) {
  auto d = [&](LD h) {
    return (std::lgamma(x + h) - std::lgamma(x - h)) / (2 * h);
  };
  // A step small against the distance to the nearest pole.
  const LD pole = x > 0 ? x : std::fabs(x - std::round(x));
  const LD h = 1e-3L * std::min<LD>(pole, std::max<LD>(1, std::fabs(x)));
  return (4 * d(h / 2) - d(h)) / 3;
}

// erf_inv(y) by bisection in long double: on erf for |y| < 1/2, on erfc
// above (1 - |y| is exact there, where erf would lose the digits).
inline LD ErfInvReference(LD y) {
  if (std::isnan(y) || std::fabs(y) > 1) return NAN;
  if (std::fabs(y) == 1) return std::copysign(LD(INFINITY), y);
  if (y == 0) return y;
  const LD a = std::fabs(y);
  // Series erfinv(y) = sqrt(pi)/2 (y + pi y^3 / 12 + ...) where bisection
  // cannot resolve the value.
  if (a < 1e-12L) return std::sqrt(std::acos(LD(-1))) / 2 * y;
  LD lo = 0, hi = 7;
  for (int i = 0; i < 200; ++i) {
    const LD mid = (lo + hi) / 2;
    const bool below = a < 0.5L ? std::erf(mid) < a : std::erfc(mid) > 1 - a;
    if (below)
      lo = mid;
    else
      hi = mid;
  }
  return std::copysign((lo + hi) / 2, y);
}

// exp(-|x|) I1(x) by the power series in long double (positive terms, so
// accurate for every x; it needs about |x| + 60 terms).
inline LD BesselI1eReference(LD x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return std::copysign(LD(0), x);
  const LD a = std::fabs(x);
  const LD q = a * a / 4;
  LD term = a / 2, sum = 0;
  for (int k = 0; k < 5000 && term > sum * 1e-22L; ++k) {
    sum += term;
    term *= q / ((k + 1.0L) * (k + 2.0L));
  }
  if (sum == 0) sum = a / 2;
  return std::copysign(sum * std::exp(-a), x);
}

}  // namespace aotc::chlo_testing

#endif  // AOTC_COMPILER_FRONTEND_STABLEHLO_CHLO_TEST_REFERENCES_H_
