// The emitted object is self-contained: its undefined symbols are only
// memcpy, memset, memmove and aotc_* runtime functions (no libm, no compiler
// runtime), and every symbol it defines globally carries the model's name as
// prefix, so several models link into one program. Checked for every
// transcendental and conversion (minifloats, sub-byte integers and complex
// numbers included),
// at -O0 and -O2, for this host and for
// baseline x86-64 and AArch64 CPUs (where rounding or half-precision
// instructions are missing and LLVM would otherwise call libm or
// compiler-rt). A model with external calls (custom-calls) adds exactly
// their functions to the undefined symbols. On targets without hardware
// floats (Cortex-M3, the f64 of Cortex-M4, soft-float RISC-V) the compiler
// runtime's soft-float and 64-bit integer helpers come in, and only those:
// the exact list per target, still no libm.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "codegen/tests/codegen_test_util.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

namespace aotc::codegen::testing {
namespace {

constexpr const char* kEveryMathOp = R"(HloModule m
ENTRY e {
  x = f32[64] parameter(0)
  y = f32[64] parameter(1)
  h = f16[64] parameter(2)
  d = f64[64] parameter(3)
  b = bf16[64] parameter(4)
  z = c64[64] parameter(5)
  w = c128[64] parameter(6)
  e1 = f32[64] exponential(x)
  e2 = f32[64] exponential-minus-one(e1)
  e3 = f32[64] log(e2)
  e4 = f32[64] log-plus-one(e3)
  e5 = f32[64] tanh(e4)
  e6 = f32[64] logistic(e5)
  e7 = f32[64] erf(e6)
  e8 = f32[64] sqrt(e7)
  e9 = f32[64] rsqrt(e8)
  e10 = f32[64] cbrt(e9)
  e11 = f32[64] sine(e10)
  e12 = f32[64] cosine(e11)
  e13 = f32[64] tan(e12)
  e14 = f32[64] power(e13, y)
  e15 = f32[64] atan2(e14, y)
  e16 = f32[64] remainder(e15, y)
  e17 = f32[64] floor(e16)
  e18 = f32[64] ceil(e17)
  e19 = f32[64] round-nearest-afz(e18)
  e20 = f32[64] round-nearest-even(e19)
  h1 = f16[64] convert(e20)
  h2 = f16[64] exponential(h1)
  h3 = f16[64] add(h2, h)
  d1 = f64[64] convert(h3)
  d2 = f64[64] power(d1, d)
  d3 = f64[64] sine(d2)
  d4 = f64[64] remainder(d3, d)
  b1 = bf16[64] convert(d4)
  b2 = bf16[64] multiply(b1, b)
  i1 = s64[64] convert(b2)
  u1 = u64[64] convert(d4)
  f1 = f32[64] convert(u1)
  i2 = s64[64] divide(i1, i1)
  q1 = f8e4m3fn[64] convert(d4)
  q2 = f8e5m2[64] convert(x)
  q3 = f8e4m3fn[64] convert(q2)
  q4 = f8e4m3fn[64] multiply(q1, q3)
  q5 = f8e8m0fnu[64] convert(i2)
  q6 = f4e2m1fn[64] convert(q5)
  n1 = s4[64] convert(q4)
  n2 = s4[64] divide(n1, n1)
  n3 = u4[64] convert(e20)
  n4 = u4[64] shift-right-logical(n3, n3)
  z1 = c64[64] multiply(z, z)
  z2 = c64[64] divide(z1, z)
  z3 = c64[64] exponential(z2)
  z4 = c64[64] log(z3)
  z5 = c64[64] sqrt(z4)
  z6 = c64[64] rsqrt(z5)
  z7 = c64[64] tanh(z6)
  z8 = c64[64] power(z7, z)
  z9 = c64[64] sine(z8)
  z10 = c64[64] cosine(z9)
  z11 = c64[64] tan(z10)
  z12 = c64[64] exponential-minus-one(z11)
  z13 = c64[64] log-plus-one(z12)
  z14 = c64[64] logistic(z13)
  z15 = c64[64] sign(z14)
  a1 = f32[64] abs(z15)
  w1 = c128[64] convert(z15)
  w2 = c128[64] divide(w1, w)
  w3 = c128[64] power(w2, w)
  w4 = c128[64] tanh(w3)
  a2 = f64[64] abs(w4)
  ROOT t = (f32[64], s64[64], f4e2m1fn[64], s4[64], u4[64], f32[64], f64[64]) tuple(f1, i2, q6, n2, n4, a1, a2)
})";

struct Symbols {
  std::set<std::string> undefined;
  std::set<std::string> global_defined;
};

Symbols ReadSymbols(const std::string& object) {
  Symbols out;
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(object, "model.o"));
  EXPECT_TRUE(static_cast<bool>(file)) << llvm::toString(file.takeError());
  if (!file) return out;
  for (const llvm::object::SymbolRef& symbol : (*file)->symbols()) {
    auto flags = symbol.getFlags();
    auto name = symbol.getName();
    if (!flags || !name) continue;
    if (*flags & llvm::object::SymbolRef::SF_FormatSpecific) continue;
    if (*flags & llvm::object::SymbolRef::SF_Undefined) {
      out.undefined.insert(name->str());
    } else if (*flags & llvm::object::SymbolRef::SF_Global) {
      out.global_defined.insert(name->str());
    }
  }
  return out;
}

struct Target {
  const char* triple;
  const char* cpu;
};

TEST(ObjectSymbolsTest, OnlyRuntimeAndMemorySymbolsAreUndefined) {
  auto module = LoadModuleFromString(kEveryMathOp, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  const std::set<std::string> allowed = {"memcpy", "memset", "memmove"};
  for (Target target : {Target{"", ""}, Target{"x86_64-unknown-linux-gnu", "x86-64"},
                        Target{"aarch64-unknown-linux-gnu", "generic"}}) {
    for (int opt : {0, 2}) {
      SCOPED_TRACE(::testing::Message() << "target '" << target.triple << "' -O"
                                      << opt);
      CompileOptions options;
      options.name = "mathy";
      options.target_triple = target.triple;
      options.cpu = target.cpu;
      options.opt_level = opt;
      auto compiled = CompileModule(**module, options);
      ASSERT_TRUE(compiled.ok()) << compiled.status();
      const Symbols symbols = ReadSymbols(compiled->object);
      for (const std::string& name : symbols.undefined) {
        EXPECT_TRUE(allowed.count(name) || name.rfind("aotc_", 0) == 0)
            << "undefined symbol " << name;
      }
      EXPECT_EQ(symbols.global_defined,
                (std::set<std::string>{"mathy_run", "mathy_run_packed"}));
    }
  }
}

// The external functions of custom-calls are undefined symbols of their
// own names, also on a 32-bit target (where opaque_len is 32 bits wide).
TEST(ObjectSymbolsTest, ExternalCallsAreUndefinedSymbols) {
  auto module = LoadModuleFromString(R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  y = f32[4] custom-call(x), custom_call_target="my_op", opaque="a"
  z = f32[4] custom-call(y), custom_call_target="other_op"
  ROOT w = f32[4] custom-call(z), custom_call_target="my_op"
})",
                                     "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  for (Target target :
       {Target{"", ""}, Target{"aarch64-unknown-linux-gnu", "generic"},
        Target{"i686-unknown-linux-gnu", "generic"}}) {
    SCOPED_TRACE(::testing::Message() << "target '" << target.triple << "'");
    CompileOptions options;
    options.name = "ext";
    options.target_triple = target.triple;
    options.cpu = target.cpu;
    auto compiled = CompileModule(**module, options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    const Symbols symbols = ReadSymbols(compiled->object);
    EXPECT_EQ(symbols.undefined.count("my_op"), 1u);
    EXPECT_EQ(symbols.undefined.count("other_op"), 1u);
    // i686 position-independent code also names the GOT, which the
    // linker defines.
    const std::set<std::string> allowed = {"my_op",   "other_op", "memcpy",
                                           "memset",  "memmove",
                                           "_GLOBAL_OFFSET_TABLE_"};
    for (const std::string& name : symbols.undefined) {
      EXPECT_TRUE(allowed.count(name) || name.rfind("aotc_", 0) == 0)
          << "undefined symbol " << name;
    }
    EXPECT_EQ(symbols.global_defined,
              (std::set<std::string>{"ext_run", "ext_run_packed"}));
  }
}

// The compiler runtime's helpers that soft-float code may call: the Arm
// run-time ABI's (__aeabi_dadd, __aeabi_f2lz, __aeabi_uldivmod, ...) and
// libgcc's / compiler-rt's generic names (__adddf3, __fixsfdi, __divdi3,
// __unordsf2, ...).
bool IsCompilerRuntimeHelper(const std::string& name) {
  static const std::regex kHelper(
      "__aeabi_[a-z0-9]+|"
      "__(add|sub|mul|div|neg|eq|ne|ge|gt|lt|le|unord)[sdt]f[23]|"
      "__(extend|trunc)[sdth]f[sdth]f2|"
      "__fix(uns)?[sdt]f[sdt]i|__float(un)?[sdt]i[sdt]f|"
      "__u?(div|mod)[sdt]i3");
  return std::regex_match(name, kHelper);
}

struct SoftFloatTarget {
  const char* triple;
  const char* cpu;
  const char* features;
  // The exact undefined symbols of kEveryMathOp at -O2, beyond memcpy,
  // memset, memmove and their Arm variants.
  std::set<std::string> helpers;
};

TEST(ObjectSymbolsTest, SoftFloatNeedsOnlyCompilerRuntimeHelpers) {
  auto module = LoadModuleFromString(kEveryMathOp, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  const std::set<std::string> aeabi_f64 = {
      "__aeabi_d2f",    "__aeabi_d2ulz",   "__aeabi_dadd",   "__aeabi_dcmpeq",
      "__aeabi_dcmpge", "__aeabi_dcmpgt",  "__aeabi_dcmplt", "__aeabi_dcmpun",
      "__aeabi_ddiv",   "__aeabi_dmul",    "__aeabi_dsub",   "__aeabi_f2d",
      "__aeabi_f2lz",   "__aeabi_l2d",     "__aeabi_ldivmod", "__aeabi_ul2d",
      "__aeabi_ul2f",   "__aeabi_uldivmod"};
  std::set<std::string> aeabi_all = aeabi_f64;
  aeabi_all.insert({"__aeabi_f2iz", "__aeabi_f2uiz", "__aeabi_fadd",
                    "__aeabi_fcmpeq", "__aeabi_fcmpge", "__aeabi_fcmpgt",
                    "__aeabi_fcmplt", "__aeabi_fcmpun", "__aeabi_fdiv",
                    "__aeabi_fmul", "__aeabi_fsub", "__aeabi_ui2f"});
  const std::set<std::string> libgcc_rv64 = {
      "__adddf3",    "__addsf3",      "__divdf3",      "__divsf3",
      "__eqdf2",     "__eqsf2",       "__extendsfdf2", "__fixsfdi",
      "__fixunsdfdi", "__fixunssfdi", "__floatdidf",   "__floatundidf",
      "__floatundisf", "__floatunsisf", "__gedf2",     "__gesf2",
      "__gtdf2",     "__gtsf2",       "__ltdf2",       "__ltsf2",
      "__muldf3",    "__mulsf3",      "__nedf2",       "__nesf2",
      "__subdf3",    "__subsf3",      "__truncdfsf2",  "__unorddf2",
      "__unordsf2"};
  const SoftFloatTarget targets[] = {
      {"thumbv7em-none-eabihf", "cortex-m4", "", aeabi_f64},
      {"thumbv7m-none-eabi", "cortex-m3", "", aeabi_all},
      {"riscv64-linux-gnu", "", "+m,+a,+c", libgcc_rv64},
  };
  const std::set<std::string> memory = {"memcpy", "memset", "memmove"};
  for (const SoftFloatTarget& target : targets) {
    for (int opt : {0, 2}) {
      SCOPED_TRACE(::testing::Message() << target.triple << " -O" << opt);
      CompileOptions options;
      options.name = "mathy";
      options.target_triple = target.triple;
      options.cpu = target.cpu;
      options.features = target.features;
      options.opt_level = opt;
      auto compiled = CompileModule(**module, options);
      ASSERT_TRUE(compiled.ok()) << compiled.status();
      std::set<std::string> helpers;
      for (const std::string& name : ReadSymbols(compiled->object).undefined) {
        if (memory.count(name) || name.rfind("__aeabi_mem", 0) == 0 ||
            name.rfind("aotc_", 0) == 0) {
          continue;
        }
        EXPECT_TRUE(IsCompilerRuntimeHelper(name))
            << "undefined symbol " << name;
        helpers.insert(name);
      }
      // -O0 converts some integers through other helpers (__aeabi_l2f for
      // __aeabi_ul2d); the list is exact for the optimized code.
      if (opt == 2) EXPECT_EQ(helpers, target.helpers);
    }
  }
}

TEST(ObjectSymbolsTest, UnknownTargetIsAnError) {
  auto module = LoadModuleFromString(kEveryMathOp, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  CompileOptions options;
  options.name = "m";
  options.target_triple = "nonsense-unknown-none";
  auto compiled = CompileModule(**module, options);
  ASSERT_FALSE(compiled.ok());
  EXPECT_NE(std::string(compiled.status().message())
                .find("unknown target triple 'nonsense-unknown-none'"),
            std::string::npos)
      << compiled.status();
  options.target_triple = "";
  options.cpu = "not-a-cpu";
  compiled = CompileModule(**module, options);
  ASSERT_FALSE(compiled.ok());
  EXPECT_NE(std::string(compiled.status().message()).find("unknown CPU 'not-a-cpu'"),
            std::string::npos)
      << compiled.status();
}

}  // namespace
}  // namespace aotc::codegen::testing
