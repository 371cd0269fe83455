// ResolveTarget: the defaults a bare triple gets, and the combinations it
// refuses before LLVM could abort on them.
#include "codegen/backend/target_machine.h"

#include <gtest/gtest.h>

#include "codegen/backend/target_info.h"
#include "codegen/compile.h"
#include "llvm/Target/TargetMachine.h"

namespace aotc::codegen {
namespace {

ResolvedTarget Resolve(const std::string& triple, const std::string& cpu = "",
                       const std::string& features = "") {
  absl::StatusOr<ResolvedTarget> r = ResolveTarget(triple, cpu, features);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : ResolvedTarget();
}

std::string ErrorOf(const std::string& triple, const std::string& cpu,
                    const std::string& features) {
  absl::StatusOr<ResolvedTarget> r = ResolveTarget(triple, cpu, features);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : std::string(r.status().message());
}

TEST(ResolveTargetTest, Riscv64AloneIsRv64gcWithLp64d) {
  const ResolvedTarget r = Resolve("riscv64-linux-gnu");
  EXPECT_EQ(r.triple, "riscv64-unknown-linux-gnu");
  EXPECT_EQ(r.cpu, "generic-rv64");
  EXPECT_EQ(r.features, "+m,+a,+f,+d,+c");
  EXPECT_EQ(r.abi, "lp64d");
}

TEST(ResolveTargetTest, RiscvAbiFollowsTheFloatExtensions) {
  EXPECT_EQ(Resolve("riscv64-linux-gnu", "", "+m,+a,+f,+c").abi, "lp64f");
  EXPECT_EQ(Resolve("riscv64-linux-gnu", "", "+m,+a,+c").abi, "lp64");
  EXPECT_EQ(Resolve("riscv32-none-elf").abi, "ilp32");
  // A named CPU keeps its own extensions: the SiFive U74 has D.
  const ResolvedTarget u74 = Resolve("riscv64-linux-gnu", "sifive-u74");
  EXPECT_EQ(u74.features, "");
  EXPECT_EQ(u74.abi, "lp64d");
}

TEST(ResolveTargetTest, CortexMTriplesTakeTheirArchitecturesCpu) {
  EXPECT_EQ(Resolve("thumbv7em-none-eabihf").cpu, "cortex-m4");
  EXPECT_EQ(Resolve("thumbv7m-none-eabi").cpu, "cortex-m3");
  EXPECT_EQ(Resolve("thumbv6m-none-eabi").cpu, "cortex-m0");
  EXPECT_EQ(Resolve("thumbv7em-none-eabihf", "cortex-m7").cpu, "cortex-m7");
  EXPECT_EQ(Resolve("aarch64-linux-gnu").cpu, "generic");
}

TEST(ResolveTargetTest, ImpossibleCombinationsAreErrors) {
  EXPECT_EQ(ErrorOf("thumbv7em-none-eabihf", "cortex-m3", ""),
            "target thumbv7em-unknown-none-eabihf passes floats in FPU "
            "registers (hard-float ABI) but CPU 'cortex-m3' has no FPU with "
            "these features; give a CPU with one (e.g. --cpu cortex-m4) or "
            "use an *eabi triple");
  EXPECT_EQ(ErrorOf("riscv64-linux-gnu", "generic-rv32", ""),
            "CPU 'generic-rv32' is not a 64-bit RISC-V CPU, as target "
            "riscv64-unknown-linux-gnu needs");
  EXPECT_EQ(ErrorOf("riscv32-none-elf", "generic-rv64", ""),
            "CPU 'generic-rv64' is not a 32-bit RISC-V CPU, as target "
            "riscv32-unknown-none-elf needs");
  EXPECT_EQ(ErrorOf("aarch64-linux-gnu", "", "+nosuch"),
            "unknown feature 'nosuch' for target aarch64-unknown-linux-gnu");
  EXPECT_EQ(ErrorOf("aarch64-linux-gnu", "", "neon"),
            "feature 'neon' must start with '+' or '-'");
  EXPECT_EQ(ErrorOf("aarch64-linux-gnu", "cortex-m4", ""),
            "unknown CPU 'cortex-m4' for target aarch64-unknown-linux-gnu");
  EXPECT_EQ(ErrorOf("nvptx64-nvidia-cuda", "", ""),
            "target nvptx64-nvidia-cuda is not supported: aotc compiles for "
            "CPUs; nvptx64 is a GPU target");
  EXPECT_EQ(ErrorOf("avr-none-none", "", "").substr(0, 54),
            "target avr-none-none has no generic CPU; give one with");
  EXPECT_EQ(Resolve("avr-none-none", "atmega328p").cpu, "atmega328p");
}

TEST(ResolveTargetTest, RiscvEmbeddedBaseIsaTakesTheEAbi) {
  EXPECT_EQ(Resolve("riscv32-none-elf", "", "+e,+m,+c").abi, "ilp32e");
}

TEST(ResolveTargetTest, HardwareFloatsOfTheTarget) {
  auto describe = [](const std::string& triple, const std::string& cpu,
                     const std::string& features) {
    absl::StatusOr<ResolvedTarget> r = ResolveTarget(triple, cpu, features);
    EXPECT_TRUE(r.ok()) << r.status();
    absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> tm =
        CreateTargetMachine(*r, /*pic=*/false, 2);
    EXPECT_TRUE(tm.ok()) << tm.status();
    return DescribeTarget(**tm);
  };
  const TargetInfo m4 = describe("thumbv7em-none-eabihf", "", "");
  EXPECT_TRUE(m4.hardware_f32);
  EXPECT_FALSE(m4.hardware_f64);
  const TargetInfo m3 = describe("thumbv7m-none-eabi", "", "");
  EXPECT_FALSE(m3.hardware_f32);
  EXPECT_FALSE(m3.hardware_f64);
  const TargetInfo rv = describe("riscv64-linux-gnu", "", "");
  EXPECT_TRUE(rv.hardware_f32);
  EXPECT_TRUE(rv.hardware_f64);
  const TargetInfo rv_soft = describe("riscv64-linux-gnu", "", "+m,+a,+c");
  EXPECT_FALSE(rv_soft.hardware_f32);
  EXPECT_FALSE(rv_soft.hardware_f64);
  EXPECT_TRUE(describe("aarch64-linux-gnu", "", "").hardware_f64);
  const TargetInfo no_fp = describe("x86_64-linux-gnu", "", "-x87,-sse");
  EXPECT_FALSE(no_fp.hardware_f32);
  EXPECT_FALSE(no_fp.hardware_f64);
}

TEST(ResolveTargetTest, HostKeepsItsCpuAndFeatures) {
  const ResolvedTarget r = Resolve("");
  EXPECT_EQ(r.triple, HostTriple());
  EXPECT_EQ(r.cpu, HostCpu());
  EXPECT_EQ(r.features, HostFeatures());
}

}  // namespace
}  // namespace aotc::codegen
