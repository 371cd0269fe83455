// Index arithmetic, buffer access and loop nests (see ir_array.h).
#include "codegen/emit/ir_array.h"

#include "codegen/emit/ir_types.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {

bool Index::LinearValidFor(const Shape& s) const {
  return linear != nullptr && shape != nullptr && shape->SameDimensions(s) &&
         shape->layout().minor_to_major == s.layout().minor_to_major;
}

std::vector<int64_t> PhysicalStrides(const Shape& shape) {
  std::vector<int64_t> strides(shape.rank(), 1);
  int64_t stride = 1;
  for (int64_t dim : shape.layout().minor_to_major) {
    strides[dim] = stride;
    stride *= shape.dimensions(dim);
  }
  return strides;
}

llvm::Value* IrArray::Offset(llvm::IRBuilderBase& b, const Index& index) const {
  if (index.LinearValidFor(*shape_)) return index.linear;
  const std::vector<int64_t> strides = PhysicalStrides(*shape_);
  llvm::Value* offset = b.getInt64(0);
  for (int d = 0; d < shape_->rank(); ++d) {
    if (shape_->dimensions(d) == 1) continue;
    llvm::Value* term = strides[d] == 1
                            ? index.multi[d]
                            : b.CreateMul(index.multi[d], b.getInt64(strides[d]),
                                          "", /*HasNUW=*/true, /*HasNSW=*/true);
    offset = b.CreateAdd(offset, term, "", true, true);
  }
  return offset;
}

llvm::Value* IrArray::ElementPointer(llvm::IRBuilderBase& b,
                                     const Index& index) const {
  llvm::Type* type = StorageType(b.getContext(), shape_->element_type());
  return b.CreateInBoundsGEP(type, base_, {Offset(b, index)});
}

void IrArray::Annotate(llvm::Instruction* access) const {
  if (alias_scope_ != nullptr) {
    access->setMetadata(llvm::LLVMContext::MD_alias_scope, alias_scope_);
  }
  if (noalias_ != nullptr) {
    access->setMetadata(llvm::LLVMContext::MD_noalias, noalias_);
  }
}

llvm::Value* IrArray::Read(llvm::IRBuilderBase& b, const Index& index) const {
  const PrimitiveType t = shape_->element_type();
  llvm::LoadInst* v =
      b.CreateLoad(StorageType(b.getContext(), t), ElementPointer(b, index));
  Annotate(v);
  return StorageToCompute(b, v, t);
}

void IrArray::Write(llvm::IRBuilderBase& b, const Index& index,
                    llvm::Value* value) const {
  const PrimitiveType t = shape_->element_type();
  Annotate(
      b.CreateStore(ComputeToStorage(b, value, t), ElementPointer(b, index)));
}

llvm::AllocaInst* EntryAlloca(llvm::IRBuilderBase& b, llvm::Type* type,
                              const std::string& name) {
  llvm::Function* f = b.GetInsertBlock()->getParent();
  llvm::IRBuilder<> entry(&f->getEntryBlock(), f->getEntryBlock().begin());
  return entry.CreateAlloca(type, nullptr, name);
}

absl::Status EmitForLoop(
    llvm::IRBuilderBase& b, llvm::Value* begin, llvm::Value* end,
    const std::string& name,
    const std::function<absl::Status(llvm::Value*)>& body) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::Function* f = b.GetInsertBlock()->getParent();
  llvm::AllocaInst* iv = EntryAlloca(b, b.getInt64Ty(), name + ".iv");
  b.CreateStore(begin, iv);
  auto* header = llvm::BasicBlock::Create(ctx, name + ".header", f);
  auto* loop_body = llvm::BasicBlock::Create(ctx, name + ".body", f);
  auto* exit = llvm::BasicBlock::Create(ctx, name + ".exit", f);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::Value* i = b.CreateLoad(b.getInt64Ty(), iv, name);
  b.CreateCondBr(b.CreateICmpSLT(i, end), loop_body, exit);
  b.SetInsertPoint(loop_body);
  RETURN_IF_ERROR(body(i));
  b.CreateStore(b.CreateAdd(i, b.getInt64(1), "", true, true), iv);
  b.CreateBr(header);
  b.SetInsertPoint(exit);
  return absl::OkStatus();
}

absl::Status EmitWhileLoop(
    llvm::IRBuilderBase& b, const std::string& name,
    const std::function<absl::StatusOr<llvm::Value*>()>& cond,
    const std::function<absl::Status()>& body) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::Function* f = b.GetInsertBlock()->getParent();
  auto* header = llvm::BasicBlock::Create(ctx, name + ".cond", f);
  auto* loop = llvm::BasicBlock::Create(ctx, name + ".body", f);
  auto* exit = llvm::BasicBlock::Create(ctx, name + ".exit", f);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  absl::StatusOr<llvm::Value*> c = cond();
  if (!c.ok()) return c.status();
  b.CreateCondBr(*c, loop, exit);
  b.SetInsertPoint(loop);
  if (absl::Status s = body(); !s.ok()) return s;
  b.CreateBr(header);
  b.SetInsertPoint(exit);
  return absl::OkStatus();
}

absl::StatusOr<llvm::Value*> EmitShortCircuitAnd(
    llvm::IRBuilderBase& b, llvm::Value* lhs,
    const std::function<absl::StatusOr<llvm::Value*>()>& rhs) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::BasicBlock* from = b.GetInsertBlock();
  llvm::Function* f = from->getParent();
  auto* test = llvm::BasicBlock::Create(ctx, "and.rhs", f);
  auto* join = llvm::BasicBlock::Create(ctx, "and.join", f);
  b.CreateCondBr(lhs, test, join);
  b.SetInsertPoint(test);
  absl::StatusOr<llvm::Value*> r = rhs();
  if (!r.ok()) return r.status();
  llvm::BasicBlock* tested = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(join);
  llvm::PHINode* phi = b.CreatePHI(b.getInt1Ty(), 2);
  phi->addIncoming(b.getFalse(), from);
  phi->addIncoming(*r, tested);
  return phi;
}

int64_t FirstWideDimension(const Shape& shape) {
  const std::vector<int64_t>& m2m = shape.layout().minor_to_major;
  for (auto dim = m2m.rbegin(); dim != m2m.rend(); ++dim) {
    if (shape.dimensions(*dim) > 1) return *dim;
  }
  return m2m.back();
}

absl::Status EmitArrayLoop(
    llvm::IRBuilderBase& b, const Shape& shape, const std::string& name,
    const std::function<absl::Status(const Index&)>& body,
    llvm::Value* outer_begin, llvm::Value* outer_end) {
  const int rank = shape.rank();
  const std::vector<int64_t>& m2m = shape.layout().minor_to_major;
  Index index;
  index.shape = &shape;
  index.multi.assign(rank, b.getInt64(0));
  // Loop level k runs over dimension m2m[rank-1-k]; the linear offset is
  // accumulated as offset_k = offset_{k-1} * dim + i_k. A chunk is of the
  // loop over FirstWideDimension.
  const int64_t chunk_dim = rank > 0 ? FirstWideDimension(shape) : -1;
  std::function<absl::Status(int, llvm::Value*)> level =
      [&](int k, llvm::Value* outer) -> absl::Status {
    if (k == rank) {
      index.linear = outer;
      return body(index);
    }
    const int64_t dim = m2m[rank - 1 - k];
    const int64_t extent = shape.dimensions(dim);
    const bool chunk = dim == chunk_dim && outer_begin != nullptr;
    if (extent == 1 && !chunk) {
      index.multi[dim] = b.getInt64(0);
      return level(k + 1, outer);
    }
    return EmitForLoop(
        b, chunk ? outer_begin : b.getInt64(0),
        chunk ? outer_end : b.getInt64(extent),
        name + "." + std::to_string(dim), [&](llvm::Value* i) {
          index.multi[dim] = i;
          llvm::Value* scaled =
              b.CreateMul(outer, b.getInt64(extent), "", true, true);
          return level(k + 1, b.CreateAdd(scaled, i, "", true, true));
        });
  };
  if (shape.ElementCount() == 0) return absl::OkStatus();
  return level(0, b.getInt64(0));
}

absl::Status EmitBoxLoop(
    llvm::IRBuilderBase& b, const std::vector<int64_t>& extents,
    const std::string& name,
    const std::function<absl::Status(const std::vector<llvm::Value*>&)>&
        body) {
  std::vector<llvm::Value*> counters(extents.size(), b.getInt64(0));
  for (int64_t e : extents) {
    if (e == 0) return absl::OkStatus();
  }
  std::function<absl::Status(size_t)> level = [&](size_t k) -> absl::Status {
    if (k == extents.size()) return body(counters);
    if (extents[k] == 1) {
      counters[k] = b.getInt64(0);
      return level(k + 1);
    }
    return EmitForLoop(b, b.getInt64(0), b.getInt64(extents[k]),
                       name + "." + std::to_string(k), [&](llvm::Value* i) {
                         counters[k] = i;
                         return level(k + 1);
                       });
  };
  return level(0);
}

std::vector<llvm::Value*> UnflattenRowMajor(llvm::IRBuilderBase& b,
                                            llvm::Value* flat,
                                            const std::vector<int64_t>& extents) {
  std::vector<llvm::Value*> c(extents.size());
  for (size_t d = extents.size(); d-- > 0;) {
    if (d == 0) {
      c[0] = flat;
    } else {
      c[d] = b.CreateURem(flat, b.getInt64(extents[d]));
      flat = b.CreateUDiv(flat, b.getInt64(extents[d]));
    }
  }
  return c;
}

}  // namespace aotc::codegen
