// The GEMM strategy: packing, the microkernel and the epilogue (see
// gemm.h).
#include "codegen/strategies/gemm/gemm.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/emit/ir_types.h"
#include "codegen/emit/parallel_loops.h"
#include "codegen/strategies/dot_site.h"
#include "codegen/strategies/gemm/plan.h"
#include "compiler/support/check.h"
#include "compiler/support/status_macros.h"
#include "llvm/IR/Intrinsics.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// Products with less work than this stay with the simpler loops.
constexpr int64_t kMinWork = int64_t{1} << 14;
// Fewer columns or a shallower contraction than this waste most of a
// register tile (a tile is never wider than the columns need).
constexpr int64_t kMinColumns = 8;
constexpr int64_t kMinDepth = 16;
// A grouped convolution's products are as wide (NHWC, unless interleaved)
// or as tall (feature-major) as a group's output features: with fewer than
// these the register tile is too idle to beat the element loops. (ResNeXt's
// 3x3 with 32 groups of 4 inputs at 56x56 on one thread, not interleaved:
// NHWC with 2 outputs per group 1.2 ms against 2.75 in the loops, with 1
// 1.23 against 1.37; NCHW with 2 1.48 against 1.46, with 4 1.47 against
// 5.56.)
constexpr int64_t kMinGroupColumns = 2;
// The shallowest depth slice a tiling takes.
constexpr int64_t kMinSliceDepth = 64;
constexpr int64_t kMinGroupRows = 4;

int64_t RoundUp(int64_t n, int64_t m) { return (n + m - 1) / m * m; }

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
  const DotDimensionNumbers& dn = dot.dot_dnums();
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

// The rows of a feature-major convolution's packed kernel: every output
// feature, each group's product taking group_outputs of them.
int64_t KernelRows(const GemmPlan& p) { return p.conv->groups * p.dims.m; }

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

// The address in `operand` (A or B, read in place) of batch `bt`, depth `pc`
// (its one contracting dimension) and coordinates `free` of its free
// dimensions.
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

// The packed operands' element type: the sums' type, or with depth groups
// the narrow one (bf16; s8, which A holds offset by 128 as u8).
PrimitiveType PackedType(const GemmPlan& p) {
  switch (p.groups) {
    case DepthGroups::kBf16Pairs:
      return PrimitiveType::kBF16;
    case DepthGroups::kS8Quads:
      return PrimitiveType::kS8;
    case DepthGroups::kNone:
      break;
  }
  return p.type;
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

// The prologue: every batch's B into panels of nr columns at `bp`, panel q
// of batch bt at element ((bt * n_pad + q * nr) * k_pad), k_pad x nr at
// PanelOffset, zero beyond column n and depth k; with s8 quads then 128
// times each column's sum at bp + packed_b_bytes (s32, batch x n_pad).
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
    RETURN_IF_ERROR(EmitForLoop(
        b, b.getInt64(0), b.getInt64(k), "gemm.pack_b.k", [&](Value* kk) {
      return EmitForLoop(
          b, b.getInt64(0), b.getInt64(nr), "gemm.pack_b.j",
          [&](Value* j) -> absl::Status {
        Value* col = b.CreateAdd(b.CreateMul(q, b.getInt64(nr)), j);
        Value* valid = nullptr;
        if (edge) {
          valid = b.CreateICmpULT(col, b.getInt64(n));
          col = b.CreateSelect(valid, col, b.getInt64(n - 1));
        }
        ASSIGN_OR_RETURN(Value * v, ReadB(b, p, a, bt, kk, col));
        Value* x = ToPacked(b, p, v, /*lhs=*/false);
        if (edge) x = b.CreateSelect(valid, x, llvm::Constant::getNullValue(elem));
        store(kk, j, x);
        return absl::OkStatus();
      });
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

// The prologue of a feature-major convolution: its kernel into rows of K at
// `ka`, row i (output feature i) at element i * k, in the depth order of
// ConvGemm (a group's input features).
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

// The constant operand packed at compile time into `p.prepacked`, in the
// layout the prologue writes: B's panels (PackB, zero-initialised so the
// padding is zero, and with s8 quads the column offsets), or a
// feature-major convolution's kernel rows (PackKernelRows); left unset for
// operands it cannot read.
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

absl::Status EmitGemm(const LoopArgs& a, const GemmPlan& p) {
  llvm::IRBuilderBase& b = a.b;
  llvm::LLVMContext& ctx = b.getContext();
  llvm::Type* elem = ComputeType(ctx, p.type);
  const GemmTiling& t = p.tiling;
  const int64_t eb = StorageBytes(p.type);
  const int64_t m = p.dims.m, n = p.dims.n, k = p.dims.k;
  const int64_t nr = t.nr();
  // The packed operands' elements: bf16 bits or s8 with depth groups.
  llvm::Type* op_elem = StorageType(ctx, PackedType(p));
  const int64_t op_bytes = StorageBytes(PackedType(p));
  llvm::Function* kernel =
      Microkernel(a.mc, elem, t, a.mc.strict_fp(), p.groups,
                  p.conv ? p.conv->interleave : 1);
  // Rows past a multiple of mr (m % mr of them, in each batch's last block)
  // get a kernel of their own rather than a whole tile of repeated rows.
  GemmTiling edge_tiling = t;
  edge_tiling.mr = static_cast<int>(m % t.mr);
  llvm::Function* edge_kernel =
      edge_tiling.mr == 0
          ? nullptr
          : Microkernel(a.mc, elem, edge_tiling, a.mc.strict_fp(), p.groups,
                        p.conv ? p.conv->interleave : 1);
  // The operand packed once: B, or a feature-major convolution's kernel.
  Value* once = p.prepacked != nullptr ? a.mc.ConstantGlobal(*p.prepacked) : a.scratch;
  // s8 quads: 128 times B's column sums, taken off each sum.
  Value* column_offsets = nullptr;
  if (p.groups == DepthGroups::kS8Quads) {
    column_offsets = p.column_offsets != nullptr
                         ? a.mc.ConstantGlobal(*p.column_offsets)
                         : b.CreateInBoundsGEP(b.getInt8Ty(), a.scratch,
                                               b.getInt64(p.packed_b_bytes));
  }
  Value* slots = b.CreateInBoundsGEP(b.getInt8Ty(), a.scratch,
                                     b.getInt64(p.once_bytes));
  ElementalEmitter emitter(a.mc, b);
  // A read in place when the plan allows it and the operand is in memory.
  const IrArray* lhs_array = a.ins != nullptr ? &(*a.ins)[p.site.lhs][0] : nullptr;
  const IrArray* direct_a = p.direct_a && !p.conv ? lhs_array : nullptr;
  const IrArray* conv_a = p.conv ? lhs_array : nullptr;
  if (p.conv && conv_a == nullptr) {
    return absl::InternalError("gemm: a convolution's input is not in memory");
  }
  const IrArray* direct_b = p.direct_b && a.ins != nullptr ? &(*a.ins)[p.site.rhs][0] : nullptr;
  if (p.direct_b &&
      (direct_b == nullptr || direct_b->shape().layout().minor_to_major !=
                                  p.site.dot->operand(1)->shape().layout().minor_to_major)) {
    return absl::InternalError("gemm: B read in place is not in memory in the planned layout");
  }
  const bool feature_major = p.conv && p.conv->feature_major;
  // A convolution whose A rows are read from the input (not feature-major).
  const bool conv_rows = p.conv && !feature_major;
  // A feature-major convolution whose B is read from its padded planes.
  const bool padded = feature_major && p.conv->padded;
  Value* planes = padded ? b.CreateInBoundsGEP(b.getInt8Ty(), a.scratch,
                                               b.getInt64(p.conv->planes_at))
                         : nullptr;
  // The zero row a row of A reads outside the input: a slice's depth, or
  // all the input's features when every group is packed at once.
  Value* zeros =
      conv_rows ? ZeroRow(a.mc, elem,
                          std::max(t.kc, p.conv->all_groups
                                             ? p.conv->groups * p.conv->features
                                             : 0))
                : nullptr;
  llvm::Type* ptr_type = llvm::PointerType::getUnqual(ctx);
  llvm::AllocaInst* rows_array =
      EntryAlloca(b, llvm::ArrayType::get(ptr_type, t.mr), "gemm.rows");
  auto at = [&](Value* base, Value* offset) {
    return b.CreateInBoundsGEP(elem, base, offset);
  };
  auto op_at = [&](Value* base, Value* offset) {
    return b.CreateInBoundsGEP(op_elem, base, offset);
  };
  return EmitForLoop(
      b, a.begin ? a.begin : b.getInt64(0),
      a.end ? a.end : b.getInt64(p.units()), "gemm.block",
      [&](Value* u) -> absl::Status {
        Value* cg = b.CreateURem(u, b.getInt64(p.col_groups));
        Value* block = b.CreateUDiv(u, b.getInt64(p.col_groups));
        // A grouped convolution's unit (batch_in_unit) takes one block of
        // rows for every group in turn.
        Value* i0 = b.CreateMul(
            p.batch_in_unit ? block : b.CreateURem(block, b.getInt64(p.blocks)),
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
        // The slot of the task's first unit: tasks that may run at the same
        // time have disjoint ranges, and one task's units run one after
        // another, so they share one slot, still in cache.
        Value* slot = b.CreateInBoundsGEP(
            b.getInt8Ty(), slots,
            b.CreateMul(p.parallel && a.begin != nullptr ? a.begin : b.getInt64(0),
                        b.getInt64(p.slot_bytes)));
        Value* ap = slot;
        Value* cs = b.CreateInBoundsGEP(b.getInt8Ty(), slot, b.getInt64(p.pack_bytes));
        Value* row_info = b.CreateInBoundsGEP(
            b.getInt8Ty(), cs, b.getInt64(p.slot_bytes - p.pack_bytes - p.row_info_bytes));
        if (conv_rows) FillRowOrigins(b, p, *conv_a, i0, panels, row_info);
        if (conv_rows && p.conv->all_groups) {
          PackConvGroups(b, p, *conv_a, row_info, zeros, ap,
                         b.CreateMul(panels, b.getInt64(t.mr)));
        }
        // Product bt of the batch over the unit's rows and columns: its
        // depth slices, its tiles, then its epilogue.
        auto product = [&](Value* bt) -> absl::Status {
          // A convolution's feature group, its first input and output
          // features, and (feature-major) the input batch element.
          Value* image = nullptr;
          Value* feature0 = nullptr;
          Value* out_feature0 = nullptr;
          if (p.conv) {
            const ConvGemm& c = *p.conv;
            Value* group = feature_major ? b.CreateURem(bt, b.getInt64(c.groups)) : bt;
            image = feature_major ? b.CreateUDiv(bt, b.getInt64(c.groups)) : nullptr;
            feature0 = b.CreateMul(group, b.getInt64(c.features));
            out_feature0 = b.CreateMul(group, b.getInt64(c.interleave * c.group_outputs));
          }
          // Depth slices: [pc, pc + kc) of K; a convolution's read from the
          // input in place stay within a tap.
          const int64_t slices =
              padded           ? p.conv->taps * p.conv->chunks
              : !conv_rows     ? (p.k_pad + t.kc - 1) / t.kc
              : p.conv->packed ? (p.conv->taps + p.conv->taps_per_slice - 1) /
                                     p.conv->taps_per_slice
                               : p.conv->taps * p.conv->chunks;
          RETURN_IF_ERROR(EmitForLoop(
              b, b.getInt64(0), b.getInt64(slices), "gemm.kslice",
              [&](Value* s) -> absl::Status {
            Value* pc;
            Value* kc;
            Value* tap = nullptr;
            Value* c0 = nullptr;
            if (p.conv && p.conv->packed) {
              pc = b.CreateMul(s, b.getInt64(t.kc));
              kc = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.getInt64(t.kc),
                                           b.CreateSub(b.getInt64(k), pc));
            } else if (conv_rows || padded) {
              tap = b.CreateUDiv(s, b.getInt64(p.conv->chunks));
              c0 = b.CreateMul(b.CreateURem(s, b.getInt64(p.conv->chunks)),
                               b.getInt64(t.kc));
              pc = b.CreateAdd(b.CreateMul(tap, b.getInt64(p.conv->features)), c0);
              kc = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.getInt64(t.kc),
                                           b.CreateSub(b.getInt64(p.conv->features), c0));
            } else {
              pc = b.CreateMul(s, b.getInt64(t.kc));
              kc = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.getInt64(t.kc),
                                           b.CreateSub(b.getInt64(p.k_pad), pc));
            }
            // A convolution's window offset of this tap, per spatial axis.
            std::vector<Value*> tap_at;
            if (conv_rows && !p.conv->packed) tap_at = WindowOffsets(b, *p.conv, tap);
            if (feature_major && !padded) {
              PackConvPanels(b, p, *conv_a, image, feature0, q0, q1, pc, kc, ap);
            }
            // A padded convolution's B panels start at this slice's tap and
            // first feature in the image's planes (one feature group).
            Value* slice_planes =
                padded ? at(planes,
                            b.CreateAdd(
                                b.CreateMul(b.CreateAdd(b.CreateMul(image, b.getInt64(
                                                                        p.conv->features)),
                                                        c0),
                                            b.getInt64(p.conv->plane)),
                                PlaneTapOffset(b, *p.conv, tap)))
                       : nullptr;
            if (conv_rows && p.conv->packed && !p.conv->all_groups) {
              PackConvTaps(b, p, *conv_a, row_info, zeros, ap, pc, kc,
                           b.CreateMul(panels, b.getInt64(t.mr)), feature0);
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
              if (feature_major) {
                return at(once, b.CreateAdd(b.CreateMul(b.CreateAdd(clamped_row(r), out_feature0),
                                                        b.getInt64(k)),
                                            pc));
              }
              if (conv_rows && p.conv->all_groups) {
                const int64_t il = p.conv->interleave;
                return at(ap, b.CreateMul(
                                  b.CreateAdd(b.CreateMul(r, b.getInt64(p.conv->groups / il)),
                                              bt),
                                  b.getInt64(k * il)));
              }
              if (conv_rows && !p.conv->packed) {
                return ConvRowPointer(b, p, *conv_a, row_info, r, tap_at,
                                      b.CreateAdd(feature0, c0), zeros);
              }
              if (direct_a != nullptr) {
                return InPlace(b, p, *direct_a, p.dims.lhs_batch, bt, p.dims.lhs_contract,
                               pc, p.dims.lhs_free,
                               UnflattenRowMajor(b, clamped_row(r), p.dims.m_ext));
              }
              return op_at(ap, b.CreateMul(r, kc));
            };
            if (direct_a == nullptr && conv_a == nullptr) {
              RETURN_IF_ERROR(EmitForLoop(
                  b, b.getInt64(0), b.CreateMul(panels, b.getInt64(t.mr)),
                  "gemm.pack_a", [&](Value* r) -> absl::Status {
                Value* row = clamped_row(r);
                Value* dst = op_at(ap, b.CreateMul(r, kc));
                // Depths up to k are read, the padding to k_pad is zero.
                Value* kc_read = p.k_pad == k ? kc
                                              : b.CreateBinaryIntrinsic(
                                                    llvm::Intrinsic::umin, kc,
                                                    b.CreateSub(b.getInt64(k), pc));
                RETURN_IF_ERROR(EmitForLoop(
                    b, b.getInt64(0), kc_read, "gemm.pack_a.k",
                    [&](Value* kk) -> absl::Status {
                  ASSIGN_OR_RETURN(Value * v,
                                   ReadA(b, p, a, bt, row, b.CreateAdd(pc, kk)));
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
              }));
            }
            // The tiles: each nr-panel of B against each mr-panel of A.
            EmitForLoop(b, q0, q1, "gemm.jr", [&](Value* jq) {
              Value* bpanel =
                  feature_major
                      ? at(ap, b.CreateMul(b.CreateMul(b.CreateSub(jq, q0), kc),
                                           b.getInt64(nr)))
                      : op_at(once,
                              b.CreateAdd(
                                  b.CreateMul(
                                      b.CreateAdd(b.CreateMul(bt, b.getInt64(p.n_pad)),
                                                  b.CreateMul(jq, b.getInt64(nr))),
                                      b.getInt64(p.k_pad)),
                                  b.CreateMul(pc, b.getInt64(nr))));
              Value* ldb = b.getInt64(nr);
              if (padded) {
                bpanel = at(slice_planes, b.CreateMul(jq, b.getInt64(nr)));
                ldb = b.getInt64(p.conv->plane);
              }
              if (direct_b != nullptr) {
                bpanel = InPlace(b, p, *direct_b, p.dims.rhs_batch, bt, p.dims.rhs_contract,
                                 pc, p.dims.rhs_free, {b.CreateMul(jq, b.getInt64(nr))});
                ldb = b.getInt64(n);
              }
              if (feature_major && p.conv->pointwise) {
                // Whole panels of a pointwise convolution are read in place.
                Value* in_place =
                    b.CreateICmpULT(jq, b.getInt64(p.conv->positions / nr));
                bpanel = b.CreateSelect(
                    in_place,
                    PointwisePanel(b, p, *conv_a, image, b.CreateAdd(feature0, pc), jq),
                    bpanel);
                ldb = b.CreateSelect(in_place, b.getInt64(PointwiseRowStride(p, *conv_a)),
                                     ldb);
              }
              // The mr-panels [begin, end) on `tile_kernel`, of `tile_rows`
              // rows.
              auto tiles = [&](Value* begin, Value* end, llvm::Function* tile_kernel,
                               int tile_rows, const char* name) {
                EmitForLoop(b, begin, end, name, [&](Value* iq) {
                  for (int r = 0; r < tile_rows; ++r) {
                    b.CreateAlignedStore(
                        a_row(b.CreateAdd(b.CreateMul(iq, b.getInt64(t.mr)), b.getInt64(r))),
                        b.CreateConstInBoundsGEP1_64(ptr_type, rows_array, r),
                        llvm::Align(8));
                  }
                  Value* ctile = at(
                      cs, b.CreateAdd(b.CreateMul(iq, b.getInt64(t.mr * p.ldc())),
                                      b.CreateMul(b.CreateSub(jq, q0), b.getInt64(nr))));
                  b.CreateCall(tile_kernel, {rows_array, bpanel, ldb, kc, ctile,
                                             b.getInt64(p.ldc()),
                                             b.CreateICmpNE(s, b.getInt64(0))});
                });
              };
              if (edge_kernel == nullptr) {
                tiles(b.getInt64(0), panels, kernel, t.mr, "gemm.ir");
              } else {
                // The last block's last m % mr rows, if this is it, on a
                // kernel of that many rows.
                Value* whole = b.CreateUDiv(rows, b.getInt64(t.mr));
                tiles(b.getInt64(0), whole, kernel, t.mr, "gemm.ir");
                tiles(whole, panels, edge_kernel, edge_tiling.mr, "gemm.ir_edge");
              }
            });
            return absl::OkStatus();
          }));
          // The block's rows from their accumulators, through the epilogue.
          return EmitForLoop(b, b.getInt64(0), rows, "gemm.out", [&](Value* r) {
            Value* row = b.CreateAdd(i0, r);
            return EmitForLoop(b, j0, j1, "gemm.out.j", [&](Value* j) -> absl::Status {
              // A padded convolution's column past the output's sizes is
              // dropped.
              std::vector<Value*> position;
              llvm::BasicBlock* next = nullptr;
              if (feature_major) {
                const std::vector<int64_t> pos_ext =
                    padded ? p.conv->column_ext
                           : std::vector<int64_t>(p.conv->row_ext.begin() + 1,
                                                  p.conv->row_ext.end());
                position = UnflattenRowMajor(b, j, pos_ext);
              }
              if (padded) {
                Value* inside = b.getTrue();
                for (size_t i = 1; i < position.size(); ++i) {
                  inside = b.CreateAnd(inside, b.CreateICmpULT(position[i],
                                                               b.getInt64(p.conv->row_ext[i + 1])));
                }
                llvm::Function* fn = b.GetInsertBlock()->getParent();
                auto* write = llvm::BasicBlock::Create(ctx, "gemm.out.write", fn);
                next = llvm::BasicBlock::Create(ctx, "gemm.out.next", fn);
                b.CreateCondBr(inside, write, next);
                b.SetInsertPoint(write);
              }
              Value* sum = b.CreateAlignedLoad(
                  elem,
                  at(cs, b.CreateAdd(b.CreateMul(r, b.getInt64(p.ldc())),
                                     b.CreateSub(j, j0))),
                  llvm::Align(eb));
              if (column_offsets != nullptr) {
                sum = b.CreateSub(
                    sum, b.CreateAlignedLoad(
                             elem,
                             b.CreateInBoundsGEP(
                                 elem, column_offsets,
                                 b.CreateAdd(b.CreateMul(bt, b.getInt64(p.n_pad)), j)),
                             llvm::Align(4)));
              }
              sum = RoundToStorage(b, sum, p.result);
              Index o;
              const IrArray& out = a.out[0];
              if (feature_major) {
                // Row: output feature; column: output position.
                const ConvolutionDimensionNumbers& dn = p.conv->dn;
                o.multi.resize(out.shape().rank());
                o.multi[dn.output_batch] = image;
                for (size_t i = 0; i < dn.output_spatial.size(); ++i) {
                  o.multi[dn.output_spatial[i]] = position[i];
                }
                o.multi[dn.output_feature] = b.CreateAdd(out_feature0, row);
              } else if (p.conv) {
                const ConvolutionDimensionNumbers& dn = p.conv->dn;
                const std::vector<Value*> rc = UnflattenRowMajor(b, row, p.conv->row_ext);
                o.multi.resize(out.shape().rank());
                o.multi[dn.output_batch] = rc[0];
                for (size_t i = 0; i < dn.output_spatial.size(); ++i) {
                  o.multi[dn.output_spatial[i]] = rc[i + 1];
                }
                o.multi[dn.output_feature] = b.CreateAdd(out_feature0, j);
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
              ASSIGN_OR_RETURN(Value * v, EmitDotEpilogue(emitter, a, p.site, sum, o));
              out.Write(b, o, v);
              if (next != nullptr) {
                b.CreateBr(next);
                b.SetInsertPoint(next);
              }
              return absl::OkStatus();
            });
          });
        };
        if (p.batch_in_unit) {
          return EmitForLoop(b, b.getInt64(0), b.getInt64(p.dims.batch), "gemm.batch",
                             product);
        }
        return product(b.CreateUDiv(block, b.getInt64(p.blocks)));
      });
}

// The depth groups of a product (GemmPlan::groups), on a target with the
// instruction and 16-lane vectors: bf16 pairs for two bf16 operands into
// f32 or bf16, s8 quads for two s8 operands into s32.
DepthGroups ChooseDepthGroups(const GemmPlan& g, const TargetInfo& target) {
  const Instruction& dot = *g.site.dot;
  auto operands_are = [&](PrimitiveType t) {
    return dot.operand(0)->shape().element_type() == t &&
           dot.operand(1)->shape().element_type() == t;
  };
  if (target.vector_bytes != 64 || g.conv) return DepthGroups::kNone;
  if (target.bf16_pair_dot && g.type == PrimitiveType::kF32 &&
      (g.result == PrimitiveType::kF32 || g.result == PrimitiveType::kBF16) &&
      operands_are(PrimitiveType::kBF16)) {
    return DepthGroups::kBf16Pairs;
  }
  if (target.s8_quad_dot && g.type == PrimitiveType::kS32 &&
      operands_are(PrimitiveType::kS8)) {
    return DepthGroups::kS8Quads;
  }
  return DepthGroups::kNone;
}

// Whether an operand of a dot into `result` is computed in f32 (f64) without
// a rounding of its own: the evaluator converts operands to the result type
// first, so into f16 or bf16 only that type qualifies.
bool OperandComputesAs(PrimitiveType operand, PrimitiveType result) {
  if (result == PrimitiveType::kF64) return operand == PrimitiveType::kF64;
  // Exact in s32 sums that wrap as the evaluator's do.
  if (result == PrimitiveType::kS32) {
    return operand == PrimitiveType::kS8 || operand == PrimitiveType::kS32;
  }
  if (result == PrimitiveType::kF16 || result == PrimitiveType::kBF16) {
    return operand == result;
  }
  return operand == PrimitiveType::kF32 || operand == PrimitiveType::kBF16 ||
         operand == PrimitiveType::kF16;
}

}  // namespace

GemmTiling ChooseGemmTiling(int element_bytes, const TargetInfo& target,
                            int64_t m, int64_t k, int packed_bytes,
                            int64_t max_columns) {
  if (packed_bytes == 0) packed_bytes = element_bytes;
  GemmTiling t;
  t.lanes = target.vector_bytes >= 2 * element_bytes
                ? target.vector_bytes / element_bytes
                : 1;
  // Narrow products take narrower vectors, down to 16 bytes: more of their
  // lanes are columns of the product, and the narrower multiply-adds issue
  // more per cycle.
  while (max_columns > 0 && t.lanes / 2 >= max_columns &&
         t.lanes * element_bytes > 16) {
    t.lanes /= 2;
  }
  // The tile with the most multiply-adds per value loaded, among those
  // whose accumulators, a row of B and a broadcast fit in the registers.
  double best = 0;
  for (int vectors = 1; vectors <= 4; ++vectors) {
    // No more vectors than the columns fill.
    if (max_columns > 0 && (vectors - 1) * t.lanes >= max_columns) break;
    const int mr = std::min(16, (target.vector_registers - vectors - 1) / vectors);
    if (mr < 1) continue;
    const double reuse = double(mr) * vectors / (mr + vectors);
    if (reuse > best) {
      best = reuse;
      t.mr = mr;
      t.vectors = vectors;
    }
  }
  const int64_t nr_bytes = t.nr() * packed_bytes;
  t.kc = std::clamp<int64_t>(target.l1_bytes / 2 / nr_bytes, kMinSliceDepth, 512);
  t.kc = std::min(t.kc, k);
  int64_t mc = std::max<int64_t>(t.mr, target.l2_bytes / 2 / (t.kc * packed_bytes));
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
  const PrimitiveType result = dot.shape().element_type();
  const bool half_result =
      result == PrimitiveType::kF16 || result == PrimitiveType::kBF16;
  const PrimitiveType type = half_result ? PrimitiveType::kF32 : result;
  if ((type != PrimitiveType::kF32 && type != PrimitiveType::kF64 &&
       type != PrimitiveType::kS32) ||
      !OperandComputesAs(dot.operand(0)->shape().element_type(), result) ||
      !OperandComputesAs(dot.operand(1)->shape().element_type(), result)) {
    return std::nullopt;
  }
  auto g = std::make_shared<GemmPlan>();
  g->site = *site;
  g->type = type;
  g->result = result;
  if (dot.opcode() == Opcode::kConvolution) {
    // A convolution reads its input's rows in place, in the sums' type.
    if (half_result || type == PrimitiveType::kS32) return std::nullopt;
    std::optional<ConvGemm> conv = DescribeConvolution(dot);
    if (!conv.has_value()) return std::nullopt;
    g->conv = std::move(conv);
    // One product per feature group (per batch element and group when
    // feature-major, the group minor).
    const ConvGemm& c = *g->conv;
    if (c.feature_major) {
      if (c.window.empty()) return std::nullopt;
      g->dims.batch = c.row_ext[0] * c.groups;
      g->dims.m = c.group_outputs;
      g->dims.n = c.positions;
    } else {
      // Groups of few features and few outputs whose outputs fit a vector
      // a whole number of times are interleaved (ConvGemm::interleave)
      // when the whole depth fits the shallowest slice.
      const int64_t lanes = target.vector_bytes / StorageBytes(type);
      if (c.groups > 1 && c.packed && lanes >= 2 * c.group_outputs &&
          lanes % c.group_outputs == 0 &&
          c.groups % (lanes / c.group_outputs) == 0 &&
          c.taps * c.features <= kMinSliceDepth) {
        g->conv->interleave = lanes / c.group_outputs;
      }
      g->dims.batch = c.groups / c.interleave;
      g->dims.m = c.row_ext[0] * c.positions;
      g->dims.n = c.interleave * c.group_outputs;
    }
    g->dims.k = c.taps * c.features;
  } else {
    g->dims = DescribeDot(dot);
  }
  const GemmDims& d = g->dims;
  const bool feature_major = g->conv && g->conv->feature_major;
  const bool conv_rows = g->conv && !feature_major;
  const bool padded = feature_major && g->conv->padded;
  const bool grouped = g->conv && g->conv->groups > 1;
  if (d.m < (grouped && feature_major ? kMinGroupRows : kGemmMinRows) ||
      d.n < (grouped && conv_rows ? kMinGroupColumns : kMinColumns) ||
      d.k < kMinDepth || d.batch * d.m * d.n * d.k < kMinWork) {
    return std::nullopt;
  }
  const int eb = StorageBytes(type);
  g->groups = ChooseDepthGroups(*g, target);
  g->k_pad = RoundUp(d.k, g->group());
  // The packed operands' element bytes.
  const int op_bytes = StorageBytes(PackedType(*g));
  // A convolution's depth slices stay within one tap's features when its
  // rows, or its padded planes, are read in place. Narrow products (a
  // grouped convolution's, a dot's few columns) take a tile no wider than
  // their columns.
  g->tiling = ChooseGemmTiling(
      eb, target, d.m,
      (conv_rows && !g->conv->packed) || padded ? g->conv->features : g->k_pad,
      op_bytes, d.n);
  GemmTiling& t = g->tiling;
  // Slices of whole groups.
  t.kc = std::max<int64_t>(g->group(), t.kc / g->group() * g->group());
  if (feature_major) {
    // The units split the positions; one block of rows takes every output
    // feature whose kernel slice fits in half of L2, so that each panel of
    // B is packed once.
    t.mc = std::min(RoundUp(std::max<int64_t>(t.mr, target.l2_bytes / 2 / (t.kc * eb)),
                            t.mr),
                    RoundUp(d.m, t.mr));
  }
  if (g->conv && g->conv->packed) {
    ConvGemm& c = *g->conv;
    const int64_t run = c.row_runs ? c.kernel_ext.back() : 1;
    c.taps_per_slice = std::max<int64_t>(1, t.kc / (c.features * run)) * run;
    t.kc = c.taps_per_slice * c.features;
    c.all_groups = grouped && c.taps_per_slice >= c.taps;
    AOTC_CHECK(c.all_groups || c.interleave == 1,
               "interleaved groups are packed all at once");
    if (c.all_groups) {
      // Every group's rows of a block in half of L2.
      t.mc = std::min(t.mc, RoundUp(std::max<int64_t>(
                                        t.mr, target.l2_bytes / 2 /
                                                  (c.groups * d.k * eb)),
                                    t.mr));
    }
  } else if (conv_rows || padded) {
    g->conv->chunks = (g->conv->features + t.kc - 1) / t.kc;
  }
  if (conv_rows) {
    g->row_info_bytes =
        AlignUp(t.mc * (1 + static_cast<int64_t>(g->conv->window.size())) * 8);
  }
  g->n_pad = RoundUp(d.n, t.nr());
  g->blocks = (d.m + t.mc - 1) / t.mc;
  if (padded) {
    // A plane holds the last panel's columns at the last tap's offset.
    ConvGemm& c = *g->conv;
    int64_t last_tap = 0, pitch = 1;
    for (size_t i = c.window.size(); i-- > 0;) {
      last_tap += (c.kernel_ext[i] - 1) * c.window[i].window_dilation * pitch;
      pitch *= c.padded_ext[i];
    }
    c.plane = RoundUp(std::max(pitch, g->n_pad + last_tap), 16);
  }
  // A block of rows for every group in turn, in one slot: the block's input
  // rows stay in cache, its window origins are found once, and the slots
  // are as many as the blocks, not groups times blocks.
  g->batch_in_unit = grouped && conv_rows;
  const Instruction* rhs = inst.operand(site->rhs);
  if (rhs->opcode() == Opcode::kConstant) {
    PackConstantB(*g, rhs->literal());
  }
  // A's rows can be read in place when its one contracting dimension is the
  // most minor and it holds the result's type.
  const Shape& lhs = dot.operand(0)->shape();
  // With bf16 pairs the operand is bf16 and its rows hold whole pairs; s8
  // quads offset A, so it is always packed.
  g->direct_a = !g->conv && d.lhs_contract.size() == 1 && lhs.rank() > 0 &&
                lhs.layout().minor_to_major[0] == d.lhs_contract[0] &&
                lhs.element_type() == PackedType(*g) &&
                g->groups != DepthGroups::kS8Quads && g->k_pad == d.k;
  const Shape& rhs_shape = dot.operand(1)->shape();
  g->direct_b = !g->conv && g->prepacked == nullptr && g->blocks == 1 &&
                g->groups == DepthGroups::kNone && d.rhs_free.size() == 1 &&
                d.rhs_contract.size() == 1 && rhs_shape.rank() >= 2 &&
                rhs_shape.layout().minor_to_major[0] == d.rhs_free[0] &&
                rhs_shape.layout().minor_to_major[1] == d.rhs_contract[0] &&
                rhs_shape.element_type() == g->type && d.n % t.nr() == 0;
  if (g->direct_b) {
    // B's panels come from L2 whatever the slice depth (rows n apart), so
    // the slice only has to keep the tile's mr rows of A in half of L1:
    // deeper slices load and store the accumulators less often.
    t.kc = std::min(g->k_pad, std::max(t.kc, target.l1_bytes / 2 / (t.mr * op_bytes)));
  }
  g->packed_b_bytes =
      g->direct_b ? 0 : AlignUp(d.batch * g->n_pad * g->k_pad * op_bytes);
  if (feature_major) {
    // The kernel's rows unless packed at compile time, then any padded
    // planes.
    g->once_bytes = g->prepacked != nullptr ? 0 : AlignUp(KernelRows(*g) * d.k * eb);
    if (padded) {
      g->conv->planes_at = g->once_bytes;
      g->once_bytes += AlignUp(d.batch * g->conv->features * g->conv->plane * eb);
    }
  } else if (g->prepacked == nullptr && !g->direct_b) {
    g->once_bytes = g->packed_b_bytes + (g->groups == DepthGroups::kS8Quads
                                             ? AlignUp(d.batch * g->n_pad * 4)
                                             : 0);
  }
  // Fewer than kMinUnits blocks of rows: columns are split too, if the
  // units can then run in parallel. A feature-major convolution's units
  // always split the positions, into groups whose B panels and
  // accumulators fit in a quarter of L2.
  constexpr int64_t kMinUnits = 4;
  const int64_t panels = g->n_pad / t.nr();
  const int64_t fm_panels = std::clamp<int64_t>(
      target.l2_bytes / 4 / ((t.kc + t.mc) * t.nr() * eb), 1, panels);
  StrategyPlan plan;
  plan.name = "gemm";
  for (const bool split_columns : {true, false}) {
    g->col_groups = 1;
    if (feature_major) {
      g->col_groups = (panels + fm_panels - 1) / fm_panels;
    } else if (split_columns && g->units() < kMinUnits) {
      g->col_groups = std::min(panels, (kMinUnits + g->units() - 1) / g->units());
    }
    g->group_panels = (panels + g->col_groups - 1) / g->col_groups;
    g->col_groups = (panels + g->group_panels - 1) / g->group_panels;
    plan.own_loop_shape = std::make_shared<const Shape>(
        Shape::Array(PrimitiveType::kF32, {g->units()}));
    plan.loop_shape = plan.own_loop_shape.get();
    plan.work_per_element =
        t.mc * g->ldc() * d.k * (g->batch_in_unit ? d.batch : 1);
    g->parallel = ChooseParallelSplit(plan).has_value();
    if (g->parallel || g->col_groups == 1 || feature_major) break;
  }
  g->pack_bytes = feature_major ? (padded ? 0 : AlignUp(t.kc * g->ldc() * eb))
                  : conv_rows && g->conv->all_groups
                      ? AlignUp(g->conv->groups * t.mc * d.k * eb)
                  : g->direct_a || (conv_rows && !g->conv->packed)
                      ? 0
                      : AlignUp(t.mc * t.kc * op_bytes);
  g->slot_bytes = g->pack_bytes + AlignUp(t.mc * g->ldc() * eb) + g->row_info_bytes;
  plan.scratch_bytes =
      g->once_bytes + (g->parallel ? g->units() : 1) * g->slot_bytes;
  if (padded) {
    plan.prologue = [g](const LoopArgs& a) -> absl::Status {
      if (g->prepacked == nullptr) {
        RETURN_IF_ERROR(PackKernelRows(a, *g, a.scratch));
      }
      if (a.ins == nullptr) {
        return absl::InternalError("gemm: a convolution's input is not in memory");
      }
      PadInputPlanes(a.b, *g, (*a.ins)[g->site.lhs][0],
                     a.b.CreateInBoundsGEP(a.b.getInt8Ty(), a.scratch,
                                           a.b.getInt64(g->conv->planes_at)));
      return absl::OkStatus();
    };
  } else if (g->prepacked == nullptr && feature_major) {
    plan.prologue = [g](const LoopArgs& a) { return PackKernelRows(a, *g, a.scratch); };
  } else if (g->prepacked == nullptr && !g->direct_b) {
    plan.prologue = [g](const LoopArgs& a) { return PackB(a, *g, a.scratch); };
  }
  plan.emit = [g](const LoopArgs& a) { return EmitGemm(a, *g); };
  return plan;
}

}  // namespace aotc::codegen
