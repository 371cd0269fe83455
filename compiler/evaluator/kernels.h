// Evaluator kernels: one function per family of opcodes, each taking the
// instruction and its already evaluated operands. The driver (evaluator.cc)
// evaluates operands in definition order, dispatches here, and provides
// `call` for opcodes that apply a computation (reduce, sort, scatter, ...).
//
// Every kernel may assume a verified module; it returns a located error
// (ErrorAt(inst.location(), ...)) for what verification does not exclude:
// unsupported element types, elided literals, unsupported custom-call targets.
#ifndef AOTC_COMPILER_EVALUATOR_KERNELS_H_
#define AOTC_COMPILER_EVALUATOR_KERNELS_H_

#include <functional>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"

namespace aotc::eval {

using Operands = absl::Span<const Literal* const>;
// Evaluates a called computation on the given arguments.
using CallFn = std::function<absl::StatusOr<Literal>(const Computation&,
                                                      Operands)>;

// Elementwise unary/binary/ternary ops, compare, select, clamp, convert,
// bitcast-convert, reduce-precision (elementwise.cc).
absl::StatusOr<Literal> EvalElementwise(const Instruction& inst,
                                        Operands operands);

// broadcast, reshape, transpose, slice, concatenate, pad, reverse, iota,
// copy, bitcast, dynamic-slice, dynamic-update-slice (movement.cc).
absl::StatusOr<Literal> EvalMovement(const Instruction& inst,
                                     Operands operands);

// gather, scatter (gather_scatter.cc).
absl::StatusOr<Literal> EvalGatherScatter(const Instruction& inst,
                                          Operands operands, const CallFn& call);

// reduce, reduce-window, select-and-scatter, sort, topk (reduction.cc).
absl::StatusOr<Literal> EvalReduction(const Instruction& inst,
                                      Operands operands, const CallFn& call);

// custom-call: TopK, AllocateBuffer (zeros); any other target is a located
// error naming it (custom_call.cc). Identity custom-calls are aliased by the
// driver and never get here.
absl::StatusOr<Literal> EvalCustomCall(const Instruction& inst,
                                       Operands operands, const CallFn& call);

// dot, convolution (linalg.cc).
absl::StatusOr<Literal> EvalLinalg(const Instruction& inst, Operands operands);

// fft by the direct sum in long double (fft.cc).
absl::StatusOr<Literal> EvalFft(const Instruction& inst, Operands operands);

// triangular-solve by substitution, cholesky by Cholesky-Banachiewicz, both
// in long double (factorization.cc).
absl::StatusOr<Literal> EvalTriangularSolve(const Instruction& inst,
                                            Operands operands);
absl::StatusOr<Literal> EvalCholesky(const Instruction& inst,
                                     Operands operands);

}  // namespace aotc::eval

#endif  // AOTC_COMPILER_EVALUATOR_KERNELS_H_
