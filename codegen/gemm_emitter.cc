// The GEMM strategy: packing, the microkernel and the epilogue (see
// gemm_emitter.h).
#include "codegen/gemm_emitter.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/dot_emitter.h"
#include "codegen/ir_types.h"
#include "codegen/parallel_loops.h"
#include "compiler/ir/shape_inference.h"
#include "compiler/support/status_macros.h"
#include "llvm/IR/Intrinsics.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// Products with less work than this stay with the simpler loops.
constexpr int64_t kMinWork = int64_t{1} << 14;
// Fewer columns or a shallower contraction than this waste most of a
// register tile.
constexpr int64_t kMinColumns = 16;
constexpr int64_t kMinDepth = 16;

int64_t RoundUp(int64_t n, int64_t m) { return (n + m - 1) / m * m; }

// The dot's dimensions grouped into batch, rows (lhs free), columns (rhs
// free) and depth (contracting), each group flattened row-major in the
// order HLO gives them: the dot's result is [batch..., rows..., columns...].
struct GemmDims {
  std::vector<int64_t> lhs_batch, rhs_batch, lhs_free, rhs_free;
  std::vector<int64_t> lhs_contract, rhs_contract;
  std::vector<int64_t> batch_ext, m_ext, n_ext, k_ext;
  int64_t batch = 1, m = 1, n = 1, k = 1;
};

std::vector<int64_t> FreeDims(int64_t rank, const std::vector<int64_t>& batch,
                              const std::vector<int64_t>& contract) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contract.begin(), contract.end(), d) == contract.end()) {
      free.push_back(d);
    }
  }
  return free;
}

GemmDims DescribeDot(const Instruction& dot) {
  const DotDimensionNumbers& dn = dot.attrs().dot_dnums;
  const Shape& lhs = dot.operand(0)->shape();
  const Shape& rhs = dot.operand(1)->shape();
  GemmDims g;
  g.lhs_batch = dn.lhs_batch;
  g.rhs_batch = dn.rhs_batch;
  g.lhs_contract = dn.lhs_contracting;
  g.rhs_contract = dn.rhs_contracting;
  g.lhs_free = FreeDims(lhs.rank(), g.lhs_batch, g.lhs_contract);
  g.rhs_free = FreeDims(rhs.rank(), g.rhs_batch, g.rhs_contract);
  auto extents = [](const Shape& s, const std::vector<int64_t>& dims,
                    int64_t* product) {
    std::vector<int64_t> e;
    for (int64_t d : dims) {
      e.push_back(s.dimensions(d));
      *product *= s.dimensions(d);
    }
    return e;
  };
  g.batch_ext = extents(lhs, g.lhs_batch, &g.batch);
  g.m_ext = extents(lhs, g.lhs_free, &g.m);
  g.n_ext = extents(rhs, g.rhs_free, &g.n);
  g.k_ext = extents(lhs, g.lhs_contract, &g.k);
  return g;
}

// The coordinates of `flat` in a row-major box of `extents`, computed at
// compile time (UnflattenRowMajor's).
std::vector<int64_t> UnflattenConstant(int64_t flat,
                                       const std::vector<int64_t>& extents) {
  std::vector<int64_t> c(extents.size());
  for (size_t d = extents.size(); d-- > 0;) {
    c[d] = flat % extents[d];
    flat /= extents[d];
  }
  return c;
}

// An operand's multi-index: coordinate groups placed at their dimensions.
template <typename T>
std::vector<T> Place(int64_t rank,
                     std::initializer_list<std::pair<const std::vector<int64_t>*,
                                                     std::vector<T>>> groups) {
  std::vector<T> multi(rank);
  for (const auto& [dims, coords] : groups) {
    for (size_t i = 0; i < dims->size(); ++i) multi[(*dims)[i]] = coords[i];
  }
  return multi;
}

// A convolution as a product (the "implicit GEMM"): row m of A is output
// position (n, s...) flattened over [batch, output spatial...]; depth k is
// kernel tap t (row-major over the kernel's spatial dimensions) then input
// feature c, k = t * features + c, the evaluator's order; column j is the
// output feature. A[m, k] is the input at (n, s_i * stride_i - pad_low_i +
// w_i * dilation_i, c), zero outside; B[k, j] is the kernel at (w or its
// reversal, c, j). Each depth slice stays within one tap, so a row of A
// over the slice is a contiguous run of input features, read in place.
struct ConvGemm {
  ConvolutionDimensionNumbers dn;
  std::vector<WindowDim> window;
  std::vector<int64_t> in_ext;      // input spatial sizes
  std::vector<int64_t> row_ext;     // [batch, output spatial sizes...]
  std::vector<int64_t> kernel_ext;  // kernel spatial sizes
  int64_t features = 1;             // input features
  int64_t taps = 1;                 // product of kernel_ext
  int64_t chunks = 1;               // depth slices per tap
  // With few input features A is packed instead: each depth slice holds
  // whole taps, `taps_per_slice` of them.
  bool packed = false;
  int64_t taps_per_slice = 1;
  // The taps along the innermost spatial axis read neighbouring input
  // positions (dilation 1, positions one feature run apart), so a kernel
  // row's features form one run of memory.
  bool row_runs = false;
};

// Everything the emitters need, fixed at planning time.
struct GemmPlan {
  DotSite site;
  GemmDims dims;
  GemmTiling tiling;
  PrimitiveType type = PrimitiveType::kF32;
  int64_t n_pad = 0;          // n rounded up to nr
  // Units of the parallel loop: (batch, block of rows, group of columns).
  // Few blocks of rows (a batch of 64) are split by columns too, each
  // group of `group_panels` nr-panels a unit of its own.
  int64_t col_groups = 1;
  int64_t group_panels = 1;
  int64_t units() const { return dims.batch * blocks * col_groups; }
  int64_t ldc() const { return group_panels * tiling.nr(); }  // C slot width
  int64_t blocks = 0;         // row blocks per batch
  int64_t b_bytes = 0;        // packed B in scratch (0 when prepacked)
  int64_t slot_bytes = 0;     // one unit's packed A, C and row origins
  int64_t a_bytes = 0;        // the packed A part of a slot
  bool parallel = false;      // units run as parallel tasks (a slot each)
  bool direct_a = false;      // A's rows are contiguous along k: no packing
  std::shared_ptr<const Literal> packed_b;  // B's panels, when B is constant
  std::optional<ConvGemm> conv;              // set for a convolution
  int64_t row_info_bytes = 0;  // a convolution's per-row origins in a slot
};

// The kernel operand's multi-index of depth k and column j (compile time or
// emitted), for a dot or a convolution.
template <typename T, typename Ops>
std::vector<T> RhsIndex(const GemmPlan& p, const Shape& rhs, T bt, T k, T col,
                        Ops ops) {
  if (!p.conv.has_value()) {
    return Place<T>(rhs.rank(), {{&p.dims.rhs_batch, ops.unflatten(bt, p.dims.batch_ext)},
                                 {&p.dims.rhs_contract, ops.unflatten(k, p.dims.k_ext)},
                                 {&p.dims.rhs_free, ops.unflatten(col, p.dims.n_ext)}});
  }
  const ConvGemm& c = *p.conv;
  std::vector<T> multi(rhs.rank());
  const T tap = ops.div(k, c.features);
  const std::vector<T> w = ops.unflatten(tap, c.kernel_ext);
  for (size_t i = 0; i < w.size(); ++i) {
    multi[c.dn.kernel_spatial[i]] =
        c.window[i].reversal ? ops.sub(c.kernel_ext[i] - 1, w[i]) : w[i];
  }
  multi[c.dn.kernel_input_feature] = ops.rem(k, c.features);
  multi[c.dn.kernel_output_feature] = col;
  return multi;
}

// RhsIndex's arithmetic at compile time and in IR.
struct ConstantOps {
  std::vector<int64_t> unflatten(int64_t v, const std::vector<int64_t>& e) const {
    return UnflattenConstant(v, e);
  }
  int64_t div(int64_t v, int64_t d) const { return v / d; }
  int64_t rem(int64_t v, int64_t d) const { return v % d; }
  int64_t sub(int64_t a, int64_t v) const { return a - v; }
};
struct IrOps {
  llvm::IRBuilderBase& b;
  std::vector<Value*> unflatten(Value* v, const std::vector<int64_t>& e) const {
    return UnflattenRowMajor(b, v, e);
  }
  Value* div(Value* v, int64_t d) const { return b.CreateUDiv(v, b.getInt64(d)); }
  Value* rem(Value* v, int64_t d) const { return b.CreateURem(v, b.getInt64(d)); }
  Value* sub(int64_t a, Value* v) const { return b.CreateSub(b.getInt64(a), v); }
};

// The microkernel, one function per tile and element type:
//   void kernel(ptr rows, ptr b, i64 kc, ptr c, i64 ldc, i1 accumulate)
// C[0..mr, 0..nr) (row stride ldc) = (accumulate ? C : 0) + A * B-panel,
// where row r of A is the kc contiguous elements at rows[r] (a packed
// panel's row, or the operand itself) and the B-panel is kc x nr,
// contiguous.
llvm::Function* Microkernel(ModuleContext& mc, llvm::Type* elem,
                            const GemmTiling& t, bool strict) {
  const std::string name = absl::StrCat(
      mc.prefix(), ".gemm_kernel_", t.mr, "x", t.vectors, "x", t.lanes,
      elem->isDoubleTy() ? "_f64" : "_f32", strict ? "_strict" : "");
  if (llvm::Function* f = mc.module().getFunction(name)) return f;
  llvm::LLVMContext& ctx = mc.context();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  auto* f = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                              {ptr, ptr, i64, ptr, i64,
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
  for (unsigned arg : {1u, 3u}) f->addParamAttr(arg, llvm::Attribute::NoAlias);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
  std::vector<Value*> a_rows(t.mr);
  for (int r = 0; r < t.mr; ++r) {
    a_rows[r] = b.CreateAlignedLoad(
        ptr, b.CreateConstInBoundsGEP1_64(ptr, f->getArg(0), r), llvm::Align(8));
  }
  Value* bp = f->getArg(1);
  Value* kc = f->getArg(2);
  Value* c = f->getArg(3);
  Value* ldc = f->getArg(4);
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
  b.CreateCondBr(f->getArg(5), load_c, body);
  b.SetInsertPoint(load_c);
  for (int r = 0; r < t.mr; ++r) {
    for (int v = 0; v < t.vectors; ++v) {
      b.CreateStore(b.CreateAlignedLoad(vt, c_at(r, v), align),
                    acc[r * t.vectors + v]);
    }
  }
  b.CreateBr(body);
  b.SetInsertPoint(body);
  // One rank-1 update: a row of the b-panel times a column of the a-panel.
  auto step = [&](Value* k) {
    Value* brow = b.CreateInBoundsGEP(elem, bp, b.CreateMul(k, b.getInt64(t.nr())));
    std::vector<Value*> bv(t.vectors);
    for (int v = 0; v < t.vectors; ++v) {
      bv[v] = b.CreateAlignedLoad(
          vt, b.CreateConstInBoundsGEP1_64(elem, brow, int64_t{v} * t.lanes),
          align);
    }
    for (int r = 0; r < t.mr; ++r) {
      Value* x = b.CreateAlignedLoad(
          elem, b.CreateInBoundsGEP(elem, a_rows[r], k), align);
      if (t.lanes > 1) x = b.CreateVectorSplat(t.lanes, x);
      for (int v = 0; v < t.vectors; ++v) {
        llvm::AllocaInst* slot = acc[r * t.vectors + v];
        Value* old = b.CreateLoad(vt, slot);
        Value* sum =
            strict ? b.CreateFAdd(old, b.CreateFMul(x, bv[v]))
                   : b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {vt},
                                       {x, bv[v], old});
        b.CreateStore(sum, slot);
      }
    }
  };
  // Four updates per iteration, then the rest.
  constexpr int kUnroll = 4;
  EmitForLoop(b, b.getInt64(0), b.CreateLShr(kc, 2), "k4", [&](Value* q) {
    Value* k0 = b.CreateShl(q, 2);
    for (int u = 0; u < kUnroll; ++u) step(b.CreateAdd(k0, b.getInt64(u)));
  });
  EmitForLoop(b, b.CreateAnd(kc, b.getInt64(~int64_t{kUnroll - 1})), kc, "k",
              step);
  for (int r = 0; r < t.mr; ++r) {
    for (int v = 0; v < t.vectors; ++v) {
      b.CreateAlignedStore(b.CreateLoad(vt, acc[r * t.vectors + v]),
                           c_at(r, v), align);
    }
  }
  b.CreateRetVoid();
  return f;
}

// Reads B at (batch, depth, column) through its generator.
absl::StatusOr<Value*> ReadB(llvm::IRBuilderBase& b, const GemmPlan& p,
                             const LoopArgs& a, Value* bt, Value* k,
                             Value* col) {
  Index index;
  index.multi = RhsIndex<Value*>(p, p.site.dot->operand(1)->shape(), bt, k,
                                 col, IrOps{b});
  return a.ops[p.site.rhs][0](index);
}

absl::StatusOr<Value*> ReadA(llvm::IRBuilderBase& b, const GemmPlan& p,
                             const LoopArgs& a, Value* bt, Value* row,
                             Value* k) {
  const Shape& lhs = p.site.dot->operand(0)->shape();
  Index index;
  index.multi = Place<Value*>(
      lhs.rank(), {{&p.dims.lhs_batch, UnflattenRowMajor(b, bt, p.dims.batch_ext)},
                   {&p.dims.lhs_contract, UnflattenRowMajor(b, k, p.dims.k_ext)},
                   {&p.dims.lhs_free, UnflattenRowMajor(b, row, p.dims.m_ext)}});
  return a.ops[p.site.lhs][0](index);
}

// Stops the emission of a loop body at the first error.
struct FirstError {
  absl::Status status;
  bool Take(absl::Status s) {
    if (status.ok() && !s.ok()) status = std::move(s);
    return status.ok();
  }
  template <typename T>
  bool Take(absl::StatusOr<T>& s) {
    return Take(s.ok() ? absl::OkStatus() : s.status());
  }
};

// The prologue: every batch's B into panels of nr columns at `bp`, panel q
// of batch bt at element ((bt * n_pad + q * nr) * k), row-major k x nr,
// zero beyond column n.
absl::Status PackB(const LoopArgs& a, const GemmPlan& p, Value* bp) {
  llvm::IRBuilderBase& b = a.b;
  llvm::Type* elem = ComputeType(b.getContext(), p.type);
  const int64_t nr = p.tiling.nr();
  const int64_t n = p.dims.n;
  const int64_t k = p.dims.k;
  FirstError err;
  auto panel = [&](Value* bt, Value* q, bool edge) {
    Value* base = b.CreateMul(
        b.CreateAdd(b.CreateMul(bt, b.getInt64(p.n_pad)),
                    b.CreateMul(q, b.getInt64(nr))),
        b.getInt64(k));
    EmitForLoop(b, b.getInt64(0), b.getInt64(k), "gemm.pack_b.k", [&](Value* kk) {
      EmitForLoop(b, b.getInt64(0), b.getInt64(nr), "gemm.pack_b.j",
                  [&](Value* j) {
        if (!err.status.ok()) return;
        Value* col = b.CreateAdd(b.CreateMul(q, b.getInt64(nr)), j);
        Value* valid = nullptr;
        if (edge) {
          valid = b.CreateICmpULT(col, b.getInt64(n));
          col = b.CreateSelect(valid, col, b.getInt64(n - 1));
        }
        absl::StatusOr<Value*> v = ReadB(b, p, a, bt, kk, col);
        if (!err.Take(v)) return;
        Value* x = *v;
        if (edge) x = b.CreateSelect(valid, x, llvm::ConstantFP::get(elem, 0));
        b.CreateAlignedStore(
            x,
            b.CreateInBoundsGEP(
                elem, bp,
                b.CreateAdd(base, b.CreateAdd(b.CreateMul(kk, b.getInt64(nr)), j))),
            llvm::Align(StorageBytes(p.type)));
      });
    });
  };
  EmitForLoop(b, b.getInt64(0), b.getInt64(p.dims.batch), "gemm.pack_b",
              [&](Value* bt) {
    EmitForLoop(b, b.getInt64(0), b.getInt64(n / nr), "gemm.pack_b.q",
                [&](Value* q) { panel(bt, q, false); });
    if (n % nr != 0) panel(bt, b.getInt64(n / nr), true);
  });
  return err.status;
}

// B's panels computed at compile time from the constant operand, in the
// layout PackB writes.
std::shared_ptr<const Literal> PackConstantB(const GemmPlan& p,
                                             const Literal& rhs) {
  const PrimitiveType src = rhs.shape().element_type();
  if (rhs.elided() || (src != p.type && !(src == PrimitiveType::kBF16 &&
                                          p.type == PrimitiveType::kF32))) {
    return nullptr;
  }
  const int64_t nr = p.tiling.nr();
  const int64_t total = p.dims.batch * p.n_pad * p.dims.k;
  auto packed = std::make_shared<Literal>(Shape::Array(p.type, {total}));
  const Shape& shape = rhs.shape();
  std::vector<int64_t> strides(shape.rank(), 1);
  for (int64_t d = shape.rank() - 1; d > 0; --d) {
    strides[d - 1] = strides[d] * shape.dimensions(d);
  }
  auto value = [&](int64_t linear) -> double {
    if (src == PrimitiveType::kF64) return rhs.Get<double>(linear);
    if (src == PrimitiveType::kF32) return rhs.Get<float>(linear);
    const uint32_t bits = uint32_t{rhs.Get<uint16_t>(linear)} << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  };
  for (int64_t bt = 0; bt < p.dims.batch; ++bt) {
    for (int64_t kk = 0; kk < p.dims.k; ++kk) {
      for (int64_t col = 0; col < p.dims.n; ++col) {
        const std::vector<int64_t> multi =
            RhsIndex<int64_t>(p, shape, bt, kk, col, ConstantOps{});
        int64_t linear = 0;
        for (int64_t d = 0; d < shape.rank(); ++d) linear += multi[d] * strides[d];
        const int64_t at =
            (bt * p.n_pad + col / nr * nr) * p.dims.k + kk * nr + col % nr;
        if (p.type == PrimitiveType::kF64) {
          packed->Set<double>(at, value(linear));
        } else {
          packed->Set<float>(at, static_cast<float>(value(linear)));
        }
      }
    }
  }
  return packed;
}

// A read-only row of `count` zeros: what a convolution's A row reads where
// the window falls outside the input.
Value* ZeroRow(ModuleContext& mc, llvm::Type* elem, int64_t count) {
  const std::string name =
      absl::StrCat(mc.prefix(), ".gemm_zeros_", elem->isDoubleTy() ? "f64_" : "f32_",
                   count);
  if (llvm::GlobalVariable* g = mc.module().getNamedGlobal(name)) return g;
  llvm::Type* type = llvm::ArrayType::get(elem, count);
  auto* g = new llvm::GlobalVariable(mc.module(), type, /*isConstant=*/true,
                                     llvm::GlobalValue::InternalLinkage,
                                     llvm::Constant::getNullValue(type), name);
  g->setAlignment(llvm::Align(64));
  return g;
}

// For each row r of the block (clamped to m - 1): the element offset of the
// window's origin in the input, o = n * stride_n + sum_i origin_i *
// stride_i (signed), then origin_i = s_i * stride - pad_low per spatial
// axis; 1 + spatial i64 values per row at `info`.
void FillRowOrigins(llvm::IRBuilderBase& b, const GemmPlan& p,
                    const IrArray& input, Value* i0, Value* panels,
                    Value* info) {
  const ConvGemm& c = *p.conv;
  const std::vector<int64_t> strides = PhysicalStrides(input.shape());
  const size_t fields = 1 + c.window.size();
  EmitForLoop(b, b.getInt64(0), b.CreateMul(panels, b.getInt64(p.tiling.mr)),
              "gemm.conv_rows", [&](Value* r) {
    Value* row = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.CreateAdd(i0, r),
                                         b.getInt64(p.dims.m - 1));
    const std::vector<Value*> rc = UnflattenRowMajor(b, row, c.row_ext);
    Value* at = b.CreateMul(r, b.getInt64(fields));
    Value* offset = b.CreateMul(rc[0], b.getInt64(strides[c.dn.input_batch]));
    for (size_t i = 0; i < c.window.size(); ++i) {
      Value* origin = b.CreateSub(
          b.CreateMul(rc[i + 1], b.getInt64(c.window[i].stride)),
          b.getInt64(c.window[i].pad_low));
      offset = b.CreateAdd(
          offset, b.CreateMul(origin, b.getInt64(strides[c.dn.input_spatial[i]])));
      b.CreateStore(origin, b.CreateInBoundsGEP(
                                b.getInt64Ty(), info,
                                b.CreateAdd(at, b.getInt64(1 + i))));
    }
    b.CreateStore(offset, b.CreateInBoundsGEP(b.getInt64Ty(), info, at));
  });
}

// Row r of A over the depth slice [tap, feature c0...): the input's feature
// run at the window position, or the zero row where it falls outside.
Value* ConvRowPointer(llvm::IRBuilderBase& b, const GemmPlan& p,
                      const IrArray& input, Value* info, Value* r,
                      const std::vector<Value*>& tap_at, Value* c0,
                      Value* zeros) {
  const ConvGemm& c = *p.conv;
  const std::vector<int64_t> strides = PhysicalStrides(input.shape());
  const size_t fields = 1 + c.window.size();
  Value* at = b.CreateMul(r, b.getInt64(fields));
  Value* offset = b.CreateLoad(b.getInt64Ty(),
                               b.CreateInBoundsGEP(b.getInt64Ty(), info, at));
  Value* inside = b.getTrue();
  for (size_t i = 0; i < c.window.size(); ++i) {
    Value* origin = b.CreateLoad(
        b.getInt64Ty(),
        b.CreateInBoundsGEP(b.getInt64Ty(), info, b.CreateAdd(at, b.getInt64(1 + i))));
    Value* pos = b.CreateAdd(origin, tap_at[i]);
    // 0 <= pos < size, as one unsigned compare.
    inside = b.CreateAnd(inside, b.CreateICmpULT(pos, b.getInt64(c.in_ext[i])));
    offset = b.CreateAdd(
        offset, b.CreateMul(tap_at[i], b.getInt64(strides[c.dn.input_spatial[i]])));
  }
  offset = b.CreateAdd(offset, b.CreateMul(c0, b.getInt64(strides[c.dn.input_feature])));
  llvm::Type* elem = ComputeType(b.getContext(), p.type);
  // Outside the input the offset is meaningless; the pointer is never used.
  Value* in_ptr = b.CreateGEP(elem, input.base(), offset);
  return b.CreateSelect(inside, in_ptr, zeros);
}

// A convolution's window offset of kernel tap `tap` (row-major over the
// kernel's spatial dimensions) per spatial axis: w_i * dilation_i.
std::vector<Value*> WindowOffsets(llvm::IRBuilderBase& b, const ConvGemm& c,
                                  Value* tap) {
  std::vector<Value*> at;
  const std::vector<Value*> w = UnflattenRowMajor(b, tap, c.kernel_ext);
  for (size_t i = 0; i < w.size(); ++i) {
    at.push_back(b.CreateMul(w[i], b.getInt64(c.window[i].window_dilation)));
  }
  return at;
}

// Copies `count` elements from `src` to `dst`: a memcpy of constant size,
// which LLVM turns into a few vector moves.
void CopyElements(llvm::IRBuilderBase& b, llvm::Type* elem, Value* dst,
                  Value* src, int64_t count) {
  const llvm::Align align(elem->getPrimitiveSizeInBits() / 8);
  b.CreateMemCpy(dst, align, src, align,
                 count * static_cast<int64_t>(align.value()));
}

// A convolution with few input features, its depth slice [pc, pc + kc) of
// whole taps packed for `rows` rows into kc-element rows at `ap`. With
// row runs, a slice holds whole kernel rows (the taps along the innermost
// spatial axis), whose features lie side by side in the input: a row copies
// each kernel row as one run where it falls inside the input, and tap by
// tap (zeros outside) near the edges.
void PackConvTaps(llvm::IRBuilderBase& b, const GemmPlan& p,
                  const IrArray& input, Value* row_info, Value* zeros,
                  Value* ap, Value* pc, Value* kc, Value* rows) {
  const ConvGemm& c = *p.conv;
  llvm::Type* elem = ComputeType(b.getContext(), p.type);
  const int64_t f = c.features;
  const int64_t run_taps = c.row_runs ? c.kernel_ext.back() : 1;
  Value* first = b.CreateUDiv(pc, b.getInt64(f));
  Value* groups = b.CreateUDiv(kc, b.getInt64(f * run_taps));
  const size_t last = c.window.size() - 1;
  EmitForLoop(b, b.getInt64(0), groups, "gemm.pack_taps", [&](Value* g) {
    const std::vector<Value*> at_tap = WindowOffsets(
        b, c, b.CreateAdd(first, b.CreateMul(g, b.getInt64(run_taps))));
    EmitForLoop(b, b.getInt64(0), rows, "gemm.pack_taps.r", [&](Value* r) {
      Value* dst = b.CreateInBoundsGEP(
          elem, ap, b.CreateAdd(b.CreateMul(r, kc),
                                b.CreateMul(g, b.getInt64(run_taps * f))));
      if (run_taps == 1) {
        CopyElements(b, elem, dst,
                     ConvRowPointer(b, p, input, row_info, r, at_tap,
                                    b.getInt64(0), zeros),
                     f);
        return;
      }
      // The whole run inside: every outer axis in range and the innermost
      // origin within [0, size - run_taps].
      Value* fields = b.CreateMul(r, b.getInt64(1 + c.window.size()));
      Value* inside = b.getTrue();
      for (size_t i = 0; i <= last; ++i) {
        Value* origin = b.CreateLoad(
            b.getInt64Ty(), b.CreateInBoundsGEP(b.getInt64Ty(), row_info,
                                                b.CreateAdd(fields, b.getInt64(1 + i))));
        const int64_t room =
            i == last ? c.in_ext[i] - run_taps + 1 : c.in_ext[i];
        inside = b.CreateAnd(
            inside, room > 0 ? b.CreateICmpULT(b.CreateAdd(origin, at_tap[i]),
                                               b.getInt64(room))
                             : b.getFalse());
      }
      llvm::Function* fn = b.GetInsertBlock()->getParent();
      auto* whole = llvm::BasicBlock::Create(b.getContext(), "run.whole", fn);
      auto* edge = llvm::BasicBlock::Create(b.getContext(), "run.edge", fn);
      auto* done = llvm::BasicBlock::Create(b.getContext(), "run.done", fn);
      b.CreateCondBr(inside, whole, edge);
      b.SetInsertPoint(whole);
      CopyElements(b, elem, dst,
                   ConvRowPointer(b, p, input, row_info, r, at_tap,
                                  b.getInt64(0), zeros),
                   run_taps * f);
      b.CreateBr(done);
      b.SetInsertPoint(edge);
      EmitForLoop(b, b.getInt64(0), b.getInt64(run_taps), "run.tap", [&](Value* w) {
        std::vector<Value*> at = at_tap;
        at[last] = b.CreateAdd(at[last], w);
        CopyElements(b, elem,
                     b.CreateInBoundsGEP(elem, dst, b.CreateMul(w, b.getInt64(f))),
                     ConvRowPointer(b, p, input, row_info, r, at, b.getInt64(0),
                                    zeros),
                     f);
      });
      b.CreateBr(done);
      b.SetInsertPoint(done);
    });
  });
}

absl::Status EmitGemm(const LoopArgs& a, const GemmPlan& p) {
  llvm::IRBuilderBase& b = a.b;
  llvm::LLVMContext& ctx = b.getContext();
  llvm::Type* elem = ComputeType(ctx, p.type);
  const GemmTiling& t = p.tiling;
  const int64_t eb = StorageBytes(p.type);
  const int64_t m = p.dims.m, n = p.dims.n, k = p.dims.k;
  const int64_t nr = t.nr();
  llvm::Function* kernel = Microkernel(a.mc, elem, t, a.mc.strict_fp());
  Value* bp = p.packed_b != nullptr ? a.mc.ConstantGlobal(*p.packed_b) : a.scratch;
  Value* slots = b.CreateInBoundsGEP(b.getInt8Ty(), a.scratch,
                                     b.getInt64(p.b_bytes));
  ElementalEmitter emitter(a.mc, b);
  FirstError err;
  // A read in place when the plan allows it and the operand is in memory.
  const IrArray* lhs_array = a.ins != nullptr ? &(*a.ins)[p.site.lhs][0] : nullptr;
  const IrArray* direct_a = p.direct_a && !p.conv ? lhs_array : nullptr;
  const IrArray* conv_a = p.conv ? lhs_array : nullptr;
  if (p.conv && conv_a == nullptr) {
    return absl::InternalError("gemm: a convolution's input is not in memory");
  }
  Value* zeros = p.conv ? ZeroRow(a.mc, elem, t.kc) : nullptr;
  llvm::Type* ptr_type = llvm::PointerType::getUnqual(ctx);
  llvm::AllocaInst* rows_array =
      EntryAlloca(b, llvm::ArrayType::get(ptr_type, t.mr), "gemm.rows");
  auto at = [&](Value* base, Value* offset) {
    return b.CreateInBoundsGEP(elem, base, offset);
  };
  EmitForLoop(
      b, a.begin ? a.begin : b.getInt64(0),
      a.end ? a.end : b.getInt64(p.units()), "gemm.block",
      [&](Value* u) {
        Value* cg = b.CreateURem(u, b.getInt64(p.col_groups));
        Value* block = b.CreateUDiv(u, b.getInt64(p.col_groups));
        Value* bt = b.CreateUDiv(block, b.getInt64(p.blocks));
        Value* i0 = b.CreateMul(b.CreateURem(block, b.getInt64(p.blocks)),
                                b.getInt64(t.mc));
        // The unit's nr-panels [q0, q1) and columns [j0, j1).
        Value* q0 = b.CreateMul(cg, b.getInt64(p.group_panels));
        Value* q1 = b.CreateBinaryIntrinsic(
            llvm::Intrinsic::umin, b.CreateAdd(q0, b.getInt64(p.group_panels)),
            b.getInt64(p.n_pad / nr));
        Value* j0 = b.CreateMul(q0, b.getInt64(nr));
        Value* j1 = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin,
                                            b.CreateMul(q1, b.getInt64(nr)),
                                            b.getInt64(n));
        Value* rows = b.CreateBinaryIntrinsic(
            llvm::Intrinsic::umin, b.getInt64(t.mc), b.CreateSub(b.getInt64(m), i0));
        Value* panels = b.CreateUDiv(b.CreateAdd(rows, b.getInt64(t.mr - 1)),
                                     b.getInt64(t.mr));
        Value* slot = b.CreateInBoundsGEP(
            b.getInt8Ty(), slots,
            b.CreateMul(p.parallel ? u : b.getInt64(0), b.getInt64(p.slot_bytes)));
        Value* ap = slot;
        Value* cs = b.CreateInBoundsGEP(b.getInt8Ty(), slot, b.getInt64(p.a_bytes));
        Value* row_info = b.CreateInBoundsGEP(
            b.getInt8Ty(), cs, b.getInt64(p.slot_bytes - p.a_bytes - p.row_info_bytes));
        if (conv_a != nullptr) FillRowOrigins(b, p, *conv_a, i0, panels, row_info);
        // Depth slices: [pc, pc + kc) of K; a convolution's stay within a tap.
        const int64_t slices =
            !p.conv          ? (k + t.kc - 1) / t.kc
            : p.conv->packed ? (p.conv->taps + p.conv->taps_per_slice - 1) /
                                   p.conv->taps_per_slice
                             : p.conv->taps * p.conv->chunks;
        EmitForLoop(b, b.getInt64(0), b.getInt64(slices), "gemm.kslice", [&](Value* s) {
          Value* pc;
          Value* kc;
          Value* tap = nullptr;
          Value* c0 = nullptr;
          if (p.conv && p.conv->packed) {
            pc = b.CreateMul(s, b.getInt64(t.kc));
            kc = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.getInt64(t.kc),
                                         b.CreateSub(b.getInt64(k), pc));
          } else if (p.conv) {
            tap = b.CreateUDiv(s, b.getInt64(p.conv->chunks));
            c0 = b.CreateMul(b.CreateURem(s, b.getInt64(p.conv->chunks)),
                             b.getInt64(t.kc));
            pc = b.CreateAdd(b.CreateMul(tap, b.getInt64(p.conv->features)), c0);
            kc = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.getInt64(t.kc),
                                         b.CreateSub(b.getInt64(p.conv->features), c0));
          } else {
            pc = b.CreateMul(s, b.getInt64(t.kc));
            kc = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.getInt64(t.kc),
                                         b.CreateSub(b.getInt64(k), pc));
          }
          // A convolution's window offset of this tap, per spatial axis.
          std::vector<Value*> tap_at;
          if (p.conv && !p.conv->packed) tap_at = WindowOffsets(b, *p.conv, tap);
          if (p.conv && p.conv->packed) {
            PackConvTaps(b, p, *conv_a, row_info, zeros, ap, pc, kc,
                         b.CreateMul(panels, b.getInt64(t.mr)));
          }
          // Row r of A's block at depths [pc, pc + kc): straight from the
          // operand when its rows are contiguous along k, else packed into
          // the slot's kc-element rows. Rows past m repeat row m - 1; their
          // accumulators are never written out.
          auto clamped_row = [&](Value* r) {
            return b.CreateBinaryIntrinsic(llvm::Intrinsic::umin,
                                           b.CreateAdd(i0, r),
                                           b.getInt64(m - 1));
          };
          auto a_row = [&](Value* r) -> Value* {
            if (conv_a != nullptr && !p.conv->packed) {
              return ConvRowPointer(b, p, *conv_a, row_info, r, tap_at, c0,
                                    zeros);
            }
            if (direct_a != nullptr) {
              Index index;
              index.multi = Place<Value*>(
                  direct_a->shape().rank(),
                  {{&p.dims.lhs_batch, UnflattenRowMajor(b, bt, p.dims.batch_ext)},
                   {&p.dims.lhs_contract, {pc}},
                   {&p.dims.lhs_free, UnflattenRowMajor(b, clamped_row(r), p.dims.m_ext)}});
              return direct_a->ElementPointer(b, index);
            }
            return at(ap, b.CreateMul(r, kc));
          };
          if (direct_a == nullptr && conv_a == nullptr) {
            EmitForLoop(b, b.getInt64(0), b.CreateMul(panels, b.getInt64(t.mr)),
                        "gemm.pack_a", [&](Value* r) {
              Value* row = clamped_row(r);
              Value* dst = at(ap, b.CreateMul(r, kc));
              EmitForLoop(b, b.getInt64(0), kc, "gemm.pack_a.k", [&](Value* kk) {
                if (!err.status.ok()) return;
                absl::StatusOr<Value*> v = ReadA(b, p, a, bt, row, b.CreateAdd(pc, kk));
                if (!err.Take(v)) return;
                b.CreateAlignedStore(*v, at(dst, kk), llvm::Align(eb));
              });
            });
          }
          // The tiles: each nr-panel of B against each mr-panel of A.
          EmitForLoop(b, q0, q1, "gemm.jr", [&](Value* jq) {
            Value* bpanel = at(
                bp, b.CreateAdd(
                        b.CreateMul(b.CreateAdd(b.CreateMul(bt, b.getInt64(p.n_pad)),
                                                b.CreateMul(jq, b.getInt64(nr))),
                                    b.getInt64(k)),
                        b.CreateMul(pc, b.getInt64(nr))));
            EmitForLoop(b, b.getInt64(0), panels, "gemm.ir", [&](Value* iq) {
              for (int r = 0; r < t.mr; ++r) {
                b.CreateAlignedStore(
                    a_row(b.CreateAdd(b.CreateMul(iq, b.getInt64(t.mr)), b.getInt64(r))),
                    b.CreateConstInBoundsGEP1_64(ptr_type, rows_array, r),
                    llvm::Align(8));
              }
              Value* ctile = at(
                  cs, b.CreateAdd(b.CreateMul(iq, b.getInt64(t.mr * p.ldc())),
                                  b.CreateMul(b.CreateSub(jq, q0), b.getInt64(nr))));
              b.CreateCall(kernel, {rows_array, bpanel, kc, ctile, b.getInt64(p.ldc()),
                                    b.CreateICmpNE(s, b.getInt64(0))});
            });
          });
        });
        // The block's rows from their accumulators, through the epilogue.
        EmitForLoop(b, b.getInt64(0), rows, "gemm.out", [&](Value* r) {
          Value* row = b.CreateAdd(i0, r);
          EmitForLoop(b, j0, j1, "gemm.out.j", [&](Value* j) {
            if (!err.status.ok()) return;
            Value* sum = b.CreateAlignedLoad(
                elem,
                at(cs, b.CreateAdd(b.CreateMul(r, b.getInt64(p.ldc())),
                                   b.CreateSub(j, j0))),
                llvm::Align(eb));
            Index o;
            const IrArray& out = a.out[0];
            if (p.conv) {
              const ConvolutionDimensionNumbers& dn = p.conv->dn;
              const std::vector<Value*> rc = UnflattenRowMajor(b, row, p.conv->row_ext);
              o.multi.resize(out.shape().rank());
              o.multi[dn.output_batch] = rc[0];
              for (size_t i = 0; i < dn.output_spatial.size(); ++i) {
                o.multi[dn.output_spatial[i]] = rc[i + 1];
              }
              o.multi[dn.output_feature] = j;
            } else {
              for (const auto& [flat, extents] :
                   {std::pair{bt, &p.dims.batch_ext}, std::pair{row, &p.dims.m_ext},
                    std::pair{j, &p.dims.n_ext}}) {
                for (Value* c : UnflattenRowMajor(b, flat, *extents)) o.multi.push_back(c);
              }
            }
            if (!p.conv && out.shape().HasDefaultLayout()) {
              o.linear = b.CreateAdd(
                  b.CreateMul(b.CreateAdd(b.CreateMul(bt, b.getInt64(m)), row),
                              b.getInt64(n)),
                  j);
              o.shape = &out.shape();
            }
            absl::StatusOr<Value*> v = EmitDotEpilogue(emitter, a, p.site, sum, o);
            if (!err.Take(v)) return;
            out.Write(b, o, *v);
          });
        });
      });
  return err.status;
}

// The convolutions the gemm takes: one feature and batch group, no input
// dilation, input features contiguous (the most minor dimension) and of the
// result's type, so that a row of A over one tap's features is a run of
// memory, read in place;
// with fewer than 8 input features a slice would be too shallow, so A is
// packed, whole taps per slice.
std::optional<ConvGemm> DescribeConvolution(const Instruction& conv) {
  const InstructionAttributes& attrs = conv.attrs();
  const Shape& lhs = conv.operand(0)->shape();
  const Shape& rhs = conv.operand(1)->shape();
  const PrimitiveType type = conv.shape().element_type();
  if (attrs.feature_group_count != 1 || attrs.batch_group_count != 1 ||
      lhs.element_type() != type || rhs.element_type() != type ||
      lhs.rank() == 0 || !conv.shape().IsArray()) {
    return std::nullopt;
  }
  absl::StatusOr<Shape> inferred = InferShape(conv);
  if (!inferred.ok() || !inferred->SameDimensions(conv.shape())) {
    return std::nullopt;  // the element loops report it
  }
  ConvGemm c;
  c.dn = attrs.conv_dnums;
  c.window = attrs.window;
  if (lhs.layout().minor_to_major[0] != c.dn.input_feature ||
      c.window.size() != c.dn.input_spatial.size()) {
    return std::nullopt;
  }
  c.features = lhs.dimensions(c.dn.input_feature);
  c.packed = c.features < 8;
  c.row_runs = !c.window.empty() && c.window.back().window_dilation == 1 &&
               PhysicalStrides(lhs)[c.dn.input_spatial.back()] == c.features;
  c.row_ext.push_back(conv.shape().dimensions(c.dn.output_batch));
  for (size_t i = 0; i < c.window.size(); ++i) {
    if (c.window[i].base_dilation != 1) return std::nullopt;
    c.in_ext.push_back(lhs.dimensions(c.dn.input_spatial[i]));
    c.kernel_ext.push_back(rhs.dimensions(c.dn.kernel_spatial[i]));
    c.row_ext.push_back(conv.shape().dimensions(c.dn.output_spatial[i]));
    c.taps *= c.kernel_ext.back();
  }
  return c;
}

bool OperandComputesAs(PrimitiveType operand, PrimitiveType result) {
  if (result == PrimitiveType::kF64) return operand == PrimitiveType::kF64;
  return operand == PrimitiveType::kF32 || operand == PrimitiveType::kBF16 ||
         operand == PrimitiveType::kF16;
}

}  // namespace

GemmTiling ChooseGemmTiling(int element_bytes, const TargetInfo& target,
                            int64_t m, int64_t k) {
  GemmTiling t;
  t.lanes = target.vector_bytes >= 2 * element_bytes
                ? target.vector_bytes / element_bytes
                : 1;
  // The tile with the most multiply-adds per value loaded, among those
  // whose accumulators, a row of B and a broadcast fit in the registers.
  double best = 0;
  for (int vectors = 1; vectors <= 4; ++vectors) {
    const int mr = std::min(16, (target.vector_registers - vectors - 1) / vectors);
    if (mr < 1) continue;
    const double reuse = double(mr) * vectors / (mr + vectors);
    if (reuse > best) {
      best = reuse;
      t.mr = mr;
      t.vectors = vectors;
    }
  }
  const int64_t nr_bytes = t.nr() * element_bytes;
  t.kc = std::clamp<int64_t>(target.l1_bytes / 2 / nr_bytes, 64, 512);
  t.kc = std::min(t.kc, k);
  int64_t mc = std::max<int64_t>(t.mr, target.l2_bytes / 2 / (t.kc * element_bytes));
  // Enough blocks for a few threads when the rows allow it.
  mc = std::min(mc, std::max<int64_t>(64, (m + 3) / 4));
  t.mc = std::min(RoundUp(mc, t.mr), RoundUp(m, t.mr));
  return t;
}

std::optional<StrategyPlan> PlanGemm(const Instruction& inst,
                                     const TargetInfo& target) {
  std::optional<DotSite> site = MatchDotSite(inst);
  if (!site.has_value()) return std::nullopt;
  const Instruction& dot = *site->dot;
  const PrimitiveType type = dot.shape().element_type();
  if ((type != PrimitiveType::kF32 && type != PrimitiveType::kF64) ||
      !OperandComputesAs(dot.operand(0)->shape().element_type(), type) ||
      !OperandComputesAs(dot.operand(1)->shape().element_type(), type)) {
    return std::nullopt;
  }
  auto g = std::make_shared<GemmPlan>();
  g->site = *site;
  g->type = type;
  if (dot.opcode() == Opcode::kConvolution) {
    std::optional<ConvGemm> conv = DescribeConvolution(dot);
    if (!conv.has_value()) return std::nullopt;
    g->conv = std::move(conv);
    g->dims.m = 1;
    for (int64_t e : g->conv->row_ext) g->dims.m *= e;
    g->dims.n = dot.operand(1)->shape().dimensions(g->conv->dn.kernel_output_feature);
    g->dims.k = g->conv->taps * g->conv->features;
  } else {
    g->dims = DescribeDot(dot);
  }
  const GemmDims& d = g->dims;
  if (d.m < kGemmMinRows || d.n < kMinColumns || d.k < kMinDepth ||
      d.batch * d.m * d.n * d.k < kMinWork) {
    return std::nullopt;
  }
  const int eb = StorageBytes(type);
  // A convolution's depth slices stay within one tap's features.
  g->tiling = ChooseGemmTiling(
      eb, target, d.m, g->conv && !g->conv->packed ? g->conv->features : d.k);
  GemmTiling& t = g->tiling;
  if (g->conv && g->conv->packed) {
    ConvGemm& c = *g->conv;
    const int64_t run = c.row_runs ? c.kernel_ext.back() : 1;
    c.taps_per_slice = std::max<int64_t>(1, t.kc / (c.features * run)) * run;
    t.kc = c.taps_per_slice * c.features;
  } else if (g->conv) {
    g->conv->chunks = (g->conv->features + t.kc - 1) / t.kc;
  }
  if (g->conv) {
    g->row_info_bytes =
        AlignUp(t.mc * (1 + static_cast<int64_t>(g->conv->window.size())) * 8);
  }
  g->n_pad = RoundUp(d.n, t.nr());
  g->blocks = (d.m + t.mc - 1) / t.mc;
  const Instruction* rhs = inst.operand(site->rhs);
  if (rhs->opcode() == Opcode::kConstant) {
    g->packed_b = PackConstantB(*g, rhs->literal());
  }
  // A's rows can be read in place when its one contracting dimension is the
  // most minor and it holds the result's type.
  const Shape& lhs = dot.operand(0)->shape();
  g->direct_a = !g->conv && d.lhs_contract.size() == 1 && lhs.rank() > 0 &&
                lhs.layout().minor_to_major[0] == d.lhs_contract[0] &&
                lhs.element_type() == type;
  g->b_bytes =
      g->packed_b != nullptr ? 0 : AlignUp(d.batch * g->n_pad * d.k * eb);
  g->a_bytes = g->direct_a || (g->conv && !g->conv->packed)
                   ? 0
                   : AlignUp(t.mc * t.kc * eb);
  // Fewer than kMinUnits blocks of rows: columns are split too, if the
  // units can then run in parallel.
  constexpr int64_t kMinUnits = 4;
  const int64_t panels = g->n_pad / t.nr();
  StrategyPlan plan;
  plan.name = "gemm";
  for (const bool split_columns : {true, false}) {
    g->col_groups = 1;
    if (split_columns && d.batch * g->blocks < kMinUnits) {
      g->col_groups = std::min(panels, (kMinUnits + d.batch * g->blocks - 1) /
                                           (d.batch * g->blocks));
    }
    g->group_panels = (panels + g->col_groups - 1) / g->col_groups;
    g->col_groups = (panels + g->group_panels - 1) / g->group_panels;
    plan.own_loop_shape = std::make_shared<const Shape>(
        Shape::Array(PrimitiveType::kF32, {g->units()}));
    plan.loop_shape = plan.own_loop_shape.get();
    plan.work_per_element = t.mc * g->ldc() * d.k;
    g->parallel = ChooseParallelSplit(plan).has_value();
    if (g->parallel || g->col_groups == 1) break;
  }
  g->slot_bytes = g->a_bytes + AlignUp(t.mc * g->ldc() * eb) + g->row_info_bytes;
  plan.scratch_bytes =
      g->b_bytes + (g->parallel ? g->units() : 1) * g->slot_bytes;
  if (g->packed_b == nullptr) {
    plan.prologue = [g](const LoopArgs& a) { return PackB(a, *g, a.scratch); };
  }
  plan.emit = [g](const LoopArgs& a) { return EmitGemm(a, *g); };
  return plan;
}

}  // namespace aotc::codegen
