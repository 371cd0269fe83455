// Test helpers: ulp distance to a higher-precision reference and samples.
#ifndef AOTC_CODEGEN_ELEMENTAL_MATH_MATH_TEST_UTIL_H_
#define AOTC_CODEGEN_ELEMENTAL_MATH_MATH_TEST_UTIL_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace aotc::codegen::math_test {

template <typename T>
struct FloatInfo;

template <>
struct FloatInfo<float> {
  using Bits = uint32_t;
  static constexpr int kDigits = 24;
  static constexpr int kMinExp = -126;
};

template <>
struct FloatInfo<double> {
  using Bits = uint64_t;
  static constexpr int kDigits = 53;
  static constexpr int kMinExp = -1022;
};

template <typename T>
typename FloatInfo<T>::Bits BitsOf(T v) {
  typename FloatInfo<T>::Bits u;
  std::memcpy(&u, &v, sizeof(v));
  return u;
}

template <typename T>
T FromBitsOf(typename FloatInfo<T>::Bits u) {
  T v;
  std::memcpy(&v, &u, sizeof(v));
  return v;
}

// The ulp of T at the real value |v| (subnormal spacing below the normals).
template <typename T>
long double UlpOf(long double v) {
  int e = 0;
  std::frexp(std::fabs(v), &e);  // |v| in [2^(e-1), 2^e)
  int lead = std::max(e - 1, FloatInfo<T>::kMinExp);
  if (v == 0) lead = FloatInfo<T>::kMinExp;
  return std::ldexp(1.0L, lead - (FloatInfo<T>::kDigits - 1));
}

// |got - want| in ulps of T at `want`, the exact value (known to ~2^-60
// relative). NaN must match NaN; an infinite result is right only where
// `want` is at least the overflow threshold and counts as 2^(max exponent +
// 1) otherwise. Returns infinity for a mismatch no ulp count describes.
template <typename T>
double UlpError(T got, long double want) {
  constexpr double kMismatch = std::numeric_limits<double>::infinity();
  if (std::isnan(want) || std::isnan(got)) {
    return std::isnan(want) && std::isnan(got) ? 0 : kMismatch;
  }
  long double max = std::numeric_limits<T>::max();
  long double overflow = max + UlpOf<T>(max) / 2;
  if (std::fabs(want) >= overflow) {
    bool same_inf = std::isinf(got) && std::signbit(got) == std::signbit(want);
    return same_inf ? 0 : kMismatch;
  }
  long double g = got;
  if (std::isinf(got)) {
    g = std::copysign(std::ldexp(1.0L, std::numeric_limits<T>::max_exponent),
                      g);
  }
  return static_cast<double>(std::fabs(g - want) / UlpOf<T>(want));
}

// Bit patterns spread evenly over all 2^width values (both signs, every
// exponent, NaNs and infinities included) with an odd stride so that the
// low mantissa bits vary.
template <typename T>
std::vector<T> StrideSamples(uint64_t count) {
  using Bits = typename FloatInfo<T>::Bits;
  uint64_t range = sizeof(T) == 4 ? (uint64_t{1} << 32) : ~uint64_t{0};
  uint64_t stride = (range / count) | 1;
  std::vector<T> out;
  out.reserve(count);
  uint64_t u = 12345;
  for (uint64_t i = 0; i < count; ++i, u += stride) {
    out.push_back(FromBitsOf<T>(static_cast<Bits>(u)));
  }
  return out;
}

// Every multiple of 1/4 in [-limit, limit] (ties for the rounding ops).
template <typename T>
std::vector<T> QuarterSteps(int limit) {
  std::vector<T> out;
  for (int k = -4 * limit; k <= 4 * limit; ++k) out.push_back(T(k) / 4);
  return out;
}

template <typename T>
std::vector<T> UniformSamples(double lo, double hi, size_t count,
                              uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<T> out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) out.push_back(static_cast<T>(dist(rng)));
  return out;
}

// Magnitudes log-uniform in [lo, hi], each with a random sign.
template <typename T>
std::vector<T> LogSamples(double lo, double hi, size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(std::log(lo), std::log(hi));
  std::vector<T> out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    T v = static_cast<T>(std::exp(dist(rng)));
    out.push_back((rng() & 1) ? -v : v);
  }
  return out;
}

// 0, -0, the subnormal and normal extremes, infinities, NaN, small integers
// and halves, the ends of the range where floats have fractions, with both
// signs.
template <typename T>
std::vector<T> EdgeValues() {
  using L = std::numeric_limits<T>;
  const T p = std::ldexp(T(1), L::digits - 1);  // from here on all integers
  std::vector<T> positive = {T(0),
                             L::denorm_min(),
                             L::min() - L::denorm_min(),
                             L::min(),
                             L::epsilon(),
                             T(0.5),
                             T(1) - L::epsilon() / 2,
                             T(1),
                             T(1) + L::epsilon(),
                             T(1.5),
                             T(2),
                             T(2.5),
                             T(3),
                             T(10),
                             T(100),
                             T(1e4),
                             T(1e5),
                             p / 2 + T(0.5),
                             p - T(1.5),
                             p - T(0.5),
                             p,
                             p + 1,
                             L::max(),
                             L::infinity(),
                             L::quiet_NaN()};
  std::vector<T> out;
  for (T v : positive) {
    out.push_back(v);
    out.push_back(-v);
  }
  return out;
}

}  // namespace aotc::codegen::math_test

#endif  // AOTC_CODEGEN_ELEMENTAL_MATH_MATH_TEST_UTIL_H_
