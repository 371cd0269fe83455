// The causal mask of an attention (attention_pattern.h), read from the
// predicate of its select as an affine condition on the score's indices:
// compares of iotas (and integer constants added to them) through
// broadcasts, reshapes, transposes, nots and select(c, true, false), which
// must say key <= row + offset for one dimension besides the key's.
// Internal to the attention matcher, with the dimension helpers both use.
#ifndef AOTC_COMPILER_ANALYSIS_ATTENTION_MASK_H_
#define AOTC_COMPILER_ANALYSIS_ATTENTION_MASK_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/ir/instruction.h"

namespace aotc::attention_internal {

// The sizes of the dimensions of size > 1, in order.
std::vector<int64_t> Squeezed(const Shape& shape);

// The dimensions of size > 1, in order: position p of the squeezed list is
// dimension NonUnitDims(shape)[p].
std::vector<int64_t> NonUnitDims(const Shape& shape);

// A value's dimensions -> the score's positions (its dimensions of size >
// 1, in order); -1 for none.
using PositionMap = std::vector<int64_t>;

// Keys at `key_position` take part in the row at `row_position` when key
// <= row + offset.
struct CausalMask {
  int64_t row_position = -1;
  int64_t offset = 0;
};

// The causal mask `pred` (whose dimensions are at `map`'s positions) says,
// keeping the score where it holds (`keep_when_true`) or where it does not;
// nullopt for any other mask.
std::optional<CausalMask> ReadCausalMask(const Instruction& pred,
                                         const PositionMap& map,
                                         bool keep_when_true,
                                         int64_t key_position);

}  // namespace aotc::attention_internal

#endif  // AOTC_COMPILER_ANALYSIS_ATTENTION_MASK_H_
