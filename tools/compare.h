// Comparing a compiled model's results with the reference evaluator's, the
// test oracle of `aotc run --check`, the codegen tests and the corpus tests.
//
// Integers must match exactly, pred by truth (any nonzero byte is true).
// Floats match when both are NaN, or
// both are the same infinity, or
//   |actual - expected| <= abs + rel * |expected| + bound
// with the per-type tolerance (DefaultTolerance) and the element's bound from
// the evaluator's oracle mode (compiler/evaluator/oracle.h: the rounding
// allowance of reassociated float sums, which grows with the number of terms
// and their magnitudes; 0 when no sum is involved). Complex elements match
// when both parts do. The per-type tolerance covers aotc's own transcendental
// functions against the C library the evaluator uses (docs/math.md), grown
// through a few dependent operations, and f16/bf16 results rounded after a
// wider computation.
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

// "[3,1]": the multi-index of row-major element `linear` of array `shape`.
std::string IndexText(const Shape& shape, int64_t linear);

struct Comparison {
  int64_t elements = 0;
  int64_t mismatches = 0;
  // Float (and complex part) pairs where both sides are finite, and where
  // both are NaN: NaN matches NaN, so a test whose results are mostly NaN
  // proves little; tests assert on `finite`.
  int64_t finite = 0;
  int64_t both_nan = 0;
  double max_abs_error = 0;  // over elements where both are finite
  double max_rel_error = 0;
  // Over elements where both are finite: the largest ratio of the error to
  // the element's allowed error (abs + rel * |expected| + bound); at most 1
  // when ok(), so 1 / max_error_ratio is the margin.
  double max_error_ratio = 0;
  // "element [3,1]: got 1.5, expected 2" for the first mismatch.
  std::string first_mismatch;
  bool ok() const { return mismatches == 0; }
};

// Compares two array literals of the same shape. `bound` (may be null) is an
// f64 array of expected's dimensions, added to the tolerance per element.
Comparison CompareLiterals(const Literal& actual, const Literal& expected,
                           Tolerance tolerance,
                           const Literal* bound = nullptr);

}  // namespace aotc

#endif  // AOTC_TOOLS_COMPARE_H_
