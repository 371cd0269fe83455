// sort, the topk opcode and the TopK custom-call.
//
// sort: every operand is permuted the same way along `dimensions[0]`. The
// comparator takes 2N scalars (lhs_0, rhs_0, lhs_1, rhs_1, ...) and returns
// true when lhs must come first. The evaluator always sorts stably (a
// bottom-up merge sort that takes the right element only when it is strictly
// less), which satisfies both is_stable=true and is_stable=false. Merge sort
// stays in bounds and terminates even for comparators that are not strict
// weak orders; its cost is about n*log2(n) comparisons per row. Comparator
// answers are remembered by the bytes of the parameters the comparator reads
// (when those fit in 8 bytes), which is exact because a computation is a pure
// function of its parameters, and spares most calls when sorting 8- or 16-bit
// keys.
//
// topk(x), k=K, largest=L: along the last dimension of x (any rank >= 1,
// the others are batch dimensions), the K largest elements in descending
// order (L true, the default) or the K smallest in ascending order, under the
// total order below, ties broken by the lower index: the first K of a stable
// sort, as XLA's TopkDecomposer builds it. Result (values, s32 indices).
//
// TopK (custom_call_target="TopK"): operand [batch, n] or [n]; result
// (values [batch, k], s32 indices [batch, k]) with k taken from the result
// shape. Without a called computation the k largest elements come first in
// descending order under the total order -NaN < -Inf < ... < -0 < +0 < ... <
// +Inf < +NaN, ties broken by the lower index (as XLA's CPU runtime does).
// With a called computation, it is the comparator (2 parameters: values, or
// 4: values then s32 indices) and the result is the first k elements of a
// stable sort with it.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "compiler/evaluator/kernel_util.h"
#include "compiler/evaluator/reduction_internal.h"
#include "compiler/ir/primitive_type.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::eval {
namespace {

// Sorts `perm` stably by `less` (a callable (int64_t a, int64_t b) ->
// absl::StatusOr<bool>, true when a must precede b). Stops at the first
// error.
template <typename Less>
absl::Status MergeSort(std::vector<int64_t>& perm, Less&& less) {
  const size_t n = perm.size();
  std::vector<int64_t> buffer(n);
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      const size_t mid = std::min(lo + width, n);
      const size_t hi = std::min(lo + 2 * width, n);
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        ASSIGN_OR_RETURN(bool right_first, less(perm[j], perm[i]));
        buffer[k++] = right_first ? perm[j++] : perm[i++];
      }
      while (i < mid) buffer[k++] = perm[i++];
      while (j < hi) buffer[k++] = perm[j++];
    }
    perm.swap(buffer);
  }
  return absl::OkStatus();
}

// Comparator answers remembered by the bytes of the parameters the
// comparator reads. A called computation is a pure function of its
// parameters, so an answer can be reused whenever those bytes repeat. Sorts
// of 8- and 16-bit keys compare the same value pairs over and over (an
// argsort's index operand is usually not read at all), and each saved call
// is a whole interpretation of the comparator.
class ComparatorMemo {
 public:
  ComparatorMemo(const Computation& comparator,
                 absl::Span<const PrimitiveType> param_types) {
    int bytes = 0;
    for (size_t i = 0; i < param_types.size(); ++i) {
      const Instruction* param = comparator.parameter(static_cast<int64_t>(i));
      if (param->users().empty() && comparator.root() != param) continue;
      used_.push_back(static_cast<int>(i));
      bytes += StorageBytes(param_types[i]);
    }
    enabled_ = bytes <= 8;
  }

  // The key of the current arguments; false when memoization is off.
  bool Key(const ScalarArgs& args, uint64_t* key) const {
    if (!enabled_) return false;
    uint64_t k = 0;
    int shift = 0;
    for (int i : used_) {
      const Literal& lit = args.arg(i);
      for (int64_t b = 0; b < lit.raw_size(); ++b, shift += 8) {
        k |= static_cast<uint64_t>(lit.raw()[b]) << shift;
      }
    }
    *key = k;
    return true;
  }

  const bool* Find(uint64_t key) const {
    auto it = answers_.find(key);
    return it == answers_.end() ? nullptr : &it->second;
  }

  void Insert(uint64_t key, bool answer) {
    if (answers_.size() < kMaxEntries) answers_.emplace(key, answer);
  }

 private:
  // Bounds the memory of one sort (about 16 bytes per entry).
  static constexpr size_t kMaxEntries = size_t{1} << 22;
  std::vector<int> used_;
  bool enabled_ = false;
  absl::flat_hash_map<uint64_t, bool> answers_;
};

// A key whose integer order is the total order TopK sorts by.
__int128 TotalOrderKey(const Literal& lit, int64_t index) {
  const PrimitiveType type = lit.shape().element_type();
  const int bytes = StorageBytes(type);
  uint64_t bits = 0;
  std::memcpy(&bits, lit.raw() + index * bytes, bytes);  // little endian
  const int width = bytes * 8;
  if (IsFloat(type)) {
    const uint64_t sign = uint64_t{1} << (width - 1);
    const __int128 magnitude = static_cast<__int128>(bits & (sign - 1));
    return (bits & sign) ? -magnitude - 1 : magnitude;
  }
  if (IsSignedInt(type) && width < 64 && (bits >> (width - 1)) != 0) {
    return static_cast<__int128>(bits) - (static_cast<__int128>(1) << width);
  }
  if (IsSignedInt(type)) return static_cast<int64_t>(bits);
  return static_cast<__int128>(bits);
}

}  // namespace

absl::StatusOr<Literal> EvalSort(const Instruction& inst, Operands operands,
                                 const CallFn& call) {
  RETURN_IF_ERROR(CheckArrayOperands(inst, operands));
  if (operands.empty()) {
    return ErrorAt(inst.location(), "sort needs at least one operand");
  }
  const std::vector<int64_t>& dims = operands[0]->shape().dimensions();
  const int64_t rank = static_cast<int64_t>(dims.size());
  std::vector<PrimitiveType> types, comparator_types;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Shape& shape = operands[i]->shape();
    if (shape.dimensions() != dims) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("operand ", i, " has shape ", shape.ToString(false),
                       ", expected the dimensions of operand 0 (",
                       operands[0]->shape().ToString(false), ")"));
    }
    types.push_back(shape.element_type());
    comparator_types.push_back(shape.element_type());
    comparator_types.push_back(shape.element_type());
  }
  const std::vector<int64_t>& sort_dims = inst.dimensions();
  if (sort_dims.size() != 1 || sort_dims[0] < 0 || sort_dims[0] >= rank) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("sort needs one dimension in [0, ", rank, "), got {",
                     absl::StrJoin(sort_dims, ","), "}"));
  }
  const int64_t sort_dim = sort_dims[0];
  ASSIGN_OR_RETURN(std::vector<Literal> results,
                   MakeReduceResults(inst, types, dims, /*exact_types=*/true));
  ASSIGN_OR_RETURN(const Computation* comparator,
                   ScalarComputation(inst, 0, "comparator", comparator_types));

  const int n = static_cast<int>(operands.size());
  const std::vector<int64_t> strides = RowMajorStrides(dims);
  const int64_t step = strides[sort_dim];
  const int64_t length = dims[sort_dim];
  std::vector<int64_t> row_dims = dims;
  row_dims[sort_dim] = 1;
  ScalarArgs args(comparator_types);
  ComparatorMemo memo(*comparator, comparator_types);
  const PrimitiveType pred_type[] = {PrimitiveType::kPred};
  std::vector<int64_t> perm(length);
  for (IndexWalker row(row_dims, {strides}); !row.done(); row.Next()) {
    const int64_t base = row.offset(0);
    std::iota(perm.begin(), perm.end(), 0);
    auto less = [&](int64_t a, int64_t b) -> absl::StatusOr<bool> {
      for (int i = 0; i < n; ++i) {
        args.Load(2 * i, *operands[i], base + a * step);
        args.Load(2 * i + 1, *operands[i], base + b * step);
      }
      uint64_t key = 0;
      const bool memoized = memo.Key(args, &key);
      if (memoized) {
        if (const bool* known = memo.Find(key)) return *known;
      }
      ASSIGN_OR_RETURN(Literal r,
                       CallScalar(inst, call, *comparator, "comparator",
                                  args.operands(), pred_type));
      const bool answer = PredValue(r);
      if (memoized) memo.Insert(key, answer);
      return answer;
    };
    RETURN_IF_ERROR(MergeSort(perm, less));
    for (int64_t j = 0; j < length; ++j) {
      for (int i = 0; i < n; ++i) {
        CopyElement(*operands[i], base + perm[j] * step, results[i],
                    base + j * step);
      }
    }
  }
  return PackResults(std::move(results));
}

namespace {

// The parts of a top-k shared by the topk opcode and the TopK custom-call:
// the operand, and a (values, s32 indices) result that keeps k elements of
// every row (the last dimension). Rows are contiguous in a literal's
// row-major storage, so row r starts at element r * n.
struct TopKRows {
  const Literal* input = nullptr;
  int64_t rows = 0;
  int64_t n = 0;  // the last dimension of the operand
  int64_t k = 0;  // the last dimension of the result
};

// Checks what verification does not guarantee (element type, the result
// against the operand); `what` names the operation in errors.
absl::StatusOr<TopKRows> CheckTopK(const Instruction& inst,
                                   std::string_view what, Operands operands) {
  RETURN_IF_ERROR(CheckArrayOperands(inst, operands));
  if (operands.size() != 1) {
    return ErrorAt(
        inst.location(),
        absl::StrCat(Sv(what), " expects 1 operand, got ", operands.size()));
  }
  const Shape& in_shape = operands[0]->shape();
  const PrimitiveType type = in_shape.element_type();
  if (in_shape.rank() == 0) {
    return ErrorAt(
        inst.location(),
        absl::StrCat(Sv(what), " operand has shape ", in_shape.ToString(false),
                     ", expected rank 1 or more"));
  }
  if (IsComplex(type)) {
    // Complex numbers have no order to select by.
    return ErrorAt(inst.location(),
                   absl::StrCat(Sv(what), " does not support element type ",
                                Sv(PrimitiveTypeName(type))));
  }
  const Shape& shape = inst.shape();
  if (!shape.IsTuple() || shape.tuple_size() != 2 ||
      !shape.tuple_shapes(0).IsArray() ||
      shape.tuple_shapes(0).rank() != in_shape.rank()) {
    return ErrorAt(
        inst.location(),
        absl::StrCat(Sv(what), " result has shape ", shape.ToString(false),
                     ", expected a tuple of values and s32 indices"));
  }
  TopKRows t;
  t.input = operands[0];
  t.n = in_shape.dimensions().back();
  t.k = shape.tuple_shapes(0).dimensions().back();
  std::vector<int64_t> out_dims = in_shape.dimensions();
  out_dims.back() = t.k;
  if (t.k > t.n) {
    return ErrorAt(
        inst.location(),
        absl::StrCat(Sv(what), " result has shape ", shape.ToString(false),
                     ", which does not fit operand ",
                     in_shape.ToString(false)));
  }
  RETURN_IF_ERROR(CheckResultArray(inst, absl::StrCat(Sv(what), " values"),
                                   shape.tuple_shapes(0), type, out_dims));
  RETURN_IF_ERROR(CheckResultArray(inst, absl::StrCat(Sv(what), " indices"),
                                   shape.tuple_shapes(1), PrimitiveType::kS32,
                                   out_dims));
  if (t.n - 1 > INT32_MAX) {
    return ErrorAt(inst.location(),
                   absl::StrCat(Sv(what), " indices do not fit in s32"));
  }
  t.rows = 1;
  for (int d = 0; d + 1 < in_shape.rank(); ++d) {
    t.rows *= in_shape.dimensions(d);
  }
  return t;
}

// Per row, the first k elements of a stable sort by `less` (a callable
// (int64_t row_base, int64_t a, int64_t b) -> absl::StatusOr<bool>, true
// when element a of the row must precede element b): the values and their
// s32 positions in the row. Stability is what breaks ties by the lower index.
template <typename Less>
absl::StatusOr<Literal> SelectTopK(const Instruction& inst, const TopKRows& t,
                                   Less&& less) {
  Literal values(inst.shape().tuple_shapes(0));
  Literal indices(inst.shape().tuple_shapes(1));
  std::vector<int64_t> perm(t.n);
  for (int64_t r = 0; r < t.rows; ++r) {
    const int64_t base = r * t.n;
    std::iota(perm.begin(), perm.end(), 0);
    RETURN_IF_ERROR(MergeSort(
        perm, [&](int64_t a, int64_t b) { return less(base, a, b); }));
    for (int64_t j = 0; j < t.k; ++j) {
      CopyElement(*t.input, base + perm[j], values, r * t.k + j);
      indices.Set<int32_t>(r * t.k + j, static_cast<int32_t>(perm[j]));
    }
  }
  std::vector<Literal> parts;
  parts.push_back(std::move(values));
  parts.push_back(std::move(indices));
  return Literal::MakeTuple(std::move(parts));
}

// The order of both top-k forms without a comparator: descending under the
// total order for the k largest, ascending for the k smallest.
auto TotalOrderLess(const Literal& input, bool largest) {
  return [&input, largest](int64_t base, int64_t a,
                           int64_t b) -> absl::StatusOr<bool> {
    const __int128 x = TotalOrderKey(input, base + a);
    const __int128 y = TotalOrderKey(input, base + b);
    return largest ? x > y : x < y;
  };
}

}  // namespace

absl::StatusOr<Literal> EvalTopK(const Instruction& inst, Operands operands) {
  ASSIGN_OR_RETURN(TopKRows t, CheckTopK(inst, "topk", operands));
  const std::optional<int64_t>& k = inst.k();
  if (!k.has_value() || *k != t.k) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("topk result has shape ", inst.shape().ToString(false),
                     ", but k=", k.has_value() ? absl::StrCat(*k) : "(none)"));
  }
  return SelectTopK(inst, t, TotalOrderLess(*t.input, inst.largest()));
}

absl::StatusOr<Literal> EvalTopKCustomCall(const Instruction& inst,
                                           Operands operands,
                                           const CallFn& call) {
  ASSIGN_OR_RETURN(TopKRows t, CheckTopK(inst, "TopK", operands));
  if (t.input->shape().rank() > 2) {
    return ErrorAt(inst.location(),
                   absl::StrCat("TopK operand has shape ",
                                t.input->shape().ToString(false),
                                ", expected rank 1 or 2"));
  }
  if (inst.called_computations().empty()) {
    return SelectTopK(inst, t, TotalOrderLess(*t.input, /*largest=*/true));
  }
  const PrimitiveType type = t.input->shape().element_type();
  std::vector<PrimitiveType> comparator_types = {type, type};
  if (inst.called_computations()[0] != nullptr &&
      inst.called_computations()[0]->num_parameters() == 4) {
    comparator_types.push_back(PrimitiveType::kS32);
    comparator_types.push_back(PrimitiveType::kS32);
  }
  ASSIGN_OR_RETURN(const Computation* comparator,
                   ScalarComputation(inst, 0, "comparator", comparator_types));
  ScalarArgs args(comparator_types);
  const PrimitiveType pred_type[] = {PrimitiveType::kPred};
  return SelectTopK(
      inst, t, [&](int64_t base, int64_t a, int64_t b) -> absl::StatusOr<bool> {
        args.Load(0, *t.input, base + a);
        args.Load(1, *t.input, base + b);
        if (comparator_types.size() == 4) {
          args.arg(2).Set<int32_t>(0, static_cast<int32_t>(a));
          args.arg(3).Set<int32_t>(0, static_cast<int32_t>(b));
        }
        ASSIGN_OR_RETURN(Literal r,
                         CallScalar(inst, call, *comparator, "comparator",
                                    args.operands(), pred_type));
        return PredValue(r);
      });
}

}  // namespace aotc::eval
