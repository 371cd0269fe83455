// Constant pool and scalar computations (see module_context.h); buffer-level
// computations are in computation_emitter.cc.
#include "codegen/emit/module_context.h"

#include "absl/strings/str_cat.h"
#include "codegen/elemental/elemental_emitter.h"
#include "codegen/emit/ir_array.h"
#include "codegen/emit/ir_types.h"
#include "codegen/emit/layout_bytes.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {

llvm::GlobalVariable* ModuleContext::ConstantGlobal(const Literal& literal) {
  std::string bytes = PhysicalBytes(literal, literal.shape());
  auto it = constants_.find(bytes);
  if (it != constants_.end()) return it->second;
  llvm::Constant* init = llvm::ConstantDataArray::getRaw(
      bytes, bytes.size(), llvm::Type::getInt8Ty(context()));
  auto* global = new llvm::GlobalVariable(
      module_, init->getType(), /*isConstant=*/true,
      llvm::GlobalValue::PrivateLinkage, init,
      absl::StrCat(prefix_, ".const.", constants_.size()));
  global->setAlignment(llvm::Align(kBufferAlignment));
  global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  constants_.emplace(std::move(bytes), global);
  return global;
}

std::string ModuleContext::FunctionName(const Computation& comp,
                                        const char* kind) {
  return absl::StrCat(prefix_, ".", kind, ".", next_function_++, ".",
                      comp.name());
}

absl::StatusOr<llvm::Function*> ModuleContext::ScalarFunction(
    const Computation& comp) {
  auto it = scalar_functions_.find(&comp);
  if (it != scalar_functions_.end()) return it->second;
  for (const auto& inst : comp.instructions()) {
    for (const Shape* leaf : inst->shape().Leaves()) {
      if (leaf->rank() != 0) {
        return ErrorAt(
            inst->location(),
            absl::StrCat("computation '", comp.name(),
                         "' is applied per element, so its values must be "
                         "scalars; this one is ",
                         inst->shape().ToString()));
      }
    }
  }
  llvm::LLVMContext& ctx = context();
  std::vector<llvm::Type*> params;
  for (const Instruction* p : comp.parameters()) {
    if (!p->shape().IsArray()) {
      return ErrorAt(p->location(),
                     "tuple parameters of per-element computations are not "
                     "supported yet");
    }
    params.push_back(ComputeType(ctx, p->shape().element_type()));
  }
  std::vector<llvm::Type*> results;
  for (const Shape* leaf : comp.root()->shape().Leaves()) {
    results.push_back(ComputeType(ctx, leaf->element_type()));
  }
  llvm::Type* ret = results.size() == 1
                        ? results[0]
                        : llvm::StructType::get(ctx, results);
  auto* f = llvm::Function::Create(llvm::FunctionType::get(ret, params, false),
                                   llvm::GlobalValue::InternalLinkage,
                                   FunctionName(comp, "scalar"), module_);
  f->addFnAttr(llvm::Attribute::AlwaysInline);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  scalar_functions_[&comp] = f;

  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
  ElementalEmitter emitter(*this, b);
  std::vector<LeafGenerators> args;
  for (llvm::Argument& a : f->args()) {
    llvm::Value* v = &a;
    args.push_back({[v](const Index&) -> absl::StatusOr<llvm::Value*> {
      return v;
    }});
  }
  ASSIGN_OR_RETURN(LeafGenerators root, emitter.EmitComputation(comp, args));
  std::vector<llvm::Value*> values;
  const std::vector<const Shape*> leaves = comp.root()->shape().Leaves();
  for (size_t k = 0; k < root.size(); ++k) {
    ASSIGN_OR_RETURN(llvm::Value * v, root[k](ScalarIndex(*leaves[k])));
    values.push_back(v);
  }
  if (values.size() == 1) {
    b.CreateRet(values[0]);
  } else {
    llvm::Value* agg = llvm::UndefValue::get(ret);
    for (unsigned k = 0; k < values.size(); ++k) {
      agg = b.CreateInsertValue(agg, values[k], {k});
    }
    b.CreateRet(agg);
  }
  return f;
}

}  // namespace aotc::codegen
