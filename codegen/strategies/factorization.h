// The "triangular-solve" and "cholesky" strategies (strategy.h): one batch
// matrix at a time, in double (complex double for c64 and c128) in scratch,
// rounded to the result type at the end.
//
// triangular-solve: x = b, then each row (left_side: op(a) x = b) or column
// (x op(a) = b) of x in the order op(a)'s triangle allows, forward or back
// substitution:
//
//   for s in 0..k: i = the s-th row (column) in that order
//     for each j: x[i][j] = (x[i][j] - sum_{earlier q} op(a)[i][q] x[q][j])
//                           / op(a)[i][i]     (no division: unit_diagonal)
//
// reading only the triangle of a that `lower` names (not its diagonal when
// unit_diagonal). cholesky: Cholesky-Banachiewicz, row by row,
//
//   l[i][j] = (a[i][j] - sum_{q<j} l[i][q] conj(l[j][q])) / l[j][j]
//   l[i][i] = sqrt(re a[i][i] - sum_{q<i} |l[i][q]|^2)
//
// reading a's lower triangle (upper: conj(a[j][i]), and the result is
// l^H), the other triangle of the result zero; when a pivot is not
// positive (or NaN) the whole matrix is NaN, as the evaluator gives. The
// square root is the math library's inline one (no libm call). Not split
// over threads.
#ifndef AOTC_CODEGEN_STRATEGIES_FACTORIZATION_H_
#define AOTC_CODEGEN_STRATEGIES_FACTORIZATION_H_

#include <optional>

#include "codegen/strategy.h"

namespace aotc::codegen {

std::optional<StrategyPlan> PlanTriangularSolve(const Instruction &inst);
std::optional<StrategyPlan> PlanCholesky(const Instruction &inst);

} // namespace aotc::codegen

#endif // AOTC_CODEGEN_STRATEGIES_FACTORIZATION_H_
