// Building blocks shared by the evaluator's reduction, sort and
// linear-algebra kernels (reduction.cc, reduce_window.cc, sort.cc, linalg.cc,
// convolution.cc).
//
// The kernels cannot trust attributes blindly: they check operand arrays,
// called-computation signatures and window attributes here and report located
// errors, so that index arithmetic below never overflows and never reads out
// of bounds. Element data is always logical row-major (see literal.h).
#ifndef AOTC_COMPILER_EVALUATOR_KERNEL_UTIL_H_
#define AOTC_COMPILER_EVALUATOR_KERNEL_UTIL_H_

#include <bit>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/shape.h"

namespace aotc::eval {

// Checks that there is one operand literal per operand of `inst` and that
// each is an array with known data of an element type the evaluator
// computes with.
absl::Status CheckArrayOperands(const Instruction& inst, Operands operands);

// A located error unless `type` is computable by the evaluator.
absl::Status CheckComputableType(const Instruction& inst, PrimitiveType type);

// The arrays an instruction produces: the elements of a tuple shape, or the
// shape itself. Nested tuples are returned as they are (callers check).
std::vector<const Shape*> ResultArrays(const Shape& shape);

// Checks that `result` is an array of `type` with dimensions `dims`; `what`
// names it in the error ("result", "result element 1").
absl::Status CheckResultArray(const Instruction& inst, std::string_view what,
                              const Shape& result, PrimitiveType type,
                              absl::Span<const int64_t> dims);

// Checks that `dims` are distinct dimension numbers of a rank-`rank` array;
// `what` names the attribute in the error.
absl::Status CheckDimensionList(const Instruction& inst, std::string_view what,
                                absl::Span<const int64_t> dims, int64_t rank);

// The `index`-th called computation of `inst` after checking that it exists
// and takes exactly the scalar parameters `param_types`; `role` names it in
// errors ("to_apply", "select", "comparator").
absl::StatusOr<const Computation*> ScalarComputation(
    const Instruction& inst, int index, std::string_view role,
    absl::Span<const PrimitiveType> param_types);

// Scalar literals used as the arguments of a called computation. They are
// built once and overwritten element by element, because kernels call the
// computation once per element or comparison.
class ScalarArgs {
 public:
  explicit ScalarArgs(absl::Span<const PrimitiveType> types);
  ScalarArgs(const ScalarArgs&) = delete;
  ScalarArgs& operator=(const ScalarArgs&) = delete;

  // Copies element `index` of array `from` (same element type) into arg i.
  void Load(int i, const Literal& from, int64_t index);
  // Copies the value of scalar `from` (same element type) into arg i.
  void LoadScalar(int i, const Literal& from);
  Literal& arg(int i) { return literals_[i]; }
  const Literal& arg(int i) const { return literals_[i]; }
  Operands operands() const { return pointers_; }

 private:
  std::vector<Literal> literals_;
  std::vector<const Literal*> pointers_;
};

// Calls `computation` and checks that it returned one scalar per entry of
// `types` (a bare scalar for one, a tuple of scalars for several). `role`
// names the computation in errors.
absl::StatusOr<Literal> CallScalar(const Instruction& inst, const CallFn& call,
                                   const Computation& computation,
                                   std::string_view role, Operands args,
                                   absl::Span<const PrimitiveType> types);

// Scalar i of a result checked by CallScalar.
const Literal& ScalarPart(const Literal& result, int i);

// The pred value of a result checked by CallScalar with types {kPred}.
bool PredValue(const Literal& result);

// Copies one element between arrays of the same element type.
void CopyElement(const Literal& from, int64_t from_index, Literal& to,
                 int64_t to_index);

// Stores element `from_index` of `from` at `to_index` of `to`, converted to
// the element type of `to` as linalg_internal.h describes (a plain copy when
// the types agree). Both types must be computable.
void ConvertElementInto(const Literal& from, int64_t from_index, Literal& to,
                        int64_t to_index);

// Walks every index of an array shape in row-major order while keeping
// linear offsets into several arrays up to date (offset k moves by
// strides[k][d] when dimension d moves by one). An empty dimension list walks
// one index; a zero-sized dimension walks none.
class IndexWalker {
 public:
  IndexWalker(std::vector<int64_t> dims,
              std::vector<std::vector<int64_t>> strides);

  bool done() const { return done_; }
  const std::vector<int64_t>& index() const { return index_; }
  int64_t offset(int k) const { return offsets_[k]; }
  void Next();

 private:
  std::vector<int64_t> dims_;
  std::vector<std::vector<int64_t>> strides_;
  std::vector<int64_t> index_;
  std::vector<int64_t> offsets_;
  bool done_ = false;
};

// One window position of an output position that lands on an operand
// element (not in padding, not in a base-dilation hole).
struct WindowTap {
  int64_t window;   // position in the window, 0 <= window < size
  int64_t operand;  // operand index along the same dimension
};

// One dimension of a window (reduce-window, select-and-scatter, the spatial
// dimensions of convolution) over an operand dimension of size `base_size`.
//
// The operand is conceptually dilated (base_dilation - 1 holes between
// elements) and padded (pad_low / pad_high, possibly negative); output
// position o covers padded positions o * stride + w * window_dilation for
// w in [0, size). MakeWindowAxes bounds every derived quantity by 2^60, so
// the arithmetic here cannot overflow int64.
struct WindowAxis {
  int64_t base_size = 0;
  int64_t size = 1;
  int64_t stride = 1;
  int64_t pad_low = 0;
  int64_t pad_high = 0;
  int64_t window_dilation = 1;
  int64_t base_dilation = 1;
  bool reversal = false;
  int64_t dilated_base = 0;  // (base_size - 1) * base_dilation + 1, or 0
  int64_t output_size = 0;

  // Replaces *taps with the window positions of output position `o` that
  // land on operand elements, in increasing window position. The work is
  // proportional to min(size, base_size), whatever the attributes.
  void Taps(int64_t o, std::vector<WindowTap>* taps) const;
};

// Checks `window` against an operand of dimensions `base_dims` (one window
// dimension per operand dimension, positive size, stride and dilations,
// bounded extents) and computes the output size of each dimension.
absl::StatusOr<std::vector<WindowAxis>> MakeWindowAxes(
    const Instruction& inst, absl::Span<const WindowDim> window,
    absl::Span<const int64_t> base_dims);

// Calls fn(taps_index) for every combination of per-dimension taps in
// row-major order (dimension 0 slowest); `taps[d]` lists the taps of
// dimension d. Returns the first error fn returns.
template <typename Fn>
absl::Status ForEachTapCombination(
    const std::vector<std::vector<WindowTap>>& taps, Fn&& fn) {
  const size_t rank = taps.size();
  for (const auto& t : taps) {
    if (t.empty()) return absl::OkStatus();
  }
  std::vector<size_t> pos(rank, 0);
  while (true) {
    absl::Status status = fn(absl::Span<const size_t>(pos));
    if (!status.ok()) return status;
    size_t d = rank;
    while (d > 0) {
      --d;
      if (++pos[d] < taps[d].size()) break;
      pos[d] = 0;
      if (d == 0) return absl::OkStatus();
    }
    if (rank == 0) return absl::OkStatus();
  }
}

// The integer magnitude `mag` (negated when `negative`) rounded to
// `significant_bits` significant bits, ties to even; exact in double.
inline double RoundIntegerToBits(uint64_t mag, bool negative,
                                 int significant_bits) {
  const int width = std::bit_width(mag);
  double value;
  if (width <= significant_bits) {
    value = static_cast<double>(mag);
  } else {
    const int shift = width - significant_bits;
    uint64_t q = mag >> shift;
    const uint64_t rest = mag & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    if (rest > half || (rest == half && (q & 1) != 0)) ++q;
    value = std::ldexp(static_cast<double>(q), shift);
  }
  return negative ? -value : value;
}

}  // namespace aotc::eval

#endif  // AOTC_COMPILER_EVALUATOR_KERNEL_UTIL_H_
