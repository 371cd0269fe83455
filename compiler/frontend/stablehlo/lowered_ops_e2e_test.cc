// End to end: the StableHLO and CHLO operations the front end lowers into
// other HLO operations (chlo.mulhi; complex maximum, minimum, convert and
// atan2; dot_general with an algorithm; bitcast_convert to and from i1 and
// complex types), compiled and run, against values worked out by hand or by an
// independent formula written here (128-bit products, std::complex), and
// against the reference evaluator.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/tests/codegen_test_util.h"
#include "compiler/evaluator/evaluator_test_util.h"
#include "compiler/frontend/load_module.h"
#include "compiler/frontend/stablehlo/stablehlo_e2e_test_util.h"
#include "gmock/gmock.h"

namespace aotc {
namespace {

using ::testing::HasSubstr;
using P = PrimitiveType;

using shlo_testing::CompileChecked;
using shlo_testing::LoadError;

// `%r = <op> %a, %b : (T, T) -> R` as a module of two parameters.
std::string Binary(const std::string& op, const std::string& t,
                   const std::string& r) {
  return "func.func @main(%a: " + t + ", %b: " + t + ") -> " + r + " {\n" +
         "  %r = " + op + " %a, %b : " + t + ", " + t + " -> " + r + "\n" +
         "  return %r : " + r + "\n}\n";
}

std::string Generic(const std::string& op, const std::vector<std::string>& in,
                    const std::string& r) {
  std::string args, uses, types;
  for (size_t i = 0; i < in.size(); ++i) {
    const std::string sep = i > 0 ? ", " : "";
    args += sep + "%a" + std::to_string(i) + ": " + in[i];
    uses += sep + "%a" + std::to_string(i);
    types += sep + in[i];
  }
  return "func.func @main(" + args + ") -> " + r + " {\n  %r = \"" + op +
         "\"(" + uses + ") : (" + types + ") -> " + r +
         "\n  return %r : " + r + "\n}\n";
}

// 0x7fffffff * 2 = 0xfffffffe: high half 0; -1 * 1 = -1: high half -1
// (all ones); 0x7fffffff^2 = 2^62 - 2^32 + 1: 2^30 - 1; (-2^31)^2 = 2^62:
// 2^30; 64 * 4 = 256 in i8: 1; -64 * -4: 1; -64 * 4 = -256: -1.
TEST(MulhiE2eTest, SignedNarrowTypesByHand) {
  auto r = CompileChecked(
      Binary("chlo.mulhi", "tensor<4xi32>", "tensor<4xi32>"),
      {testing::Vec<P::kS32>({0x7fffffff, -1, 0x7fffffff, INT32_MIN}),
       testing::Vec<P::kS32>({2, 1, 0x7fffffff, INT32_MIN})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kS32>(r[0]),
            (std::vector<int32_t>{0, -1, (1 << 30) - 1, 1 << 30}));
  r = CompileChecked(Binary("chlo.mulhi", "tensor<3xi8>", "tensor<3xi8>"),
                     {testing::Vec<P::kS8>({64, -64, -64}),
                      testing::Vec<P::kS8>({4, -4, 4})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kS8>(r[0]), (std::vector<int8_t>{1, 1, -1}));
}

// Unsigned: 0xffffffff * 2 = 2^33 - 2: 1; 240 * 16 = 3840 in ui8: 15.
TEST(MulhiE2eTest, UnsignedNarrowTypesByHand) {
  auto r = CompileChecked(
      Binary("chlo.mulhi", "tensor<2xui32>", "tensor<2xui32>"),
      {testing::Vec<P::kU32>({0xffffffffu, 0x80000000u}),
       testing::Vec<P::kU32>({2, 2})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kU32>(r[0]), (std::vector<uint32_t>{1, 1}));
  r = CompileChecked(Binary("chlo.mulhi", "tensor<2xui8>", "tensor<2xui8>"),
                     {testing::Vec<P::kU8>({240, 255}),
                      testing::Vec<P::kU8>({16, 255})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kU8>(r[0]), (std::vector<uint8_t>{15, 254}));
}

// 64 bits, against the 128-bit product of the compiler's __int128.
TEST(MulhiE2eTest, SixtyFourBitsAgainstA128BitProduct) {
  const std::vector<int64_t> x = {-1, INT64_MIN, INT64_MIN, int64_t{1} << 60,
                                  INT64_MAX, 123456789012345, -987654321};
  const std::vector<int64_t> y = {-1, 2, INT64_MIN, -16, INT64_MAX,
                                  -98765432109876, -3};
  auto r = CompileChecked(
      Binary("chlo.mulhi", "tensor<7xi64>", "tensor<7xi64>"),
      {testing::Vec<P::kS64>(x), testing::Vec<P::kS64>(y)});
  ASSERT_EQ(r.size(), 1u);
  std::vector<int64_t> expected;
  for (size_t i = 0; i < x.size(); ++i) {
    expected.push_back(static_cast<int64_t>(
        (static_cast<__int128>(x[i]) * static_cast<__int128>(y[i])) >> 64));
  }
  EXPECT_EQ(testing::Values<P::kS64>(r[0]), expected);
  EXPECT_EQ(expected[0], 0);              // (-1)(-1) = 1
  EXPECT_EQ(expected[2], int64_t{1} << 62);  // 2^126

  const std::vector<uint64_t> u = {UINT64_MAX, 0xf000000000000000u,
                                   0x8000000000000000u, 0x123456789abcdefu};
  const std::vector<uint64_t> v = {UINT64_MAX, 16, 2, 0xfedcba987654321u};
  r = CompileChecked(Binary("chlo.mulhi", "tensor<4xui64>", "tensor<4xui64>"),
                     {testing::Vec<P::kU64>(u), testing::Vec<P::kU64>(v)});
  ASSERT_EQ(r.size(), 1u);
  std::vector<uint64_t> expected_u;
  for (size_t i = 0; i < u.size(); ++i) {
    expected_u.push_back(static_cast<uint64_t>(
        (static_cast<unsigned __int128>(u[i]) * v[i]) >> 64));
  }
  EXPECT_EQ(testing::Values<P::kU64>(r[0]), expected_u);
  EXPECT_EQ(expected_u[0], UINT64_MAX - 1);  // 2^128 - 2^65 + 1
}

TEST(MulhiE2eTest, FloatOperandsAreRefused) {
  EXPECT_THAT(
      LoadError(Binary("chlo.mulhi", "tensor<2xf32>", "tensor<2xf32>")),
      HasSubstr("bad.mlir:2:3: error: chlo.mulhi: element type f32 is not "
                "supported (integers of 8 to 64 bits are)"));
}

using C = std::complex<float>;

std::vector<C> ComplexValues(const Literal& l) {
  return testing::Values<P::kC64>(l);
}

// Lexicographic on (real, imaginary): max(1+5i, 1+7i) = 1+7i,
// max(2, 1+9i) = 2, max(-1+3i, -1-3i) = -1+3i; min the other ones; an
// operand with a NaN part is the result.
TEST(ComplexOpsE2eTest, MaximumAndMinimumAreLexicographic) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<C> a = {{1, 5}, {2, 0}, {-1, 3}, {nan, 0}, {4, 4}};
  const std::vector<C> b = {{1, 7}, {1, 9}, {-1, -3}, {5, 5}, {0, nan}};
  const std::string t = "tensor<5xcomplex<f32>>";
  auto mx = CompileChecked(Generic("stablehlo.maximum", {t, t}, t),
                           {testing::Vec<P::kC64>(a), testing::Vec<P::kC64>(b)});
  auto mn = CompileChecked(Generic("stablehlo.minimum", {t, t}, t),
                           {testing::Vec<P::kC64>(a), testing::Vec<P::kC64>(b)});
  ASSERT_EQ(mx.size(), 1u);
  ASSERT_EQ(mn.size(), 1u);
  const std::vector<C> max = ComplexValues(mx[0]);
  const std::vector<C> min = ComplexValues(mn[0]);
  EXPECT_EQ(max[0], C(1, 7));
  EXPECT_EQ(max[1], C(2, 0));
  EXPECT_EQ(max[2], C(-1, 3));
  EXPECT_EQ(min[0], C(1, 5));
  EXPECT_EQ(min[1], C(1, 9));
  EXPECT_EQ(min[2], C(-1, -3));
  for (const std::vector<C>* r : {&max, &min}) {
    EXPECT_TRUE(std::isnan((*r)[3].real()));
    EXPECT_TRUE(std::isnan((*r)[4].imag()));
  }
}

// convert keeps the real part: 2.75 - 1i -> 2.75, 2 (s32, toward zero),
// true (pred: nonzero); -0.5 + 9i -> -0.5, 0, true; 0 + 1i -> 0, 0, false.
TEST(ComplexOpsE2eTest, ConvertToRealTypesTakesTheRealPart) {
  const std::string t = "tensor<3xcomplex<f32>>";
  const std::string text =
      "func.func @main(%z: " + t + ") -> (tensor<3xf64>, tensor<3xi32>, "
      "tensor<3xi1>) {\n"
      "  %f = stablehlo.convert %z : (" + t + ") -> tensor<3xf64>\n"
      "  %i = stablehlo.convert %z : (" + t + ") -> tensor<3xi32>\n"
      "  %p = stablehlo.convert %z : (" + t + ") -> tensor<3xi1>\n"
      "  return %f, %i, %p : tensor<3xf64>, tensor<3xi32>, tensor<3xi1>\n}\n";
  auto r = CompileChecked(
      text, {testing::Vec<P::kC64>({C(2.75f, -1), C(-0.5f, 9), C(0, 1)})});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(testing::Values<P::kF64>(r[0]),
            (std::vector<double>{2.75, -0.5, 0}));
  EXPECT_EQ(testing::Values<P::kS32>(r[1]), (std::vector<int32_t>{2, 0, 0}));
  const std::vector<bool> pred = {r[2].raw()[0] != 0, r[2].raw()[1] != 0,
                                  r[2].raw()[2] != 0};
  EXPECT_EQ(pred, (std::vector<bool>{true, true, false}));
}

// atan2(y, x) = -i log((x + i y) / sqrt(x^2 + y^2)): atan2(1, 1) = pi/4;
// the rest against that formula in std::complex<double>.
TEST(ComplexOpsE2eTest, Atan2IsTheSpecsComplexFormula) {
  const std::vector<C> y = {{1, 0}, {-1, 3}, {0.5f, 0.25f}, {2, -1}};
  const std::vector<C> x = {{1, 0}, {-1, -3}, {1.5f, -0.75f}, {-0.5f, 0.5f}};
  const std::string t = "tensor<4xcomplex<f32>>";
  auto r = CompileChecked(Generic("stablehlo.atan2", {t, t}, t),
                          {testing::Vec<P::kC64>(y), testing::Vec<P::kC64>(x)});
  ASSERT_EQ(r.size(), 1u);
  const std::vector<C> got = ComplexValues(r[0]);
  EXPECT_NEAR(got[0].real(), 0.78539816f, 1e-6f);
  EXPECT_NEAR(got[0].imag(), 0.0f, 1e-6f);
  using D = std::complex<double>;
  const D i(0, 1);
  for (size_t k = 0; k < y.size(); ++k) {
    const D yy(y[k]), xx(x[k]);
    const D want = -i * std::log((xx + i * yy) / std::sqrt(xx * xx + yy * yy));
    EXPECT_NEAR(got[k].real(), want.real(), 2e-6 * (1 + std::abs(want)))
        << k;
    EXPECT_NEAR(got[k].imag(), want.imag(), 2e-6 * (1 + std::abs(want)))
        << k;
  }
}

// dot_general of a 1x3 and a 3x1 f32 matrix with `algorithm`.
std::string DotWithAlgorithm(const std::string& precision,
                             const std::string& accumulation,
                             int components = 1) {
  const std::string n = std::to_string(components);
  return "func.func @main(%a: tensor<1x3xf32>, %b: tensor<3x1xf32>) -> "
         "tensor<1x1xf32> {\n"
         "  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], "
         "algorithm = <lhs_precision_type = " + precision +
         ", rhs_precision_type = " + precision +
         ", accumulation_type = " + accumulation +
         ", lhs_component_count = " + n + ", rhs_component_count = " + n +
         ", num_primitive_operations = " + n +
         ", allow_imprecise_accumulation = false> : (tensor<1x3xf32>, "
         "tensor<3x1xf32>) -> tensor<1x1xf32>\n"
         "  return %r : tensor<1x1xf32>\n}\n";
}

float DotValue(const std::string& text, const std::vector<float>& a) {
  auto r = CompileChecked(text, {testing::MakeArray<P::kF32>({1, 3}, a),
                                 testing::MakeArray<P::kF32>({3, 1}, {1, 1, 1})});
  EXPECT_EQ(r.size(), 1u);
  return r.empty() ? 0 : testing::Values<P::kF32>(r[0])[0];
}

// The operands are rounded to the precision type before the product:
// 1 + 2^-10 has 10 fraction bits, which f16 and tf32 keep and bf16 (7)
// rounds away; 1 + 2^-11 is a tie that f16 and tf32 round to even, 1.
// Accumulation in f64 sums 2^24 + 1 - 2^24 exactly, to 1.
TEST(DotAlgorithmE2eTest, OperandsAreRoundedToThePrecisionType) {
  const float p10 = 1.0f + 1.0f / 1024;
  const float p11 = 1.0f + 1.0f / 2048;
  EXPECT_EQ(DotValue(DotWithAlgorithm("f32", "f32"), {p11, 0, 0}), p11);
  EXPECT_EQ(DotValue(DotWithAlgorithm("bf16", "f32"), {p10, 0, 0}), 1.0f);
  EXPECT_EQ(DotValue(DotWithAlgorithm("f16", "f32"), {p10, 0, 0}), p10);
  EXPECT_EQ(DotValue(DotWithAlgorithm("f16", "f32"), {p11, 0, 0}), 1.0f);
  EXPECT_EQ(DotValue(DotWithAlgorithm("tf32", "f32"), {p10, 0, 0}), p10);
  EXPECT_EQ(DotValue(DotWithAlgorithm("tf32", "f32"), {p11, 0, 0}), 1.0f);
  EXPECT_EQ(DotValue(DotWithAlgorithm("f32", "f64"), {16777216.0f, 1,
                                                      -16777216.0f}),
            1.0f);
  // bf16 x3 emulates f32: computed as an f32 product.
  EXPECT_EQ(DotValue(DotWithAlgorithm("bf16", "f32", 3), {p11, 0, 0}), p11);
}

TEST(DotAlgorithmE2eTest, OthersAreRefusedByName) {
  EXPECT_THAT(
      LoadError(DotWithAlgorithm("f8E4M3FN", "f32")),
      HasSubstr("bad.mlir:2:68: error: dot algorithm <lhs_precision_type = "
                "f8E4M3FN, rhs_precision_type = f8E4M3FN, accumulation_type = "
                "f32, lhs_component_count = 1, rhs_component_count = 1, "
                "num_primitive_operations = 1> is not supported"));
  EXPECT_THAT(LoadError(DotWithAlgorithm("bf16", "bf16")),
              HasSubstr("accumulation_type = bf16"));
  EXPECT_THAT(LoadError(DotWithAlgorithm("f32", "f32", 2)),
              HasSubstr("lhs_component_count = 2"));
  std::string text = DotWithAlgorithm("f32", "f32");
  text.replace(text.find("allow_imprecise"), 5, "bogus");
  EXPECT_THAT(LoadError(text), HasSubstr("unknown dot algorithm field"));
}

std::string Bitcast(const std::string& from, const std::string& to) {
  return "func.func @main(%x: " + from + ") -> " + to + " {\n"
         "  %r = stablehlo.bitcast_convert %x : (" + from + ") -> " + to +
         "\n  return %r : " + to + "\n}\n";
}

Literal Pred(std::vector<int64_t> dims, const std::vector<int>& bits) {
  Literal l(Shape::Array(P::kPred, std::move(dims)));
  for (size_t i = 0; i < bits.size(); ++i) l.mutable_raw()[i] = bits[i] ? 1 : 0;
  return l;
}

std::vector<int> PredValues(const Literal& l) {
  std::vector<int> v;
  for (int64_t i = 0; i < l.raw_size(); ++i) v.push_back(l.raw()[i] != 0);
  return v;
}

// An i1 element is one bit, element j of a group bit j, bytes little
// endian: [1,0,0,0,0,0,0,0] is 1, [0,...,0,1] is 128; 16 elements with
// element 8 set are 256 in ui16; 5 is [1,0,1,0,0,0,0,0].
TEST(BitcastE2eTest, BooleansAreOneBitEach) {
  auto r = CompileChecked(
      Bitcast("tensor<2x8xi1>", "tensor<2xui8>"),
      {Pred({2, 8}, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kU8>(r[0]), (std::vector<uint8_t>{1, 128}));
  std::vector<int> bits(16, 0);
  bits[8] = 1;
  r = CompileChecked(Bitcast("tensor<16xi1>", "tensor<ui16>"),
                     {Pred({16}, bits)});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kU16>(r[0]), (std::vector<uint16_t>{256}));
  r = CompileChecked(Bitcast("tensor<2xi8>", "tensor<2x8xi1>"),
                     {testing::Vec<P::kS8>({5, -128})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(PredValues(r[0]), (std::vector<int>{1, 0, 1, 0, 0, 0, 0, 0,  //
                                                0, 0, 0, 0, 0, 0, 0, 1}));
}

// A complex element is its real part's bits, then its imaginary part's:
// (1, -2) in c64 is 0x3f800000 in the low word and 0xc0000000 in the high.
TEST(BitcastE2eTest, ComplexIsRealThenImaginary) {
  const std::vector<std::complex<float>> z = {{1, -2}, {0.5f, 3}};
  auto r = CompileChecked(Bitcast("tensor<2xcomplex<f32>>", "tensor<2xui64>"),
                          {testing::Vec<P::kC64>(z)});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kU64>(r[0])[0], 0xc00000003f800000u);
  r = CompileChecked(Bitcast("tensor<2xcomplex<f32>>", "tensor<2x2xf32>"),
                     {testing::Vec<P::kC64>(z)});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(testing::Values<P::kF32>(r[0]),
            (std::vector<float>{1, -2, 0.5f, 3}));
  // c128 -> c64[2]: each double's bits become two floats, low word first,
  // which is the host's own memory layout.
  const std::vector<std::complex<double>> w = {{1.5, -0.25}};
  r = CompileChecked(
      Bitcast("tensor<1xcomplex<f64>>", "tensor<1x2xcomplex<f32>>"),
      {testing::Vec<P::kC128>(w)});
  ASSERT_EQ(r.size(), 1u);
  const double parts[2] = {w[0].real(), w[0].imag()};
  float expected[4];
  std::memcpy(expected, parts, sizeof(expected));
  ASSERT_EQ(r[0].raw_size(), static_cast<int64_t>(sizeof(expected)));
  EXPECT_EQ(std::memcmp(r[0].raw(), expected, sizeof(expected)), 0);
  // And back from the parts.
  r = CompileChecked(Bitcast("tensor<2xf64>", "tensor<2xcomplex<f32>>"),
                     {testing::Vec<P::kF64>({1.5, -3})});
  ASSERT_EQ(r.size(), 1u);
  const double d[2] = {1.5, -3};
  ASSERT_EQ(r[0].raw_size(), static_cast<int64_t>(sizeof(d)));
  EXPECT_EQ(std::memcmp(r[0].raw(), d, sizeof(d)), 0);
}

TEST(BitcastE2eTest, ShapesThatDoNotKeepTheBitsAreRefused) {
  EXPECT_THAT(LoadError(Bitcast("tensor<2x3xi1>", "tensor<2xui8>")),
              HasSubstr("bad.mlir:2:8: error: bitcast_convert from pred[2,3] "
                        "to u8[2] does not keep the bits"));
}

}  // namespace
}  // namespace aotc
