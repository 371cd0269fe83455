// The functions under test with their references, domains and ulp bounds.
//
// References: double libm for f32 results, long double libm for f64 results
// (both carry 10+ more bits than the result). Each case's sample set is the
// stride sweep over all bit patterns plus its ranges plus the edge values.
// The bounds are the measured maxima (docs/math.md) rounded up a little.
#ifndef AOTC_CODEGEN_ELEMENTAL_MATH_MATH_TEST_CASES_H_
#define AOTC_CODEGEN_ELEMENTAL_MATH_MATH_TEST_CASES_H_

#include <cmath>
#include <ostream>
#include <vector>

#include "codegen/elemental/math/math_emitter.h"

namespace aotc::codegen::math_test {

using UnaryEmitter = llvm::Value* (*)(llvm::IRBuilderBase&, llvm::Value*);
using BinaryEmitter = llvm::Value* (*)(llvm::IRBuilderBase&, llvm::Value*,
                                       llvm::Value*);

// Extra samples: uniform in [lo, hi], or (log) magnitudes log-uniform in
// [lo, hi] with random signs.
struct Range {
  double lo;
  double hi;
  bool log = false;
};

struct UnaryCase {
  const char* name;
  UnaryEmitter emit;
  double (*ref32)(double);
  long double (*ref64)(long double);
  std::vector<Range> ranges;
  double bound32;
  double bound64;
};

inline const std::vector<UnaryCase>& UnaryCases() {
  static const std::vector<UnaryCase> cases = {
      {"exp",
       EmitExp,
       [](double x) { return std::exp(x); },
       [](long double x) { return std::exp(x); },
       {{-750, 750}, {-110, 90}, {-1, 1}, {1e-30, 1, true}},
       1.25,
       1.25},
      {"expm1",
       EmitExpm1,
       [](double x) { return std::expm1(x); },
       [](long double x) { return std::expm1(x); },
       {{-45, 710}, {-20, 90}, {-1, 1}, {1e-30, 1, true}},
       1.75,
       2.25},
      {"log",
       EmitLog,
       [](double x) { return std::log(x); },
       [](long double x) { return std::log(x); },
       {{0, 4}, {0.5, 2}, {1e-300, 1e300, true}},
       1,
       1},
      {"log1p",
       EmitLog1p,
       [](double x) { return std::log1p(x); },
       [](long double x) { return std::log1p(x); },
       {{-1, 1}, {-1, 10}, {1e-30, 1e30, true}},
       1,
       1},
      {"tanh",
       EmitTanh,
       [](double x) { return std::tanh(x); },
       [](long double x) { return std::tanh(x); },
       {{-10, 10}, {-1, 1}, {1e-30, 30, true}},
       2,
       2},
      {"logistic",
       EmitLogistic,
       [](double x) { return 1 / (1 + std::exp(-x)); },
       [](long double x) { return 1 / (1 + std::exp(-x)); },
       {{-750, 750}, {-110, 40}, {-5, 5}, {1e-30, 1, true}},
       2.25,
       2.25},
      {"erf",
       EmitErf,
       [](double x) { return std::erf(x); },
       [](long double x) { return std::erf(x); },
       {{-7, 7}, {-1.2, 1.2}, {1e-30, 1, true}},
       2,
       1.5},
      {"sqrt",
       EmitSqrt,
       [](double x) { return std::sqrt(x); },
       [](long double x) { return std::sqrt(x); },
       {{0, 10}, {1e-300, 1e300, true}},
       0.501,
       0.501},
      {"rsqrt",
       EmitRsqrt,
       [](double x) { return 1 / std::sqrt(x); },
       [](long double x) { return 1 / std::sqrt(x); },
       {{0, 10}, {1e-300, 1e300, true}},
       1.75,
       1.75},
      {"cbrt",
       EmitCbrt,
       [](double x) { return std::cbrt(x); },
       [](long double x) { return std::cbrt(x); },
       {{-10, 10}, {1e-300, 1e300, true}},
       0.75,
       1},
      {"sin",
       EmitSin,
       [](double x) { return std::sin(x); },
       [](long double x) { return std::sin(x); },
       {{-10, 10}, {1e-3, 8388607, true}, {1e-30, 1, true},
        {8388608, 3.4e38, true}, {1e38, 1.7e308, true}},
       1,
       1},
      {"cos",
       EmitCos,
       [](double x) { return std::cos(x); },
       [](long double x) { return std::cos(x); },
       {{-10, 10}, {1e-3, 8388607, true}, {1e-30, 1, true},
        {8388608, 3.4e38, true}, {1e38, 1.7e308, true}},
       1,
       1},
      {"tan",
       EmitTan,
       [](double x) { return std::tan(x); },
       [](long double x) { return std::tan(x); },
       {{-10, 10}, {1e-3, 8388607, true}, {1e-30, 1, true},
        {8388608, 3.4e38, true}, {1e38, 1.7e308, true}},
       1,
       2.5},
      {"floor",
       EmitFloor,
       [](double x) { return std::floor(x); },
       [](long double x) { return std::floor(x); },
       {{-10, 10}, {1e-3, 1e17, true}},
       0,
       0},
      {"ceil",
       EmitCeil,
       [](double x) { return std::ceil(x); },
       [](long double x) { return std::ceil(x); },
       {{-10, 10}, {1e-3, 1e17, true}},
       0,
       0},
      {"trunc",
       EmitTrunc,
       [](double x) { return std::trunc(x); },
       [](long double x) { return std::trunc(x); },
       {{-10, 10}, {1e-3, 1e17, true}},
       0,
       0},
      {"round_half_away",
       EmitRoundHalfAwayFromZero,
       [](double x) { return std::round(x); },
       [](long double x) { return std::round(x); },
       {{-10, 10}, {1e-3, 1e17, true}},
       0,
       0},
      {"round_half_even",
       EmitRoundHalfEven,
       [](double x) { return std::nearbyint(x); },
       [](long double x) { return std::nearbyint(x); },
       {{-10, 10}, {1e-3, 1e17, true}},
       0,
       0},
  };
  return cases;
}

struct BinaryCase {
  const char* name;
  BinaryEmitter emit;
  double (*ref32)(double, double);
  long double (*ref64)(long double, long double);
  double bound32;
  double bound64;
};

// Test parameters print as the function's name.
inline void PrintTo(const UnaryCase& c, std::ostream* os) { *os << c.name; }
inline void PrintTo(const BinaryCase& c, std::ostream* os) { *os << c.name; }

inline const std::vector<BinaryCase>& BinaryCases() {
  static const std::vector<BinaryCase> cases = {
      {"pow", EmitPow, [](double x, double y) { return std::pow(x, y); },
       [](long double x, long double y) { return std::pow(x, y); }, 0.75, 1.5},
      {"atan2", EmitAtan2, [](double y, double x) { return std::atan2(y, x); },
       [](long double y, long double x) { return std::atan2(y, x); }, 2.5,
       2.25},
  };
  return cases;
}

}  // namespace aotc::codegen::math_test

#endif  // AOTC_CODEGEN_ELEMENTAL_MATH_MATH_TEST_CASES_H_
