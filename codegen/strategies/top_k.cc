// Top-k by heap selection (see top_k.h).
#include "codegen/strategies/top_k.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/emit/ir_types.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// What decides the order of the result.
struct TopKOrder {
  bool largest = true;
  // A TopK custom-call's comparator (2 parameters: values; 4: values then
  // s32 indices), or null for the total order.
  const Computation* comparator = nullptr;
};

// An element of a row: its value (compute type) and its index (i64).
struct Element {
  Value* value;
  Value* index;
};

class RowSelector {
 public:
  RowSelector(const LoopArgs& args, const TopKOrder& order)
      : a_(args),
        b_(args.b),
        order_(order),
        type_(args.inst.operand(0)->shape().element_type()),
        n_(args.inst.operand(0)->shape().dimensions(
            args.inst.operand(0)->shape().rank() - 1)),
        k_(args.out[0].shape().dimensions(args.out[0].shape().rank() - 1)) {}

  // Selects the row whose multi-index (last coordinate ignored) is `row`.
  absl::Status SelectRow(const std::vector<Value*>& row) {
    row_ = row;
    if (k_ == 0) return absl::OkStatus();
    slot_ = EntryAlloca(b_, b_.getInt64Ty(), "topk.p");
    child_ = EntryAlloca(b_, b_.getInt64Ty(), "topk.c");
    // The first k elements, then arranged as a heap (bottom up).
    RETURN_IF_ERROR(EmitForLoop(
        b_, b_.getInt64(0), b_.getInt64(k_), "topk.fill",
        [&](Value* s) -> absl::Status {
          ASSIGN_OR_RETURN(Value * v, Input(s));
          Put(s, {v, s});
          return absl::OkStatus();
        }));
    RETURN_IF_ERROR(EmitForLoop(
        b_, b_.getInt64(0), b_.getInt64(k_ / 2), "topk.heapify",
        [&](Value* q) {
          return SiftDown(b_.CreateSub(b_.getInt64(k_ / 2 - 1), q),
                          b_.getInt64(k_));
        }));
    // Every later element that comes before the top replaces it.
    RETURN_IF_ERROR(EmitForLoop(
        b_, b_.getInt64(k_), b_.getInt64(n_), "topk.scan",
        [&](Value* i) -> absl::Status {
          ASSIGN_OR_RETURN(Value * v, Input(i));
          const Element x{v, i};
          ASSIGN_OR_RETURN(Value * better, Precedes(x, Get(b_.getInt64(0))));
          llvm::LLVMContext& ctx = b_.getContext();
          llvm::Function* f = b_.GetInsertBlock()->getParent();
          auto* replace = llvm::BasicBlock::Create(ctx, "topk.replace", f);
          auto* next = llvm::BasicBlock::Create(ctx, "topk.next", f);
          b_.CreateCondBr(better, replace, next);
          b_.SetInsertPoint(replace);
          Put(b_.getInt64(0), x);
          RETURN_IF_ERROR(SiftDown(b_.getInt64(0), b_.getInt64(k_)));
          b_.CreateBr(next);
          b_.SetInsertPoint(next);
          return absl::OkStatus();
        }));
    // Heapsort: the element that comes last moves to the end each time.
    return EmitForLoop(
        b_, b_.getInt64(0), b_.getInt64(k_ > 0 ? k_ - 1 : 0), "topk.sort",
        [&](Value* q) {
          Value* end = b_.CreateSub(b_.getInt64(k_ - 1), q);
          Swap(b_.getInt64(0), end);
          return SiftDown(b_.getInt64(0), end);
        });
  }

 private:
  Index At(Value* last) const {
    Index i;
    i.multi = row_;
    i.multi.back() = last;
    return i;
  }
  absl::StatusOr<Value*> Input(Value* i) { return a_.ops[0][0](At(i)); }
  Element Get(Value* s) {
    Value* index = a_.out[1].Read(b_, At(s));
    return {a_.out[0].Read(b_, At(s)), b_.CreateSExt(index, b_.getInt64Ty())};
  }
  void Put(Value* s, const Element& e) {
    a_.out[0].Write(b_, At(s), e.value);
    a_.out[1].Write(b_, At(s), b_.CreateTrunc(e.index, b_.getInt32Ty()));
  }
  void Swap(Value* s, Value* t) {
    const Element x = Get(s);
    const Element y = Get(t);
    Put(s, y);
    Put(t, x);
  }

  // An integer whose signed order is the total order of the value.
  Value* TotalOrderKey(Value* v) {
    llvm::Type* t = v->getType();
    if (!t->isFloatingPointTy()) return v;
    const unsigned width = t->getPrimitiveSizeInBits();
    llvm::Type* int_type = b_.getIntNTy(width);
    Value* bits = b_.CreateBitCast(v, int_type);
    // Negative values count down from -1: flip every bit but the sign.
    Value* sign_mask = b_.CreateAShr(bits, width - 1);
    Value* magnitude_mask =
        llvm::ConstantInt::get(int_type, llvm::APInt::getSignedMaxValue(width));
    return b_.CreateXor(bits, b_.CreateAnd(sign_mask, magnitude_mask));
  }

  // Whether `x` comes before `y` in the result.
  absl::StatusOr<Value*> Precedes(const Element& x, const Element& y) {
    Value* lower_index = b_.CreateICmpSLT(x.index, y.index);
    if (order_.comparator != nullptr) {
      ASSIGN_OR_RETURN(Value * xy, Compare(x, y));
      ASSIGN_OR_RETURN(Value * yx, Compare(y, x));
      return b_.CreateOr(xy, b_.CreateAnd(b_.CreateNot(yx), lower_index));
    }
    Value* kx = TotalOrderKey(x.value);
    Value* ky = TotalOrderKey(y.value);
    const bool is_unsigned = IsUnsignedInt(type_) || type_ == PrimitiveType::kPred;
    Value* before;
    if (order_.largest) {
      before = is_unsigned ? b_.CreateICmpUGT(kx, ky) : b_.CreateICmpSGT(kx, ky);
    } else {
      before = is_unsigned ? b_.CreateICmpULT(kx, ky) : b_.CreateICmpSLT(kx, ky);
    }
    return b_.CreateOr(before,
                       b_.CreateAnd(b_.CreateICmpEQ(kx, ky), lower_index));
  }
  absl::StatusOr<Value*> Compare(const Element& x, const Element& y) {
    std::vector<Value*> args = {x.value, y.value};
    if (order_.comparator->num_parameters() == 4) {
      args.push_back(b_.CreateTrunc(x.index, b_.getInt32Ty()));
      args.push_back(b_.CreateTrunc(y.index, b_.getInt32Ty()));
    }
    ElementalEmitter emitter(a_.mc, b_);
    ASSIGN_OR_RETURN(std::vector<Value*> r,
                     emitter.CallScalar(*order_.comparator, args));
    return r[0];
  }

  // Moves the element at `start` down while a child comes after it, in a
  // heap of `size` slots whose top comes last.
  absl::Status SiftDown(Value* start, Value* size) {
    b_.CreateStore(start, slot_);
    llvm::Type* i64 = b_.getInt64Ty();
    return EmitWhileLoop(
        b_, "topk.sift",
        [&]() -> absl::StatusOr<Value*> {
          Value* p = b_.CreateLoad(i64, slot_);
          Value* left = b_.CreateAdd(b_.CreateMul(p, b_.getInt64(2)), b_.getInt64(1));
          return EmitShortCircuitAnd(
              b_, b_.CreateICmpSLT(left, size), [&]() -> absl::StatusOr<Value*> {
                // The child that comes later; the right one is read only
                // when it exists.
                Value* right = b_.CreateAdd(left, b_.getInt64(1));
                ASSIGN_OR_RETURN(
                    Value * right_later,
                    EmitShortCircuitAnd(b_, b_.CreateICmpSLT(right, size),
                                        [&]() {
                                          return Precedes(Get(left), Get(right));
                                        }));
                Value* child = b_.CreateSelect(right_later, right, left);
                b_.CreateStore(child, child_);
                return Precedes(Get(p), Get(child));
              });
        },
        [&]() -> absl::Status {
          Value* p = b_.CreateLoad(i64, slot_);
          Value* child = b_.CreateLoad(i64, child_);
          Swap(p, child);
          b_.CreateStore(child, slot_);
          return absl::OkStatus();
        });
  }

  const LoopArgs& a_;
  llvm::IRBuilderBase& b_;
  TopKOrder order_;
  PrimitiveType type_;
  int64_t n_;
  int64_t k_;
  std::vector<Value*> row_;
  llvm::AllocaInst* slot_ = nullptr;
  llvm::AllocaInst* child_ = nullptr;
};

absl::Status EmitTopK(const LoopArgs& a, const TopKOrder& order) {
  const Shape& values = a.out[0].shape();
  // The rows: the values' shape with the last dimension cut to 1.
  std::vector<int64_t> row_dims = values.dimensions();
  row_dims.back() = 1;
  const Shape rows = Shape::ArrayWithLayout(values.element_type(), row_dims,
                                            values.layout());
  RowSelector selector(a, order);
  return EmitArrayLoop(
      a.b, rows, absl::StrCat(a.inst.name(), ".row"),
      [&](const Index& index) { return selector.SelectRow(index.multi); },
      a.begin, a.end);
}

// The order of a topk or TopK custom-call, or nullopt for anything else.
std::optional<TopKOrder> MatchTopK(const Instruction& inst) {
  const Shape& shape = inst.shape();
  if (!shape.IsTuple() || shape.tuple_size() != 2 ||
      inst.operand_count() != 1 || !inst.operand(0)->shape().IsArray() ||
      inst.operand(0)->shape().rank() == 0) {
    return std::nullopt;
  }
  // Complex numbers have no built-in order; only a comparator ranks them.
  const bool unordered = IsComplex(inst.operand(0)->shape().element_type());
  TopKOrder order;
  if (inst.opcode() == Opcode::kTopK) {
    if (unordered) return std::nullopt;
    order.largest = inst.largest();
    return order;
  }
  if (inst.opcode() != Opcode::kCustomCall ||
      inst.custom_call_target() != "TopK") {
    return std::nullopt;
  }
  if (!inst.called_computations().empty()) {
    order.comparator = inst.called_computations()[0];
    const int params = order.comparator->num_parameters();
    if (params != 2 && params != 4) return std::nullopt;
  }
  if (unordered && order.comparator == nullptr) return std::nullopt;
  return order;
}

}  // namespace

std::optional<StrategyPlan> PlanTopK(const Instruction& inst) {
  std::optional<TopKOrder> order = MatchTopK(inst);
  if (!order.has_value()) return std::nullopt;
  const Shape& values = inst.shape().tuple_shapes(0);
  const Shape& indices = inst.shape().tuple_shapes(1);
  StrategyPlan plan;
  // Rows are independent, unless the selected dimension is the outermost
  // one of the layout (then a chunk would hold part of every row).
  const int last = values.rank() - 1;
  if (values.layout().minor_to_major == indices.layout().minor_to_major &&
      values.layout().minor_to_major.back() != last) {
    plan.loop_shape = &values;
  }
  // A row of n costs about n log2(k) comparisons for its k results.
  const Shape& input = inst.operand(0)->shape();
  const int64_t n = input.dimensions(input.rank() - 1);
  const int64_t k = std::max<int64_t>(1, values.dimensions(last));
  int64_t log_k = 1;
  while ((int64_t{1} << log_k) < k) ++log_k;
  plan.work_per_element = std::max<int64_t>(1, n * log_k / k);
  plan.emit = [order = *order](const LoopArgs& args) {
    return EmitTopK(args, order);
  };
  return plan;
}

}  // namespace aotc::codegen
