// Buffer-level lowering of a computation (see computation_emitter.h): the
// buffer plan, one place per instruction, and instructions with buffers of
// their own computed by their codegen strategy.
#include "codegen/emit/computation_emitter.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/elemental/elemental_emitter.h"
#include "codegen/emit/ir_array.h"
#include "codegen/emit/ir_types.h"
#include "codegen/emit/parallel_loops.h"
#include "compiler/ir/module.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// Computations with more instructions of their own than this emit each one's
// loops as a function of its own: LLVM's passes take time that grows faster
// than linearly with a function's size, and a 19k-instruction model in one
// function took most of a minute to optimize. Smaller computations keep
// their loops inline, where LLVM sees across them.
constexpr int kOutlineAbove = 64;

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

}  // namespace

absl::StatusOr<int64_t> ComputationEmitter::PlanInstructionScratch(
    const Instruction& inst) {
  RETURN_IF_ERROR(CheckClassifiable(inst));
  Plan p;
  p.kind = ClassifyValue(inst);
  int64_t scratch = 0;
  if (p.kind == ValueKind::kOwned) {
    ++owned_count_;
    ASSIGN_OR_RETURN(p.strategy, PlanInstruction(inst, mc_.target()));
    scratch = p.strategy->scratch_bytes;
  }
  // Callees run one at a time: they share one scratch.
  for (const Computation* callee : BufferFunctionCallees(inst)) {
    ASSIGN_OR_RETURN(BufferFunction f, mc_.GetBufferFunction(*callee));
    scratch = std::max(scratch, f.temp_bytes);
  }
  plans_[&inst] = std::move(p);
  return scratch;
}

absl::Status ComputationEmitter::PlanAll() {
  // Strategies and callees are planned as the buffer plan asks for their
  // scratch, in schedule order; the first error stops the planning.
  absl::Status status;
  const BufferPlan plan =
      AssignBuffers(comp_, [&](const Instruction& inst) -> int64_t {
        if (!status.ok()) return 0;
        absl::StatusOr<int64_t> bytes = PlanInstructionScratch(inst);
        if (!bytes.ok()) {
          status = bytes.status();
          return 0;
        }
        return *bytes;
      });
  RETURN_IF_ERROR(status);
  if (!plan.unsupported.empty()) {
    return ErrorAt(comp_.root()->location(), plan.unsupported);
  }
  donated_ = plan.donated;
  live_ = plan.schedule;
  temp_bytes_ = plan.arena_bytes;
  for (const Instruction* inst : live_) {
    Plan& p = plans_.at(inst);
    auto own = plan.leaf_buffers.find(inst);
    if (own != plan.leaf_buffers.end()) {
      for (int b : own->second) {
        p.offsets.push_back(b < 0 ? -1 : plan.buffers[b].offset);
      }
      p.result_index = plan.result_index.at(inst);
    }
    if (p.kind == ValueKind::kWhile) {
      for (int b : plan.while_next.at(inst)) {
        p.next_offsets.push_back(plan.buffers[b].offset);
      }
      p.pred_offset = plan.buffers[plan.while_predicate.at(inst)].offset;
    }
    auto scratch = plan.scratch_buffer.find(inst);
    if (scratch != plan.scratch_buffer.end()) {
      p.scratch_offset = plan.buffers[scratch->second].offset;
    }
  }
  return absl::OkStatus();
}

Value* ComputationEmitter::TempAt(int64_t offset) {
  Value* p =
      b_->CreateInBoundsGEP(b_->getInt8Ty(), temp_, b_->getInt64(offset));
  places_.RecordTemp(p, offset);
  return p;
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

absl::Status ComputationEmitter::EmitOwned(const Instruction& inst) {
  const Plan& plan = plans_.at(&inst);
  const StrategyPlan& strategy = *plan.strategy;
  std::vector<IrArray> out = OwnLeaves(inst, plan.offsets, plan.result_index);
  std::vector<std::vector<IrArray>> ins;
  for (const Instruction* o : inst.operands()) ins.push_back(values_.at(o));
  places_.SetAliasScopes(mc_.context(), inst.name(), out, ins);
  Value* scratch =
      strategy.scratch_bytes > 0 ? TempAt(plan.scratch_offset) : nullptr;
  ProfileCounters* profile = mc_.profile();
  const int region =
      profile != nullptr ? profile->AddRegion(inst, strategy.name) : 0;
  Value* start = profile != nullptr ? profile->Now(*b_) : nullptr;
  auto readers = [&] {
    std::vector<LeafGenerators> ops;
    for (const std::vector<IrArray>& leaves : ins) {
      LeafGenerators g;
      for (const IrArray& a : leaves) g.push_back(ArrayReader(*b_, a));
      ops.push_back(std::move(g));
    }
    return ops;
  };
  if (strategy.prologue) {
    RETURN_IF_ERROR(strategy.prologue(LoopArgs{
        mc_, *b_, inst, out, readers(), nullptr, nullptr, scratch, &ins, {}}));
  }
  if (strategy.may_fail) {
    const std::vector<LeafGenerators> ops = readers();
    LoopArgs args{mc_, *b_, inst, out, ops, nullptr, nullptr, scratch, &ins,
                  {}};
    args.fail_if = [this](Value* failed, int status) {
      ReturnIf(failed, b_->getInt32(status));
    };
    RETURN_IF_ERROR(strategy.emit(args));
  } else if (std::optional<ParallelSplit> split = ChooseParallelSplit(strategy);
             split.has_value()) {
    RETURN_IF_ERROR(EmitParallelLoops(
        mc_, *b_, places_, {params_, results_, temp_},
        absl::StrCat(function_->getName().str(), ".task.", inst.name()), inst,
        strategy, out, ins, scratch, *split));
  } else if (owned_count_ > kOutlineAbove) {
    RETURN_IF_ERROR(EmitOutlinedLoops(
        mc_, *b_, places_, {params_, results_, temp_},
        absl::StrCat(function_->getName().str(), ".loops.", inst.name()), inst,
        strategy, out, ins, scratch));
  } else {
    RETURN_IF_ERROR(strategy.emit(LoopArgs{
        mc_, *b_, inst, out, readers(), nullptr, nullptr, scratch, &ins, {}}));
  }
  if (profile != nullptr) profile->Add(*b_, region, start);
  // Later users read these arrays with their own scopes.
  for (IrArray& a : out) a.SetAliasScopes(nullptr, nullptr);
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
      return EmitOwned(inst);
  }
  return absl::OkStatus();
}

absl::StatusOr<BufferFunction> ComputationEmitter::Emit() {
  RETURN_IF_ERROR(PlanAll());
  llvm::LLVMContext& ctx = mc_.context();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  auto* type = llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx),
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
    places_.RecordParam(param_leaves_.back(), k);
  }
  const int results = static_cast<int>(comp_.root()->shape().Leaves().size());
  for (int k = 0; k < results; ++k) {
    result_ptrs_.push_back(b_->CreateLoad(
        ptr, b_->CreateConstInBoundsGEP1_64(ptr, results_, k)));
    places_.RecordResult(result_ptrs_.back(), k, donated_[k]);
  }
  for (const Instruction* inst : live_) RETURN_IF_ERROR(EmitInstruction(*inst));
  // Root leaves not written in place are copied into the result buffers;
  // into donated arguments last, once nothing reads them any more. A
  // donated result that is its own argument needs no copy.
  const std::vector<IrArray>& root = values_.at(comp_.root());
  for (bool into_arguments : {false, true}) {
    for (int r = 0; r < results; ++r) {
      if ((donated_[r] >= 0) != into_arguments) continue;
      auto [producer, leaf] = TraceLeaf(comp_.root(), r);
      const Plan& plan = plans_.at(producer);
      if (static_cast<int>(plan.result_index.size()) > leaf &&
          plan.result_index[leaf] == r) {
        continue;
      }
      if (donated_[r] >= 0 && root[r].base() == param_leaves_[donated_[r]]) {
        continue;
      }
      Copy(IrArray(result_ptrs_[r], &root[r].shape()), root[r]);
    }
  }
  b_->CreateRet(b_->getInt32(0));
  return BufferFunction{function_, temp_bytes_,
                        may_fail_};
}

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
