// Multi-dimensional index iteration and index-value reading for the
// evaluator's data-movement kernels (movement.cc, gather_scatter.cc).
//
// Literal data is logical row-major, so an element's linear index is the dot
// product of its multi-dimensional index with RowMajorStrides(dims). The
// kernels check every attribute against the shapes before they iterate, so
// these helpers assume in-range arguments.
#ifndef AOTC_COMPILER_EVALUATOR_INDEX_UTIL_H_
#define AOTC_COMPILER_EVALUATOR_INDEX_UTIL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/primitive_type.h"
#include "compiler/support/strings.h"  // BracedList

namespace aotc::eval {

// True when `dims` holds a zero, i.e. the array has no elements.
bool HasZeroDimension(absl::Span<const int64_t> dims);

// Advances `index` to the next index of `dims` in row-major order. Returns
// false (leaving `index` all zeros) after the last index.
bool NextIndex(absl::Span<const int64_t> dims, absl::Span<int64_t> index);

// Calls fn(index) for every index of `dims` in row-major order: once with
// the empty index for rank 0, never when a dimension is 0.
template <typename Fn>
void ForEachIndex(absl::Span<const int64_t> dims, Fn&& fn) {
  if (HasZeroDimension(dims)) return;
  std::vector<int64_t> index(dims.size(), 0);
  do {
    fn(absl::Span<const int64_t>(index));
  } while (NextIndex(dims, absl::MakeSpan(index)));
}

// dst[o] = src[offset + index(o) . strides] (in elements of `bytes` bytes)
// for every index of `dst_dims` in row-major order, o being the running
// output position. Broadcast, transpose, slice, reverse and dynamic-slice are
// all this copy with different offsets and strides.
void GatherStrided(const uint8_t* src, int64_t offset,
                   absl::Span<const int64_t> dst_dims,
                   absl::Span<const int64_t> strides, int64_t bytes,
                   uint8_t* dst);

// dst[offset + index(s) . strides] = src[s] for every index of `src_dims`
// (concatenate, dynamic-update-slice).
void ScatterStrided(const uint8_t* src, absl::Span<const int64_t> src_dims,
                    int64_t offset, absl::Span<const int64_t> strides,
                    int64_t bytes, uint8_t* dst);

// Copies all array data of `from` into `to` (equal byte sizes); does nothing
// for empty arrays, whose data pointers may be null.
void CopyRawData(const Literal& from, Literal& to);

// sum_i index[i] * strides[i].
int64_t LinearIndex(absl::Span<const int64_t> index,
                    absl::Span<const int64_t> strides);

// Element types usable as indices (dynamic-slice starts, gather and scatter
// indices): the computable signed and unsigned integers.
bool IsIndexType(PrimitiveType t);

// Element `linear` of an index array (IsIndexType) as int64. Unsigned values
// above INT64_MAX saturate to INT64_MAX; callers clamp or bounds-check, for
// which saturation gives the same answer as the exact value.
int64_t ReadIndexValue(const Literal& literal, int64_t linear);

// Operand checks the kernels share; they return located errors
// (ErrorAt(inst.location(), ...)) naming the operand by number.
// operands.size() == count.
absl::Status CheckOperandCount(const Instruction& inst,
                               absl::Span<const Literal* const> operands,
                               int count);
// Operand i is a non-elided array literal whose data matches its shape.
absl::Status CheckArrayOperand(const Instruction& inst,
                               absl::Span<const Literal* const> operands,
                               int i);
// Operand i is a scalar of an index type.
absl::Status CheckScalarIndexOperand(const Instruction& inst,
                                     absl::Span<const Literal* const> operands,
                                     int i);
// The instruction's own shape is an array.
absl::Status CheckArrayResult(const Instruction& inst);
// `what` (e.g. "operand 1") has the element type `expected`.
absl::Status CheckElementType(const Instruction& inst, std::string_view what,
                              PrimitiveType actual, PrimitiveType expected);
// `what` has exactly the dimensions `expected`.
absl::Status CheckDimensions(const Instruction& inst, std::string_view what,
                             absl::Span<const int64_t> actual,
                             absl::Span<const int64_t> expected);

}  // namespace aotc::eval

#endif  // AOTC_COMPILER_EVALUATOR_INDEX_UTIL_H_
