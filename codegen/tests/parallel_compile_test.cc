// Compiling in partitions (parallel_compile.h): the object does not depend
// on the number of threads, runs like the unsplit one and keeps the unsplit
// object's symbol bindings; the pieces (SplitModule, JoinAssembly) on
// hand-written inputs.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "codegen/backend/module_split.h"
#include "codegen/backend/object_assembler.h"
#include "codegen/backend/target_machine.h"
#include "codegen/tests/codegen_test_util.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Target/TargetMachine.h"
#include "tools/inputs.h"

namespace aotc::codegen::testing {
namespace {

// Large element-wise steps without fusion: each is a parallel task function
// of its own, so there are several clusters to deal out; the sort's
// comparator is inlined into its task and must stay with it.
constexpr const char* kSteps = R"(HloModule m
cmp {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT lt = pred[] compare(p0, p1), direction=LT
}
ENTRY e {
  x = f32[256,256] parameter(0)
  y = f32[256,256] parameter(1)
  a = f32[256,256] exponential(x)
  b = f32[256,256] tanh(y)
  c = f32[256,256] multiply(a, b)
  d = f32[256,256] add(c, x)
  s = f32[256,256] sort(d), dimensions={1}, to_apply=cmp
  ROOT r = f32[256,256] subtract(s, y)
}
)";

// sin and cos steps (their vector variants sit in llvm.compiler.used), with
// arguments scaled past 2^23 in one of them.
constexpr const char* kTrigSteps = R"(HloModule m
ENTRY e {
  x = f32[256,256] parameter(0)
  y = f32[256,256] parameter(1)
  k = f32[] constant(1e15)
  kb = f32[256,256] broadcast(k), dimensions={}
  big = f32[256,256] multiply(x, kb)
  a = f32[256,256] sine(big)
  b = f32[256,256] cosine(y)
  c = f32[256,256] multiply(a, b)
  d = f32[256,256] sine(c)
  ROOT r = f32[256,256] add(d, x)
}
)";

// `hlo` for `triple` (empty: this host), with its optimized LLVM IR.
absl::StatusOr<CompiledModel> Compile(int partitions, int threads,
                                      const std::string& triple = "",
                                      const char* hlo = kSteps) {
  ASSIGN_OR_RETURN(std::unique_ptr<Module> module,
                   LoadModuleFromString(hlo, "steps.hlo"));
  CompileOptions options;
  options.name = "m";
  options.target_triple = triple;
  options.partitions = partitions;
  options.compile_threads = threads;
  options.emit_llvm = true;
  return CompileModule(*module, options);
}

// Symbol name -> "global" / "local" for the defined symbols of an object.
std::map<std::string, std::string> DefinedSymbols(const std::string& object) {
  std::map<std::string, std::string> out;
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(object, "m.o"));
  EXPECT_TRUE(static_cast<bool>(file));
  if (!file) {
    llvm::consumeError(file.takeError());
    return out;
  }
  for (const llvm::object::SymbolRef& s : (*file)->symbols()) {
    auto flags = s.getFlags();
    auto name = s.getName();
    auto type = s.getType();
    if (!flags || !name || !type || name->empty()) {
      if (!flags) llvm::consumeError(flags.takeError());
      if (!name) llvm::consumeError(name.takeError());
      if (!type) llvm::consumeError(type.takeError());
      continue;
    }
    if (*flags & llvm::object::SymbolRef::SF_Undefined) continue;
    if (*type != llvm::object::SymbolRef::ST_Function) continue;
    out[name->str()] =
        (*flags & llvm::object::SymbolRef::SF_Global) ? "global" : "local";
  }
  return out;
}

TEST(ParallelCompileTest, SameObjectForAnyThreadCount) {
  auto one = Compile(3, 1);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(one->partitions, 3);
  EXPECT_EQ(one->compile_threads, 1);
  for (int threads : {2, 3}) {
    auto more = Compile(3, threads);
    ASSERT_TRUE(more.ok()) << more.status();
    EXPECT_EQ(more->compile_threads, threads);
    EXPECT_TRUE(more->object == one->object) << threads << " threads";
    EXPECT_EQ(more->llvm_ir, one->llvm_ir);
  }
}

TEST(ParallelCompileTest, SplitObjectKeepsSymbolsAndResults) {
  auto whole = Compile(1, 1);
  auto split = Compile(3, 2);
  ASSERT_TRUE(whole.ok()) << whole.status();
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_EQ(whole->partitions, 1);
  EXPECT_EQ(split->partitions, 3);
  // The same functions, the same bindings: only m_run and m_run_packed are
  // global, the loop functions (reached across partitions) stay local.
  const auto symbols = DefinedSymbols(split->object);
  EXPECT_EQ(symbols, DefinedSymbols(whole->object));
  EXPECT_EQ(symbols.at("m_run"), "global");
  EXPECT_EQ(symbols.at("m_run_packed"), "global");
  int locals = 0;
  for (const auto& [name, binding] : symbols) locals += binding == "local";
  EXPECT_GE(locals, 6) << "one loop function per step";
  // The linked LLVM IR declares none of the split's hidden symbols.
  EXPECT_EQ(split->llvm_ir.find("hidden"), std::string::npos);

  auto module = LoadModuleFromString(kSteps, "steps.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<Literal> args;
  for (int k = 0; k < 2; ++k) {
    args.push_back(RandomLiteral((*module)->entry()->parameter(k)->shape(), 7, k));
  }
  auto expected = EvaluateOracle(**module, args);
  ASSERT_TRUE(expected.ok()) << expected.status();
  for (const CompiledModel* compiled : {&*whole, &*split}) {
    auto loaded = LoadedModel::Load(*compiled);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    auto results = (*loaded)->Run(args);
    ASSERT_TRUE(results.ok()) << results.status();
    const Comparison c = CompareLiterals(
        (*results)[0], *expected->value.Leaves()[0],
        DefaultTolerance(PrimitiveType::kF32), &expected->bounds[0]);
    EXPECT_TRUE(c.ok()) << c.mismatches << " mismatches; first "
                        << c.first_mismatch;
  }
}

// A module with llvm.compiler.used splits: every partition keeps the vector
// variants its loops may call (declared where another partition defines
// them), the loops still call them, and the results match the evaluator.
TEST(ParallelCompileTest, SplitKeepsTrigVectorVariants) {
  auto split = Compile(3, 2, "", kTrigSteps);
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_EQ(split->partitions, 3);
  bool vector_call = false;
  for (absl::string_view line : absl::StrSplit(split->llvm_ir, '\n')) {
    vector_call |= absl::StrContains(line, "call <") &&
                   absl::StrContains(line, "@aotc.math.sin.f32.v");
  }
  EXPECT_TRUE(vector_call) << "no loop calls a vector variant of sin";
  auto module = LoadModuleFromString(kTrigSteps, "steps.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<Literal> args;
  for (int k = 0; k < 2; ++k) {
    args.push_back(RandomLiteral((*module)->entry()->parameter(k)->shape(), 7, k));
  }
  auto expected = EvaluateOracle(**module, args);
  ASSERT_TRUE(expected.ok()) << expected.status();
  auto loaded = LoadedModel::Load(*split);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  auto results = (*loaded)->Run(args);
  ASSERT_TRUE(results.ok()) << results.status();
  const Comparison c = CompareLiterals(
      (*results)[0], *expected->value.Leaves()[0],
      DefaultTolerance(PrimitiveType::kF32), &expected->bounds[0]);
  EXPECT_TRUE(c.ok()) << c.mismatches << " mismatches; first "
                      << c.first_mismatch;
}

// One cluster (the entry points call the entry computation, which has no
// loop function at this size): asked for partitions, the module goes
// through the assembly path whole, and the assembler must give the bytes
// of direct object emission, for both targets that take this path.
TEST(ParallelCompileTest, OnePartitionAssemblesToTheDirectObject) {
  constexpr const char* kSmall = R"(HloModule m
ENTRY e {
  x = f32[8] parameter(0)
  e = f32[8] exponential(x)
  ROOT r = f32[8] add(e, x)
}
)";
  auto module = LoadModuleFromString(kSmall, "small.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  for (const char* triple :
       {"x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"}) {
    SCOPED_TRACE(triple);
    CompileOptions options;
    options.name = "m";
    options.target_triple = triple;
    options.partitions = 1;
    auto direct = CompileModule(**module, options);
    options.partitions = 4;
    auto assembled = CompileModule(**module, options);
    ASSERT_TRUE(direct.ok()) << direct.status();
    ASSERT_TRUE(assembled.ok()) << assembled.status();
    EXPECT_FALSE(assembled->thread_seconds.empty()) << "the assembly path";
    EXPECT_TRUE(direct->object == assembled->object);
  }
}

TEST(ParallelCompileTest, SplitsForAArch64) {
  auto whole = Compile(1, 1, "aarch64-unknown-linux-gnu");
  auto split = Compile(3, 2, "aarch64-unknown-linux-gnu");
  ASSERT_TRUE(whole.ok()) << whole.status();
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_EQ(split->partitions, 3);
  EXPECT_EQ(DefinedSymbols(split->object), DefinedSymbols(whole->object));
}

TEST(ParallelCompileTest, UntestedTargetRefusesPartitions) {
  auto compiled = Compile(2, 1, "riscv64-unknown-linux-gnu");
  ASSERT_FALSE(compiled.ok());
  EXPECT_NE(compiled.status().message().find("ELF x86-64 or AArch64"),
            std::string::npos)
      << compiled.status();
  // By size alone such a target is never split.
  auto by_size = Compile(0, 1, "riscv64-unknown-linux-gnu");
  ASSERT_TRUE(by_size.ok()) << by_size.status();
  EXPECT_EQ(by_size->partitions, 1);
}

// main calls the noinline loops a and b; a calls the inlinable helper h; a
// and b read the table g.
constexpr const char* kCalls = R"(
@g = private constant [2 x i32] [i32 1, i32 2]
define internal i32 @h(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}
define internal i32 @a(i32 %x) noinline {
  %p = getelementptr [2 x i32], ptr @g, i64 0, i64 1
  %v = load i32, ptr %p
  %w = call i32 @h(i32 %v)
  %s = add i32 %w, %x
  %t = mul i32 %s, %s
  %u = xor i32 %t, %s
  ret i32 %u
}
define internal i32 @b(i32 %x) noinline {
  %v = load i32, ptr @g
  %s = add i32 %v, %x
  ret i32 %s
}
define i32 @main(i32 %x) {
  %r = call i32 @a(i32 %x)
  %s = call i32 @b(i32 %r)
  ret i32 %s
}
)";

// Function name -> index of the partition that defines it.
std::map<std::string, int> Definitions(const ModulePartitions& split) {
  std::map<std::string, int> out;
  for (size_t p = 0; p < split.bitcode.size(); ++p) {
    llvm::LLVMContext ctx;
    auto m = llvm::parseBitcodeFile(
        llvm::MemoryBufferRef(split.bitcode[p], "part"), ctx);
    EXPECT_TRUE(static_cast<bool>(m));
    if (!m) {
      llvm::consumeError(m.takeError());
      continue;
    }
    for (const llvm::GlobalValue& g : (*m)->global_values()) {
      if (!g.isDeclaration()) out[g.getName().str()] = static_cast<int>(p);
    }
  }
  return out;
}

TEST(ModuleSplitTest, ClustersFollowInlining) {
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> m =
      llvm::parseAssemblyString(kCalls, error, ctx);
  ASSERT_NE(m, nullptr) << error.getMessage().str();
  const ModulePartitions split = SplitModule(*m, 2);
  ASSERT_EQ(split.bitcode.size(), 2u);
  // Clusters {a, h} (7 + 2 instructions, with g, its first user), {b} (3),
  // {main} (3): {a, h} to partition 0, b to 1, main to 1 (3 < 9).
  const std::map<std::string, int> expected = {
      {"a", 0}, {"h", 0}, {"g", 0}, {"b", 1}, {"main", 1}};
  EXPECT_EQ(Definitions(split), expected);
  EXPECT_EQ(split.instructions, (std::vector<int64_t>{9, 6}));
  // a is called from partition 1 and g read from it: both made hidden
  // externals (functions first, in module order); h and b are only reached
  // from their own partition.
  EXPECT_EQ(split.externalized, (std::vector<std::string>{"a", "g"}));
  EXPECT_EQ(split.original_linkage,
            (std::vector<llvm::GlobalValue::LinkageTypes>{
                llvm::GlobalValue::InternalLinkage,
                llvm::GlobalValue::PrivateLinkage}));
}

TEST(ModuleSplitTest, SmallModulesStayWhole) {
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> m =
      llvm::parseAssemblyString(kCalls, error, ctx);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(CountInstructions(*m), 2 + 7 + 3 + 3);
  EXPECT_EQ(PartitionCount(*m), 1);
}

// Two functions of 20000 additions each: 40002 instructions, two partitions
// by size (40002 / 16384), none when one of them is in a comdat.
std::string LargeModule(bool comdat) {
  std::string ir = comdat ? "$c = comdat any\n" : "";
  for (const char* name : {"f", "g"}) {
    absl::StrAppend(&ir, "define i32 @", name, "(i32 %x0)",
                    comdat && name[0] == 'f' ? " comdat($c)" : "", " {\n");
    for (int k = 1; k <= 20000; ++k) {
      absl::StrAppend(&ir, "  %x", k, " = add i32 %x", k - 1, ", 1\n");
    }
    absl::StrAppend(&ir, "  ret i32 %x20000\n}\n");
  }
  return ir;
}

TEST(ModuleSplitTest, LargeModulesSplitUnlessTheyHaveComdats) {
  for (bool comdat : {false, true}) {
    llvm::LLVMContext ctx;
    llvm::SMDiagnostic error;
    std::unique_ptr<llvm::Module> m =
        llvm::parseAssemblyString(LargeModule(comdat), error, ctx);
    ASSERT_NE(m, nullptr) << error.getMessage().str();
    EXPECT_EQ(CountInstructions(*m), 40002);
    EXPECT_EQ(PartitionCount(*m), comdat ? 1 : 2) << "comdat " << comdat;
  }
}

// A scalar function whose vector variant only llvm.compiler.used names (as
// aotc's sin, cos and tan have), called from a function of another cluster.
constexpr const char* kVariants = R"ir(
@llvm.compiler.used = appending global [1 x ptr] [ptr @s.v4], section "llvm.metadata"
define internal float @s(float %x) noinline "vector-function-abi-variant"="_ZGV_LLVM_N4v_s(s.v4)" {
  %y = fadd float %x, 1.0
  ret float %y
}
define internal <4 x float> @s.v4(<4 x float> %x) {
  %y = fadd <4 x float> %x, <float 1.0, float 1.0, float 1.0, float 1.0>
  %z = fmul <4 x float> %y, %y
  %w = fsub <4 x float> %z, %x
  ret <4 x float> %w
}
define float @loop(float %x) {
  %a = fmul float %x, %x
  %b = fadd float %a, %x
  %c = fmul float %b, %b
  %r = call float @s(float %c)
  ret float %r
}
)ir";

// Every partition keeps the variant (defined in one, declared in the
// others, so that a loop there can be vectorized into calls of it) in an
// llvm.compiler.used of its own, and the variant is a hidden external of
// the split, local again in the object.
TEST(ModuleSplitTest, CompilerUsedReachesEveryPartition) {
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> m =
      llvm::parseAssemblyString(kVariants, error, ctx);
  ASSERT_NE(m, nullptr) << error.getMessage().str();
  const ModulePartitions split = SplitModule(*m, 3);
  ASSERT_EQ(split.bitcode.size(), 3u);
  // Clusters largest first: loop (5 instructions), s.v4 (4), s (2); every
  // partition defines an llvm.compiler.used (the last one is recorded).
  EXPECT_EQ(Definitions(split),
            (std::map<std::string, int>{
                {"llvm.compiler.used", 2}, {"loop", 0}, {"s", 2}, {"s.v4", 1}}));
  EXPECT_EQ(split.externalized, (std::vector<std::string>{"s", "s.v4"}));
  for (size_t p = 0; p < split.bitcode.size(); ++p) {
    llvm::LLVMContext part_ctx;
    auto part = llvm::parseBitcodeFile(
        llvm::MemoryBufferRef(split.bitcode[p], "part"), part_ctx);
    ASSERT_TRUE(static_cast<bool>(part)) << llvm::toString(part.takeError());
    EXPECT_NE((*part)->getFunction("s.v4"), nullptr) << "partition " << p;
    const llvm::GlobalVariable* used =
        (*part)->getNamedGlobal("llvm.compiler.used");
    ASSERT_NE(used, nullptr) << "partition " << p;
    EXPECT_TRUE(used->hasAppendingLinkage());
  }
  // Large modules with llvm.compiler.used split by size as others do.
  std::string large = LargeModule(false) + kVariants;
  std::unique_ptr<llvm::Module> big =
      llvm::parseAssemblyString(large, error, ctx);
  ASSERT_NE(big, nullptr) << error.getMessage().str();
  EXPECT_EQ(PartitionCount(*big), 2);
}

TEST(JoinAssemblyTest, RenamesLabelsOfLaterPartitions) {
  const std::vector<std::string> parts = {
      "\t.text\n\t.file\t\"m\"\n\t.globl\ta\n\t.hidden\ta\na:\n"
      "\tjmp\t.LBB0_1\n.LBB0_1:\n\tretq\n",
      "\t.text\n\t.file\t\"m\"\n\t.hidden\ta\nmain:\n"
      "\tmovss\t.LCPI0_0(%rip), %xmm0\n\tcallq\ta\n"
      "\t.ascii\t\"x.Ly\\\".Lz\"\n\t.globl\tmain\n"
      "\t.size\tmain, .Lfunc_end0-main\nfoo.Lbar:\n"};
  const std::string joined = JoinAssembly(parts, {"a"});
  EXPECT_EQ(joined,
            // Partition 0 as it was, without a's .globl and .hidden.
            "\t.text\n\t.file\t\"m\"\na:\n"
            "\tjmp\t.LBB0_1\n.LBB0_1:\n\tretq\n\n"
            // Partition 1: no .file, labels prefixed, strings, the kept
            // .globl and a symbol with ".L" inside unchanged.
            "\t.text\nmain:\n"
            "\tmovss\t.L1.CPI0_0(%rip), %xmm0\n\tcallq\ta\n"
            "\t.ascii\t\"x.Ly\\\".Lz\"\n\t.globl\tmain\n"
            "\t.size\tmain, .L1.func_end0-main\nfoo.Lbar:\n\n");
}

TEST(AssembleObjectTest, ReportsAssemblerErrors) {
  InitializeLlvmTargets();
  auto target = ResolveTarget("x86_64-unknown-linux-gnu", "", "");
  ASSERT_TRUE(target.ok());
  auto tm = CreateTargetMachine(*target, true, 2);
  ASSERT_TRUE(tm.ok());
  auto object = AssembleObject("a:\n\tretq\na:\n", **tm);
  ASSERT_FALSE(object.ok());
  EXPECT_NE(object.status().message().find("already defined"),
            std::string::npos)
      << object.status();
  EXPECT_TRUE(AssembleObject("a:\n\tretq\n", **tm).ok());
}

}  // namespace
}  // namespace aotc::codegen::testing
