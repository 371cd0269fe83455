// The depthwise convolution loops (see depthwise.h).
#include "codegen/strategies/depthwise.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "codegen/elemental/scalar_ops.h"
#include "codegen/emit/ir_types.h"
#include "codegen/strategies/dot_site.h"
#include "compiler/ir/shape_inference.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

constexpr int64_t kMaxFeatures = 16384;
// The longest output row of depthwise-rows and the most kernel taps: its
// accumulators and the row's taps are on the stack too.
constexpr int64_t kMaxRow = 16384;
constexpr int64_t kMaxTaps = 4096;
// The largest stride along W whose vectors of inputs are one wide load.
constexpr int64_t kMaxLoadStride = 4;
// The most kernel taps the NHWC strategy unrolls over a block of features.
constexpr int64_t kMaxBlockTaps = 49;

struct Depthwise {
  DotSite site;
  ConvolutionDimensionNumbers dn;
  std::vector<WindowDim> window;
  std::vector<int64_t> pos_ext;     // [batch, output spatial...]
  std::vector<int64_t> kernel_ext;  // kernel spatial sizes
  std::vector<int64_t> in_ext;      // input spatial sizes
  int64_t features = 0;             // input features
  int64_t multiplier = 1;           // output features per input feature
  // The operands' and the result's; products are summed in its compute
  // type (float for f16 and bf16) and rounded once at the end.
  PrimitiveType type = PrimitiveType::kF32;
  int64_t taps = 1;
  // NHWC: features per register block (0: none), see EmitFeatureBlock.
  int64_t block = 0;
};

// The facts both strategies share, or nullopt when `inst` is not a
// depthwise convolution (alone or at the heart of a fusion) of floats of
// one type, without input dilation and with a consistent result shape.
std::optional<Depthwise> MatchDepthwise(const Instruction& inst) {
  std::optional<DotSite> site = MatchDotSite(inst);
  if (!site.has_value() || site->dot->opcode() != Opcode::kConvolution ||
      !inst.shape().IsArray()) {
    return std::nullopt;
  }
  const Instruction& conv = *site->dot;
  const InstructionAttributes& attrs = conv.attrs();
  const Shape& lhs = conv.operand(0)->shape();
  const Shape& rhs = conv.operand(1)->shape();
  Depthwise d;
  d.site = *site;
  d.dn = attrs.conv_dnums;
  d.window = attrs.window;
  d.type = conv.shape().element_type();
  if (!IsFloat(d.type) || BitWidth(d.type) < 16 ||
      lhs.element_type() != d.type || rhs.element_type() != d.type ||
      lhs.rank() == 0 || attrs.batch_group_count != 1 ||
      d.window.size() != d.dn.input_spatial.size()) {
    return std::nullopt;
  }
  d.features = lhs.dimensions(d.dn.input_feature);
  const int64_t out_features = rhs.dimensions(d.dn.kernel_output_feature);
  if (d.features < 2 || attrs.feature_group_count != d.features ||
      rhs.dimensions(d.dn.kernel_input_feature) != 1 ||
      out_features % d.features != 0) {
    return std::nullopt;
  }
  d.multiplier = out_features / d.features;
  absl::StatusOr<Shape> inferred = InferShape(conv);
  if (!inferred.ok() || !inferred->SameDimensions(conv.shape())) {
    return std::nullopt;  // the element loops report it
  }
  d.pos_ext.push_back(conv.shape().dimensions(d.dn.output_batch));
  for (size_t i = 0; i < d.window.size(); ++i) {
    if (d.window[i].base_dilation != 1) return std::nullopt;
    d.pos_ext.push_back(conv.shape().dimensions(d.dn.output_spatial[i]));
    d.kernel_ext.push_back(rhs.dimensions(d.dn.kernel_spatial[i]));
    d.in_ext.push_back(lhs.dimensions(d.dn.input_spatial[i]));
    d.taps *= d.kernel_ext.back();
  }
  return d;
}

// The convolution's element from its sum: rounded once to an f16/bf16
// result, the sum itself otherwise. A convolution that is the instruction
// itself is rounded by the store of its element instead.
Value* SumToResult(llvm::IRBuilderBase& b, Value* sum, const Depthwise& d,
                   const Instruction& inst) {
  return d.site.dot == &inst ? sum : RoundToStorage(b, sum, d.type);
}

// Output position `pc`'s feature `c` from its sum, through the epilogue.
absl::Status WriteFeature(const LoopArgs& a, const Depthwise& d,
                          const std::vector<Value*>& pc, Value* c, Value* sum,
                          ElementalEmitter& emitter) {
  const IrArray& out = a.out[0];
  Index o;
  o.multi.resize(out.shape().rank());
  o.multi[d.dn.output_batch] = pc[0];
  for (size_t i = 0; i < d.window.size(); ++i) {
    o.multi[d.dn.output_spatial[i]] = pc[i + 1];
  }
  o.multi[d.dn.output_feature] = c;
  ASSIGN_OR_RETURN(Value * v, EmitDotEpilogue(emitter, a, d.site,
                                              SumToResult(a.b, sum, d, a.inst), o));
  out.Write(a.b, o, v);
  return absl::OkStatus();
}

// Features [c0, c0 + vectors * lanes) of output position `pc`, their sums
// in `vectors` registers of d.block / 4 lanes over every tap, the input and
// the kernel read as vectors where they lie in memory (`x` and `k`, the
// features their most minor dimension). The taps are unrolled, each tap's
// steps skipped where it falls outside the input. The steps are the
// loop's, in the same order: the evaluator's numbers bit for bit.
absl::Status EmitFeatureBlock(const LoopArgs& a, const Depthwise& d,
                              const std::vector<Value*>& pc, Value* c0,
                              int64_t vectors, const IrArray& x,
                              const IrArray& k, ElementalEmitter& emitter) {
  llvm::IRBuilderBase& b = a.b;
  const int64_t lanes = d.block / 4;
  llvm::Type* elem = ComputeType(b.getContext(), d.type);
  llvm::Type* vt = llvm::FixedVectorType::get(elem, lanes);
  const llvm::Align align(elem->getPrimitiveSizeInBits() / 8);
  std::vector<Value*> acc(vectors, llvm::Constant::getNullValue(vt));
  for (int64_t t = 0; t < d.taps; ++t) {
    Index x_at, k_at;
    x_at.multi.resize(x.shape().rank());
    k_at.multi.resize(k.shape().rank());
    x_at.multi[d.dn.input_batch] = pc[0];
    Value* inside = b.getTrue();
    int64_t rest = t;
    for (size_t i = d.window.size(); i-- > 0;) {
      const int64_t w = rest % d.kernel_ext[i];
      rest /= d.kernel_ext[i];
      const WindowDim& wd = d.window[i];
      Value* at = b.CreateAdd(b.CreateMul(pc[i + 1], b.getInt64(wd.stride)),
                              b.getInt64(w * wd.window_dilation - wd.pad_low));
      Value* in = b.CreateICmpULT(at, b.getInt64(d.in_ext[i]));
      inside = b.CreateAnd(inside, in);
      x_at.multi[d.dn.input_spatial[i]] = at;
      k_at.multi[d.dn.kernel_spatial[i]] =
          b.getInt64(wd.reversal ? d.kernel_ext[i] - 1 - w : w);
    }
    k_at.multi[d.dn.kernel_input_feature] = b.getInt64(0);
    llvm::BasicBlock* before = b.GetInsertBlock();
    llvm::Function* f = before->getParent();
    auto* body = llvm::BasicBlock::Create(b.getContext(), "depthwise.block.in", f);
    auto* next = llvm::BasicBlock::Create(b.getContext(), "depthwise.block.next", f);
    b.CreateCondBr(inside, body, next);
    b.SetInsertPoint(body);
    std::vector<Value*> stepped(vectors);
    for (int64_t v = 0; v < vectors; ++v) {
      Value* c = b.CreateAdd(c0, b.getInt64(v * lanes));
      x_at.multi[d.dn.input_feature] = c;
      k_at.multi[d.dn.kernel_output_feature] = c;
      Value* xv = b.CreateAlignedLoad(vt, x.ElementPointer(b, x_at), align);
      Value* kv = b.CreateAlignedLoad(vt, k.ElementPointer(b, k_at), align);
      stepped[v] = EmitMultiplyAdd(b, acc[v], xv, kv, d.type);
    }
    llvm::BasicBlock* body_end = b.GetInsertBlock();
    b.CreateBr(next);
    b.SetInsertPoint(next);
    for (int64_t v = 0; v < vectors; ++v) {
      llvm::PHINode* phi = b.CreatePHI(vt, 2);
      phi->addIncoming(acc[v], before);
      phi->addIncoming(stepped[v], body_end);
      acc[v] = phi;
    }
  }
  // The sums through the epilogue from a row on the stack: a loop over
  // the features, which LLVM vectorizes whatever the epilogue reads.
  llvm::AllocaInst* row = EntryAlloca(
      b, llvm::ArrayType::get(elem, vectors * lanes), "depthwise.block.sums");
  row->setAlignment(llvm::Align(64));
  for (int64_t v = 0; v < vectors; ++v) {
    b.CreateAlignedStore(
        acc[v], b.CreateConstInBoundsGEP1_64(elem, row, v * lanes),
        llvm::commonAlignment(llvm::Align(64), v * lanes * align.value()));
  }
  return EmitForLoop(
      b, b.getInt64(0), b.getInt64(vectors * lanes), "depthwise.block.out",
      [&](Value* l) {
    return WriteFeature(a, d, pc, b.CreateAdd(c0, l),
                        b.CreateLoad(elem, b.CreateInBoundsGEP(elem, row, l)),
                        emitter);
  });
}

absl::Status EmitDepthwise(const LoopArgs& a, const Depthwise& d) {
  llvm::IRBuilderBase& b = a.b;
  llvm::Type* elem = ComputeType(b.getContext(), d.type);
  llvm::Type* row_type = llvm::ArrayType::get(elem, d.features);
  llvm::AllocaInst* acc = EntryAlloca(b, row_type, "depthwise.acc");
  acc->setAlignment(llvm::Align(64));
  auto acc_at = [&](Value* c) {
    return b.CreateInBoundsGEP(row_type, acc, {b.getInt64(0), c});
  };
  const Instruction& conv = *d.site.dot;
  const Generator& input = a.ops[d.site.lhs][0];
  const Generator& kernel = a.ops[d.site.rhs][0];
  int64_t positions = 1;
  for (int64_t e : d.pos_ext) positions *= e;
  ElementalEmitter emitter(a.mc, b);
  // The register blocks read the input and the kernel in memory, each with
  // the features its most minor dimension.
  const IrArray* x_array = nullptr;
  const IrArray* k_array = nullptr;
  if (d.block > 0 && a.ins != nullptr) {
    x_array = &(*a.ins)[d.site.lhs][0];
    k_array = &(*a.ins)[d.site.rhs][0];
    if (x_array->shape().layout().minor_to_major[0] != d.dn.input_feature ||
        k_array->shape().rank() == 0 ||
        k_array->shape().layout().minor_to_major[0] != d.dn.kernel_output_feature) {
      x_array = k_array = nullptr;
    }
  }
  const int64_t lanes = d.block / 4;
  const int64_t blocks = x_array != nullptr ? d.features / d.block : 0;
  const int64_t tail_vectors =
      x_array != nullptr ? (d.features - blocks * d.block) / lanes : 0;
  const int64_t blocked = blocks * d.block + tail_vectors * lanes;
  return EmitForLoop(
      b, a.begin ? a.begin : b.getInt64(0),
      a.end ? a.end : b.getInt64(positions), "depthwise.pos",
      [&](Value* p) -> absl::Status {
        const std::vector<Value*> pc = UnflattenRowMajor(b, p, d.pos_ext);
        // Blocks of four vectors of features in registers, then one of the
        // whole vectors left, then the rest through the accumulators on
        // the stack.
        if (blocks > 0) {
          RETURN_IF_ERROR(EmitForLoop(
              b, b.getInt64(0), b.getInt64(blocks), "depthwise.block",
              [&](Value* q) {
            return EmitFeatureBlock(a, d, pc, b.CreateMul(q, b.getInt64(d.block)),
                                    4, *x_array, *k_array, emitter);
          }));
        }
        if (tail_vectors > 0) {
          RETURN_IF_ERROR(EmitFeatureBlock(a, d, pc, b.getInt64(blocks * d.block),
                                           tail_vectors, *x_array, *k_array,
                                           emitter));
        }
        if (blocked == d.features) return absl::OkStatus();
        b.CreateMemSet(acc, b.getInt8(0),
                       d.features * elem->getPrimitiveSizeInBits() / 8,
                       llvm::MaybeAlign(64));
        RETURN_IF_ERROR(EmitForLoop(
            b, b.getInt64(0), b.getInt64(d.taps), "depthwise.tap",
            [&](Value* t) -> absl::Status {
          const std::vector<Value*> w = UnflattenRowMajor(b, t, d.kernel_ext);
          Index x_at, k_at;
          x_at.multi.resize(conv.operand(0)->shape().rank());
          k_at.multi.resize(conv.operand(1)->shape().rank());
          x_at.multi[d.dn.input_batch] = pc[0];
          Value* inside = b.getTrue();
          for (size_t i = 0; i < d.window.size(); ++i) {
            const WindowDim& wd = d.window[i];
            Value* at = b.CreateAdd(
                b.CreateSub(b.CreateMul(pc[i + 1], b.getInt64(wd.stride)),
                            b.getInt64(wd.pad_low)),
                b.CreateMul(w[i], b.getInt64(wd.window_dilation)));
            inside = b.CreateAnd(inside,
                                 b.CreateICmpULT(at, b.getInt64(d.in_ext[i])));
            x_at.multi[d.dn.input_spatial[i]] = at;
            k_at.multi[d.dn.kernel_spatial[i]] =
                wd.reversal ? b.CreateSub(b.getInt64(d.kernel_ext[i] - 1), w[i])
                            : w[i];
          }
          k_at.multi[d.dn.kernel_input_feature] = b.getInt64(0);
          llvm::Function* f = b.GetInsertBlock()->getParent();
          auto* body = llvm::BasicBlock::Create(b.getContext(), "depthwise.in", f);
          auto* next = llvm::BasicBlock::Create(b.getContext(), "depthwise.next", f);
          b.CreateCondBr(inside, body, next);
          b.SetInsertPoint(body);
          RETURN_IF_ERROR(EmitForLoop(
              b, b.getInt64(blocked), b.getInt64(d.features), "depthwise.c",
              [&](Value* c) -> absl::Status {
            x_at.multi[d.dn.input_feature] = c;
            k_at.multi[d.dn.kernel_output_feature] = c;
            ASSIGN_OR_RETURN(Value * x, input(x_at));
            ASSIGN_OR_RETURN(Value * k, kernel(k_at));
            Value* slot = acc_at(c);
            b.CreateStore(
                EmitMultiplyAdd(b, b.CreateLoad(elem, slot), x, k, d.type),
                slot);
            return absl::OkStatus();
          }));
          b.CreateBr(next);
          b.SetInsertPoint(next);
          return absl::OkStatus();
        }));
        // The epilogue: every feature of the position from its sum.
        return EmitForLoop(
            b, b.getInt64(blocked), b.getInt64(d.features), "depthwise.out",
            [&](Value* c) {
          return WriteFeature(a, d, pc, c, b.CreateLoad(elem, acc_at(c)), emitter);
        });
      });
}

// A feature-major depthwise convolution: rows along output spatial
// dimension `w_axis`, the result's most minor dimension.
struct DepthwiseRows {
  Depthwise d;
  int w_axis = -1;                // the window dimension of W
  int64_t row = 0;                // W, the output's extent along it
  std::vector<int64_t> row_dims;  // the other output dims, major to minor
  std::vector<int64_t> row_ext;   // their extents
  // The x in [vec_lo, vec_hi) have every W tap inside the input and are
  // computed in vectors of `lanes` (the last vector overlapping the
  // one before); empty when fewer than `lanes`.
  int64_t vec_lo = 0;
  int64_t vec_hi = 0;
  int lanes = 1;
  // Where the last vector's lanes stop repeating the vector before: from
  // vec_lo plus whole vectors. When it is below vec_hi, the last vector is
  // stored apart (tail), so that no store of a vector overlaps another.
  int64_t TailFrom() const {
    if (vec_hi <= vec_lo) return vec_hi;  // no vectors (lanes may be 0)
    return vec_lo + (vec_hi - vec_lo) / lanes * lanes;
  }
  // W is the input's most minor dimension: a vector's inputs are one
  // contiguous load of (lanes - 1) * stride + 1 elements, every stride-th
  // of them kept (0: W is not, or the stride is above kMaxLoadStride; the
  // inputs are read one by one).
  int64_t load_stride = 0;
};

// floor(n / d) and ceil(n / d) for d >= 1.
int64_t FloorDiv(int64_t n, int64_t d) {
  return n >= 0 ? n / d : -((-n + d - 1) / d);
}
int64_t CeilDiv(int64_t n, int64_t d) { return -FloorDiv(-n, d); }

// The x in [0, row) whose input position x * stride - pad_low + t *
// dilation along W is inside [0, in): x >= ceil((pad_low - t * dilation) /
// stride) and x <= floor((in - 1 + pad_low - t * dilation) / stride).
std::pair<Value*, Value*> InsideInterval(llvm::IRBuilderBase& b,
                                         const DepthwiseRows& r, Value* t) {
  const WindowDim& wd = r.d.window[r.w_axis];
  Value* stride = b.getInt64(wd.stride);
  Value* shift = b.CreateSub(b.getInt64(wd.pad_low),
                             b.CreateMul(t, b.getInt64(wd.window_dilation)));
  Value* lo = b.CreateUDiv(b.CreateAdd(shift, b.getInt64(wd.stride - 1)),
                           stride);
  lo = b.CreateSelect(b.CreateICmpSGT(shift, b.getInt64(0)), lo,
                      b.getInt64(0));
  Value* last = b.CreateAdd(shift, b.getInt64(r.d.in_ext[r.w_axis] - 1));
  Value* fits = b.CreateICmpSGE(last, b.getInt64(0));
  Value* hi = b.CreateAdd(
      b.CreateUDiv(b.CreateSelect(fits, last, b.getInt64(0)), stride),
      b.getInt64(1));
  hi = b.CreateSelect(b.CreateICmpSLT(hi, b.getInt64(r.row)), hi,
                      b.getInt64(r.row));
  return {lo, b.CreateSelect(fits, hi, b.getInt64(0))};
}

Value* Min(llvm::IRBuilderBase& b, Value* x, Value* y) {
  return b.CreateSelect(b.CreateICmpSLT(x, y), x, y);
}
Value* Max(llvm::IRBuilderBase& b, Value* x, Value* y) {
  return b.CreateSelect(b.CreateICmpSGT(x, y), x, y);
}

// The loops of one output row (see depthwise.h). `o` holds the
// row's output coordinates, all but W; `x_at` the input's batch and
// feature.
class RowEmitter {
 public:
  RowEmitter(const LoopArgs& a, const DepthwiseRows& r)
      : a_(a), b_(a.b), r_(r), d_(r.d),
        sum_type_(ComputeType(b_.getContext(), d_.type)),
        row_type_(llvm::ArrayType::get(sum_type_, r.row)),
        taps_type_(llvm::ArrayType::get(sum_type_, d_.taps)),
        tail_type_(llvm::ArrayType::get(sum_type_, std::max(r.lanes, 1))),
        acc_(EntryAlloca(b_, row_type_, "depthwise.acc")),
        tail_(EntryAlloca(b_, tail_type_, "depthwise.tail")),
        k_(EntryAlloca(b_, taps_type_, "depthwise.k")) {
    acc_->setAlignment(llvm::Align(64));
    tail_->setAlignment(llvm::Align(64));
  }

  absl::Status Emit(Index& o, Index& x_at, Index& k_at) {
    // The row's kernel taps, converted once.
    RETURN_IF_ERROR(EmitForLoop(
        b_, b_.getInt64(0), b_.getInt64(d_.taps), "depthwise.k",
        [&](Value* t) -> absl::Status {
      const std::vector<Value*> w = UnflattenRowMajor(b_, t, d_.kernel_ext);
      for (size_t i = 0; i < d_.window.size(); ++i) {
        k_at.multi[d_.dn.kernel_spatial[i]] =
            d_.window[i].reversal
                ? b_.CreateSub(b_.getInt64(d_.kernel_ext[i] - 1), w[i])
                : w[i];
      }
      ASSIGN_OR_RETURN(Value * k, a_.ops[d_.site.rhs][0](k_at));
      b_.CreateStore(k, At(taps_type_, k_, t));
      return absl::OkStatus();
    }));
    b_.CreateMemSet(acc_, b_.getInt8(0),
                    r_.row * sum_type_->getPrimitiveSizeInBits() / 8,
                    llvm::MaybeAlign(64));
    RETURN_IF_ERROR(EmitBorder(o, x_at));
    if (r_.vec_hi > r_.vec_lo) RETURN_IF_ERROR(EmitVectors(o, x_at));
    // The epilogue: the row's elements from their sums, in loops split
    // where the vectors start and end and where the tail starts, so that
    // the vectorized loops read the sums where the vectors stored them (a
    // read straddling two stores still in flight would wait for them to
    // retire).
    ElementalEmitter emitter(a_.mc, b_);
    auto epilogue = [&](int64_t from, int64_t to, bool tail) {
      return EmitForLoop(
          b_, b_.getInt64(from), b_.getInt64(to), "depthwise.out",
          [&](Value* x) -> absl::Status {
        o.multi[d_.dn.output_spatial[r_.w_axis]] = x;
        Value* slot =
            tail ? At(tail_type_, tail_,
                      b_.CreateSub(x, b_.getInt64(r_.vec_hi - r_.lanes)))
                 : At(row_type_, acc_, x);
        Value* sum = b_.CreateLoad(sum_type_, slot);
        ASSIGN_OR_RETURN(
            Value * v,
            EmitDotEpilogue(emitter, a_, d_.site,
                            SumToResult(b_, sum, d_, a_.inst), o));
        a_.out[0].Write(b_, o, v);
        return absl::OkStatus();
      });
    };
    RETURN_IF_ERROR(epilogue(0, r_.vec_lo, false));
    RETURN_IF_ERROR(epilogue(r_.vec_lo, r_.TailFrom(), false));
    RETURN_IF_ERROR(epilogue(r_.TailFrom(), r_.vec_hi, true));
    return epilogue(r_.vec_hi, r_.row, false);
  }

 private:
  Value* At(llvm::Type* array, Value* base, Value* i) {
    return b_.CreateInBoundsGEP(array, base, {b_.getInt64(0), i});
  }

  // for each tap t (row-major) whose input positions off W are inside:
  // body(t, w) with x_at's coordinates off W set.
  absl::Status EmitTaps(const Index& o, Index& x_at, const std::string& name,
                        const std::function<absl::Status(
                            Value*, const std::vector<Value*>&)>& body) {
    return EmitForLoop(
        b_, b_.getInt64(0), b_.getInt64(d_.taps), name,
        [&](Value* t) -> absl::Status {
      const std::vector<Value*> w = UnflattenRowMajor(b_, t, d_.kernel_ext);
      Value* inside = b_.getTrue();
      for (size_t i = 0; i < d_.window.size(); ++i) {
        if (static_cast<int>(i) == r_.w_axis) continue;
        const WindowDim& wd = d_.window[i];
        Value* at = b_.CreateAdd(
            b_.CreateSub(b_.CreateMul(o.multi[d_.dn.output_spatial[i]],
                                      b_.getInt64(wd.stride)),
                         b_.getInt64(wd.pad_low)),
            b_.CreateMul(w[i], b_.getInt64(wd.window_dilation)));
        inside = b_.CreateAnd(
            inside, b_.CreateICmpULT(at, b_.getInt64(d_.in_ext[i])));
        x_at.multi[d_.dn.input_spatial[i]] = at;
      }
      llvm::Function* f = b_.GetInsertBlock()->getParent();
      auto* in = llvm::BasicBlock::Create(b_.getContext(), name + ".in", f);
      auto* next = llvm::BasicBlock::Create(b_.getContext(), name + ".next", f);
      b_.CreateCondBr(inside, in, next);
      b_.SetInsertPoint(in);
      RETURN_IF_ERROR(body(t, w));
      b_.CreateBr(next);
      b_.SetInsertPoint(next);
      return absl::OkStatus();
    });
  }

  // The input position along W of output x at W tap w_W.
  Value* InputX(Value* x, Value* w_w) {
    const WindowDim& wd = d_.window[r_.w_axis];
    Value* origin = b_.CreateSub(
        b_.CreateMul(w_w, b_.getInt64(wd.window_dilation)),
        b_.getInt64(wd.pad_low));
    return b_.CreateAdd(b_.CreateMul(x, b_.getInt64(wd.stride), "", true, true),
                        origin, "", /*HasNUW=*/false, /*HasNSW=*/true);
  }

  // Tap by tap, acc[x] += in * k for the x outside [vec_lo, vec_hi) whose
  // tap is inside: at most the few x next to the padding.
  absl::Status EmitBorder(const Index& o, Index& x_at) {
    const Generator& input = a_.ops[d_.site.lhs][0];
    return EmitTaps(o, x_at, "depthwise.tap",
                    [&](Value* t, const std::vector<Value*>& w) {
      auto [lo, hi] = InsideInterval(b_, r_, w[r_.w_axis]);
      Value* k = b_.CreateLoad(sum_type_, At(taps_type_, k_, t));
      auto range = [&](Value* from, Value* to) {
        return EmitForLoop(
            b_, from, to, "depthwise.x", [&](Value* x) -> absl::Status {
          x_at.multi[d_.dn.input_spatial[r_.w_axis]] = InputX(x, w[r_.w_axis]);
          ASSIGN_OR_RETURN(Value * v, input(x_at));
          Value* slot = At(row_type_, acc_, x);
          b_.CreateStore(EmitMultiplyAdd(b_, b_.CreateLoad(sum_type_, slot),
                                         v, k, d_.type),
                         slot);
          return absl::OkStatus();
        });
      };
      RETURN_IF_ERROR(range(lo, Min(b_, hi, b_.getInt64(r_.vec_lo))));
      return range(Max(b_, lo, b_.getInt64(r_.vec_hi)), hi);
    });
  }

  // The interior, `lanes` x at a time: vectors of sums over every tap in
  // registers, stored into acc. Up to kGroup vectors go through the taps
  // together, so that their chains of dependent adds overlap.
  absl::Status EmitVectors(const Index& o, Index& x_at) {
    constexpr int64_t kGroup = 4;
    const int64_t lanes = r_.lanes;
    auto* vec_type = llvm::FixedVectorType::get(sum_type_, lanes);
    const int64_t count = CeilDiv(r_.vec_hi - r_.vec_lo, lanes);
    const int64_t group = std::min(kGroup, count);
    std::vector<llvm::AllocaInst*> sums;
    for (int64_t j = 0; j < group; ++j) {
      sums.push_back(EntryAlloca(b_, vec_type, "depthwise.vsum"));
    }
    const Generator& input = a_.ops[d_.site.lhs][0];
    const IrArray* in_array =
        a_.ins != nullptr ? &(*a_.ins)[d_.site.lhs][0] : nullptr;
    // The vector of inputs of lanes x from x0 at tap w.
    auto inputs = [&](Value* x0,
                      const std::vector<Value*>& w) -> absl::StatusOr<Value*> {
      if (r_.load_stride > 0 && in_array != nullptr) {
        x_at.multi[d_.dn.input_spatial[r_.w_axis]] = InputX(x0, w[r_.w_axis]);
        const PrimitiveType st = in_array->shape().element_type();
        const int64_t stride = r_.load_stride;
        // Up to the last lane's input, which is inside the input row.
        auto* storage = llvm::FixedVectorType::get(
            StorageType(b_.getContext(), st), (lanes - 1) * stride + 1);
        Value* wide =
            b_.CreateAlignedLoad(storage, in_array->ElementPointer(b_, x_at),
                                 llvm::Align(StorageBytes(st)));
        if (stride > 1) {
          std::vector<int> every;
          for (int64_t l = 0; l < lanes; ++l) {
            every.push_back(static_cast<int>(l * stride));
          }
          wide = b_.CreateShuffleVector(wide, every);
        }
        return StorageToCompute(b_, wide, st);
      }
      Value* xs = llvm::PoisonValue::get(vec_type);
      for (int64_t l = 0; l < lanes; ++l) {
        x_at.multi[d_.dn.input_spatial[r_.w_axis]] =
            InputX(b_.CreateAdd(x0, b_.getInt64(l)), w[r_.w_axis]);
        ASSIGN_OR_RETURN(Value * e, input(x_at));
        xs = b_.CreateInsertElement(xs, e, l);
      }
      return xs;
    };
    return EmitForLoop(
        b_, b_.getInt64(0), b_.getInt64(CeilDiv(count, group)),
        "depthwise.vec", [&](Value* g) -> absl::Status {
      // Vector j of the group starts at x0[j]; the last ones of the row
      // end at vec_hi, overlapping (or repeating) vectors before them, and
      // are stored to the tail.
      std::vector<Value*> x0, to;
      for (int64_t j = 0; j < group; ++j) {
        Value* v = b_.CreateAdd(b_.CreateMul(g, b_.getInt64(group)),
                                b_.getInt64(j));
        Value* start = b_.CreateAdd(b_.getInt64(r_.vec_lo),
                                    b_.CreateMul(v, b_.getInt64(lanes)));
        Value* last = b_.getInt64(r_.vec_hi - lanes);
        Value* in_tail = b_.CreateICmpSGT(start, last);
        x0.push_back(b_.CreateSelect(in_tail, last, start));
        to.push_back(b_.CreateSelect(in_tail, tail_,
                                     At(row_type_, acc_, x0.back())));
        b_.CreateStore(llvm::Constant::getNullValue(vec_type), sums[j]);
      }
      RETURN_IF_ERROR(EmitTaps(o, x_at, "depthwise.vtap",
                        [&](Value* t, const std::vector<Value*>& w)
                            -> absl::Status {
        Value* k = b_.CreateVectorSplat(
            lanes, b_.CreateLoad(sum_type_, At(taps_type_, k_, t)));
        for (int64_t j = 0; j < group; ++j) {
          ASSIGN_OR_RETURN(Value * xs, inputs(x0[j], w));
          b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(vec_type, sums[j]),
                                       b_.CreateFMul(xs, k)),
                         sums[j]);
        }
        return absl::OkStatus();
      }));
      for (int64_t j = 0; j < group; ++j) {
        b_.CreateAlignedStore(
            b_.CreateLoad(vec_type, sums[j]), to[j],
            llvm::Align(sum_type_->getPrimitiveSizeInBits() / 8));
      }
      return absl::OkStatus();
    });
  }

  const LoopArgs& a_;
  llvm::IRBuilderBase& b_;
  const DepthwiseRows& r_;
  const Depthwise& d_;
  llvm::Type* sum_type_;
  llvm::ArrayType* row_type_;
  llvm::ArrayType* taps_type_;
  llvm::ArrayType* tail_type_;
  llvm::AllocaInst* acc_;
  llvm::AllocaInst* tail_;  // the last vector of the row, when it overlaps
  llvm::AllocaInst* k_;
};

absl::Status EmitDepthwiseRows(const LoopArgs& a, const DepthwiseRows& r) {
  llvm::IRBuilderBase& b = a.b;
  const Depthwise& d = r.d;
  const Instruction& conv = *d.site.dot;
  int64_t rows = 1;
  for (int64_t e : r.row_ext) rows *= e;
  RowEmitter emitter(a, r);
  return EmitForLoop(
      b, a.begin ? a.begin : b.getInt64(0), a.end ? a.end : b.getInt64(rows),
      "depthwise.row", [&](Value* row) -> absl::Status {
        Index o, x_at, k_at;
        o.multi.resize(a.out[0].shape().rank());
        const std::vector<Value*> rc = UnflattenRowMajor(b, row, r.row_ext);
        for (size_t i = 0; i < r.row_dims.size(); ++i) {
          o.multi[r.row_dims[i]] = rc[i];
        }
        Value* feature = o.multi[d.dn.output_feature];
        x_at.multi.resize(conv.operand(0)->shape().rank());
        k_at.multi.resize(conv.operand(1)->shape().rank());
        x_at.multi[d.dn.input_batch] = o.multi[d.dn.output_batch];
        x_at.multi[d.dn.input_feature] =
            d.multiplier == 1
                ? feature
                : b.CreateUDiv(feature, b.getInt64(d.multiplier));
        k_at.multi[d.dn.kernel_input_feature] = b.getInt64(0);
        k_at.multi[d.dn.kernel_output_feature] = feature;
        return emitter.Emit(o, x_at, k_at);
      });
}

// A plan whose parallel loop runs over `count` units of `work` each.
StrategyPlan FlatPlan(int64_t count, int64_t work) {
  StrategyPlan plan;
  plan.own_loop_shape = std::make_shared<const Shape>(
      Shape::Array(PrimitiveType::kF32, {count}));
  plan.loop_shape = plan.own_loop_shape.get();
  plan.work_per_element = std::max<int64_t>(1, work);
  return plan;
}

}  // namespace

std::optional<StrategyPlan> PlanDepthwise(const Instruction& inst,
                                          const TargetInfo& target) {
  std::optional<Depthwise> d = MatchDepthwise(inst);
  if (!d.has_value() || d->multiplier != 1 || d->features > kMaxFeatures) {
    return std::nullopt;
  }
  const Shape& lhs = d->site.dot->operand(0)->shape();
  if (lhs.layout().minor_to_major[0] != d->dn.input_feature ||
      inst.shape().layout().minor_to_major[0] != d->dn.output_feature) {
    return std::nullopt;
  }
  // Blocks of four vectors' worth of features (four registers on targets
  // without vectors) when the taps are few enough to unroll, for f32 and
  // f64, whose values in memory are the sums' type.
  const int sum_bytes = d->type == PrimitiveType::kF64 ? 8 : 4;
  if (d->taps <= kMaxBlockTaps &&
      (d->type == PrimitiveType::kF32 || d->type == PrimitiveType::kF64)) {
    d->block = 4 * std::max(1, target.vector_bytes / sum_bytes);
  }
  int64_t positions = 1;
  for (int64_t e : d->pos_ext) positions *= e;
  StrategyPlan plan = FlatPlan(positions, d->taps * d->features);
  plan.emit = [d = *d](const LoopArgs& a) { return EmitDepthwise(a, d); };
  return plan;
}

std::optional<StrategyPlan> PlanDepthwiseRows(const Instruction& inst,
                                              const TargetInfo& target) {
  std::optional<Depthwise> d = MatchDepthwise(inst);
  if (!d.has_value() || d->window.empty()) return std::nullopt;
  const Shape& out = d->site.dot->shape();
  const int64_t minor = inst.shape().layout().minor_to_major[0];
  DepthwiseRows r;
  r.d = *d;
  for (size_t i = 0; i < d->window.size(); ++i) {
    if (d->dn.output_spatial[i] == minor) r.w_axis = static_cast<int>(i);
  }
  if (r.w_axis < 0 || out.ElementCount() == 0 ||
      d->site.dot->operand(0)->shape().ElementCount() == 0) {
    return std::nullopt;
  }
  r.row = out.dimensions(minor);
  if (r.row > kMaxRow || d->taps > kMaxTaps) return std::nullopt;
  // The x whose every W tap is inside, x * stride - pad_low >= 0 and
  // x * stride - pad_low + (size - 1) * dilation <= in - 1, as vectors of
  // a register's width.
  const WindowDim& wd = d->window[r.w_axis];
  const int64_t lo = std::max<int64_t>(0, CeilDiv(wd.pad_low, wd.stride));
  const int64_t hi = std::min(
      r.row, FloorDiv(d->in_ext[r.w_axis] - 1 + wd.pad_low -
                          (wd.size - 1) * wd.window_dilation,
                      wd.stride) +
                 1);
  r.lanes = target.vector_bytes / (d->type == PrimitiveType::kF64 ? 8 : 4);
  if (r.lanes >= 2 && hi - lo >= r.lanes) {
    r.vec_lo = lo;
    r.vec_hi = hi;
  }
  const Shape& lhs = d->site.dot->operand(0)->shape();
  if (wd.stride <= kMaxLoadStride &&
      lhs.layout().minor_to_major[0] == d->dn.input_spatial[r.w_axis]) {
    r.load_stride = wd.stride;
  }
  const std::vector<int64_t>& m2m = inst.shape().layout().minor_to_major;
  for (auto it = m2m.rbegin(); it + 1 != m2m.rend(); ++it) {
    r.row_dims.push_back(*it);
    r.row_ext.push_back(out.dimensions(*it));
  }
  int64_t rows = 1;
  for (int64_t e : r.row_ext) rows *= e;
  StrategyPlan plan = FlatPlan(rows, d->taps * r.row);
  plan.emit = [r](const LoopArgs& a) { return EmitDepthwiseRows(a, r); };
  return plan;
}

}  // namespace aotc::codegen
