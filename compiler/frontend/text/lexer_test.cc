// Tests of the HLO text lexer: token kinds, texts and positions, special
// lexemes, comments, errors and verbatim attribute values.
#include "compiler/frontend/text/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace aotc {
namespace {

using K = TokenKind;

struct Lexed {
  K kind;
  std::string text;
};

std::vector<Lexed> LexAll(std::string_view text) {
  Lexer lexer(text);
  std::vector<Lexed> tokens;
  while (true) {
    Token t = lexer.Next();
    if (t.Is(K::kEof)) break;
    tokens.push_back({t.kind, std::string(t.text)});
    if (t.Is(K::kError)) break;
  }
  return tokens;
}

void ExpectTokens(std::string_view text, const std::vector<Lexed>& expected) {
  std::vector<Lexed> got = LexAll(text);
  ASSERT_EQ(got.size(), expected.size()) << text;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].kind, expected[i].kind) << "token " << i << " of " << text;
    EXPECT_EQ(got[i].text, expected[i].text) << "token " << i << " of " << text;
  }
}

TEST(LexerTest, InstructionLine) {
  ExpectTokens("ROOT %add.1 = f32[2,3]{1,0} add(f32[2,3] %x, %y-z)",
               {{K::kName, "ROOT"}, {K::kName, "%add.1"}, {K::kEqual, "="},
                {K::kName, "f32"},  {K::kLsquare, "["},   {K::kInt, "2"},
                {K::kComma, ","},   {K::kInt, "3"},       {K::kRsquare, "]"},
                {K::kLbrace, "{"},  {K::kInt, "1"},       {K::kComma, ","},
                {K::kInt, "0"},     {K::kRbrace, "}"},    {K::kName, "add"},
                {K::kLparen, "("},  {K::kName, "f32"},    {K::kLsquare, "["},
                {K::kInt, "2"},     {K::kComma, ","},     {K::kInt, "3"},
                {K::kRsquare, "]"}, {K::kName, "%x"},     {K::kComma, ","},
                {K::kName, "%y-z"}, {K::kRparen, ")"}});
}

TEST(LexerTest, Signature) {
  ExpectTokens("%c (p: f32[]) -> (s32[], token[])", {{K::kName, "%c"},
                                                     {K::kLparen, "("},
                                                     {K::kName, "p"},
                                                     {K::kColon, ":"},
                                                     {K::kName, "f32"},
                                                     {K::kLsquare, "["},
                                                     {K::kRsquare, "]"},
                                                     {K::kRparen, ")"},
                                                     {K::kArrow, "->"},
                                                     {K::kLparen, "("},
                                                     {K::kName, "s32"},
                                                     {K::kLsquare, "["},
                                                     {K::kRsquare, "]"},
                                                     {K::kComma, ","},
                                                     {K::kName, "token"},
                                                     {K::kLsquare, "["},
                                                     {K::kRsquare, "]"},
                                                     {K::kRparen, ")"}});
  // The arrow is not part of a name.
  ExpectTokens("a->b", {{K::kName, "a"}, {K::kArrow, "->"}, {K::kName, "b"}});
}

TEST(LexerTest, Numbers) {
  ExpectTokens("0 -17 1.5 -2.5e-3 1e+10 .5 3. 9223372036854775808",
               {{K::kInt, "0"},
                {K::kInt, "-17"},
                {K::kFloat, "1.5"},
                {K::kFloat, "-2.5e-3"},
                {K::kFloat, "1e+10"},
                {K::kFloat, ".5"},
                {K::kFloat, "3."},
                {K::kInt, "9223372036854775808"}});
  ExpectTokens("inf -inf nan -nan nan(0x7f) -nan(0x1)",
               {{K::kFloat, "inf"},
                {K::kFloat, "-inf"},
                {K::kFloat, "nan"},
                {K::kFloat, "-nan"},
                {K::kFloat, "nan(0x7f)"},
                {K::kFloat, "-nan(0x1)"}});
  // Words that merely start like the special values are names.
  ExpectTokens("info nanny", {{K::kName, "info"}, {K::kName, "nanny"}});
}

TEST(LexerTest, AttributeLexemes) {
  ExpectTokens("dim_labels=b01f_01io->b01f",
               {{K::kName, "dim_labels"},
                {K::kEqual, "="},
                {K::kDimLabels, "b01f_01io->b01f"}});
  ExpectTokens(
      "bf_io->bf 01bf_oi01->bf01",
      {{K::kDimLabels, "bf_io->bf"}, {K::kDimLabels, "01bf_oi01->bf01"}});
  ExpectTokens("size=3x3 pad=0_1x2_2_1 stride=2 pad=-1_-2 lhs_dilate=1x2x3",
               {{K::kName, "size"},
                {K::kEqual, "="},
                {K::kDxD, "3x3"},
                {K::kName, "pad"},
                {K::kEqual, "="},
                {K::kPad, "0_1x2_2_1"},
                {K::kName, "stride"},
                {K::kEqual, "="},
                {K::kInt, "2"},
                {K::kName, "pad"},
                {K::kEqual, "="},
                {K::kPad, "-1_-2"},
                {K::kName, "lhs_dilate"},
                {K::kEqual, "="},
                {K::kDxD, "1x2x3"}});
  ExpectTokens("{...} f32[<=4,?]", {{K::kLbrace, "{"},
                                    {K::kEllipsis, "..."},
                                    {K::kRbrace, "}"},
                                    {K::kName, "f32"},
                                    {K::kLsquare, "["},
                                    {K::kLeq, "<="},
                                    {K::kInt, "4"},
                                    {K::kComma, ","},
                                    {K::kQuestion, "?"},
                                    {K::kRsquare, "]"}});
}

TEST(LexerTest, StringsKeepEscapes) {
  ExpectTokens(R"(op_name="a\"b\\c" x="")", {{K::kName, "op_name"},
                                             {K::kEqual, "="},
                                             {K::kString, R"("a\"b\\c")"},
                                             {K::kName, "x"},
                                             {K::kEqual, "="},
                                             {K::kString, R"("")"}});
}

TEST(LexerTest, CommentsAreSkipped) {
  ExpectTokens("a /* c1 */ b // to the end\n/*index=5*/c",
               {{K::kName, "a"}, {K::kName, "b"}, {K::kName, "c"}});
}

TEST(LexerTest, LinesAndColumns) {
  Lexer lexer("HloModule m\n\n  ENTRY  %e {\r\n\tx");
  std::vector<std::pair<int, int>> positions;
  for (Token t = lexer.Next(); !t.Is(K::kEof); t = lexer.Next()) {
    positions.push_back({t.line, t.column});
  }
  std::vector<std::pair<int, int>> expected = {{1, 1},  {1, 11}, {3, 3},
                                               {3, 10}, {3, 13}, {4, 2}};
  EXPECT_EQ(positions, expected);
}

TEST(LexerTest, EndOfInputPointsAfterTheLastCharacter) {
  Lexer lexer("a\n  bc  \n\n");
  lexer.Next();
  lexer.Next();
  Token eof = lexer.Next();
  EXPECT_TRUE(eof.Is(K::kEof));
  EXPECT_EQ(eof.line, 2);
  EXPECT_EQ(eof.column, 5);
  // Repeated calls keep returning end of input.
  EXPECT_TRUE(lexer.Next().Is(K::kEof));
  Lexer empty("");
  Token t = empty.Next();
  EXPECT_TRUE(t.Is(K::kEof));
  EXPECT_EQ(t.line, 1);
  EXPECT_EQ(t.column, 1);
}

TEST(LexerTest, Errors) {
  struct Case {
    std::string text;
    std::string message;
    int line;
    int column;
  };
  std::vector<Case> cases = {
      {"a \"open", "unterminated string", 1, 3},
      {"a\n /* open", "unterminated comment", 2, 2},
      {"a $", "unexpected character '$'", 1, 3},
      {std::string("a \x01", 3), "unexpected byte 0x01", 1, 3},
      {"\xff\xfe", "unexpected byte 0xff", 1, 1},
      {"% x", "unexpected character '%'", 1, 1},
      {"a - b", "unexpected character '-'", 1, 3},
  };
  for (const Case& c : cases) {
    Lexer lexer(c.text);
    Token t = lexer.Next();
    while (!t.Is(K::kError) && !t.Is(K::kEof)) t = lexer.Next();
    ASSERT_TRUE(t.Is(K::kError)) << c.text;
    EXPECT_EQ(t.error, c.message);
    EXPECT_EQ(t.line, c.line) << c.text;
    EXPECT_EQ(t.column, c.column) << c.text;
  }
}

TEST(LexerTest, DescribeToken) {
  Lexer lexer("abc");
  Token t = lexer.Next();
  EXPECT_EQ(DescribeToken(t), "'abc'");
  EXPECT_EQ(DescribeToken(lexer.Next()), "end of input");
  const std::string long_text(50, 'x');
  Lexer long_name(long_text);
  EXPECT_EQ(DescribeToken(long_name.Next()),
            "'" + std::string(40, 'x') + "...'");
}

TEST(LexerTest, RawValues) {
  struct Case {
    std::string text;
    std::string value;
  };
  std::vector<Case> cases = {
      {"true, next", "true"},
      {"{replicated}\n  %x = f32[]", "{replicated}"},
      {"\"a, b}\" rest", "\"a, b}\""},
      {"{{0}: (1, {}), {1}: (0, {0})}, calls=x",
       "{{0}: (1, {}), {1}: (0, {0})}"},
      {"{\"k\":\"v}\" /* } */}\n", "{\"k\":\"v}\" /* } */}"},
      {"[2,1]<=[2], x", "[2,1]<=[2]"},
      {"b01f_01io->b01f}", "b01f_01io->b01f"},
      {"}", ""},
      {", x", ""},
  };
  for (const Case& c : cases) {
    Lexer lexer(c.text);
    Token t = lexer.RawValue();
    ASSERT_TRUE(t.Is(K::kRaw)) << c.text << ": " << t.error;
    EXPECT_EQ(t.text, c.value) << c.text;
  }
}

TEST(LexerTest, RawValueErrors) {
  struct Case {
    std::string text;
    std::string message;
    int line;
    int column;
  };
  std::vector<Case> cases = {
      {"{a, (b}", "expected ')', found '}'", 1, 7},
      {"{a,\n [b", "unbalanced '[' in attribute value", 2, 2},
      {"{\"x}", "unterminated string", 1, 2},
      {"{ /* x", "unterminated comment", 1, 3},
      {std::string(65, '{'), "attribute value nested deeper than 64 levels", 1,
       65},
  };
  for (const Case& c : cases) {
    Lexer lexer(c.text);
    Token t = lexer.RawValue();
    ASSERT_TRUE(t.Is(K::kError)) << c.text;
    EXPECT_EQ(t.error, c.message) << c.text;
    EXPECT_EQ(t.line, c.line) << c.text;
    EXPECT_EQ(t.column, c.column) << c.text;
  }
}

TEST(LexerTest, ResetToRereadsAToken) {
  Lexer lexer("x = {a b}\ny");
  lexer.Next();
  lexer.Next();
  Token brace = lexer.Next();
  lexer.ResetTo(brace);
  Token raw = lexer.RawValue();
  EXPECT_EQ(raw.text, "{a b}");
  Token y = lexer.Next();
  EXPECT_EQ(y.text, "y");
  EXPECT_EQ(y.line, 2);
  EXPECT_EQ(y.column, 1);
}

}  // namespace
}  // namespace aotc
