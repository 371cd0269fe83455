// The stream-dot loops (stream_dot.h): A's rows packed once, W's rows
// streamed a group of columns at a time.
#include "codegen/strategies/stream_dot.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/elemental/elemental_emitter.h"
#include "codegen/emit/ir_types.h"
#include "codegen/strategies/dot_site.h"
#include "codegen/strategies/gemm/gemm.h"
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
  // W[K, N] (the depth major, columns contiguous) instead of W[N, K]: a
  // unit is a strip of `vectors` vectors of columns, and the columns past
  // the last whole strip are one more unit.
  bool depth_major = false;
  int vectors = 1;
  int64_t strip() const { return static_cast<int64_t>(vectors) * lanes; }
  int64_t whole_strips() const { return dims.n / strip(); }
  int64_t units() const {
    if (depth_major) return whole_strips() + (dims.n % strip() != 0);
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

// A hint to load the line at `p` + `bytes` into the level-1 cache. The
// address is not inbounds: past the end of W it is only a hint, which
// never faults.
void PrefetchAhead(llvm::IRBuilderBase& b, Value* p, int64_t bytes) {
  Value* at = b.CreateGEP(b.getInt8Ty(), p, b.getInt64(bytes));
  b.CreateIntrinsic(llvm::Intrinsic::prefetch, {at->getType()},
                    {at, b.getInt32(0), b.getInt32(3), b.getInt32(1)});
}

// W's buffer, which the loops address directly.
absl::StatusOr<Value*> WeightsBase(const LoopArgs& a, const StreamPlan& p) {
  if (a.ins == nullptr) {
    return absl::InternalError("stream-dot: the weights are not in memory");
  }
  const IrArray& w = (*a.ins)[p.site.rhs][0];
  if (w.shape().layout().minor_to_major !=
      p.site.dot->operand(1)->shape().layout().minor_to_major) {
    return absl::InternalError(
        "stream-dot: the weights are not in memory in the planned layout");
  }
  return w.base();
}

// acc + x * y: fused, or under strict_fp the product rounded first.
Value* EmitMulAdd(llvm::IRBuilderBase& b, bool strict, Value* x, Value* y,
                  Value* acc) {
  if (strict) return b.CreateFAdd(acc, b.CreateFMul(x, y));
  return b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {x->getType()},
                           {x, y, acc});
}

// out[m, j] = epilogue(s), s the f32 sum.
absl::Status WriteOutput(const LoopArgs& a, const StreamPlan& p,
                         ElementalEmitter& emitter, int64_t m, Value* j,
                         Value* s) {
  llvm::IRBuilderBase& b = a.b;
  const IrArray& out = a.out[0];
  Index o;
  o.multi = UnflattenRowMajor(b, b.getInt64(m), p.dims.m_ext);
  const std::vector<Value*> col = UnflattenRowMajor(b, j, p.dims.n_ext);
  o.multi.insert(o.multi.end(), col.begin(), col.end());
  o.linear = b.CreateAdd(b.getInt64(m * p.dims.n), j);
  o.shape = &out.shape();
  s = RoundToStorage(b, s, p.site.dot->shape().element_type());
  ASSIGN_OR_RETURN(Value * v, EmitDotEpilogue(emitter, a, p.site, s, o));
  out.Write(b, o, v);
  return absl::OkStatus();
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
    ASSIGN_OR_RETURN(w_, WeightsBase(a_, p_));
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
        Value* at = b.CreateInBoundsGEP(ws_, rows_[c], k);
        // The next group's rows, while this one's first tile runs: the
        // group's W rows are short streams that the hardware's prefetch
        // does not reach in time.
        if (m0 == 0 && lanes_ > 1) {
          PrefetchAhead(b, at,
                        kStreamColumns * p_.dims.k * StorageBytes(wtype_));
        }
        wv.push_back(StorageToCompute(
            b, b.CreateAlignedLoad(wvt_, at, w_align), wtype_));
      }
      for (int64_t r = 0; r < rows; ++r) {
        Value* av = b.CreateAlignedLoad(vt_, ARow(m0 + r, k), llvm::Align(4));
        for (int64_t c = 0; c < kStreamColumns; ++c) {
          llvm::AllocaInst* at = acc[r * kStreamColumns + c];
          b.CreateStore(
              EmitMulAdd(b, strict_, av, wv[c], b.CreateLoad(vt_, at)), at);
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
            b.CreateStore(
                EmitMulAdd(b, strict_, av, x, b.CreateLoad(f32_, at)), at);
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
    RETURN_IF_ERROR(WriteOutput(a_, p_, emitter_, m, j, s));
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

// Rows of A against W[K, N]. Depths go in blocks of kDepthBlock rows of
// W; within a block each unit's strips of columns run one after another,
// so the block's rows are read from left to right, a few pages at a time
// (a strip down the whole of W would touch a new page every row or two,
// beyond the TLB's reach). A strip's sums wait between blocks in scratch
// (C, M x N f32, columns disjoint between units). Software prefetch loads
// the next strip's line of each row while the current strip runs. Each
// output element adds its products in increasing depth order, the
// evaluator's order: under strict_fp (products rounded before the add)
// the numbers are the evaluator's bit for bit.
class DepthMajorEmitter {
 public:
  DepthMajorEmitter(const LoopArgs& a, const StreamPlan& p)
      : a_(a),
        p_(p),
        b_(a.b),
        emitter_(a.mc, a.b),
        strict_(a.mc.strict_fp()),
        f32_(b_.getFloatTy()),
        wtype_(p.site.dot->operand(1)->shape().element_type()),
        ws_(StorageType(b_.getContext(), wtype_)) {}

  absl::Status Emit() {
    llvm::IRBuilderBase& b = b_;
    ASSIGN_OR_RETURN(w_, WeightsBase(a_, p_));
    c_ = b.CreateInBoundsGEP(b.getInt8Ty(), a_.scratch,
                             b.getInt64(p_.dims.m * p_.dims.k * 4));
    Value* begin = a_.begin ? a_.begin : b.getInt64(0);
    Value* end = a_.end ? a_.end : b.getInt64(p_.units());
    Value* whole = b.getInt64(p_.whole_strips());
    strips_end_ = b.CreateSelect(b.CreateICmpULT(end, whole), end, whole);
    // The columns after the whole strips, one at a time, belong to the
    // range that holds the last unit.
    has_tail_ = p_.dims.n % p_.strip() != 0 ? b.CreateICmpUGT(end, whole)
                                            : nullptr;
    const int64_t blocks = (p_.dims.k + kDepthBlock - 1) / kDepthBlock;
    RETURN_IF_ERROR(EmitForLoop(
        b, b.getInt64(0), b.getInt64(blocks), "stream.kb",
        [&](Value* block) -> absl::Status {
          Value* k0 = b.CreateMul(block, b.getInt64(kDepthBlock));
          Value* k1 = b.CreateAdd(k0, b.getInt64(kDepthBlock));
          k1 = b.CreateSelect(b.CreateICmpULT(k1, b.getInt64(p_.dims.k)), k1,
                              b.getInt64(p_.dims.k));
          Value* first = b.CreateICmpEQ(block, b.getInt64(0));
          return ForEachStrip(begin, [&](Value* j0, int width, int vectors,
                                         int rows) {
            return EmitBlock(j0, width, vectors, rows, k0, k1, first);
          });
        }));
    return ForEachStrip(begin, [&](Value* j0, int width, int vectors, int) {
      return EmitWrites(j0, width, vectors);
    });
  }

 private:
  static constexpr int64_t kDepthBlock = 64;

  using StripFn = std::function<absl::Status(Value* j0, int width,
                                             int vectors, int rows)>;
  // `fn` for each whole strip of the range from `begin`, then for each
  // column after them when the range has them.
  absl::Status ForEachStrip(Value* begin, const StripFn& fn) {
    llvm::IRBuilderBase& b = b_;
    RETURN_IF_ERROR(EmitForLoop(b, begin, strips_end_, "stream.strip",
                                [&](Value* u) {
      return fn(b.CreateMul(u, b.getInt64(p_.strip())), p_.lanes, p_.vectors,
                p_.tile_rows);
    }));
    if (has_tail_ == nullptr) return absl::OkStatus();
    llvm::Function* f = b.GetInsertBlock()->getParent();
    auto* tail = llvm::BasicBlock::Create(b.getContext(), "stream.tail", f);
    auto* done = llvm::BasicBlock::Create(b.getContext(), "stream.done", f);
    b.CreateCondBr(has_tail_, tail, done);
    b.SetInsertPoint(tail);
    RETURN_IF_ERROR(EmitForLoop(
        b, b.getInt64(p_.whole_strips() * p_.strip()), b.getInt64(p_.dims.n),
        "stream.column", [&](Value* j) {
          return fn(j, 1, 1, static_cast<int>(p_.dims.m));
        }));
    b.CreateBr(done);
    b.SetInsertPoint(done);
    return absl::OkStatus();
  }

  llvm::Type* Vec(llvm::Type* t, int width) {
    return width > 1 ? llvm::FixedVectorType::get(t, width) : t;
  }

  // C[m, j], where vector v of the strip at j0 starts.
  Value* CAt(int64_t m, Value* j0, int64_t offset) {
    llvm::IRBuilderBase& b = b_;
    return b.CreateInBoundsGEP(
        f32_, c_,
        b.CreateAdd(b.getInt64(m * p_.dims.n + offset), j0));
  }

  // Depths [k0, k1) of every row's columns [j0, j0 + vectors * width),
  // added to C (which holds zeros where `first`).
  absl::Status EmitBlock(Value* j0, int width, int vectors, int tile_rows,
                         Value* k0, Value* k1, Value* first) {
    llvm::IRBuilderBase& b = b_;
    const GemmDims& d = p_.dims;
    llvm::Type* vt = Vec(f32_, width);
    llvm::Type* wvt = Vec(ws_, width);
    const llvm::Align w_align(StorageBytes(wtype_));
    const int64_t strip_bytes = vectors * width * StorageBytes(wtype_);
    Value* column = b.CreateInBoundsGEP(ws_, w_, j0);
    for (int64_t m0 = 0; m0 < d.m; m0 += tile_rows) {
      const int64_t rows = std::min<int64_t>(tile_rows, d.m - m0);
      std::vector<llvm::AllocaInst*> acc;
      for (int64_t t = 0; t < rows * vectors; ++t) {
        acc.push_back(EntryAlloca(b, vt, absl::StrCat("stream.acc", t)));
        Value* c = b.CreateAlignedLoad(
            vt, CAt(m0 + t / vectors, j0, (t % vectors) * width),
            llvm::Align(4));
        b.CreateStore(
            b.CreateSelect(first, llvm::Constant::getNullValue(vt), c),
            acc.back());
      }
      EmitForLoop(b, k0, k1, "stream.k", [&](Value* k) {
        Value* row =
            b.CreateInBoundsGEP(ws_, column, b.CreateMul(k, b.getInt64(d.n)));
        if (m0 == 0 && width > 1) {
          for (int64_t off = 0; off < strip_bytes; off += 64) {
            PrefetchAhead(b, row, strip_bytes + off);
          }
        }
        std::vector<Value*> wv;
        for (int v = 0; v < vectors; ++v) {
          wv.push_back(StorageToCompute(
              b,
              b.CreateAlignedLoad(
                  wvt, b.CreateConstInBoundsGEP1_64(ws_, row, v * width),
                  w_align),
              wtype_));
        }
        for (int64_t r = 0; r < rows; ++r) {
          Value* av = b.CreateAlignedLoad(
              f32_,
              b.CreateInBoundsGEP(f32_, a_.scratch,
                                  b.CreateAdd(b.getInt64((m0 + r) * d.k), k)),
              llvm::Align(4));
          if (width > 1) av = b.CreateVectorSplat(width, av);
          for (int v = 0; v < vectors; ++v) {
            llvm::AllocaInst* at = acc[r * vectors + v];
            b.CreateStore(
                EmitMulAdd(b, strict_, av, wv[v], b.CreateLoad(vt, at)), at);
          }
        }
      });
      for (int64_t t = 0; t < rows * vectors; ++t) {
        b.CreateAlignedStore(
            b.CreateLoad(vt, acc[t]),
            CAt(m0 + t / vectors, j0, (t % vectors) * width), llvm::Align(4));
      }
    }
    return absl::OkStatus();
  }

  // out[m, j] = epilogue(C[m, j]) for the strip's columns.
  absl::Status EmitWrites(Value* j0, int width, int vectors) {
    llvm::IRBuilderBase& b = b_;
    for (int64_t m = 0; m < p_.dims.m; ++m) {
      for (int64_t l = 0; l < int64_t{width} * vectors; ++l) {
        RETURN_IF_ERROR(WriteOutput(
            a_, p_, emitter_, m, b.CreateAdd(j0, b.getInt64(l)),
            b.CreateAlignedLoad(f32_, CAt(m, j0, l), llvm::Align(4))));
      }
    }
    return absl::OkStatus();
  }

  const LoopArgs& a_;
  const StreamPlan& p_;
  llvm::IRBuilderBase& b_;
  ElementalEmitter emitter_;
  const bool strict_;
  llvm::Type* f32_;
  const PrimitiveType wtype_;
  llvm::Type* ws_;
  Value* w_ = nullptr;
  Value* c_ = nullptr;           // C in scratch, after A
  Value* strips_end_ = nullptr;  // the range's end within the whole strips
  Value* has_tail_ = nullptr;    // i1, or null when N has no tail
};

// A strip of W[K, N] covers a cache line where the registers allow: its
// vectors, and the tile's rows x vectors accumulators, one vector of W per
// vector of the strip and the broadcast A.
void PlanDepthMajor(const TargetInfo& target, PrimitiveType wtype,
                    StreamPlan* p) {
  const int64_t vector_bytes = int64_t{p->lanes} * StorageBytes(wtype);
  p->vectors = static_cast<int>(std::clamp<int64_t>(64 / vector_bytes, 1, 4));
  const int64_t free = target.vector_registers - p->vectors - 1;
  p->tile_rows = static_cast<int>(
      std::clamp<int64_t>(free / p->vectors, 1, kStreamMaxRows));
}

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
      d.m > kStreamMaxRows || d.k < 1 || d.n < 1) {
    return std::nullopt;
  }
  plan->lanes = std::max(1, target.vector_bytes / 4);
  if (d.rhs_contract[0] == rhs.rank() - 1) {
    plan->tile_rows = TileRows(target);
  } else if (d.rhs_contract[0] == 0 &&
             rhs.ByteSize() >= kStreamMinDepthMajorBytes &&
             (rhs.element_type() != PrimitiveType::kF32 ||
              d.m >= kGemmMinRows)) {
    // (Fewer f32 rows than the gemm takes stay with the row-dot, which
    // reads W[K, N] in place too.)
    plan->depth_major = true;
    PlanDepthMajor(target, rhs.element_type(), plan.get());
  } else {
    return std::nullopt;
  }
  StrategyPlan out;
  out.own_loop_shape = std::make_shared<const Shape>(
      Shape::Array(PrimitiveType::kF32, {plan->units()}));
  out.loop_shape = out.own_loop_shape.get();
  out.work_per_element =
      d.m * d.k * (plan->depth_major ? plan->strip() : kStreamColumns);
  // A packed, and for W[K, N] the sums C between depth blocks.
  out.scratch_bytes = d.m * d.k * 4 + (plan->depth_major ? d.m * d.n * 4 : 0);
  out.prologue = [plan](const LoopArgs& a) { return PackRows(a, *plan); };
  out.emit = [plan](const LoopArgs& a) {
    if (plan->depth_major) return DepthMajorEmitter(a, *plan).Emit();
    return StreamEmitter(a, *plan).Emit();
  };
  return out;
}

}  // namespace aotc::codegen
