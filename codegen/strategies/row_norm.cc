// Row normalisations, one row at a time (see row_norm.h).
#include "codegen/strategies/row_norm.h"

#include <algorithm>
#include <map>
#include <memory>

#include "compiler/analysis/norm_pattern.h"
#include "compiler/ir/computation.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

bool IsRowMajor(const Shape& s) {
  const std::vector<int64_t>& m2m = s.layout().minor_to_major;
  for (size_t i = 0; i < m2m.size(); ++i) {
    if (m2m[i] != static_cast<int64_t>(m2m.size() - 1 - i)) return false;
  }
  return true;
}

// The sizes of `dims` other than 1.
std::vector<int64_t> NonUnit(const std::vector<int64_t>& dims) {
  std::vector<int64_t> out;
  for (int64_t d : dims) {
    if (d != 1) out.push_back(d);
  }
  return out;
}

// The index into a row-level value of shape `s` (the row count's
// dimensions, with dimensions of size 1 added or removed) of the row whose
// index into the reduces' shape is `row`.
Index RowIndexFor(llvm::IRBuilderBase& b, const Shape& s, const Shape& rows,
                  const Index& row) {
  std::vector<Value*> coords;
  for (int64_t i = 0; i < rows.rank(); ++i) {
    if (rows.dimensions(i) != 1) coords.push_back(row.multi[i]);
  }
  Index index;
  size_t next = 0;
  for (int64_t i = 0; i < s.rank(); ++i) {
    index.multi.push_back(s.dimensions(i) == 1 ? b.getInt64(0)
                                               : coords[next++]);
  }
  return index;
}

// The row-level values the element level reads through a broadcast: the
// members the fusion computes (parameters are read where they are).
std::vector<const Instruction*> RowValuesRead(const Computation& fused,
                                              const NormPattern& p) {
  const Shape& s = p.root->shape();
  const std::vector<int64_t>& d = s.dimensions();
  const std::vector<int64_t> row_sizes =
      NonUnit({d.begin(), d.begin() + p.first_row_dim});
  std::vector<const Instruction*> out;
  for (const auto& f : fused.instructions()) {
    if (f->opcode() != Opcode::kBroadcast || !f->shape().SameDimensions(s)) {
      continue;
    }
    const Instruction* x = f->operand(0);
    if (x->opcode() == Opcode::kParameter || x->shape().IsScalar() ||
        NonUnit(x->shape().dimensions()) != row_sizes) {
      continue;
    }
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  }
  return out;
}

struct RowNormPlan {
  NormPattern pattern;
  std::vector<const Instruction*> row_values;
  std::shared_ptr<const Shape> rows;  // the reduces' shape
};

absl::Status EmitRowNorm(const LoopArgs& args, const RowNormPlan& plan) {
  llvm::IRBuilderBase& b = args.b;
  ElementalEmitter emitter(args.mc, b);
  const Computation& fused = *args.inst.fused_computation();
  const NormPattern& p = plan.pattern;
  const Shape& out_shape = args.out[0].shape();
  const std::vector<int64_t>& dims = out_shape.dimensions();
  const std::vector<int64_t> row_extents(dims.begin() + p.first_row_dim,
                                         dims.end());
  const bool linear = IsRowMajor(out_shape);
  return EmitArrayLoop(
      b, *plan.rows, args.inst.name(),
      [&](const Index& row) -> absl::Status {
        std::map<const Instruction*, LeafGenerators> overrides;
        auto fixed = [](Value* v) {
          return LeafGenerators{
              [v](const Index&) -> absl::StatusOr<Value*> { return v; }};
        };
        // One pass over the row per sum, each reading the sums before it.
        for (const Instruction* r : p.reduces) {
          ASSIGN_OR_RETURN(auto values, emitter.EmitComputationValues(
                                            fused, args.ops, &overrides));
          ASSIGN_OR_RETURN(
              std::vector<Value*> sums,
              emitter.EmitReduce(
                  *r, {values.at(r->operand(0)), values.at(r->operand(1))},
                  row));
          overrides[r] = fixed(sums[0]);
        }
        // The row values, once per row.
        {
          ASSIGN_OR_RETURN(auto values, emitter.EmitComputationValues(
                                            fused, args.ops, &overrides));
          for (const Instruction* x : plan.row_values) {
            ASSIGN_OR_RETURN(
                Value * v,
                values.at(x)[0](RowIndexFor(b, x->shape(), *plan.rows, row)));
            overrides[x] = fixed(v);
          }
        }
        ASSIGN_OR_RETURN(LeafGenerators roots,
                         emitter.EmitComputation(fused, args.ops, &overrides));
        // The row's first element in the output, when it is row-major.
        Value* base = nullptr;
        if (linear) {
          base = b.getInt64(0);
          for (int64_t i = 0; i < p.first_row_dim; ++i) {
            base = b.CreateAdd(b.CreateMul(base, b.getInt64(dims[i])),
                               row.multi[i]);
          }
          base = b.CreateMul(base, b.getInt64(p.row_length));
        }
        return EmitForLoop(
            b, b.getInt64(0), b.getInt64(p.row_length),
            args.inst.name() + ".row", [&](Value* j) -> absl::Status {
              Index at;
              at.multi.assign(row.multi.begin(),
                              row.multi.begin() + p.first_row_dim);
              for (Value* c : UnflattenRowMajor(b, j, row_extents)) {
                at.multi.push_back(c);
              }
              if (linear) {
                at.linear = b.CreateAdd(base, j);
                at.shape = &out_shape;
              }
              ASSIGN_OR_RETURN(Value * v, roots[0](at));
              args.out[0].Write(b, at, v);
              return absl::OkStatus();
            });
      },
      args.begin, args.end);
}

}  // namespace

std::optional<StrategyPlan> PlanRowNorm(const Instruction& inst) {
  if (inst.opcode() != Opcode::kFusion ||
      inst.fusion_kind() != FusionKind::kCustom || !inst.shape().IsArray()) {
    return std::nullopt;
  }
  const Computation& fused = *inst.fused_computation();
  std::optional<NormPattern> p = MatchNorm(*fused.root());
  if (!p) return std::nullopt;
  auto plan = std::make_shared<RowNormPlan>();
  plan->pattern = *p;
  plan->row_values = RowValuesRead(fused, *p);
  plan->rows = std::make_shared<Shape>(p->reduces[0]->shape());
  StrategyPlan out;
  out.own_loop_shape = plan->rows;
  out.loop_shape = plan->rows.get();
  out.split_skips_unit_dims = true;  // EmitArrayLoop over the rows
  out.work_per_element =
      p->row_length * static_cast<int64_t>(p->reduces.size() + 1);
  out.emit = [plan](const LoopArgs& args) { return EmitRowNorm(args, *plan); };
  return out;
}

}  // namespace aotc::codegen
