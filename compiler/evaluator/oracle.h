// The evaluator as the test oracle (EvaluateOptions::oracle): wide sums, and
// for every value an error budget, the largest difference from the
// evaluator's value that compiled code may show (tools/compare.h judges
// compiled results by it; docs/testing.md, "The error budget").
//
// Sums. Compiled code adds the terms of an f32 or f64 reduction in an order
// of its own (vector accumulators, split reductions, docs/codegen.md), so its
// sum differs from any fixed order by rounding. In oracle mode a reduce whose
// reducer is `add` of its two f32 or f64 parameters sums in double (f32
// terms) or compensated (Neumaier's summation, f64 terms), close to the exact
// sum. Every order of summation rounds n - 1 partial sums, each by at most
// u_T times its magnitude (u_T: the unit roundoff of the accumulator type T,
// 2^-24 f32, 2^-53 f64), and no partial sum exceeds sum |x_i|; the worst
// case n * u_T is not approached while the roundings are independent and
// cancel like a random walk, hence a sqrt(n) law (Higham, Accuracy and
// Stability of Numerical Algorithms, 2nd ed., section 2.8):
//
//   reduce-add:           u_T * sqrt(n) * sum_i |x_i|
//   dot, convolution,     u_T * (2 sqrt(n) + 2) * sum_i |a_i| |b_i|
//   reduce-window add:    (both sides round: the evaluator sums these in T)
//
// plus what the terms' own budgets carry, plus one ulp of the result. n
// counts the terms. That holds for compiled sums, whose many short partial
// sums stay close in magnitude to their terms; it fails for one long
// left-to-right sum of terms of one sign (2^24 terms near 2.4: 1.4% off), so
// `aotc run --check --strict-fp`, whose code sums exactly that way, asks
// for sequential sums (EvaluateOptions::wide_sums off) with the same
// budgets.
//
// Element-wise operations. Each adds its own error to what its operands
// carry: 0 for the correctly rounded ones (add, multiply, divide, sqrt,
// convert, ...: compiled code computes the same bits from the same
// operands), and for the elementary functions the worst case measured for
// aotc's code (docs/math.md) plus the C library's half ulp and a margin, in
// ulps of the result (OwnUlps in oracle.cc; complex results: a multiple of
// u_T |v| on each part). What operands carry propagates to first order:
// closed-form rules for the common real operations, and for every other one
// the operation evaluated at the corners of its operands' budgets (x +- b)
// with the largest distance from the value taken; either adds one ulp for the
// rounding of a perturbed result.
//
// Values budgets cannot follow get NaN ("unknown": the comparison falls back
// to its per-type tolerance there): the results of map, while, custom-call,
// sort or scatter of inexact operands, reducers other than add, max and
// min. A budget of +inf means "any value": the operands' uncertainty spans a
// pole or a jump. NaN and infinite values have budget 0 (they must match
// exactly). Budgets follow the entry computation and every computation it
// reaches through call, fusion and conditional; computations applied by
// kernels (reducers, comparators, map) are not followed.
//
// f16 and bf16 reductions stay sequential, rounded after every step: that
// is what compiled code does with them too (it never reassociates them), so
// the plain evaluation is their exact reference.
#ifndef AOTC_COMPILER_EVALUATOR_ORACLE_H_
#define AOTC_COMPILER_EVALUATOR_ORACLE_H_

#include <functional>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"

namespace aotc::eval {

// Whether element-wise `op` on real floats (and integers) computes the
// correctly rounded or exact value of its operands, as every IEEE 754
// implementation does: compiled code and the evaluator give the same bits
// from the same operands (add, multiply, divide, sqrt, convert, compare,
// ...; not the elementary functions, nor complex multiply and divide).
bool IsCorrectlyRounded(Opcode op);

// The unit roundoff of a float type (half its machine epsilon), of a
// complex type's parts, 0 otherwise.
double UnitRoundoff(PrimitiveType type);

// The spacing of `type`'s values (a real float type, or a complex type's
// part type) at magnitude |v|; for 0, the smallest subnormal.
double Ulp(PrimitiveType type, double v);

// Whether `inst` is a single-output reduce whose reducer is `add` of its two
// parameters, all f32 or all f64.
bool IsFloatAddReduce(const Instruction& inst);

// Evaluates a reduce for which IsFloatAddReduce holds with a wide sum (see
// above). `input_budget` (may be null: exact) is the input's; *budget
// receives the result's, in the result's element type.
absl::StatusOr<Literal> EvalWideSum(const Instruction& inst, Operands operands,
                                    const Literal* input_budget,
                                    Literal* budget);

// Evaluates any instruction on any operands (the evaluator's dispatch):
// budgets of movement, products and windows are computed by evaluating the
// instruction on budgets and magnitudes.
using DispatchFn =
    std::function<absl::StatusOr<Literal>(const Instruction&, Operands)>;

// The budget of `value`, the value of `inst` (not a reduce for which
// EvalWideSum was used) computed from `operands`, whose budgets are
// `budgets` (null: exact). nullopt: exact (every operand exact and `inst`
// correctly rounded), or a value without float elements.
std::optional<Literal> PropagateBudget(const Instruction& inst,
                                       Operands operands,
                                       absl::Span<const Literal* const> budgets,
                                       const Literal& value,
                                       const DispatchFn& dispatch);

// A budget of `shape` that is unknown (NaN) in every float element.
Literal UnknownBudget(const Shape& shape);

// The budgets of a value as f64 arrays, one per leaf of `value`: zeros where
// `budget` is null, a complex element's larger part budget, NaN (unknown)
// for leaves of element types budgets do not cover (minifloats).
std::vector<Literal> BudgetLeaves(const Literal& value, const Literal* budget);

}  // namespace aotc::eval

#endif  // AOTC_COMPILER_EVALUATOR_ORACLE_H_
