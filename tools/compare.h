// Comparing a compiled model's results with the reference evaluator's, the
// test oracle of `aotc run --check`, `aotc conform`, the codegen tests and the
// corpus tests.
//
// Integers must match exactly, pred by truth (any nonzero byte is true).
// Floats match when both are NaN, or both are the same infinity, or
//   |actual - expected| <= budget
// with the element's error budget from the evaluator's oracle mode
// (compiler/evaluator/oracle.h: what compiled code's own rounding and its
// operands' budgets allow, in ulps of the element type for element-wise
// operations and proportional to sqrt(n) u sum |terms| for sums, products
// and windows; docs/testing.md, "The error budget"). There is no fixed
// absolute floor: a value near zero is judged against its own budget. Where
// the oracle could not follow a value (budget NaN: results of loops, maps,
// custom calls, ...) the per-type tolerance abs + rel * |expected| applies
// instead (DefaultTolerance: aotc's transcendental functions against the C
// library, grown through a few dependent operations); so does it where the
// budget is +inf, which says the oracle lost track rather than that any
// value is right. Complex elements match when both parts do, each within
// the element's budget.
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
  // the element's allowed error (its budget, or the tolerance where it has
  // none); at most 1 when ok(), so 1 / max_error_ratio is the margin.
  double max_error_ratio = 0;
  // Float parts judged by the per-type tolerance for want of a budget, and
  // among them the parts whose budget is +inf.
  int64_t by_tolerance = 0;
  int64_t infinite_budget = 0;
  // "element [3,1]: got 1.5, expected 2" for the first mismatch.
  std::string first_mismatch;
  bool ok() const { return mismatches == 0; }
};

// Compares two array literals of the same shape. `budget` (may be null: the
// tolerance alone judges every float) is an f64 array of expected's
// dimensions (eval::OracleValue::bounds).
Comparison CompareLiterals(const Literal& actual, const Literal& expected,
                           Tolerance tolerance,
                           const Literal* budget = nullptr);

}  // namespace aotc

#endif  // AOTC_TOOLS_COMPARE_H_
