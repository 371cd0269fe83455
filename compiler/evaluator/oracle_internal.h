// Internals of the oracle's error budgets (oracle.h), shared by oracle.cc
// (wide sums, the dispatch of PropagateBudget, leaves) and budget_rules.cc
// (the rules of element-wise operations, products, windows, reductions and
// movement). Budgets are literals of their value's type; a complex element
// has a budget per part.
#ifndef AOTC_COMPILER_EVALUATOR_ORACLE_INTERNAL_H_
#define AOTC_COMPILER_EVALUATOR_ORACLE_INTERNAL_H_

#include <cstdint>
#include <limits>
#include <optional>

#include "absl/types/span.h"
#include "compiler/evaluator/oracle.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"

namespace aotc::eval::internal {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Element types whose values carry budgets: real floats and complex.
bool HasBudget(PrimitiveType t);
// A complex type's part type; any other type itself.
PrimitiveType PartType(PrimitiveType t);
// Parts per element: 2 for complex, else 1.
int Parts(PrimitiveType t);
// Part p (0 real, 1 imaginary) of element i of a float or complex array.
double GetPart(const Literal& lit, int64_t i, int p);
// Stores v into part p of element i as the nearest value of the part type.
void SetPart(Literal& lit, int64_t i, int p, double v);
// Stores a budget b >= 0 (or NaN) rounded up in the array's type.
void SetBudget(Literal& lit, int64_t i, int p, double b);
// Fills every float part of `lit` (recursively through tuples) with v.
void Fill(Literal& lit, double v);
// Whether `shape` has a leaf that carries budgets.
bool AnyFloat(const Shape& shape);

// The root opcode of a reducer `root(p0, p1)` of its two distinct
// parameters, or kParameter when the reducer is anything else.
Opcode ReducerOp(const Instruction& inst);

// The rules (budget_rules.cc), each PropagateBudget's answer for its
// instructions: element-wise operations; dot and convolution; reduce and
// reduce-window other than the wide sums; data movement.
std::optional<Literal> ElementwiseBudget(
    const Instruction& inst, Operands operands,
    absl::Span<const Literal* const> budgets, const Literal& value,
    const DispatchFn& dispatch);
std::optional<Literal> ProductBudget(const Instruction& inst, Operands operands,
                                     absl::Span<const Literal* const> budgets,
                                     const Literal& value,
                                     const DispatchFn& dispatch);
std::optional<Literal> ReduceBudget(const Instruction& inst, Operands operands,
                                    absl::Span<const Literal* const> budgets,
                                    const Literal& value,
                                    const DispatchFn& dispatch);
std::optional<Literal> MoveBudgets(const Instruction& inst, Operands operands,
                                   absl::Span<const Literal* const> budgets,
                                   const Literal& value,
                                   const DispatchFn& dispatch);

}  // namespace aotc::eval::internal

#endif  // AOTC_COMPILER_EVALUATOR_ORACLE_INTERNAL_H_
