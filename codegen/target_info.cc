// The target description of target_info.h.
#include "codegen/target_info.h"

#include "absl/strings/str_cat.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

namespace aotc::codegen {

std::string TargetInfo::ToString() const {
  return absl::StrCat(vector_registers, " x ", vector_bytes,
                      "-byte vector registers, L1 ", l1_bytes >> 10,
                      " KiB, L2 ", l2_bytes >> 10, " KiB");
}

TargetInfo DescribeTarget(const llvm::TargetMachine& tm) {
  const llvm::MCSubtargetInfo& sti = *tm.getMCSubtargetInfo();
  const llvm::Triple& triple = tm.getTargetTriple();
  TargetInfo t;
  t.vector_bytes = 0;
  t.vector_registers = 16;
  if (triple.isX86()) {
    if (sti.checkFeatures("+avx512f")) {
      t.vector_bytes = 64;
      t.vector_registers = 32;
      t.l1_bytes = 48 << 10;
      t.l2_bytes = 1 << 20;
    } else if (sti.checkFeatures("+avx")) {
      t.vector_bytes = 32;
    } else if (sti.checkFeatures("+sse2")) {
      t.vector_bytes = 16;
    }
  } else if (triple.isAArch64()) {
    if (sti.checkFeatures("+neon")) {
      t.vector_bytes = 16;
      t.vector_registers = 32;
      t.l1_bytes = 64 << 10;
    }
  } else if (triple.isARM() || triple.isThumb()) {
    if (sti.checkFeatures("+neon")) t.vector_bytes = 16;
    t.hardware_f32 = sti.checkFeatures("+fpregs");
    t.hardware_f64 = sti.checkFeatures("+fpregs,+fp64");
    t.l1_bytes = 16 << 10;
    t.l2_bytes = 128 << 10;
  } else {
    if (triple.isRISCV()) {
      t.hardware_f32 = sti.checkFeatures("+f");
      t.hardware_f64 = sti.checkFeatures("+d");
    }
    t.l1_bytes = 16 << 10;
    t.l2_bytes = 128 << 10;
  }
  return t;
}

}  // namespace aotc::codegen
