// The gemm strategy's register-tiled microkernel (see Microkernel in
// plan.h): the function's declaration, then its body, which keeps the tile
// of C in mr x vectors accumulators and updates it one depth (or one group
// of depths) at a time.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/emit/ir_types.h"
#include "codegen/strategies/gemm/plan.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsX86.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// The kernel's function (see plan.h for its parameters): internal, never
// inlined, its B panel and C not aliasing anything else.
llvm::Function* DeclareMicrokernel(ModuleContext& mc, const std::string& name,
                                   llvm::Type* elem, const GemmTiling& t) {
  llvm::LLVMContext& ctx = mc.context();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  auto* f = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                              {ptr, ptr, i64, i64, ptr, i64,
                               llvm::Type::getInt1Ty(ctx)},
                              false),
      llvm::GlobalValue::InternalLinkage, name, mc.module());
  f->addFnAttr(llvm::Attribute::NoUnwind);
  f->addFnAttr(llvm::Attribute::NoInline);
  const int elem_bits = static_cast<int>(elem->getPrimitiveSizeInBits());
  if (t.lanes > 1) {
    // Without it the x86 backend splits 512-bit vectors on CPUs that prefer
    // 256-bit ones.
    f->addFnAttr("min-legal-vector-width", std::to_string(t.lanes * elem_bits));
  }
  for (unsigned arg : {1u, 4u}) f->addParamAttr(arg, llvm::Attribute::NoAlias);
  return f;
}

// The body of the kernel `f`: A's row pointers and the accumulators (from
// C when accumulating), the updates over the depth, C stored back.
class MicrokernelBody {
 public:
  MicrokernelBody(llvm::Function* f, llvm::Type* elem, const GemmTiling& t,
                  bool strict, DepthGroups groups, int64_t interleave)
      : f_(f),
        ctx_(f->getContext()),
        b_(llvm::BasicBlock::Create(ctx_, "entry", f)),
        elem_(elem),
        t_(t),
        strict_(strict),
        groups_(groups),
        interleave_(interleave),
        vt_(t.lanes > 1 ? llvm::FixedVectorType::get(elem, t.lanes) : elem),
        align_(static_cast<int>(elem->getPrimitiveSizeInBits()) / 8) {}

  void Emit() {
    llvm::IRBuilderBase& b = b_;
    StartTile();
    // Interleaved rows: lane l takes value l / (lanes / interleave).
    for (int l = 0; l < t_.lanes; ++l) {
      spread_.push_back(static_cast<int>(l / (t_.lanes / interleave_)));
    }
    // Four updates per iteration, then the rest.
    constexpr int kUnroll = 4;
    Value* steps = b.CreateUDiv(kc_, b.getInt64(DepthGroupSize(groups_)));
    EmitForLoop(b, b.getInt64(0), b.CreateLShr(steps, 2), "k4", [&](Value* q) {
      Value* k0 = b.CreateShl(q, 2);
      for (int u = 0; u < kUnroll; ++u) Step(b.CreateAdd(k0, b.getInt64(u)));
    });
    EmitForLoop(b, b.CreateAnd(steps, b.getInt64(~int64_t{kUnroll - 1})), steps,
                "k", [&](Value* k) { Step(k); });
    for (int r = 0; r < t_.mr; ++r) {
      for (int v = 0; v < t_.vectors; ++v) {
        b.CreateAlignedStore(b.CreateLoad(vt_, acc_[r * t_.vectors + v]),
                             CAt(r, v), align_);
      }
    }
    b.CreateRetVoid();
  }

 private:
  // A's row pointers, the accumulators at zero, or C's tile when the
  // kernel accumulates.
  void StartTile() {
    llvm::IRBuilderBase& b = b_;
    llvm::Type* ptr = llvm::PointerType::getUnqual(ctx_);
    a_rows_.resize(t_.mr);
    for (int r = 0; r < t_.mr; ++r) {
      a_rows_[r] = b.CreateAlignedLoad(
          ptr, b.CreateConstInBoundsGEP1_64(ptr, f_->getArg(0), r), llvm::Align(8));
    }
    bp_ = f_->getArg(1);
    ldb_ = f_->getArg(2);
    kc_ = f_->getArg(3);
    c_ = f_->getArg(4);
    ldc_ = f_->getArg(5);
    const int tiles = t_.mr * t_.vectors;
    acc_.resize(tiles);
    for (int i = 0; i < tiles; ++i) {
      acc_[i] = EntryAlloca(b, vt_, absl::StrCat("acc", i));
      b.CreateStore(llvm::Constant::getNullValue(vt_), acc_[i]);
    }
    auto* load_c = llvm::BasicBlock::Create(ctx_, "load_c", f_);
    auto* body = llvm::BasicBlock::Create(ctx_, "body", f_);
    b.CreateCondBr(f_->getArg(6), load_c, body);
    b.SetInsertPoint(load_c);
    for (int r = 0; r < t_.mr; ++r) {
      for (int v = 0; v < t_.vectors; ++v) {
        b.CreateStore(b.CreateAlignedLoad(vt_, CAt(r, v), align_),
                      acc_[r * t_.vectors + v]);
      }
    }
    b.CreateBr(body);
    b.SetInsertPoint(body);
  }

  Value* CAt(int r, int v) {
    return b_.CreateInBoundsGEP(
        elem_, c_, b_.CreateAdd(b_.CreateMul(b_.getInt64(r), ldc_),
                                b_.getInt64(int64_t{v} * t_.lanes)));
  }

  // One group of depths kq: B's row of nr column groups, each row of A's
  // group broadcast as one 32-bit value, `group` products per lane into
  // the sums.
  void GroupStep(Value* kq) {
    llvm::IRBuilderBase& b = b_;
    const bool bf16 = groups_ == DepthGroups::kBf16Pairs;
    const int group = DepthGroupSize(groups_);
    llvm::Type* op_elem = bf16 ? b.getInt16Ty() : b.getInt8Ty();
    llvm::Type* group_vt =
        bf16 ? llvm::FixedVectorType::get(b.getBFloatTy(), 2 * t_.lanes) : vt_;
    Value* brow = b.CreateInBoundsGEP(
        op_elem, bp_, b.CreateMul(kq, b.CreateMul(ldb_, b.getInt64(group))));
    std::vector<Value*> bv(t_.vectors);
    for (int v = 0; v < t_.vectors; ++v) {
      bv[v] = b.CreateAlignedLoad(
          group_vt,
          b.CreateConstInBoundsGEP1_64(op_elem, brow,
                                       int64_t{v} * group * t_.lanes),
          llvm::Align(1));
    }
    for (int r = 0; r < t_.mr; ++r) {
      Value* x = b.CreateAlignedLoad(
          b.getInt32Ty(),
          b.CreateInBoundsGEP(op_elem, a_rows_[r],
                              b.CreateMul(kq, b.getInt64(group))),
          llvm::Align(1));
      x = b.CreateBitCast(b.CreateVectorSplat(t_.lanes, x), group_vt);
      for (int v = 0; v < t_.vectors; ++v) {
        llvm::AllocaInst* slot = acc_[r * t_.vectors + v];
        b.CreateStore(
            b.CreateIntrinsic(
                bf16 ? llvm::Intrinsic::x86_avx512bf16_dpbf16ps_512
                     : llvm::Intrinsic::x86_avx512_vpdpbusd_512,
                {}, {b.CreateLoad(vt_, slot), x, bv[v]}),
            slot);
      }
    }
  }

  // One rank-1 update: a row of the b-panel times a column of the a-panel.
  void Step(Value* k) {
    if (groups_ != DepthGroups::kNone) return GroupStep(k);
    llvm::IRBuilderBase& b = b_;
    Value* brow = b.CreateInBoundsGEP(elem_, bp_, b.CreateMul(k, ldb_));
    std::vector<Value*> bv(t_.vectors);
    for (int v = 0; v < t_.vectors; ++v) {
      bv[v] = b.CreateAlignedLoad(
          vt_, b.CreateConstInBoundsGEP1_64(elem_, brow, int64_t{v} * t_.lanes),
          align_);
    }
    for (int r = 0; r < t_.mr; ++r) {
      Value* x;
      if (interleave_ > 1) {
        // The depth's interleave values of the row, each spread over its
        // group's lanes.
        x = b.CreateShuffleVector(
            b.CreateAlignedLoad(
                llvm::FixedVectorType::get(elem_, interleave_),
                b.CreateInBoundsGEP(elem_, a_rows_[r],
                                    b.CreateMul(k, b.getInt64(interleave_))),
                align_),
            spread_);
      } else {
        x = b.CreateAlignedLoad(elem_, b.CreateInBoundsGEP(elem_, a_rows_[r], k),
                                align_);
        if (t_.lanes > 1) x = b.CreateVectorSplat(t_.lanes, x);
      }
      for (int v = 0; v < t_.vectors; ++v) {
        llvm::AllocaInst* slot = acc_[r * t_.vectors + v];
        Value* old = b.CreateLoad(vt_, slot);
        Value* sum =
            elem_->isIntegerTy() ? b.CreateAdd(old, b.CreateMul(x, bv[v]))
            : strict_ ? b.CreateFAdd(old, b.CreateFMul(x, bv[v]))
                      : b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {vt_},
                                          {x, bv[v], old});
        b.CreateStore(sum, slot);
      }
    }
  }

  llvm::Function* f_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  llvm::Type* elem_;
  const GemmTiling& t_;
  const bool strict_;
  const DepthGroups groups_;
  const int64_t interleave_;
  llvm::Type* vt_;
  const llvm::Align align_;
  std::vector<Value*> a_rows_;
  std::vector<llvm::AllocaInst*> acc_;
  Value* bp_ = nullptr;
  Value* ldb_ = nullptr;
  Value* kc_ = nullptr;
  Value* c_ = nullptr;
  Value* ldc_ = nullptr;
  llvm::SmallVector<int, 16> spread_;
};

}  // namespace

llvm::Function* Microkernel(ModuleContext& mc, llvm::Type* elem,
                            const GemmTiling& t, bool strict,
                            DepthGroups groups, int64_t interleave) {
  const std::string name = absl::StrCat(
      mc.prefix(), ".gemm_kernel_", t.mr, "x", t.vectors, "x", t.lanes,
      elem->isDoubleTy() ? "_f64" : elem->isIntegerTy() ? "_s32" : "_f32",
      strict ? "_strict" : "",
      interleave > 1 ? absl::StrCat("_interleave", interleave) : "",
      groups == DepthGroups::kBf16Pairs ? "_bf16_pairs"
      : groups == DepthGroups::kS8Quads ? "_s8_quads"
                                        : "");
  if (llvm::Function* f = mc.module().getFunction(name)) return f;
  llvm::Function* f = DeclareMicrokernel(mc, name, elem, t);
  MicrokernelBody(f, elem, t, strict, groups, interleave).Emit();
  return f;
}

}  // namespace aotc::codegen
