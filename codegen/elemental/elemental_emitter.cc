// Element generators for elementwise and data-movement instructions, and
// the dispatch over opcodes (see elemental_emitter.h). Reductions, dot and map are in
// reduce.cc, gather in gather.cc, convolution in
// convolution.cc.
#include "codegen/elemental/elemental_emitter.h"

#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "codegen/elemental/scalar_ops.h"
#include "codegen/emit/ir_types.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

absl::Status NoElementalForm(const Instruction& inst) {
  return ErrorAt(inst.location(),
                 absl::StrCat("'", Sv(OpcodeName(inst.opcode())),
                              "' is not supported yet by code generation"));
}

// Row-major strides of the shape's logical dimensions.
std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * dims[d + 1];
  }
  return strides;
}

// Splits `linear` into a multi-index of `dims` using `strides` (one per
// dimension, in elements).
std::vector<Value*> Delinearize(llvm::IRBuilderBase& b, Value* linear,
                                const std::vector<int64_t>& dims,
                                const std::vector<int64_t>& strides) {
  std::vector<Value*> multi(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 1) {
      multi[d] = b.getInt64(0);
      continue;
    }
    Value* q = strides[d] == 1 ? linear
                               : b.CreateUDiv(linear, b.getInt64(strides[d]));
    multi[d] = b.CreateURem(q, b.getInt64(dims[d]));
  }
  return multi;
}

Value* Clamp(llvm::IRBuilderBase& b, Value* v, int64_t lo, int64_t hi) {
  v = b.CreateSelect(b.CreateICmpSLT(v, b.getInt64(lo)), b.getInt64(lo), v);
  return b.CreateSelect(b.CreateICmpSGT(v, b.getInt64(hi)), b.getInt64(hi), v);
}

// Wraps a generator so that asking again for the same index from the same
// basic block reuses the value: a fused value used by several users is
// computed once per element, and diamonds in a fusion stay linear in size.
// A value is reused only in the block where its computation ended, which it
// dominates. The generator is held by a shared pointer: a generator keeps
// copies of its operands' generators, so copying one that held its own
// closure would copy the whole expression below it, and a chain of
// diamonds (logaddexp steps, each reading the last one four times) would
// take memory exponential in its length.
Generator Memoized(llvm::IRBuilderBase& b, Generator g) {
  struct Entry {
    std::vector<Value*> multi;
    Value* linear;
    llvm::BasicBlock* block;
    Value* value;
  };
  auto cache = std::make_shared<std::vector<Entry>>();
  auto shared = std::make_shared<const Generator>(std::move(g));
  return [&b, shared, cache](const Index& i) -> absl::StatusOr<Value*> {
    for (const Entry& e : *cache) {
      if (e.block == b.GetInsertBlock() && e.multi == i.multi &&
          e.linear == i.linear) {
        return e.value;
      }
    }
    ASSIGN_OR_RETURN(Value * v, (*shared)(i));
    cache->push_back({i.multi, i.linear, b.GetInsertBlock(), v});
    return v;
  };
}

}  // namespace

int FirstLeafOf(const Shape& tuple, int64_t index) {
  int first = 0;
  for (int64_t k = 0; k < index; ++k) {
    first += static_cast<int>(tuple.tuple_shapes(k).Leaves().size());
  }
  return first;
}

Index ScalarIndex(const Shape& scalar_shape) {
  Index index;
  index.shape = &scalar_shape;
  return index;
}

Generator ArrayReader(llvm::IRBuilderBase& b, IrArray array) {
  return [&b, array](const Index& index) -> absl::StatusOr<Value*> {
    return array.Read(b, index);
  };
}

absl::StatusOr<Value*> GenerateAs(llvm::IRBuilderBase& b, const Generator& g,
                                  const Index& index, PrimitiveType from,
                                  PrimitiveType to) {
  ASSIGN_OR_RETURN(Value * v, g(index));
  return EmitConvert(b, v, from, to);
}

absl::StatusOr<Generator> ElementalEmitter::Movement(
    const Instruction& inst, const std::vector<LeafGenerators>& ops) {
  llvm::IRBuilderBase& b = b_;
  const Shape& out = inst.shape();
  const Shape& in = inst.operand(0)->shape();
  const Generator operand = ops[0][0];
  const std::vector<int64_t>& dims = inst.attrs().dimensions;
  // Maps an output index to the operand index; `keep_linear` says whether
  // the output's linear offset stays valid (identity maps).
  std::function<Index(const Index&)> map;
  switch (inst.opcode()) {
    case Opcode::kBroadcast:
      map = [dims, &in](const Index& o) {
        Index i;
        i.shape = &in;
        for (int64_t d : dims) i.multi.push_back(o.multi[d]);
        bool identity = dims.size() == o.multi.size();
        for (size_t k = 0; identity && k < dims.size(); ++k) {
          identity = dims[k] == static_cast<int64_t>(k);
        }
        if (identity) i.linear = o.linear;
        return i;
      };
      break;
    case Opcode::kTranspose:
      map = [dims, &in](const Index& o) {
        Index i;
        i.shape = &in;
        i.multi.assign(in.rank(), nullptr);
        for (size_t k = 0; k < dims.size(); ++k) i.multi[dims[k]] = o.multi[k];
        return i;
      };
      break;
    case Opcode::kReshape:
      map = [&b, &in, &out](const Index& o) {
        if (in.SameDimensions(out)) return o;
        Value* linear;
        if (o.LinearValidFor(out) && out.HasDefaultLayout()) {
          linear = o.linear;
        } else {
          const std::vector<int64_t> s = RowMajorStrides(out.dimensions());
          linear = b.getInt64(0);
          for (int d = 0; d < out.rank(); ++d) {
            linear = b.CreateAdd(linear,
                                 b.CreateMul(o.multi[d], b.getInt64(s[d])));
          }
        }
        Index i;
        i.shape = &in;
        i.multi = Delinearize(b, linear, in.dimensions(),
                              RowMajorStrides(in.dimensions()));
        if (in.HasDefaultLayout()) {
          i.linear = linear;
        }
        return i;
      };
      break;
    case Opcode::kBitcast:
      if (BitWidth(in.element_type()) != BitWidth(out.element_type())) {
        return NoElementalForm(inst);
      }
      map = [&b, &in, &out](const Index& o) {
        IrArray view(nullptr, &out);
        Value* physical = view.Offset(b, o);
        Index i;
        i.shape = &in;
        i.multi = Delinearize(b, physical, in.dimensions(), PhysicalStrides(in));
        i.linear = physical;
        return i;
      };
      break;
    case Opcode::kCopy:
      // The index passes through; its linear offset stays tied to the
      // output's layout, so a layout-changing copy reads by multi-index.
      map = [](const Index& o) { return o; };
      break;
    case Opcode::kSlice: {
      const std::vector<SliceDim> slice = inst.slice();
      map = [&b, slice, &in](const Index& o) {
        Index i;
        i.shape = &in;
        for (size_t d = 0; d < slice.size(); ++d) {
          Value* v = o.multi[d];
          if (slice[d].stride != 1) v = b.CreateMul(v, b.getInt64(slice[d].stride));
          if (slice[d].start != 0) v = b.CreateAdd(v, b.getInt64(slice[d].start));
          i.multi.push_back(v);
        }
        return i;
      };
      break;
    }
    case Opcode::kReverse:
      map = [&b, dims, &in](const Index& o) {
        Index i;
        i.shape = &in;
        i.multi = o.multi;
        for (int64_t d : dims) {
          i.multi[d] = b.CreateSub(b.getInt64(in.dimensions(d) - 1), o.multi[d]);
        }
        return i;
      };
      break;
    default:
      return NoElementalForm(inst);
  }
  if (in.element_type() != out.element_type()) {
    // A same-width bitcast that changes the element type reinterprets the
    // bits, as bitcast-convert does.
    const PrimitiveType from = in.element_type();
    const PrimitiveType to = out.element_type();
    return Generator([&b, operand, map, from, to](
                         const Index& o) -> absl::StatusOr<Value*> {
      ASSIGN_OR_RETURN(Value * v, operand(map(o)));
      Value* bits = ComputeToStorage(b, v, from);
      return StorageToCompute(
          b, b.CreateBitCast(bits, StorageType(b.getContext(), to)), to);
    });
  }
  return Generator([operand, map](const Index& o) { return operand(map(o)); });
}

absl::StatusOr<Generator> ElementalEmitter::Pad(
    const Instruction& inst, const std::vector<LeafGenerators>& ops) {
  llvm::IRBuilderBase& b = b_;
  const Shape& in = inst.operand(0)->shape();
  const Shape& pad_shape = inst.operand(1)->shape();
  const Generator operand = ops[0][0];
  const Generator pad_value = ops[1][0];
  const std::vector<PaddingDim> padding = inst.padding();
  const PrimitiveType from = pad_shape.element_type();
  const PrimitiveType to = inst.shape().element_type();
  if (in.ElementCount() == 0) {
    return Generator([&b, pad_value, &pad_shape, from, to](const Index&) {
      return GenerateAs(b, pad_value, ScalarIndex(pad_shape), from, to);
    });
  }
  return Generator([&b, operand, pad_value, padding, &in, &pad_shape, from,
                    to](const Index& o) -> absl::StatusOr<Value*> {
    Value* inside = b.getTrue();
    Index i;
    i.shape = &in;
    for (size_t d = 0; d < padding.size(); ++d) {
      const int64_t step = padding[d].interior + 1;
      Value* pos = b.CreateSub(o.multi[d], b.getInt64(padding[d].low));
      Value* q = pos;
      if (step != 1) {
        // pos may be negative: only non-negative multiples of step count.
        Value* nonneg = b.CreateICmpSGE(pos, b.getInt64(0));
        Value* safe = b.CreateSelect(nonneg, pos, b.getInt64(0));
        Value* aligned =
            b.CreateICmpEQ(b.CreateURem(safe, b.getInt64(step)), b.getInt64(0));
        inside = b.CreateAnd(inside, b.CreateAnd(nonneg, aligned));
        q = b.CreateUDiv(safe, b.getInt64(step));
      }
      inside = b.CreateAnd(inside, b.CreateICmpSGE(q, b.getInt64(0)));
      inside = b.CreateAnd(inside,
                           b.CreateICmpSLT(q, b.getInt64(in.dimensions(d))));
      i.multi.push_back(Clamp(b, q, 0, in.dimensions(d) - 1));
    }
    ASSIGN_OR_RETURN(Value * v, operand(i));
    ASSIGN_OR_RETURN(Value * p, GenerateAs(b, pad_value, ScalarIndex(pad_shape),
                                           from, to));
    return b.CreateSelect(inside, v, p);
  });
}

absl::StatusOr<Generator> ElementalEmitter::Concatenate(
    const Instruction& inst, const std::vector<LeafGenerators>& ops) {
  llvm::IRBuilderBase& b = b_;
  const int64_t dim = inst.dimensions().at(0);
  struct Part {
    Generator g;
    const Shape* shape;
    int64_t start;
  };
  std::vector<Part> parts;
  int64_t start = 0;
  for (int k = 0; k < inst.operand_count(); ++k) {
    const Shape& s = inst.operand(k)->shape();
    if (s.dimensions(dim) > 0) parts.push_back({ops[k][0], &s, start});
    start += s.dimensions(dim);
  }
  llvm::Type* type = ComputeType(b.getContext(), inst.shape().element_type());
  return Generator([&b, parts, dim, type](const Index& o)
                       -> absl::StatusOr<Value*> {
    llvm::Function* f = b.GetInsertBlock()->getParent();
    llvm::AllocaInst* result = EntryAlloca(b, type, "concat");
    auto* merge = llvm::BasicBlock::Create(b.getContext(), "concat.merge", f);
    for (size_t k = 0; k < parts.size(); ++k) {
      const bool last = k + 1 == parts.size();
      llvm::BasicBlock* next = nullptr;
      if (!last) {
        auto* here = llvm::BasicBlock::Create(b.getContext(), "concat.part", f);
        next = llvm::BasicBlock::Create(b.getContext(), "concat.next", f);
        const int64_t end = parts[k].start + parts[k].shape->dimensions(dim);
        b.CreateCondBr(b.CreateICmpSLT(o.multi[dim], b.getInt64(end)), here,
                       next);
        b.SetInsertPoint(here);
      }
      Index i;
      i.shape = parts[k].shape;
      i.multi = o.multi;
      i.multi[dim] = b.CreateSub(o.multi[dim], b.getInt64(parts[k].start));
      ASSIGN_OR_RETURN(Value * v, parts[k].g(i));
      b.CreateStore(v, result);
      b.CreateBr(merge);
      if (next != nullptr) b.SetInsertPoint(next);
    }
    b.SetInsertPoint(merge);
    return b.CreateLoad(type, result);
  });
}

absl::StatusOr<std::vector<Value*>> ElementalEmitter::ClampedStarts(
    const Instruction& inst, const std::vector<LeafGenerators>& ops, int first,
    const std::vector<int64_t>& sizes) {
  const Shape& operand = inst.operand(0)->shape();
  // Either one scalar operand per dimension, or (the older form) a single
  // rank-1 operand holding all start indices.
  const bool vector_form = inst.operand(first)->shape().rank() == 1;
  std::vector<Value*> starts;
  for (int d = 0; d < operand.rank(); ++d) {
    const int k = vector_form ? first : first + d;
    const Shape& s = inst.operand(k)->shape();
    Index at = ScalarIndex(s);
    if (vector_form) at.multi = {b_.getInt64(d)};
    ASSIGN_OR_RETURN(Value * v, ops[k][0](at));
    v = b_.CreateIntCast(v, b_.getInt64Ty(), IsSignedInt(s.element_type()));
    starts.push_back(Clamp(b_, v, 0, operand.dimensions(d) - sizes[d]));
  }
  return starts;
}

absl::StatusOr<Generator> ElementalEmitter::DynamicSlice(
    const Instruction& inst, const std::vector<LeafGenerators>& ops) {
  llvm::IRBuilderBase& b = b_;
  const Shape& in = inst.operand(0)->shape();
  ElementalEmitter* self = this;
  const Instruction* pinst = &inst;
  return Generator([&b, self, pinst, ops, &in](const Index& o)
                       -> absl::StatusOr<Value*> {
    ASSIGN_OR_RETURN(std::vector<Value*> starts,
                     self->ClampedStarts(*pinst, ops, 1,
                                         pinst->shape().dimensions()));
    Index i;
    i.shape = &in;
    for (size_t d = 0; d < starts.size(); ++d) {
      i.multi.push_back(b.CreateAdd(starts[d], o.multi[d]));
    }
    return ops[0][0](i);
  });
}

absl::StatusOr<Generator> ElementalEmitter::DynamicUpdateSlice(
    const Instruction& inst, const std::vector<LeafGenerators>& ops) {
  llvm::IRBuilderBase& b = b_;
  const Shape& update = inst.operand(1)->shape();
  if (update.ElementCount() == 0) return ops[0][0];
  ElementalEmitter* self = this;
  const Instruction* pinst = &inst;
  return Generator([&b, self, pinst, ops, &update](const Index& o)
                       -> absl::StatusOr<Value*> {
    ASSIGN_OR_RETURN(std::vector<Value*> starts,
                     self->ClampedStarts(*pinst, ops, 2, update.dimensions()));
    Value* inside = b.getTrue();
    Index u;
    u.shape = &update;
    for (size_t d = 0; d < starts.size(); ++d) {
      Value* rel = b.CreateSub(o.multi[d], starts[d]);
      inside = b.CreateAnd(inside, b.CreateICmpSGE(rel, b.getInt64(0)));
      inside = b.CreateAnd(
          inside, b.CreateICmpSLT(rel, b.getInt64(update.dimensions(d))));
      u.multi.push_back(Clamp(b, rel, 0, update.dimensions(d) - 1));
    }
    ASSIGN_OR_RETURN(Value * base, ops[0][0](o));
    ASSIGN_OR_RETURN(Value * v, ops[1][0](u));
    return b.CreateSelect(inside, v, base);
  });
}

absl::StatusOr<Generator> ElementalEmitter::Constant(const Instruction& inst,
                                                    const Literal& literal) {
  if (literal.elided()) {
    return ErrorAt(inst.location(),
                   "the constant's value was elided from the HLO text ({...})");
  }
  llvm::IRBuilderBase& b = b_;
  const Shape& shape = literal.shape();
  if (shape.IsScalar()) {
    // Scalars become immediate values so that LLVM can fold them.
    llvm::Type* storage = StorageType(b.getContext(), shape.element_type());
    llvm::Constant* c;
    if (shape.element_type() == PrimitiveType::kC64) {
      const std::complex<float> z = literal.Get<std::complex<float>>(0);
      c = llvm::ConstantDataArray::get(
          b.getContext(), llvm::ArrayRef<float>{z.real(), z.imag()});
    } else if (shape.element_type() == PrimitiveType::kC128) {
      const std::complex<double> z = literal.Get<std::complex<double>>(0);
      c = llvm::ConstantDataArray::get(
          b.getContext(), llvm::ArrayRef<double>{z.real(), z.imag()});
    } else if (storage->isFloatTy()) {
      c = llvm::ConstantFP::get(storage, literal.Get<float>(0));
    } else if (storage->isDoubleTy()) {
      c = llvm::ConstantFP::get(storage, literal.Get<double>(0));
    } else {
      uint64_t bits = 0;
      std::memcpy(&bits, literal.raw(), StorageBytes(shape.element_type()));
      c = llvm::ConstantInt::get(storage, bits);
    }
    const PrimitiveType t = shape.element_type();
    return Generator([&b, c, t](const Index&) -> absl::StatusOr<Value*> {
      return StorageToCompute(b, c, t);
    });
  }
  return ArrayReader(b, IrArray(mc_.ConstantGlobal(literal), &shape));
}

absl::StatusOr<LeafGenerators> ElementalEmitter::MakeGenerators(
    const Instruction& inst, const std::vector<LeafGenerators>& ops) {
  llvm::IRBuilderBase& b = b_;
  const Opcode op = inst.opcode();
  auto one = [](absl::StatusOr<Generator> g) -> absl::StatusOr<LeafGenerators> {
    if (!g.ok()) return g.status();
    return LeafGenerators{*std::move(g)};
  };
  switch (op) {
    case Opcode::kTuple: {
      LeafGenerators leaves;
      for (const LeafGenerators& o : ops) {
        leaves.insert(leaves.end(), o.begin(), o.end());
      }
      return leaves;
    }
    case Opcode::kGetTupleElement:
      return TupleElementLeaves(inst, ops[0]);
    case Opcode::kOptimizationBarrier:
      return ops[0];
    case Opcode::kCopy:
      if (inst.shape().IsTuple()) return ops[0];
      break;
    case Opcode::kConstant: {
      LeafGenerators leaves;
      for (const Literal* literal : inst.literal().Leaves()) {
        ASSIGN_OR_RETURN(Generator g, Constant(inst, *literal));
        leaves.push_back(std::move(g));
      }
      return leaves;
    }
    case Opcode::kIota: {
      const int64_t dim = inst.iota_dimension();
      const PrimitiveType t = inst.shape().element_type();
      return one(Generator([&b, dim, t](const Index& o) -> absl::StatusOr<Value*> {
        return EmitConvert(b, o.multi[dim], PrimitiveType::kS64, t);
      }));
    }
    case Opcode::kPad:
      return one(Pad(inst, ops));
    case Opcode::kConcatenate:
      return one(Concatenate(inst, ops));
    case Opcode::kDynamicSlice:
      return one(DynamicSlice(inst, ops));
    case Opcode::kDynamicUpdateSlice:
      return one(DynamicUpdateSlice(inst, ops));
    case Opcode::kGather:
      return one(Gather(inst, ops));
    case Opcode::kConvolution:
      return one(Convolution(inst, ops));
    case Opcode::kReduce: {
      LeafGenerators leaves;
      const int n = static_cast<int>(inst.shape().Leaves().size());
      ElementalEmitter* self = this;
      const Instruction* pinst = &inst;
      for (int k = 0; k < n; ++k) {
        leaves.push_back([self, pinst, ops, k](const Index& o)
                             -> absl::StatusOr<Value*> {
          ASSIGN_OR_RETURN(std::vector<Value*> all, self->EmitReduce(*pinst, ops, o));
          return all[k];
        });
      }
      return leaves;
    }
    case Opcode::kReduceWindow: {
      LeafGenerators leaves;
      const int n = static_cast<int>(inst.shape().Leaves().size());
      for (int k = 0; k < n; ++k) {
        ASSIGN_OR_RETURN(Generator g, ReduceWindow(inst, ops, k));
        leaves.push_back(std::move(g));
      }
      return leaves;
    }
    case Opcode::kDot:
      return one(Dot(inst, ops));
    case Opcode::kMap:
      return one(Map(inst, ops));
    case Opcode::kFusion:
      return EmitComputation(*inst.fused_computation(), ops);
    case Opcode::kBroadcast:
    case Opcode::kTranspose:
    case Opcode::kReshape:
    case Opcode::kBitcast:
    case Opcode::kSlice:
    case Opcode::kReverse:
      return one(Movement(inst, ops));
    default:
      break;
  }
  if (op == Opcode::kBitcastConvert &&
      BitWidth(inst.shape().element_type()) !=
          BitWidth(inst.operand(0)->shape().element_type())) {
    return NoElementalForm(inst);
  }
  if (!IsElementwise(op) && op != Opcode::kBitcastConvert &&
      op != Opcode::kReducePrecision) {
    return NoElementalForm(inst);
  }
  if (op == Opcode::kCopy) return one(Movement(inst, ops));
  const Instruction* pinst = &inst;
  const int rank = inst.shape().rank();
  return one(Generator([&b, pinst, ops, rank](const Index& o)
                           -> absl::StatusOr<Value*> {
    std::vector<Value*> values;
    for (size_t k = 0; k < ops.size(); ++k) {
      const Shape& s = pinst->operand(static_cast<int>(k))->shape();
      const Index i = s.rank() == 0 && rank != 0 ? ScalarIndex(s) : o;
      ASSIGN_OR_RETURN(Value * v, ops[k][0](i));
      values.push_back(v);
    }
    return EmitElementwise(b, *pinst, values);
  }));
}

absl::StatusOr<std::map<const Instruction*, LeafGenerators>>
ElementalEmitter::EmitComputationValues(
    const Computation& comp, const std::vector<LeafGenerators>& parameters,
    const std::map<const Instruction*, LeafGenerators>* overrides) {
  std::map<const Instruction*, LeafGenerators> values;
  for (const auto& owned : comp.instructions()) {
    const Instruction* inst = owned.get();
    if (inst->opcode() == Opcode::kParameter) {
      values[inst] = parameters.at(inst->parameter_number());
      continue;
    }
    if (overrides != nullptr) {
      auto it = overrides->find(inst);
      if (it != overrides->end()) {
        values[inst] = it->second;
        continue;
      }
    }
    std::vector<LeafGenerators> ops;
    for (const Instruction* o : inst->operands()) ops.push_back(values.at(o));
    ASSIGN_OR_RETURN(LeafGenerators leaves, MakeGenerators(*inst, ops));
    for (Generator& g : leaves) g = Memoized(b_, std::move(g));
    values[inst] = std::move(leaves);
  }
  return values;
}

absl::StatusOr<LeafGenerators> ElementalEmitter::EmitComputation(
    const Computation& comp, const std::vector<LeafGenerators>& parameters,
    const std::map<const Instruction*, LeafGenerators>* overrides) {
  ASSIGN_OR_RETURN(auto values,
                   EmitComputationValues(comp, parameters, overrides));
  return values.at(comp.root());
}

absl::StatusOr<std::vector<Value*>> ElementalEmitter::CallScalar(
    const Computation& comp, const std::vector<Value*>& args) {
  ASSIGN_OR_RETURN(llvm::Function * f, mc_.ScalarFunction(comp));
  Value* r = b_.CreateCall(f, args);
  if (!r->getType()->isStructTy()) return std::vector<Value*>{r};
  std::vector<Value*> leaves;
  for (unsigned k = 0; k < r->getType()->getStructNumElements(); ++k) {
    leaves.push_back(b_.CreateExtractValue(r, {k}));
  }
  return leaves;
}

}  // namespace aotc::codegen
