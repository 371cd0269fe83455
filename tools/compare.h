// Comparing a compiled model's results with the reference evaluator's.
//
// Integers and pred must match exactly. Floats match when both are NaN, or
// both are the same infinity, or |actual - expected| <= abs + rel *
// |expected| with the tolerance of the element type (DefaultTolerance);
// complex elements when both parts do. The tolerances cover the few-ulp differences of aotc's own transcendental
// functions against the C library the evaluator uses (docs/math.md), grown
// through a few dependent operations; summation orders are identical, so
// plain arithmetic matches bit for bit.
#ifndef AOTC_TOOLS_COMPARE_H_
#define AOTC_TOOLS_COMPARE_H_

#include <cstdint>
#include <string>

#include "compiler/ir/literal.h"

namespace aotc {

struct Tolerance {
  double abs = 0;
  double rel = 0;
};

// f64 and c128: 1e-9 / 1e-9; f32 and c64: 1e-5 / 1e-4; f16: 1e-3 / 1e-2;
// bf16: 1e-2 / 4e-2; exact for integers and pred.
Tolerance DefaultTolerance(PrimitiveType type);

struct Comparison {
  int64_t elements = 0;
  int64_t mismatches = 0;
  double max_abs_error = 0;  // over elements where both are finite
  double max_rel_error = 0;
  // "element [3,1]: got 1.5, expected 2" for the first mismatch.
  std::string first_mismatch;
  bool ok() const { return mismatches == 0; }
};

// Compares two array literals of the same shape.
Comparison CompareLiterals(const Literal& actual, const Literal& expected,
                           Tolerance tolerance);

}  // namespace aotc

#endif  // AOTC_TOOLS_COMPARE_H_
