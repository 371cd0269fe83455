// The attention strategy (attention.h): planning the blocks and the slot,
// and the emitter of one unit's packing, key blocks and online softmax.
#include "codegen/strategies/attention.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>
#include <vector>

#include "codegen/elemental/math/math_emitter.h"
#include "codegen/emit/ir_types.h"
#include "codegen/emit/parallel_loops.h"
#include "codegen/strategies/gemm/gemm.h"
#include "codegen/strategies/gemm/plan.h"
#include "compiler/analysis/attention_pattern.h"
#include "compiler/analysis/buffer_assignment.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// Key blocks of about 128 keys, query blocks of up to 128 rows.
constexpr int64_t kKeyBlock = 128;
constexpr int64_t kRowBlock = 128;
// Units wanted for the threads when the batch alone gives fewer.
constexpr int64_t kMinUnits = 8;

int64_t RoundUp(int64_t n, int64_t m) { return (n + m - 1) / m * m; }

// Element strides of one operand for each role (0 where it has none).
struct RoleStrides {
  std::vector<int64_t> batch, rows;
  int64_t key = 0, head = 0, value = 0;
};

RoleStrides StridesOf(const Shape& shape, const AttentionDims& d) {
  const std::vector<int64_t> s = PhysicalStrides(shape);
  auto at = [&](int64_t dim) { return dim < 0 ? 0 : s[dim]; };
  RoleStrides r;
  for (int64_t dim : d.batch) r.batch.push_back(at(dim));
  for (int64_t dim : d.rows) r.rows.push_back(at(dim));
  r.key = at(d.key);
  r.head = at(d.head);
  r.value = at(d.value);
  return r;
}

struct AttentionPlan {
  int64_t q_param = 0, k_param = 0, v_param = 0;
  PrimitiveType q_type{}, k_type{}, v_type{}, o_type{};
  RoleStrides q, k, v, o;
  std::vector<int64_t> batch_ext, row_ext;
  int64_t batches = 1, rows = 1, keys = 0, head = 0, value = 0;
  AttentionRounding rounding;
  double max_init = 0;
  // Narrow intermediate types: the panel form (a block of rows over all
  // keys, the decomposition's roundings reproduced) instead of the online
  // softmax.
  bool panel = false;
  int64_t s_stride = 0;  // row stride of the scores: bk, or keys_pad
  bool causal = false;
  int64_t causal_size = 1, causal_inner = 1, causal_offset = 0;
  bool causal_skip = false;  // the causal role is the outermost row role
  GemmTiling t1, t2;         // S = Q K^T; O += P V
  int lanes = 1;
  int64_t bk = 0, r = 0, keys_pad = 0, value_pad = 0;
  int64_t blocks = 0, row_groups = 1, blocks_per_group = 1, units = 1;
  bool q_direct = false, v_direct = false;
  // The slot's parts (byte offsets) and size.
  int64_t kt_at = 0, v_at = 0, q_at = 0, s_at = 0, acc_at = 0, m_at = 0,
          l_at = 0, rows_q_at = 0, rows_p_at = 0, slot_bytes = 0;
  bool parallel = false;
};

int64_t ParameterNumber(const Instruction* i) {
  return i->opcode() == Opcode::kParameter ? i->parameter_number() : -1;
}

class AttentionEmitter {
 public:
  AttentionEmitter(const LoopArgs& a, const AttentionPlan& p)
      : a_(a), p_(p), b_(a.b), f32_(b_.getFloatTy()),
        vt_(llvm::FixedVectorType::get(f32_, p.lanes)) {}

  absl::Status Emit() {
    llvm::IRBuilderBase& b = b_;
    if (a_.ins == nullptr) {
      return absl::InternalError("attention: operands are not in memory");
    }
    kernel1_ = Microkernel(a_.mc, f32_, p_.t1, a_.mc.strict_fp(),
                           DepthGroups::kNone, 1);
    kernel2_ = Microkernel(a_.mc, f32_, p_.t2, a_.mc.strict_fp(),
                           DepthGroups::kNone, 1);
    Value* begin = a_.begin != nullptr ? a_.begin : b.getInt64(0);
    Value* end = a_.end != nullptr ? a_.end : b.getInt64(p_.units);
    // The slot of the task's first unit; the task's units reuse it.
    slot_ = b.CreateInBoundsGEP(
        b.getInt8Ty(), a_.scratch,
        b.CreateMul(p_.parallel ? begin : b.getInt64(0),
                    b.getInt64(p_.slot_bytes)));
    EmitForLoop(b, begin, end, "attention.unit", [&](Value* u) { Unit(u); });
    return absl::OkStatus();
  }

 private:
  Value* At(int64_t offset) {
    return b_.CreateInBoundsGEP(b_.getInt8Ty(), slot_, b_.getInt64(offset));
  }
  Value* F32At(Value* base, Value* index) {
    return b_.CreateInBoundsGEP(f32_, base, index);
  }
  Value* I64(int64_t v) { return b_.getInt64(v); }

  // Element offset of the flat index `flat` over `extents` with `strides`.
  Value* Offset(Value* flat, const std::vector<int64_t>& extents,
                const std::vector<int64_t>& strides) {
    Value* off = I64(0);
    if (extents.empty()) return off;
    std::vector<Value*> digits = UnflattenRowMajor(b_, flat, extents);
    for (size_t i = 0; i < digits.size(); ++i) {
      if (strides[i] != 0) {
        off = b_.CreateAdd(off, b_.CreateMul(digits[i], I64(strides[i])));
      }
    }
    return off;
  }

  Value* Load(const IrArray& array, PrimitiveType type, Value* offset) {
    llvm::Type* st = StorageType(b_.getContext(), type);
    Value* v = b_.CreateLoad(st, b_.CreateInBoundsGEP(st, array.base(), offset));
    v = StorageToCompute(b_, v, type);
    return type == PrimitiveType::kF32 ? v : b_.CreateFPCast(v, f32_);
  }

  const IrArray& Operand(int64_t param) { return (*a_.ins)[param][0]; }

  // How many keys row r of the block at r0 sees, at most `limit`: with a
  // causal mask only those up to its position plus the offset (rows past
  // the last valid one repeat it).
  Value* KeysSeen(Value* r0, Value* r, Value* last_row, Value* limit) {
    if (!p_.causal) return limit;
    llvm::IRBuilderBase& b = b_;
    Value* rr = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.CreateAdd(r0, r),
                                        last_row);
    Value* i = b.CreateURem(b.CreateUDiv(rr, I64(p_.causal_inner)), I64(p_.causal_size));
    return b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, limit,
                                   b.CreateAdd(i, I64(p_.causal_offset + 1)));
  }

  // `v` (f32, scalar or vector) rounded through `types` in turn.
  Value* Round(Value* v, PrimitiveType type) { return RoundToStorage(b_, v, type); }
  Value* RoundThrough(Value* v, const std::vector<PrimitiveType>& types) {
    for (PrimitiveType t : types) v = Round(v, t);
    return v;
  }
  Value* Splat(Value* v, double c) {
    llvm::Constant* k = llvm::ConstantFP::get(f32_, static_cast<float>(c));
    return v->getType()->isVectorTy() ? b_.CreateVectorSplat(p_.lanes, k) : k;
  }
  // The decomposition's steps from S to X (the mask aside: it is a limit).
  Value* Scores(Value* v) {
    for (const AttentionStep& st : p_.rounding.scores) {
      switch (st.kind) {
        case AttentionStep::kRound:
          v = Round(v, st.type);
          break;
        case AttentionStep::kMultiply:
          v = b_.CreateFMul(v, Splat(v, st.constant));
          break;
        case AttentionStep::kDivide:
          v = b_.CreateFDiv(v, Splat(v, st.constant));
          break;
        case AttentionStep::kMask:
          break;
      }
    }
    return v;
  }

  void Unit(Value* u) {
    llvm::IRBuilderBase& b = b_;
    Value* batch = b.CreateUDiv(u, I64(p_.row_groups));
    Value* group = b.CreateURem(u, I64(p_.row_groups));
    q_base_ = Offset(batch, p_.batch_ext, p_.q.batch);
    k_base_ = Offset(batch, p_.batch_ext, p_.k.batch);
    v_base_ = Offset(batch, p_.batch_ext, p_.v.batch);
    o_base_ = Offset(batch, p_.batch_ext, p_.o.batch);
    // K^T: head x keys_pad, zero past the keys.
    Value* kt = At(p_.kt_at);
    b.CreateMemSet(kt, b.getInt8(0), p_.head * p_.keys_pad * 4, llvm::MaybeAlign(64));
    const IrArray& k = Operand(p_.k_param);
    EmitForLoop(b, I64(0), I64(p_.keys), "attention.pack_k", [&](Value* j) {
      Value* row = b.CreateAdd(k_base_, b.CreateMul(j, I64(p_.k.key)));
      EmitForLoop(b, I64(0), I64(p_.head), "attention.pack_k.d", [&](Value* d) {
        Value* x = Load(k, p_.k_type, b.CreateAdd(row, b.CreateMul(d, I64(p_.k.head))));
        // Panels of nr1 keys, each head x nr1 contiguous (the
        // microkernel's packed B).
        const int64_t nr1 = p_.t1.nr();
        Value* panel = b.CreateUDiv(j, I64(nr1));
        Value* at = b.CreateAdd(
            b.CreateMul(panel, I64(p_.head * nr1)),
            b.CreateAdd(b.CreateMul(d, I64(nr1)), b.CreateURem(j, I64(nr1))));
        b.CreateStore(x, F32At(kt, at));
      });
    });
    if (!p_.v_direct) {
      Value* vp = At(p_.v_at);
      b.CreateMemSet(vp, b.getInt8(0), p_.keys_pad * p_.value_pad * 4,
                     llvm::MaybeAlign(64));
      const IrArray& v = Operand(p_.v_param);
      EmitForLoop(b, I64(0), I64(p_.keys), "attention.pack_v", [&](Value* j) {
        Value* row = b.CreateAdd(v_base_, b.CreateMul(j, I64(p_.v.key)));
        EmitForLoop(b, I64(0), I64(p_.value), "attention.pack_v.d", [&](Value* d) {
          Value* x = Load(v, p_.v_type, b.CreateAdd(row, b.CreateMul(d, I64(p_.v.value))));
          b.CreateStore(x, F32At(vp, b.CreateAdd(b.CreateMul(j, I64(p_.value_pad)), d)));
        });
      });
    }
    // P's rows: the score block's rows, fixed for the unit.
    Value* rows_p = At(p_.rows_p_at);
    EmitForLoop(b, I64(0), I64(p_.r), "attention.rows_p", [&](Value* r) {
      b.CreateStore(F32At(At(p_.s_at), b.CreateMul(r, I64(p_.s_stride))),
                    b.CreateInBoundsGEP(b.getPtrTy(), rows_p, r));
    });
    Value* first = b.CreateMul(group, I64(p_.blocks_per_group));
    Value* last = b.CreateBinaryIntrinsic(
        llvm::Intrinsic::umin, b.CreateAdd(first, I64(p_.blocks_per_group)),
        I64(p_.blocks));
    EmitForLoop(b, first, last, "attention.block", [&](Value* blk) { Block(blk); });
  }

  void Block(Value* blk) {
    llvm::IRBuilderBase& b = b_;
    Value* r0 = b.CreateMul(blk, I64(p_.r));
    Value* valid = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, I64(p_.r),
                                           b.CreateSub(I64(p_.rows), r0));
    Value* last_row = b.CreateAdd(r0, b.CreateSub(valid, I64(1)));
    // Q's rows (past the valid ones: the last valid row again).
    Value* rows_q = At(p_.rows_q_at);
    Value* qp = At(p_.q_at);
    const IrArray& q = Operand(p_.q_param);
    EmitForLoop(b, I64(0), I64(p_.r), "attention.rows_q", [&](Value* r) {
      Value* rr = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin,
                                          b.CreateAdd(r0, r), last_row);
      Value* off = b.CreateAdd(q_base_, Offset(rr, p_.row_ext, p_.q.rows));
      Value* row;
      if (p_.q_direct) {
        row = b.CreateInBoundsGEP(f32_, q.base(), off);
      } else {
        row = F32At(qp, b.CreateMul(r, I64(p_.head)));
        EmitForLoop(b, I64(0), I64(p_.head), "attention.pack_q", [&](Value* d) {
          Value* x = Load(q, p_.q_type, b.CreateAdd(off, b.CreateMul(d, I64(p_.q.head))));
          b.CreateStore(x, F32At(row, d));
        });
      }
      b.CreateStore(row, b.CreateInBoundsGEP(b.getPtrTy(), rows_q, r));
      b.CreateStore(llvm::ConstantFP::getInfinity(f32_, true),
                    F32At(At(p_.m_at), r));
      b.CreateStore(llvm::ConstantFP::get(f32_, 0), F32At(At(p_.l_at), r));
    });
    b.CreateMemSet(At(p_.acc_at), b.getInt8(0), p_.r * p_.value_pad * 4,
                   llvm::MaybeAlign(64));
    // The key blocks a row of the block can see.
    Value* nkb = I64(p_.keys_pad / p_.bk);
    if (p_.causal && p_.causal_skip) {
      Value* i_max = b.CreateUDiv(last_row, I64(p_.causal_inner));
      Value* limit = b.CreateBinaryIntrinsic(
          llvm::Intrinsic::umin, I64(p_.keys),
          b.CreateAdd(i_max, I64(p_.causal_offset + 1)));
      nkb = b.CreateUDiv(b.CreateAdd(limit, I64(p_.bk - 1)), I64(p_.bk));
    }
    EmitForLoop(b, I64(0), nkb, "attention.keys", [&](Value* kbi) {
      KeyBlock(b.CreateMul(kbi, I64(p_.bk)), r0, last_row);
    });
    if (p_.panel) {
      Value* seen = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, I64(p_.keys),
                                            b.CreateMul(nkb, I64(p_.bk)));
      PanelSoftmax(r0, last_row, seen);
      Product(I64(0), seen, /*accumulate=*/false);
    }
    // O / l (the panel's O is final) into the output.
    const IrArray& o = a_.out[0];
    llvm::Type* ot = StorageType(b.getContext(), p_.o_type);
    EmitForLoop(b, I64(0), valid, "attention.store", [&](Value* r) {
      Value* off = b.CreateAdd(o_base_, Offset(b.CreateAdd(r0, r), p_.row_ext, p_.o.rows));
      Value* l = b.CreateLoad(f32_, F32At(At(p_.l_at), r));
      Value* acc = F32At(At(p_.acc_at), b.CreateMul(r, I64(p_.value_pad)));
      EmitForLoop(b, I64(0), I64(p_.value), "attention.store.d", [&](Value* d) {
        Value* x = b.CreateLoad(f32_, F32At(acc, d));
        if (!p_.panel) x = b.CreateFDiv(x, l);
        Value* y = p_.o_type == PrimitiveType::kF32
                       ? x
                       : ComputeToStorage(b, b.CreateFPCast(x, ComputeType(b.getContext(), p_.o_type)), p_.o_type);
        b.CreateStore(y, b.CreateInBoundsGEP(
                             ot, o.base(),
                             b.CreateAdd(off, b.CreateMul(d, I64(p_.o.value)))));
      });
    });
  }

  void KeyBlock(Value* kb, Value* r0, Value* last_row) {
    llvm::IRBuilderBase& b = b_;
    Value* s = At(p_.s_at);
    Value* kt = At(p_.kt_at);
    Value* rows_q = At(p_.rows_q_at);
    // S = Q K^T over this block of keys.
    const int64_t nr1 = p_.t1.nr();
    EmitForLoop(b, I64(0), I64(p_.r / p_.t1.mr), "attention.qk", [&](Value* g) {
      Value* rows = b.CreateInBoundsGEP(b.getPtrTy(), rows_q, b.CreateMul(g, I64(p_.t1.mr)));
      Value* c_row = F32At(s, b.CreateMul(g, I64(p_.t1.mr * p_.s_stride)));
      if (p_.panel) c_row = F32At(c_row, kb);
      for (int64_t pc = 0; pc < p_.bk / nr1; ++pc) {
        Value* panel = b.CreateAdd(b.CreateUDiv(kb, I64(nr1)), I64(pc));
        b.CreateCall(kernel1_, {rows, F32At(kt, b.CreateMul(panel, I64(p_.head * nr1))),
                                I64(nr1), I64(p_.head),
                                F32At(c_row, I64(pc * nr1)), I64(p_.s_stride),
                                b.getFalse()});
      }
    });
    if (p_.panel) return;
    // The online softmax, row by row, in vectors.
    EmitForLoop(b, I64(0), I64(p_.r), "attention.softmax", [&](Value* r) {
      Value* limit = KeysSeen(r0, r, last_row, I64(p_.keys));
      // Keys of this block the row sees: lanes below `seen`.
      Value* seen = b.CreateTrunc(b.CreateSub(limit, kb), b.getInt32Ty());
      Value* row = F32At(s, b.CreateMul(r, I64(p_.s_stride)));
      const int chunks = static_cast<int>(p_.bk / p_.lanes);
      std::vector<Value*> x(chunks);
      Value* neg_inf = llvm::ConstantFP::getInfinity(vt_, true);
      Value* mx = neg_inf;
      llvm::SmallVector<llvm::Constant*, 16> lane_ids;
      for (int l = 0; l < p_.lanes; ++l) lane_ids.push_back(b.getInt32(l));
      Value* lanes = llvm::ConstantVector::get(lane_ids);
      for (int c = 0; c < chunks; ++c) {
        Value* v = Scores(
            b.CreateAlignedLoad(vt_, F32At(row, I64(c * p_.lanes)), llvm::Align(4)));
        Value* keep = b.CreateICmpSLT(
            b.CreateAdd(lanes, b.CreateVectorSplat(p_.lanes, b.getInt32(c * p_.lanes))),
            b.CreateVectorSplat(p_.lanes, seen));
        x[c] = b.CreateSelect(keep, v, neg_inf);
        mx = b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, mx, x[c]);
      }
      Value* block_max = b.CreateFPMaxReduce(mx);
      Value* m_slot = F32At(At(p_.m_at), r);
      Value* l_slot = F32At(At(p_.l_at), r);
      Value* m_old = b.CreateLoad(f32_, m_slot);
      Value* m_new = b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, m_old, block_max);
      // Nothing seen yet: subtract 0, so that exp(-inf) stays 0.
      Value* m_use = b.CreateSelect(
          b.CreateFCmpOEQ(m_new, llvm::ConstantFP::getInfinity(f32_, true)),
          llvm::ConstantFP::get(f32_, 0), m_new);
      Value* m_vec = b.CreateVectorSplat(p_.lanes, m_use);
      Value* sum = llvm::ConstantFP::get(vt_, 0);
      for (int c = 0; c < chunks; ++c) {
        Value* e = EmitExp(b, b.CreateFSub(x[c], m_vec));
        b.CreateAlignedStore(e, F32At(row, I64(c * p_.lanes)), llvm::Align(4));
        sum = b.CreateFAdd(sum, e);
      }
      Value* corr = EmitExp(b, b.CreateFSub(m_old, m_use));
      // The block's sum in a tree (the order is the sum's own; the oracle's
      // sum budget covers any).
      Value* block_sum;
      {
        llvm::IRBuilderBase::FastMathFlagGuard guard(b);
        llvm::FastMathFlags reassoc;
        reassoc.setAllowReassoc();
        b.setFastMathFlags(reassoc);
        block_sum = b.CreateFAddReduce(llvm::ConstantFP::get(f32_, 0), sum);
      }
      Value* l = b.CreateFAdd(b.CreateFMul(b.CreateLoad(f32_, l_slot), corr), block_sum);
      b.CreateStore(l, l_slot);
      b.CreateStore(m_new, m_slot);
      Value* acc = F32At(At(p_.acc_at), b.CreateMul(r, I64(p_.value_pad)));
      // O = O c, skipped when the max stayed (c = 1, after the first
      // blocks the common case).
      llvm::Function* fn = b.GetInsertBlock()->getParent();
      auto* rescale = llvm::BasicBlock::Create(b.getContext(), "attention.rescale", fn);
      auto* rescaled = llvm::BasicBlock::Create(b.getContext(), "attention.rescaled", fn);
      b.CreateCondBr(b.CreateFCmpUNE(corr, llvm::ConstantFP::get(f32_, 1)), rescale,
                     rescaled);
      b.SetInsertPoint(rescale);
      Value* corr_vec = b.CreateVectorSplat(p_.lanes, corr);
      for (int64_t c = 0; c < p_.value_pad / p_.lanes; ++c) {
        Value* at = F32At(acc, I64(c * p_.lanes));
        b.CreateAlignedStore(
            b.CreateFMul(b.CreateAlignedLoad(vt_, at, llvm::Align(4)), corr_vec), at,
            llvm::Align(4));
      }
      b.CreateBr(rescaled);
      b.SetInsertPoint(rescaled);
    });
    // O += P V over the block's keys.
    Product(kb, b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, I64(p_.bk),
                                        b.CreateSub(I64(p_.keys), kb)),
            /*accumulate=*/true);
  }

  // O (+)= P[:, kb..kb+kc) V[kb..kb+kc) on the microkernel.
  void Product(Value* kb, Value* kc, bool accumulate) {
    llvm::IRBuilderBase& b = b_;
    Value* vbase;
    Value* ldv;
    if (p_.v_direct) {
      vbase = b.CreateInBoundsGEP(
          f32_, Operand(p_.v_param).base(),
          b.CreateAdd(v_base_, b.CreateMul(kb, I64(p_.v.key))));
      ldv = I64(p_.v.key);
    } else {
      vbase = F32At(At(p_.v_at), b.CreateMul(kb, I64(p_.value_pad)));
      ldv = I64(p_.value_pad);
    }
    Value* rows_p = At(p_.rows_p_at);
    const int64_t nr2 = p_.t2.nr();
    EmitForLoop(b, I64(0), I64(p_.r / p_.t2.mr), "attention.pv", [&](Value* g) {
      Value* rows = b.CreateInBoundsGEP(b.getPtrTy(), rows_p, b.CreateMul(g, I64(p_.t2.mr)));
      Value* c_row = F32At(At(p_.acc_at), b.CreateMul(g, I64(p_.t2.mr * p_.value_pad)));
      for (int64_t pv = 0; pv < p_.value_pad / nr2; ++pv) {
        b.CreateCall(kernel2_, {rows, F32At(vbase, I64(pv * nr2)), ldv, kc,
                                F32At(c_row, I64(pv * nr2)), I64(p_.value_pad),
                                b.getInt1(accumulate)});
      }
    });
  }

  // The panel form's softmax of each row over the first `seen` keys, with
  // the decomposition's roundings: X, its max M, E = exp(X - M), L = sum E
  // in order, P = E / L; keys the row does not see get P = 0.
  void PanelSoftmax(Value* r0, Value* last_row, Value* seen) {
    llvm::IRBuilderBase& b = b_;
    const AttentionRounding& rd = p_.rounding;
    EmitForLoop(b, I64(0), I64(p_.r), "attention.panel", [&](Value* r) {
      Value* limit = KeysSeen(r0, r, last_row, seen);
      Value* row = F32At(At(p_.s_at), b.CreateMul(r, I64(p_.s_stride)));
      llvm::AllocaInst* m = EntryAlloca(b, f32_, "attention.m");
      llvm::AllocaInst* l = EntryAlloca(b, f32_, "attention.l");
      b.CreateStore(llvm::ConstantFP::get(f32_, p_.max_init), m);
      EmitForLoop(b, I64(0), limit, "attention.panel.max", [&](Value* j) {
        Value* at = F32At(row, j);
        Value* x = Scores(b.CreateLoad(f32_, at));
        b.CreateStore(x, at);
        // max as HLO computes it: NaN wins.
        Value* old = b.CreateLoad(f32_, m);
        b.CreateStore(b.CreateBinaryIntrinsic(llvm::Intrinsic::maximum, old, x), m);
      });
      Value* mx = b.CreateLoad(f32_, m);
      b.CreateStore(llvm::ConstantFP::get(f32_, 0), l);
      EmitForLoop(b, I64(0), limit, "attention.panel.exp", [&](Value* j) {
        Value* at = F32At(row, j);
        Value* d = Round(b.CreateFSub(b.CreateLoad(f32_, at), mx), rd.subtract);
        Value* e = Round(EmitExp(b, d), rd.exp);
        b.CreateStore(e, at);
        Value* sum = b.CreateFAdd(b.CreateLoad(f32_, l), RoundThrough(e, rd.e_to_sum));
        b.CreateStore(Round(sum, rd.sum), l);
      });
      Value* divisor = RoundThrough(b.CreateLoad(f32_, l), rd.sum_to_divide);
      if (rd.reciprocal) {
        divisor = RoundThrough(
            Round(b.CreateFDiv(llvm::ConstantFP::get(f32_, 1), divisor),
                  rd.reciprocal_type),
            rd.after_reciprocal);
      }
      EmitForLoop(b, I64(0), limit, "attention.panel.p", [&](Value* j) {
        Value* at = F32At(row, j);
        Value* e = RoundThrough(b.CreateLoad(f32_, at), rd.e_to_divide);
        Value* pj = rd.reciprocal ? b.CreateFMul(e, divisor) : b.CreateFDiv(e, divisor);
        b.CreateStore(RoundThrough(Round(pj, rd.divide), rd.p_to_product), at);
      });
      EmitForLoop(b, limit, seen, "attention.panel.masked", [&](Value* j) {
        b.CreateStore(llvm::ConstantFP::get(f32_, 0), F32At(row, j));
      });
    });
  }

  const LoopArgs& a_;
  const AttentionPlan& p_;
  llvm::IRBuilderBase& b_;
  llvm::Type* f32_;
  llvm::FixedVectorType* vt_;
  llvm::Function* kernel1_ = nullptr;
  llvm::Function* kernel2_ = nullptr;
  Value* slot_ = nullptr;
  Value* q_base_ = nullptr;
  Value* k_base_ = nullptr;
  Value* v_base_ = nullptr;
  Value* o_base_ = nullptr;
};

}  // namespace

std::optional<StrategyPlan> PlanAttention(const Instruction& inst,
                                          const TargetInfo& target) {
  if (inst.opcode() != Opcode::kFusion ||
      inst.fusion_kind() != FusionKind::kCustom || !inst.shape().IsArray()) {
    return std::nullopt;
  }
  std::optional<AttentionPattern> pat =
      MatchAttention(*inst.fused_computation()->root());
  if (!pat) return std::nullopt;
  auto g = std::make_shared<AttentionPlan>();
  AttentionPlan& p = *g;
  p.q_param = ParameterNumber(pat->q);
  p.k_param = ParameterNumber(pat->k);
  p.v_param = ParameterNumber(pat->v);
  if (p.q_param < 0 || p.k_param < 0 || p.v_param < 0) return std::nullopt;
  p.q_type = pat->q->shape().element_type();
  p.k_type = pat->k->shape().element_type();
  p.v_type = pat->v->shape().element_type();
  p.o_type = inst.shape().element_type();
  p.q = StridesOf(pat->q->shape(), pat->q_dims);
  p.k = StridesOf(pat->k->shape(), pat->k_dims);
  p.v = StridesOf(pat->v->shape(), pat->v_dims);
  p.o = StridesOf(inst.shape(), pat->out_dims);
  p.batch_ext = pat->batch;
  p.row_ext = pat->rows;
  for (int64_t e : p.batch_ext) p.batches *= e;
  for (int64_t e : p.row_ext) p.rows *= e;
  p.keys = pat->keys;
  p.head = pat->head;
  p.value = pat->value_head;
  p.rounding = pat->rounding;
  p.max_init = pat->max_init;
  p.panel = p.rounding.Narrow();
  if (pat->causal) {
    p.causal = true;
    p.causal_size = p.row_ext[pat->causal_row];
    for (size_t i = pat->causal_row + 1; i < p.row_ext.size(); ++i) {
      p.causal_inner *= p.row_ext[i];
    }
    p.causal_offset = pat->causal_offset;
    p.causal_skip = pat->causal_row == 0;
  }
  // The tiles: S's columns are a block of keys, O's the value head.
  p.t1 = ChooseGemmTiling(4, target, kRowBlock, p.head, 0, kKeyBlock);
  p.lanes = p.t1.lanes;
  p.bk = RoundUp(kKeyBlock, p.t1.nr());
  p.t2 = ChooseGemmTiling(4, target, kRowBlock, p.bk, 0, p.value);
  if (p.t2.lanes != p.lanes) p.t2 = ChooseGemmTiling(4, target, kRowBlock, p.bk);
  p.value_pad = RoundUp(p.value, std::max<int64_t>(p.t2.nr(), p.lanes));
  p.keys_pad = RoundUp(p.keys, p.bk);
  const int64_t step = std::lcm<int64_t>(p.t1.mr, p.t2.mr);
  p.r = std::min(RoundUp(kRowBlock, step), RoundUp(p.rows, step));
  p.blocks = (p.rows + p.r - 1) / p.r;
  if (p.batches < kMinUnits) {
    p.row_groups = std::min(p.blocks, (kMinUnits + p.batches - 1) / p.batches);
  }
  p.blocks_per_group = (p.blocks + p.row_groups - 1) / p.row_groups;
  p.row_groups = (p.blocks + p.blocks_per_group - 1) / p.blocks_per_group;
  p.units = p.batches * p.row_groups;
  p.q_direct = p.q_type == PrimitiveType::kF32 && p.q.head == 1;
  p.v_direct = p.v_type == PrimitiveType::kF32 && p.v.value == 1 &&
               p.value % p.t2.nr() == 0 && p.value == p.value_pad;
  // The slot.
  int64_t at = 0;
  auto take = [&](int64_t bytes) {
    const int64_t here = at;
    at += AlignUp(bytes);
    return here;
  };
  p.kt_at = take(p.head * p.keys_pad * 4);
  p.v_at = p.v_direct ? 0 : take(p.keys_pad * p.value_pad * 4);
  p.q_at = p.q_direct ? 0 : take(p.r * p.head * 4);
  p.s_stride = p.panel ? p.keys_pad : p.bk;
  p.s_at = take(p.r * p.s_stride * 4);
  p.acc_at = take(p.r * p.value_pad * 4);
  p.m_at = take(p.r * 4);
  p.l_at = take(p.r * 4);
  p.rows_q_at = take(p.r * 8);
  p.rows_p_at = take(p.r * 8);
  p.slot_bytes = at;

  StrategyPlan plan;
  plan.own_loop_shape =
      std::make_shared<const Shape>(Shape::Array(PrimitiveType::kF32, {p.units}));
  plan.loop_shape = plan.own_loop_shape.get();
  plan.work_per_element =
      std::max<int64_t>(1, p.rows / p.row_groups * p.keys * (p.head + p.value));
  p.parallel = ChooseParallelSplit(plan).has_value();
  plan.scratch_bytes = (p.parallel ? p.units : 1) * p.slot_bytes;
  plan.emit = [g](const LoopArgs& a) -> absl::Status {
    return AttentionEmitter(a, *g).Emit();
  };
  return plan;
}

}  // namespace aotc::codegen
