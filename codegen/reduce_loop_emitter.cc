// Multi-output reduce loops (see reduce_loop_emitter.h).
#include "codegen/reduce_loop_emitter.h"

#include <algorithm>
#include <map>

#include "compiler/passes/ir_rewrite.h"
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

}  // namespace

std::optional<ReduceLoop> MatchReduceLoop(const Instruction& inst,
                                          const std::vector<IrArray>& out) {
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
    if (f->attrs().dimensions != first->attrs().dimensions ||
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
    const Shape& s = out[k].shape();
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

absl::Status EmitReduceLoop(ModuleContext& mc, llvm::IRBuilderBase& b,
                            const Instruction& inst, const ReduceLoop& loop,
                            const std::vector<IrArray>& out,
                            const std::vector<LeafGenerators>& ops,
                            Value* begin, Value* end) {
  ElementalEmitter emitter(mc, b);
  absl::Status status;
  const Computation& fused = *inst.fused_computation();
  const Instruction* root = fused.root();
  EmitArrayLoop(
      b, *loop.loop_shape, inst.name(),
      [&](const Index& index) {
        if (!status.ok()) return;
        auto run = [&]() -> absl::Status {
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
        };
        status = run();
      },
      begin, end);
  return status;
}

}  // namespace aotc::codegen
