// Task functions run through aotc_parallel_for (see parallel_loops.h).
#include "codegen/emit/parallel_loops.h"

#include <algorithm>

#include "codegen/emit/ir_array.h"
#include "codegen/emit/ir_types.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {

using llvm::Value;

namespace {

// Loops with at least this much work (output elements times the input
// elements each reads) run through aotc_parallel_for, in chunks of at
// least kMinChunkWork.
constexpr int64_t kParallelMinWork = int64_t{1} << 15;
constexpr int64_t kMinChunkWork = int64_t{1} << 13;

}  // namespace

std::optional<ParallelSplit> ChooseParallelSplit(const StrategyPlan& plan) {
  const Shape* shape = plan.loop_shape;
  if (shape == nullptr || shape->rank() == 0 ||
      shape->ElementCount() * plan.work_per_element < kParallelMinWork) {
    return std::nullopt;
  }
  const int64_t extent = shape->dimensions(
      plan.split_skips_unit_dims ? FirstWideDimension(*shape)
                                 : shape->layout().minor_to_major.back());
  if (extent < 2) return std::nullopt;
  const int64_t row_work = shape->ElementCount() / extent * plan.work_per_element;
  return ParallelSplit{
      extent, std::max<int64_t>(1, (kMinChunkWork + row_work - 1) / row_work)};
}

namespace {

// A function void f(ptr context, i64 begin, i64 end) computing `plan`'s
// loops for `inst` over the buffers the context's three pointers give;
// with `ranged`, for the outermost range [begin, end) only, else whole.
absl::StatusOr<llvm::Function*> EmitLoopFunction(
    ModuleContext& mc, const BufferPlaces& places, const std::string& name,
    const Instruction& inst, const StrategyPlan& plan,
    const std::vector<IrArray>& out,
    const std::vector<std::vector<IrArray>>& ins, Value* scratch,
    bool ranged) {
  llvm::LLVMContext& ctx = mc.context();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  auto* task = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, i64, i64},
                              false),
      llvm::GlobalValue::InternalLinkage, name, mc.module());
  task->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> tb(llvm::BasicBlock::Create(ctx, "entry", task));
  llvm::StructType* context_type = llvm::StructType::get(ctx, {ptr, ptr, ptr});
  Value* context = task->getArg(0);
  const BufferFunctionArgs task_args{
      tb.CreateLoad(ptr, tb.CreateStructGEP(context_type, context, 0)),
      tb.CreateLoad(ptr, tb.CreateStructGEP(context_type, context, 1)),
      tb.CreateLoad(ptr, tb.CreateStructGEP(context_type, context, 2))};
  // The same arrays (and alias scopes) over the task's pointers.
  auto rebase = [&](Value* base) {
    return places.Rebase(tb, base, task_args.params, task_args.results,
                         task_args.temp);
  };
  std::vector<IrArray> task_out;
  for (const IrArray& a : out) {
    task_out.push_back(a);
    task_out.back().set_base(rebase(a.base()));
  }
  std::vector<std::vector<IrArray>> task_ins;
  std::vector<LeafGenerators> ops;
  for (const std::vector<IrArray>& leaves : ins) {
    task_ins.emplace_back();
    LeafGenerators g;
    for (const IrArray& a : leaves) {
      IrArray r = a;
      r.set_base(rebase(a.base()));
      g.push_back(ArrayReader(tb, r));
      task_ins.back().push_back(r);
    }
    ops.push_back(std::move(g));
  }
  Value* task_scratch = scratch == nullptr ? nullptr : rebase(scratch);
  RETURN_IF_ERROR(plan.emit(LoopArgs{
      mc, tb, inst, task_out, ops, ranged ? task->getArg(1) : nullptr,
      ranged ? task->getArg(2) : nullptr, task_scratch, &task_ins, {}}));
  tb.CreateRetVoid();
  return task;
}

// The context a loop function reads its buffers from, filled at `b`.
Value* LoopContext(llvm::IRBuilderBase& b, const BufferFunctionArgs& args) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::StructType* context_type = llvm::StructType::get(ctx, {ptr, ptr, ptr});
  llvm::AllocaInst* context = EntryAlloca(b, context_type, "task.ctx");
  b.CreateStore(args.params, b.CreateStructGEP(context_type, context, 0));
  b.CreateStore(args.results, b.CreateStructGEP(context_type, context, 1));
  b.CreateStore(args.temp, b.CreateStructGEP(context_type, context, 2));
  return context;
}

}  // namespace

absl::Status EmitParallelLoops(ModuleContext& mc, llvm::IRBuilderBase& b,
                               const BufferPlaces& places,
                               const BufferFunctionArgs& args,
                               const std::string& task_name,
                               const Instruction& inst, const StrategyPlan& plan,
                               const std::vector<IrArray>& out,
                               const std::vector<std::vector<IrArray>>& ins,
                               Value* scratch, const ParallelSplit& split) {
  ASSIGN_OR_RETURN(llvm::Function * task,
                   EmitLoopFunction(mc, places, task_name, inst, plan, out, ins,
                                    scratch, /*ranged=*/true));
  llvm::LLVMContext& ctx = mc.context();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::FunctionCallee parallel_for = mc.module().getOrInsertFunction(
      "aotc_parallel_for",
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, ptr, i64, i64},
                              false));
  b.CreateCall(parallel_for, {task, LoopContext(b, args),
                              b.getInt64(split.extent),
                              b.getInt64(split.min_chunk)});
  return absl::OkStatus();
}

absl::Status EmitOutlinedLoops(ModuleContext& mc, llvm::IRBuilderBase& b,
                               const BufferPlaces& places,
                               const BufferFunctionArgs& args,
                               const std::string& function_name,
                               const Instruction& inst, const StrategyPlan& plan,
                               const std::vector<IrArray>& out,
                               const std::vector<std::vector<IrArray>>& ins,
                               Value* scratch) {
  ASSIGN_OR_RETURN(llvm::Function * f,
                   EmitLoopFunction(mc, places, function_name, inst, plan, out,
                                    ins, scratch, /*ranged=*/false));
  f->addFnAttr(llvm::Attribute::NoInline);
  b.CreateCall(f, {LoopContext(b, args), b.getInt64(0), b.getInt64(0)});
  return absl::OkStatus();
}

}  // namespace aotc::codegen
