// Recognises row normalisations, RMSNorm and LayerNorm, in the decomposed
// forms exporters write, so that each row is read from memory once: its
// sums are computed over the row, then the row is written normalised, with
// the scale, the bias and the element-wise operations that follow (the
// `norm-fusion` pass groups the region, the `row-norm` codegen strategy
// computes it row by row; the row's later passes read it from cache).
//
// The region is found from its last value, the root, of shape S, whose
// trailing dimensions [k, rank) form a row. Its members are of two levels:
//
//   element level (S's dimensions): element-wise operations, converts,
//     iotas, and broadcasts into S (of a row-level value: one per row; of
//     anything from outside: the scale and bias vectors, a scalar);
//   row level (the row count's dimensions: S's first k dimensions, with
//     dimensions of size 1 added or removed): add-reduces of element-level
//     values over exactly [k, rank), element-wise operations, converts,
//     reshapes that add or remove dimensions of size 1, broadcasts of
//     scalars;
//
// plus scalar constants and cheap element-wise operations, reshapes and
// broadcasts on values of other shapes (the scale vector widened to f32,
// 1 + scale), read through broadcasts into S. A broadcast from row level into S must map the
// row value's dimensions of size > 1, in order, onto S's first k of size >
// 1, so that every row-level value a member reads is the current row's.
// Anything else the members read (x, a residual, the scale vector, a value
// computed outside) is an input of the region. Every member but the root is
// read only by members.
//
// It is a normalisation when the region holds a reduce of a square
// (multiply(a, a) or power(a, 2), through converts) and takes a square root
// (sqrt or rsqrt) of a value computed from it; a norm whose other reduces
// sum plain values (the mean) is a layer_norm, one whose only sums are of
// squares and divided by the row length (a mean of squares) an rms_norm,
// otherwise (sums of squares not divided) an l2_norm. Never taken: a
// reduce over other dimensions, a reducer other than add, a region without
// a square root (softmax), and an expensive element-level operation (exp,
// divide, a transcendental) feeding a reduce, which each pass over the row
// would compute again.
#ifndef AOTC_COMPILER_ANALYSIS_NORM_PATTERN_H_
#define AOTC_COMPILER_ANALYSIS_NORM_PATTERN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/instruction.h"

namespace aotc {

struct NormPattern {
  enum Kind { kRmsNorm, kLayerNorm, kL2Norm } kind = kRmsNorm;
  const Instruction* root = nullptr;
  // Every member, root included, in the computation's order.
  std::vector<const Instruction*> members;
  // The members other regions may hold too (scalar constants and their
  // broadcasts, read outside the region as well: the fusion copies them).
  std::vector<const Instruction*> shared;
  // The member reduces, each after the reduces it reads (a centred
  // variance after its mean).
  std::vector<const Instruction*> reduces;
  int64_t first_row_dim = 0;  // k: S's dimensions [k, rank) are a row
  int64_t rows = 1;
  int64_t row_length = 1;

  // "rms_norm", "layer_norm" or "l2_norm", for the fusion report.
  std::string Describe() const;
};

// The normalisation whose region ends at `root`, or nullopt.
std::optional<NormPattern> MatchNorm(const Instruction& root);

}  // namespace aotc

#endif  // AOTC_COMPILER_ANALYSIS_NORM_PATTERN_H_
