// End-to-end tests of the GEMM's depth groups (plan.h's DepthGroups).
// bf16 pairs (TargetInfo::bf16_pair_dot, vdpbf16ps): bf16 x bf16 -> f32
// products against the evaluator within a bound worked out from the
// instruction's numerics (docs/math.md), on this host and on x86-64-v3,
// where the operands widen to f32 instead; odd depths, sizes 1, primes,
// batch dimensions, transposed and constant weights, denormal inputs.
// s8 quads (TargetInfo::s8_quad_dot, vpdpbusd): s8 x s8 -> s32 bit for bit
// against the evaluator, on the extremes and past the s32 range. Both: which
// targets take the instruction.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "codegen/strategies/gemm/gemm.h"
#include "codegen/strategy.h"
#include "codegen/tests/codegen_test_util.h"
#include "tools/inputs.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

// A dot of two `in_type` operands into `out_type`; `weights` replaces
// parameter 1 by a constant of that text.
struct DotCase {
  std::string lhs, rhs, out, dnums;
  std::string out_type = "f32";
  std::string in_type = "bf16";
  std::string Hlo(const std::string& weights = "") const {
    const std::string b =
        weights.empty() ? absl::StrCat(in_type, "[", rhs, "] parameter(1)")
                        : absl::StrCat(in_type, "[", rhs, "] constant(", weights, ")");
    return absl::StrCat("HloModule m\nENTRY e {\n  a = ", in_type, "[", lhs,
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

// An f32 or bf16 result's values as floats (none when there is no result).
std::vector<float> Floats(const std::optional<Literal>& result) {
  if (!result.has_value()) return {};
  const Literal& l = *result;
  if (l.shape().element_type() == P::kF32) return Values<P::kF32>(l);
  std::vector<float> v(l.element_count());
  for (int64_t i = 0; i < l.element_count(); ++i) {
    const uint32_t bits = uint32_t{Bits(l, i)} << 16;
    std::memcpy(&v[i], &bits, sizeof(float));
  }
  return v;
}

// The result compiled for `cpu` (empty: this host), and its assembly.
std::optional<Literal> RunOnCpu(const std::string& hlo,
                                const std::vector<Literal>& args,
                                const std::string& cpu, std::string* assembly) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return std::nullopt;
  CompileOptions options;
  options.name = "m";
  options.cpu = cpu;
  options.emit_asm = true;
  auto compiled = CompileModule(**module, options);
  EXPECT_TRUE(compiled.ok()) << compiled.status();
  if (!compiled.ok()) return std::nullopt;
  *assembly = compiled->assembly;
  auto loaded = LoadedModel::Load(*compiled);
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  if (!loaded.ok()) return std::nullopt;
  auto r = (*loaded)->Run(args);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return std::nullopt;
  return std::move((*r)[0]);
}

std::optional<Literal> Evaluate(const std::string& hlo,
                                const std::vector<Literal>& args) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return std::nullopt;
  auto r = EvaluateModule(**module, args);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return std::nullopt;
  return *r->Leaves()[0];
}

// A bf16, s8 or s32 array's values as constant text: row-major nested braces,
// bf16 values printed exactly from their bits.
std::string ConstantText(const Literal& x) {
  std::string text = "{";
  std::vector<int64_t> dims = x.shape().dimensions();
  std::function<void(size_t, int64_t&)> emit = [&](size_t d, int64_t& at) {
    absl::StrAppend(&text, d ? "{" : "");
    for (int64_t i = 0; i < dims[d]; ++i) {
      if (i) absl::StrAppend(&text, ", ");
      if (d + 1 < dims.size()) {
        emit(d + 1, at);
        continue;
      }
      if (x.shape().element_type() == P::kS8) {
        absl::StrAppend(&text, int{x.Get<int8_t>(at++)});
        continue;
      }
      if (x.shape().element_type() == P::kS32) {
        absl::StrAppend(&text, x.Get<int32_t>(at++));
        continue;
      }
      const uint32_t bits = uint32_t{Bits(x, at++)} << 16;
      float f;
      std::memcpy(&f, &bits, sizeof f);
      absl::StrAppend(&text, absl::StrFormat("%.9g", f));
    }
    absl::StrAppend(&text, "}");
  };
  int64_t at = 0;
  emit(0, at);
  return text;
}

// The plan of `hlo`'s root on `target` is a gemm that packs nothing at run
// time: its constant weights were packed by the compiler.
void ExpectPackedAtCompileTime(const std::string& hlo, const TargetInfo& target) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto plan = PlanInstruction(*(*module)->entry()->root(), target);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->name, "gemm");
  EXPECT_FALSE(plan->prologue);
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
  const std::vector<float> want = Floats(Evaluate(hlo, {a, b}));
  const std::vector<float> size =
      Floats(Evaluate(hlo, {Magnitudes(a, false), Magnitudes(b, false)}));
  const std::vector<float> flushed_a =
      Floats(Evaluate(hlo, {Magnitudes(a, true), Magnitudes(b, false)}));
  const std::vector<float> flushed_b =
      Floats(Evaluate(hlo, {Magnitudes(a, false), Magnitudes(b, true)}));
  std::string compiled_hlo = hlo;
  std::vector<Literal> args = {a, b};
  if (constant_weights) {
    compiled_hlo = c.Hlo(ConstantText(b));
    args = {a};
  }
  for (const std::string cpu : {"", "x86-64-v3"}) {
    SCOPED_TRACE(cpu.empty() ? "host" : cpu);
    std::string assembly;
    const std::vector<float> got =
        Floats(RunOnCpu(compiled_hlo, args, cpu, &assembly));
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
    const std::vector<float> got = Floats(RunOnCpu(c.Hlo(), {a, b}, cpu, &assembly));
    ASSERT_EQ(got.size(), 256u);
    const bool pairs = assembly.find("vdpbf16ps") != std::string::npos;
    EXPECT_EQ(pairs, cpu.empty() && HostHasBf16PairDot());
    for (float v : got) ASSERT_EQ(v, pairs ? 0.0f : std::ldexp(1.0f, -21));
  }
}

TEST(GemmBf16E2eTest, ConstantWeightsArePackedInPairsAtCompileTime) {
  const DotCase c{"24,33", "33,40", "24,40", kMatMul};
  CheckAgainstEvaluator(c, /*constant_weights=*/true);
  TargetInfo avx512_bf16{64, 32, 48 << 10, 1 << 20};
  avx512_bf16.bf16_pair_dot = true;
  ExpectPackedAtCompileTime(
      c.Hlo(ConstantText(Operand(Shape::Array(P::kBF16, {33, 40}), 1))),
      avx512_bf16);
}

bool HostHasS8QuadDot() {
  return absl::StrContains(HostFeatures(), "+avx512vnni") &&
         absl::StrContains(HostFeatures(), "+avx512f");
}

// Uniform s8 (s32) values over the whole range, -128 and 127 included.
Literal S8Operand(const Shape& shape, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Literal x(shape);
  for (int64_t i = 0; i < x.element_count(); ++i) {
    if (shape.element_type() == P::kS32) {
      x.Set<int32_t>(i, static_cast<int32_t>(rng() >> 32));
    } else {
      x.Set<int8_t>(i, static_cast<int8_t>(rng() >> 56));
    }
  }
  return x;
}

// s8 x s8 (or s32) -> s32 sums are exact integers modulo 2^32 in the evaluator, in
// the widened kernel and with vpdpbusd (A offset by 128, B's column sums
// taken off): the results must agree bit for bit, on this host and on
// x86-64-v3.
void CheckS8AgainstEvaluator(const DotCase& c, const Literal& a,
                             const Literal& b, bool constant_weights = false) {
  const std::string hlo = c.Hlo();
  SCOPED_TRACE(hlo.substr(0, 300));
  const std::optional<Literal> want = Evaluate(hlo, {a, b});
  ASSERT_TRUE(want.has_value());
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  const bool gemm = PlanInstruction(*(*module)->entry()->root())->name == "gemm";
  const std::string compiled_hlo = constant_weights ? c.Hlo(ConstantText(b)) : hlo;
  std::vector<Literal> args = {a};
  if (!constant_weights) args.push_back(b);
  for (const std::string cpu : {"", "x86-64-v3"}) {
    SCOPED_TRACE(cpu.empty() ? "host" : cpu);
    std::string assembly;
    const std::optional<Literal> got = RunOnCpu(compiled_hlo, args, cpu, &assembly);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(assembly.find("vpdpbusd") != std::string::npos,
              cpu.empty() && HostHasS8QuadDot() && gemm && c.in_type == "s8");
    const std::vector<int32_t> g = Values<P::kS32>(*got), w = Values<P::kS32>(*want);
    ASSERT_EQ(g.size(), w.size());
    for (size_t i = 0; i < g.size(); ++i) ASSERT_EQ(g[i], w[i]) << "element " << i;
  }
}

TEST(GemmS8E2eTest, RandomProductsMatchTheEvaluatorBitForBit) {
  // Depths 4k + 1, 2, 3 and 0; primes; batch; B transposed; unit dimensions.
  const std::vector<DotCase> cases = {
      {"8,129", "129,16", "8,16", kMatMul, "s32", "s8"},
      {"13,258", "258,61", "13,61", kMatMul, "s32", "s8"},
      {"37,31", "31,17", "37,17", kMatMul, "s32", "s8"},
      {"97,600", "600,129", "97,129", kMatMul, "s32", "s8"},
      {"3,19,23", "3,41,23", "3,19,41",
       "lhs_batch_dims={0}, lhs_contracting_dims={2}, "
       "rhs_batch_dims={0}, rhs_contracting_dims={2}",
       "s32", "s8"},
      {"1,40,64", "64,1,50", "1,40,1,50", "lhs_contracting_dims={2}, rhs_contracting_dims={0}",
       "s32", "s8"},
  };
  uint64_t seed = 1;
  for (const DotCase& c : cases) {
    auto module = LoadModuleFromString(c.Hlo(), "test.hlo");
    ASSERT_TRUE(module.ok()) << module.status();
    const Computation& entry = *(*module)->entry();
    const Literal lhs = S8Operand(entry.parameters()[0]->shape(), seed);
    const Literal rhs = S8Operand(entry.parameters()[1]->shape(), seed + 1);
    seed += 2;
    CheckS8AgainstEvaluator(c, lhs, rhs);
  }
}

TEST(GemmS8E2eTest, ExtremesAndSumsPastTheS32Range) {
  // a = b = -128 over depth 4099: each product 2^14, the sum 4099 * 2^14 =
  // 67158016, and the column offsets at their largest magnitude; a = -128,
  // b = 127: -16256 per product.
  for (const int8_t bv : {int8_t{-128}, int8_t{127}}) {
    const DotCase c{"8,4099", "4099,16", "8,16", kMatMul, "s32", "s8"};
    Literal a(Shape::Array(P::kS8, {8, 4099}));
    Literal b(Shape::Array(P::kS8, {4099, 16}));
    for (int64_t i = 0; i < a.element_count(); ++i) a.Set<int8_t>(i, -128);
    for (int64_t i = 0; i < b.element_count(); ++i) b.Set<int8_t>(i, bv);
    CheckS8AgainstEvaluator(c, a, b);
  }
  // Depth 140001 of 2^14 products: 2293776384 wraps past 2^31 to
  // -2001190912, in the evaluator's s32 as in the kernel's.
  const DotCase c{"8,140001", "140001,16", "8,16", kMatMul, "s32", "s8"};
  Literal a(Shape::Array(P::kS8, {8, 140001}));
  Literal b(Shape::Array(P::kS8, {140001, 16}));
  for (int64_t i = 0; i < a.element_count(); ++i) a.Set<int8_t>(i, -128);
  for (int64_t i = 0; i < b.element_count(); ++i) b.Set<int8_t>(i, -128);
  CheckS8AgainstEvaluator(c, a, b);
  const std::optional<Literal> want = Evaluate(c.Hlo(), {a, b});
  ASSERT_TRUE(want.has_value());
  EXPECT_EQ(want->Get<int32_t>(0), -2001190912);
}

TEST(GemmS8E2eTest, ConstantWeightsAndTheirColumnOffsetsArePackedAtCompileTime) {
  const DotCase c{"24,37", "37,40", "24,40", kMatMul, "s32", "s8"};
  const Literal a = S8Operand(Shape::Array(P::kS8, {24, 37}), 11);
  const Literal b = S8Operand(Shape::Array(P::kS8, {37, 40}), 12);
  CheckS8AgainstEvaluator(c, a, b, /*constant_weights=*/true);
  TargetInfo avx512_vnni{64, 32, 48 << 10, 1 << 20};
  avx512_vnni.s8_quad_dot = true;
  ExpectPackedAtCompileTime(c.Hlo(ConstantText(b)), avx512_vnni);
  // s32 operands widen on every target; their products wrap mod 2^32.
  const DotCase wide{"24,37", "37,40", "24,40", kMatMul, "s32", "s32"};
  CheckS8AgainstEvaluator(wide, S8Operand(Shape::Array(P::kS32, {24, 37}), 13),
                          S8Operand(Shape::Array(P::kS32, {37, 40}), 14),
                          /*constant_weights=*/true);
}

}  // namespace
}  // namespace aotc::codegen::testing
