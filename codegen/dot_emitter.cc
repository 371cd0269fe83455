// The row-wise dot loops and their fused epilogue.
#include "codegen/dot_emitter.h"

#include <map>
#include <set>

#include "codegen/elemental.h"
#include "codegen/ir_types.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

constexpr int64_t kMaxAccumulatorBytes = int64_t{64} << 10;

struct RowDot {
  const Instruction* dot = nullptr;
  int lhs = 0;  // the operand (of the fusion or plain dot) holding lhs
  int rhs = 1;
};

bool IsPlainMatrixDot(const Instruction& dot) {
  if (dot.opcode() != Opcode::kDot) return false;
  const DotDimensionNumbers& dn = dot.attrs().dot_dnums;
  const PrimitiveType t = dot.shape().element_type();
  if (t != PrimitiveType::kF32 && t != PrimitiveType::kF64) return false;
  return dot.shape().rank() == 2 && dot.operand(0)->shape().rank() == 2 &&
         dot.operand(1)->shape().rank() == 2 && dn.lhs_batch.empty() &&
         dn.rhs_batch.empty() && dn.lhs_contracting == std::vector<int64_t>{1} &&
         dn.rhs_contracting == std::vector<int64_t>{0} &&
         dot.operand(0)->shape().element_type() == t &&
         dot.operand(1)->shape().element_type() == t;
}

// Whether every path from `dot` to the root of its computation goes through
// element-wise instructions of the dot's dimensions (each reads the dot at
// its own index).
bool OnlyElementwiseToRoot(const Instruction& dot) {
  std::set<const Instruction*> seen;
  std::vector<const Instruction*> stack(dot.users().begin(), dot.users().end());
  while (!stack.empty()) {
    const Instruction* v = stack.back();
    stack.pop_back();
    if (!seen.insert(v).second) continue;
    if (!IsElementwise(v->opcode()) || v->opcode() == Opcode::kMap ||
        !v->shape().SameDimensions(dot.shape())) {
      return false;
    }
    for (const Instruction* u : v->users()) stack.push_back(u);
  }
  return true;
}

std::optional<RowDot> MatchRowDot(const Instruction& inst) {
  if (!inst.shape().IsArray() || !inst.shape().HasDefaultLayout()) {
    return std::nullopt;
  }
  RowDot rd;
  if (inst.opcode() == Opcode::kDot) {
    if (!IsPlainMatrixDot(inst)) return std::nullopt;
    rd.dot = &inst;
  } else if (inst.opcode() == Opcode::kFusion) {
    const Computation& fused = *inst.fused_computation();
    for (const auto& f : fused.instructions()) {
      if (f->opcode() != Opcode::kDot) continue;
      if (rd.dot != nullptr) return std::nullopt;  // one dot only
      rd.dot = f.get();
    }
    if (rd.dot == nullptr || !IsPlainMatrixDot(*rd.dot) ||
        rd.dot->operand(0)->opcode() != Opcode::kParameter ||
        rd.dot->operand(1)->opcode() != Opcode::kParameter ||
        !OnlyElementwiseToRoot(*rd.dot) ||
        !fused.root()->shape().SameDimensions(rd.dot->shape())) {
      return std::nullopt;
    }
    rd.lhs = static_cast<int>(rd.dot->operand(0)->parameter_number());
    rd.rhs = static_cast<int>(rd.dot->operand(1)->parameter_number());
  } else {
    return std::nullopt;
  }
  const int64_t n = rd.dot->shape().dimensions(1);
  if (n * StorageBytes(rd.dot->shape().element_type()) > kMaxAccumulatorBytes) {
    return std::nullopt;
  }
  return rd;
}

absl::Status EmitRowDot(const LoopArgs& args, const RowDot& rd) {
  ModuleContext& mc = args.mc;
  llvm::IRBuilderBase& b = args.b;
  const Instruction& inst = args.inst;
  const IrArray& out = args.out[0];
  const std::vector<LeafGenerators>& ops = args.ops;
  Value* begin = args.begin;
  Value* end = args.end;
  const Instruction& dot = *rd.dot;
  const Shape& lhs_shape = dot.operand(0)->shape();
  const Shape& rhs_shape = dot.operand(1)->shape();
  const int64_t m = dot.shape().dimensions(0);
  const int64_t k_extent = lhs_shape.dimensions(1);
  const int64_t n = dot.shape().dimensions(1);
  const PrimitiveType t = dot.shape().element_type();
  llvm::Type* elem = ComputeType(b.getContext(), t);
  llvm::Type* row_type = llvm::ArrayType::get(elem, n);
  llvm::AllocaInst* acc = EntryAlloca(b, row_type, "dot.row");
  acc->setAlignment(llvm::Align(64));
  const Generator& lhs = ops[rd.lhs][0];
  const Generator& rhs = ops[rd.rhs][0];
  const bool rhs_row_major = rhs_shape.HasDefaultLayout();
  auto acc_at = [&](Value* j) {
    return b.CreateInBoundsGEP(row_type, acc, {b.getInt64(0), j});
  };

  ElementalEmitter emitter(mc, b);
  absl::Status status;
  EmitForLoop(
      b, begin ? begin : b.getInt64(0), end ? end : b.getInt64(m), "dot.i",
      [&](Value* i) {
        if (!status.ok()) return;
        b.CreateMemSet(acc, b.getInt8(0), n * StorageBytes(t),
                       llvm::MaybeAlign(64));
        EmitForLoop(b, b.getInt64(0), b.getInt64(k_extent), "dot.k",
                    [&](Value* k) {
          if (!status.ok()) return;
          Index li;
          li.multi = {i, k};
          absl::StatusOr<Value*> a = lhs(li);
          if (!a.ok()) {
            status = a.status();
            return;
          }
          EmitForLoop(b, b.getInt64(0), b.getInt64(n), "dot.j", [&](Value* j) {
            if (!status.ok()) return;
            Index ri;
            ri.multi = {k, j};
            if (rhs_row_major) {
              ri.linear = b.CreateAdd(b.CreateMul(k, b.getInt64(n)), j);
              ri.shape = &rhs_shape;
            }
            absl::StatusOr<Value*> x = rhs(ri);
            if (!x.ok()) {
              status = x.status();
              return;
            }
            Value* p = acc_at(j);
            b.CreateStore(b.CreateFAdd(b.CreateLoad(elem, p),
                                       b.CreateFMul(*a, *x)),
                          p);
          });
        });
        // The epilogue: every element of the row from its accumulator.
        EmitForLoop(b, b.getInt64(0), b.getInt64(n), "dot.out", [&](Value* j) {
          if (!status.ok()) return;
          Index o;
          o.multi = {i, j};
          o.linear = b.CreateAdd(b.CreateMul(i, b.getInt64(n)), j);
          o.shape = &out.shape();
          Value* sum = b.CreateLoad(elem, acc_at(j));
          Value* v = sum;
          if (inst.opcode() == Opcode::kFusion) {
            std::vector<Value*> at = o.multi;
            Generator own = [sum, at](const Index& idx)
                -> absl::StatusOr<Value*> {
              if (idx.multi == at) return sum;
              return absl::InternalError("dot epilogue read at another index");
            };
            std::map<const Instruction*, LeafGenerators> overrides = {
                {&dot, {own}}};
            absl::StatusOr<LeafGenerators> roots = emitter.EmitComputation(
                *inst.fused_computation(), ops, &overrides);
            if (!roots.ok()) {
              status = roots.status();
              return;
            }
            absl::StatusOr<Value*> r = (*roots)[0](o);
            if (!r.ok()) {
              status = r.status();
              return;
            }
            v = *r;
          }
          out.Write(b, o, v);
        });
      });
  return status;
}

}  // namespace

std::optional<StrategyPlan> PlanRowDot(const Instruction& inst) {
  std::optional<RowDot> rd = MatchRowDot(inst);
  if (!rd.has_value()) return std::nullopt;
  StrategyPlan plan;
  plan.name = "row-dot";
  plan.loop_shape = &inst.shape();
  // A row of the result reads a row of lhs and all of rhs.
  plan.work_per_element = rd->dot->operand(0)->shape().dimensions(1);
  plan.emit = [rd = *rd](const LoopArgs& args) { return EmitRowDot(args, rd); };
  return plan;
}

}  // namespace aotc::codegen
