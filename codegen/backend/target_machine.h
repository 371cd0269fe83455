// Choosing and checking the target before any code is generated.
//
// ResolveTarget completes what the user gave (triple, CPU, features) with
// the usual defaults of the triple, the way the target's C compiler does:
// riscv64 is rv64gc with the lp64d ABI, a Cortex-M triple gets the CPU its
// architecture names (thumbv7em -> cortex-m4), and so on (kTargetDefaults in
// target_machine.cc, in order). It then checks the result against LLVM's own
// tables (known triple, CPU and features; a hard-float ABI with an FPU; a
// 64-bit triple with a 64-bit CPU), so that combinations LLVM would abort on
// are errors instead. CreateTargetMachine builds LLVM's TargetMachine for a
// resolved target.
//
// LLVM still reports some failures with report_fatal_error, which would end
// the process; InstallFatalErrorHandler (called by the aotc tool) turns them
// into "aotc: error: ..." and exit status 1, naming the target being
// compiled for (ScopedCodegenTarget).
#ifndef AOTC_CODEGEN_BACKEND_TARGET_MACHINE_H_
#define AOTC_CODEGEN_BACKEND_TARGET_MACHINE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace llvm {
class TargetMachine;
}

namespace aotc::codegen {

struct ResolvedTarget {
  std::string triple;    // normalized
  std::string cpu;
  std::string features;  // "+a,-b"
  // LLVM's ABI name where the target has several (RISC-V "lp64d"); empty
  // for the target's only or default ABI.
  std::string abi;

  // "riscv64-unknown-linux-gnu (cpu generic-rv64, features +m,+a, abi
  // lp64d)" for messages.
  std::string ToString() const;
};

// Empty `triple`: this host, with its CPU and features unless `cpu` is
// given. Errors (InvalidArgument): an unknown triple, CPU or feature, a CPU
// of the wrong word size, a hard-float ABI (*eabihf) without an FPU.
absl::StatusOr<ResolvedTarget> ResolveTarget(const std::string& triple,
                                             const std::string& cpu,
                                             const std::string& features);

absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> CreateTargetMachine(
    const ResolvedTarget& target, bool pic, int opt_level);

// Registers every target LLVM was built with (once).
void InitializeLlvmTargets();

// Installs LLVM's fatal error handler: print "aotc: error: LLVM cannot
// generate code for TARGET: REASON" and exit with status 1.
void InstallFatalErrorHandler();

// While alive, the fatal error handler names `target` (on this thread).
class ScopedCodegenTarget {
 public:
  explicit ScopedCodegenTarget(const ResolvedTarget& target);
  ~ScopedCodegenTarget();
  ScopedCodegenTarget(const ScopedCodegenTarget&) = delete;
  ScopedCodegenTarget& operator=(const ScopedCodegenTarget&) = delete;

 private:
  const ResolvedTarget* previous_;
};

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_BACKEND_TARGET_MACHINE_H_
