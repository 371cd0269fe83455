// Target defaults, up-front checks and LLVM's fatal error handler (see
// target_machine.h).
#include "codegen/backend/target_machine.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "codegen/compile.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/ARMTargetParser.h"
#include "llvm/TargetParser/Triple.h"

namespace aotc::codegen {
namespace {

// What a triple alone means when the user names no CPU and no features: the
// defaults of the target's usual C compiler (GCC's --with-arch/--with-abi
// of Debian's cross compilers, clang's per-architecture CPU). The first rule
// whose predicate holds applies; the list documents the priorities.
struct TargetDefault {
  bool (*matches)(const llvm::Triple& triple);
  // Fills an empty CPU, and the features when `cpu_given` is false.
  void (*apply)(const llvm::Triple& triple, bool cpu_given,
                ResolvedTarget* target);
};

const TargetDefault kTargetDefaults[] = {
    // rv64gc: integer multiply, atomics, single and double float,
    // compressed instructions (what riscv64-linux-gnu-gcc assumes).
    {[](const llvm::Triple& t) { return t.isRISCV64(); },
     [](const llvm::Triple&, bool cpu_given, ResolvedTarget* r) {
       if (r->cpu.empty()) r->cpu = "generic-rv64";
       if (!cpu_given && r->features.empty()) r->features = "+m,+a,+f,+d,+c";
     }},
    // rv32imac: the common microcontroller profile, without an FPU.
    {[](const llvm::Triple& t) { return t.isRISCV32(); },
     [](const llvm::Triple&, bool cpu_given, ResolvedTarget* r) {
       if (r->cpu.empty()) r->cpu = "generic-rv32";
       if (!cpu_given && r->features.empty()) r->features = "+m,+a,+c";
     }},
    // 32-bit Arm: the CPU that the architecture names (thumbv7em ->
    // cortex-m4, thumbv7m -> cortex-m3, thumbv6m -> cortex-m0, armv7 ->
    // generic), as clang picks it; its FPU comes with it.
    {[](const llvm::Triple& t) { return t.isARM() || t.isThumb(); },
     [](const llvm::Triple& t, bool, ResolvedTarget* r) {
       if (r->cpu.empty()) r->cpu = llvm::ARM::getARMCPUForArch(t).str();
       if (r->cpu.empty()) r->cpu = "generic";
     }},
    // Everything else (AArch64 has NEON in "generic"): the generic CPU.
    {[](const llvm::Triple&) { return true; },
     [](const llvm::Triple&, bool, ResolvedTarget* r) {
       if (r->cpu.empty()) r->cpu = "generic";
     }},
};

bool UsesHardFloatAbi(const llvm::Triple& triple) {
  switch (triple.getEnvironment()) {
    case llvm::Triple::EABIHF:
    case llvm::Triple::GNUEABIHF:
    case llvm::Triple::MuslEABIHF:
      return true;
    default:
      return false;
  }
}

// Every "+name" / "-name" must name a feature of the target: LLVM itself
// only warns about unknown ones and ignores them.
absl::Status CheckFeatures(const std::string& features,
                           const std::string& triple,
                           const llvm::MCSubtargetInfo& table) {
  for (absl::string_view f : absl::StrSplit(features, ',')) {
    if (f.empty()) continue;
    if (f[0] != '+' && f[0] != '-') {
      return absl::InvalidArgumentError(
          absl::StrCat("feature '", f, "' must start with '+' or '-'"));
    }
    const std::string name(f.substr(1));
    bool known = false;
    for (const llvm::SubtargetFeatureKV& kv : table.getAllProcessorFeatures()) {
      if (name == kv.Key) known = true;
    }
    if (!known) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown feature '", name, "' for target ", triple));
    }
  }
  return absl::OkStatus();
}

// RISC-V's ABI follows the floating-point registers the target has, as
// GCC's default for rv64gc (lp64d) and rv32imac (ilp32).
std::string RiscvAbi(const llvm::Triple& triple,
                     const llvm::MCSubtargetInfo& sti) {
  const std::string base = triple.isRISCV64() ? "lp64" : "ilp32";
  if (sti.checkFeatures("+e")) return base + "e";  // RV32E/RV64E
  if (sti.checkFeatures("+d")) return base + "d";
  if (sti.checkFeatures("+f")) return base + "f";
  return base;
}

// Architectures aotc refuses although LLVM has them, and why: aotc emits
// code for CPUs (a caller's stack, flat pointers), and LLVM 19's M68k
// backend crashes on it.
std::optional<std::string> RefusedArchitecture(const llvm::Triple& t) {
  if (t.isAMDGPU() || t.isNVPTX() || t.isSPIRV()) {
    return "aotc compiles for CPUs; " + t.getArchName().str() +
           " is a GPU target";
  }
  if (t.getArch() == llvm::Triple::m68k) {
    return std::string("LLVM 19's M68k backend is experimental and crashes "
                       "on aotc's code");
  }
  return std::nullopt;
}

thread_local const ResolvedTarget* current_target = nullptr;

void OnFatalError(void*, const char* reason, bool) {
  std::fflush(stdout);
  if (current_target != nullptr) {
    std::fprintf(stderr, "aotc: error: LLVM cannot generate code for %s: %s\n",
                 current_target->ToString().c_str(), reason);
  } else {
    std::fprintf(stderr, "aotc: error: LLVM failed: %s\n", reason);
  }
  std::fflush(stderr);
  // LLVM's state is unknown after a fatal error: no destructors.
  std::_Exit(1);
}

}  // namespace

std::string ResolvedTarget::ToString() const {
  std::string s = absl::StrCat(triple, " (cpu ", cpu);
  if (!features.empty()) absl::StrAppend(&s, ", features ", features);
  if (!abi.empty()) absl::StrAppend(&s, ", abi ", abi);
  return s + ")";
}

void InitializeLlvmTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    // The assembler joins the partitions of a split module (object_assembler.h).
    llvm::InitializeAllAsmParsers();
  });
}

absl::StatusOr<ResolvedTarget> ResolveTarget(const std::string& triple,
                                             const std::string& cpu,
                                             const std::string& features) {
  InitializeLlvmTargets();
  ResolvedTarget r;
  r.cpu = cpu;
  r.features = features;
  const bool host = triple.empty();
  r.triple = host ? HostTriple() : llvm::Triple::normalize(triple);
  const llvm::Triple t(r.triple);
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(r.triple, error);
  if (target == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown target triple '", r.triple, "': ", error));
  }
  if (std::optional<std::string> why = RefusedArchitecture(t)) {
    return absl::InvalidArgumentError(
        absl::StrCat("target ", r.triple, " is not supported: ", *why));
  }
  if (host) {
    if (r.cpu.empty()) {
      r.cpu = HostCpu();
      if (r.features.empty()) r.features = HostFeatures();
    }
  } else {
    for (const TargetDefault& d : kTargetDefaults) {
      if (!d.matches(t)) continue;
      d.apply(t, !cpu.empty(), &r);
      break;
    }
  }
  std::unique_ptr<llvm::MCSubtargetInfo> table(
      target->createMCSubtargetInfo(r.triple, "", ""));
  if (table == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("no subtarget description for ", r.triple));
  }
  if (r.cpu == "generic" && !table->isCPUStringValid(r.cpu) &&
      !table->getAllProcessorDescriptions().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("target ", r.triple, " has no generic CPU; give one "
                     "with --cpu (e.g. ",
                     table->getAllProcessorDescriptions().front().Key, ")"));
  }
  if (r.cpu != "generic" && !table->isCPUStringValid(r.cpu)) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown CPU '", r.cpu, "' for target ", r.triple));
  }
  // The user's features; the host's and the defaults come from LLVM.
  if (absl::Status st = CheckFeatures(features, r.triple, *table); !st.ok()) {
    return st;
  }
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(r.triple, r.cpu, r.features));
  if (t.isRISCV()) {
    if (sti->checkFeatures("+64bit") != t.isArch64Bit()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "CPU '", r.cpu, "' is not a ", t.isArch64Bit() ? "64" : "32",
          "-bit RISC-V CPU, as target ", r.triple, " needs"));
    }
    r.abi = RiscvAbi(t, *sti);
  }
  if ((t.isARM() || t.isThumb()) && UsesHardFloatAbi(t) &&
      !sti->checkFeatures("+fpregs")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "target ", r.triple, " passes floats in FPU registers (hard-float "
        "ABI) but CPU '", r.cpu, "' has no FPU with these features; give a "
        "CPU with one (e.g. --cpu cortex-m4) or use an *eabi triple"));
  }
  return r;
}

absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> CreateTargetMachine(
    const ResolvedTarget& r, bool pic, int opt_level) {
  InitializeLlvmTargets();
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(r.triple, error);
  if (target == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown target triple '", r.triple, "': ", error));
  }
  llvm::TargetOptions options;
  options.MCOptions.ABIName = r.abi;
  static const llvm::CodeGenOptLevel kLevels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      r.triple, r.cpu, r.features, options,
      pic ? llvm::Reloc::PIC_ : llvm::Reloc::Static, std::nullopt,
      kLevels[std::clamp(opt_level, 0, 3)]));
  if (tm == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot create a code generator for ", r.ToString()));
  }
  return tm;
}

void InstallFatalErrorHandler() {
  static std::once_flag once;
  std::call_once(once,
                 [] { llvm::install_fatal_error_handler(OnFatalError, nullptr); });
}

ScopedCodegenTarget::ScopedCodegenTarget(const ResolvedTarget& target)
    : previous_(current_target) {
  current_target = &target;
}

ScopedCodegenTarget::~ScopedCodegenTarget() { current_target = previous_; }

}  // namespace aotc::codegen
