// LLVM's pipeline and file emission for one module (see llvm_pipeline.h).
#include "codegen/backend/llvm_pipeline.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

namespace aotc::codegen {

void Optimize(llvm::Module& m, llvm::TargetMachine& tm, int level,
              int size_level) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  static const llvm::OptimizationLevel* kLevels[] = {
      &llvm::OptimizationLevel::O0, &llvm::OptimizationLevel::O1,
      &llvm::OptimizationLevel::O2, &llvm::OptimizationLevel::O3};
  const llvm::OptimizationLevel& chosen =
      size_level == 2   ? llvm::OptimizationLevel::Oz
      : size_level == 1 ? llvm::OptimizationLevel::Os
                        : *kLevels[level];
  llvm::ModulePassManager mpm =
      level == 0 && size_level == 0
          ? pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
          : pb.buildPerModuleDefaultPipeline(chosen);
  mpm.run(m, mam);
}

namespace {

bool IsConstantArray(const llvm::GlobalVariable& g) {
  return !g.isDeclaration() && g.isConstant();
}

}  // namespace

void PlaceConstants(llvm::Module& m, const std::string& section) {
  for (llvm::GlobalVariable& g : m.globals()) {
    if (!IsConstantArray(g)) continue;
    g.setSection(section);
    // An unnamed_addr constant of 4, 8, 16 or 32 bytes, or one that reads
    // as a C string, would be mergeable: LLVM would give it a further
    // section of the same name, numbered by a counter of the target
    // machine, so partitions compiled on one worker's machine would number
    // them by schedule and clash in the joined assembly. One plain section
    // holds every array instead; the code reaches them as before.
    g.setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::None);
  }
}

std::vector<ConstantArray> ConstantArrays(const llvm::Module& m) {
  const llvm::DataLayout& dl = m.getDataLayout();
  std::vector<ConstantArray> arrays;
  for (const llvm::GlobalVariable& g : m.globals()) {
    if (!IsConstantArray(g)) continue;
    const int64_t bytes =
        static_cast<int64_t>(dl.getTypeAllocSize(g.getValueType()));
    // In a named section the assembler honours an explicit alignment as it
    // is; aotc gives every constant one, DataLayout decides for the rest.
    const llvm::Align align = g.getAlign().value_or(dl.getPreferredAlign(&g));
    arrays.push_back({std::max<int64_t>(bytes, 1),
                      static_cast<int64_t>(align.value())});
  }
  return arrays;
}

int64_t SectionBytes(const std::vector<ConstantArray>& arrays) {
  int64_t end = 0;
  for (const ConstantArray& a : arrays) {
    end = (end + a.alignment - 1) / a.alignment * a.alignment + a.bytes;
  }
  return end;
}

absl::StatusOr<std::string> EmitFile(llvm::Module& m, llvm::TargetMachine& tm,
                                     llvm::CodeGenFileType type) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, type)) {
    return absl::InternalError("the target cannot emit this file type");
  }
  pm.run(m);
  return std::string(buffer.begin(), buffer.end());
}

void CollectDiagnostics(llvm::LLVMContext& ctx,
                        std::vector<std::string>* errors) {
  ctx.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo* info, void* context) {
        const llvm::DiagnosticSeverity severity = info->getSeverity();
        if (severity != llvm::DS_Error && severity != llvm::DS_Warning) return;
        std::string text;
        llvm::raw_string_ostream os(text);
        llvm::DiagnosticPrinterRawOStream printer(os);
        info->print(printer);
        if (severity == llvm::DS_Warning) {
          std::fprintf(stderr, "aotc: warning: %s\n", os.str().c_str());
          return;
        }
        static_cast<std::vector<std::string>*>(context)->push_back(os.str());
      },
      errors);
}

absl::Status LlvmErrorStatus(const std::string& target,
                             const std::vector<std::string>& errors) {
  return absl::InvalidArgumentError(
      absl::StrCat("LLVM cannot generate code for ", target, ": ",
                   absl::StrJoin(errors, "; ")));
}

}  // namespace aotc::codegen
