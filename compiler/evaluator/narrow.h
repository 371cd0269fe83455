// Evaluation of instructions on narrow element types (s2, s4, u2, u4 and the
// minifloats; compiler/ir/narrow_type.h) by widening.
//
// Operands are widened exactly (sub-byte integers to s8 or u8, minifloats to
// f32), the ordinary kernel runs on an instruction of the widened types, and
// narrow results are narrowed once: integers wrap to their width (modular
// arithmetic agrees with computing in the narrow width), minifloats round to
// nearest even. That is XLA's semantics of these types: every operation
// computes in a wider type and rounds or wraps its result.
//
// Where an operation looks at bits above the type's width, the sub-byte
// operand is widened the way the operation reads it: zero-extended for
// shift-right-logical, popcnt, count-leading-zeros (then corrected by the
// width difference) and UNSIGNED compares; sign-extended for
// shift-right-arithmetic and SIGNED compares.
//
// convert, bitcast-convert and iota with a narrow type are computed here
// directly. Ops that only move bytes or call computations (movement,
// reduce, sort, map, ...) need nothing: their called computations come back
// through the evaluator's dispatch.
#ifndef AOTC_COMPILER_EVALUATOR_NARROW_H_
#define AOTC_COMPILER_EVALUATOR_NARROW_H_

#include <functional>
#include <memory>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"

namespace aotc::eval {

// True when the evaluator computes on a narrow type for `inst`: an
// elementwise op, bitcast-convert, dot, convolution or iota with a narrow
// element type among its result's or operands' types.
bool NeedsNarrowEvaluation(const Instruction& inst);

// Converts element `from_index` of `from` into element `to_index` of `to`
// with convert's semantics, where at least one of the types is narrow.
void ConvertNarrowElement(const Literal& from, int64_t from_index, Literal& to,
                          int64_t to_index);

using Kernel =
    std::function<absl::StatusOr<Literal>(const Instruction&, Operands)>;

// Evaluates instructions for which NeedsNarrowEvaluation holds. Keeps the
// widened copy of each instruction it has seen (a reducer is evaluated once
// per element).
class NarrowEvaluator {
 public:
  NarrowEvaluator();
  ~NarrowEvaluator();

  // `kernel` evaluates the widened instruction on widened operands.
  absl::StatusOr<Literal> Eval(const Instruction& inst, Operands operands,
                               const Kernel& kernel);

 private:
  struct Widened;
  absl::StatusOr<const Widened*> GetWidened(const Instruction& inst);

  absl::flat_hash_map<const Instruction*, std::unique_ptr<Widened>> cache_;
};

}  // namespace aotc::eval

#endif  // AOTC_COMPILER_EVALUATOR_NARROW_H_
