// The target description of target_info.h.
#include "codegen/backend/target_info.h"

#include "absl/strings/str_cat.h"
#include "llvm/CodeGen/TargetLowering.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/CodeGenTypes/MachineValueType.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

namespace aotc::codegen {

std::string TargetInfo::ToString() const {
  return absl::StrCat(vector_registers, " x ", vector_bytes,
                      "-byte vector registers, L1 ", l1_bytes >> 10,
                      " KiB, L2 ", l2_bytes >> 10, " KiB",
                      bf16_pair_dot ? ", bf16 pair dot" : "",
                      s8_quad_dot ? ", s8 quad dot" : "");
}

namespace {

// Whether the target computes f32 and f64 in registers of their own: what
// LLVM's instruction selection for `tm`'s CPU and features says, for any target
// (x86 without x87 and SSE, AArch64 without FP, MSP430 have neither; a
// Cortex-M4 has f32 only).
void SetHardwareFloats(const llvm::TargetMachine& tm, TargetInfo* t) {
  llvm::LLVMContext ctx;
  llvm::Module m("probe", ctx);
  m.setDataLayout(tm.createDataLayout());
  auto* f = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false),
      llvm::GlobalValue::ExternalLinkage, "probe", m);
  const llvm::TargetSubtargetInfo* sti = tm.getSubtargetImpl(*f);
  if (sti == nullptr || sti->getTargetLowering() == nullptr) return;
  const llvm::TargetLowering& lowering = *sti->getTargetLowering();
  // A legal type may still be computed by library calls (f64 on Cortex-M4
  // lives in D registers for moves only): addition must be legal too.
  auto in_hardware = [&](llvm::MVT type) {
    return lowering.isTypeLegal(type) &&
           lowering.isOperationLegalOrCustom(llvm::ISD::FADD, type);
  };
  t->hardware_f32 = in_hardware(llvm::MVT::f32);
  t->hardware_f64 = in_hardware(llvm::MVT::f64);
}

}  // namespace

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
      t.bf16_pair_dot = sti.checkFeatures("+avx512bf16");
      t.s8_quad_dot = sti.checkFeatures("+avx512vnni");
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
    t.l1_bytes = 16 << 10;
    t.l2_bytes = 128 << 10;
  } else {
    t.l1_bytes = 16 << 10;
    t.l2_bytes = 128 << 10;
  }
  SetHardwareFloats(tm, &t);
  return t;
}

}  // namespace aotc::codegen
