// One object from the assembly of several partitions (module_split.h).
//
// JoinAssembly concatenates the partitions' assembly text into one
// translation unit: the private labels of partitions 1, 2, ... (".LBB3_1",
// ".LCPI0_0", ".Ltmp7", numbered per module, so they clash between
// partitions) get a partition prefix (".L2.BB3_1"), the `.file` directive is
// kept once, and
// the symbols SplitModule made hidden externals lose their `.globl` and
// `.hidden` directives, so that they are local symbols of the object as on
// the unsplit path. Quoted strings are left alone.
//
// AssembleObject runs LLVM's assembler in process with the target machine's
// own MC descriptions and options; for the same assembly it gives the bytes
// direct object emission gives (tests/cli/parallel_compile.test checks this
// with one partition). Only targets whose assembly round trip is tested take
// this path (AssemblyRoundTripTested).
#ifndef AOTC_CODEGEN_BACKEND_OBJECT_ASSEMBLER_H_
#define AOTC_CODEGEN_BACKEND_OBJECT_ASSEMBLER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace llvm {
class TargetMachine;
class Triple;
}

namespace aotc::codegen {

// ELF x86-64 and AArch64.
bool AssemblyRoundTripTested(const llvm::Triple& triple);

std::string JoinAssembly(const std::vector<std::string>& parts,
                         const std::vector<std::string>& externalized);

// Errors (Internal) quote the assembler's message and line.
absl::StatusOr<std::string> AssembleObject(const std::string& assembly,
                                           const llvm::TargetMachine& tm);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_BACKEND_OBJECT_ASSEMBLER_H_
