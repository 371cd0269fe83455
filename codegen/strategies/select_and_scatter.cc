// The select-and-scatter strategy's serial loop (see
// select_and_scatter.h). The window is checked at compile time (its
// source shape, and extents small enough that no index arithmetic can
// overflow), so a module the verifier did not see gives a located error.
#include "codegen/strategies/select_and_scatter.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "codegen/emit/ir_types.h"
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
      return SasError(inst,
                      absl::StrCat("window dimension ", d, " is too large"));
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
    return SasError(inst,
                    "expected an operand, a source, an init value and "
                    "select and scatter computations");
  }
  const Shape& operand = inst.operand(0)->shape();
  const Shape& source = inst.operand(1)->shape();
  const Shape& init = inst.operand(2)->shape();
  if (!operand.IsArray() || !source.IsArray() || !init.IsScalar()) {
    return SasError(inst,
                    "expected array operand and source and a scalar "
                    "init value");
  }
  const Shape& out = inst.shape();
  if (!out.IsArray() || !out.SameDimensions(operand) ||
      out.element_type() != init.element_type()) {
    return SasError(inst, absl::StrCat("result ", out.ToString(false),
                                       " does not have the operand's "
                                       "dimensions and the init value's type"));
  }
  const std::vector<WindowDim>& window = inst.window();
  if (static_cast<int64_t>(window.size()) != operand.rank()) {
    return SasError(inst,
                    absl::StrCat("window has ", window.size(),
                                 " dimensions, the operand ", operand.rank()));
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
    return SasError(
        inst, absl::StrCat("select computation '", select.name(),
                           "' does not take two ", Sv(PrimitiveTypeName(t)),
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

// Emits the loops of one select-and-scatter.
class SelectAndScatterLoops {
 public:
  explicit SelectAndScatterLoops(const LoopArgs& a)
      : a_(a),
        b_(a.b),
        ctx_(a.b.getContext()),
        out_(a.out[0]),
        operand_(&a.inst.operand(0)->shape()),
        source_(&a.inst.operand(1)->shape()),
        window_(a.inst.window()),
        select_(*a.inst.called_computations()[0]),
        scatter_(*a.inst.called_computations()[1]),
        emitter_(a.mc, a.b) {}

  absl::Status Emit() {
    RETURN_IF_ERROR(FillWithInit());
    // The selection of the current source position: whether there is one,
    // where, and the operand's value there.
    has_ = EntryAlloca(b_, b_.getInt1Ty(), "sas.has");
    value_ = EntryAlloca(b_, ComputeType(ctx_, operand_->element_type()),
                         "sas.value");
    for (int d = 0; d < operand_->rank(); ++d) {
      at_.push_back(EntryAlloca(b_, b_.getInt64Ty(), "sas.at"));
    }
    std::vector<int64_t> sizes;
    for (const WindowDim& w : window_) sizes.push_back(w.size);
    return EmitBoxLoop(
        b_, source_->dimensions(), "sas.source",
        [&](const std::vector<Value*>& s) -> absl::Status {
          b_.CreateStore(b_.getFalse(), has_);
          RETURN_IF_ERROR(EmitBoxLoop(
              b_, sizes, "sas.window",
              [&](const std::vector<Value*>& w) { return Candidate(s, w); }));
          return Scatter(s);
        });
  }

 private:
  absl::Status FillWithInit() {
    const Shape& init = a_.inst.operand(2)->shape();
    return EmitArrayLoop(
        b_, out_.shape(), a_.inst.name(),
        [&](const Index& index) -> absl::Status {
          ASSIGN_OR_RETURN(Value * v, a_.ops[2][0](ScalarIndex(init)));
          out_.Write(b_, index, v);
          return absl::OkStatus();
        });
  }

  // Window position `w` of source position `s`: when it lands on an operand
  // element, the selection becomes that element if there is none yet or if
  // select(selected, candidate) is false.
  absl::Status Candidate(const std::vector<Value*>& s,
                         const std::vector<Value*>& w) {
    // The operand position as reduce-window computes it: valid unless in
    // padding or a base-dilation hole.
    Value* valid = b_.getTrue();
    Index c;
    c.shape = operand_;
    for (int d = 0; d < operand_->rank(); ++d) {
      const WindowDim& wd = window_[d];
      Value* pos =
          b_.CreateAdd(b_.CreateMul(s[d], b_.getInt64(wd.stride)),
                       b_.CreateMul(w[d], b_.getInt64(wd.window_dilation)));
      pos = b_.CreateSub(pos, b_.getInt64(wd.pad_low));
      Value* nonnegative = b_.CreateICmpSGE(pos, b_.getInt64(0));
      valid = b_.CreateAnd(valid, nonnegative);
      if (wd.base_dilation != 1) {
        Value* safe = b_.CreateSelect(nonnegative, pos, b_.getInt64(0));
        Value* on_element = b_.CreateICmpEQ(
            b_.CreateURem(safe, b_.getInt64(wd.base_dilation)), b_.getInt64(0));
        valid = b_.CreateAnd(valid, on_element);
        pos = b_.CreateUDiv(safe, b_.getInt64(wd.base_dilation));
      }
      valid = b_.CreateAnd(
          valid, b_.CreateICmpSLT(pos, b_.getInt64(operand_->dimensions(d))));
      c.multi.push_back(pos);
    }
    llvm::BasicBlock* next = Block("sas.next");
    llvm::BasicBlock* candidate = Block("sas.candidate");
    b_.CreateCondBr(valid, candidate, next);
    b_.SetInsertPoint(candidate);
    ASSIGN_OR_RETURN(Value * x, a_.ops[0][0](c));
    // The first valid position is taken without asking select.
    llvm::BasicBlock* compare = Block("sas.compare");
    llvm::BasicBlock* take = Block("sas.take");
    b_.CreateCondBr(b_.CreateLoad(b_.getInt1Ty(), has_), compare, take);
    b_.SetInsertPoint(compare);
    Value* selected = b_.CreateLoad(value_->getAllocatedType(), value_);
    ASSIGN_OR_RETURN(std::vector<Value*> keep,
                     emitter_.CallScalar(select_, {selected, x}));
    b_.CreateCondBr(keep[0], next, take);
    b_.SetInsertPoint(take);
    b_.CreateStore(b_.getTrue(), has_);
    b_.CreateStore(x, value_);
    for (size_t d = 0; d < at_.size(); ++d) b_.CreateStore(c.multi[d], at_[d]);
    b_.CreateBr(next);
    b_.SetInsertPoint(next);
    return absl::OkStatus();
  }

  // out[selected] = scatter(out[selected], source[s]), when a position was
  // selected.
  absl::Status Scatter(const std::vector<Value*>& s) {
    llvm::BasicBlock* body = Block("sas.scatter");
    llvm::BasicBlock* next = Block("sas.scattered");
    b_.CreateCondBr(b_.CreateLoad(b_.getInt1Ty(), has_), body, next);
    b_.SetInsertPoint(body);
    Index selected;
    for (llvm::AllocaInst* d : at_) {
      selected.multi.push_back(b_.CreateLoad(b_.getInt64Ty(), d));
    }
    Index si;
    si.shape = source_;
    si.multi = s;
    ASSIGN_OR_RETURN(Value * v, a_.ops[1][0](si));
    ASSIGN_OR_RETURN(
        std::vector<Value*> r,
        emitter_.CallScalar(scatter_, {out_.Read(b_, selected), v}));
    out_.Write(b_, selected, r[0]);
    b_.CreateBr(next);
    b_.SetInsertPoint(next);
    return absl::OkStatus();
  }

  llvm::BasicBlock* Block(const char* name) {
    return llvm::BasicBlock::Create(ctx_, name,
                                    b_.GetInsertBlock()->getParent());
  }

  const LoopArgs& a_;
  llvm::IRBuilderBase& b_;
  llvm::LLVMContext& ctx_;
  const IrArray& out_;
  const Shape* operand_;
  const Shape* source_;
  const std::vector<WindowDim>& window_;
  const Computation& select_;
  const Computation& scatter_;
  ElementalEmitter emitter_;
  llvm::AllocaInst* has_ = nullptr;
  llvm::AllocaInst* value_ = nullptr;
  std::vector<llvm::AllocaInst*> at_;
};

absl::Status EmitSelectAndScatter(const LoopArgs& a) {
  RETURN_IF_ERROR(CheckSelectAndScatter(a.inst));
  return SelectAndScatterLoops(a).Emit();
}

}  // namespace

std::optional<StrategyPlan> PlanSelectAndScatter(const Instruction& inst) {
  if (inst.opcode() != Opcode::kSelectAndScatter) return std::nullopt;
  // Every select-and-scatter is planned; a malformed one is reported,
  // located, when the loop is emitted. Overlapping windows scatter into the
  // same element in source order, so the loop stays serial.
  StrategyPlan plan;
  plan.emit = EmitSelectAndScatter;
  return plan;
}

}  // namespace aotc::codegen
