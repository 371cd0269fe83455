// The convolution side of the gemm strategy: each row's window origin,
// the row pointers into the input, the packing of inputs with few
// features (a group's, or every group's at once), and a feature-major
// input's panels (see ConvGemm in plan.h).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/emit/ir_types.h"
#include "codegen/strategies/gemm/plan.h"
#include "compiler/ir/shape_inference.h"
#include "compiler/support/check.h"
#include "llvm/IR/Intrinsics.h"

namespace aotc::codegen {

using llvm::Value;

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

std::vector<Value*> WindowOffsets(llvm::IRBuilderBase& b, const ConvGemm& c,
                                  Value* tap) {
  std::vector<Value*> at;
  const std::vector<Value*> w = UnflattenRowMajor(b, tap, c.kernel_ext);
  for (size_t i = 0; i < w.size(); ++i) {
    at.push_back(b.CreateMul(w[i], b.getInt64(c.window[i].window_dilation)));
  }
  return at;
}

namespace {

// Copies `count` elements from `src` to `dst`: a memcpy of constant size,
// which LLVM turns into a few vector moves.
void CopyElements(llvm::IRBuilderBase& b, llvm::Type* elem, Value* dst,
                  Value* src, int64_t count) {
  const llvm::Align align(elem->getPrimitiveSizeInBits() / 8);
  b.CreateMemCpy(dst, align, src, align,
                 count * static_cast<int64_t>(align.value()));
}

}  // namespace

// A convolution with few input features, its depth slice [pc, pc + kc) of
// whole taps packed for `rows` rows into kc-element rows at `ap`, features
// from `feature0` on (the group's first). With
// row runs, a slice holds whole kernel rows (the taps along the innermost
// spatial axis), whose features lie side by side in the input: a row copies
// each kernel row as one run where it falls inside the input, and tap by
// tap (zeros outside) near the edges.
void PackConvTaps(llvm::IRBuilderBase& b, const GemmPlan& p,
                  const IrArray& input, Value* row_info, Value* zeros,
                  Value* ap, Value* pc, Value* kc, Value* rows,
                  Value* feature0) {
  const ConvGemm& c = *p.conv;
  llvm::Type* elem = ComputeType(b.getContext(), p.type);
  const int64_t f = c.features;
  const int64_t run_taps = c.row_runs ? c.kernel_ext.back() : 1;
  Value* first = b.CreateUDiv(pc, b.getInt64(f));
  Value* groups = b.CreateUDiv(kc, b.getInt64(f * run_taps));
  const size_t last = c.window.size() - 1;
  // Row by row, so that the input a row's taps read (a few lines of the
  // input per kernel row) is read again from L1 by the next rows' taps.
  EmitForLoop(b, b.getInt64(0), rows, "gemm.pack_taps.r", [&](Value* r) {
    EmitForLoop(b, b.getInt64(0), groups, "gemm.pack_taps", [&](Value* g) {
      const std::vector<Value*> at_tap = WindowOffsets(
          b, c, b.CreateAdd(first, b.CreateMul(g, b.getInt64(run_taps))));
      Value* dst = b.CreateInBoundsGEP(
          elem, ap, b.CreateAdd(b.CreateMul(r, kc),
                                b.CreateMul(g, b.getInt64(run_taps * f))));
      if (run_taps == 1) {
        CopyElements(b, elem, dst,
                     ConvRowPointer(b, p, input, row_info, r, at_tap,
                                    feature0, zeros),
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
                                  feature0, zeros),
                   run_taps * f);
      b.CreateBr(done);
      b.SetInsertPoint(edge);
      EmitForLoop(b, b.getInt64(0), b.getInt64(run_taps), "run.tap", [&](Value* w) {
        std::vector<Value*> at = at_tap;
        at[last] = b.CreateAdd(at[last], w);
        CopyElements(b, elem,
                     b.CreateInBoundsGEP(elem, dst, b.CreateMul(w, b.getInt64(f))),
                     ConvRowPointer(b, p, input, row_info, r, at, feature0,
                                    zeros),
                     f);
      });
      b.CreateBr(done);
      b.SetInsertPoint(done);
    });
  });
}

void PackConvGroups(llvm::IRBuilderBase& b, const GemmPlan& p,
                    const IrArray& input, Value* row_info, Value* zeros,
                    Value* ap, Value* rows) {
  const ConvGemm& c = *p.conv;
  llvm::Type* elem = ComputeType(b.getContext(), p.type);
  const int64_t f = c.features;
  const int64_t k = c.taps * f;
  const int64_t il = c.interleave;
  // A set's interleave x f input features of one tap, transposed to f x
  // interleave: element i * il + j from j * f + i.
  llvm::SmallVector<int, 64> transpose;
  for (int64_t i = 0; i < f; ++i) {
    for (int64_t j = 0; j < il; ++j) transpose.push_back(static_cast<int>(j * f + i));
  }
  llvm::Type* set_type = llvm::FixedVectorType::get(elem, il * f);
  const llvm::Align align(StorageBytes(p.type));
  EmitForLoop(b, b.getInt64(0), rows, "gemm.pack_groups.r", [&](Value* r) {
    Value* row_dst = b.CreateInBoundsGEP(
        elem, ap, b.CreateMul(r, b.getInt64(c.groups * k)));
    EmitForLoop(b, b.getInt64(0), b.getInt64(c.taps), "gemm.pack_groups.tap",
                [&](Value* tap) {
      Value* src = ConvRowPointer(b, p, input, row_info, r,
                                  WindowOffsets(b, c, tap), b.getInt64(0), zeros);
      Value* dst = b.CreateInBoundsGEP(elem, row_dst,
                                       b.CreateMul(tap, b.getInt64(f * il)));
      if (il > 1) {
        EmitForLoop(b, b.getInt64(0), b.getInt64(c.groups / il),
                    "gemm.pack_groups.set", [&](Value* s) {
          Value* v = b.CreateAlignedLoad(
              set_type,
              b.CreateInBoundsGEP(elem, src, b.CreateMul(s, b.getInt64(il * f))),
              align);
          b.CreateAlignedStore(
              b.CreateShuffleVector(v, transpose),
              b.CreateInBoundsGEP(elem, dst, b.CreateMul(s, b.getInt64(k * il))),
              align);
        });
        return;
      }
      EmitForLoop(b, b.getInt64(0), b.getInt64(c.groups), "gemm.pack_groups.g",
                  [&](Value* g) {
        CopyElements(
            b, elem, b.CreateInBoundsGEP(elem, dst, b.CreateMul(g, b.getInt64(k))),
            b.CreateInBoundsGEP(elem, src, b.CreateMul(g, b.getInt64(f))), f);
      });
    });
  });
}

// Each depth row k = (tap, feature) of a panel is copied run by run: the
// panel's positions split at the ends of output rows (the innermost spatial
// axis), and each row's positions whose window tap falls inside the input
// form one range, found with two divisions, copied with the window's stride
// (one vector move per few elements when the stride is 1 and the innermost
// spatial axis is the most minor dimension), zeros on either side.
void PackConvPanels(llvm::IRBuilderBase& b, const GemmPlan& p,
                    const IrArray& input, Value* image, Value* feature0,
                    Value* q0, Value* q1, Value* pc, Value* kc, Value* dst) {
  const ConvGemm& c = *p.conv;
  AOTC_CHECK(!c.window.empty(), "a feature-major product needs a window");
  llvm::Type* elem = ComputeType(b.getContext(), p.type);
  const std::vector<int64_t> strides = PhysicalStrides(input.shape());
  const int64_t nr = p.tiling.nr();
  const size_t last = c.window.size() - 1;
  const int64_t width = c.row_ext.back();  // output positions per row
  const int64_t stride = c.window[last].stride;
  const std::vector<int64_t> outer_ext(c.row_ext.begin() + 1, c.row_ext.end() - 1);
  Value* zero = llvm::ConstantFP::get(elem, 0);
  auto store = [&](Value* row_dst, Value* at, Value* v) {
    b.CreateAlignedStore(v, b.CreateInBoundsGEP(elem, row_dst, at),
                         llvm::Align(StorageBytes(p.type)));
  };
  auto fill_zeros = [&](Value* row_dst, Value* from, Value* to) {
    EmitForLoop(b, from, to, "gemm.pack_conv.zero",
                [&](Value* jj) { store(row_dst, jj, zero); });
  };
  // Depth row kk of panel q in `dst`.
  auto panel_row = [&](Value* q, Value* kk) {
    return b.CreateInBoundsGEP(
        elem, dst,
        b.CreateMul(b.CreateAdd(b.CreateMul(b.CreateSub(q, q0), kc), kk),
                    b.getInt64(nr)));
  };
  if (c.pointwise) {
    // Position j of every depth row is input element j of its feature's
    // plane: whole panels are read in place (PointwisePanel), the last,
    // partial one is copied here, zeros past the last position.
    const int64_t whole = c.positions / nr;
    if (whole * nr == c.positions) return;
    EmitForLoop(b, b.getInt64(0), kc, "gemm.pack_conv.k", [&](Value* kk) {
      Value* q = b.getInt64(whole);
      Value* j0 = b.getInt64(whole * nr);
      Value* row_dst = panel_row(q, kk);
      Value* src = b.CreateInBoundsGEP(
          elem, input.base(),
          b.CreateAdd(
              b.CreateAdd(b.CreateMul(image, b.getInt64(strides[c.dn.input_batch])),
                          b.CreateMul(b.CreateAdd(feature0, b.CreateAdd(pc, kk)),
                                      b.getInt64(strides[c.dn.input_feature]))),
              j0));
      llvm::Function* fn = b.GetInsertBlock()->getParent();
      auto* edge = llvm::BasicBlock::Create(b.getContext(), "panel.edge", fn);
      auto* done = llvm::BasicBlock::Create(b.getContext(), "panel.done", fn);
      // Only the unit whose group holds the last panel copies it.
      b.CreateCondBr(b.CreateAnd(b.CreateICmpULE(q0, q), b.CreateICmpULT(q, q1)),
                     edge, done);
      b.SetInsertPoint(edge);
      const int64_t count = c.positions - whole * nr;
      EmitForLoop(b, b.getInt64(0), b.getInt64(count), "gemm.pack_conv.tail",
                  [&](Value* x) {
        store(row_dst, x,
              b.CreateAlignedLoad(elem, b.CreateInBoundsGEP(elem, src, x),
                                  llvm::Align(StorageBytes(p.type))));
      });
      fill_zeros(row_dst, b.getInt64(count), b.getInt64(nr));
      b.CreateBr(done);
      b.SetInsertPoint(done);
    });
    return;
  }
  EmitForLoop(b, b.getInt64(0), kc, "gemm.pack_conv.k", [&](Value* kk) {
    Value* k = b.CreateAdd(pc, kk);
    const std::vector<Value*> at_tap =
        WindowOffsets(b, c, b.CreateUDiv(k, b.getInt64(c.features)));
    Value* base = b.CreateAdd(
        b.CreateMul(image, b.getInt64(strides[c.dn.input_batch])),
        b.CreateMul(b.CreateAdd(feature0, b.CreateURem(k, b.getInt64(c.features))),
                    b.getInt64(strides[c.dn.input_feature])));
    // The tap's input position along the innermost axis is x * stride + off
    // for output position x: inside for x in [x_lo, x_hi).
    Value* off = b.CreateSub(at_tap[last], b.getInt64(c.window[last].pad_low));
    Value* neg = b.CreateNeg(off);
    Value* x_lo = b.CreateSelect(
        b.CreateICmpSLE(neg, b.getInt64(0)), b.getInt64(0),
        b.CreateSDiv(b.CreateAdd(neg, b.getInt64(stride - 1)), b.getInt64(stride)));
    Value* room = b.CreateSub(b.getInt64(c.in_ext[last] - 1), off);
    Value* x_hi = b.CreateSelect(
        b.CreateICmpSLT(room, b.getInt64(0)), b.getInt64(0),
        b.CreateAdd(b.CreateSDiv(room, b.getInt64(stride)), b.getInt64(1)));
    EmitForLoop(b, q0, q1, "gemm.pack_conv.q", [&](Value* q) {
      Value* row_dst = panel_row(q, kk);
      Value* j0 = b.CreateMul(q, b.getInt64(nr));
      Value* j1 = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin,
                                          b.CreateAdd(j0, b.getInt64(nr)),
                                          b.getInt64(c.positions));
      Value* row_lo = b.CreateUDiv(j0, b.getInt64(width));
      Value* row_hi = b.CreateAdd(
          b.CreateUDiv(b.CreateSub(j1, b.getInt64(1)), b.getInt64(width)),
          b.getInt64(1));
      EmitForLoop(b, row_lo, row_hi, "gemm.pack_conv.row", [&](Value* row) {
        Value* row_start = b.CreateMul(row, b.getInt64(width));
        // This panel's positions of the row: x in [x0, x1).
        Value* x0 = b.CreateSub(
            b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, j0, row_start), row_start);
        Value* x1 = b.CreateSub(
            b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, j1,
                                    b.CreateAdd(row_start, b.getInt64(width))),
            row_start);
        // The outer axes' input positions, all inside or the row is zeros.
        const std::vector<Value*> outer = UnflattenRowMajor(b, row, outer_ext);
        Value* inside = b.getTrue();
        Value* row_base = base;
        for (size_t i = 0; i < last; ++i) {
          Value* pos = b.CreateAdd(
              b.CreateSub(b.CreateMul(outer[i], b.getInt64(c.window[i].stride)),
                          b.getInt64(c.window[i].pad_low)),
              at_tap[i]);
          inside = b.CreateAnd(inside, b.CreateICmpULT(pos, b.getInt64(c.in_ext[i])));
          row_base = b.CreateAdd(
              row_base, b.CreateMul(pos, b.getInt64(strides[c.dn.input_spatial[i]])));
        }
        auto clamp = [&](Value* v) {
          return b.CreateBinaryIntrinsic(
              llvm::Intrinsic::smin,
              b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, v, x0), x1);
        };
        Value* v0 = b.CreateSelect(inside, clamp(x_lo), x1);
        Value* v1 = b.CreateBinaryIntrinsic(
            llvm::Intrinsic::smax, b.CreateSelect(inside, clamp(x_hi), x1), v0);
        // The segment's first position x0 sits at x0 + row_start - j0 >= 0
        // in the panel; position x at x - x0 from there.
        Value* segment = b.CreateInBoundsGEP(
            elem, row_dst, b.CreateSub(b.CreateAdd(x0, row_start), j0));
        fill_zeros(segment, b.getInt64(0), b.CreateSub(v0, x0));
        const int64_t x_stride = strides[c.dn.input_spatial[last]];
        // Input position x * stride + off of the row; outside the input for
        // x outside [x_lo, x_hi), where the address is never formed.
        Value* src = b.CreateAdd(row_base, b.CreateMul(off, b.getInt64(x_stride)));
        EmitForLoop(b, v0, v1, "gemm.pack_conv.copy", [&](Value* x) {
          Value* v = b.CreateAlignedLoad(
              elem,
              b.CreateInBoundsGEP(
                  elem, input.base(),
                  b.CreateAdd(src, b.CreateMul(x, b.getInt64(stride * x_stride)))),
              llvm::Align(StorageBytes(p.type)));
          store(segment, b.CreateSub(x, x0), v);
        });
        fill_zeros(segment, b.CreateSub(v1, x0), b.CreateSub(x1, x0));
      });
      // Past the last position (the edge panel).
      fill_zeros(row_dst, b.CreateSub(j1, j0), b.getInt64(nr));
    });
  });
}

void PadInputPlanes(llvm::IRBuilderBase& b, const GemmPlan& p,
                    const IrArray& input, Value* dst) {
  const ConvGemm& c = *p.conv;
  llvm::Type* elem = ComputeType(b.getContext(), p.type);
  const llvm::Align align(StorageBytes(p.type));
  const std::vector<int64_t> strides = PhysicalStrides(input.shape());
  const size_t last = c.window.size() - 1;
  const int64_t width = c.padded_ext[last];
  const int64_t inside = c.in_ext[last];
  const int64_t pad_low = c.window[last].pad_low;
  const std::vector<int64_t> outer_ext(c.padded_ext.begin(), c.padded_ext.end() - 1);
  int64_t rows = 1;
  for (int64_t e : outer_ext) rows *= e;
  auto zeros = [&](Value* row_dst, int64_t from, int64_t to) {
    if (from >= to) return;
    b.CreateMemSet(b.CreateInBoundsGEP(elem, row_dst, b.getInt64(from)), b.getInt8(0),
                   (to - from) * StorageBytes(p.type), align);
  };
  EmitForLoop(b, b.getInt64(0), b.getInt64(c.row_ext[0] * c.features),
              "gemm.pad_planes", [&](Value* plane) {
    Value* bt = b.CreateUDiv(plane, b.getInt64(c.features));
    Value* f = b.CreateURem(plane, b.getInt64(c.features));
    Value* plane_dst = b.CreateInBoundsGEP(elem, dst, b.CreateMul(plane, b.getInt64(c.plane)));
    Value* plane_src = b.CreateAdd(
        b.CreateMul(bt, b.getInt64(strides[c.dn.input_batch])),
        b.CreateMul(f, b.getInt64(strides[c.dn.input_feature])));
    EmitForLoop(b, b.getInt64(0), b.getInt64(rows), "gemm.pad_planes.row",
                [&](Value* row) {
      Value* row_dst = b.CreateInBoundsGEP(elem, plane_dst,
                                           b.CreateMul(row, b.getInt64(width)));
      // The row's input position along each outer axis, and whether all
      // of them are inside.
      const std::vector<Value*> at = UnflattenRowMajor(b, row, outer_ext);
      Value* in = b.getTrue();
      Value* src = plane_src;
      for (size_t i = 0; i < at.size(); ++i) {
        Value* x = b.CreateSub(at[i], b.getInt64(c.window[i].pad_low));
        in = b.CreateAnd(in, b.CreateICmpULT(x, b.getInt64(c.in_ext[i])));
        src = b.CreateAdd(src, b.CreateMul(x, b.getInt64(strides[c.dn.input_spatial[i]])));
      }
      llvm::Function* fn = b.GetInsertBlock()->getParent();
      auto* copy = llvm::BasicBlock::Create(b.getContext(), "pad.copy", fn);
      auto* blank = llvm::BasicBlock::Create(b.getContext(), "pad.blank", fn);
      auto* done = llvm::BasicBlock::Create(b.getContext(), "pad.done", fn);
      b.CreateCondBr(in, copy, blank);
      b.SetInsertPoint(copy);
      zeros(row_dst, 0, pad_low);
      Value* from = b.CreateInBoundsGEP(elem, input.base(), src);
      Value* to = b.CreateInBoundsGEP(elem, row_dst, b.getInt64(pad_low));
      const int64_t step = strides[c.dn.input_spatial[last]];
      if (step == 1) {
        CopyElements(b, elem, to, from, inside);
      } else {
        EmitForLoop(b, b.getInt64(0), b.getInt64(inside), "gemm.pad_planes.x",
                    [&](Value* x) {
          b.CreateAlignedStore(
              b.CreateAlignedLoad(
                  elem, b.CreateInBoundsGEP(elem, from, b.CreateMul(x, b.getInt64(step))),
                  align),
              b.CreateInBoundsGEP(elem, to, x), align);
        });
      }
      zeros(row_dst, pad_low + inside, width);
      b.CreateBr(done);
      b.SetInsertPoint(blank);
      zeros(row_dst, 0, width);
      b.CreateBr(done);
      b.SetInsertPoint(done);
    });
    // Past the padded sizes: zeros up to the next plane.
    zeros(plane_dst, rows * width, c.plane);
  });
}

Value* PlaneTapOffset(llvm::IRBuilderBase& b, const ConvGemm& c, Value* tap) {
  const std::vector<Value*> at = WindowOffsets(b, c, tap);
  Value* offset = b.getInt64(0);
  int64_t pitch = 1;
  for (size_t i = at.size(); i-- > 0;) {
    offset = b.CreateAdd(offset, b.CreateMul(at[i], b.getInt64(pitch)));
    pitch *= c.padded_ext[i];
  }
  return offset;
}

Value* PointwisePanel(llvm::IRBuilderBase& b, const GemmPlan& p,
                      const IrArray& input, Value* image, Value* feature,
                      Value* jq) {
  const ConvGemm& c = *p.conv;
  const std::vector<int64_t> strides = PhysicalStrides(input.shape());
  return b.CreateInBoundsGEP(
      ComputeType(b.getContext(), p.type), input.base(),
      b.CreateAdd(
          b.CreateAdd(b.CreateMul(image, b.getInt64(strides[c.dn.input_batch])),
                      b.CreateMul(feature, b.getInt64(strides[c.dn.input_feature]))),
          b.CreateMul(jq, b.getInt64(p.tiling.nr()))));
}

int64_t PointwiseRowStride(const GemmPlan& p, const IrArray& input) {
  return PhysicalStrides(input.shape())[p.conv->dn.input_feature];
}

std::optional<ConvGemm> DescribeConvolution(const Instruction& conv) {
  const InstructionAttributes& attrs = conv.attrs();
  const Shape& lhs = conv.operand(0)->shape();
  const Shape& rhs = conv.operand(1)->shape();
  const PrimitiveType type = conv.shape().element_type();
  if (attrs.feature_group_count < 1 || attrs.batch_group_count != 1 ||
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
  if (c.window.size() != c.dn.input_spatial.size()) return std::nullopt;
  c.groups = attrs.feature_group_count;
  c.features = lhs.dimensions(c.dn.input_feature) / c.groups;
  c.group_outputs = rhs.dimensions(c.dn.kernel_output_feature) / c.groups;
  // Groups of one input feature are depthwise, the depthwise strategy's.
  if (c.groups > 1 && c.features == 1) return std::nullopt;
  c.feature_major = lhs.layout().minor_to_major[0] != c.dn.input_feature;
  c.packed = !c.feature_major && c.features < 8;
  c.row_runs = !c.feature_major && !c.window.empty() && c.groups == 1 &&
               c.window.back().window_dilation == 1 &&
               PhysicalStrides(lhs)[c.dn.input_spatial.back()] == c.features;
  c.row_ext.push_back(conv.shape().dimensions(c.dn.output_batch));
  for (size_t i = 0; i < c.window.size(); ++i) {
    if (c.window[i].base_dilation != 1) return std::nullopt;
    c.in_ext.push_back(lhs.dimensions(c.dn.input_spatial[i]));
    c.kernel_ext.push_back(rhs.dimensions(c.dn.kernel_spatial[i]));
    c.row_ext.push_back(conv.shape().dimensions(c.dn.output_spatial[i]));
    c.taps *= c.kernel_ext.back();
    c.positions *= c.row_ext.back();
  }
  // Pointwise: a 1x1 window, stride 1, no padding, over spatial dimensions
  // that are one row-major block of the input's memory.
  const std::vector<int64_t> strides = PhysicalStrides(lhs);
  c.pointwise = c.feature_major && c.taps == 1;
  int64_t block = 1;
  for (size_t i = c.window.size(); i-- > 0 && c.pointwise;) {
    const WindowDim& w = c.window[i];
    c.pointwise = w.stride == 1 && w.pad_low == 0 && w.pad_high == 0 &&
                  strides[c.dn.input_spatial[i]] == block;
    block *= c.in_ext[i];
  }
  // Padded planes, where the columns they add past the output's sizes
  // (two per row of a 3x3 window) stay under a quarter of the positions,
  // and a tap's features make a depth slice deep enough that loading and
  // storing the accumulators once per slice costs less than the packing it
  // saves (NCHW 3x3 at 56x56 into 64 features: 32 input features 3%
  // slower than packing, 48 6% faster, 64 12%).
  constexpr int64_t kPlaneMinFeatures = 48;
  c.padded = c.feature_major && !c.pointwise && c.taps > 1 && c.groups == 1 &&
             c.features >= kPlaneMinFeatures;
  for (const WindowDim& w : c.window) {
    c.padded = c.padded && w.stride == 1 && w.pad_low >= 0 && w.pad_high >= 0;
  }
  if (c.padded) {
    int64_t columns = 1;
    for (size_t i = 0; i < c.window.size(); ++i) {
      c.padded_ext.push_back(c.in_ext[i] + c.window[i].pad_low + c.window[i].pad_high);
      c.column_ext.push_back(i == 0 ? c.row_ext[1] : c.padded_ext.back());
      columns *= c.column_ext.back();
    }
    c.padded = columns * 4 <= c.positions * 5;
    if (c.padded) {
      c.positions = columns;
    } else {
      c.padded_ext.clear();
      c.column_ext.clear();
    }
  }
  return c;
}


}  // namespace aotc::codegen
