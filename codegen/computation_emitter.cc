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
// Where each buffer lives comes from buffer assignment
// (compiler/passes/buffer_assignment.h): buffers with disjoint live ranges
// share bytes, and some results overwrite a dying operand in place. The
// region after the arena is shared by the called computations, which never
// run at the same time.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/dot_emitter.h"
#include "codegen/elemental.h"
#include "codegen/ir_array.h"
#include "codegen/ir_types.h"
#include "codegen/module_context.h"
#include "codegen/reduce_loop_emitter.h"
#include "compiler/ir/module.h"
#include "compiler/passes/buffer_assignment.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"
#include "llvm/IR/MDBuilder.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// Loops with at least this much work (output elements times the input
// elements each reads) run through aotc_parallel_for, in chunks of at
// least kMinChunkWork.
constexpr int64_t kParallelMinWork = int64_t{1} << 15;
constexpr int64_t kMinChunkWork = int64_t{1} << 13;

// The input elements one output element of `inst` reads, roughly: the
// largest array input's elements over the output's elements, at least 1
// (1 for element-wise loops, the row length for a row reduction).
int64_t WorkPerElement(const Instruction& inst) {
  int64_t inputs = 0;
  for (const Instruction* o : inst.operands()) {
    for (const Shape* leaf : o->shape().Leaves()) {
      if (leaf->IsArray()) inputs = std::max(inputs, leaf->ElementCount());
    }
  }
  int64_t outputs = 0;
  for (const Shape* leaf : inst.shape().Leaves()) outputs += leaf->ElementCount();
  return std::max<int64_t>(1, inputs / std::max<int64_t>(1, outputs));
}

int64_t AlignUp(int64_t n) {
  return (n + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
}

// The located error for a width-changing bitcast-convert between
// non-row-major layouts (the only value classification code generation
// refuses).
absl::Status CheckClassifiable(const Instruction& inst) {
  if (inst.opcode() != Opcode::kBitcastConvert ||
      ClassifyValue(inst) == ValueKind::kAlias) {
    return absl::OkStatus();
  }
  if (BitWidth(inst.shape().element_type()) ==
      BitWidth(inst.operand(0)->shape().element_type())) {
    return absl::OkStatus();
  }
  return ErrorAt(inst.location(),
                 "a width-changing bitcast-convert needs row-major layouts "
                 "(others are not supported yet)");
}

class ComputationEmitter {
 public:
  ComputationEmitter(ModuleContext& mc, const Computation& comp)
      : mc_(mc), comp_(comp) {}

  absl::StatusOr<BufferFunction> Emit();

 private:
  struct Plan {
    ValueKind kind;
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
  // Emits `inst` as a task function run through aotc_parallel_for, reading
  // the operands' leaves `ins`.
  absl::Status EmitParallel(const Instruction& inst,
                            const std::vector<IrArray>& out,
                            const std::vector<std::vector<IrArray>>& ins,
                            int64_t extent, int64_t min_chunk);
  // Where an array's bytes lie: a byte range in a space (temp, a parameter,
  // a result), or nullopt when unknown (constants, which are only read).
  struct Extent {
    int space;
    int64_t begin;
    int64_t end;
    bool Overlaps(const Extent& o) const {
      return space == o.space && begin < o.end && o.begin < end;
    }
  };
  std::optional<Extent> ExtentOf(const IrArray& a) const;
  // Gives the arrays a loop nest writes (`out`) and reads (`ins`) alias
  // scopes, so that LLVM knows a store to one output cannot change what an
  // input it does not overlap holds (and can keep invariant loads out of the
  // loop, and vectorize).
  void SetAliasScopes(const Instruction& inst, std::vector<IrArray>& out,
                      std::vector<std::vector<IrArray>>& ins);
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
  const BufferPlan plan = AssignBuffers(comp_);
  live_ = plan.schedule;
  own_bytes_ = plan.arena_bytes;
  for (const Instruction* inst : live_) {
    RETURN_IF_ERROR(CheckClassifiable(*inst));
    Plan p;
    p.kind = ClassifyValue(*inst);
    auto own = plan.leaf_buffers.find(inst);
    if (own != plan.leaf_buffers.end()) {
      for (int b : own->second) {
        p.offsets.push_back(b < 0 ? -1 : plan.buffers[b].offset);
      }
      p.result_index = plan.result_index.at(inst);
    }
    std::vector<const Computation*> callees;
    if (p.kind == ValueKind::kWhile) {
      for (int b : plan.while_next.at(inst)) {
        p.next_offsets.push_back(plan.buffers[b].offset);
      }
      p.pred_offset = plan.buffers[plan.while_predicate.at(inst)].offset;
      callees = {inst->while_condition(), inst->while_body()};
    } else if (p.kind == ValueKind::kConditional ||
               p.kind == ValueKind::kCall) {
      callees.assign(inst->called_computations().begin(),
                     inst->called_computations().end());
    }
    for (const Computation* callee : callees) {
      ASSIGN_OR_RETURN(BufferFunction f, mc_.GetBufferFunction(*callee));
      callee_bytes_ = std::max(callee_bytes_, f.temp_bytes);
    }
    plans_[inst] = std::move(p);
  }
  return absl::OkStatus();
}

Value* ComputationEmitter::TempAt(int64_t offset) {
  Value* p =
      b_->CreateInBoundsGEP(b_->getInt8Ty(), temp_, b_->getInt64(offset));
  recipes_[p] = {Recipe::kTemp, offset};
  return p;
}

std::optional<ComputationEmitter::Extent> ComputationEmitter::ExtentOf(
    const IrArray& a) const {
  auto it = recipes_.find(a.base());
  if (it == recipes_.end()) return std::nullopt;
  const Recipe& r = it->second;
  const int64_t bytes = a.shape().ByteSize();
  if (r.kind == Recipe::kTemp) return Extent{0, r.value, r.value + bytes};
  // The entry's callers promise that results overlap neither each other
  // nor any argument (docs/header.md). Inside a called computation, whose
  // parameters and results are its caller's buffers, all of them may.
  if (comp_.parent() == nullptr || comp_.parent()->entry() != &comp_) {
    return Extent{1, 0, std::numeric_limits<int64_t>::max()};
  }
  const int64_t space = 2 + 2 * r.value + (r.kind == Recipe::kResult ? 1 : 0);
  return Extent{static_cast<int>(space), 0, bytes};
}

void ComputationEmitter::SetAliasScopes(
    const Instruction& inst, std::vector<IrArray>& out,
    std::vector<std::vector<IrArray>>& ins) {
  // One scope per distinct extent; arrays over the same bytes share it.
  std::vector<Extent> extents;
  auto scope_index = [&](const IrArray& a) -> int {
    std::optional<Extent> e = ExtentOf(a);
    if (!e.has_value()) return -1;
    for (size_t i = 0; i < extents.size(); ++i) {
      const Extent& x = extents[i];
      if (x.space == e->space && x.begin == e->begin && x.end == e->end) {
        return static_cast<int>(i);
      }
    }
    extents.push_back(*e);
    return static_cast<int>(extents.size() - 1);
  };
  std::vector<int> out_scope, in_scope;
  for (const IrArray& a : out) out_scope.push_back(scope_index(a));
  for (const auto& leaves : ins) {
    for (const IrArray& a : leaves) in_scope.push_back(scope_index(a));
  }
  if (extents.empty()) return;
  llvm::LLVMContext& ctx = mc_.context();
  llvm::MDBuilder mdb(ctx);
  llvm::MDNode* domain = mdb.createAnonymousAliasScopeDomain(inst.name());
  std::vector<llvm::MDNode*> scopes;
  for (size_t i = 0; i < extents.size(); ++i) {
    scopes.push_back(mdb.createAnonymousAliasScope(domain));
  }
  // The scopes of `against` whose extents do not overlap extent `i`.
  auto disjoint = [&](int i, const std::vector<int>& against) -> llvm::MDNode* {
    std::vector<llvm::Metadata*> list;
    std::set<int> added;
    for (int j : against) {
      if (j < 0 || extents[j].Overlaps(extents[i]) || !added.insert(j).second) {
        continue;
      }
      list.push_back(scopes[j]);
    }
    return list.empty() ? nullptr : llvm::MDNode::get(ctx, list);
  };
  std::vector<int> all = out_scope;
  all.insert(all.end(), in_scope.begin(), in_scope.end());
  for (size_t k = 0; k < out.size(); ++k) {
    const int i = out_scope[k];
    if (i < 0) continue;
    out[k].SetAliasScopes(llvm::MDNode::get(ctx, {scopes[i]}),
                          disjoint(i, all));
  }
  size_t n = 0;
  for (auto& leaves : ins) {
    for (IrArray& a : leaves) {
      const int i = in_scope[n++];
      if (i < 0) continue;
      a.SetAliasScopes(llvm::MDNode::get(ctx, {scopes[i]}),
                       disjoint(i, out_scope));
    }
  }
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
  if (std::optional<RowDot> rd = MatchRowDot(inst, out); rd.has_value()) {
    return EmitRowDot(mc_, b, inst, *rd, out[0], ops, begin, end);
  }
  if (std::optional<ReduceLoop> loop = MatchReduceLoop(inst, out);
      loop.has_value()) {
    return EmitReduceLoop(mc_, b, inst, *loop, out, ops, begin, end);
  }
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

absl::Status ComputationEmitter::EmitParallel(
    const Instruction& inst, const std::vector<IrArray>& out,
    const std::vector<std::vector<IrArray>>& ins, int64_t extent,
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
  // The same arrays (and alias scopes) over the task's pointers.
  auto rebased = [&](const IrArray& a) {
    IrArray r = a;
    r.set_base(Rebase(tb, a.base(), params, results, temp));
    return r;
  };
  std::vector<IrArray> task_out;
  for (const IrArray& a : out) task_out.push_back(rebased(a));
  std::vector<LeafGenerators> ops;
  for (const std::vector<IrArray>& leaves : ins) {
    LeafGenerators g;
    for (const IrArray& a : leaves) g.push_back(ArrayReader(tb, rebased(a)));
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
  std::vector<std::vector<IrArray>> ins;
  for (const Instruction* o : inst.operands()) ins.push_back(values_.at(o));
  SetAliasScopes(inst, out, ins);
  // A parallel loop needs every output leaf to share the outermost
  // dimension's extent and layout, and enough work: output elements times
  // the input elements each one reads (a row reduction reads a whole row).
  // A reduce loop with element-shaped outputs splits its loop over the
  // reduce-shaped ones.
  const std::optional<ReduceLoop> loop = MatchReduceLoop(inst, out);
  const Shape& first = loop.has_value() ? *loop->loop_shape : out[0].shape();
  const int64_t work_per_element =
      loop.has_value() ? loop->work_per_element : WorkPerElement(inst);
  bool parallel = first.rank() > 0 &&
                  first.ElementCount() * work_per_element >= kParallelMinWork;
  if (!loop.has_value()) {
    for (const IrArray& a : out) {
      parallel = parallel && a.shape().SameDimensions(first) &&
                 a.shape().layout().minor_to_major ==
                     first.layout().minor_to_major;
    }
  }
  if (parallel) {
    const int64_t extent =
        first.dimensions(first.layout().minor_to_major.back());
    const int64_t row_work = first.ElementCount() / extent * work_per_element;
    if (extent >= 2) {
      RETURN_IF_ERROR(EmitParallel(
          inst, out, ins, extent,
          std::max<int64_t>(1, (kMinChunkWork + row_work - 1) / row_work)));
      // Later users read these arrays with their own scopes.
      for (IrArray& a : out) a.SetAliasScopes(nullptr, nullptr);
      values_[&inst] = std::move(out);
      return absl::OkStatus();
    }
  }
  std::vector<LeafGenerators> ops;
  for (const std::vector<IrArray>& leaves : ins) {
    LeafGenerators g;
    for (const IrArray& a : leaves) g.push_back(ArrayReader(*b_, a));
    ops.push_back(std::move(g));
  }
  RETURN_IF_ERROR(EmitLoops(*b_, inst, out, ops, nullptr, nullptr));
  // Later users read these arrays with their own scopes.
  for (IrArray& a : out) a.SetAliasScopes(nullptr, nullptr);
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
    case ValueKind::kParameter: {
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
    case ValueKind::kConstant: {
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
    case ValueKind::kAlias: {
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
    case ValueKind::kWhile:
      return EmitWhile(inst);
    case ValueKind::kConditional:
      return EmitConditional(inst);
    case ValueKind::kCall:
      return EmitCall(inst);
    case ValueKind::kOwned:
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
