// The row-wise dot loops and their fused epilogue.
#include "codegen/strategies/row_dot.h"

#include <vector>

#include "codegen/elemental/elemental_emitter.h"
#include "codegen/emit/ir_types.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

constexpr int64_t kMaxAccumulatorBytes = int64_t{64} << 10;
// Depths per pass over the row of sums, for rows of at least
// kMinGroupedRowBytes.
constexpr int64_t kSteps = 4;
constexpr int64_t kMinGroupedRowBytes = 256;

bool IsPlainMatrixDot(const Instruction& dot) {
  if (dot.opcode() != Opcode::kDot) return false;
  const DotDimensionNumbers& dn = dot.dot_dnums();
  const PrimitiveType t = dot.shape().element_type();
  if (t != PrimitiveType::kF32 && t != PrimitiveType::kF64) return false;
  return dot.shape().rank() == 2 && dot.operand(0)->shape().rank() == 2 &&
         dot.operand(1)->shape().rank() == 2 && dn.lhs_batch.empty() &&
         dn.rhs_batch.empty() && dn.lhs_contracting.size() == 1 &&
         dn.rhs_contracting == std::vector<int64_t>{0} &&
         dot.operand(0)->shape().element_type() == t &&
         dot.operand(1)->shape().element_type() == t;
}

std::optional<DotSite> MatchRowDot(const Instruction& inst) {
  std::optional<DotSite> site = MatchDotSite(inst);
  if (!site.has_value() || !IsPlainMatrixDot(*site->dot)) return std::nullopt;
  const int64_t n = site->dot->shape().dimensions(1);
  if (n * StorageBytes(site->dot->shape().element_type()) >
      kMaxAccumulatorBytes) {
    return std::nullopt;
  }
  return site;
}

absl::Status EmitRowDot(const LoopArgs& args, const DotSite& rd) {
  llvm::IRBuilderBase& b = args.b;
  const IrArray& out = args.out[0];
  const std::vector<LeafGenerators>& ops = args.ops;
  const Instruction& dot = *rd.dot;
  const Shape& rhs_shape = dot.operand(1)->shape();
  const int64_t m = dot.shape().dimensions(0);
  // lhs[i, k], or lhs[k, i] for a transposed lhs folded into the dot.
  const bool lhs_k_first = dot.dot_dnums().lhs_contracting[0] == 0;
  const int64_t k_extent =
      dot.operand(0)->shape().dimensions(lhs_k_first ? 0 : 1);
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

  ElementalEmitter emitter(args.mc, b);
  return EmitForLoop(
      b, args.begin ? args.begin : b.getInt64(0),
      args.end ? args.end : b.getInt64(m), "dot.i",
      [&](Value* i) -> absl::Status {
        b.CreateMemSet(acc, b.getInt8(0), n * StorageBytes(t),
                       llvm::MaybeAlign(64));
        // Depths in groups of kSteps: each sum is loaded once,
        // takes the group's steps in order, and is stored once, so that
        // the row of sums costs a load and a store per group rather than
        // per depth; then the depths left one at a time.
        auto steps = [&](Value* k0, int64_t count) -> absl::Status {
          std::vector<Value*> a(count);
          for (int64_t u = 0; u < count; ++u) {
            Index li;
            Value* k = b.CreateAdd(k0, b.getInt64(u));
            li.multi = lhs_k_first ? std::vector<Value*>{k, i}
                                   : std::vector<Value*>{i, k};
            ASSIGN_OR_RETURN(a[u], lhs(li));
          }
          return EmitForLoop(
              b, b.getInt64(0), b.getInt64(n), "dot.j",
              [&](Value* j) -> absl::Status {
            Value* p = acc_at(j);
            Value* sum = b.CreateLoad(elem, p);
            for (int64_t u = 0; u < count; ++u) {
              Value* k = b.CreateAdd(k0, b.getInt64(u));
              Index ri;
              ri.multi = {k, j};
              if (rhs_row_major) {
                ri.linear = b.CreateAdd(b.CreateMul(k, b.getInt64(n)), j);
                ri.shape = &rhs_shape;
              }
              ASSIGN_OR_RETURN(Value * x, rhs(ri));
              sum = b.CreateFAdd(sum, b.CreateFMul(a[u], x));
            }
            b.CreateStore(sum, p);
            return absl::OkStatus();
          });
        };
        // A row of a few vectors stays in registers across depths anyway.
        const int64_t grouped =
            n * StorageBytes(t) >= kMinGroupedRowBytes ? k_extent / kSteps * kSteps : 0;
        if (grouped > 0) {
          RETURN_IF_ERROR(EmitForLoop(
              b, b.getInt64(0), b.getInt64(grouped / kSteps), "dot.k",
              [&](Value* q) { return steps(b.CreateMul(q, b.getInt64(kSteps)), kSteps); }));
        }
        RETURN_IF_ERROR(EmitForLoop(
            b, b.getInt64(grouped), b.getInt64(k_extent), "dot.k_rest",
            [&](Value* k) { return steps(k, 1); }));
        // The epilogue: every element of the row from its accumulator.
        return EmitForLoop(
            b, b.getInt64(0), b.getInt64(n), "dot.out",
            [&](Value* j) -> absl::Status {
          Index o;
          o.multi = {i, j};
          o.linear = b.CreateAdd(b.CreateMul(i, b.getInt64(n)), j);
          o.shape = &out.shape();
          ASSIGN_OR_RETURN(Value * v,
                           EmitDotEpilogue(emitter, args, rd,
                                           b.CreateLoad(elem, acc_at(j)), o));
          out.Write(b, o, v);
          return absl::OkStatus();
        });
      });
}

}  // namespace

std::optional<StrategyPlan> PlanRowDot(const Instruction& inst) {
  if (!inst.shape().HasDefaultLayout()) return std::nullopt;
  std::optional<DotSite> rd = MatchRowDot(inst);
  if (!rd.has_value()) return std::nullopt;
  StrategyPlan plan;
  plan.loop_shape = &inst.shape();
  // A row of the result reads a row of lhs and all of rhs.
  plan.work_per_element = rd->dot->operand(0)->shape().dimensions(
      rd->dot->dot_dnums().lhs_contracting[0]);
  plan.emit = [rd = *rd](const LoopArgs& args) { return EmitRowDot(args, rd); };
  return plan;
}

}  // namespace aotc::codegen
