// The stream-dot loops (stream_dot.h): A's rows packed once, W's rows
// streamed a group of columns at a time.
#include "codegen/strategies/stream_dot.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/elemental/elemental_emitter.h"
#include "codegen/emit/ir_types.h"
#include "codegen/strategies/dot_site.h"
#include "codegen/strategies/gemm/plan.h"
#include "compiler/support/status_macros.h"
#include "llvm/IR/Intrinsics.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

bool IsStreamType(PrimitiveType t) {
  return t == PrimitiveType::kF32 || t == PrimitiveType::kBF16 ||
         t == PrimitiveType::kF16;
}

struct StreamPlan {
  DotSite site;
  GemmDims dims;
  int lanes = 1;  // f32 lanes of the target's vectors
  int tile_rows = 1;
  int64_t units() const {
    return (dims.n + kStreamColumns - 1) / kStreamColumns;
  }
};

// The rows of a tile: its rows x kStreamColumns accumulators, a vector of W
// per column and one of A fit in the vector registers.
int TileRows(const TargetInfo& target) {
  const int64_t free = target.vector_registers - kStreamColumns - 2;
  return static_cast<int>(std::max<int64_t>(1, free / kStreamColumns));
}

// The lanes of `v` added pairwise: halves added until one lane is left.
Value* AddLanes(llvm::IRBuilderBase& b, Value* v, int lanes) {
  for (int width = lanes; width > 1; width /= 2) {
    std::vector<int> lo, hi;
    for (int i = 0; i < width / 2; ++i) {
      lo.push_back(i);
      hi.push_back(i + width / 2);
    }
    Value* l = b.CreateShuffleVector(v, lo);
    Value* h = b.CreateShuffleVector(v, hi);
    v = b.CreateFAdd(l, h);
  }
  return lanes > 1 ? b.CreateExtractElement(v, uint64_t{0}) : v;
}

// The prologue: row m of A, widened to f32, at scratch + m * K.
absl::Status PackRows(const LoopArgs& a, const StreamPlan& p) {
  llvm::IRBuilderBase& b = a.b;
  const Shape& lhs = p.site.dot->operand(0)->shape();
  const Generator& read = a.ops[p.site.lhs][0];
  llvm::Type* f32 = b.getFloatTy();
  const GemmDims& d = p.dims;
  return EmitForLoop(
      b, b.getInt64(0), b.getInt64(d.m), "stream.pack.m",
      [&](Value* m) -> absl::Status {
        const std::vector<Value*> row = UnflattenRowMajor(b, m, d.m_ext);
        return EmitForLoop(
            b, b.getInt64(0), b.getInt64(d.k), "stream.pack.k",
            [&](Value* k) -> absl::Status {
              Index at;
              at.multi.resize(lhs.rank());
              for (size_t i = 0; i < d.lhs_free.size(); ++i) {
                at.multi[d.lhs_free[i]] = row[i];
              }
              at.multi[d.lhs_contract[0]] = k;
              ASSIGN_OR_RETURN(Value * v, read(at));
              if (v->getType() != f32) v = b.CreateFPCast(v, f32);
              b.CreateAlignedStore(
                  v,
                  b.CreateInBoundsGEP(
                      f32, a.scratch,
                      b.CreateAdd(b.CreateMul(m, b.getInt64(d.k)), k)),
                  llvm::Align(4));
              return absl::OkStatus();
            });
      });
}

// The loops over a range of column groups.
class StreamEmitter {
 public:
  StreamEmitter(const LoopArgs& a, const StreamPlan& p)
      : a_(a),
        p_(p),
        b_(a.b),
        emitter_(a.mc, a.b),
        strict_(a.mc.strict_fp()),
        lanes_(strict_ ? 1 : p.lanes),
        f32_(b_.getFloatTy()),
        vt_(lanes_ > 1 ? llvm::FixedVectorType::get(f32_, lanes_) : f32_),
        wtype_(p.site.dot->operand(1)->shape().element_type()),
        ws_(StorageType(b_.getContext(), wtype_)),
        wvt_(lanes_ > 1 ? llvm::FixedVectorType::get(ws_, lanes_) : ws_) {}

  absl::Status Emit() {
    llvm::IRBuilderBase& b = b_;
    if (a_.ins == nullptr) {
      return absl::InternalError("stream-dot: the weights are not in memory");
    }
    const IrArray& w = (*a_.ins)[p_.site.rhs][0];
    if (w.shape().layout().minor_to_major !=
        p_.site.dot->operand(1)->shape().layout().minor_to_major) {
      return absl::InternalError(
          "stream-dot: the weights are not in memory in the planned layout");
    }
    w_ = w.base();
    return EmitForLoop(
        b, a_.begin ? a_.begin : b.getInt64(0),
        a_.end ? a_.end : b.getInt64(p_.units()), "stream.j",
        [&](Value* u) -> absl::Status {
          j0_ = b.CreateMul(u, b.getInt64(kStreamColumns));
          rows_.clear();
          for (int64_t c = 0; c < kStreamColumns; ++c) {
            rows_.push_back(b.CreateInBoundsGEP(
                ws_, w_, b.CreateMul(Column(c), b.getInt64(p_.dims.k))));
          }
          for (int64_t m0 = 0; m0 < p_.dims.m; m0 += p_.tile_rows) {
            RETURN_IF_ERROR(EmitTile(
                m0, std::min<int64_t>(p_.tile_rows, p_.dims.m - m0)));
          }
          return absl::OkStatus();
        });
  }

 private:
  // Column j0 + c, or the last column for the places past it (their
  // results are never written).
  Value* Column(int64_t c) {
    llvm::IRBuilderBase& b = b_;
    Value* j = b.CreateAdd(j0_, b.getInt64(c));
    if (p_.dims.n % kStreamColumns == 0) return j;
    return b.CreateSelect(b.CreateICmpULT(j, b.getInt64(p_.dims.n)), j,
                          b.getInt64(p_.dims.n - 1));
  }

  Value* MulAdd(Value* x, Value* y, Value* acc) {
    llvm::IRBuilderBase& b = b_;
    if (strict_) return b.CreateFAdd(acc, b.CreateFMul(x, y));
    return b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {x->getType()},
                             {x, y, acc});
  }

  Value* ARow(int64_t m, Value* k) {
    llvm::IRBuilderBase& b = b_;
    return b.CreateInBoundsGEP(
        f32_, a_.scratch, b.CreateAdd(b.getInt64(m * p_.dims.k), k));
  }

  // Rows [m0, m0 + rows) against the group's columns.
  absl::Status EmitTile(int64_t m0, int64_t rows) {
    llvm::IRBuilderBase& b = b_;
    const int64_t k_extent = p_.dims.k;
    const int64_t whole = k_extent / lanes_ * lanes_;
    const int64_t count = rows * kStreamColumns;
    const llvm::Align w_align(StorageBytes(wtype_));
    std::vector<llvm::AllocaInst*> acc(count), sum(count);
    for (int64_t t = 0; t < count; ++t) {
      acc[t] = EntryAlloca(b, vt_, absl::StrCat("stream.acc", t));
      sum[t] = EntryAlloca(b, f32_, absl::StrCat("stream.sum", t));
      b.CreateStore(llvm::Constant::getNullValue(vt_), acc[t]);
    }
    EmitForLoop(b, b.getInt64(0), b.getInt64(whole / lanes_), "stream.k",
                [&](Value* q) {
      Value* k = b.CreateMul(q, b.getInt64(lanes_));
      std::vector<Value*> wv;
      for (int64_t c = 0; c < kStreamColumns; ++c) {
        wv.push_back(StorageToCompute(
            b,
            b.CreateAlignedLoad(wvt_, b.CreateInBoundsGEP(ws_, rows_[c], k),
                                w_align),
            wtype_));
      }
      for (int64_t r = 0; r < rows; ++r) {
        Value* av = b.CreateAlignedLoad(vt_, ARow(m0 + r, k), llvm::Align(4));
        for (int64_t c = 0; c < kStreamColumns; ++c) {
          llvm::AllocaInst* at = acc[r * kStreamColumns + c];
          b.CreateStore(MulAdd(av, wv[c], b.CreateLoad(vt_, at)), at);
        }
      }
    });
    for (int64_t t = 0; t < count; ++t) {
      b.CreateStore(AddLanes(b, b.CreateLoad(vt_, acc[t]), lanes_), sum[t]);
    }
    if (whole < k_extent) {
      EmitForLoop(b, b.getInt64(whole), b.getInt64(k_extent), "stream.k_rest",
                  [&](Value* k) {
        for (int64_t c = 0; c < kStreamColumns; ++c) {
          Value* x = StorageToCompute(
              b,
              b.CreateAlignedLoad(ws_, b.CreateInBoundsGEP(ws_, rows_[c], k),
                                  w_align),
              wtype_);
          for (int64_t r = 0; r < rows; ++r) {
            Value* av = b.CreateAlignedLoad(f32_, ARow(m0 + r, k), llvm::Align(4));
            llvm::AllocaInst* at = sum[r * kStreamColumns + c];
            b.CreateStore(MulAdd(av, x, b.CreateLoad(f32_, at)), at);
          }
        }
      });
    }
    for (int64_t c = 0; c < kStreamColumns; ++c) {
      for (int64_t r = 0; r < rows; ++r) {
        RETURN_IF_ERROR(
            Write(m0 + r, c, b.CreateLoad(f32_, sum[r * kStreamColumns + c])));
      }
    }
    return absl::OkStatus();
  }

  // out[m, j0 + c] = epilogue(s), when the column exists.
  absl::Status Write(int64_t m, int64_t c, Value* s) {
    llvm::IRBuilderBase& b = b_;
    const int64_t n = p_.dims.n;
    Value* j = b.CreateAdd(j0_, b.getInt64(c));
    llvm::BasicBlock* after = nullptr;
    if (n % kStreamColumns != 0) {
      llvm::Function* f = b.GetInsertBlock()->getParent();
      auto* write = llvm::BasicBlock::Create(b.getContext(), "stream.write", f);
      after = llvm::BasicBlock::Create(b.getContext(), "stream.written", f);
      b.CreateCondBr(b.CreateICmpULT(j, b.getInt64(n)), write, after);
      b.SetInsertPoint(write);
    }
    const IrArray& out = a_.out[0];
    Index o;
    o.multi = UnflattenRowMajor(b, b.getInt64(m), p_.dims.m_ext);
    const std::vector<Value*> col = UnflattenRowMajor(b, j, p_.dims.n_ext);
    o.multi.insert(o.multi.end(), col.begin(), col.end());
    o.linear = b.CreateAdd(b.getInt64(m * n), j);
    o.shape = &out.shape();
    s = RoundToStorage(b, s, p_.site.dot->shape().element_type());
    ASSIGN_OR_RETURN(Value * v, EmitDotEpilogue(emitter_, a_, p_.site, s, o));
    out.Write(b, o, v);
    if (after != nullptr) {
      b.CreateBr(after);
      b.SetInsertPoint(after);
    }
    return absl::OkStatus();
  }

  const LoopArgs& a_;
  const StreamPlan& p_;
  llvm::IRBuilderBase& b_;
  ElementalEmitter emitter_;
  const bool strict_;
  const int lanes_;
  llvm::Type* f32_;
  llvm::Type* vt_;
  const PrimitiveType wtype_;
  llvm::Type* ws_;
  llvm::Type* wvt_;
  Value* w_ = nullptr;
  Value* j0_ = nullptr;
  std::vector<Value*> rows_;  // W's row of each column of the group
};

}  // namespace

std::optional<StrategyPlan> PlanStreamDot(const Instruction& inst,
                                          const TargetInfo& target) {
  if (!inst.shape().IsArray() || !inst.shape().HasDefaultLayout()) {
    return std::nullopt;
  }
  std::optional<DotSite> site = MatchDotSite(inst);
  if (!site.has_value() || site->dot->opcode() != Opcode::kDot) {
    return std::nullopt;
  }
  const Instruction& dot = *site->dot;
  const Shape& lhs = dot.operand(0)->shape();
  const Shape& rhs = dot.operand(1)->shape();
  if (!IsStreamType(dot.shape().element_type()) ||
      !IsStreamType(lhs.element_type()) || !IsStreamType(rhs.element_type()) ||
      !rhs.HasDefaultLayout()) {
    return std::nullopt;
  }
  auto plan = std::make_shared<StreamPlan>();
  plan->site = *site;
  plan->dims = DescribeDot(dot);
  const GemmDims& d = plan->dims;
  if (!d.lhs_batch.empty() || d.rhs_contract.size() != 1 ||
      d.rhs_contract[0] != rhs.rank() - 1 || d.m > kStreamMaxRows ||
      d.k < 1 || d.n < 1) {
    return std::nullopt;
  }
  plan->lanes = std::max(1, target.vector_bytes / 4);
  plan->tile_rows = TileRows(target);
  StrategyPlan out;
  out.own_loop_shape = std::make_shared<const Shape>(
      Shape::Array(PrimitiveType::kF32, {plan->units()}));
  out.loop_shape = out.own_loop_shape.get();
  out.work_per_element = d.m * d.k * kStreamColumns;
  out.scratch_bytes = d.m * d.k * 4;
  out.prologue = [plan](const LoopArgs& a) { return PackRows(a, *plan); };
  out.emit = [plan](const LoopArgs& a) {
    return StreamEmitter(a, *plan).Emit();
  };
  return out;
}

}  // namespace aotc::codegen
