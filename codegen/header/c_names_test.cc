// Tests of identifier validity, sanitizing, default model names and the
// CamelCase / upper-case spellings.
#include "codegen/header/c_names.h"

#include "gtest/gtest.h"

namespace aotc::codegen {
namespace {

TEST(CNamesTest, ValidIdentifiers) {
  for (const char* s : {"x", "_x", "Arg_0", "a1", "module", "final", "override",
                        "import", "main", "X"}) {
    EXPECT_TRUE(IsValidCIdentifier(s)) << s;
  }
}

TEST(CNamesTest, InvalidIdentifiers) {
  for (const char* s : {"", "1a", "a-b", "a.b", "a b", "%x", "\xc3\xa9"}) {
    EXPECT_FALSE(IsValidCIdentifier(s)) << s;
  }
}

TEST(CNamesTest, KeywordsOfCAndCpp) {
  for (const char* s :
       {"int", "class", "and", "xor_eq", "_Bool", "_Static_assert", "wchar_t",
        "nullptr", "typeof", "restrict", "constexpr", "co_await", "char8_t",
        "requires", "this", "new", "delete", "default", "register"}) {
    EXPECT_TRUE(IsCOrCppKeyword(s)) << s;
    EXPECT_FALSE(IsValidCIdentifier(s)) << s;
  }
  EXPECT_FALSE(IsCOrCppKeyword("Int"));
  EXPECT_FALSE(IsCOrCppKeyword("int_"));
}

TEST(CNamesTest, ReservedUnderscores) {
  EXPECT_TRUE(HasReservedUnderscores("_x"));
  EXPECT_TRUE(HasReservedUnderscores("x_"));
  EXPECT_TRUE(HasReservedUnderscores("a__b"));
  EXPECT_TRUE(HasReservedUnderscores("_"));
  EXPECT_FALSE(HasReservedUnderscores("a_b_c"));
  EXPECT_FALSE(HasReservedUnderscores("x"));
  EXPECT_FALSE(HasReservedUnderscores(""));
}

TEST(CNamesTest, Sanitize) {
  EXPECT_EQ(SanitizeIdentifier("Arg_0.1"), "Arg_0_1");
  EXPECT_EQ(SanitizeIdentifier("my-model.v2"), "my_model_v2");
  EXPECT_EQ(SanitizeIdentifier("__x__"), "x");
  EXPECT_EQ(SanitizeIdentifier("a..b"), "a_b");
  EXPECT_EQ(SanitizeIdentifier("a_.b"), "a_b");
  EXPECT_EQ(SanitizeIdentifier("params['w']"), "params_w");
  EXPECT_EQ(SanitizeIdentifier("..."), "");
  EXPECT_EQ(SanitizeIdentifier(""), "");
  EXPECT_EQ(SanitizeIdentifier("0.5"), "0_5");
  // Each byte of a UTF-8 sequence is one character to replace.
  EXPECT_EQ(SanitizeIdentifier("\xc3\xa9t\xc3\xa9"), "t");
}

TEST(CNamesTest, ModelNameFromPath) {
  EXPECT_EQ(ModelNameFromPath("my-model.v2.hlo"), "my_model_v2");
  EXPECT_EQ(ModelNameFromPath("dir/sub/model.hlo"), "model");
  EXPECT_EQ(ModelNameFromPath("dir.v1/x.y.z"), "x_y");
  EXPECT_EQ(ModelNameFromPath("C:\\models\\net.pb"), "net");
  EXPECT_EQ(ModelNameFromPath("noext"), "noext");
  EXPECT_EQ(ModelNameFromPath("samples/running_example.hlo"),
            "running_example");
  EXPECT_EQ(ModelNameFromPath("MyNet.hlo"), "MyNet");
}

TEST(CNamesTest, ModelNameFromPathFixesUnusableStems) {
  EXPECT_EQ(ModelNameFromPath("2layer.pb"), "m_2layer");
  EXPECT_EQ(ModelNameFromPath("int.hlo"), "m_int");
  EXPECT_EQ(ModelNameFromPath("_data.hlo"), "data");
  EXPECT_EQ(ModelNameFromPath("_private.hlo"), "m_private");
  EXPECT_EQ(ModelNameFromPath(".hlo"), "model");
  EXPECT_EQ(ModelNameFromPath("---.hlo"), "model");
  EXPECT_EQ(ModelNameFromPath(""), "model");
  EXPECT_EQ(ModelNameFromPath("dir/"), "model");
}

TEST(CNamesTest, CamelCase) {
  EXPECT_EQ(CamelCase("my_model_v2"), "MyModelV2");
  EXPECT_EQ(CamelCase("jit_running_example"), "JitRunningExample");
  EXPECT_EQ(CamelCase("x"), "X");
  EXPECT_EQ(CamelCase("m_2layer"), "M2layer");
  EXPECT_EQ(CamelCase("already_Camel"), "AlreadyCamel");
  EXPECT_EQ(CamelCase("xY"), "XY");
  EXPECT_EQ(CamelCase("x_y"), "XY");
  EXPECT_EQ(CamelCase(""), "Model");
  EXPECT_EQ(CamelCase("_1"), "Model1");
}

TEST(CNamesTest, UpperCase) {
  EXPECT_EQ(UpperCase("my_Model2"), "MY_MODEL2");
  EXPECT_EQ(UpperCase(""), "");
}

}  // namespace
}  // namespace aotc::codegen
