// Element generator for convolution (see elemental_emitter.h), with the semantics
// and the summation order of the reference evaluator
// (compiler/evaluator/convolution.cc).
//
// The index math, for the output element at batch b, feature o and spatial
// position s (one coordinate s_i per spatial dimension i, in dim_labels
// order):
//   feature group  fg = o / (output features / feature_group_count)
//   batch group    bg = o / (output features / batch_group_count)
//   input batch    n  = b + bg * (input batches / batch_group_count)
//   For spatial dimension i, window position w_i in [0, size_i) sits at
//     p_i = s_i * stride_i - pad_low_i + w_i * rhs_dilate_i
//   in the padded, lhs-dilated input. It lands on an input element when
//   0 <= p_i < (input_i - 1) * lhs_dilate_i + 1 and p_i is a multiple of
//   lhs_dilate_i; the element is x_i = p_i / lhs_dilate_i, and the kernel
//   tap is k_i = w_i, or size_i - 1 - w_i where rhs_reversal is set.
//   out[b, o, s] = sum over the landing window positions (row-major, the
//                  first spatial dimension slowest), then over the kernel
//                  input features z (innermost):
//                  lhs[n, fg * kernel_input_features + z, x]
//                  * rhs[z, o, k]
// Out-of-range positions (padding, negative padding's cut) and dilation holes
// contribute nothing. Rather than test each w_i, each window loop runs over
// the range of w_i that lands inside the input, computed once per output
// element: w_lo = ceil(max(0, -start) / rhs_dilate), w_end = min(size,
// floor((dilated_input - 1 - start) / rhs_dilate) + 1), with start = s_i *
// stride_i - pad_low_i; only an lhs dilation still needs a test (p_i mod
// lhs_dilate_i). The position of each loop is computed at its own level, so
// the innermost loop only steps the feature coordinate.
//
// Types follow the evaluator: each operand element is converted to the
// result type (a narrow result type to the type it is computed in: f32 for
// the minifloats, s8/u8 for sub-byte integers), products are summed in the
// result's compute type (float for f16 and bf16, rounded once at the end;
// integers wrap; pred is an OR of ANDs), and the sum is converted to the
// result type once.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/elemental/elemental_emitter.h"
#include "codegen/elemental/scalar_ops.h"
#include "codegen/emit/ir_types.h"
#include "compiler/ir/shape_inference.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// One spatial dimension of the window, resolved against the shapes.
struct ConvAxis {
  int64_t lhs_dim = 0;     // input dimension
  int64_t rhs_dim = 0;     // kernel dimension
  int64_t out_dim = 0;     // output dimension
  int64_t dilated_input = 0;  // (input - 1) * lhs_dilate + 1
  WindowDim window;
};

// Compile-time facts of one convolution.
struct ConvPlan {
  std::vector<ConvAxis> axes;
  int64_t kernel_input_features = 0;
  int64_t output_feature_group_size = 0;  // output features per feature group
  int64_t output_batch_group_size = 0;    // output features per batch group
  int64_t batch_group_size = 0;           // input batches per batch group
  bool empty_input = false;  // some input spatial dimension has size 0
  // The type products are converted to and summed in.
  PrimitiveType compute_type = PrimitiveType::kF32;
};

// Shape inference checks the dimension numbers, the group counts and the
// window against the operands; a declared result shape that differs (a
// module the verifier never saw) would make the loops read out of bounds,
// so it is refused too.
absl::StatusOr<ConvPlan> PlanConvolution(const Instruction& inst) {
  auto error = [&](absl::string_view what) {
    return ErrorAt(inst.location(), absl::StrCat("convolution: ", what));
  };
  absl::StatusOr<Shape> inferred = InferShape(inst);
  if (!inferred.ok()) return error(inferred.status().message());
  if (!inst.shape().IsArray() || !inferred->SameDimensions(inst.shape())) {
    return error(absl::StrCat("the result has shape ",
                              inst.shape().ToString(false), ", expected ",
                              inferred->ToString(false)));
  }
  const ConvolutionDimensionNumbers& dn = inst.conv_dnums();
  const Shape& lhs = inst.operand(0)->shape();
  const Shape& rhs = inst.operand(1)->shape();
  ConvPlan plan;
  const int64_t in_batch = lhs.dimensions(dn.input_batch);
  const int64_t out_features = rhs.dimensions(dn.kernel_output_feature);
  plan.kernel_input_features = rhs.dimensions(dn.kernel_input_feature);
  // At least 1: with no output features no element is computed, but the
  // divisions are still emitted.
  plan.output_feature_group_size =
      std::max<int64_t>(1, out_features / inst.feature_group_count());
  plan.output_batch_group_size =
      std::max<int64_t>(1, out_features / inst.batch_group_count());
  plan.batch_group_size = in_batch / inst.batch_group_count();
  for (size_t i = 0; i < dn.input_spatial.size(); ++i) {
    ConvAxis axis;
    axis.lhs_dim = dn.input_spatial[i];
    axis.rhs_dim = dn.kernel_spatial[i];
    axis.out_dim = dn.output_spatial[i];
    axis.window = inst.window()[i];
    const int64_t size = lhs.dimensions(axis.lhs_dim);
    if (size == 0) plan.empty_input = true;
    axis.dilated_input =
        size == 0 ? 0 : (size - 1) * axis.window.base_dilation + 1;
    plan.axes.push_back(axis);
  }
  plan.compute_type = SumOfProductsType(inst.shape().element_type());
  return plan;
}

// x / d for x >= 0 and a constant d >= 1.
Value* DivConst(llvm::IRBuilderBase& b, Value* x, int64_t d) {
  return d == 1 ? x : b.CreateUDiv(x, b.getInt64(d));
}

// The loops of one output element: window dimension `axis` and the ones
// after it, then the input features. `lhs` and `rhs` hold the operand
// indices with the batch and output feature set; each level sets its own
// spatial coordinate.
class ConvLoops {
 public:
  ConvLoops(llvm::IRBuilderBase& b, const ConvPlan& plan,
            const Instruction& inst, const LeafGenerators& lhs_gen,
            const LeafGenerators& rhs_gen, llvm::AllocaInst* acc)
      : b_(b),
        plan_(plan),
        inst_(inst),
        lhs_gen_(lhs_gen[0]),
        rhs_gen_(rhs_gen[0]),
        acc_(acc) {}

  absl::Status Emit(size_t axis, const std::vector<Value*>& starts,
                    Index& lhs, Index& rhs, Value* feature_base) {
    if (axis == plan_.axes.size()) return EmitFeatures(lhs, rhs, feature_base);
    const ConvAxis& a = plan_.axes[axis];
    const WindowDim& w = a.window;
    Value* start = starts[axis];
    // w_lo = ceil(max(0, -start) / rhs_dilate).
    Value* before = b_.CreateSub(b_.getInt64(0), start);
    before = b_.CreateSelect(b_.CreateICmpSGT(before, b_.getInt64(0)), before,
                             b_.getInt64(0));
    Value* w_lo = DivConst(
        b_, b_.CreateAdd(before, b_.getInt64(w.window_dilation - 1)),
        w.window_dilation);
    // w_end = min(size, floor((dilated_input - 1 - start) / rhs_dilate) + 1),
    // or 0 when the window starts past the input.
    Value* room = b_.CreateSub(b_.getInt64(a.dilated_input - 1), start);
    Value* fits = b_.CreateICmpSGE(room, b_.getInt64(0));
    Value* safe_room = b_.CreateSelect(fits, room, b_.getInt64(0));
    Value* w_end = b_.CreateAdd(DivConst(b_, safe_room, w.window_dilation),
                                b_.getInt64(1));
    w_end = b_.CreateSelect(b_.CreateICmpSLT(w_end, b_.getInt64(w.size)), w_end,
                            b_.getInt64(w.size));
    w_end = b_.CreateSelect(fits, w_end, b_.getInt64(0));
    const std::string name = absl::StrCat("conv.window", axis);
    return EmitForLoop(b_, w_lo, w_end, name, [&](Value* wi) -> absl::Status {
      Value* p = b_.CreateAdd(
          start, b_.CreateMul(wi, b_.getInt64(w.window_dilation)));
      rhs.multi[a.rhs_dim] =
          w.reversal ? b_.CreateSub(b_.getInt64(w.size - 1), wi) : wi;
      if (w.base_dilation == 1) {
        lhs.multi[a.lhs_dim] = p;
        return Emit(axis + 1, starts, lhs, rhs, feature_base);
      }
      // A position between two lhs-dilated elements is a hole.
      llvm::Function* f = b_.GetInsertBlock()->getParent();
      auto* body = llvm::BasicBlock::Create(b_.getContext(), name + ".in", f);
      auto* next = llvm::BasicBlock::Create(b_.getContext(), name + ".next", f);
      Value* aligned = b_.CreateICmpEQ(
          b_.CreateURem(p, b_.getInt64(w.base_dilation)), b_.getInt64(0));
      b_.CreateCondBr(aligned, body, next);
      b_.SetInsertPoint(body);
      lhs.multi[a.lhs_dim] = DivConst(b_, p, w.base_dilation);
      RETURN_IF_ERROR(Emit(axis + 1, starts, lhs, rhs, feature_base));
      b_.CreateBr(next);
      b_.SetInsertPoint(next);
      return absl::OkStatus();
    });
  }

 private:
  // acc += lhs[.., feature_base + z, ..] * rhs[z, ..] for every z.
  absl::Status EmitFeatures(Index& lhs, Index& rhs, Value* feature_base) {
    const ConvolutionDimensionNumbers& dn = inst_.conv_dnums();
    const PrimitiveType ct = plan_.compute_type;
    const PrimitiveType lt = inst_.operand(0)->shape().element_type();
    const PrimitiveType rt = inst_.operand(1)->shape().element_type();
    llvm::Type* acc_type = acc_->getAllocatedType();
    return EmitForLoop(
        b_, b_.getInt64(0), b_.getInt64(plan_.kernel_input_features),
        "conv.feature", [&](Value* z) -> absl::Status {
          lhs.multi[dn.input_feature] = b_.CreateAdd(feature_base, z);
          rhs.multi[dn.kernel_input_feature] = z;
          ASSIGN_OR_RETURN(Value * x, GenerateAs(b_, lhs_gen_, lhs, lt, ct));
          ASSIGN_OR_RETURN(Value * y, GenerateAs(b_, rhs_gen_, rhs, rt, ct));
          Value* sum = b_.CreateLoad(acc_type, acc_);
          b_.CreateStore(EmitMultiplyAdd(b_, sum, x, y, ct), acc_);
          return absl::OkStatus();
        });
  }

  llvm::IRBuilderBase& b_;
  const ConvPlan& plan_;
  const Instruction& inst_;
  const Generator lhs_gen_;
  const Generator rhs_gen_;
  llvm::AllocaInst* acc_;
};

}  // namespace

absl::StatusOr<Generator> ElementalEmitter::Convolution(
    const Instruction& inst, const std::vector<LeafGenerators>& ops) {
  ASSIGN_OR_RETURN(ConvPlan plan, PlanConvolution(inst));
  llvm::IRBuilderBase& b = b_;
  const Instruction* pinst = &inst;
  return Generator([&b, plan, pinst, ops](const Index& o)
                       -> absl::StatusOr<Value*> {
    const Instruction& inst = *pinst;
    const ConvolutionDimensionNumbers& dn = inst.conv_dnums();
    const PrimitiveType result_type = inst.shape().element_type();
    const PrimitiveType ct = plan.compute_type;
    llvm::Type* acc_type = ComputeType(b.getContext(), ct);
    llvm::AllocaInst* acc = EntryAlloca(b, acc_type, "conv.acc");
    b.CreateStore(llvm::Constant::getNullValue(acc_type), acc);
    if (!plan.empty_input) {
      Value* feature = o.multi[dn.output_feature];
      Value* feature_group =
          DivConst(b, feature, plan.output_feature_group_size);
      Value* batch_group = DivConst(b, feature, plan.output_batch_group_size);
      Value* feature_base = b.CreateMul(
          feature_group, b.getInt64(plan.kernel_input_features));
      Index lhs, rhs;
      lhs.shape = &inst.operand(0)->shape();
      rhs.shape = &inst.operand(1)->shape();
      lhs.multi.assign(lhs.shape->rank(), nullptr);
      rhs.multi.assign(rhs.shape->rank(), nullptr);
      lhs.multi[dn.input_batch] = b.CreateAdd(
          o.multi[dn.output_batch],
          b.CreateMul(batch_group, b.getInt64(plan.batch_group_size)));
      rhs.multi[dn.kernel_output_feature] = feature;
      std::vector<Value*> starts;
      for (const ConvAxis& a : plan.axes) {
        starts.push_back(b.CreateSub(
            b.CreateMul(o.multi[a.out_dim], b.getInt64(a.window.stride)),
            b.getInt64(a.window.pad_low)));
      }
      ConvLoops loops(b, plan, inst, ops[0], ops[1], acc);
      RETURN_IF_ERROR(loops.Emit(0, starts, lhs, rhs, feature_base));
    }
    Value* sum = b.CreateLoad(acc_type, acc);
    return EmitConvert(b, RoundToStorage(b, sum, ct), ct, result_type);
  });
}

}  // namespace aotc::codegen
