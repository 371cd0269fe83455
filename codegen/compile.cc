// Lowering a module to an object file (see compile.h): LLVM module set-up,
// the exported entry points, the optimization pipeline and object emission.
#include "codegen/compile.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "codegen/backend/llvm_pipeline.h"
#include "codegen/backend/module_split.h"
#include "codegen/backend/object_assembler.h"
#include "codegen/backend/parallel_compile.h"
#include "codegen/backend/soft_sqrt.h"
#include "codegen/backend/target_info.h"
#include "codegen/backend/target_machine.h"
#include "codegen/emit/module_context.h"
#include "codegen/header/header_writer.h"
#include "codegen/header/model_json.h"
#include "compiler/support/status_macros.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/Cloning.h"

namespace aotc::codegen {
namespace {

// Status codes of runtime_lib/include/aotc/runtime.h.
constexpr int kErrorNullArgument = 1;
constexpr int kErrorNullResult = 2;
constexpr int kErrorNullTemp = 3;
constexpr int kErrorMisalignedTemp = 4;

// int checked(ptr args, ptr results, ptr temp): null and alignment checks,
// then the entry computation, whose status it returns.
llvm::Function* EmitChecked(llvm::Module& m, const ModelSignature& sig,
                            llvm::Function* entry, int64_t temp_bytes,
                            ProfileCounters* profile) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  auto* f = llvm::Function::Create(
      llvm::FunctionType::get(i32, {ptr, ptr, ptr}, false),
      llvm::GlobalValue::InternalLinkage, sig.name + ".checked", m);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
  auto fail_if = [&](llvm::Value* cond, int code) {
    auto* fail = llvm::BasicBlock::Create(ctx, "fail", f);
    auto* ok = llvm::BasicBlock::Create(ctx, "ok", f);
    b.CreateCondBr(cond, fail, ok);
    b.SetInsertPoint(fail);
    b.CreateRet(b.getInt32(code));
    b.SetInsertPoint(ok);
  };
  auto check_array = [&](llvm::Value* array,
                         const std::vector<TensorInfo>& tensors, int code) {
    for (size_t k = 0; k < tensors.size(); ++k) {
      // A donated result lives in its argument, checked as an argument.
      if (tensors[k].byte_size == 0 || (code == kErrorNullResult &&
                                        tensors[k].aliased >= 0)) {
        continue;
      }
      llvm::Value* p =
          b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(ptr, array, k));
      fail_if(b.CreateIsNull(p), code);
    }
  };
  check_array(f->getArg(0), sig.args, kErrorNullArgument);
  check_array(f->getArg(1), sig.results, kErrorNullResult);
  if (temp_bytes > 0) {
    llvm::Value* temp = f->getArg(2);
    fail_if(b.CreateIsNull(temp), kErrorNullTemp);
    llvm::Value* address = b.CreatePtrToInt(temp, b.getInt64Ty());
    fail_if(b.CreateICmpNE(b.CreateAnd(address, b.getInt64(sig.alignment - 1)),
                           b.getInt64(0)),
            kErrorMisalignedTemp);
  }
  // Donated results are written into their arguments' buffers: the
  // computation gets a results array with those pointers in their places.
  llvm::Value* results = f->getArg(1);
  bool donation = false;
  for (const TensorInfo& t : sig.results) donation = donation || t.aliased >= 0;
  if (donation) {
    llvm::Type* type = llvm::ArrayType::get(ptr, sig.results.size());
    llvm::Value* copy = b.CreateAlloca(type);
    for (size_t k = 0; k < sig.results.size(); ++k) {
      const int a = sig.results[k].aliased;
      llvm::Value* slot =
          a >= 0 ? b.CreateConstInBoundsGEP1_64(ptr, f->getArg(0), a)
                 : b.CreateConstInBoundsGEP1_64(ptr, results, k);
      llvm::Value* p = b.CreateLoad(ptr, slot);
      b.CreateStore(p, b.CreateConstInBoundsGEP2_64(type, copy, 0, k));
    }
    results = copy;
  }
  // With profile counters, pair 0 times the whole computation.
  llvm::Value* start = profile != nullptr ? profile->Now(b) : nullptr;
  llvm::Value* status =
      b.CreateCall(entry, {f->getArg(0), results, f->getArg(2)});
  if (profile != nullptr) profile->Add(b, 0, start);
  b.CreateRet(status);
  return f;
}

// The exported entry points:
//   int NAME_run(const T* arg..., T* result..., void* temp);
//   int NAME_run_packed(const void* const* args, void* const* results,
//                       void* temp);
void EmitEntryPoints(llvm::Module& m, const ModelSignature& sig,
                     llvm::Function* checked) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  const size_t n_args = sig.args.size();
  const size_t n_results = sig.results.size();
  // Donated results are no parameters of NAME_run: they come back in their
  // arguments.
  size_t n_own_results = 0;
  for (const TensorInfo& t : sig.results) n_own_results += t.aliased < 0;
  std::vector<llvm::Type*> params(n_args + n_own_results + 1, ptr);
  auto* run = llvm::Function::Create(
      llvm::FunctionType::get(i32, params, false),
      llvm::GlobalValue::ExternalLinkage, sig.name + "_run", m);
  run->addFnAttr(llvm::Attribute::NoUnwind);
  {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", run));
    auto pack = [&](size_t first, size_t count) {
      llvm::Type* type = llvm::ArrayType::get(ptr, std::max<size_t>(count, 1));
      llvm::Value* a = b.CreateAlloca(type);
      for (size_t k = 0; k < count; ++k) {
        b.CreateStore(run->getArg(first + k),
                      b.CreateConstInBoundsGEP2_64(type, a, 0, k));
      }
      return a;
    };
    llvm::Value* args = pack(0, n_args);
    llvm::Type* type =
        llvm::ArrayType::get(ptr, std::max<size_t>(n_results, 1));
    llvm::Value* results = b.CreateAlloca(type);
    for (size_t k = 0, next = n_args; k < n_results; ++k) {
      llvm::Value* p = sig.results[k].aliased >= 0
                           ? llvm::ConstantPointerNull::get(
                                 llvm::PointerType::getUnqual(ctx))
                           : static_cast<llvm::Value*>(run->getArg(next++));
      b.CreateStore(p, b.CreateConstInBoundsGEP2_64(type, results, 0, k));
    }
    b.CreateRet(b.CreateCall(
        checked, {args, results, run->getArg(n_args + n_own_results)}));
  }
  auto* packed = llvm::Function::Create(
      llvm::FunctionType::get(i32, {ptr, ptr, ptr}, false),
      llvm::GlobalValue::ExternalLinkage, sig.name + "_run_packed", m);
  packed->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", packed));
  // The pointer arrays may be null only when they would be empty.
  auto check = [&](llvm::Value* array, size_t count, int code) {
    if (count == 0) return;
    auto* fail = llvm::BasicBlock::Create(ctx, "fail", packed);
    auto* ok = llvm::BasicBlock::Create(ctx, "ok", packed);
    b.CreateCondBr(b.CreateIsNull(array), fail, ok);
    b.SetInsertPoint(fail);
    b.CreateRet(b.getInt32(code));
    b.SetInsertPoint(ok);
  };
  check(packed->getArg(0), n_args, kErrorNullArgument);
  check(packed->getArg(1), n_own_results, kErrorNullResult);
  b.CreateRet(b.CreateCall(checked, {packed->getArg(0), packed->getArg(1),
                                     packed->getArg(2)}));
}

// The whole module through LLVM's pipeline and object emission on this
// thread; `llvm_errors` collects the module context's diagnostics.
absl::Status CompileWhole(
    llvm::Module& m, llvm::TargetMachine& tm, const CompileOptions& options,
    const std::string& target, const std::vector<std::string>& llvm_errors,
    CompiledModel* out,
    const std::function<void(const std::string&)>& end_stage) {
  Optimize(m, tm, options.opt_level, options.size_level);
  if (!options.constants_section.empty()) {
    PlaceConstants(m, options.constants_section);
  }
  out->constants_layout_bytes = SectionBytes(ConstantArrays(m));
  end_stage("LLVM optimization");
  if (options.emit_llvm) {
    llvm::raw_string_ostream os(out->llvm_ir);
    m.print(os, nullptr);
  }
  if (options.emit_asm) {
    // Code generation passes may change the IR they run on; the assembly is
    // emitted from a copy so that the object does not depend on it.
    std::unique_ptr<llvm::Module> copy = llvm::CloneModule(m);
    ASSIGN_OR_RETURN(out->assembly,
                     EmitFile(*copy, tm, llvm::CodeGenFileType::AssemblyFile));
    if (!llvm_errors.empty()) return LlvmErrorStatus(target, llvm_errors);
    end_stage("assembly");
  }
  ASSIGN_OR_RETURN(out->object,
                   EmitFile(m, tm, llvm::CodeGenFileType::ObjectFile));
  if (!llvm_errors.empty()) return LlvmErrorStatus(target, llvm_errors);
  end_stage("object emission");
  return absl::OkStatus();
}

bool IsSectionName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           c == '.' || c == '$';
  });
}

// Sizes of the object's allocated sections by their ELF flags; other object
// formats by LLVM's classification (their read-only data counts as rodata).
absl::StatusOr<Footprint> MeasureObject(const std::string& object,
                                        const std::string& constants_section) {
  llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>> file =
      llvm::object::ObjectFile::createObjectFile(
          llvm::MemoryBufferRef(object, "model.o"));
  if (!file) {
    return absl::InternalError(absl::StrCat(
        "cannot read the emitted object: ",
        llvm::toString(file.takeError())));
  }
  Footprint f;
  f.constants_section = constants_section;
  const bool elf = llvm::isa<llvm::object::ELFObjectFileBase>(**file);
  for (const llvm::object::SectionRef& s : (*file)->sections()) {
    const int64_t size = static_cast<int64_t>(s.getSize());
    llvm::Expected<llvm::StringRef> name = s.getName();
    if (name && !constants_section.empty() && *name == constants_section) {
      f.constants_section_bytes += size;
    }
    if (elf) {
      const uint64_t flags = llvm::object::ELFSectionRef(s).getFlags();
      if (!(flags & llvm::ELF::SHF_ALLOC)) continue;
      if (flags & llvm::ELF::SHF_EXECINSTR) {
        f.text_bytes += size;
      } else if (!(flags & llvm::ELF::SHF_WRITE)) {
        f.rodata_bytes += size;
      } else if (s.isBSS()) {
        f.bss_bytes += size;
      } else {
        f.data_bytes += size;
      }
      continue;
    }
    if (s.isText()) {
      f.text_bytes += size;
    } else if (s.isBSS()) {
      f.bss_bytes += size;
    } else if (s.isData()) {
      f.rodata_bytes += size;
    }
  }
  return f;
}

}  // namespace

std::string HostTriple() { return llvm::sys::getProcessTriple(); }

std::string HostCpu() { return llvm::sys::getHostCPUName().str(); }

std::string HostFeatures() {
  std::vector<std::string> features;
  for (const auto& f : llvm::sys::getHostCPUFeatures()) {
    features.push_back(absl::StrCat(f.getValue() ? "+" : "-", f.getKey().str()));
  }
  std::sort(features.begin(), features.end());
  return absl::StrJoin(features, ",");
}

TargetInfo PlanningTarget(const llvm::TargetMachine& tm,
                          const CompileOptions& options) {
  TargetInfo target = DescribeTarget(tm);
  if (options.l1_cache_bytes > 0) target.l1_bytes = options.l1_cache_bytes;
  if (options.l2_cache_bytes > 0) target.l2_bytes = options.l2_cache_bytes;
  // vdpbf16ps sums round differently from the evaluator's.
  if (options.strict_fp) target.bf16_pair_dot = false;
  return target;
}

absl::StatusOr<CompiledModel> CompileModule(const Module& module,
                                            const CompileOptions& options) {
  if (options.opt_level < 0 || options.opt_level > 3) {
    return absl::InvalidArgumentError("the optimization level must be 0..3");
  }
  if (options.size_level < 0 || options.size_level > 2) {
    return absl::InvalidArgumentError("the size level must be 0..2");
  }
  if (options.compile_threads < 0) {
    return absl::InvalidArgumentError("the compile thread count must be >= 0");
  }
  if (options.partitions < 0 || options.partitions > kMaxPartitions) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the partition count must be 0..", kMaxPartitions));
  }
  if (!options.constants_section.empty() &&
      !IsSectionName(options.constants_section)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "constants section '", options.constants_section,
        "' must be 1 to 64 letters, digits, '_', '.' or '$'"));
  }
  RETURN_IF_ERROR(CheckSupported(module));
  CompiledModel out;
  ASSIGN_OR_RETURN(out.signature, BuildSignature(module, options.name,
                                                 options.cpp_namespace));
  ModelSignature& sig = out.signature;
  ASSIGN_OR_RETURN(const ResolvedTarget resolved,
                   ResolveTarget(options.target_triple, options.cpu,
                                 options.features));
  sig.target_triple = resolved.triple;
  sig.cpu = resolved.cpu;
  sig.features = resolved.features;
  sig.abi = resolved.abi;
  ASSIGN_OR_RETURN(
      std::unique_ptr<llvm::TargetMachine> tm,
      CreateTargetMachine(resolved, options.pic, options.opt_level));
  // LLVM's remaining fatal errors name this target (InstallFatalErrorHandler).
  ScopedCodegenTarget fatal_error_context(resolved);
  sig.aotc_version = AOTC_VERSION;

  auto stage_start = std::chrono::steady_clock::now();
  auto end_stage = [&](const std::string& stage) {
    const auto now = std::chrono::steady_clock::now();
    out.stage_seconds.push_back(
        {stage, std::chrono::duration<double>(now - stage_start).count()});
    stage_start = now;
  };
  llvm::LLVMContext ctx;
  std::vector<std::string> llvm_errors;
  CollectDiagnostics(ctx, &llvm_errors);
  llvm::Module m(sig.name, ctx);
  m.setSourceFileName(sig.name);
  m.setTargetTriple(sig.target_triple);
  m.setDataLayout(tm->createDataLayout());
  if (!resolved.abi.empty()) {
    m.addModuleFlag(llvm::Module::Error, "target-abi",
                    llvm::MDString::get(ctx, resolved.abi));
  }
  ModuleContext mc(m, sig.name);
  mc.set_strict_fp(options.strict_fp);
  const TargetInfo target = PlanningTarget(*tm, options);
  mc.set_target(target);
  std::optional<ProfileCounters> profile;
  if (options.profile) {
    profile.emplace(m, sig.name);
    mc.set_profile(&*profile);
  }
  ASSIGN_OR_RETURN(BufferFunction entry, mc.GetBufferFunction(*module.entry()));
  sig.temp_bytes = entry.temp_bytes;
  sig.external_functions.assign(mc.external_functions().begin(),
                                mc.external_functions().end());
  EmitEntryPoints(m, sig,
                  EmitChecked(m, sig, entry.function, entry.temp_bytes,
                              profile ? &*profile : nullptr));
  if (profile) {
    profile->Finish();
    sig.profile = true;
    sig.profile_regions = profile->regions();
    sig.profile_ticks_function =
        m.getFunction("aotc_profile_ticks") != nullptr;
  }
  for (llvm::Function& f : m) {
    if (f.isDeclaration()) continue;
    f.addFnAttr("target-cpu", sig.cpu);
    if (options.size_level >= 1) f.addFnAttr(llvm::Attribute::OptimizeForSize);
    if (options.size_level == 2) f.addFnAttr(llvm::Attribute::MinSize);
    if (!sig.features.empty()) f.addFnAttr("target-features", sig.features);
  }
  ReplaceSoftFloatSqrt(m, target);
  end_stage("lower to LLVM IR");
  std::string verify_errors;
  llvm::raw_string_ostream verify_os(verify_errors);
  if (llvm::verifyModule(m, &verify_os)) {
    return absl::InternalError(
        absl::StrCat("internal error: invalid LLVM IR generated:\n",
                     verify_errors));
  }
  end_stage("verify LLVM IR");
  const bool splittable = AssemblyRoundTripTested(tm->getTargetTriple());
  if (options.partitions > 1 && !splittable) {
    return absl::InvalidArgumentError(absl::StrCat(
        "compiling in partitions needs an ELF x86-64 or AArch64 target, not ",
        sig.target_triple));
  }
  const int partitions = options.partitions > 0 ? options.partitions
                         : splittable           ? PartitionCount(m)
                                                : 1;
  if (partitions > 1) {
    const int threads =
        options.compile_threads > 0
            ? options.compile_threads
            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    RETURN_IF_ERROR(CompileInPartitions(m, partitions, threads, resolved,
                                        options, *tm, &out, end_stage));
  } else {
    RETURN_IF_ERROR(CompileWhole(m, *tm, options, resolved.ToString(),
                                 llvm_errors, &out, end_stage));
  }
  ASSIGN_OR_RETURN(sig.footprint,
                   MeasureObject(out.object, options.constants_section));
  // The object's own section where there is one; the layout otherwise
  // (tests/cli/constants_bytes.test checks that the two agree).
  sig.footprint.constants_bytes = options.constants_section.empty()
                                      ? out.constants_layout_bytes
                                      : sig.footprint.constants_section_bytes;
  out.header = GenerateHeader(sig);
  out.json = GenerateJson(sig, &module);
  return out;
}

}  // namespace aotc::codegen
