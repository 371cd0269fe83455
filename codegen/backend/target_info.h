// What the strategies need to know about the target's vector unit and
// caches: enough to size a GEMM microkernel's register tile and its cache
// blocks. Derived from the target machine's CPU and features; the cache
// sizes are typical values for the class of core (the CPU name does not
// carry them) and can be overridden (CompileOptions::gemm_blocking).
#ifndef AOTC_CODEGEN_BACKEND_TARGET_INFO_H_
#define AOTC_CODEGEN_BACKEND_TARGET_INFO_H_

#include <cstdint>
#include <string>

namespace llvm {
class TargetMachine;
}

namespace aotc::codegen {

struct TargetInfo {
  // Bytes of one vector register (0 when the target has no vector unit the
  // microkernel may use: it then keeps one element per register) and how
  // many registers there are.
  int vector_bytes = 16;
  int vector_registers = 16;
  // Level-1 data and level-2 cache bytes per core.
  int64_t l1_bytes = 32 << 10;
  int64_t l2_bytes = 512 << 10;
  // Whether f32 and f64 arithmetic is in hardware. Without it LLVM calls
  // the compiler runtime's soft-float helpers and cannot lower some
  // intrinsics (llvm.maximum), so code generation avoids those.
  bool hardware_f32 = true;
  bool hardware_f64 = true;
  // x86 AVX512-BF16: vdpbf16ps multiplies pairs of bf16 values and adds
  // both products into f32 lanes. Its sums round differently from the
  // evaluator's (docs/math.md), so compilation turns it off under
  // CompileOptions::strict_fp.
  bool bf16_pair_dot = false;
  // x86 AVX512-VNNI: vpdpbusd multiplies four u8 x s8 pairs and adds them
  // into s32 lanes (exact, wrapping like the evaluator's sums).
  bool s8_quad_dot = false;

  bool HasHardwareFloat(int bits) const {
    return bits <= 32 ? hardware_f32 : hardware_f64;
  }

  std::string ToString() const;
};

// The vector unit of `tm`'s CPU and features: AVX-512 (64 bytes, 32
// registers; bf16_pair_dot with AVX512-BF16, s8_quad_dot with AVX512-VNNI), AVX (32, 16), SSE2 (16, 16) on x86; NEON on AArch64 (16, 32)
// and 32-bit Arm (16, 16); otherwise scalar (0 bytes, 16 registers). The
// hardware float types are those LLVM's instruction selection keeps in
// registers for the CPU and features (Cortex-M4: f32 only; RISC-V: with the
// F and D extensions).
TargetInfo DescribeTarget(const llvm::TargetMachine& tm);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_BACKEND_TARGET_INFO_H_
