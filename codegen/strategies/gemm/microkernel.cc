// The gemm strategy's register-tiled microkernel (see Microkernel in
// plan.h).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/emit/ir_types.h"
#include "codegen/strategies/gemm/plan.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsX86.h"

namespace aotc::codegen {

using llvm::Value;

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
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
  std::vector<Value*> a_rows(t.mr);
  for (int r = 0; r < t.mr; ++r) {
    a_rows[r] = b.CreateAlignedLoad(
        ptr, b.CreateConstInBoundsGEP1_64(ptr, f->getArg(0), r), llvm::Align(8));
  }
  Value* bp = f->getArg(1);
  Value* ldb = f->getArg(2);
  Value* kc = f->getArg(3);
  Value* c = f->getArg(4);
  Value* ldc = f->getArg(5);
  llvm::Type* vt =
      t.lanes > 1 ? llvm::FixedVectorType::get(elem, t.lanes) : elem;
  const llvm::Align align(elem_bits / 8);
  const int tiles = t.mr * t.vectors;
  std::vector<llvm::AllocaInst*> acc(tiles);
  for (int i = 0; i < tiles; ++i) {
    acc[i] = EntryAlloca(b, vt, absl::StrCat("acc", i));
    b.CreateStore(llvm::Constant::getNullValue(vt), acc[i]);
  }
  auto c_at = [&](int r, int v) {
    return b.CreateInBoundsGEP(
        elem, c, b.CreateAdd(b.CreateMul(b.getInt64(r), ldc),
                             b.getInt64(int64_t{v} * t.lanes)));
  };
  auto* load_c = llvm::BasicBlock::Create(ctx, "load_c", f);
  auto* body = llvm::BasicBlock::Create(ctx, "body", f);
  b.CreateCondBr(f->getArg(6), load_c, body);
  b.SetInsertPoint(load_c);
  for (int r = 0; r < t.mr; ++r) {
    for (int v = 0; v < t.vectors; ++v) {
      b.CreateStore(b.CreateAlignedLoad(vt, c_at(r, v), align),
                    acc[r * t.vectors + v]);
    }
  }
  b.CreateBr(body);
  b.SetInsertPoint(body);
  // One group of depths kq: B's row of nr column groups, each row of A's
  // group broadcast as one 32-bit value, `group` products per lane into the
  // sums.
  const bool bf16 = groups == DepthGroups::kBf16Pairs;
  const int group = DepthGroupSize(groups);
  llvm::Type* op_elem = bf16 ? b.getInt16Ty() : b.getInt8Ty();
  llvm::Type* group_vt =
      bf16 ? llvm::FixedVectorType::get(b.getBFloatTy(), 2 * t.lanes) : vt;
  auto group_step = [&](Value* kq) {
    Value* brow = b.CreateInBoundsGEP(
        op_elem, bp, b.CreateMul(kq, b.CreateMul(ldb, b.getInt64(group))));
    std::vector<Value*> bv(t.vectors);
    for (int v = 0; v < t.vectors; ++v) {
      bv[v] = b.CreateAlignedLoad(
          group_vt,
          b.CreateConstInBoundsGEP1_64(op_elem, brow,
                                       int64_t{v} * group * t.lanes),
          llvm::Align(1));
    }
    for (int r = 0; r < t.mr; ++r) {
      Value* x = b.CreateAlignedLoad(
          b.getInt32Ty(),
          b.CreateInBoundsGEP(op_elem, a_rows[r],
                              b.CreateMul(kq, b.getInt64(group))),
          llvm::Align(1));
      x = b.CreateBitCast(b.CreateVectorSplat(t.lanes, x), group_vt);
      for (int v = 0; v < t.vectors; ++v) {
        llvm::AllocaInst* slot = acc[r * t.vectors + v];
        b.CreateStore(
            b.CreateIntrinsic(
                bf16 ? llvm::Intrinsic::x86_avx512bf16_dpbf16ps_512
                     : llvm::Intrinsic::x86_avx512_vpdpbusd_512,
                {}, {b.CreateLoad(vt, slot), x, bv[v]}),
            slot);
      }
    }
  };
  // Interleaved rows: lane l takes value l / (lanes / interleave).
  llvm::SmallVector<int, 16> spread;
  for (int l = 0; l < t.lanes; ++l) {
    spread.push_back(static_cast<int>(l / (t.lanes / interleave)));
  }
  // One rank-1 update: a row of the b-panel times a column of the a-panel.
  auto step = [&](Value* k) {
    if (groups != DepthGroups::kNone) return group_step(k);
    Value* brow = b.CreateInBoundsGEP(elem, bp, b.CreateMul(k, ldb));
    std::vector<Value*> bv(t.vectors);
    for (int v = 0; v < t.vectors; ++v) {
      bv[v] = b.CreateAlignedLoad(
          vt, b.CreateConstInBoundsGEP1_64(elem, brow, int64_t{v} * t.lanes),
          align);
    }
    for (int r = 0; r < t.mr; ++r) {
      Value* x;
      if (interleave > 1) {
        // The depth's interleave values of the row, each spread over its
        // group's lanes.
        x = b.CreateShuffleVector(
            b.CreateAlignedLoad(
                llvm::FixedVectorType::get(elem, interleave),
                b.CreateInBoundsGEP(elem, a_rows[r],
                                    b.CreateMul(k, b.getInt64(interleave))),
                align),
            spread);
      } else {
        x = b.CreateAlignedLoad(elem, b.CreateInBoundsGEP(elem, a_rows[r], k),
                                align);
        if (t.lanes > 1) x = b.CreateVectorSplat(t.lanes, x);
      }
      for (int v = 0; v < t.vectors; ++v) {
        llvm::AllocaInst* slot = acc[r * t.vectors + v];
        Value* old = b.CreateLoad(vt, slot);
        Value* sum =
            elem->isIntegerTy() ? b.CreateAdd(old, b.CreateMul(x, bv[v]))
            : strict ? b.CreateFAdd(old, b.CreateFMul(x, bv[v]))
                     : b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {vt},
                                         {x, bv[v], old});
        b.CreateStore(sum, slot);
      }
    }
  };
  // Four updates per iteration, then the rest.
  constexpr int kUnroll = 4;
  Value* steps = b.CreateUDiv(kc, b.getInt64(group));
  EmitForLoop(b, b.getInt64(0), b.CreateLShr(steps, 2), "k4", [&](Value* q) {
    Value* k0 = b.CreateShl(q, 2);
    for (int u = 0; u < kUnroll; ++u) step(b.CreateAdd(k0, b.getInt64(u)));
  });
  EmitForLoop(b, b.CreateAnd(steps, b.getInt64(~int64_t{kUnroll - 1})), steps,
              "k", step);
  for (int r = 0; r < t.mr; ++r) {
    for (int v = 0; v < t.vectors; ++v) {
      b.CreateAlignedStore(b.CreateLoad(vt, acc[r * t.vectors + v]),
                           c_at(r, v), align);
    }
  }
  b.CreateRetVoid();
  return f;
}

}  // namespace aotc::codegen
