// Multi-output reduce loops (see reduce_loop.h).
#include "codegen/strategies/reduce_loop.h"

#include <algorithm>
#include <map>

#include "compiler/rewrite/ir_rewrite.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// Whether `value` (in a fused computation) is computed from any of `reduces`.
bool ComputedFromAny(const Instruction* value,
                     const std::vector<const Instruction*>& reduces) {
  for (const Instruction* r : reduces) {
    if (DependsOn(value, r)) return true;
  }
  return false;
}

// The loop for one fusion. Its outputs are of two kinds: reduce-shaped
// ones (the reduces and values computed from them), written after the inner
// loop, and element-shaped ones (values of the reduces' operand shape that
// no reduce feeds), written inside it, which visits each of their elements
// exactly once.
struct ReduceLoop {
  std::vector<const Instruction*> reduces;
  std::vector<int> reduce_outputs;
  std::vector<int> element_outputs;
  const Shape* loop_shape = nullptr;   // the reduce-shaped outputs' shape
  int64_t work_per_element = 1;        // elements reduced per result
};

std::optional<ReduceLoop> MatchReduceLoop(const Instruction& inst) {
  const std::vector<const Shape*> out = inst.shape().Leaves();
  if (inst.opcode() != Opcode::kFusion || out.size() < 2) return std::nullopt;
  const Computation& fused = *inst.fused_computation();
  const Instruction* root = fused.root();
  if (root->opcode() != Opcode::kTuple ||
      root->operand_count() != static_cast<int>(out.size())) {
    return std::nullopt;
  }
  ReduceLoop loop;
  for (const auto& f : fused.instructions()) {
    if (f->opcode() != Opcode::kReduce) continue;
    if (f->operand_count() != 2 || !f->shape().IsArray()) return std::nullopt;
    const Instruction* first = loop.reduces.empty() ? f.get() : loop.reduces[0];
    if (f->dimensions() != first->dimensions() ||
        !f->shape().SameDimensions(first->shape()) ||
        !f->operand(0)->shape().SameDimensions(first->operand(0)->shape())) {
      return std::nullopt;
    }
    loop.reduces.push_back(f.get());
  }
  if (loop.reduces.empty()) return std::nullopt;
  const Shape& result = loop.reduces[0]->shape();
  const Shape& in = loop.reduces[0]->operand(0)->shape();
  for (int k = 0; k < static_cast<int>(out.size()); ++k) {
    const Shape& s = *out[k];
    if (!root->operand(k)->shape().IsArray()) return std::nullopt;
    if (s.SameDimensions(result) &&
        (loop.loop_shape == nullptr ||
         s.layout().minor_to_major == loop.loop_shape->layout().minor_to_major)) {
      if (loop.loop_shape == nullptr) loop.loop_shape = &s;
      loop.reduce_outputs.push_back(k);
    } else if (s.SameDimensions(in) &&
               !ComputedFromAny(root->operand(k), loop.reduces)) {
      loop.element_outputs.push_back(k);
    } else {
      return std::nullopt;
    }
  }
  if (loop.reduce_outputs.empty() ||
      (loop.reduces.size() < 2 && loop.element_outputs.empty())) {
    return std::nullopt;
  }
  loop.work_per_element = std::max<int64_t>(
      1, in.ElementCount() / std::max<int64_t>(1, result.ElementCount()));
  return loop;
}

absl::Status EmitReduceLoop(const LoopArgs& args, const ReduceLoop& loop) {
  ModuleContext& mc = args.mc;
  llvm::IRBuilderBase& b = args.b;
  const Instruction& inst = args.inst;
  const std::vector<IrArray>& out = args.out;
  const std::vector<LeafGenerators>& ops = args.ops;
  Value* begin = args.begin;
  Value* end = args.end;
  ElementalEmitter emitter(mc, b);
  const Computation& fused = *inst.fused_computation();
  const Instruction* root = fused.root();
  return EmitArrayLoop(
      b, *loop.loop_shape, inst.name(),
      [&](const Index& index) -> absl::Status {
        ASSIGN_OR_RETURN(auto values,
                         emitter.EmitComputationValues(fused, ops));
        std::vector<std::vector<LeafGenerators>> reduce_ops;
        for (const Instruction* r : loop.reduces) {
          reduce_ops.push_back(
              {values.at(r->operand(0)), values.at(r->operand(1))});
        }
        // Element outputs are computed before the reduces accumulate,
        // in the same block, so a value both write and reduce is
        // computed once (generators are memoized per index and block).
        auto write_elements = [&](const Index& i) -> absl::Status {
          for (int k : loop.element_outputs) {
            ASSIGN_OR_RETURN(Value * v, values.at(root->operand(k))[0](i));
            out[k].Write(b, i, v);
          }
          return absl::OkStatus();
        };
        ASSIGN_OR_RETURN(
            std::vector<Value*> results,
            emitter.EmitReduceGroup(loop.reduces, reduce_ops, index,
                                    write_elements));
        std::map<const Instruction*, LeafGenerators> overrides;
        for (size_t k = 0; k < loop.reduces.size(); ++k) {
          Generator own = values.at(loop.reduces[k])[0];
          Value* v = results[k];
          std::vector<Value*> at = index.multi;
          overrides[loop.reduces[k]] = {
              [own, v, at](const Index& i) -> absl::StatusOr<Value*> {
                if (i.multi == at) return v;
                return own(i);
              }};
        }
        ASSIGN_OR_RETURN(LeafGenerators roots,
                         emitter.EmitComputation(fused, ops, &overrides));
        for (int k : loop.reduce_outputs) {
          ASSIGN_OR_RETURN(Value * v, roots[k](index));
          out[k].Write(b, index, v);
        }
        return absl::OkStatus();
      },
      begin, end);
}

}  // namespace

std::optional<StrategyPlan> PlanReduceLoop(const Instruction& inst) {
  std::optional<ReduceLoop> loop = MatchReduceLoop(inst);
  if (!loop.has_value()) return std::nullopt;
  StrategyPlan plan;
  plan.loop_shape = loop->loop_shape;
  plan.split_skips_unit_dims = true;  // EmitArrayLoop over that shape
  plan.work_per_element = loop->work_per_element;
  plan.emit = [loop = *loop](const LoopArgs& args) {
    return EmitReduceLoop(args, loop);
  };
  return plan;
}

}  // namespace aotc::codegen
