// Control flow in a buffer function: while loops, conditionals and calls run
// the buffer functions of their computations on the caller's buffers (see
// computation_emitter.h). Called computations use the temp region after the
// caller's own arena, one at a time.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "codegen/elemental/elemental_emitter.h"
#include "codegen/emit/computation_emitter.h"
#include "codegen/emit/ir_array.h"
#include "codegen/emit/ir_types.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {

using llvm::Value;

Value* ComputationEmitter::PointerArray(const std::vector<IrArray>& arrays) {
  llvm::Type* type = llvm::ArrayType::get(b_->getPtrTy(),
                                          std::max<size_t>(arrays.size(), 1));
  llvm::AllocaInst* a = EntryAlloca(*b_, type, "ptrs");
  for (size_t k = 0; k < arrays.size(); ++k) {
    b_->CreateStore(arrays[k].base(),
                    b_->CreateConstInBoundsGEP2_64(type, a, 0, k));
  }
  return a;
}

void ComputationEmitter::Copy(const IrArray& to, const IrArray& from) {
  const int64_t bytes = to.shape().ByteSize();
  if (bytes == 0) return;
  b_->CreateMemCpy(to.base(), llvm::MaybeAlign(1), from.base(),
                   llvm::MaybeAlign(1), bytes);
}

void ComputationEmitter::ReturnIf(Value* failed, Value* status) {
  llvm::LLVMContext& ctx = b_->getContext();
  auto* fail = llvm::BasicBlock::Create(ctx, "failed", function_);
  auto* ok = llvm::BasicBlock::Create(ctx, "ok", function_);
  b_->CreateCondBr(failed, fail, ok);
  b_->SetInsertPoint(fail);
  b_->CreateRet(status);
  b_->SetInsertPoint(ok);
  may_fail_ = true;
}

absl::Status ComputationEmitter::CallBufferFunction(
    const Instruction& caller, const Computation& callee,
    const std::vector<IrArray>& params, const std::vector<IrArray>& results) {
  ASSIGN_OR_RETURN(BufferFunction f, mc_.GetBufferFunction(callee));
  // A callee without temp gets the arena's start, which it never reads.
  const int64_t scratch = plans_.at(&caller).scratch_offset;
  Value* status =
      b_->CreateCall(f.function, {PointerArray(params), PointerArray(results),
                                  TempAt(std::max<int64_t>(scratch, 0))});
  if (f.may_fail) ReturnIf(b_->CreateICmpNE(status, b_->getInt32(0)), status);
  return absl::OkStatus();
}

absl::Status ComputationEmitter::EmitWhile(const Instruction& inst) {
  llvm::IRBuilderBase& b = *b_;
  const Plan& plan = plans_.at(&inst);
  std::vector<IrArray> state = OwnLeaves(inst, plan.offsets, plan.result_index);
  std::vector<IrArray> next = OwnLeaves(inst, plan.next_offsets, {});
  const std::vector<IrArray>& init = values_.at(inst.operand(0));
  for (size_t k = 0; k < state.size(); ++k) Copy(state[k], init[k]);
  static const Shape kPredScalar = Shape::Scalar(PrimitiveType::kPred);
  IrArray pred(TempAt(plan.pred_offset), &kPredScalar);

  llvm::LLVMContext& ctx = b.getContext();
  auto* header = llvm::BasicBlock::Create(ctx, "while.cond", function_);
  auto* body = llvm::BasicBlock::Create(ctx, "while.body", function_);
  auto* exit = llvm::BasicBlock::Create(ctx, "while.exit", function_);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  RETURN_IF_ERROR(
      CallBufferFunction(inst, *inst.while_condition(), state, {pred}));
  b.CreateCondBr(pred.Read(b, ScalarIndex(kPredScalar)), body, exit);
  b.SetInsertPoint(body);
  RETURN_IF_ERROR(CallBufferFunction(inst, *inst.while_body(), state, next));
  for (size_t k = 0; k < state.size(); ++k) Copy(state[k], next[k]);
  b.CreateBr(header);
  b.SetInsertPoint(exit);
  values_[&inst] = std::move(state);
  return absl::OkStatus();
}

absl::Status ComputationEmitter::EmitConditional(const Instruction& inst) {
  llvm::IRBuilderBase& b = *b_;
  const Plan& plan = plans_.at(&inst);
  std::vector<IrArray> out = OwnLeaves(inst, plan.offsets, plan.result_index);
  const IrArray& selector = values_.at(inst.operand(0))[0];
  Value* v = selector.Read(b, ScalarIndex(selector.shape()));
  const int n = static_cast<int>(inst.called_computations().size());
  Value* branch;
  if (selector.shape().element_type() == PrimitiveType::kPred) {
    branch = b.CreateSelect(v, b.getInt64(0), b.getInt64(1));
  } else {
    branch = b.CreateIntCast(v, b.getInt64Ty(),
                             IsSignedInt(selector.shape().element_type()));
    Value* out_of_range = b.CreateOr(b.CreateICmpSLT(branch, b.getInt64(0)),
                                     b.CreateICmpSGE(branch, b.getInt64(n)));
    branch = b.CreateSelect(out_of_range, b.getInt64(n - 1), branch);
  }
  llvm::LLVMContext& ctx = b.getContext();
  auto* done = llvm::BasicBlock::Create(ctx, "cond.done", function_);
  llvm::SwitchInst* sw = b.CreateSwitch(branch, done, n);
  for (int k = 0; k < n; ++k) {
    auto* block = llvm::BasicBlock::Create(ctx, "cond.branch", function_);
    sw->addCase(b.getInt64(k), block);
    b.SetInsertPoint(block);
    RETURN_IF_ERROR(CallBufferFunction(inst, *inst.called_computations()[k],
                                       values_.at(inst.operand(k + 1)), out));
    b.CreateBr(done);
  }
  b.SetInsertPoint(done);
  values_[&inst] = std::move(out);
  return absl::OkStatus();
}

absl::Status ComputationEmitter::EmitCall(const Instruction& inst) {
  const Plan& plan = plans_.at(&inst);
  std::vector<IrArray> out = OwnLeaves(inst, plan.offsets, plan.result_index);
  std::vector<IrArray> params;
  for (const Instruction* o : inst.operands()) {
    const std::vector<IrArray>& leaves = values_.at(o);
    params.insert(params.end(), leaves.begin(), leaves.end());
  }
  RETURN_IF_ERROR(CallBufferFunction(inst, *inst.to_apply(), params, out));
  values_[&inst] = std::move(out);
  return absl::OkStatus();
}

}  // namespace aotc::codegen
