// Element generators that loop: reduce, reduce-window and dot, plus map.
//
// Each output element runs its own inner loop in exactly the order the
// reference evaluator documents (docs/evaluator.md): reduced positions in
// row-major order from the init value; window positions in row-major order,
// skipping padding and dilation holes; dot's contracting positions in
// row-major order of the listed contracting dimensions, accumulating f16 and
// bf16 in float and rounding once.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "absl/strings/str_cat.h"
#include "codegen/elemental/elemental_emitter.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/scalar_ops.h"
#include "codegen/emit/ir_types.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "llvm/IR/Intrinsics.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// The element type of the reducer's parameter k (a scalar).
PrimitiveType ParamType(const Computation& comp, int k) {
  return comp.parameter(k)->shape().element_type();
}

// The binary opcode of a reducer that is add, multiply, maximum or minimum
// of its two f32 or f64 parameters (in either order), or nullopt.
std::optional<Opcode> ReassociableReducer(const Computation& reducer) {
  const Instruction* root = reducer.root();
  const Opcode op = root->opcode();
  if (reducer.num_parameters() != 2 || reducer.instruction_count() != 3 ||
      (op != Opcode::kAdd && op != Opcode::kMultiply &&
       op != Opcode::kMaximum && op != Opcode::kMinimum)) {
    return std::nullopt;
  }
  const PrimitiveType t = root->shape().element_type();
  if (t != PrimitiveType::kF32 && t != PrimitiveType::kF64) return std::nullopt;
  const Instruction* a = root->operand(0);
  const Instruction* b = root->operand(1);
  if (a->opcode() != Opcode::kParameter || b->opcode() != Opcode::kParameter ||
      a == b) {
    return std::nullopt;
  }
  for (const Instruction* p : reducer.parameters()) {
    if (p->shape().element_type() != t) return std::nullopt;
  }
  return root->opcode();
}

}  // namespace

absl::StatusOr<std::vector<llvm::AllocaInst*>>
ElementalEmitter::InitAccumulators(const Instruction& inst,
                                   const std::vector<LeafGenerators>& ops) {
  const int n = inst.operand_count() / 2;
  const Computation& reducer = *inst.to_apply();
  std::vector<llvm::AllocaInst*> acc(n);
  for (int k = 0; k < n; ++k) {
    const PrimitiveType t = ParamType(reducer, k);
    const Shape& init_shape = inst.operand(n + k)->shape();
    acc[k] = EntryAlloca(b_, ComputeType(b_.getContext(), t), "acc");
    ASSIGN_OR_RETURN(Value * init, GenerateAs(b_, ops[n + k][0],
                                              ScalarIndex(init_shape),
                                              init_shape.element_type(), t));
    b_.CreateStore(init, acc[k]);
  }
  return acc;
}

absl::Status ElementalEmitter::Accumulate(
    const Instruction& inst, const std::vector<LeafGenerators>& ops,
    const std::vector<llvm::AllocaInst*>& acc, const Index& index) {
  const int n = static_cast<int>(acc.size());
  const Computation& reducer = *inst.to_apply();
  std::vector<Value*> args;
  for (llvm::AllocaInst* a : acc) {
    args.push_back(b_.CreateLoad(a->getAllocatedType(), a));
  }
  for (int k = 0; k < n; ++k) {
    ASSIGN_OR_RETURN(
        Value * v, GenerateAs(b_, ops[k][0], index,
                              inst.operand(k)->shape().element_type(),
                              ParamType(reducer, n + k)));
    args.push_back(v);
  }
  // A float add or multiply reduction may be reassociated (unless
  // --strict-fp): the flag lets LLVM's loop vectorizer keep several vector
  // accumulators and combine them at the end. Maximum and minimum are
  // associative already; as llvm.maximum / llvm.minimum (NaN wins, -0 < +0,
  // as HLO's) the vectorizer recognizes them too, where the select chain
  // of the element-wise form would stay a scalar dependency chain. Only
  // which NaN payload wins may differ from the sequential order. Without
  // hardware floats LLVM 19 cannot soften llvm.maximum, so those targets
  // keep the element-wise form.
  std::optional<Opcode> op = ReassociableReducer(reducer);
  if (op.has_value() && (*op == Opcode::kMaximum || *op == Opcode::kMinimum) &&
      !mc_.target().HasHardwareFloat(args[0]->getType()->getScalarSizeInBits())) {
    op.reset();
  }
  if (op.has_value() && !mc_.strict_fp()) {
    Value* r = nullptr;
    switch (*op) {
      case Opcode::kMaximum:
        r = b_.CreateBinaryIntrinsic(llvm::Intrinsic::maximum, args[0],
                                     args[1]);
        break;
      case Opcode::kMinimum:
        r = b_.CreateBinaryIntrinsic(llvm::Intrinsic::minimum, args[0],
                                     args[1]);
        break;
      default: {
        r = *op == Opcode::kAdd ? b_.CreateFAdd(args[0], args[1])
                                : b_.CreateFMul(args[0], args[1]);
        llvm::FastMathFlags flags;
        flags.setAllowReassoc();
        llvm::cast<llvm::Instruction>(r)->setFastMathFlags(flags);
      }
    }
    b_.CreateStore(r, acc[0]);
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(std::vector<Value*> r, CallScalar(reducer, args));
  for (int k = 0; k < n; ++k) b_.CreateStore(r[k], acc[k]);
  return absl::OkStatus();
}

Value* ElementalEmitter::AccumulatorResult(
    const Instruction& inst, const std::vector<llvm::AllocaInst*>& acc,
    int k) {
  Value* v = b_.CreateLoad(acc[k]->getAllocatedType(), acc[k]);
  return EmitConvert(b_, v, ParamType(*inst.to_apply(), k),
                     inst.shape().Leaves()[k]->element_type());
}

absl::StatusOr<std::vector<Value*>> ElementalEmitter::EmitReduce(
    const Instruction& inst, const std::vector<LeafGenerators>& ops,
    const Index& index) {
  return EmitReduceGroup({&inst}, {ops}, index);
}

absl::StatusOr<std::vector<Value*>> ElementalEmitter::EmitReduceGroup(
    const std::vector<const Instruction*>& reduces,
    const std::vector<std::vector<LeafGenerators>>& ops, const Index& index,
    const std::function<absl::Status(const Index&)>& at_element) {
  llvm::IRBuilderBase& b = b_;
  // The loop structure is the first reduce's; the others share it.
  const Instruction& first = *reduces[0];
  const Shape& in = first.operand(0)->shape();
  const std::vector<int64_t>& reduced = first.dimensions();
  std::vector<bool> is_reduced(in.rank(), false);
  for (int64_t d : reduced) is_reduced[d] = true;
  std::vector<int64_t> sorted(reduced.begin(), reduced.end());
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> extents;
  for (int64_t d : sorted) extents.push_back(in.dimensions(d));

  std::vector<std::vector<llvm::AllocaInst*>> acc;
  for (size_t r = 0; r < reduces.size(); ++r) {
    ASSIGN_OR_RETURN(std::vector<llvm::AllocaInst*> a,
                     InitAccumulators(*reduces[r], ops[r]));
    acc.push_back(std::move(a));
  }
  RETURN_IF_ERROR(EmitBoxLoop(
      b, extents, "reduce",
      [&](const std::vector<Value*>& counters) -> absl::Status {
    // One index for every reduce of the group, so that shared operand
    // generators (memoized per index) load each element once.
    Index i;
    i.shape = &in;
    size_t kept = 0, red = 0;
    for (int d = 0; d < in.rank(); ++d) {
      if (is_reduced[d]) {
        // counters follow `sorted`, i.e. increasing dimension order.
        i.multi.push_back(counters[red++]);
      } else {
        i.multi.push_back(index.multi[kept++]);
      }
    }
    if (sorted.empty()) i = index;
    if (at_element) RETURN_IF_ERROR(at_element(i));
    for (size_t r = 0; r < reduces.size(); ++r) {
      RETURN_IF_ERROR(Accumulate(*reduces[r], ops[r], acc[r], i));
    }
    return absl::OkStatus();
  }));
  std::vector<Value*> results;
  for (size_t r = 0; r < reduces.size(); ++r) {
    for (int k = 0; k < static_cast<int>(acc[r].size()); ++k) {
      results.push_back(AccumulatorResult(*reduces[r], acc[r], k));
    }
  }
  return results;
}

absl::StatusOr<Generator> ElementalEmitter::ReduceWindow(
    const Instruction& inst, const std::vector<LeafGenerators>& ops,
    int leaf) {
  llvm::IRBuilderBase& b = b_;
  ElementalEmitter* self = this;
  const Instruction* pinst = &inst;
  return Generator([&b, self, pinst, ops, leaf](const Index& o)
                       -> absl::StatusOr<Value*> {
    const Instruction& inst = *pinst;
    const Shape& in = inst.operand(0)->shape();
    const std::vector<WindowDim>& window = inst.window();
    ASSIGN_OR_RETURN(std::vector<llvm::AllocaInst*> acc,
                     self->InitAccumulators(inst, ops));
    std::vector<int64_t> extents;
    for (const WindowDim& w : window) extents.push_back(w.size);
    RETURN_IF_ERROR(EmitBoxLoop(
        b, extents, "window",
        [&](const std::vector<Value*>& w) -> absl::Status {
      Value* valid = b.getTrue();
      Index i;
      i.shape = &in;
      for (int d = 0; d < in.rank(); ++d) {
        const WindowDim& wd = window[d];
        Value* pos = b.CreateAdd(
            b.CreateMul(o.multi[d], b.getInt64(wd.stride)),
            b.CreateMul(w[d], b.getInt64(wd.window_dilation)));
        pos = b.CreateSub(pos, b.getInt64(wd.pad_low));
        valid = b.CreateAnd(valid, b.CreateICmpSGE(pos, b.getInt64(0)));
        if (wd.base_dilation != 1) {
          Value* safe = b.CreateSelect(b.CreateICmpSGE(pos, b.getInt64(0)), pos,
                                       b.getInt64(0));
          valid = b.CreateAnd(
              valid, b.CreateICmpEQ(b.CreateURem(safe, b.getInt64(wd.base_dilation)),
                                    b.getInt64(0)));
          pos = b.CreateUDiv(safe, b.getInt64(wd.base_dilation));
        }
        valid = b.CreateAnd(valid,
                            b.CreateICmpSLT(pos, b.getInt64(in.dimensions(d))));
        i.multi.push_back(pos);
      }
      // Padding and dilation holes are skipped.
      llvm::Function* f = b.GetInsertBlock()->getParent();
      auto* body = llvm::BasicBlock::Create(b.getContext(), "window.in", f);
      auto* done = llvm::BasicBlock::Create(b.getContext(), "window.next", f);
      b.CreateCondBr(valid, body, done);
      b.SetInsertPoint(body);
      RETURN_IF_ERROR(self->Accumulate(inst, ops, acc, i));
      b.CreateBr(done);
      b.SetInsertPoint(done);
      return absl::OkStatus();
    }));
    return self->AccumulatorResult(inst, acc, leaf);
  });
}

absl::StatusOr<Generator> ElementalEmitter::Dot(
    const Instruction& inst, const std::vector<LeafGenerators>& ops) {
  llvm::IRBuilderBase& b = b_;
  const Instruction* pinst = &inst;
  return Generator([&b, pinst, ops](const Index& o) -> absl::StatusOr<Value*> {
    const Instruction& inst = *pinst;
    const DotDimensionNumbers& dn = inst.dot_dnums();
    const Shape& lhs = inst.operand(0)->shape();
    const Shape& rhs = inst.operand(1)->shape();
    const PrimitiveType rt = inst.shape().element_type();
    // Operands are converted to ct and summed in its compute type (float
    // for f16/bf16 and the minifloats), converted to rt once at the end.
    const PrimitiveType ct = SumOfProductsType(rt);
    llvm::Type* acc_type = ComputeType(b.getContext(), ct);
    llvm::AllocaInst* acc = EntryAlloca(b, acc_type, "dot.acc");
    b.CreateStore(llvm::Constant::getNullValue(acc_type), acc);
    auto free_dims = [](const Shape& s, const std::vector<int64_t>& batch,
                        const std::vector<int64_t>& contracting) {
      std::vector<int64_t> free;
      for (int64_t d = 0; d < s.rank(); ++d) {
        if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
            std::find(contracting.begin(), contracting.end(), d) ==
                contracting.end()) {
          free.push_back(d);
        }
      }
      return free;
    };
    const std::vector<int64_t> lhs_free =
        free_dims(lhs, dn.lhs_batch, dn.lhs_contracting);
    const std::vector<int64_t> rhs_free =
        free_dims(rhs, dn.rhs_batch, dn.rhs_contracting);
    std::vector<int64_t> extents;
    for (int64_t d : dn.lhs_contracting) extents.push_back(lhs.dimensions(d));
    RETURN_IF_ERROR(EmitBoxLoop(
        b, extents, "dot", [&](const std::vector<Value*>& k) -> absl::Status {
      Index li, ri;
      li.shape = &lhs;
      ri.shape = &rhs;
      li.multi.assign(lhs.rank(), nullptr);
      ri.multi.assign(rhs.rank(), nullptr);
      size_t pos = 0;
      for (size_t j = 0; j < dn.lhs_batch.size(); ++j, ++pos) {
        li.multi[dn.lhs_batch[j]] = o.multi[pos];
        ri.multi[dn.rhs_batch[j]] = o.multi[pos];
      }
      for (int64_t d : lhs_free) li.multi[d] = o.multi[pos++];
      for (int64_t d : rhs_free) ri.multi[d] = o.multi[pos++];
      for (size_t j = 0; j < k.size(); ++j) {
        li.multi[dn.lhs_contracting[j]] = k[j];
        ri.multi[dn.rhs_contracting[j]] = k[j];
      }
      ASSIGN_OR_RETURN(Value * x,
                       GenerateAs(b, ops[0][0], li, lhs.element_type(), ct));
      ASSIGN_OR_RETURN(Value * y,
                       GenerateAs(b, ops[1][0], ri, rhs.element_type(), ct));
      Value* sum = b.CreateLoad(acc_type, acc);
      b.CreateStore(EmitMultiplyAdd(b, sum, x, y, ct), acc);
      return absl::OkStatus();
    }));
    return EmitConvert(b, RoundToStorage(b, b.CreateLoad(acc_type, acc), ct),
                       ct, rt);
  });
}

absl::StatusOr<Generator> ElementalEmitter::Map(
    const Instruction& inst, const std::vector<LeafGenerators>& ops) {
  llvm::IRBuilderBase& b = b_;
  ElementalEmitter* self = this;
  const Instruction* pinst = &inst;
  return Generator([&b, self, pinst, ops](const Index& o)
                       -> absl::StatusOr<Value*> {
    const Computation& f = *pinst->to_apply();
    std::vector<Value*> args;
    for (int k = 0; k < pinst->operand_count(); ++k) {
      ASSIGN_OR_RETURN(Value * v,
                       GenerateAs(b, ops[k][0], o,
                                  pinst->operand(k)->shape().element_type(),
                                  ParamType(f, k)));
      args.push_back(v);
    }
    ASSIGN_OR_RETURN(std::vector<Value*> r, self->CallScalar(f, args));
    return EmitConvert(b, r[0], f.root()->shape().element_type(),
                       pinst->shape().element_type());
  });
}

}  // namespace aotc::codegen
