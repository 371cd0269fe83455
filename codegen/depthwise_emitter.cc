// The depthwise convolution loops (see depthwise_emitter.h).
#include "codegen/depthwise_emitter.h"

#include <memory>
#include <vector>

#include "codegen/dot_emitter.h"
#include "codegen/element_ops.h"
#include "codegen/ir_types.h"
#include "compiler/ir/shape_inference.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

constexpr int64_t kMaxFeatures = 16384;

struct Depthwise {
  DotSite site;
  ConvolutionDimensionNumbers dn;
  std::vector<WindowDim> window;
  std::vector<int64_t> pos_ext;     // [batch, output spatial...]
  std::vector<int64_t> kernel_ext;  // kernel spatial sizes
  std::vector<int64_t> in_ext;      // input spatial sizes
  int64_t features = 0;
  PrimitiveType type = PrimitiveType::kF32;
};

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
  const IrArray& out = a.out[0];
  int64_t positions = 1;
  for (int64_t e : d.pos_ext) positions *= e;
  int64_t taps = 1;
  for (int64_t e : d.kernel_ext) taps *= e;
  ElementalEmitter emitter(a.mc, b);
  absl::Status status;
  EmitForLoop(
      b, a.begin ? a.begin : b.getInt64(0),
      a.end ? a.end : b.getInt64(positions), "depthwise.pos", [&](Value* p) {
        const std::vector<Value*> pc = UnflattenRowMajor(b, p, d.pos_ext);
        b.CreateMemSet(acc, b.getInt8(0), d.features * StorageBytes(d.type),
                       llvm::MaybeAlign(64));
        EmitForLoop(b, b.getInt64(0), b.getInt64(taps), "depthwise.tap",
                    [&](Value* t) {
          if (!status.ok()) return;
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
          EmitForLoop(b, b.getInt64(0), b.getInt64(d.features), "depthwise.c",
                      [&](Value* c) {
            if (!status.ok()) return;
            x_at.multi[d.dn.input_feature] = c;
            k_at.multi[d.dn.kernel_output_feature] = c;
            absl::StatusOr<Value*> x = input(x_at);
            absl::StatusOr<Value*> k = kernel(k_at);
            if (!x.ok() || !k.ok()) {
              status = x.ok() ? k.status() : x.status();
              return;
            }
            Value* slot = acc_at(c);
            b.CreateStore(
                EmitMultiplyAdd(b, b.CreateLoad(elem, slot), *x, *k, d.type),
                slot);
          });
          b.CreateBr(next);
          b.SetInsertPoint(next);
        });
        // The epilogue: every feature of the position from its sum.
        EmitForLoop(b, b.getInt64(0), b.getInt64(d.features), "depthwise.out",
                    [&](Value* c) {
          if (!status.ok()) return;
          Index o;
          o.multi.resize(out.shape().rank());
          o.multi[d.dn.output_batch] = pc[0];
          for (size_t i = 0; i < d.window.size(); ++i) {
            o.multi[d.dn.output_spatial[i]] = pc[i + 1];
          }
          o.multi[d.dn.output_feature] = c;
          absl::StatusOr<Value*> v = EmitDotEpilogue(
              emitter, a, d.site, b.CreateLoad(elem, acc_at(c)), o);
          if (!v.ok()) {
            status = v.status();
            return;
          }
          out.Write(b, o, *v);
        });
      });
  return status;
}

}  // namespace

std::optional<StrategyPlan> PlanDepthwise(const Instruction& inst) {
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
  if ((d.type != PrimitiveType::kF32 && d.type != PrimitiveType::kF64) ||
      lhs.element_type() != d.type || rhs.element_type() != d.type ||
      lhs.rank() == 0 || attrs.batch_group_count != 1 ||
      d.window.size() != d.dn.input_spatial.size()) {
    return std::nullopt;
  }
  d.features = lhs.dimensions(d.dn.input_feature);
  if (d.features < 2 || d.features > kMaxFeatures ||
      attrs.feature_group_count != d.features ||
      rhs.dimensions(d.dn.kernel_input_feature) != 1 ||
      rhs.dimensions(d.dn.kernel_output_feature) != d.features ||
      lhs.layout().minor_to_major[0] != d.dn.input_feature ||
      inst.shape().layout().minor_to_major[0] != d.dn.output_feature) {
    return std::nullopt;
  }
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
  }
  int64_t positions = 1, taps = 1;
  for (int64_t e : d.pos_ext) positions *= e;
  for (int64_t e : d.kernel_ext) taps *= e;
  StrategyPlan plan;
  plan.name = "depthwise";
  plan.own_loop_shape = std::make_shared<const Shape>(
      Shape::Array(PrimitiveType::kF32, {positions}));
  plan.loop_shape = plan.own_loop_shape.get();
  plan.work_per_element = std::max<int64_t>(1, taps * d.features);
  plan.emit = [d](const LoopArgs& a) { return EmitDepthwise(a, d); };
  return plan;
}

}  // namespace aotc::codegen
