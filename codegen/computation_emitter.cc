// Buffer-level lowering of a computation into
//   void f(ptr params, ptr results, ptr temp)
// (see BufferFunction in module_context.h).
//
// Every live instruction gets a place for its value:
//   - parameters are the caller's buffers; constants are read-only globals;
//   - tuple, get-tuple-element, bitcast, opt-barrier, reshapes between
//     row-major layouts, and bitcast-converts (between row-major layouts,
//     or of the same width and layout) alias their operand's bytes (no
//     copy, every bit kept);
//   - everything else writes a buffer of its own in `temp`, one loop nest per
//     array leaf, computed by the element generators of elemental.h (a fusion
//     inlines its fused computation there); while, conditional and call run
//     the buffer functions of their computations.
// A root leaf produced by an instruction with a buffer of its own is written
// straight into the result buffer; other root leaves are copied at the end.
// Loops over large outputs run through the runtime's parallel-for hook: the
// loop nest becomes a task function over a range of its outermost dimension,
// called as aotc_parallel_for(task, context, extent, min_chunk), which runs
// it serially on the caller's thread unless the application installed a
// hook. The task finds its buffers again from the three pointers of the
// computation (params, results, temp) that the context carries.
// Buffers are laid out one after another, each 64-byte aligned; the region
// after them is shared by the called computations, which never run at the
// same time. (Buffer reuse by liveness is the memory planner's job.)
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/elemental.h"
#include "codegen/ir_array.h"
#include "codegen/ir_types.h"
#include "codegen/module_context.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// Outputs with at least this many elements are computed through
// aotc_parallel_for, in chunks of at least kMinChunkElements elements.
constexpr int64_t kParallelMinElements = int64_t{1} << 15;
constexpr int64_t kMinChunkElements = int64_t{1} << 13;

int64_t AlignUp(int64_t n) {
  return (n + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
}

enum class Kind { kParameter, kConstant, kAlias, kWhile, kConditional, kCall,
                  kGenerated };

absl::StatusOr<Kind> Classify(const Instruction& inst) {
  switch (inst.opcode()) {
    case Opcode::kParameter:
      return Kind::kParameter;
    case Opcode::kConstant:
      // Scalars become immediates inside loops; arrays and tuples are
      // read-only globals.
      return inst.shape().IsScalar() ? Kind::kGenerated : Kind::kConstant;
    case Opcode::kTuple:
    case Opcode::kGetTupleElement:
    case Opcode::kOptimizationBarrier:
      return Kind::kAlias;
    case Opcode::kBitcast:
      return Kind::kAlias;
    case Opcode::kCopy:
      // A tuple copy copies nothing but the tuple: its leaves are the
      // operand's (buffers are never written twice).
      return inst.shape().IsTuple() ? Kind::kAlias : Kind::kGenerated;
    case Opcode::kReshape:
      return inst.shape().HasDefaultLayout() &&
                     inst.operand(0)->shape().HasDefaultLayout()
                 ? Kind::kAlias
                 : Kind::kGenerated;
    case Opcode::kBitcastConvert: {
      // Aliasing keeps every bit, NaN payloads included; the element
      // generator goes through compute values, where f16/bf16 NaNs become
      // the canonical NaN.
      const Shape& in = inst.operand(0)->shape();
      const Shape& out = inst.shape();
      const bool same_width =
          BitWidth(in.element_type()) == BitWidth(out.element_type());
      if ((in.HasDefaultLayout() && out.HasDefaultLayout()) ||
          (same_width &&
           in.layout().minor_to_major == out.layout().minor_to_major)) {
        return Kind::kAlias;
      }
      if (same_width) return Kind::kGenerated;
      return ErrorAt(inst.location(),
                     "a width-changing bitcast-convert needs row-major "
                     "layouts (others are not supported yet)");
    }
    case Opcode::kWhile:
      return Kind::kWhile;
    case Opcode::kConditional:
      return Kind::kConditional;
    case Opcode::kCall:
      return Kind::kCall;
    default:
      return Kind::kGenerated;
  }
}

// Which leaves of which instruction make up leaf `leaf` of `inst`, looking
// through tuples and get-tuple-elements.
std::pair<const Instruction*, int> TraceLeaf(const Instruction* inst,
                                             int leaf) {
  while (true) {
    if (inst->opcode() == Opcode::kTuple) {
      int k = 0;
      for (; k < inst->operand_count(); ++k) {
        const int n =
            static_cast<int>(inst->operand(k)->shape().Leaves().size());
        if (leaf < n) break;
        leaf -= n;
      }
      inst = inst->operand(k);
    } else if (inst->opcode() == Opcode::kGetTupleElement) {
      leaf += FirstLeafOf(inst->operand(0)->shape(), inst->tuple_index());
      inst = inst->operand(0);
    } else {
      return {inst, leaf};
    }
  }
}

class ComputationEmitter {
 public:
  ComputationEmitter(ModuleContext& mc, const Computation& comp)
      : mc_(mc), comp_(comp) {}

  absl::StatusOr<BufferFunction> Emit();

 private:
  struct Plan {
    Kind kind;
    std::vector<int64_t> offsets;       // own leaf buffers in temp, or -1
    std::vector<int> result_index;      // result pointer per leaf, or -1
    std::vector<int64_t> next_offsets;  // while: the body's result buffers
    int64_t pred_offset = -1;           // while: the condition's result
  };

  absl::Status PlanAll();
  absl::Status EmitInstruction(const Instruction& inst);
  absl::Status EmitGenerated(const Instruction& inst);
  // The loop nests computing `inst` into `out` with builder `b`, the
  // outermost loop restricted to [begin, end) when they are not null.
  absl::Status EmitLoops(llvm::IRBuilderBase& b, const Instruction& inst,
                         const std::vector<IrArray>& out,
                         const std::vector<LeafGenerators>& ops, Value* begin,
                         Value* end);
  // Emits `inst` as a task function run through aotc_parallel_for.
  absl::Status EmitParallel(const Instruction& inst,
                            const std::vector<IrArray>& out, int64_t extent,
                            int64_t min_chunk);
  // How a buffer pointer is found from the computation's arguments, so that
  // a task function can find it again.
  struct Recipe {
    enum { kParam, kResult, kTemp } kind;
    int64_t value;
  };
  Value* Rebase(llvm::IRBuilderBase& b, Value* base, Value* params,
                Value* results, Value* temp);
  absl::Status EmitWhile(const Instruction& inst);
  absl::Status EmitConditional(const Instruction& inst);
  absl::Status EmitCall(const Instruction& inst);
  // Calls `callee` with the given parameter and result leaves.
  absl::Status CallBufferFunction(const Computation& callee,
                                  const std::vector<IrArray>& params,
                                  const std::vector<IrArray>& results);
  Value* PointerArray(const std::vector<IrArray>& arrays);
  void Copy(const IrArray& to, const IrArray& from);
  // Arrays over `offsets` in temp, or over the result pointers that
  // `result_index` names (-1: none).
  std::vector<IrArray> OwnLeaves(const Instruction& inst,
                                 const std::vector<int64_t>& offsets,
                                 const std::vector<int>& result_index);
  Value* TempAt(int64_t offset);

  ModuleContext& mc_;
  const Computation& comp_;
  std::vector<const Instruction*> live_;
  std::map<const Instruction*, Plan> plans_;
  int64_t own_bytes_ = 0;
  int64_t callee_bytes_ = 0;
  llvm::Function* function_ = nullptr;
  std::unique_ptr<llvm::IRBuilder<>> b_;
  Value* params_ = nullptr;
  Value* results_ = nullptr;
  Value* temp_ = nullptr;
  std::vector<Value*> param_leaves_;
  std::vector<Value*> result_ptrs_;
  std::map<const Instruction*, std::vector<IrArray>> values_;
  std::map<Value*, Recipe> recipes_;
};

absl::Status ComputationEmitter::PlanAll() {
  // Instructions the root depends on, in definition order.
  std::set<const Instruction*> live;
  std::vector<const Instruction*> stack = {comp_.root()};
  while (!stack.empty()) {
    const Instruction* inst = stack.back();
    stack.pop_back();
    if (!live.insert(inst).second) continue;
    for (const Instruction* o : inst->operands()) stack.push_back(o);
  }
  for (const auto& inst : comp_.instructions()) {
    if (live.count(inst.get())) live_.push_back(inst.get());
  }
  // Root leaves written in place by the instruction producing them.
  std::map<std::pair<const Instruction*, int>, int> direct;
  const int results = static_cast<int>(comp_.root()->shape().Leaves().size());
  for (int r = 0; r < results; ++r) {
    auto [producer, leaf] = TraceLeaf(comp_.root(), r);
    ASSIGN_OR_RETURN(Kind kind, Classify(*producer));
    if (kind == Kind::kParameter || kind == Kind::kConstant ||
        kind == Kind::kAlias) {
      continue;
    }
    direct.emplace(std::make_pair(producer, leaf), r);
  }
  auto allocate = [&](int64_t bytes) {
    const int64_t offset = own_bytes_;
    own_bytes_ = AlignUp(own_bytes_ + bytes);
    return offset;
  };
  for (const Instruction* inst : live_) {
    Plan plan;
    ASSIGN_OR_RETURN(plan.kind, Classify(*inst));
    const std::vector<const Shape*> leaves = inst->shape().Leaves();
    const bool owns = plan.kind != Kind::kParameter &&
                      plan.kind != Kind::kConstant && plan.kind != Kind::kAlias;
    for (size_t k = 0; k < leaves.size() && owns; ++k) {
      auto it = direct.find({inst, static_cast<int>(k)});
      if (it != direct.end()) {
        plan.offsets.push_back(-1);
        plan.result_index.push_back(it->second);
      } else {
        plan.offsets.push_back(allocate(leaves[k]->ByteSize()));
        plan.result_index.push_back(-1);
      }
    }
    std::vector<const Computation*> callees;
    if (plan.kind == Kind::kWhile) {
      for (const Shape* leaf : leaves) {
        plan.next_offsets.push_back(allocate(leaf->ByteSize()));
      }
      plan.pred_offset = allocate(1);
      callees = {inst->while_condition(), inst->while_body()};
    } else if (plan.kind == Kind::kConditional || plan.kind == Kind::kCall) {
      callees.assign(inst->called_computations().begin(),
                     inst->called_computations().end());
    }
    for (const Computation* callee : callees) {
      ASSIGN_OR_RETURN(BufferFunction f, mc_.GetBufferFunction(*callee));
      callee_bytes_ = std::max(callee_bytes_, f.temp_bytes);
    }
    plans_[inst] = std::move(plan);
  }
  return absl::OkStatus();
}

Value* ComputationEmitter::TempAt(int64_t offset) {
  Value* p =
      b_->CreateInBoundsGEP(b_->getInt8Ty(), temp_, b_->getInt64(offset));
  recipes_[p] = {Recipe::kTemp, offset};
  return p;
}

Value* ComputationEmitter::Rebase(llvm::IRBuilderBase& b, Value* base,
                                  Value* params, Value* results, Value* temp) {
  if (llvm::isa<llvm::GlobalValue>(base)) return base;
  const Recipe& r = recipes_.at(base);
  llvm::Type* ptr = b.getPtrTy();
  switch (r.kind) {
    case Recipe::kParam:
      return b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(ptr, params, r.value));
    case Recipe::kResult:
      return b.CreateLoad(ptr,
                          b.CreateConstInBoundsGEP1_64(ptr, results, r.value));
    case Recipe::kTemp:
      return b.CreateInBoundsGEP(b.getInt8Ty(), temp, b.getInt64(r.value));
  }
  return nullptr;
}

std::vector<IrArray> ComputationEmitter::OwnLeaves(
    const Instruction& inst, const std::vector<int64_t>& offsets,
    const std::vector<int>& result_index) {
  std::vector<IrArray> arrays;
  const std::vector<const Shape*> leaves = inst.shape().Leaves();
  for (size_t k = 0; k < leaves.size(); ++k) {
    Value* ptr = result_index.size() > k && result_index[k] >= 0
                     ? result_ptrs_[result_index[k]]
                     : TempAt(offsets[k]);
    arrays.emplace_back(ptr, leaves[k]);
  }
  return arrays;
}

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

absl::Status ComputationEmitter::CallBufferFunction(
    const Computation& callee, const std::vector<IrArray>& params,
    const std::vector<IrArray>& results) {
  ASSIGN_OR_RETURN(BufferFunction f, mc_.GetBufferFunction(callee));
  b_->CreateCall(f.function, {PointerArray(params), PointerArray(results),
                              TempAt(AlignUp(own_bytes_))});
  return absl::OkStatus();
}

absl::Status ComputationEmitter::EmitLoops(
    llvm::IRBuilderBase& b, const Instruction& inst,
    const std::vector<IrArray>& out, const std::vector<LeafGenerators>& ops,
    Value* begin, Value* end) {
  ElementalEmitter emitter(mc_, b);
  absl::Status status;
  if (inst.opcode() == Opcode::kReduce && out.size() > 1) {
    EmitArrayLoop(
        b, out[0].shape(), inst.name(),
        [&](const Index& index) {
          if (!status.ok()) return;
          absl::StatusOr<std::vector<Value*>> values =
              emitter.EmitReduce(inst, ops, index);
          if (!values.ok()) {
            status = values.status();
            return;
          }
          for (size_t k = 0; k < out.size(); ++k) {
            out[k].Write(b, index, (*values)[k]);
          }
        },
        begin, end);
    return status;
  }
  ASSIGN_OR_RETURN(LeafGenerators leaves, emitter.MakeGenerators(inst, ops));
  for (size_t k = 0; k < out.size() && status.ok(); ++k) {
    const IrArray& array = out[k];
    const Generator& g = leaves[k];
    EmitArrayLoop(
        b, array.shape(), inst.name(),
        [&](const Index& index) {
          if (!status.ok()) return;
          absl::StatusOr<Value*> v = g(index);
          if (!v.ok()) {
            status = v.status();
            return;
          }
          array.Write(b, index, *v);
        },
        begin, end);
  }
  return status;
}

absl::Status ComputationEmitter::EmitParallel(const Instruction& inst,
                                              const std::vector<IrArray>& out,
                                              int64_t extent,
                                              int64_t min_chunk) {
  llvm::LLVMContext& ctx = mc_.context();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  auto* task = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, i64, i64},
                              false),
      llvm::GlobalValue::InternalLinkage,
      absl::StrCat(function_->getName().str(), ".task.", inst.name()),
      mc_.module());
  task->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> tb(llvm::BasicBlock::Create(ctx, "entry", task));
  llvm::StructType* context_type = llvm::StructType::get(ctx, {ptr, ptr, ptr});
  Value* context = task->getArg(0);
  Value* params = tb.CreateLoad(ptr, tb.CreateStructGEP(context_type, context, 0));
  Value* results =
      tb.CreateLoad(ptr, tb.CreateStructGEP(context_type, context, 1));
  Value* temp = tb.CreateLoad(ptr, tb.CreateStructGEP(context_type, context, 2));
  std::vector<IrArray> task_out;
  for (const IrArray& a : out) {
    task_out.emplace_back(Rebase(tb, a.base(), params, results, temp),
                          &a.shape());
  }
  std::vector<LeafGenerators> ops;
  for (const Instruction* o : inst.operands()) {
    LeafGenerators g;
    for (const IrArray& a : values_.at(o)) {
      g.push_back(ArrayReader(
          tb, IrArray(Rebase(tb, a.base(), params, results, temp), &a.shape())));
    }
    ops.push_back(std::move(g));
  }
  RETURN_IF_ERROR(
      EmitLoops(tb, inst, task_out, ops, task->getArg(1), task->getArg(2)));
  tb.CreateRetVoid();

  llvm::IRBuilderBase& b = *b_;
  llvm::AllocaInst* parent_context = EntryAlloca(b, context_type, "task.ctx");
  b.CreateStore(params_, b.CreateStructGEP(context_type, parent_context, 0));
  b.CreateStore(results_, b.CreateStructGEP(context_type, parent_context, 1));
  b.CreateStore(temp_, b.CreateStructGEP(context_type, parent_context, 2));
  llvm::FunctionCallee parallel_for = mc_.module().getOrInsertFunction(
      "aotc_parallel_for",
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, ptr, i64, i64},
                              false));
  b.CreateCall(parallel_for, {task, parent_context, b.getInt64(extent),
                              b.getInt64(min_chunk)});
  return absl::OkStatus();
}

absl::Status ComputationEmitter::EmitGenerated(const Instruction& inst) {
  const Plan& plan = plans_.at(&inst);
  std::vector<IrArray> out = OwnLeaves(inst, plan.offsets, plan.result_index);
  // A parallel loop needs every output leaf to share the outermost
  // dimension's extent and layout.
  const Shape& first = out[0].shape();
  bool parallel = first.rank() > 0 &&
                  first.ElementCount() >= kParallelMinElements;
  for (const IrArray& a : out) {
    parallel = parallel && a.shape().SameDimensions(first) &&
               a.shape().layout().minor_to_major ==
                   first.layout().minor_to_major;
  }
  if (parallel) {
    const int64_t extent =
        first.dimensions(first.layout().minor_to_major.back());
    const int64_t inner = first.ElementCount() / extent;
    if (extent >= 2) {
      RETURN_IF_ERROR(EmitParallel(
          inst, out, extent,
          std::max<int64_t>(1, (kMinChunkElements + inner - 1) / inner)));
      values_[&inst] = std::move(out);
      return absl::OkStatus();
    }
  }
  std::vector<LeafGenerators> ops;
  for (const Instruction* o : inst.operands()) {
    LeafGenerators g;
    for (const IrArray& a : values_.at(o)) g.push_back(ArrayReader(*b_, a));
    ops.push_back(std::move(g));
  }
  RETURN_IF_ERROR(EmitLoops(*b_, inst, out, ops, nullptr, nullptr));
  values_[&inst] = std::move(out);
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
  RETURN_IF_ERROR(CallBufferFunction(*inst.while_condition(), state, {pred}));
  b.CreateCondBr(pred.Read(b, ScalarIndex(kPredScalar)), body, exit);
  b.SetInsertPoint(body);
  RETURN_IF_ERROR(CallBufferFunction(*inst.while_body(), state, next));
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
    RETURN_IF_ERROR(CallBufferFunction(*inst.called_computations()[k],
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
  RETURN_IF_ERROR(CallBufferFunction(*inst.to_apply(), params, out));
  values_[&inst] = std::move(out);
  return absl::OkStatus();
}

absl::Status ComputationEmitter::EmitInstruction(const Instruction& inst) {
  const Plan& plan = plans_.at(&inst);
  switch (plan.kind) {
    case Kind::kParameter: {
      int first = 0;
      for (const Instruction* p : comp_.parameters()) {
        if (p == &inst) break;
        first += static_cast<int>(p->shape().Leaves().size());
      }
      std::vector<IrArray> leaves;
      for (const Shape* leaf : inst.shape().Leaves()) {
        leaves.emplace_back(param_leaves_.at(first++), leaf);
      }
      values_[&inst] = std::move(leaves);
      return absl::OkStatus();
    }
    case Kind::kConstant: {
      if (inst.literal().elided()) {
        return ErrorAt(inst.location(),
                       "the constant's value was elided from the HLO text "
                       "({...})");
      }
      const std::vector<const Literal*> literals = inst.literal().Leaves();
      const std::vector<const Shape*> shapes = inst.shape().Leaves();
      std::vector<IrArray> leaves;
      for (size_t k = 0; k < literals.size(); ++k) {
        leaves.emplace_back(mc_.ConstantGlobal(*literals[k]), shapes[k]);
      }
      values_[&inst] = std::move(leaves);
      return absl::OkStatus();
    }
    case Kind::kAlias: {
      std::vector<IrArray> leaves;
      if (inst.opcode() == Opcode::kTuple) {
        for (const Instruction* o : inst.operands()) {
          const std::vector<IrArray>& l = values_.at(o);
          leaves.insert(leaves.end(), l.begin(), l.end());
        }
      } else if (inst.opcode() == Opcode::kGetTupleElement) {
        leaves = TupleElementLeaves(inst, values_.at(inst.operand(0)));
      } else if (inst.opcode() == Opcode::kOptimizationBarrier ||
                 inst.opcode() == Opcode::kCopy) {
        leaves = values_.at(inst.operand(0));
      } else {
        leaves = {IrArray(values_.at(inst.operand(0))[0].base(), &inst.shape())};
      }
      values_[&inst] = std::move(leaves);
      return absl::OkStatus();
    }
    case Kind::kWhile:
      return EmitWhile(inst);
    case Kind::kConditional:
      return EmitConditional(inst);
    case Kind::kCall:
      return EmitCall(inst);
    case Kind::kGenerated:
      return EmitGenerated(inst);
  }
  return absl::OkStatus();
}

absl::StatusOr<BufferFunction> ComputationEmitter::Emit() {
  RETURN_IF_ERROR(PlanAll());
  llvm::LLVMContext& ctx = mc_.context();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                                       {ptr, ptr, ptr}, false);
  function_ = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage,
                                     mc_.FunctionName(comp_, "comp"),
                                     mc_.module());
  function_->addFnAttr(llvm::Attribute::NoUnwind);
  for (llvm::Argument& a : function_->args()) a.addAttr(llvm::Attribute::NoAlias);
  b_ = std::make_unique<llvm::IRBuilder<>>(
      llvm::BasicBlock::Create(ctx, "entry", function_));
  params_ = function_->getArg(0);
  results_ = function_->getArg(1);
  temp_ = function_->getArg(2);
  int param_leaves = 0;
  for (const Instruction* p : comp_.parameters()) {
    param_leaves += static_cast<int>(p->shape().Leaves().size());
  }
  for (int k = 0; k < param_leaves; ++k) {
    param_leaves_.push_back(b_->CreateLoad(
        ptr, b_->CreateConstInBoundsGEP1_64(ptr, params_, k)));
    recipes_[param_leaves_.back()] = {Recipe::kParam, k};
  }
  const int results = static_cast<int>(comp_.root()->shape().Leaves().size());
  for (int k = 0; k < results; ++k) {
    result_ptrs_.push_back(b_->CreateLoad(
        ptr, b_->CreateConstInBoundsGEP1_64(ptr, results_, k)));
    recipes_[result_ptrs_.back()] = {Recipe::kResult, k};
  }
  for (const Instruction* inst : live_) RETURN_IF_ERROR(EmitInstruction(*inst));
  // Root leaves not written in place are copied into the result buffers.
  const std::vector<IrArray>& root = values_.at(comp_.root());
  for (int r = 0; r < results; ++r) {
    auto [producer, leaf] = TraceLeaf(comp_.root(), r);
    const Plan& plan = plans_.at(producer);
    if (static_cast<int>(plan.result_index.size()) > leaf &&
        plan.result_index[leaf] == r) {
      continue;
    }
    Copy(IrArray(result_ptrs_[r], &root[r].shape()), root[r]);
  }
  b_->CreateRetVoid();
  return BufferFunction{function_, AlignUp(own_bytes_) + callee_bytes_};
}

}  // namespace

absl::StatusOr<BufferFunction> ModuleContext::GetBufferFunction(
    const Computation& comp) {
  auto it = buffer_functions_.find(&comp);
  if (it != buffer_functions_.end()) return it->second;
  ComputationEmitter emitter(*this, comp);
  ASSIGN_OR_RETURN(BufferFunction f, emitter.Emit());
  buffer_functions_[&comp] = f;
  return f;
}

}  // namespace aotc::codegen
