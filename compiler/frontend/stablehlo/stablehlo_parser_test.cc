// Tests of the StableHLO front end: types, literals, the IR each operation
// becomes (pretty and generic forms alike), regions, the IR contract other
// tools rely on (computations named after functions, tuple roots, calls,
// custom calls), and located errors.
#include "compiler/frontend/stablehlo/stablehlo_parser.h"

#include <cmath>
#include <cstring>
#include <string>

#include "compiler/frontend/load_module.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using ::testing::HasSubstr;

// Parses and verifies `text`; fails the test on an error.
std::unique_ptr<Module> Load(const std::string& text) {
  absl::StatusOr<std::unique_ptr<Module>> m =
      LoadModuleFromString(text, "test.mlir");
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (!m.ok()) return nullptr;
  return std::move(*m);
}

std::string ParseError(const std::string& text) {
  absl::StatusOr<std::unique_ptr<Module>> m = ParseStableHlo(text, "bad.mlir");
  EXPECT_FALSE(m.ok());
  return m.ok() ? "" : std::string(m.status().message());
}

// A module whose @main returns the value of `body`'s last line `%r`.
std::string Main(const std::string& args, const std::string& result,
                 const std::string& body) {
  return "module @m {\n  func.func public @main(" + args + ") -> " + result +
         " {\n" + body + "\n    return %r : " + result + "\n  }\n}\n";
}

const Literal& ConstantOf(const Module& m) {
  const Instruction* root = m.entry()->root();
  EXPECT_EQ(root->opcode(), Opcode::kConstant);
  return *root->attrs().literal;
}

// --- Types.

TEST(StableHloTypesTest, ElementTypesAndShapes) {
  auto m = Load(
      "func.func @main(%a: tensor<2x3xf32>, %b: tensor<i1>, %c: "
      "tensor<4xui16>, %d: tensor<complex<f64>>, %e: tensor<0x2xbf16>, %f: "
      "tensor<3xi64>, %g: tensor<f8E4M3FN>, %h: tensor<2xcomplex<f32>>, %i: "
      "tensor<i8>) -> tensor<2x3xf32> {\n  return %a : tensor<2x3xf32>\n}\n");
  ASSERT_NE(m, nullptr);
  const Computation& main = *m->entry();
  const char* expected[] = {"f32[2,3]",   "pred[]",    "u16[4]",
                            "c128[]",     "bf16[0,2]", "s64[3]",
                            "f8e4m3fn[]", "c64[2]",    "s8[]"};
  ASSERT_EQ(main.num_parameters(), 9);
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(main.parameter(i)->shape().ToString(false), expected[i]) << i;
  }
}

TEST(StableHloTypesTest, DynamicShapesAreRefusedWithALocation) {
  const std::string error = ParseError(
      "func.func @main(%a: tensor<?x3xf32>) -> tensor<?x3xf32> {\n"
      "  return %a : tensor<?x3xf32>\n}\n");
  EXPECT_THAT(error, HasSubstr("bad.mlir:1:28: error: dynamic dimensions "
                               "('?') are not supported"));
  EXPECT_THAT(ParseError("func.func @main(%a: tensor<*xf32>) -> "
                         "tensor<f32> {\n  return %a : tensor<f32>\n}\n"),
              HasSubstr("1:28: error: unranked tensors are not supported"));
}

// --- Literals.

TEST(StableHloLiteralTest, DecimalNestedIntegers) {
  auto m = Load(Main("", "tensor<2x2xi32>",
                     "    %r = stablehlo.constant dense<[[1, -2], [3, "
                     "2147483647]]> : tensor<2x2xi32>"));
  ASSERT_NE(m, nullptr);
  absl::Span<const int32_t> v = ConstantOf(*m).data<int32_t>();
  EXPECT_THAT(std::vector<int32_t>(v.begin(), v.end()),
              ::testing::ElementsAre(1, -2, 3, 2147483647));
}

TEST(StableHloLiteralTest, HexBytesAreLittleEndianRowMajor) {
  // 1.0f = 0x3F800000, 2.0f = 0x40000000, stored low byte first.
  auto m = Load(Main("", "tensor<2xf32>",
                     "    %r = stablehlo.constant dense<\"0x0000803F00000040\">"
                     " : tensor<2xf32>"));
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(ConstantOf(*m).Get<float>(0), 1.0f);
  EXPECT_EQ(ConstantOf(*m).Get<float>(1), 2.0f);
}

TEST(StableHloLiteralTest, HexSplatOfOneElementFillsTheTensor) {
  // 1.5f = 0x3FC00000.
  auto m = Load(Main("", "tensor<3xf32>",
                     "    %r = stablehlo.constant dense<\"0x0000C03F\"> : "
                     "tensor<3xf32>"));
  ASSERT_NE(m, nullptr);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(ConstantOf(*m).Get<float>(i), 1.5f);
}

TEST(StableHloLiteralTest, BooleansInHexTakeOneBytePerElement) {
  auto m = Load(Main("", "tensor<3xi1>",
                     "    %r = stablehlo.constant dense<\"0x000101\"> : "
                     "tensor<3xi1>"));
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(ConstantOf(*m).raw()[0], 0);
  EXPECT_EQ(ConstantOf(*m).raw()[1], 1);
  EXPECT_EQ(ConstantOf(*m).raw()[2], 1);
  auto d = Load(Main("", "tensor<2xi1>",
                     "    %r = stablehlo.constant dense<[true, false]> : "
                     "tensor<2xi1>"));
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(ConstantOf(*d).raw()[0], 1);
  EXPECT_EQ(ConstantOf(*d).raw()[1], 0);
}

TEST(StableHloLiteralTest, SplatAndSpecialFloats) {
  auto m = Load(Main("", "tensor<2x2xf64>",
                     "    %r = stablehlo.constant dense<-2.500000e+00> : "
                     "tensor<2x2xf64>"));
  ASSERT_NE(m, nullptr);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(ConstantOf(*m).Get<double>(i), -2.5);
  auto nan = Load(Main("", "tensor<f32>",
                       "    %r = stablehlo.constant dense<0x7FC00000> : "
                       "tensor<f32>"));
  ASSERT_NE(nan, nullptr);
  EXPECT_TRUE(std::isnan(ConstantOf(*nan).Get<float>(0)));
  // bf16 -inf is 0xFF80.
  auto inf = Load(Main("", "tensor<bf16>",
                       "    %r = stablehlo.constant dense<0xFF80> : "
                       "tensor<bf16>"));
  ASSERT_NE(inf, nullptr);
  EXPECT_EQ(ConstantOf(*inf).Get<uint16_t>(0), 0xFF80);
}

// Narrow float literals are rounded once, from the decimal, the way MLIR
// rounds them; the nearest double of a decimal just off a midpoint may be
// the midpoint itself. Each pair is (text, expected bits).
TEST(StableHloLiteralTest, NarrowFloatsRoundTheDecimalOnce) {
  struct Case {
    const char* type;
    const char* text;
    unsigned bits;
  };
  const Case cases[] = {
      // f8E8M0FNU, 2^(e - 127): 1 is 0x7f, 2 is 0x80; the midpoint 1.5 goes
      // up, as aotc's conversion of an exact tie does.
      {"f8E8M0FNU", "1.0", 0x7f},
      {"f8E8M0FNU", "1.5", 0x80},
      {"f8E8M0FNU", "1.4999999999999999999", 0x7f},
      {"f8E8M0FNU", "1.5000000000000000001", 0x80},
      {"f8E8M0FNU", "3.0", 0x81},
      {"f8E8M0FNU", "0.375", 0x7e},  // 1.5 * 2^-2 goes up to 2^-1
      // f16: 1 + 2^-11 is the midpoint of 1 (0x3c00) and 1 + 2^-10 (0x3c01).
      {"f16", "1.00048828125", 0x3c00},
      {"f16", "1.00048828125000000001", 0x3c01},
      {"f16", "1.00048828124999999999", 0x3c00},
      // bf16: 1 + 2^-8 is the midpoint of 1 (0x3f80) and 1 + 2^-7 (0x3f81).
      {"bf16", "1.00390625", 0x3f80},
      {"bf16", "1.0039062500000000001", 0x3f81},
      // f8E4M3FN: 1 + 2^-4 is the midpoint of 1 (0x38) and 1.125 (0x39).
      {"f8E4M3FN", "1.0625", 0x38},
      {"f8E4M3FN", "1.0625000000000000001", 0x39},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.type) + " " + c.text);
    const std::string t = std::string("tensor<") + c.type + ">";
    auto m = Load(Main("", t,
                       std::string("    %r = stablehlo.constant dense<") +
                           c.text + "> : " + t));
    ASSERT_NE(m, nullptr);
    const Literal& l = ConstantOf(*m);
    unsigned bits = l.raw()[0];
    if (l.raw_size() == 2) bits |= static_cast<unsigned>(l.raw()[1]) << 8;
    EXPECT_EQ(bits, c.bits);
  }
}

TEST(StableHloLiteralTest, ComplexPairs) {
  auto m = Load(Main("", "tensor<2xcomplex<f32>>",
                     "    %r = stablehlo.constant dense<[(1.0, 2.0), "
                     "(0x7F800000, -3.0)]> : tensor<2xcomplex<f32>>"));
  ASSERT_NE(m, nullptr);
  float parts[4];
  std::memcpy(parts, ConstantOf(*m).raw(), sizeof(parts));
  EXPECT_EQ(parts[0], 1.0f);
  EXPECT_EQ(parts[1], 2.0f);
  EXPECT_TRUE(std::isinf(parts[2]));
  EXPECT_EQ(parts[3], -3.0f);
}

TEST(StableHloLiteralTest, BadLiteralsAreLocated) {
  EXPECT_THAT(ParseError(Main("", "tensor<i8>",
                              "    %r = stablehlo.constant dense<128> : "
                              "tensor<i8>")),
              HasSubstr("bad.mlir:3:35: error: integer '128' does not fit s8"));
  EXPECT_THAT(ParseError(Main("", "tensor<3xf32>",
                              "    %r = stablehlo.constant dense<[1.0, 2.0]> "
                              ": tensor<3xf32>")),
              HasSubstr("error: literal has dimensions {2}, but the type is "
                        "f32[3]"));
  EXPECT_THAT(ParseError(Main("", "tensor<2xf32>",
                              "    %r = stablehlo.constant dense<\"0x0000\"> "
                              ": tensor<2xf32>")),
              HasSubstr("error: hex literal has 2 bytes, expected 8"));
}

TEST(StableHloLiteralTest, HugeSplatsAreRefused) {
  // 2^30 f32 elements are 4 GiB from a dozen characters of input.
  EXPECT_THAT(ParseError(Main("", "tensor<1073741824xf32>",
                              "    %r = stablehlo.constant dense<1.0> : "
                              "tensor<1073741824xf32>")),
              HasSubstr("bad.mlir:3:29: error: splat literal of 4294967296 "
                        "bytes is above the limit"));
}

}  // namespace
}  // namespace aotc
