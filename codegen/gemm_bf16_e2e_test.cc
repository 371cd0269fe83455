// End-to-end tests of the GEMM's bf16 pairs (TargetInfo::bf16_pair_dot,
// vdpbf16ps): bf16 x bf16 -> f32 products against the evaluator within a
// bound worked out from the instruction's numerics (docs/math.md), on this
// host and on x86-64-v3, where the operands widen to f32 instead; odd
// depths, sizes 1, primes, batch dimensions, transposed and constant
// weights, denormal inputs; and which targets take the instruction.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "codegen/codegen_test_util.h"
#include "codegen/gemm_emitter.h"
#include "codegen/strategy.h"
#include "tools/inputs.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

// A dot of two bf16 operands into f32 (or `out_type`); `weights` replaces
// parameter 1 by a constant of that text.
struct DotCase {
  std::string lhs, rhs, out, dnums;
  std::string out_type = "f32";
  std::string Hlo(const std::string& weights = "") const {
    const std::string b =
        weights.empty() ? absl::StrCat("bf16[", rhs, "] parameter(1)")
                        : absl::StrCat("bf16[", rhs, "] constant(", weights, ")");
    return absl::StrCat("HloModule m\nENTRY e {\n  a = bf16[", lhs,
                        "] parameter(0)\n  b = ", b, "\n  ROOT d = ", out_type, "[", out,
                        "] dot(a, b), ", dnums, "\n}\n");
  }
};

uint16_t Bits(const Literal& l, int64_t i) { return l.Get<uint16_t>(i); }
bool IsDenormal(uint16_t bits) { return (bits & 0x7f80) == 0 && (bits & 0x7f); }

// |x|, or with `denormals_only` |x| where x is denormal and 0 elsewhere.
Literal Magnitudes(const Literal& x, bool denormals_only) {
  Literal m = x;
  for (int64_t i = 0; i < x.element_count(); ++i) {
    const uint16_t bits = Bits(x, i) & 0x7fff;
    m.Set<uint16_t>(i, denormals_only && !IsDenormal(bits) ? 0 : bits);
  }
  return m;
}

// Random operands with every 7th element of each a bf16 denormal.
Literal Operand(const Shape& shape, uint64_t stream) {
  Literal x = RandomLiteral(shape, 21, stream);
  for (int64_t i = 3; i < x.element_count(); i += 7) {
    x.Set<uint16_t>(i, static_cast<uint16_t>(((i & 8) << 12) | (i % 127 + 1)));
  }
  return x;
}

// An f32 or bf16 result's values as floats.
std::vector<float> Floats(const Literal& l) {
  if (l.shape().element_type() == P::kF32) return Values<P::kF32>(l);
  std::vector<float> v(l.element_count());
  for (int64_t i = 0; i < l.element_count(); ++i) {
    const uint32_t bits = uint32_t{Bits(l, i)} << 16;
    std::memcpy(&v[i], &bits, sizeof(float));
  }
  return v;
}

std::vector<float> RunOnCpu(const std::string& hlo, const std::vector<Literal>& args,
                       const std::string& cpu, std::string* assembly) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return {};
  CompileOptions options;
  options.name = "m";
  options.cpu = cpu;
  options.emit_asm = true;
  auto compiled = CompileModule(**module, options);
  EXPECT_TRUE(compiled.ok()) << compiled.status();
  if (!compiled.ok()) return {};
  *assembly = compiled->assembly;
  auto loaded = LoadedModel::Load(*compiled);
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  if (!loaded.ok()) return {};
  auto r = (*loaded)->Run(args);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return {};
  return Floats((*r)[0]);
}

std::vector<float> Evaluate(const std::string& hlo,
                            const std::vector<Literal>& args) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return {};
  auto r = EvaluateModule(**module, args);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return {};
  return Floats(*r->Leaves()[0]);
}

bool HostHasBf16PairDot() {
  return absl::StrContains(HostFeatures(), "+avx512bf16") &&
         absl::StrContains(HostFeatures(), "+avx512f");
}

// Compiles `c` (with constant weights when `weights` is set) for this host
// and for x86-64-v3, runs both and compares each result element e with the
// evaluator's v. Both sum k products of bf16 values, each exact in f32, in
// at most k roundings to nearest of u = 2^-24 each (vdpbf16ps: two per pair
// of depths), so |e - v| <= 1.01 k 2^-23 sum |a b|; the instruction also
// reads denormal inputs as zero (those terms' |a b| on top) and flushes
// denormal sums, 2^-126 per step at most. A bf16 result rounds both sums
// once more: one bf16 ulp, 2^-7 of the larger, on top.
void CheckAgainstEvaluator(const DotCase& c, bool constant_weights = false) {
  const std::string hlo = c.Hlo();
  SCOPED_TRACE(hlo);
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  const Computation& entry = *(*module)->entry();
  const Literal a = Operand(entry.parameters()[0]->shape(), 0);
  const Literal b = Operand(entry.parameters()[1]->shape(), 1);
  int64_t k = 1;
  for (int64_t d : entry.root()->attrs().dot_dnums.lhs_contracting) {
    k *= a.shape().dimensions(d);
  }
  const std::vector<float> want = Evaluate(hlo, {a, b});
  const std::vector<float> size = Evaluate(
      hlo, {Magnitudes(a, false), Magnitudes(b, false)});
  const std::vector<float> flushed_a =
      Evaluate(hlo, {Magnitudes(a, true), Magnitudes(b, false)});
  const std::vector<float> flushed_b =
      Evaluate(hlo, {Magnitudes(a, false), Magnitudes(b, true)});
  std::string compiled_hlo = hlo;
  std::vector<Literal> args = {a, b};
  if (constant_weights) {
    std::string text = "{";
    std::vector<int64_t> dims = b.shape().dimensions();
    // Row-major nested braces of b's values, printed from their bits.
    std::function<void(size_t, int64_t&)> emit = [&](size_t d, int64_t& at) {
      absl::StrAppend(&text, d ? "{" : "");
      for (int64_t i = 0; i < dims[d]; ++i) {
        if (i) absl::StrAppend(&text, ", ");
        if (d + 1 < dims.size()) {
          emit(d + 1, at);
          continue;
        }
        const uint32_t bits = uint32_t{Bits(b, at++)} << 16;
        float f;
        std::memcpy(&f, &bits, sizeof f);
        absl::StrAppend(&text, absl::StrFormat("%.9g", f));
      }
      absl::StrAppend(&text, "}");
    };
    int64_t at = 0;
    emit(0, at);
    compiled_hlo = c.Hlo(text);
    args = {a};
  }
  for (const std::string cpu : {"", "x86-64-v3"}) {
    SCOPED_TRACE(cpu.empty() ? "host" : cpu);
    std::string assembly;
    const std::vector<float> got = RunOnCpu(compiled_hlo, args, cpu, &assembly);
    ASSERT_EQ(got.size(), want.size());
    const bool pairs = assembly.find("vdpbf16ps") != std::string::npos;
    EXPECT_EQ(pairs, cpu.empty() && HostHasBf16PairDot() &&
                         PlanInstruction(*entry.root())->name == "gemm");
    for (size_t i = 0; i < got.size(); ++i) {
      const double bound = 1.01 * k * std::ldexp(1.0, -23) * size[i] +
                           flushed_a[i] + flushed_b[i] +
                           k * std::ldexp(1.0, -126) +
                           (c.out_type == "bf16"
                                ? std::ldexp(std::max(std::abs(got[i]),
                                                      std::abs(want[i])),
                                             -7)
                                : 0.0);
      ASSERT_LE(std::abs(double{got[i]} - want[i]), bound) << "element " << i;
    }
  }
}

const char kMatMul[] = "lhs_contracting_dims={1}, rhs_contracting_dims={0}";

TEST(GemmBf16E2eTest, SizesWithOddDepthsAndPrimes) {
  for (const auto& [m, n, k] : std::vector<std::array<int64_t, 3>>{
           {8, 16, 129}, {13, 61, 256}, {37, 16, 31}, {97, 129, 601}}) {
    CheckAgainstEvaluator({absl::StrCat(m, ",", k), absl::StrCat(k, ",", n),
                           absl::StrCat(m, ",", n), kMatMul});
  }
}

TEST(GemmBf16E2eTest, BatchesTransposesAndUnitDimensions) {
  // Batched, B transposed (depth its minor dimension), odd depth.
  CheckAgainstEvaluator({"3,19,23", "3,41,23", "3,19,41",
                         "lhs_batch_dims={0}, lhs_contracting_dims={2}, "
                         "rhs_batch_dims={0}, rhs_contracting_dims={2}"});
  // A transposed: packed, not read in place.
  CheckAgainstEvaluator({"64,40", "64,48", "40,48",
                         "lhs_contracting_dims={0}, rhs_contracting_dims={0}"});
  // Free dimensions of size 1 on both sides; a batch of one.
  CheckAgainstEvaluator({"1,1,40,64", "1,64,1,50", "1,1,40,1,50",
                         "lhs_batch_dims={0}, lhs_contracting_dims={3}, "
                         "rhs_batch_dims={0}, rhs_contracting_dims={1}"});
  // One row: the row-dot, which widens whatever the target.
  CheckAgainstEvaluator({"1,300", "300,64", "1,64", kMatMul});
}

TEST(GemmBf16E2eTest, Bf16ResultsRoundTheF32SumsOnce) {
  // Attention-shaped: batched, both results bf16 (as the corpus's bf16
  // models have them).
  CheckAgainstEvaluator({"12,128,64", "12,64,128", "12,128,128",
                         "lhs_batch_dims={0}, lhs_contracting_dims={2}, "
                         "rhs_batch_dims={0}, rhs_contracting_dims={1}",
                         "bf16"});
  CheckAgainstEvaluator({"29,67", "67,33", "29,33", kMatMul, "bf16"});
}

TEST(GemmBf16E2eTest, DenormalInputsReadAsZeroOnlyWithTheInstruction) {
  // a = 2^-127 (bf16 bits 0x0040, denormal), b = 2^100 (0x7180): each of the
  // 64 products is 2^-27, a normal f32, and the exact sum 2^-21. The widened
  // product keeps it; vdpbf16ps reads a as zero and gives 0.
  const DotCase c{"16,64", "64,16", "16,16", kMatMul};
  Literal a(Shape::Array(P::kBF16, {16, 64}));
  Literal b(Shape::Array(P::kBF16, {64, 16}));
  for (int64_t i = 0; i < 1024; ++i) {
    a.Set<uint16_t>(i, 0x0040);
    b.Set<uint16_t>(i, 0x7180);
  }
  for (const std::string cpu : {"", "x86-64-v3"}) {
    SCOPED_TRACE(cpu.empty() ? "host" : cpu);
    std::string assembly;
    const std::vector<float> got = RunOnCpu(c.Hlo(), {a, b}, cpu, &assembly);
    ASSERT_EQ(got.size(), 256u);
    const bool pairs = assembly.find("vdpbf16ps") != std::string::npos;
    EXPECT_EQ(pairs, cpu.empty() && HostHasBf16PairDot());
    for (float v : got) ASSERT_EQ(v, pairs ? 0.0f : std::ldexp(1.0f, -21));
  }
}

TEST(GemmBf16E2eTest, ConstantWeightsArePackedInPairsAtCompileTime) {
  const DotCase c{"24,33", "33,40", "24,40", kMatMul};
  CheckAgainstEvaluator(c, /*constant_weights=*/true);
  // The plan for a target with the instruction packs nothing at run time.
  const std::string hlo = c.Hlo(absl::StrCat(
      "{", absl::StrJoin(std::vector<std::string>(33, absl::StrCat(
                             "{", absl::StrJoin(std::vector<int>(40, 1), ","), "}")),
                         ","),
      "}"));
  auto constant = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(constant.ok()) << constant.status();
  TargetInfo avx512_bf16{64, 32, 48 << 10, 1 << 20};
  avx512_bf16.bf16_pair_dot = true;
  auto plan = PlanInstruction(*(*constant)->entry()->root(), avx512_bf16);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->name, "gemm");
  EXPECT_FALSE(plan->prologue);
}

}  // namespace
}  // namespace aotc::codegen::testing
