// The select-and-scatter strategy's serial loop (see
// select_and_scatter_emitter.h). The window is checked at compile time (its
// source shape, and extents small enough that no index arithmetic can
// overflow), so a module the verifier did not see gives a located error.
#include "codegen/select_and_scatter_emitter.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "codegen/ir_types.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// Window extents, strides and padding beyond this are refused (as the
// evaluator refuses them), so positions computed in i64 cannot overflow.
constexpr int64_t kWindowLimit = int64_t{1} << 60;

absl::Status SasError(const Instruction& inst, std::string_view what) {
  return ErrorAt(inst.location(),
                 absl::StrCat("select-and-scatter: ", Sv(what)));
}

// Whether `comp` takes scalars of `params` and returns one scalar of
// `result`.
bool HasSignature(const Computation& comp,
                  const std::vector<PrimitiveType>& params,
                  PrimitiveType result) {
  if (comp.num_parameters() != static_cast<int>(params.size())) return false;
  for (size_t i = 0; i < params.size(); ++i) {
    const Shape& p = comp.parameter(i)->shape();
    if (!p.IsScalar() || p.element_type() != params[i]) return false;
  }
  const Shape& root = comp.root()->shape();
  return root.IsScalar() && root.element_type() == result;
}

// The number of window positions along one dimension of size `base`, or an
// error for a window the loop cannot handle.
absl::StatusOr<int64_t> WindowCount(const Instruction& inst, int d,
                                    const WindowDim& w, int64_t base) {
  if (w.size <= 0 || w.stride <= 0 || w.window_dilation <= 0 ||
      w.base_dilation <= 0) {
    return SasError(inst, absl::StrCat("window dimension ", d,
                                       " has a size, stride or dilation "
                                       "below 1"));
  }
  using I128 = __int128;
  const I128 dilated_base =
      base == 0 ? 0 : (I128{base} - 1) * w.base_dilation + 1;
  const I128 padded = dilated_base + w.pad_low + w.pad_high;
  const I128 dilated_window = (I128{w.size} - 1) * w.window_dilation + 1;
  for (I128 v : {dilated_base, padded, dilated_window, I128{w.pad_low},
                 I128{w.pad_high}, I128{w.stride}}) {
    if (v >= kWindowLimit || v <= -kWindowLimit) {
      return SasError(inst, absl::StrCat("window dimension ", d,
                                         " is too large"));
    }
  }
  if (padded < dilated_window) return 0;
  return static_cast<int64_t>((padded - dilated_window) / w.stride + 1);
}

// Operand, source, scalar init, result like the operand with the init's
// type, a window whose positions are the source's, and the two
// computations' signatures.
absl::Status CheckSelectAndScatter(const Instruction& inst) {
  if (inst.operand_count() != 3 || inst.called_computations().size() != 2) {
    return SasError(inst, "expected an operand, a source, an init value and "
                          "select and scatter computations");
  }
  const Shape& operand = inst.operand(0)->shape();
  const Shape& source = inst.operand(1)->shape();
  const Shape& init = inst.operand(2)->shape();
  if (!operand.IsArray() || !source.IsArray() || !init.IsScalar()) {
    return SasError(inst, "expected array operand and source and a scalar "
                          "init value");
  }
  const Shape& out = inst.shape();
  if (!out.IsArray() || !out.SameDimensions(operand) ||
      out.element_type() != init.element_type()) {
    return SasError(inst, absl::StrCat("result ", out.ToString(false),
                                       " does not have the operand's "
                                       "dimensions and the init value's type"));
  }
  const std::vector<WindowDim>& window = inst.attrs().window;
  if (static_cast<int64_t>(window.size()) != operand.rank()) {
    return SasError(inst, absl::StrCat("window has ", window.size(),
                                       " dimensions, the operand ",
                                       operand.rank()));
  }
  std::vector<int64_t> positions;
  for (int d = 0; d < operand.rank(); ++d) {
    ASSIGN_OR_RETURN(int64_t count,
                     WindowCount(inst, d, window[d], operand.dimensions(d)));
    positions.push_back(count);
  }
  if (source.dimensions() != positions) {
    return SasError(inst, absl::StrCat("source ", source.ToString(false),
                                       " does not match the window positions "
                                       "[",
                                       absl::StrJoin(positions, ","), "]"));
  }
  const PrimitiveType t = operand.element_type();
  const Computation& select = *inst.called_computations()[0];
  if (!HasSignature(select, {t, t}, PrimitiveType::kPred)) {
    return SasError(inst, absl::StrCat("select computation '", select.name(),
                                       "' does not take two ",
                                       Sv(PrimitiveTypeName(t)),
                                       " scalars and return a pred"));
  }
  const Computation& scatter = *inst.called_computations()[1];
  if (!HasSignature(scatter, {out.element_type(), source.element_type()},
                    out.element_type())) {
    return SasError(inst, absl::StrCat("scatter computation '", scatter.name(),
                                       "' does not take the result and source "
                                       "types and return the result type"));
  }
  return absl::OkStatus();
}

// Emits `if (cond) then() else otherwise()` at the builder's position.
void IfElse(llvm::IRBuilderBase& b, Value* cond, const std::string& name,
            const std::function<void()>& then,
            const std::function<void()>& otherwise) {
  llvm::Function* f = b.GetInsertBlock()->getParent();
  auto* yes = llvm::BasicBlock::Create(b.getContext(), name, f);
  auto* no = llvm::BasicBlock::Create(b.getContext(), name + ".else", f);
  auto* join = llvm::BasicBlock::Create(b.getContext(), name + ".join", f);
  b.CreateCondBr(cond, yes, no);
  b.SetInsertPoint(yes);
  then();
  b.CreateBr(join);
  b.SetInsertPoint(no);
  otherwise();
  b.CreateBr(join);
  b.SetInsertPoint(join);
}

absl::Status EmitSelectAndScatter(const LoopArgs& a) {
  RETURN_IF_ERROR(CheckSelectAndScatter(a.inst));
  llvm::IRBuilderBase& b = a.b;
  llvm::LLVMContext& ctx = b.getContext();
  const IrArray& out = a.out[0];
  const Shape* operand = &a.inst.operand(0)->shape();
  const Shape* source = &a.inst.operand(1)->shape();
  const Shape& init = a.inst.operand(2)->shape();
  const std::vector<WindowDim>& window = a.inst.attrs().window;
  const Computation& select = *a.inst.called_computations()[0];
  const Computation& scatter = *a.inst.called_computations()[1];
  const int rank = operand->rank();

  // The output starts as the init value everywhere.
  absl::Status status;
  EmitArrayLoop(b, out.shape(), a.inst.name(), [&](const Index& index) {
    if (!status.ok()) return;
    absl::StatusOr<Value*> v = a.ops[2][0](ScalarIndex(init));
    if (!v.ok()) {
      status = v.status();
      return;
    }
    out.Write(b, index, *v);
  });
  RETURN_IF_ERROR(status);

  // The selection of one source position: whether there is one, where, and
  // the operand's value there.
  llvm::AllocaInst* has = EntryAlloca(b, b.getInt1Ty(), "sas.has");
  llvm::AllocaInst* value = EntryAlloca(
      b, ComputeType(ctx, operand->element_type()), "sas.value");
  std::vector<llvm::AllocaInst*> at;
  for (int d = 0; d < rank; ++d) {
    at.push_back(EntryAlloca(b, b.getInt64Ty(), "sas.at"));
  }
  std::vector<int64_t> sizes;
  for (const WindowDim& w : window) sizes.push_back(w.size);
  ElementalEmitter emitter(a.mc, b);
  EmitBoxLoop(b, source->dimensions(), "sas.source",
              [&](const std::vector<Value*>& s) {
    if (!status.ok()) return;
    b.CreateStore(b.getFalse(), has);
    EmitBoxLoop(b, sizes, "sas.window", [&](const std::vector<Value*>& w) {
      if (!status.ok()) return;
      // Operand position of window position w, as reduce-window computes
      // it: valid unless in padding or a base-dilation hole.
      Value* valid = b.getTrue();
      Index c;
      c.shape = operand;
      for (int d = 0; d < rank; ++d) {
        const WindowDim& wd = window[d];
        Value* pos =
            b.CreateAdd(b.CreateMul(s[d], b.getInt64(wd.stride)),
                        b.CreateMul(w[d], b.getInt64(wd.window_dilation)));
        pos = b.CreateSub(pos, b.getInt64(wd.pad_low));
        Value* nonnegative = b.CreateICmpSGE(pos, b.getInt64(0));
        valid = b.CreateAnd(valid, nonnegative);
        if (wd.base_dilation != 1) {
          Value* safe = b.CreateSelect(nonnegative, pos, b.getInt64(0));
          Value* on_element = b.CreateICmpEQ(
              b.CreateURem(safe, b.getInt64(wd.base_dilation)), b.getInt64(0));
          valid = b.CreateAnd(valid, on_element);
          pos = b.CreateUDiv(safe, b.getInt64(wd.base_dilation));
        }
        valid = b.CreateAnd(
            valid, b.CreateICmpSLT(pos, b.getInt64(operand->dimensions(d))));
        c.multi.push_back(pos);
      }
      llvm::Function* f = b.GetInsertBlock()->getParent();
      auto* candidate = llvm::BasicBlock::Create(ctx, "sas.candidate", f);
      auto* next = llvm::BasicBlock::Create(ctx, "sas.next", f);
      b.CreateCondBr(valid, candidate, next);
      b.SetInsertPoint(candidate);
      absl::StatusOr<Value*> x = a.ops[0][0](c);
      if (!x.ok()) {
        status = x.status();
        return;
      }
      auto take = [&] {
        b.CreateStore(b.getTrue(), has);
        b.CreateStore(*x, value);
        for (int d = 0; d < rank; ++d) b.CreateStore(c.multi[d], at[d]);
      };
      // The first valid position is taken without asking select; a later
      // one replaces the selection when select(selected, candidate) is
      // false.
      IfElse(
          b, b.CreateLoad(b.getInt1Ty(), has), "sas.compare",
          [&] {
            Value* current =
                b.CreateLoad(value->getAllocatedType(), value);
            absl::StatusOr<std::vector<Value*>> keep =
                emitter.CallScalar(select, {current, *x});
            if (!keep.ok()) {
              status = keep.status();
              return;
            }
            Value* replace = b.CreateNot((*keep)[0]);
            llvm::Function* fn = b.GetInsertBlock()->getParent();
            auto* yes = llvm::BasicBlock::Create(ctx, "sas.replace", fn);
            auto* done = llvm::BasicBlock::Create(ctx, "sas.kept", fn);
            b.CreateCondBr(replace, yes, done);
            b.SetInsertPoint(yes);
            take();
            b.CreateBr(done);
            b.SetInsertPoint(done);
          },
          take);
      b.CreateBr(next);
      b.SetInsertPoint(next);
    });
    if (!status.ok()) return;
    // out[selected] = scatter(out[selected], source[s]).
    IfElse(
        b, b.CreateLoad(b.getInt1Ty(), has), "sas.scatter",
        [&] {
          Index sel;
          for (int d = 0; d < rank; ++d) {
            sel.multi.push_back(b.CreateLoad(b.getInt64Ty(), at[d]));
          }
          Index si;
          si.shape = source;
          si.multi = s;
          absl::StatusOr<Value*> v = a.ops[1][0](si);
          if (!v.ok()) {
            status = v.status();
            return;
          }
          absl::StatusOr<std::vector<Value*>> r =
              emitter.CallScalar(scatter, {out.Read(b, sel), *v});
          if (!r.ok()) {
            status = r.status();
            return;
          }
          out.Write(b, sel, (*r)[0]);
        },
        [] {});
  });
  return status;
}

}  // namespace

std::optional<StrategyPlan> PlanSelectAndScatter(const Instruction& inst) {
  if (inst.opcode() != Opcode::kSelectAndScatter) return std::nullopt;
  // Every select-and-scatter is planned; a malformed one is reported,
  // located, when the loop is emitted. Overlapping windows scatter into the
  // same element in source order, so the loop stays serial.
  StrategyPlan plan;
  plan.name = "select-and-scatter";
  plan.emit = EmitSelectAndScatter;
  return plan;
}

}  // namespace aotc::codegen
