// Test harness: kernel IR, the O2 pipeline and an LLJIT per target.
#include "codegen/elemental/math/math_test_jit.h"

#include <map>
#include <mutex>

#include "gtest/gtest.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

namespace aotc::codegen::math_test {
namespace {

llvm::orc::JITTargetMachineBuilder MachineBuilder(Target target) {
  if (target == Target::kHost) {
    return llvm::cantFail(llvm::orc::JITTargetMachineBuilder::detectHost());
  }
  llvm::Triple triple(llvm::sys::getProcessTriple());
  llvm::orc::JITTargetMachineBuilder jtmb(triple);
  jtmb.setCPU(triple.getArch() == llvm::Triple::x86_64 ? "x86-64" : "generic");
  return jtmb;
}

struct TargetJit {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> machine;
};

TargetJit& JitFor(Target target) {
  static std::once_flag init;
  std::call_once(init, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  static std::map<Target, TargetJit> jits;
  auto it = jits.find(target);
  if (it != jits.end()) return it->second;
  TargetJit& t = jits[target];
  // No process symbols: a libm (or compiler-rt) call would fail to link.
  t.jit = llvm::cantFail(llvm::orc::LLJITBuilder()
                             .setJITTargetMachineBuilder(MachineBuilder(target))
                             .setLinkProcessSymbolsByDefault(false)
                             .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
                             .create());
  t.machine = llvm::cantFail(MachineBuilder(target).createTargetMachine());
  return t;
}

}  // namespace

llvm::Type* ElemType(llvm::LLVMContext& ctx, Elem e) {
  switch (e) {
    case Elem::kF32:
      return llvm::Type::getFloatTy(ctx);
    case Elem::kF64:
      return llvm::Type::getDoubleTy(ctx);
    case Elem::kI16:
      return llvm::Type::getInt16Ty(ctx);
    case Elem::kI8:
      return llvm::Type::getInt8Ty(ctx);
  }
  return nullptr;
}

void AddKernel(llvm::Module& module, const KernelSpec& spec) {
  llvm::LLVMContext& ctx = module.getContext();
  llvm::Type* ptr = llvm::PointerType::get(ctx, 0);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  std::vector<llvm::Type*> params(spec.inputs.size() + 1, ptr);
  params.push_back(i64);
  auto* fn_type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), params, false);
  auto* fn = llvm::Function::Create(fn_type, llvm::Function::ExternalLinkage,
                                    spec.name, module);
  for (unsigned i = 0; i <= spec.inputs.size(); ++i) {
    fn->addParamAttr(i, llvm::Attribute::NoAlias);
  }
  auto* entry = llvm::BasicBlock::Create(ctx, "entry", fn);
  auto* loop = llvm::BasicBlock::Create(ctx, "loop", fn);
  auto* exit = llvm::BasicBlock::Create(ctx, "exit", fn);
  llvm::IRBuilder<> b(entry);
  llvm::Value* n = fn->getArg(spec.inputs.size() + 1);
  b.CreateCondBr(b.CreateICmpSGT(n, b.getInt64(0)), loop, exit);

  b.SetInsertPoint(loop);
  llvm::PHINode* i = b.CreatePHI(i64, 2, "i");
  i->addIncoming(b.getInt64(0), entry);
  auto shaped = [&](Elem e) {
    llvm::Type* t = ElemType(ctx, e);
    if (spec.width == 1) return t;
    return static_cast<llvm::Type*>(llvm::FixedVectorType::get(t, spec.width));
  };
  auto align = [&](Elem e) {
    return llvm::Align(ElemType(ctx, e)->getPrimitiveSizeInBits() / 8);
  };
  std::vector<llvm::Value*> args;
  for (unsigned k = 0; k < spec.inputs.size(); ++k) {
    llvm::Value* p =
        b.CreateGEP(ElemType(ctx, spec.inputs[k]), fn->getArg(k), i);
    args.push_back(
        b.CreateAlignedLoad(shaped(spec.inputs[k]), p, align(spec.inputs[k])));
  }
  llvm::Value* result = spec.body(b, args);
  llvm::Value* out = b.CreateGEP(ElemType(ctx, spec.output),
                                 fn->getArg(spec.inputs.size()), i);
  b.CreateAlignedStore(result, out, align(spec.output));
  llvm::Value* next = b.CreateAdd(i, b.getInt64(spec.width));
  i->addIncoming(next, b.GetInsertBlock());
  b.CreateCondBr(b.CreateICmpSLT(next, n), loop, exit);
  b.SetInsertPoint(exit);
  b.CreateRetVoid();
}

void OptimizeForTarget(llvm::Module& module, Target target) {
  llvm::TargetMachine& machine = *JitFor(target).machine;
  module.setDataLayout(machine.createDataLayout());
  module.setTargetTriple(machine.getTargetTriple().str());
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&machine);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm =
      pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  mpm.run(module, mam);
}

std::vector<void*> CompileModule(Target target,
                                 std::unique_ptr<llvm::LLVMContext> ctx,
                                 std::unique_ptr<llvm::Module> module,
                                 const std::vector<std::string>& names,
                                 bool optimize) {
  TargetJit& t = JitFor(target);
  std::string broken;
  llvm::raw_string_ostream os(broken);
  if (llvm::verifyModule(*module, &os)) {
    ADD_FAILURE() << "invalid IR: " << broken;
    return {};
  }
  if (optimize) OptimizeForTarget(*module, target);
  module->setDataLayout(t.jit->getDataLayout());
  llvm::Error err = t.jit->addIRModule(
      llvm::orc::ThreadSafeModule(std::move(module), std::move(ctx)));
  if (err) {
    ADD_FAILURE() << llvm::toString(std::move(err));
    return {};
  }
  std::vector<void*> addresses;
  for (const std::string& name : names) {
    auto sym = t.jit->lookup(name);
    if (!sym) {
      ADD_FAILURE() << name << ": " << llvm::toString(sym.takeError());
      return {};
    }
    addresses.push_back(sym->toPtr<void*>());
  }
  return addresses;
}

std::vector<void*> CompileKernels(Target target,
                                  const std::vector<KernelSpec>& specs,
                                  bool optimize) {
  auto ctx = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("kernels", *ctx);
  std::vector<std::string> names;
  for (const KernelSpec& spec : specs) {
    AddKernel(*module, spec);
    names.push_back(spec.name);
  }
  return CompileModule(target, std::move(ctx), std::move(module), names,
                       optimize);
}

std::string KernelName(const std::string& base) {
  static int counter = 0;
  return base + "_" + std::to_string(counter++);
}

}  // namespace aotc::codegen::math_test
