// The sort strategy's merge sort (see sort.h).
#include "codegen/strategies/sort.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/emit/ir_types.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// Runs of this many elements are insertion-sorted before merging.
constexpr int64_t kSortRun = 16;

// One row of every output, in the outputs or in scratch: element i of
// operand k lies at bases[k] + offsets[k] + i * strides[k] elements.
struct RowView {
  std::vector<Value*> bases;
};

class RowSorter {
 public:
  RowSorter(const LoopArgs& args, int64_t dim)
      : a_(args), b_(args.b), dim_(dim), n_(args.out[0].shape().dimensions(dim)) {
    for (const IrArray& o : args.out) {
      types_.push_back(o.shape().element_type());
      storage_.push_back(StorageType(b_.getContext(), types_.back()));
      strides_.push_back(PhysicalStrides(o.shape())[dim]);
    }
  }

  // Sorts the row whose first element (sort coordinate 0) has physical
  // offsets `row` (one per output) in the outputs.
  absl::Status SortRow(const std::vector<Value*>& row, const RowView& out,
                       const RowView& scratch) {
    row_ = row;
    RETURN_IF_ERROR(InsertionSortRuns(out));
    const RowView* src = &out;
    const RowView* dst = &scratch;
    for (int64_t w = kSortRun; w < n_; w *= 2) {
      RETURN_IF_ERROR(MergePass(*src, *dst, w));
      std::swap(src, dst);
    }
    if (src != &out) CopyRow(*src, out);
    return absl::OkStatus();
  }

 private:
  Value* Pointer(const RowView& v, int k, Value* i) {
    Value* offset = b_.CreateAdd(row_[k], b_.CreateMul(i, b_.getInt64(strides_[k])));
    return b_.CreateInBoundsGEP(storage_[k], v.bases[k], offset);
  }
  // The stored bits of element i of every operand.
  std::vector<Value*> Load(const RowView& v, Value* i) {
    std::vector<Value*> bits;
    for (size_t k = 0; k < storage_.size(); ++k) {
      bits.push_back(b_.CreateLoad(storage_[k], Pointer(v, k, i)));
    }
    return bits;
  }
  void Store(const RowView& v, Value* i, const std::vector<Value*>& bits) {
    for (size_t k = 0; k < storage_.size(); ++k) {
      b_.CreateStore(bits[k], Pointer(v, k, i));
    }
  }
  // comparator(lhs_0, rhs_0, lhs_1, rhs_1, ...) on compute values.
  absl::StatusOr<Value*> Less(const std::vector<Value*>& lhs,
                              const std::vector<Value*>& rhs) {
    std::vector<Value*> args;
    for (size_t k = 0; k < lhs.size(); ++k) {
      args.push_back(StorageToCompute(b_, lhs[k], types_[k]));
      args.push_back(StorageToCompute(b_, rhs[k], types_[k]));
    }
    ElementalEmitter emitter(a_.mc, b_);
    ASSIGN_OR_RETURN(std::vector<Value*> r,
                     emitter.CallScalar(*a_.inst.to_apply(), args));
    return r[0];
  }

  llvm::AllocaInst* Counter(const char* name) {
    return EntryAlloca(b_, b_.getInt64Ty(), name);
  }
  Value* Get(llvm::AllocaInst* c) { return b_.CreateLoad(b_.getInt64Ty(), c); }

  // Each run [r, min(r + kSortRun, n)) sorted in place by insertion: an
  // element moves left past every element it is strictly less than.
  absl::Status InsertionSortRuns(const RowView& v) {
    const int64_t runs = (n_ + kSortRun - 1) / kSortRun;
    llvm::AllocaInst* j = Counter("sort.j");
    return EmitForLoop(
        b_, b_.getInt64(0), b_.getInt64(runs), "sort.run",
        [&](Value* r) -> absl::Status {
      Value* lo = b_.CreateMul(r, b_.getInt64(kSortRun));
      Value* hi = b_.CreateBinaryIntrinsic(
          llvm::Intrinsic::smin, b_.CreateAdd(lo, b_.getInt64(kSortRun)),
          b_.getInt64(n_));
      return EmitForLoop(
          b_, b_.CreateAdd(lo, b_.getInt64(1)), hi, "sort.ins",
          [&](Value* i) -> absl::Status {
        const std::vector<Value*> x = Load(v, i);
        b_.CreateStore(i, j);
        RETURN_IF_ERROR(EmitWhileLoop(
            b_, "sort.shift",
            [&]() -> absl::StatusOr<Value*> {
              // j > lo && x < v[j - 1], the load only when j > lo.
              Value* jv = Get(j);
              return EmitShortCircuitAnd(
                  b_, b_.CreateICmpSGT(jv, lo), [&]() {
                    return Less(x, Load(v, b_.CreateSub(jv, b_.getInt64(1))));
                  });
            },
            [&]() -> absl::Status {
              Value* jv = Get(j);
              Value* prev = b_.CreateSub(jv, b_.getInt64(1));
              Store(v, jv, Load(v, prev));
              b_.CreateStore(prev, j);
              return absl::OkStatus();
            }));
        Store(v, Get(j), x);
        return absl::OkStatus();
      });
    });
  }

  // Merges the sorted runs [lo, lo + w) and [lo + w, lo + 2w) of `src` into
  // `dst`, for every lo.
  absl::Status MergePass(const RowView& src, const RowView& dst, int64_t w) {
    const int64_t pairs = (n_ + 2 * w - 1) / (2 * w);
    llvm::AllocaInst* i = Counter("merge.i");
    llvm::AllocaInst* j = Counter("merge.j");
    llvm::AllocaInst* k = Counter("merge.k");
    return EmitForLoop(
        b_, b_.getInt64(0), b_.getInt64(pairs), "merge.pair",
        [&](Value* p) -> absl::Status {
      auto at_most_n = [&](Value* x) {
        return b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, x,
                                        b_.getInt64(n_));
      };
      Value* lo = b_.CreateMul(p, b_.getInt64(2 * w));
      Value* mid = at_most_n(b_.CreateAdd(lo, b_.getInt64(w)));
      Value* hi = at_most_n(b_.CreateAdd(lo, b_.getInt64(2 * w)));
      b_.CreateStore(lo, i);
      b_.CreateStore(mid, j);
      b_.CreateStore(lo, k);
      // While both runs have elements: take the right one only when it is
      // strictly less. Then whichever run is left is copied as it is.
      RETURN_IF_ERROR(EmitWhileLoop(
          b_, "merge",
          [&]() -> absl::StatusOr<Value*> {
            return b_.CreateAnd(b_.CreateICmpSLT(Get(i), mid),
                                b_.CreateICmpSLT(Get(j), hi));
          },
          [&]() -> absl::Status {
            Value* iv = Get(i);
            Value* jv = Get(j);
            const std::vector<Value*> left = Load(src, iv);
            const std::vector<Value*> right = Load(src, jv);
            ASSIGN_OR_RETURN(Value * take_right, Less(right, left));
            std::vector<Value*> chosen;
            for (size_t q = 0; q < left.size(); ++q) {
              chosen.push_back(b_.CreateSelect(take_right, right[q], left[q]));
            }
            Value* kv = Get(k);
            Store(dst, kv, chosen);
            b_.CreateStore(b_.CreateAdd(kv, b_.getInt64(1)), k);
            b_.CreateStore(
                b_.CreateAdd(iv, b_.CreateZExt(b_.CreateNot(take_right),
                                               b_.getInt64Ty())),
                i);
            b_.CreateStore(
                b_.CreateAdd(jv, b_.CreateZExt(take_right, b_.getInt64Ty())),
                j);
            return absl::OkStatus();
          }));
      CopyRest(src, dst, i, mid, k);
      CopyRest(src, dst, j, hi, k);
      return absl::OkStatus();
    });
  }

  // dst[k++] = src[from++] while from < end (from and k are counters).
  void CopyRest(const RowView& src, const RowView& dst, llvm::AllocaInst* from,
                Value* end, llvm::AllocaInst* k) {
    Value* begin = Get(from);
    Value* k0 = Get(k);
    EmitForLoop(b_, begin, end, "merge.rest", [&](Value* x) {
      Store(dst, b_.CreateAdd(k0, b_.CreateSub(x, begin)), Load(src, x));
    });
    b_.CreateStore(b_.CreateAdd(k0, b_.CreateSub(end, begin)), k);
  }

  void CopyRow(const RowView& from, const RowView& to) {
    EmitForLoop(b_, b_.getInt64(0), b_.getInt64(n_), "sort.back",
                [&](Value* i) { Store(to, i, Load(from, i)); });
  }

  const LoopArgs& a_;
  llvm::IRBuilderBase& b_;
  int64_t dim_;
  int64_t n_;
  std::vector<PrimitiveType> types_;
  std::vector<llvm::Type*> storage_;
  std::vector<int64_t> strides_;
  std::vector<Value*> row_;
};

absl::Status EmitSort(const LoopArgs& a, int64_t dim) {
  llvm::IRBuilderBase& b = a.b;
  // Every operand copied into its output (the outermost coordinate in
  // [begin, end) only: this task's rows).
  for (size_t k = 0; k < a.out.size(); ++k) {
    const IrArray& out = a.out[k];
    const Generator& g = a.ops[k][0];
    RETURN_IF_ERROR(EmitArrayLoop(
        b, out.shape(), a.inst.name(),
        [&](const Index& index) -> absl::Status {
          ASSIGN_OR_RETURN(Value * v, g(index));
          out.Write(b, index, v);
          return absl::OkStatus();
        },
        a.begin, a.end));
  }
  const Shape& shape = a.out[0].shape();
  if (shape.dimensions(dim) < 2) return absl::OkStatus();
  // The rows: the outputs' shape with the sort dimension cut to 1.
  std::vector<int64_t> row_dims = shape.dimensions();
  row_dims[dim] = 1;
  const Shape rows = Shape::ArrayWithLayout(shape.element_type(), row_dims,
                                            shape.layout());
  RowView out_view, scratch_view;
  int64_t scratch_offset = 0;
  for (const IrArray& o : a.out) {
    out_view.bases.push_back(o.base());
    scratch_view.bases.push_back(
        b.CreateInBoundsGEP(b.getInt8Ty(), a.scratch, b.getInt64(scratch_offset)));
    scratch_offset += AlignUp(o.shape().ByteSize());
  }
  RowSorter sorter(a, dim);
  return EmitArrayLoop(
      b, rows, absl::StrCat(a.inst.name(), ".row"),
      [&](const Index& index) {
        Index at;
        at.multi = index.multi;
        std::vector<Value*> offsets;
        for (const IrArray& o : a.out) offsets.push_back(o.Offset(b, at));
        return sorter.SortRow(offsets, out_view, scratch_view);
      },
      a.begin, a.end);
}

}  // namespace

std::optional<StrategyPlan> PlanSort(const Instruction& inst) {
  if (inst.opcode() != Opcode::kSort) return std::nullopt;
  const int64_t dim = inst.dimensions().at(0);
  const std::vector<const Shape*> leaves = inst.shape().Leaves();
  StrategyPlan plan;
  for (const Shape* s : leaves) plan.scratch_bytes += AlignUp(s->ByteSize());
  // Rows are independent, so the loop over them splits, unless the sort
  // dimension is the outermost one (then a chunk would hold part of every
  // row) or the outputs' layouts differ.
  const Shape& first = *leaves[0];
  bool same_layout = true;
  for (const Shape* s : leaves) {
    same_layout = same_layout &&
                  s->layout().minor_to_major == first.layout().minor_to_major;
  }
  if (same_layout && first.rank() > 0 &&
      first.layout().minor_to_major.back() != dim) {
    plan.loop_shape = &first;
  }
  // A row of n elements costs about n log2 n comparisons, each reading
  // every operand.
  const int64_t n = first.rank() > 0 ? first.dimensions(dim) : 1;
  int64_t log_n = 1;
  while ((int64_t{1} << log_n) < n) ++log_n;
  plan.work_per_element = log_n * static_cast<int64_t>(leaves.size());
  plan.emit = [dim](const LoopArgs& args) { return EmitSort(args, dim); };
  return plan;
}

}  // namespace aotc::codegen
