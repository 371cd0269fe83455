// The gemm strategy's blocked loops (see gemm.h): each unit of the parallel
// loop, a block of rows and a group of B's panels, runs its products' depth
// slices, packs what the slice needs, calls the microkernel on every tile
// and writes its rows through the epilogue. The plan comes from plan.cc,
// the packing from pack.cc, the convolution's rows and panels from conv.cc.
#include <algorithm>
#include <vector>

#include "codegen/emit/ir_types.h"
#include "codegen/strategies/dot_site.h"
#include "codegen/strategies/gemm/pack.h"
#include "codegen/strategies/gemm/plan.h"
#include "compiler/support/status_macros.h"
#include "llvm/IR/Intrinsics.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// One unit of the parallel loop: the block of `rows` rows from i0 (in
// `panels` mr-panels) and the nr-panels [q0, q1), columns [j0, j1), with
// its slot's packed operand (ap), accumulators (cs) and row origins.
struct Unit {
  Value* block;
  Value* i0;
  Value* q0;
  Value* q1;
  Value* j0;
  Value* j1;
  Value* rows;
  Value* panels;
  Value* ap;
  Value* cs;
  Value* row_info;
};

// Product bt of the batch; for a convolution its feature group's first
// input and output features and (feature-major) the input batch element.
struct Product {
  Value* bt;
  Value* image = nullptr;
  Value* feature0 = nullptr;
  Value* out_feature0 = nullptr;
};

// Depth slice s, [pc, pc + kc) of K; a convolution's tap and first
// feature c0 in it, the tap's window offsets and (padded) the slice's start
// in the planes.
struct Slice {
  Value* s;
  Value* pc;
  Value* kc;
  Value* tap = nullptr;
  Value* c0 = nullptr;
  std::vector<Value*> tap_at;
  Value* planes = nullptr;
};

class GemmEmitter {
 public:
  GemmEmitter(const LoopArgs& a, const GemmPlan& p)
      : a_(a),
        p_(p),
        b_(a.b),
        ctx_(b_.getContext()),
        t_(p.tiling),
        elem_(ComputeType(ctx_, p.type)),
        op_elem_(StorageType(ctx_, PackedType(p))),
        eb_(StorageBytes(p.type)),
        m_(p.dims.m),
        n_(p.dims.n),
        k_(p.dims.k),
        nr_(t_.nr()),
        feature_major_(p.conv && p.conv->feature_major),
        conv_rows_(p.conv && !feature_major_),
        padded_(feature_major_ && p.conv->padded),
        emitter_(a.mc, b_) {}

  // The microkernels, the operands' places and the tiles' row pointers,
  // then the loop over the units.
  absl::Status Emit() {
    RETURN_IF_ERROR(Prepare());
    return EmitForLoop(
        b_, a_.begin ? a_.begin : b_.getInt64(0),
        a_.end ? a_.end : b_.getInt64(p_.units()), "gemm.block",
        [&](Value* u) -> absl::Status {
          const Unit unit = StartUnit(u);
          if (p_.batch_in_unit) {
            return EmitForLoop(
                b_, b_.getInt64(0), b_.getInt64(p_.dims.batch), "gemm.batch",
                [&](Value* bt) { return EmitProduct(unit, bt); });
          }
          return EmitProduct(unit,
                             b_.CreateUDiv(unit.block, b_.getInt64(p_.blocks)));
        });
  }

 private:
  absl::Status Prepare() {
    const LoopArgs& a = a_;
    const GemmPlan& p = p_;
    llvm::IRBuilderBase& b = b_;
    kernel_ = Microkernel(a.mc, elem_, t_, a.mc.strict_fp(), p.groups,
                          p.conv ? p.conv->interleave : 1);
    // Rows past a multiple of mr (m % mr of them, in each batch's last
    // block) get a kernel of their own rather than a whole tile of repeated
    // rows.
    edge_tiling_ = t_;
    edge_tiling_.mr = static_cast<int>(m_ % t_.mr);
    edge_kernel_ =
        edge_tiling_.mr == 0
            ? nullptr
            : Microkernel(a.mc, elem_, edge_tiling_, a.mc.strict_fp(), p.groups,
                          p.conv ? p.conv->interleave : 1);
    // The operand packed once: B, or a feature-major convolution's kernel.
    once_ = p.prepacked != nullptr ? a.mc.ConstantGlobal(*p.prepacked) : a.scratch;
    // s8 quads: 128 times B's column sums, taken off each sum.
    if (p.groups == DepthGroups::kS8Quads) {
      column_offsets_ = p.column_offsets != nullptr
                            ? a.mc.ConstantGlobal(*p.column_offsets)
                            : b.CreateInBoundsGEP(b.getInt8Ty(), a.scratch,
                                                  b.getInt64(p.packed_b_bytes));
    }
    slots_ = b.CreateInBoundsGEP(b.getInt8Ty(), a.scratch,
                                 b.getInt64(p.once_bytes));
    // A read in place when the plan allows it and the operand is in memory.
    const IrArray* lhs_array = a.ins != nullptr ? &(*a.ins)[p.site.lhs][0] : nullptr;
    direct_a_ = p.direct_a && !p.conv ? lhs_array : nullptr;
    conv_a_ = p.conv ? lhs_array : nullptr;
    if (p.conv && conv_a_ == nullptr) {
      return absl::InternalError("gemm: a convolution's input is not in memory");
    }
    direct_b_ = p.direct_b && a.ins != nullptr ? &(*a.ins)[p.site.rhs][0] : nullptr;
    if (p.direct_b &&
        (direct_b_ == nullptr || direct_b_->shape().layout().minor_to_major !=
                                     p.site.dot->operand(1)->shape().layout().minor_to_major)) {
      return absl::InternalError("gemm: B read in place is not in memory in the planned layout");
    }
    // A feature-major convolution whose B is read from its padded planes.
    planes_ = padded_ ? b.CreateInBoundsGEP(b.getInt8Ty(), a.scratch,
                                            b.getInt64(p.conv->planes_at))
                      : nullptr;
    // The zero row a row of A reads outside the input: a slice's depth, or
    // all the input's features when every group is packed at once.
    zeros_ =
        conv_rows_ ? ZeroRow(a.mc, elem_,
                             std::max(t_.kc, p.conv->all_groups
                                                 ? p.conv->groups * p.conv->features
                                                 : 0))
                   : nullptr;
    ptr_type_ = llvm::PointerType::getUnqual(ctx_);
    rows_array_ =
        EntryAlloca(b, llvm::ArrayType::get(ptr_type_, t_.mr), "gemm.rows");
    return absl::OkStatus();
  }

  Value* At(Value* base, Value* offset) {
    return b_.CreateInBoundsGEP(elem_, base, offset);
  }
  Value* OpAt(Value* base, Value* offset) {
    return b_.CreateInBoundsGEP(op_elem_, base, offset);
  }

  // Unit u's rows, columns and slot; a convolution's row origins, and with
  // every group packed at once its A.
  Unit StartUnit(Value* u) {
    const GemmPlan& p = p_;
    llvm::IRBuilderBase& b = b_;
    Unit unit;
    Value* cg = b.CreateURem(u, b.getInt64(p.col_groups));
    unit.block = b.CreateUDiv(u, b.getInt64(p.col_groups));
    Value* block = unit.block;
    // A grouped convolution's unit (batch_in_unit) takes one block of
    // rows for every group in turn.
    unit.i0 = b.CreateMul(
        p.batch_in_unit ? block : b.CreateURem(block, b.getInt64(p.blocks)),
        b.getInt64(t_.mc));
    // The unit's nr-panels [q0, q1) and columns [j0, j1).
    unit.q0 = b.CreateMul(cg, b.getInt64(p.group_panels));
    unit.q1 = b.CreateBinaryIntrinsic(
        llvm::Intrinsic::umin, b.CreateAdd(unit.q0, b.getInt64(p.group_panels)),
        b.getInt64(p.n_pad / nr_));
    unit.j0 = b.CreateMul(unit.q0, b.getInt64(nr_));
    unit.j1 = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin,
                                      b.CreateMul(unit.q1, b.getInt64(nr_)),
                                      b.getInt64(n_));
    unit.rows = b.CreateBinaryIntrinsic(
        llvm::Intrinsic::umin, b.getInt64(t_.mc), b.CreateSub(b.getInt64(m_), unit.i0));
    unit.panels = b.CreateUDiv(b.CreateAdd(unit.rows, b.getInt64(t_.mr - 1)),
                               b.getInt64(t_.mr));
    // The slot of the task's first unit: tasks that may run at the same
    // time have disjoint ranges, and one task's units run one after
    // another, so they share one slot, still in cache.
    Value* slot = b.CreateInBoundsGEP(
        b.getInt8Ty(), slots_,
        b.CreateMul(p.parallel && a_.begin != nullptr ? a_.begin : b.getInt64(0),
                    b.getInt64(p.slot_bytes)));
    unit.ap = slot;
    unit.cs = b.CreateInBoundsGEP(b.getInt8Ty(), slot, b.getInt64(p.pack_bytes));
    unit.row_info = b.CreateInBoundsGEP(
        b.getInt8Ty(), unit.cs,
        b.getInt64(p.slot_bytes - p.pack_bytes - p.row_info_bytes));
    if (conv_rows_) FillRowOrigins(b, p, *conv_a_, unit.i0, unit.panels, unit.row_info);
    if (conv_rows_ && p.conv->all_groups) {
      PackConvGroups(b, p, *conv_a_, unit.row_info, zeros_, unit.ap,
                     b.CreateMul(unit.panels, b.getInt64(t_.mr)));
    }
    return unit;
  }

  // Product bt of the batch over the unit's rows and columns: its depth
  // slices, its tiles, then its epilogue.
  absl::Status EmitProduct(const Unit& unit, Value* bt) {
    const GemmPlan& p = p_;
    llvm::IRBuilderBase& b = b_;
    Product product{bt};
    if (p.conv) {
      const ConvGemm& c = *p.conv;
      Value* group = feature_major_ ? b.CreateURem(bt, b.getInt64(c.groups)) : bt;
      product.image = feature_major_ ? b.CreateUDiv(bt, b.getInt64(c.groups)) : nullptr;
      product.feature0 = b.CreateMul(group, b.getInt64(c.features));
      product.out_feature0 =
          b.CreateMul(group, b.getInt64(c.interleave * c.group_outputs));
    }
    // Depth slices: [pc, pc + kc) of K; a convolution's read from the
    // input in place stay within a tap.
    const int64_t slices =
        padded_          ? p.conv->taps * p.conv->chunks
        : !conv_rows_    ? (p.k_pad + t_.kc - 1) / t_.kc
        : p.conv->packed ? (p.conv->taps + p.conv->taps_per_slice - 1) /
                               p.conv->taps_per_slice
                         : p.conv->taps * p.conv->chunks;
    RETURN_IF_ERROR(EmitForLoop(
        b, b.getInt64(0), b.getInt64(slices), "gemm.kslice",
        [&](Value* s) { return EmitSlice(unit, product, s); }));
    return EmitOutput(unit, product);
  }

  // Depth slice s's bounds, and a convolution's tap in it.
  Slice SliceAt(Value* s) {
    const GemmPlan& p = p_;
    llvm::IRBuilderBase& b = b_;
    Slice slice{s};
    if (p.conv && p.conv->packed) {
      slice.pc = b.CreateMul(s, b.getInt64(t_.kc));
      slice.kc = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.getInt64(t_.kc),
                                         b.CreateSub(b.getInt64(k_), slice.pc));
    } else if (conv_rows_ || padded_) {
      slice.tap = b.CreateUDiv(s, b.getInt64(p.conv->chunks));
      slice.c0 = b.CreateMul(b.CreateURem(s, b.getInt64(p.conv->chunks)),
                             b.getInt64(t_.kc));
      slice.pc = b.CreateAdd(b.CreateMul(slice.tap, b.getInt64(p.conv->features)),
                             slice.c0);
      slice.kc = b.CreateBinaryIntrinsic(
          llvm::Intrinsic::umin, b.getInt64(t_.kc),
          b.CreateSub(b.getInt64(p.conv->features), slice.c0));
    } else {
      slice.pc = b.CreateMul(s, b.getInt64(t_.kc));
      slice.kc = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.getInt64(t_.kc),
                                         b.CreateSub(b.getInt64(p.k_pad), slice.pc));
    }
    // A convolution's window offset of this tap, per spatial axis.
    if (conv_rows_ && !p.conv->packed) {
      slice.tap_at = WindowOffsets(b, *p.conv, slice.tap);
    }
    return slice;
  }

  // Depth slice s of the product: what it packs, then its tiles.
  absl::Status EmitSlice(const Unit& unit, const Product& product, Value* s) {
    const GemmPlan& p = p_;
    llvm::IRBuilderBase& b = b_;
    Slice slice = SliceAt(s);
    if (feature_major_ && !padded_) {
      PackConvPanels(b, p, *conv_a_, product.image, product.feature0, unit.q0,
                     unit.q1, slice.pc, slice.kc, unit.ap);
    }
    // A padded convolution's B panels start at this slice's tap and
    // first feature in the image's planes (one feature group).
    slice.planes =
        padded_ ? At(planes_,
                     b.CreateAdd(
                         b.CreateMul(b.CreateAdd(b.CreateMul(product.image, b.getInt64(
                                                                 p.conv->features)),
                                                 slice.c0),
                                     b.getInt64(p.conv->plane)),
                         PlaneTapOffset(b, *p.conv, slice.tap)))
                : nullptr;
    if (conv_rows_ && p.conv->packed && !p.conv->all_groups) {
      PackConvTaps(b, p, *conv_a_, unit.row_info, zeros_, unit.ap, slice.pc,
                   slice.kc, b.CreateMul(unit.panels, b.getInt64(t_.mr)),
                   product.feature0);
    }
    if (direct_a_ == nullptr && conv_a_ == nullptr) {
      RETURN_IF_ERROR(PackA(a_, p, product.bt, unit.i0,
                            b.CreateMul(unit.panels, b.getInt64(t_.mr)),
                            slice.pc, slice.kc, unit.ap));
    }
    // The tiles: each nr-panel of B against each mr-panel of A.
    EmitForLoop(b, unit.q0, unit.q1, "gemm.jr",
                [&](Value* jq) { EmitPanelTiles(unit, product, slice, jq); });
    return absl::OkStatus();
  }

  // Row r of A's block at the slice's depths: straight from the operand
  // when its rows are contiguous along k, else packed into the slot's
  // kc-element rows. Rows past m repeat row m - 1; their accumulators are
  // never written out.
  Value* ClampedRow(const Unit& unit, Value* r) {
    return b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin,
                                    b_.CreateAdd(unit.i0, r),
                                    b_.getInt64(m_ - 1));
  }
  Value* ARow(const Unit& unit, const Product& product, const Slice& slice,
              Value* r) {
    const GemmPlan& p = p_;
    llvm::IRBuilderBase& b = b_;
    if (feature_major_) {
      return At(once_, b.CreateAdd(b.CreateMul(b.CreateAdd(ClampedRow(unit, r),
                                                           product.out_feature0),
                                               b.getInt64(k_)),
                                   slice.pc));
    }
    if (conv_rows_ && p.conv->all_groups) {
      const int64_t il = p.conv->interleave;
      return At(unit.ap,
                b.CreateMul(b.CreateAdd(b.CreateMul(r, b.getInt64(p.conv->groups / il)),
                                        product.bt),
                            b.getInt64(k_ * il)));
    }
    if (conv_rows_ && !p.conv->packed) {
      return ConvRowPointer(b, p, *conv_a_, unit.row_info, r, slice.tap_at,
                            b.CreateAdd(product.feature0, slice.c0), zeros_);
    }
    if (direct_a_ != nullptr) {
      return InPlace(b, p, *direct_a_, p.dims.lhs_batch, product.bt,
                     p.dims.lhs_contract, slice.pc, p.dims.lhs_free,
                     UnflattenRowMajor(b, ClampedRow(unit, r), p.dims.m_ext));
    }
    return OpAt(unit.ap, b.CreateMul(r, slice.kc));
  }

  // B's nr-panel jq against every mr-panel of the block's rows.
  void EmitPanelTiles(const Unit& unit, const Product& product,
                      const Slice& slice, Value* jq) {
    const GemmPlan& p = p_;
    llvm::IRBuilderBase& b = b_;
    const int64_t nr = nr_;
    Value* bpanel =
        feature_major_
            ? At(unit.ap, b.CreateMul(b.CreateMul(b.CreateSub(jq, unit.q0), slice.kc),
                                      b.getInt64(nr)))
            : OpAt(once_,
                   b.CreateAdd(
                       b.CreateMul(
                           b.CreateAdd(b.CreateMul(product.bt, b.getInt64(p.n_pad)),
                                       b.CreateMul(jq, b.getInt64(nr))),
                           b.getInt64(p.k_pad)),
                       b.CreateMul(slice.pc, b.getInt64(nr))));
    Value* ldb = b.getInt64(nr);
    if (padded_) {
      bpanel = At(slice.planes, b.CreateMul(jq, b.getInt64(nr)));
      ldb = b.getInt64(p.conv->plane);
    }
    if (direct_b_ != nullptr) {
      bpanel = InPlace(b, p, *direct_b_, p.dims.rhs_batch, product.bt,
                       p.dims.rhs_contract, slice.pc, p.dims.rhs_free,
                       {b.CreateMul(jq, b.getInt64(nr))});
      ldb = b.getInt64(n_);
    }
    if (feature_major_ && p.conv->pointwise) {
      // Whole panels of a pointwise convolution are read in place.
      Value* in_place = b.CreateICmpULT(jq, b.getInt64(p.conv->positions / nr));
      bpanel = b.CreateSelect(
          in_place,
          PointwisePanel(b, p, *conv_a_, product.image,
                         b.CreateAdd(product.feature0, slice.pc), jq),
          bpanel);
      ldb = b.CreateSelect(in_place, b.getInt64(PointwiseRowStride(p, *conv_a_)),
                           ldb);
    }
    // The mr-panels [begin, end) on `tile_kernel`, of `tile_rows` rows.
    auto tiles = [&](Value* begin, Value* end, llvm::Function* tile_kernel,
                     int tile_rows, const char* name) {
      EmitForLoop(b, begin, end, name, [&](Value* iq) {
        for (int r = 0; r < tile_rows; ++r) {
          b.CreateAlignedStore(
              ARow(unit, product, slice,
                   b.CreateAdd(b.CreateMul(iq, b.getInt64(t_.mr)), b.getInt64(r))),
              b.CreateConstInBoundsGEP1_64(ptr_type_, rows_array_, r),
              llvm::Align(8));
        }
        Value* ctile = At(
            unit.cs, b.CreateAdd(b.CreateMul(iq, b.getInt64(t_.mr * p.ldc())),
                                 b.CreateMul(b.CreateSub(jq, unit.q0), b.getInt64(nr))));
        b.CreateCall(tile_kernel, {rows_array_, bpanel, ldb, slice.kc, ctile,
                                   b.getInt64(p.ldc()),
                                   b.CreateICmpNE(slice.s, b.getInt64(0))});
      });
    };
    if (edge_kernel_ == nullptr) {
      tiles(b.getInt64(0), unit.panels, kernel_, t_.mr, "gemm.ir");
    } else {
      // The last block's last m % mr rows, if this is it, on a kernel of
      // that many rows.
      Value* whole = b.CreateUDiv(unit.rows, b.getInt64(t_.mr));
      tiles(b.getInt64(0), whole, kernel_, t_.mr, "gemm.ir");
      tiles(whole, unit.panels, edge_kernel_, edge_tiling_.mr, "gemm.ir_edge");
    }
  }

  // The block's rows from their accumulators, through the epilogue.
  absl::Status EmitOutput(const Unit& unit, const Product& product) {
    llvm::IRBuilderBase& b = b_;
    return EmitForLoop(b, b.getInt64(0), unit.rows, "gemm.out", [&](Value* r) {
      Value* row = b.CreateAdd(unit.i0, r);
      return EmitForLoop(b, unit.j0, unit.j1, "gemm.out.j", [&](Value* j) {
        return EmitOutputElement(unit, product, r, row, j);
      });
    });
  }

  // The output element of the block's row r (the product's row `row`) and
  // column j.
  absl::Status EmitOutputElement(const Unit& unit, const Product& product,
                                 Value* r, Value* row, Value* j) {
    const GemmPlan& p = p_;
    llvm::IRBuilderBase& b = b_;
    // A padded convolution's column past the output's sizes is dropped.
    std::vector<Value*> position;
    llvm::BasicBlock* next = nullptr;
    if (feature_major_) {
      const std::vector<int64_t> pos_ext =
          padded_ ? p.conv->column_ext
                  : std::vector<int64_t>(p.conv->row_ext.begin() + 1,
                                         p.conv->row_ext.end());
      position = UnflattenRowMajor(b, j, pos_ext);
    }
    if (padded_) {
      Value* inside = b.getTrue();
      for (size_t i = 1; i < position.size(); ++i) {
        inside = b.CreateAnd(inside, b.CreateICmpULT(position[i],
                                                     b.getInt64(p.conv->row_ext[i + 1])));
      }
      llvm::Function* fn = b.GetInsertBlock()->getParent();
      auto* write = llvm::BasicBlock::Create(ctx_, "gemm.out.write", fn);
      next = llvm::BasicBlock::Create(ctx_, "gemm.out.next", fn);
      b.CreateCondBr(inside, write, next);
      b.SetInsertPoint(write);
    }
    Value* sum = b.CreateAlignedLoad(
        elem_,
        At(unit.cs, b.CreateAdd(b.CreateMul(r, b.getInt64(p.ldc())),
                                b.CreateSub(j, unit.j0))),
        llvm::Align(eb_));
    if (column_offsets_ != nullptr) {
      sum = b.CreateSub(
          sum, b.CreateAlignedLoad(
                   elem_,
                   b.CreateInBoundsGEP(
                       elem_, column_offsets_,
                       b.CreateAdd(b.CreateMul(product.bt, b.getInt64(p.n_pad)), j)),
                   llvm::Align(4)));
    }
    sum = RoundToStorage(b, sum, p.result);
    const IrArray& out = a_.out[0];
    const Index o = OutputIndex(product, row, j, position);
    ASSIGN_OR_RETURN(Value * v, EmitDotEpilogue(emitter_, a_, p.site, sum, o));
    out.Write(b, o, v);
    if (next != nullptr) {
      b.CreateBr(next);
      b.SetInsertPoint(next);
    }
    return absl::OkStatus();
  }

  // The output's index of the product's row and column j (`position`: a
  // feature-major convolution's output position of j).
  Index OutputIndex(const Product& product, Value* row, Value* j,
                    const std::vector<Value*>& position) {
    const GemmPlan& p = p_;
    llvm::IRBuilderBase& b = b_;
    Index o;
    const IrArray& out = a_.out[0];
    if (feature_major_) {
      // Row: output feature; column: output position.
      const ConvolutionDimensionNumbers& dn = p.conv->dn;
      o.multi.resize(out.shape().rank());
      o.multi[dn.output_batch] = product.image;
      for (size_t i = 0; i < dn.output_spatial.size(); ++i) {
        o.multi[dn.output_spatial[i]] = position[i];
      }
      o.multi[dn.output_feature] = b.CreateAdd(product.out_feature0, row);
    } else if (p.conv) {
      const ConvolutionDimensionNumbers& dn = p.conv->dn;
      const std::vector<Value*> rc = UnflattenRowMajor(b, row, p.conv->row_ext);
      o.multi.resize(out.shape().rank());
      o.multi[dn.output_batch] = rc[0];
      for (size_t i = 0; i < dn.output_spatial.size(); ++i) {
        o.multi[dn.output_spatial[i]] = rc[i + 1];
      }
      o.multi[dn.output_feature] = b.CreateAdd(product.out_feature0, j);
    } else {
      for (const auto& [flat, extents] :
           {std::pair{product.bt, &p.dims.batch_ext}, std::pair{row, &p.dims.m_ext},
            std::pair{j, &p.dims.n_ext}}) {
        for (Value* c : UnflattenRowMajor(b, flat, *extents)) o.multi.push_back(c);
      }
    }
    if (!p.conv && out.shape().HasDefaultLayout()) {
      o.linear = b.CreateAdd(
          b.CreateMul(b.CreateAdd(b.CreateMul(product.bt, b.getInt64(m_)), row),
                      b.getInt64(n_)),
          j);
      o.shape = &out.shape();
    }
    return o;
  }

  const LoopArgs& a_;
  const GemmPlan& p_;
  llvm::IRBuilderBase& b_;
  llvm::LLVMContext& ctx_;
  const GemmTiling& t_;
  llvm::Type* elem_;
  // The packed operands' elements: bf16 bits or s8 with depth groups.
  llvm::Type* op_elem_;
  const int64_t eb_;
  const int64_t m_, n_, k_;
  const int64_t nr_;
  const bool feature_major_;
  // A convolution whose A rows are read from the input (not feature-major).
  const bool conv_rows_;
  const bool padded_;
  ElementalEmitter emitter_;
  llvm::Function* kernel_ = nullptr;
  GemmTiling edge_tiling_;
  llvm::Function* edge_kernel_ = nullptr;
  Value* once_ = nullptr;
  Value* column_offsets_ = nullptr;
  Value* slots_ = nullptr;
  const IrArray* direct_a_ = nullptr;
  const IrArray* conv_a_ = nullptr;
  const IrArray* direct_b_ = nullptr;
  Value* planes_ = nullptr;
  Value* zeros_ = nullptr;
  llvm::Type* ptr_type_ = nullptr;
  llvm::AllocaInst* rows_array_ = nullptr;
};

}  // namespace

absl::Status EmitGemm(const LoopArgs& a, const GemmPlan& p) {
  return GemmEmitter(a, p).Emit();
}

}  // namespace aotc::codegen
