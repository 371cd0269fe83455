// Tests of the MLIR lexer: token kinds and texts, positions, tensor
// dimension lists and lexical errors.
#include "compiler/frontend/stablehlo/mlir_lexer.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aotc::shlo {
namespace {

std::vector<Tok> Lex(std::string_view text) {
  MlirLexer lexer(text);
  std::vector<Tok> toks;
  while (true) {
    Tok t = lexer.Next();
    if (t.Is(TokKind::kEof)) return toks;
    toks.push_back(t);
    if (t.Is(TokKind::kError)) return toks;
  }
}

TEST(MlirLexerTest, OperationLine) {
  std::vector<Tok> t = Lex(
      "%0:2 = call @f(%x#1) : () -> (tensor<f32>) // comment\n  ^bb0 "
      "#stablehlo.gather<> \"s\\\"q\" -1.5e+03 0x7FC00000 -7 !stablehlo.token");
  const std::vector<std::pair<TokKind, std::string>> expected = {
      {TokKind::kValue, "%0"},
      {TokKind::kColon, ":"},
      {TokKind::kInt, "2"},
      {TokKind::kEqual, "="},
      {TokKind::kIdent, "call"},
      {TokKind::kSymbol, "@f"},
      {TokKind::kLParen, "("},
      {TokKind::kValue, "%x#1"},
      {TokKind::kRParen, ")"},
      {TokKind::kColon, ":"},
      {TokKind::kLParen, "("},
      {TokKind::kRParen, ")"},
      {TokKind::kArrow, "->"},
      {TokKind::kLParen, "("},
      {TokKind::kIdent, "tensor"},
      {TokKind::kLess, "<"},
      {TokKind::kIdent, "f32"},
      {TokKind::kGreater, ">"},
      {TokKind::kRParen, ")"},
      {TokKind::kBlock, "^bb0"},
      {TokKind::kHashIdent, "#stablehlo.gather"},
      {TokKind::kLess, "<"},
      {TokKind::kGreater, ">"},
      {TokKind::kString, "\"s\\\"q\""},
      {TokKind::kFloat, "-1.5e+03"},
      {TokKind::kInt, "0x7FC00000"},
      {TokKind::kInt, "-7"},
      {TokKind::kHashIdent, "!stablehlo.token"},
  };
  ASSERT_EQ(t.size(), expected.size());
  for (size_t i = 0; i < t.size(); ++i) {
    EXPECT_EQ(t[i].kind, expected[i].first) << i;
    EXPECT_EQ(t[i].text, expected[i].second) << i;
  }
  // ^bb0 starts line 2, column 3.
  EXPECT_EQ(t[19].line, 2);
  EXPECT_EQ(t[19].column, 3);
}

TEST(MlirLexerTest, QuotedSymbolsAndDimensionLabels) {
  std::vector<Tok> t = Lex("@\"<lambda>\" [b, 0, f]x[0, i, o]->[b, 0, f]");
  ASSERT_GE(t.size(), 9u);
  EXPECT_EQ(t[0].kind, TokKind::kSymbol);
  EXPECT_EQ(t[0].text, "@\"<lambda>\"");
  EXPECT_EQ(t[8].kind, TokKind::kIdent);  // the x between the groups
  EXPECT_EQ(t[8].text, "x");
}

TEST(MlirLexerTest, DimensionLists) {
  const std::string text = "2x0x?x3xcomplex<f32>>";
  MlirLexer lexer(text);
  const Tok first = lexer.Next();  // "2"
  std::vector<int64_t> dims;
  ASSERT_TRUE(lexer.ScanDimensions(first, &dims));
  EXPECT_EQ(dims, (std::vector<int64_t>{2, 0, -1, 3}));
  const Tok element = lexer.Next();
  EXPECT_EQ(element.text, "complex");
  // A size beyond int64 is refused.
  MlirLexer big("99999999999999999999x3xf32");
  std::vector<int64_t> ignored;
  EXPECT_FALSE(big.ScanDimensions(big.Next(), &ignored));
}

TEST(MlirLexerTest, Errors) {
  std::vector<Tok> t = Lex("%ok \"open string\n");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[1].kind, TokKind::kError);
  EXPECT_STREQ(t[1].error, "unterminated string");
  t = Lex("% x");
  EXPECT_EQ(t[0].kind, TokKind::kError);
  t = Lex("\x01");
  EXPECT_EQ(t[0].kind, TokKind::kError);
  EXPECT_STREQ(t[0].error, "unexpected character");
}

}  // namespace
}  // namespace aotc::shlo
