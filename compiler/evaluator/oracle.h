// The evaluator as the test oracle (EvaluateOptions::oracle): wide sums, and
// error bounds for the comparison of compiled results (tools/compare.h).
//
// Compiled code adds the terms of an f32 or f64 reduction in an order of its
// own (vector accumulators, split reductions, docs/codegen.md), so its sum
// differs from any fixed order by rounding. In oracle mode a reduce whose
// reducer is `add` of its two f32 or f64 parameters sums in double (f32
// terms) or compensated (Neumaier's summation, f64 terms), which is close to
// the exact sum, and every result element gets an absolute error allowance
// for a sum in the accumulator type T:
//
//   bound = u_T * sqrt(n) * sum_i |x_i|   (+ the terms' own bounds)
//
// n counts the terms (the init value included), u_T is T's unit roundoff
// (2^-24 f32, 2^-53 f64). Every order of summation rounds n - 1 partial
// sums, each by at most u_T times its magnitude, and no partial sum exceeds
// sum |x_i|; the worst case n * u_T is not approached while the roundings
// are independent and cancel like a random walk, hence sqrt(n) (Higham,
// Accuracy and Stability of Numerical Algorithms, 2nd ed., section 2.8).
// That holds for compiled sums, whose many short partial sums stay close in
// magnitude to their terms. It fails for one long left-to-right sum of terms
// of one sign: once the running sum's ulp nears the terms, every rounding
// goes the same way (2^24 terms near 2.4: 1.4% off, the bound allows 2.6e-4).
// So `aotc run --check --strict-fp`, whose code sums exactly that way,
// compares with the plain mode instead.
//
// f16 and bf16 reductions stay sequential, rounded after every step: that
// is what compiled code does with them too (it never reassociates them), so
// the plain evaluation is their exact reference; a wide sum would make
// compiled code look wrong by the rounding it is specified to do.
//
// The bounds follow the values through the entry computation
// (PropagateBound): shape operations move them, first-order rules carry them
// through add, subtract, multiply, divide, negate, abs, convert between
// floats, maximum, minimum, select, sqrt, exp, log, tanh and logistic, and a
// reduce-add sums them. Any other operation on a bounded value (and every
// value inside called computations) ends with no bound, so the comparison's
// default per-type tolerance alone applies there.
#ifndef AOTC_COMPILER_EVALUATOR_ORACLE_H_
#define AOTC_COMPILER_EVALUATOR_ORACLE_H_

#include <optional>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"

namespace aotc::eval {

// The unit roundoff of a float type (half its machine epsilon), 0 otherwise.
double UnitRoundoff(PrimitiveType type);

// Whether `inst` is a single-output reduce whose reducer is `add` of its two
// parameters, all f32 or all f64.
bool IsFloatAddReduce(const Instruction& inst);

// Evaluates a reduce for which IsFloatAddReduce holds with a wide sum (see
// above). `input_bound` (may be null) bounds the input's elements; *bound
// receives the result's bounds, in the result's element type.
absl::StatusOr<Literal> EvalWideSum(const Instruction& inst, Operands operands,
                                    const Literal* input_bound, Literal* bound);

// The bounds of `value`, the value of `inst` computed from `operands`, whose
// bounds are `bounds` (null: exact). nullopt when no operand has a bound, or
// when `inst` is not one of the operations listed above.
std::optional<Literal> PropagateBound(const Instruction& inst,
                                      Operands operands,
                                      absl::Span<const Literal* const> bounds,
                                      const Literal& value);

// The bounds of a value as f64 arrays, one per leaf of `value` (zeros where
// `bound` is null or has no bound for the leaf).
std::vector<Literal> BoundLeaves(const Literal& value, const Literal* bound);

}  // namespace aotc::eval

#endif  // AOTC_COMPILER_EVALUATOR_ORACLE_H_
