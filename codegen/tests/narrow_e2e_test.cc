// End-to-end tests of the narrow element types (sub-byte integers and the
// 8-, 6- and 4-bit floats): compiled modules run on values whose results
// are worked out by hand in the comments, then random inputs checked
// against the reference evaluator at -O0 and -O2.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "codegen/tests/codegen_test_util.h"
#include "compiler/ir/minifloat.h"
#include "compiler/ir/narrow_type.h"
#include "tools/inputs.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

// A rank-1 literal of narrow type t: sub-byte integer values, or the
// encodings of minifloat values.
Literal NarrowVec(P t, const std::vector<double>& values) {
  Literal lit(Shape::Array(t, {static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) {
    lit.mutable_raw()[i] =
        IsSubByteInt(t) ? WrapSubByteInt(t, static_cast<int64_t>(values[i]))
                        : DoubleToMinifloat(t, values[i]);
  }
  return lit;
}

// The values of a narrow result (decoded from the low bits).
std::vector<double> NarrowValues(const Literal& lit) {
  std::vector<double> out;
  for (int64_t i = 0; i < lit.raw_size(); ++i) {
    out.push_back(NarrowToDouble(lit.shape().element_type(), lit.raw()[i]));
  }
  return out;
}

std::vector<int> RawBytes(const Literal& lit) {
  return std::vector<int>(lit.raw(), lit.raw() + lit.raw_size());
}

std::vector<Literal> RunModel(const std::string& hlo,
                              const std::vector<Literal>& args, int opt = 2) {
  auto r = CompileAndRun(hlo, args, opt);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? std::move(*r) : std::vector<Literal>();
}

TEST(NarrowCodegenTest, S4ArithmeticWrapsAtFourBits) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = s4[4] parameter(0)
  b = s4[4] parameter(1)
  add = s4[4] add(a, b)
  sub = s4[4] subtract(a, b)
  mul = s4[4] multiply(a, b)
  div = s4[4] divide(a, b)
  srl = s4[4] shift-right-logical(a, b)
  pop = s4[4] popcnt(a)
  ROOT t = (s4[4], s4[4], s4[4], s4[4], s4[4], s4[4]) tuple(add, sub, mul, div, srl, pop)
})";
  for (int opt : {0, 2}) {
    std::vector<Literal> r = RunModel(
        hlo,
        {NarrowVec(P::kS4, {7, -8, -1, 5}), NarrowVec(P::kS4, {1, -1, 1, 0})},
        opt);
    ASSERT_EQ(r.size(), 6u);
    // 7+1 = 8 -> -8; -8 + -1 = -9 -> 7; -1+1 = 0; 5+0 = 5.
    EXPECT_EQ(NarrowValues(r[0]), (std::vector<double>{-8, 7, 0, 5}));
    // 7-1 = 6; -8 - -1 = -7; -1-1 = -2; 5.
    EXPECT_EQ(NarrowValues(r[1]), (std::vector<double>{6, -7, -2, 5}));
    // 7; -8 * -1 = 8 -> -8; -1; 0.
    EXPECT_EQ(NarrowValues(r[2]), (std::vector<double>{7, -8, -1, 0}));
    // 7; INT_MIN / -1 = INT_MIN; -1; x / 0 = -1.
    EXPECT_EQ(NarrowValues(r[3]), (std::vector<double>{7, -8, -1, -1}));
    // 0111 >> 1 = 3; 1000 >> 15 (-1 as unsigned) = 0; 1111 >> 1 = 0111 = 7;
    // 0101 >> 0 = 5.
    EXPECT_EQ(NarrowValues(r[4]), (std::vector<double>{3, 0, 7, 5}));
    // popcnt 0111 = 3, 1000 = 1, 1111 = 4, 0101 = 2.
    EXPECT_EQ(NarrowValues(r[5]), (std::vector<double>{3, 1, 4, 2}));
    // Stored sign-extended: -8 is the byte 0xf8.
    EXPECT_EQ(RawBytes(r[0])[0], 0xf8);
  }
}

TEST(NarrowCodegenTest, UnsignedSubByteTypes) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = u4[3] parameter(0)
  b = u2[3] parameter(1)
  one = u4[] constant(1)
  ones = u4[3] broadcast(one), dimensions={}
  inc = u4[3] add(a, ones)
  clz = u4[3] count-leading-zeros(a)
  b4 = u4[3] convert(b)
  sum = u4[3] add(inc, b4)
  b2 = u2[3] add(b, b)
  ROOT t = (u4[3], u4[3], u4[3], u2[3]) tuple(inc, clz, sum, b2)
})";
  std::vector<Literal> r = RunModel(
      hlo, {NarrowVec(P::kU4, {15, 0, 8}), NarrowVec(P::kU2, {3, 1, 2})});
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(NarrowValues(r[0]), (std::vector<double>{0, 1, 9}));  // 16 -> 0
  EXPECT_EQ(NarrowValues(r[1]), (std::vector<double>{0, 4, 0}));  // 4-bit clz
  EXPECT_EQ(NarrowValues(r[2]), (std::vector<double>{3, 2, 11}));
  EXPECT_EQ(NarrowValues(r[3]), (std::vector<double>{2, 2, 0}));  // mod 4
  EXPECT_EQ(RawBytes(r[0]), (std::vector<int>{0, 1, 9}));  // zero-extended
}

TEST(NarrowCodegenTest, SubByteConversions) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  f = f32[6] parameter(0)
  i = s32[6] parameter(1)
  fs4 = s4[6] convert(f)
  fu2 = u2[6] convert(f)
  is4 = s4[6] convert(i)
  iu4 = u4[6] convert(i)
  back = f32[6] convert(fs4)
  wide = s64[6] convert(iu4)
  ROOT t = (s4[6], u2[6], s4[6], u4[6], f32[6], s64[6]) tuple(fs4, fu2, is4, iu4, back, wide)
})";
  std::vector<Literal> r =
      RunModel(hlo, {Vec<P::kF32>({100, -100, NAN, 3.7f, -3.7f, 2.5f}),
                     Vec<P::kS32>({9, -1, 16, -8, 7, 100})});
  ASSERT_EQ(r.size(), 6u);
  // Saturating, truncating toward zero, NaN -> 0.
  EXPECT_EQ(NarrowValues(r[0]), (std::vector<double>{7, -8, 0, 3, -3, 2}));
  EXPECT_EQ(NarrowValues(r[1]), (std::vector<double>{3, 0, 0, 3, 0, 2}));
  // Wrapping: 9 = 1001 -> -7; 16 -> 0; 100 = 0110 0100 -> 4.
  EXPECT_EQ(NarrowValues(r[2]), (std::vector<double>{-7, -1, 0, -8, 7, 4}));
  EXPECT_EQ(NarrowValues(r[3]), (std::vector<double>{9, 15, 0, 8, 7, 4}));
  EXPECT_EQ(Values<P::kF32>(r[4]), (std::vector<float>{7, -8, 0, 3, -3, 2}));
  EXPECT_EQ(Values<P::kS64>(r[5]), (std::vector<int64_t>{9, 15, 0, 8, 7, 4}));
}

TEST(NarrowCodegenTest, S4ReduceAndDot) {
  const std::string hlo = R"(HloModule m
add {
  x = s4[] parameter(0)
  y = s4[] parameter(1)
  ROOT s = s4[] add(x, y)
}
ENTRY e {
  a = s4[2,3] parameter(0)
  z = s4[] constant(0)
  sum = s4[2] reduce(a, z), dimensions={1}, to_apply=add
  d = s4[2,2] dot(a, a), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  ROOT t = (s4[2], s4[2,2]) tuple(sum, d)
})";
  Literal a(Shape::Array(P::kS4, {2, 3}));
  const int values[] = {7, 7, 7, -8, 1, 2};
  for (int i = 0; i < 6; ++i)
    a.mutable_raw()[i] = WrapSubByteInt(P::kS4, values[i]);
  std::vector<Literal> r = RunModel(hlo, {a});
  ASSERT_EQ(r.size(), 2u);
  // 21 = 16 + 5 -> 5; -8 + 1 + 2 = -5.
  EXPECT_EQ(NarrowValues(r[0]), (std::vector<double>{5, -5}));
  // row0.row0 = 147 = 9*16 + 3 -> 3; row0.row1 = -35 = -3*16 + 13 -> -3;
  // row1.row1 = 64 + 1 + 4 = 69 = 4*16 + 5 -> 5.
  EXPECT_EQ(NarrowValues(r[1]), (std::vector<double>{3, -3, -3, 5}));
}

TEST(NarrowCodegenTest, MinifloatDotAndConvolutionSumInFloatAndRoundOnce) {
  // 0.3 + 0.3 + 0.3 = 0.9 in float, which rounds to 0.875 in e5m2 (2
  // mantissa bits: 0.875 and 1.0 are neighbours, 0.9375 the midpoint).
  // Rounding each operand to e5m2 first would give 0.3125 * 3 = 0.9375, a
  // tie that rounds to even: 1.0.
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = f32[1,3] parameter(0)
  b = f32[3,1] parameter(1)
  d = f8e5m2[1,1] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  x = f32[1,3,1] reshape(a)
  k = f32[3,1,1] reshape(b)
  c = f8e5m2[1,1,1] convolution(x, k), window={size=3}, dim_labels=b0f_0io->b0f
  ROOT t = (f8e5m2[1,1], f8e5m2[1,1,1]) tuple(d, c)
})";
  const std::vector<Literal> args = {
      MakeArray<P::kF32>({1, 3}, {0.3f, 0.3f, 0.3f}),
      MakeArray<P::kF32>({3, 1}, {1, 1, 1})};
  for (int opt : {0, 2}) {
    std::vector<Literal> r = RunModel(hlo, args, opt);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(NarrowValues(r[0]), (std::vector<double>{0.875}));
    EXPECT_EQ(NarrowValues(r[1]), (std::vector<double>{0.875}));
  }
  ExpectMatchesEvaluator(hlo, args);
}

TEST(NarrowCodegenTest, MinifloatConvertsAndArithmetic) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  f = f32[4] parameter(0)
  e5 = f8e5m2[4] convert(f)
  e4 = f8e4m3fn[4] convert(e5)
  s = f8e4m3fn[4] add(e4, e4)
  c = f8e4m3fnuz[4] convert(e4)
  fnuz = f8e4m3fnuz[4] negate(c)
  e8 = f8e8m0fnu[4] convert(f)
  f4 = f4e2m1fn[4] convert(f)
  back = f32[4] convert(s)
  ROOT t = (f8e5m2[4], f8e4m3fn[4], f8e4m3fn[4], f8e4m3fnuz[4], f8e8m0fnu[4], f4e2m1fn[4], f32[4]) tuple(e5, e4, s, fnuz, e8, f4, back)
})";
  for (int opt : {0, 2}) {
    std::vector<Literal> r =
        RunModel(hlo, {Vec<P::kF32>({3.3f, 57344, 0, -0.3f})}, opt);
    ASSERT_EQ(r.size(), 7u);
    // e5m2 (2 mantissa bits): 3.3 -> 3.5 (0x43 = 0.10000.11), 57344 is the
    // largest (0x7b), 0, -0.3 -> -0.3125 (1.01101.01 = 0xb5).
    EXPECT_EQ(RawBytes(r[0]), (std::vector<int>{0x43, 0x7b, 0x00, 0xb5}));
    // e4m3fn: 3.5 = 0.1000.110 = 0x46; 57344 overflows to NaN 0x7f;
    // -0.3125 = -2^-2 * 1.25 = 1.0101.010 = 0xaa.
    EXPECT_EQ(RawBytes(r[1]), (std::vector<int>{0x46, 0x7f, 0x00, 0xaa}));
    // 3.5 + 3.5 = 7 = 0.1001.110 = 0x4e; NaN stays NaN; -0.625 = 0xb2.
    EXPECT_EQ(RawBytes(r[2]), (std::vector<int>{0x4e, 0x7f, 0x00, 0xb2}));
    // Negated in e4m3fnuz (bias 8): -3.5 = 1.1001.110 = 0xce; NaN is 0x80;
    // -0 is +0;
    // 0.3125 = 2^-2 * 1.25 = 0.0110.010 = 0x32.
    EXPECT_EQ(RawBytes(r[3]), (std::vector<int>{0xce, 0x80, 0x00, 0x32}));
    // e8m0fnu: 3.3 -> 4 = 2^2 (0x81); 57344 = 2^15 * 1.75 -> 2^16 (0x8f);
    // 0 -> 2^-127 (0x00); negative -> NaN (0xff).
    EXPECT_EQ(RawBytes(r[4]), (std::vector<int>{0x81, 0x8f, 0x00, 0xff}));
    // f4e2m1fn: 3.3 -> 3 (0.10.1 = 0x5); 57344 saturates to 6 (0x7); 0;
    // -0.3 -> -0.5 (1.00.1 = 0x9).
    EXPECT_EQ(RawBytes(r[5]), (std::vector<int>{0x5, 0x7, 0x0, 0x9}));
    const std::vector<float> back = Values<P::kF32>(r[6]);
    EXPECT_EQ(back[0], 7.0f);
    EXPECT_TRUE(std::isnan(back[1]));
    EXPECT_EQ(back[3], -0.625f);
  }
}

TEST(NarrowCodegenTest, MatchesTheEvaluatorOnRandomInputs) {
  const std::string hlo = R"(HloModule m
max4 {
  x = s4[] parameter(0)
  y = s4[] parameter(1)
  ROOT m = s4[] maximum(x, y)
}
ENTRY e {
  a = s4[64,33] parameter(0)
  b = u4[64,33] parameter(1)
  c = f8e4m3fn[64,33] parameter(2)
  d = f8e5m2fnuz[64,33] parameter(3)
  bs = s4[64,33] convert(b)
  x = s4[64,33] multiply(a, bs)
  sh = s4[64,33] shift-right-arithmetic(x, a)
  lo = s4[] constant(-8)
  mx = s4[64] reduce(sh, lo), dimensions={1}, to_apply=max4
  cd = f8e4m3fn[64,33] convert(d)
  e1 = f8e4m3fn[64,33] multiply(c, cd)
  e2 = f8e4m3fn[64,33] exponential(e1)
  cf = f32[64,33] convert(e2)
  dt = f32[64,64] dot(c, c), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  ROOT t = (s4[64], f8e4m3fn[64,33], f32[64,33], f32[64,64], s4[64,33]) tuple(mx, e2, cf, dt, x)
})";
  std::vector<Literal> args;
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  int stream = 0;
  for (const Instruction* p : (*module)->entry()->parameters()) {
    args.push_back(RandomLiteral(p->shape(), 7, stream++));
  }
  ExpectMatchesEvaluator(hlo, args);
  // Through the optimization pipeline (fusion) as well.
  auto expected = EvaluateModule(**module, args);
  ASSERT_TRUE(expected.ok()) << expected.status();
  auto fused = CompileAndRun(hlo, args, 2, /*optimize=*/true);
  ASSERT_TRUE(fused.ok()) << fused.status();
  const std::vector<const Literal*> leaves = expected->Leaves();
  ASSERT_EQ(fused->size(), leaves.size());
  for (size_t k = 0; k < leaves.size(); ++k) {
    const Comparison c =
        CompareLiterals((*fused)[k], *leaves[k],
                        DefaultTolerance(leaves[k]->shape().element_type()));
    EXPECT_TRUE(c.ok()) << "fused result " << k << ": " << c.first_mismatch;
  }
}

TEST(NarrowCodegenTest, PackedLayouts) {
  // Inside the model, E(4) packing changes nothing (one element per byte).
  const std::string inside = R"(HloModule m
ENTRY e {
  in = s4[2,2]{1,0:E(4)} constant({{-8, 7}, {3, -1}})
  t = s4[2,2]{0,1:E(4)} transpose(in), dimensions={1,0}
  ROOT out = s32[2,2] convert(t)
})";
  std::vector<Literal> r = RunModel(inside, {});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<P::kS32>(r[0]), (std::vector<int32_t>{-8, 3, 7, -1}));
  // At the interface it would change the caller's bytes: refused, located.
  auto refused = CompileText(R"(HloModule m
ENTRY e {
  p = s4[4]{0:E(4)} parameter(0)
  ROOT n = s4[4] negate(p)
})");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find(
                "test.hlo:3:3: error: parameter 'p' has layout {0:E(4)}"),
            std::string::npos)
      << refused.status();
}

// Interesting values for conversions: ties, saturation and overflow bounds
// of the narrow types, infinities, NaN, tiny values.
const std::vector<double>& EdgeValues() {
  static const std::vector<double> values = {
      0,          -0.0,     0.3,       1.5,   2.5,  -2.5,   7.9,
      -8.5,       15.5,     100,       -100,  448,  464,    480,
      57344,      61440,    1e6,       -1e30, 1e-5, 0x1p-9, 0x1p-10,
      0x1.8p-127, INFINITY, -INFINITY, NAN,   -NAN, 3,      -1};
  return values;
}

// The literal of array type t holding EdgeValues() as t's convert would:
// built by the evaluator itself from an f64 constant, so no test code
// decides how a value lands in t.
Literal EdgeLiteral(P t) {
  const int64_t n = static_cast<int64_t>(EdgeValues().size());
  Literal f64 = Vec<P::kF64>(EdgeValues());
  auto module = LoadModuleFromString(
      absl::StrCat("HloModule m\nENTRY e {\n  p = f64[", n,
                   "] parameter(0)\n  ROOT r = ", Sv(PrimitiveTypeName(t)), "[",
                   n, "] convert(p)\n}\n"),
      "edge.hlo");
  EXPECT_TRUE(module.ok()) << module.status();
  auto r = EvaluateModule(**module, {f64});
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? std::move(*r) : Literal();
}

// Every narrow type converted to and from every other array type (to the
// complex types only), compiled and compared bit for bit with the evaluator.
TEST(NarrowCodegenTest, EveryConversionMatchesTheEvaluatorBitForBit) {
  const P narrow[] = {
      P::kS2,       P::kS4,         P::kU2,         P::kU4,
      P::kF8E5M2,   P::kF8E4M3,     P::kF8E4M3FN,   P::kF8E4M3B11FNUZ,
      P::kF8E3M4,   P::kF8E5M2FNUZ, P::kF8E4M3FNUZ, P::kF8E8M0FNU,
      P::kF6E3M2FN, P::kF6E2M3FN,   P::kF4E2M1FN};
  std::vector<P> others = {P::kPred, P::kS8,  P::kS16, P::kS32, P::kS64,
                           P::kU8,   P::kU16, P::kU32, P::kU64, P::kF16,
                           P::kBF16, P::kF32, P::kF64};
  others.insert(others.end(), std::begin(narrow), std::end(narrow));
  const int64_t n = static_cast<int64_t>(EdgeValues().size());
  auto shape = [n](P t) {
    return absl::StrCat(Sv(PrimitiveTypeName(t)), "[", n, "]");
  };
  for (P t : narrow) {
    SCOPED_TRACE(PrimitiveTypeName(t));
    // Parameter 0 has type t, the others one each.
    std::string hlo = absl::StrCat("HloModule m\nENTRY e {\n  p0 = ", shape(t),
                                   " parameter(0)\n");
    std::vector<Literal> args = {EdgeLiteral(t)};
    std::vector<std::string> roots, root_shapes;
    for (size_t k = 0; k < others.size(); ++k) {
      const P o = others[k];
      if (o == t) continue;
      const size_t number = args.size();
      const std::string name = absl::StrCat("p", number);
      absl::StrAppend(&hlo, "  ", name, " = ", shape(o), " parameter(", number,
                      ")\n");
      args.push_back(EdgeLiteral(o));
      absl::StrAppend(&hlo, "  to", k, " = ", shape(o), " convert(p0)\n",
                      "  from", k, " = ", shape(t), " convert(", name, ")\n");
      roots.push_back(absl::StrCat("to", k));
      roots.push_back(absl::StrCat("from", k));
      root_shapes.push_back(shape(o));
      root_shapes.push_back(shape(t));
    }
    // To the complex types (with imaginary part 0; HLO has no convert back).
    for (P c : {P::kC64, P::kC128}) {
      const std::string name = absl::StrCat("to_", Sv(PrimitiveTypeName(c)));
      absl::StrAppend(&hlo, "  ", name, " = ", shape(c), " convert(p0)\n");
      roots.push_back(name);
      root_shapes.push_back(shape(c));
    }
    absl::StrAppend(&hlo, "  ROOT t = (", absl::StrJoin(root_shapes, ", "),
                    ") tuple(", absl::StrJoin(roots, ", "), ")\n}\n");
    auto module = LoadModuleFromString(hlo, "test.hlo");
    ASSERT_TRUE(module.ok()) << module.status();
    auto expected = EvaluateModule(**module, args);
    ASSERT_TRUE(expected.ok()) << expected.status();
    auto results = CompileAndRun(hlo, args);
    ASSERT_TRUE(results.ok()) << results.status();
    const std::vector<const Literal*> leaves = expected->Leaves();
    ASSERT_EQ(results->size(), leaves.size());
    for (size_t k = 0; k < leaves.size(); ++k) {
      EXPECT_TRUE((*results)[k].BitwiseEquals(*leaves[k]))
          << roots[k] << " (" << root_shapes[k] << "): compiled "
          << (*results)[k].shape().ToString() << " differs from the evaluator: "
          << CompareLiterals((*results)[k], *leaves[k], {0, 0}).first_mismatch;
    }
  }
}

TEST(NarrowCodegenTest, WidthChangingBitcastConvertIsRefused) {
  // s8 -> s4[4,2] would split each byte into two elements.
  auto refused = CompileText(R"(HloModule m
ENTRY e {
  p = s8[4] parameter(0)
  ROOT r = s4[4,2] bitcast-convert(p)
})");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find(
                "test.hlo:4:8: error: bitcast-convert from s8[4] to s4[4,2] is "
                "not supported by code generation"),
            std::string::npos)
      << refused.status();
  // Same width: u4 -> f4e2m1fn reinterprets the low four bits.
  // u4 1 (0001) is f4e2m1fn 0.5; 15 (1111) is -6; 6 (0110) is 4.
  std::vector<Literal> r = RunModel(R"(HloModule m
ENTRY e {
  p = u4[3] parameter(0)
  ROOT r = f4e2m1fn[3] bitcast-convert(p)
})",
                                    {NarrowVec(P::kU4, {1, 15, 6})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(NarrowValues(r[0]), (std::vector<double>{0.5, -6, 4}));
}

}  // namespace
}  // namespace aotc::codegen::testing
