// The gemm strategy's packing (see pack.h): operands read through their
// generators into B's panels, a feature-major convolution's kernel rows and
// A's rows of a block, or packed at compile time when B is a constant.
#include "codegen/strategies/gemm/pack.h"

#include <cstring>
#include <memory>
#include <vector>

#include "codegen/emit/ir_types.h"
#include "compiler/support/status_macros.h"
#include "llvm/IR/Intrinsics.h"

namespace aotc::codegen {

using llvm::Value;

namespace {

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

// The kernel operand's multi-index of depth k and column j (compile time or
// emitted), for a dot or a convolution: batch bt is a convolution's feature
// group, whose columns are output features from bt * group_outputs (a
// feature-major product reads its kernel rows with bt 0 and col the output
// feature).
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
  multi[c.dn.kernel_output_feature] =
      ops.add(col, ops.mul(bt, c.interleave * c.group_outputs));
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
  int64_t add(int64_t a, int64_t v) const { return a + v; }
  int64_t mul(int64_t v, int64_t f) const { return v * f; }
};
struct IrOps {
  llvm::IRBuilderBase& b;
  std::vector<Value*> unflatten(Value* v, const std::vector<int64_t>& e) const {
    return UnflattenRowMajor(b, v, e);
  }
  Value* div(Value* v, int64_t d) const { return b.CreateUDiv(v, b.getInt64(d)); }
  Value* rem(Value* v, int64_t d) const { return b.CreateURem(v, b.getInt64(d)); }
  Value* sub(int64_t a, Value* v) const { return b.CreateSub(b.getInt64(a), v); }
  Value* add(Value* a, Value* v) const { return b.CreateAdd(a, v); }
  Value* mul(Value* v, int64_t f) const { return b.CreateMul(v, b.getInt64(f)); }
};


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

// An operand's compute value as a packed element of A (`lhs`) or B.
Value* ToPacked(llvm::IRBuilderBase& b, const GemmPlan& p, Value* v, bool lhs) {
  if (p.groups == DepthGroups::kS8Quads && lhs) return b.CreateXor(v, b.getInt8(0x80));
  // A bf16 operand's compute value is a bf16 value widened (ir_types.h): its
  // top 16 bits are the bf16 bits, with no rounding to do.
  if (p.groups == DepthGroups::kBf16Pairs) {
    return b.CreateTrunc(b.CreateLShr(b.CreateBitCast(v, b.getInt32Ty()), 16),
                         b.getInt16Ty());
  }
  // Widened s8 (or s32) operands of an s32 product.
  if (p.type == PrimitiveType::kS32 && p.groups == DepthGroups::kNone) {
    return b.CreateSExt(v, b.getInt32Ty());
  }
  return ComputeToStorage(b, v, PackedType(p));
}

// Where depth kk of column j sits in its panel: row kk / g of nr groups of
// g depths side by side, column j's group, for groups of g (1: row-major
// kk x nr).
int64_t PanelOffset(const GemmPlan& p, int64_t kk, int64_t j) {
  const int64_t g = p.group();
  return (kk & ~(g - 1)) * p.tiling.nr() + g * j + (kk & (g - 1));
}
Value* PanelOffset(llvm::IRBuilderBase& b, const GemmPlan& p, Value* kk,
                   Value* j) {
  const int64_t g = p.group();
  return b.CreateAdd(
      b.CreateMul(b.CreateAnd(kk, b.getInt64(~(g - 1))),
                  b.getInt64(p.tiling.nr())),
      b.CreateAdd(b.CreateMul(j, b.getInt64(g)),
                  b.CreateAnd(kk, b.getInt64(g - 1))));
}

}  // namespace

Value* InPlace(llvm::IRBuilderBase& b, const GemmPlan& p, const IrArray& operand,
               const std::vector<int64_t>& batch_dims, Value* bt,
               const std::vector<int64_t>& contract_dims, Value* pc,
               const std::vector<int64_t>& free_dims, std::vector<Value*> free) {
  Index index;
  index.multi = Place<Value*>(operand.shape().rank(),
                              {{&batch_dims, UnflattenRowMajor(b, bt, p.dims.batch_ext)},
                               {&contract_dims, {pc}},
                               {&free_dims, std::move(free)}});
  return operand.ElementPointer(b, index);
}

absl::Status PackB(const LoopArgs& a, const GemmPlan& p, Value* bp) {
  llvm::IRBuilderBase& b = a.b;
  llvm::Type* elem = StorageType(b.getContext(), PackedType(p));
  const llvm::Align align(StorageBytes(PackedType(p)));
  const int64_t nr = p.tiling.nr();
  const int64_t n = p.dims.n;
  const int64_t k = p.dims.k;
  auto panel_base = [&](Value* bt, Value* q) {
    return b.CreateMul(b.CreateAdd(b.CreateMul(bt, b.getInt64(p.n_pad)),
                                   b.CreateMul(q, b.getInt64(nr))),
                       b.getInt64(p.k_pad));
  };
  auto panel = [&](Value* bt, Value* q, bool edge) -> absl::Status {
    Value* base = panel_base(bt, q);
    auto store = [&](Value* kk, Value* j, Value* x) {
      b.CreateAlignedStore(
          x, b.CreateInBoundsGEP(elem, bp, b.CreateAdd(base, PanelOffset(b, p, kk, j))),
          align);
    };
    // A panel row's nr values are all read before any is stored, so that
    // LLVM can make one vector load and store of them (the packed panel
    // might alias the operand as far as it knows, which keeps interleaved
    // scalar copies scalar).
    RETURN_IF_ERROR(EmitForLoop(
        b, b.getInt64(0), b.getInt64(k), "gemm.pack_b.k",
        [&](Value* kk) -> absl::Status {
      std::vector<Value*> row(nr);
      for (int64_t j = 0; j < nr; ++j) {
        Value* col = b.CreateAdd(b.CreateMul(q, b.getInt64(nr)), b.getInt64(j));
        Value* valid = nullptr;
        if (edge) {
          valid = b.CreateICmpULT(col, b.getInt64(n));
          col = b.CreateSelect(valid, col, b.getInt64(n - 1));
        }
        ASSIGN_OR_RETURN(Value * v, ReadB(b, p, a, bt, kk, col));
        row[j] = ToPacked(b, p, v, /*lhs=*/false);
        if (edge) {
          row[j] = b.CreateSelect(valid, row[j], llvm::Constant::getNullValue(elem));
        }
      }
      for (int64_t j = 0; j < nr; ++j) store(kk, b.getInt64(j), row[j]);
      return absl::OkStatus();
    }));
    if (p.k_pad > k) {
      EmitForLoop(b, b.getInt64(k), b.getInt64(p.k_pad), "gemm.pack_b.pad",
                  [&](Value* kk) {
        EmitForLoop(b, b.getInt64(0), b.getInt64(nr), "gemm.pack_b.pad_j",
                    [&](Value* j) {
          store(kk, j, llvm::Constant::getNullValue(elem));
        });
      });
    }
    return absl::OkStatus();
  };
  RETURN_IF_ERROR(EmitForLoop(
      b, b.getInt64(0), b.getInt64(p.dims.batch), "gemm.pack_b",
      [&](Value* bt) -> absl::Status {
    RETURN_IF_ERROR(EmitForLoop(b, b.getInt64(0), b.getInt64(n / nr),
                                "gemm.pack_b.q",
                                [&](Value* q) { return panel(bt, q, false); }));
    if (n % nr != 0) return panel(bt, b.getInt64(n / nr), true);
    return absl::OkStatus();
  }));
  if (p.groups != DepthGroups::kS8Quads) return absl::OkStatus();
  // The column offsets, from the packed panels (zero past n and k).
  Value* offsets = b.CreateInBoundsGEP(b.getInt8Ty(), bp, b.getInt64(p.packed_b_bytes));
  llvm::Type* i32 = b.getInt32Ty();
  EmitForLoop(b, b.getInt64(0), b.getInt64(p.dims.batch * p.n_pad),
              "gemm.column_offsets", [&](Value* col) {
    Value* bt = b.CreateUDiv(col, b.getInt64(p.n_pad));
    Value* j = b.CreateURem(col, b.getInt64(p.n_pad));
    Value* base = panel_base(bt, b.CreateUDiv(j, b.getInt64(nr)));
    Value* jr = b.CreateURem(j, b.getInt64(nr));
    llvm::AllocaInst* sum = EntryAlloca(b, i32, "gemm.column_sum");
    b.CreateStore(b.getInt32(0), sum);
    EmitForLoop(b, b.getInt64(0), b.getInt64(k), "gemm.column_sum.k", [&](Value* kk) {
      Value* x = b.CreateAlignedLoad(
          elem, b.CreateInBoundsGEP(elem, bp, b.CreateAdd(base, PanelOffset(b, p, kk, jr))),
          align);
      b.CreateStore(b.CreateAdd(b.CreateLoad(i32, sum), b.CreateSExt(x, i32)), sum);
    });
    b.CreateAlignedStore(b.CreateShl(b.CreateLoad(i32, sum), 7),
                         b.CreateInBoundsGEP(i32, offsets, col), llvm::Align(4));
  });
  return absl::OkStatus();
}

absl::Status PackKernelRows(const LoopArgs& a, const GemmPlan& p, Value* ka) {
  llvm::IRBuilderBase& b = a.b;
  llvm::Type* elem = ComputeType(b.getContext(), p.type);
  return EmitForLoop(
      b, b.getInt64(0), b.getInt64(KernelRows(p)), "gemm.pack_kernel",
      [&](Value* i) {
    return EmitForLoop(
        b, b.getInt64(0), b.getInt64(p.dims.k), "gemm.pack_kernel.k",
        [&](Value* kk) -> absl::Status {
      ASSIGN_OR_RETURN(Value * v, ReadB(b, p, a, b.getInt64(0), kk, i));
      b.CreateAlignedStore(
          v,
          b.CreateInBoundsGEP(
              elem, ka, b.CreateAdd(b.CreateMul(i, b.getInt64(p.dims.k)), kk)),
          llvm::Align(StorageBytes(p.type)));
      return absl::OkStatus();
    });
  });
}

void PackConstantB(GemmPlan& p, const Literal& rhs) {
  const PrimitiveType src = rhs.shape().element_type();
  const PrimitiveType packed_type = PackedType(p);
  if (rhs.elided() || (src != packed_type && !(src == PrimitiveType::kBF16 &&
                                               packed_type == PrimitiveType::kF32))) {
    return;
  }
  const int64_t nr = p.tiling.nr();
  const bool rows = p.conv.has_value() && p.conv->feature_major;
  const int64_t batch = rows ? 1 : p.dims.batch;
  const int64_t cols = rows ? KernelRows(p) : p.dims.n;
  const int64_t total = rows ? cols * p.dims.k : batch * p.n_pad * p.k_pad;
  auto packed = std::make_shared<Literal>(Shape::Array(packed_type, {total}));
  std::shared_ptr<Literal> offsets;
  if (p.groups == DepthGroups::kS8Quads) {
    offsets = std::make_shared<Literal>(
        Shape::Array(PrimitiveType::kS32, {p.dims.batch * p.n_pad}));
  }
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
  for (int64_t bt = 0; bt < batch; ++bt) {
    for (int64_t kk = 0; kk < p.dims.k; ++kk) {
      for (int64_t col = 0; col < cols; ++col) {
        const std::vector<int64_t> multi =
            RhsIndex<int64_t>(p, shape, bt, kk, col, ConstantOps{});
        int64_t linear = 0;
        for (int64_t d = 0; d < shape.rank(); ++d) linear += multi[d] * strides[d];
        const int64_t at =
            rows ? col * p.dims.k + kk
                 : (bt * p.n_pad + col / nr * nr) * p.k_pad + PanelOffset(p, kk, col % nr);
        switch (packed_type) {
          case PrimitiveType::kBF16:
            packed->Set<uint16_t>(at, rhs.Get<uint16_t>(linear));
            break;
          case PrimitiveType::kS8: {
            const int8_t x = rhs.Get<int8_t>(linear);
            packed->Set<int8_t>(at, x);
            const int64_t o = bt * p.n_pad + col;
            // 128 times the column's sum, |sum| <= 128 k: wraps like the
            // kernel's s32 sums.
            offsets->Set<int32_t>(
                o, static_cast<int32_t>(static_cast<uint32_t>(offsets->Get<int32_t>(o)) +
                                        (static_cast<uint32_t>(int32_t{x}) << 7)));
            break;
          }
          case PrimitiveType::kS32:
            packed->Set<int32_t>(at, rhs.Get<int32_t>(linear));
            break;
          case PrimitiveType::kF64:
            packed->Set<double>(at, value(linear));
            break;
          default:
            packed->Set<float>(at, static_cast<float>(value(linear)));
        }
      }
    }
  }
  p.prepacked = std::move(packed);
  p.column_offsets = std::move(offsets);
}

absl::Status PackA(const LoopArgs& a, const GemmPlan& p, Value* bt, Value* i0,
                   Value* rows, Value* pc, Value* kc, Value* ap) {
  llvm::IRBuilderBase& b = a.b;
  llvm::Type* op_elem = StorageType(b.getContext(), PackedType(p));
  const int64_t op_bytes = StorageBytes(PackedType(p));
  const int64_t m = p.dims.m, k = p.dims.k;
  auto op_at = [&](Value* base, Value* offset) {
    return b.CreateInBoundsGEP(op_elem, base, offset);
  };
  return EmitForLoop(b, b.getInt64(0), rows, "gemm.pack_a", [&](Value* r) -> absl::Status {
    Value* row = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.CreateAdd(i0, r),
                                         b.getInt64(m - 1));
    Value* dst = op_at(ap, b.CreateMul(r, kc));
    // Depths up to k are read, the padding to k_pad is zero.
    Value* kc_read = p.k_pad == k ? kc
                                  : b.CreateBinaryIntrinsic(
                                        llvm::Intrinsic::umin, kc,
                                        b.CreateSub(b.getInt64(k), pc));
    RETURN_IF_ERROR(EmitForLoop(
        b, b.getInt64(0), kc_read, "gemm.pack_a.k", [&](Value* kk) -> absl::Status {
      ASSIGN_OR_RETURN(Value * v, ReadA(b, p, a, bt, row, b.CreateAdd(pc, kk)));
      b.CreateAlignedStore(ToPacked(b, p, v, /*lhs=*/true), op_at(dst, kk),
                           llvm::Align(op_bytes));
      return absl::OkStatus();
    }));
    if (p.k_pad != k) {
      EmitForLoop(b, kc_read, kc, "gemm.pack_a.pad", [&](Value* kk) {
        b.CreateAlignedStore(llvm::Constant::getNullValue(op_elem),
                             op_at(dst, kk), llvm::Align(op_bytes));
      });
    }
    return absl::OkStatus();
  });
}

}  // namespace aotc::codegen
