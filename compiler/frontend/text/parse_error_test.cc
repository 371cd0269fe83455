// Malformed HLO text: each case asserts the exact located message, source
// line and caret. Also checks that truncated and mutated input never crashes
// the parser.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/frontend/text/parser.h"
#include "compiler/ir/limits.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

std::string ErrorOf(std::string_view text) {
  auto m = ParseHloText(text, "test.hlo");
  EXPECT_FALSE(m.ok()) << "parsed unexpectedly:\n" << text;
  if (m.ok()) return "";
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(m.status().message());
}

// The full diagnostic: location, message, quoted line and caret.
std::string Located(int line, int column, std::string_view message,
                    std::string_view source_line) {
  return absl::StrCat("test.hlo:", line, ":", column, ": error: ", Sv(message),
                      "\n", Sv(source_line), "\n", std::string(column - 1, ' '),
                      "^");
}

// A module whose ENTRY has the single line `line` (line 3 of the text).
std::string Entry(std::string_view line) {
  return absl::StrCat("HloModule m\nENTRY e {\n", Sv(line), "\n}\n");
}

TEST(ParseErrorTest, InstructionLimitCountsEveryComputation) {
  // Three instructions in `add`, two in the entry: a limit of 4 stops at
  // the entry's second instruction, before it is built.
  const char* text =
      "HloModule m\nadd {\n  a = f32[] parameter(0)\n"
      "  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n"
      "ENTRY e {\n  p = f32[] parameter(0)\n  ROOT n = f32[] negate(p)\n}\n";
  HloParser limited(text, "test.hlo");
  limited.set_max_instructions(4);
  auto m = limited.ParseModule();
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(),
            Located(9, 8, "more than 4 instructions in the module",
                    "  ROOT n = f32[] negate(p)"));
  HloParser enough(text, "test.hlo");
  enough.set_max_instructions(5);
  EXPECT_TRUE(enough.ParseModule().ok());
  EXPECT_GE(kMaxInstructions, int64_t{1} << 20);
}

TEST(ParseErrorTest, BufferLimitIsCheckedBeforeAllocation) {
  // A 2^40-element f32 constant would need 4 TiB; the shape is refused
  // before its literal is allocated. A lowered limit refuses a 4 KiB one.
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = f32[1099511627776] constant({...})")),
            Located(3, 12,
                    "shape f32[1099511627776] needs 4398046511104 bytes, more "
                    "than the limit of 17179869184 bytes for one buffer "
                    "(--max-buffer-bytes)",
                    "  ROOT c = f32[1099511627776] constant({...})"));
  SetMaxBufferBytes(4095);
  const std::string error = ErrorOf(Entry("  ROOT p = f32[1024] parameter(0)"));
  SetMaxBufferBytes(kDefaultMaxBufferBytes);
  EXPECT_NE(error.find("shape f32[1024] needs 4096 bytes, more than the limit "
                       "of 4095 bytes"),
            std::string::npos)
      << error;
  EXPECT_TRUE(ParseHloText(Entry("  ROOT p = f32[1024] parameter(0)"),
                           "test.hlo")
                  .ok());
}

TEST(ParseErrorTest, TruncatedFile) {
  EXPECT_EQ(ErrorOf("HloModule m\n\nENTRY e {\n  p = f32[2] parameter(0)\n"
                    "  ROOT a = f32[2] add(p,"),
            Located(5, 25, "expected an operand name, found end of input",
                    "  ROOT a = f32[2] add(p,"));
  EXPECT_EQ(ErrorOf("HloModule m\n"),
            Located(1, 12, "expected a computation, found end of input",
                    "HloModule m"));
  EXPECT_EQ(ErrorOf(""),
            "test.hlo:1:1: error: expected a computation, found end of input");
  EXPECT_EQ(
      ErrorOf("HloModule m\nENTRY e {\n  ROOT p = f32[] parameter(0)\n"),
      Located(3, 30, "expected an instruction name or '}', found end of input",
              "  ROOT p = f32[] parameter(0)"));
}

TEST(ParseErrorTest, BinaryGarbage) {
  EXPECT_EQ(ErrorOf(std::string("\x7f"
                                "ELF\x02\x01\x01\x00",
                                8)),
            Located(1, 1, "unexpected byte 0x7f", "?ELF????"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT p = f32[] parameter(0) \x01")),
            Located(3, 31, "unexpected byte 0x01",
                    "  ROOT p = f32[] parameter(0) ?"));
}

TEST(ParseErrorTest, UnknownOpcode) {
  EXPECT_EQ(ErrorOf(Entry("  ROOT x = f32[] foo(y)")),
            Located(3, 18, "unknown opcode 'foo'", "  ROOT x = f32[] foo(y)"));
}

TEST(ParseErrorTest, UndefinedOperand) {
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
                    "  ROOT n = f32[] negate(q)\n}\n"),
            Located(4, 25, "instruction 'q' is not defined",
                    "  ROOT n = f32[] negate(q)"));
  // Defined after its use.
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  a = f32[] negate(b)\n"
                    "  b = f32[] parameter(0)\n}\n"),
            Located(3, 20, "instruction 'b' is not defined",
                    "  a = f32[] negate(b)"));
}

TEST(ParseErrorTest, UndefinedComputation) {
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
                    "  ROOT c = f32[] call(p), to_apply=missing\n}\n"),
            Located(4, 36, "computation 'missing' is not defined",
                    "  ROOT c = f32[] call(p), to_apply=missing"));
}

TEST(ParseErrorTest, DuplicateNames) {
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
                    "  p = f32[] parameter(1)\n}\n"),
            Located(4, 3, "instruction 'p' is already defined",
                    "  p = f32[] parameter(1)"));
  EXPECT_EQ(ErrorOf("HloModule m\nc {\n  ROOT p = f32[] parameter(0)\n}\n"
                    "c {\n  ROOT p = f32[] parameter(0)\n}\n"),
            Located(5, 1, "computation 'c' is already defined", "c {"));
}

TEST(ParseErrorTest, DynamicDimensions) {
  const std::string message =
      "dynamic dimensions are not supported: aotc compiles static shapes only";
  EXPECT_EQ(ErrorOf(Entry("  ROOT p = f32[?] parameter(0)")),
            Located(3, 16, message, "  ROOT p = f32[?] parameter(0)"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT p = f32[2,<=4] parameter(0)")),
            Located(3, 18, message, "  ROOT p = f32[2,<=4] parameter(0)"));
}

TEST(ParseErrorTest, ShapeSizeOverflowAndBadLayout) {
  EXPECT_EQ(ErrorOf(Entry("  ROOT p = f32[4611686018427387904] parameter(0)")),
            Located(3, 12,
                    "shape f32[4611686018427387904] has a byte size that "
                    "overflows 64 bits",
                    "  ROOT p = f32[4611686018427387904] parameter(0)"));
  EXPECT_EQ(
      ErrorOf(Entry("  ROOT p = f32[4294967296,4294967296] parameter(0)")),
      Located(3, 12,
              "shape f32[4294967296,4294967296] has more elements than "
              "fit in 64 bits",
              "  ROOT p = f32[4294967296,4294967296] parameter(0)"));
  EXPECT_EQ(
      ErrorOf(Entry("  ROOT p = f32[2,3]{0,0} parameter(0)")),
      Located(3, 12, "layout {0,0} is not a permutation of the dimensions",
              "  ROOT p = f32[2,3]{0,0} parameter(0)"));
}

TEST(ParseErrorTest, DeepNestingIsBounded) {
  // 100000 nested tuple shapes: refused at the 66th parenthesis.
  std::string parens(100000, '(');
  std::string text = Entry("  ROOT p = " + parens + " parameter(0)");
  EXPECT_EQ(ErrorOf(text), Located(3, 77, "shape nested deeper than 64 levels",
                                   "  ROOT p = " + std::string(149, '(')));
  // Braces deeper than the rank of the constant's shape.
  std::string braces(100000, '{');
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = f32[2] constant(" + braces)),
            Located(3, 29,
                    "constant has more levels of braces than shape f32[2] has "
                    "dimensions",
                    "  ROOT c = f32[2] constant(" + std::string(133, '{')));
  // Braces in a verbatim attribute value.
  // The quoted line is cut to 160 characters around the column.
  EXPECT_EQ(
      ErrorOf(Entry("  ROOT p = f32[] parameter(0), backend_config=" + braces)),
      "test.hlo:3:111: error: attribute value nested deeper than 64 levels\n"
      " backend_config=" +
          std::string(144, '{') + "\n" + std::string(80, ' ') + "^");
}

TEST(ParseErrorTest, LiteralElementCounts) {
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = f32[1000000000] constant({1, 2, 3})")),
            Located(3, 37,
                    "constant has 3 elements, shape f32[1000000000] needs "
                    "1000000000",
                    "  ROOT c = f32[1000000000] constant({1, 2, 3})"));
  EXPECT_EQ(
      ErrorOf(Entry("  ROOT c = s32[2,2] constant({ {1, 2, 3}, {4, 5} })")),
      Located(3, 32,
              "constant has 3 entries in dimension 1, shape s32[2,2] "
              "needs 2",
              "  ROOT c = s32[2,2] constant({ {1, 2, 3}, {4, 5} })"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = f32[100000000] constant(1)")),
            Located(3, 36,
                    "a single value for shape f32[100000000] needs "
                    "400000000 bytes, more than 67108864",
                    "  ROOT c = f32[100000000] constant(1)"));
}

TEST(ParseErrorTest, BadIntegers) {
  EXPECT_EQ(ErrorOf(Entry("  ROOT p = f32[] parameter(x)")),
            Located(3, 28, "expected an integer, found 'x'",
                    "  ROOT p = f32[] parameter(x)"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT p = f32[99999999999999999999] parameter(0)")),
            Located(3, 16, "integer '99999999999999999999' is out of range",
                    "  ROOT p = f32[99999999999999999999] parameter(0)"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = s8[] constant(300)")),
            Located(3, 26, "value 300 is out of range for s8",
                    "  ROOT c = s8[] constant(300)"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = s64[] constant(9223372036854775808)")),
            Located(3, 27, "value 9223372036854775808 is out of range for s64",
                    "  ROOT c = s64[] constant(9223372036854775808)"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = u32[] constant(-1)")),
            Located(3, 27, "value -1 is out of range for u32",
                    "  ROOT c = u32[] constant(-1)"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = s32[] constant(1.5)")),
            Located(3, 27, "expected an integer for s32, found '1.5'",
                    "  ROOT c = s32[] constant(1.5)"));
}

TEST(ParseErrorTest, BadFloats) {
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = f16[] constant(70000)")),
            Located(3, 27, "value 70000 is out of range for f16",
                    "  ROOT c = f16[] constant(70000)"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = f32[] constant(1e39)")),
            Located(3, 27, "value 1e39 is out of range for f32",
                    "  ROOT c = f32[] constant(1e39)"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = f8e4m3fn[] constant(inf)")),
            Located(3, 32, "f8e4m3fn has no infinity",
                    "  ROOT c = f8e4m3fn[] constant(inf)"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = f4e2m1fn[] constant(7)")),
            Located(3, 32, "value 7 is out of range for f4e2m1fn",
                    "  ROOT c = f4e2m1fn[] constant(7)"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = f4e2m1fn[] constant(nan)")),
            Located(3, 32, "f4e2m1fn has no nan",
                    "  ROOT c = f4e2m1fn[] constant(nan)"));
  EXPECT_EQ(
      ErrorOf(Entry("  ROOT c = f16[] constant(nan(0x400))")),
      Located(3, 27,
              "nan payload 0x400 does not fit the 10 mantissa bits of f16",
              "  ROOT c = f16[] constant(nan(0x400))"));
}

TEST(ParseErrorTest, UnterminatedStringAndComment) {
  EXPECT_EQ(
      ErrorOf(
          Entry("  ROOT c = f32[] custom-call(), custom_call_target=\"abc")),
      Located(3, 52, "unterminated string",
              "  ROOT c = f32[] custom-call(), custom_call_target=\"abc"));
  EXPECT_EQ(
      ErrorOf("HloModule m /* never closed"),
      Located(1, 13, "unterminated comment", "HloModule m /* never closed"));
}

TEST(ParseErrorTest, RootsAndEntries) {
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  ROOT a = f32[] parameter(0)\n"
                    "  ROOT b = f32[] parameter(1)\n}\n"),
            Located(4, 3, "more than one ROOT in computation 'e'",
                    "  ROOT b = f32[] parameter(1)"));
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY a {\n  ROOT p = f32[] parameter(0)\n}\n"
                    "ENTRY b {\n  ROOT p = f32[] parameter(0)\n}\n"),
            Located(5, 1, "more than one ENTRY computation", "ENTRY b {"));
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n}\n"),
            Located(2, 7, "computation 'e' has no instructions", "ENTRY e {"));
}

TEST(ParseErrorTest, MissingPieces) {
  EXPECT_EQ(ErrorOf(Entry("  ROOT a f32[] parameter(0)")),
            Located(3, 10, "expected '=', found 'f32'",
                    "  ROOT a f32[] parameter(0)"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT c = constant(1)")),
            Located(3, 12, "constant needs an explicit result shape",
                    "  ROOT c = constant(1)"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT p = parameter(0)")),
            Located(3, 8, "instruction 'p' needs an explicit result shape",
                    "  ROOT p = parameter(0)"));
  EXPECT_EQ(ErrorOf(Entry("  ROOT p = f32[] parameter(0), sharding=")),
            Located(4, 1, "expected an attribute value, found '}'", "}"));
}

TEST(ParseErrorTest, BadAttributes) {
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n"
                    "  ROOT c = pred[2] compare(p, p), direction=XX\n}\n"),
            Located(4, 45, "unknown comparison direction 'XX'",
                    "  ROOT c = pred[2] compare(p, p), direction=XX"));
  EXPECT_EQ(
      ErrorOf("HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n"
              "  ROOT t = f32[2] transpose(p), dimensions={0}, "
              "dimensions={0}\n}\n"),
      Located(
          4, 49, "attribute 'dimensions' is given twice",
          "  ROOT t = f32[2] transpose(p), dimensions={0}, dimensions={0}"));
  EXPECT_EQ(
      ErrorOf(
          "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n"
          "  ROOT c = f32[2] convolution(p, p), dim_labels=b0f_0io->bf\n}\n"),
      Located(4, 49, "invalid dimension labels 'b0f_0io->bf'",
              "  ROOT c = f32[2] convolution(p, p), dim_labels=b0f_0io->bf"));
}

// A module exercising most of the grammar, for truncation and mutation.
constexpr char kSample[] =
    R"(HloModule sample, entry_computation_layout={(f32[2,3]{1,0})->f32[2]{0}}

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b), metadata={op_name="x" source_line=3}
}

ENTRY main (p: f32[2,3]) -> f32[2] {
  p = f32[2,3]{1,0} parameter(0)
  z = f32[] constant(-inf)
  c = (s32[2], f16[]) constant(({1, 2}, nan(0x3)))
  t = f32[3,2] transpose(p), dimensions={1,0}
  w = f32[2,3] reduce-window(p, z), window={size=1x2 pad=0_0x1_0}, to_apply=add
  ROOT r = f32[2] reduce(w, z), dimensions={1}, to_apply=add, backend_config="{\"a\": [1]}"
}
)";

TEST(ParseErrorTest, EveryTruncationFailsCleanly) {
  const std::string text = kSample;
  ASSERT_TRUE(ParseHloText(text, "test.hlo").ok());
  for (size_t n = 0; n < text.size(); ++n) {
    // Only truncations inside the last computation's closing brace can
    // still form a complete module.
    (void)ParseHloText(text.substr(0, n), "test.hlo");
  }
}

TEST(ParseErrorTest, RandomMutationsNeverCrash) {
  const std::string text = kSample;
  std::mt19937 rng(12345);
  const std::string alphabet =
      "{}()[],:=%\"/*-<>?.0123456789xeinfa_ \n\x01\xff";
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::string mutated = text;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      size_t at = rng() % mutated.size();
      switch (rng() % 3) {
        case 0:
          mutated[at] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          mutated.erase(at, 1 + rng() % 8);
          break;
        default:
          mutated.insert(at, 1, alphabet[rng() % alphabet.size()]);
          break;
      }
      if (mutated.empty()) mutated = "x";
    }
    auto m = ParseHloText(mutated, "test.hlo");
    if (!m.ok()) {
      EXPECT_NE(std::string(m.status().message()).find("test.hlo:"),
                std::string::npos);
    }
  }
}

}  // namespace
}  // namespace aotc
