// Tests of the HLO printer: exact text of instructions, literals and a whole
// module, print -> parse -> print stability of crafted modules, and
// bit-exact float round trips for every float type.
#include "compiler/ir/printer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/minifloat.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

std::unique_ptr<Module> Parse(std::string_view text) {
  auto m = ParseHloText(text, "test.hlo");
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::move(*m) : nullptr;
}

std::string Printed(const Module& m, std::string_view name) {
  for (const auto& c : m.computations()) {
    if (const Instruction* i = c->FindInstruction(name))
      return PrintInstruction(*i);
  }
  return "<no instruction " + std::string(name) + ">";
}

// print(parse(text)) == print(parse(print(parse(text)))).
void ExpectStable(std::string_view text) {
  auto first = Parse(text);
  ASSERT_NE(first, nullptr);
  std::string printed = PrintModule(*first);
  auto second = ParseHloText(printed, "printed");
  ASSERT_TRUE(second.ok()) << second.status().message() << "\n" << printed;
  EXPECT_EQ(PrintModule(**second), printed);
}

constexpr char kModule[] = R"(HloModule m, is_scheduled=true

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  p = f32[2,3] parameter(0)
  z = f32[] constant(0)
  r = f32[2] reduce(p, z), sharding={replicated}, dimensions={1}, metadata={op_name="sum"}, to_apply=add
  ROOT t = (f32[2], f32[]) tuple(r, z)
}
)";

TEST(PrinterTest, WholeModule) {
  auto m = Parse(kModule);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(PrintModule(*m), R"(HloModule m, is_scheduled=true

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (p: f32[2,3]{1,0}) -> (f32[2]{0}, f32[]) {
  %p = f32[2,3]{1,0} parameter(0)
  %z = f32[] constant(0)
  %r = f32[2]{0} reduce(%p, %z), dimensions={1}, to_apply=%add, sharding={replicated}, metadata={op_name="sum"}
  ROOT %t = (f32[2]{0}, f32[]) tuple(%r, %z)
}
)");
}

constexpr char kAttributes[] = R"(HloModule attrs
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
cond {
  cp = s32[] parameter(0)
  ROOT lt = pred[] compare(cp, cp), direction=LT
}
body {
  ROOT bp = s32[] parameter(0)
}
fused {
  fp = f32[4] parameter(0)
  ROOT fn = f32[4] negate(fp)
}
ENTRY e {
  p = f32[2,3] parameter(0)
  x = f32[1,5,5,2] parameter(1)
  k = f32[3,3,2,4] parameter(2)
  z = f32[] constant(0)
  cv = f32[1,3,3,4] convolution(x, k), window={size=3x3 stride=2x1 pad=1_1x0_2 lhs_dilate=1x2 rhs_dilate=3x1 rhs_reversal=0x1}, dim_labels=b01f_01io->b01f, feature_group_count=2, batch_group_count=3, operand_precision={high,default}, algorithm=dot_bf16_bf16_f32
  sl = f32[1,2] slice(p), slice={[0:1], [0:3:2]}
  pd = f32[5,8] pad(p, z), padding=0_1x2_3_1
  idx = s32[2,1] parameter(3)
  g = f32[2,3] gather(p, idx), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}, indices_are_sorted=true
  sc = f32[2,3] scatter(p, idx, p), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, unique_indices=true, to_apply=add
  cmp = pred[2,3] compare(p, p), direction=LT, type=TOTALORDER
  i = s32[] parameter(4)
  w = s32[] while(i), condition=cond, body=body
  pr = pred[] parameter(5)
  c1 = s32[] conditional(pr, i, i), true_computation=body, false_computation=body
  c2 = s32[] conditional(i, i, i, i), branch_computations={body, body, body}
  v = f32[4] parameter(6)
  f = f32[4] fusion(v), kind=kLoop, calls=fused
  cc = f32[4] custom-call(v), custom_call_target="my\"target", called_computations={fused, add}, operand_layout_constraints={f32[4]{0}}
  it = s32[5,3] iota(), iota_dimension=1
  t = (f32[4], s32[]) tuple(v, i)
  gte = s32[] get-tuple-element(t), index=1
  rp = f32[4] reduce-precision(v), exponent_bits=5, mantissa_bits=10
  ds = f32[1,2] dynamic-slice(p, i, i), dynamic_slice_sizes={1,2}
  tk = (f32[2,2], s32[2,2]) topk(p), k=2
  tks = (f32[2,1], s32[2,1]) topk(p), k=1, largest=false
  n = f32[4] negate(v), metadata={op_type="Neg" op_name="jit(f)/neg\n" source_file="/a/b.py" source_line=12 source_end_line=13 profile_type={1}}, backend_config={"k": "v"}
  e4 = f32[]{:T(256)} parameter(7)
  ROOT r = f32[4] add(v, v)
}, execution_thread="main"
)";

TEST(PrinterTest, Instructions) {
  auto m = Parse(kAttributes);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Printed(*m, "cv"),
            "%cv = f32[1,3,3,4]{3,2,1,0} convolution(%x, %k), window={size=3x3 "
            "stride=2x1 pad=1_1x0_2 lhs_dilate=1x2 rhs_dilate=3x1 "
            "rhs_reversal=0x1}, dim_labels=b01f_01io->b01f, "
            "feature_group_count=2, batch_group_count=3, "
            "operand_precision={high,default}, algorithm=dot_bf16_bf16_f32");
  EXPECT_EQ(Printed(*m, "sl"),
            "%sl = f32[1,2]{1,0} slice(%p), slice={[0:1], [0:3:2]}");
  // Interior padding is written for every dimension once any has it.
  EXPECT_EQ(Printed(*m, "pd"),
            "%pd = f32[5,8]{1,0} pad(%p, %z), padding=0_1_0x2_3_1");
  EXPECT_EQ(
      Printed(*m, "g"),
      "%g = f32[2,3]{1,0} gather(%p, %idx), offset_dims={1}, "
      "collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
      "slice_sizes={1,3}, indices_are_sorted=true");
  EXPECT_EQ(
      Printed(*m, "sc"),
      "%sc = f32[2,3]{1,0} scatter(%p, %idx, %p), update_window_dims={1}, "
      "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
      "index_vector_dim=1, unique_indices=true, to_apply=%add");
  EXPECT_EQ(
      Printed(*m, "cmp"),
      "%cmp = pred[2,3]{1,0} compare(%p, %p), direction=LT, type=TOTALORDER");
  EXPECT_EQ(Printed(*m, "w"),
            "%w = s32[] while(%i), condition=%cond, body=%body");
  EXPECT_EQ(Printed(*m, "c1"),
            "%c1 = s32[] conditional(%pr, %i, %i), true_computation=%body, "
            "false_computation=%body");
  EXPECT_EQ(Printed(*m, "c2"),
            "%c2 = s32[] conditional(%i, %i, %i, %i), "
            "branch_computations={%body, %body, %body}");
  EXPECT_EQ(Printed(*m, "f"),
            "%f = f32[4]{0} fusion(%v), kind=kLoop, calls=%fused");
  EXPECT_EQ(
      Printed(*m, "cc"),
      "%cc = f32[4]{0} custom-call(%v), custom_call_target=\"my\\\"target\", "
      "operand_layout_constraints={f32[4]{0}}, "
      "called_computations={%fused, %add}");
  EXPECT_EQ(Printed(*m, "it"), "%it = s32[5,3]{1,0} iota(), iota_dimension=1");
  EXPECT_EQ(Printed(*m, "gte"), "%gte = s32[] get-tuple-element(%t), index=1");
  EXPECT_EQ(Printed(*m, "rp"),
            "%rp = f32[4]{0} reduce-precision(%v), exponent_bits=5, "
            "mantissa_bits=10");
  EXPECT_EQ(Printed(*m, "ds"),
            "%ds = f32[1,2]{1,0} dynamic-slice(%p, %i, %i), "
            "dynamic_slice_sizes={1,2}");
  EXPECT_EQ(Printed(*m, "n"),
            "%n = f32[4]{0} negate(%v), backend_config={\"k\": \"v\"}, "
            "metadata={op_type=\"Neg\" op_name=\"jit(f)/neg\\n\" "
            "source_file=\"/a/b.py\" source_line=12 source_end_line=13 "
            "profile_type={1}}");
  // largest=true is XLA's default and is printed anyway, as XLA does.
  EXPECT_EQ(Printed(*m, "tk"),
            "%tk = (f32[2,2]{1,0}, s32[2,2]{1,0}) topk(%p), k=2, largest=true");
  EXPECT_EQ(Printed(*m, "tks"),
            "%tks = (f32[2,1]{1,0}, s32[2,1]{1,0}) topk(%p), k=1, "
            "largest=false");
  EXPECT_EQ(Printed(*m, "e4"), "%e4 = f32[]{:T(256)} parameter(7)");
  std::string printed = PrintModule(*m);
  EXPECT_NE(printed.find("}, execution_thread=\"main\"\n"), std::string::npos);
  EXPECT_NE(printed.find("\nENTRY %e (p: f32[2,3]{1,0}, "), std::string::npos);
}

TEST(PrinterTest, CraftedModulesAreStable) {
  ExpectStable(kModule);
  ExpectStable(kAttributes);
  ExpectStable(R"(HloModule lits
ENTRY e {
  a = f32[2,2] constant({ {1, -0}, {inf, nan(0x123)} })
  b = (s4[2], (c64[], pred[])) constant(({-8, 7}, ((1, -2.5), true)))
  c = f16[3] constant({0.1, -nan, 65504})
  d = f8e5m2[2] constant({nan(0x1), -inf})
  e = f32[0,3] constant({})
  f = f32[2,3] constant({...})
  ROOT g = bf16[] constant(0.3)
})");
  // A convolution without dim_labels prints none.
  ExpectStable(R"(HloModule conv
ENTRY e {
  a = f32[2,2] parameter(0)
  ROOT c = f32[2,2] convolution(a, a), window={size=1}
})");
  // A module without header or ENTRY, operands with shapes and comments.
  ExpectStable(R"(c1 {
  p = f32[2] parameter(0) // the input
  ROOT n = f32[2] negate(f32[2]{0} p)
}
c2 {
  /* x */ q = f32[2] parameter(0)
  ROOT k = f32[2] call(q), to_apply=c1, custom=true
})");
}

TEST(PrinterTest, LinalgAttributesPrintAsXlaWritesThem) {
  constexpr char kLinalg[] = R"(HloModule linalg
ENTRY e {
  x = f32[3,8] parameter(0)
  a = c64[2,4,4] parameter(1)
  b = c64[2,4,3] parameter(2)
  f = c64[3,5] fft(x), fft_type=RFFT, fft_length={3,8}
  s = c64[2,4,3] triangular-solve(a, b), left_side=true, lower=false, transpose_a=ADJOINT
  d = c64[2,4,3] triangular-solve(a, b), left_side=true, transpose_a=NO_TRANSPOSE
  ROOT c = c64[2,4,4] cholesky(a), lower=true
})";
  ExpectStable(kLinalg);
  absl::StatusOr<std::unique_ptr<Module>> m = ParseHloText(kLinalg, "t.hlo");
  ASSERT_TRUE(m.ok()) << m.status();
  const std::string text = PrintModule(**m);
  // fft's attributes always; the others only when not the default.
  EXPECT_NE(text.find("fft_type=RFFT, fft_length={3,8}"), std::string::npos);
  EXPECT_NE(text.find("left_side=true, transpose_a=ADJOINT"),
            std::string::npos);
  EXPECT_EQ(text.find("lower=false"), std::string::npos);
  EXPECT_EQ(text.find("NO_TRANSPOSE"), std::string::npos);
  EXPECT_NE(text.find("cholesky(%a), lower=true"),
            std::string::npos)
      << text;
}

TEST(PrinterTest, Literals) {
  auto m = Parse(R"(HloModule m
ENTRY e {
  f = f32[8] constant({0.1, 1e-45, 3.4028235e38, -0, 1, 1e10, nan, -nan})
  g = f32[3] constant({nan(0x1), inf, -inf})
  d = f64[2] constant({0.1, nan(0x8000000000000)})
  h = f16[3] constant({0.5, 65504, nan(0x1)})
  b = bf16[2] constant({-2, 1.5})
  m8 = f8e4m3fn[3] constant({448, 0.001953125, -nan})
  u8 = f8e4m3fnuz[1] constant({nan})
  e5 = f8e5m2[2] constant({nan(0x1), inf})
  i = s4[2] constant({-8, 7})
  l = s64[1] constant({-9223372036854775808})
  u = u64[] constant(18446744073709551615)
  c = c64[2] constant({(1, 2), (-0.5, inf)})
  t = (s32[], f32[2,2]) constant((1, { {1, 2}, {3, 4} }))
  z = f32[2,0] constant({ {}, {} })
  x = f32[2] constant({...})
  ROOT p = pred[2] constant({true, false})
})");
  ASSERT_NE(m, nullptr);
  auto lit = [&](std::string_view name) {
    return LiteralToString(m->entry()->FindInstruction(name)->literal());
  };
  EXPECT_EQ(lit("f"), "{0.1, 1e-45, 3.4028235e+38, -0, 1, 1e+10, nan, -nan}");
  EXPECT_EQ(lit("g"), "{nan(0x1), inf, -inf}");
  // The f64 canonical quiet NaN has only the top mantissa bit set.
  EXPECT_EQ(lit("d"), "{0.1, nan}");
  EXPECT_EQ(lit("h"), "{0.5, 65504, nan(0x1)}");
  EXPECT_EQ(lit("b"), "{-2, 1.5}");
  EXPECT_EQ(lit("m8"), "{448, 0.001953125, -nan}");
  EXPECT_EQ(lit("u8"), "{nan}");
  EXPECT_EQ(lit("e5"), "{nan(0x1), inf}");
  EXPECT_EQ(lit("i"), "{-8, 7}");
  EXPECT_EQ(lit("l"), "{-9223372036854775808}");
  EXPECT_EQ(lit("u"), "18446744073709551615");
  EXPECT_EQ(lit("c"), "{(1, 2), (-0.5, inf)}");
  EXPECT_EQ(lit("t"), "(1, { {1, 2}, {3, 4} })");
  EXPECT_EQ(lit("z"), "{ {}, {} }");
  EXPECT_EQ(lit("x"), "{...}");
  EXPECT_EQ(lit("p"), "{true, false}");
}

// Prints a literal of `count` raw patterns of type t, parses it back and
// compares the bytes.
void ExpectBitExact(PrimitiveType t, const std::vector<uint64_t>& patterns) {
  const int bytes = StorageBytes(t);
  Shape shape = Shape::Array(t, {static_cast<int64_t>(patterns.size())});
  Literal literal(shape);
  for (size_t i = 0; i < patterns.size(); ++i) {
    std::memcpy(literal.mutable_raw() + i * bytes, &patterns[i], bytes);
  }
  std::string text =
      absl::StrCat("HloModule m\nENTRY e {\n  ROOT c = ", shape.ToString(false),
                   " constant(", LiteralToString(literal), ")\n}\n");
  auto m = ParseHloText(text, "bits.hlo");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const Literal& back = (*m)->entry()->root()->literal();
  ASSERT_EQ(back.raw_size(), literal.raw_size());
  for (size_t i = 0; i < patterns.size(); ++i) {
    uint64_t got = 0;
    std::memcpy(&got, back.raw() + i * bytes, bytes);
    ASSERT_EQ(got, patterns[i]) << PrimitiveTypeName(t) << " pattern " << i;
  }
}

TEST(PrinterTest, EveryPatternOfSmallFloatsRoundTrips) {
  for (PrimitiveType t : {PrimitiveType::kF16, PrimitiveType::kBF16}) {
    std::vector<uint64_t> all(65536);
    for (uint64_t b = 0; b < all.size(); ++b) all[b] = b;
    ExpectBitExact(t, all);
  }
  for (PrimitiveType t :
       {PrimitiveType::kF8E5M2, PrimitiveType::kF8E4M3, PrimitiveType::kF8E3M4,
        PrimitiveType::kF8E4M3FN, PrimitiveType::kF8E4M3B11FNUZ,
        PrimitiveType::kF8E5M2FNUZ, PrimitiveType::kF8E4M3FNUZ,
        PrimitiveType::kF8E8M0FNU, PrimitiveType::kF6E3M2FN,
        PrimitiveType::kF6E2M3FN, PrimitiveType::kF4E2M1FN}) {
    std::vector<uint64_t> all(uint64_t{1} << BitWidth(t));
    for (uint64_t b = 0; b < all.size(); ++b) all[b] = b;
    // e4m3fn and e8m0fnu: each sign has one NaN pattern, so every pattern
    // still has its own text.
    ExpectBitExact(t, all);
  }
}

TEST(PrinterTest, RandomF32AndF64PatternsRoundTrip) {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> f32(20000);
  std::vector<uint64_t> f64(20000);
  for (auto& b : f32) b = rng() & 0xffffffffu;
  for (auto& b : f64) b = rng();
  // Edge patterns: zeros, denormals, max, inf, NaN payloads.
  for (uint64_t b :
       {0x0ull, 0x80000000ull, 0x1ull, 0x7f7fffffull, 0x7f800000ull,
        0xff800001ull, 0x7fc00000ull, 0x7fffffffull}) {
    f32.push_back(b);
  }
  for (uint64_t b :
       {0x0ull, 0x8000000000000000ull, 0x1ull, 0x7fefffffffffffffull,
        0x7ff0000000000000ull, 0xfff0000000000001ull, 0x7ff8000000000000ull}) {
    f64.push_back(b);
  }
  ExpectBitExact(PrimitiveType::kF32, f32);
  ExpectBitExact(PrimitiveType::kF64, f64);
}

}  // namespace
}  // namespace aotc
