// Tests of BuildSignature: argument and result naming, de-duplication, type
// mapping, layouts, the HLO signature string, and the exact errors.
#include "codegen/header/signature.h"

#include "codegen/header/header_test_util.h"
#include "compiler/frontend/load_module.h"
#include "compiler/support/strings.h"
#include "gtest/gtest.h"

namespace aotc::codegen {
namespace {

using testing::SignatureError;
using testing::SignatureOf;

std::vector<std::string> ArgNames(const ModelSignature& sig) {
  std::vector<std::string> names;
  for (const TensorInfo& t : sig.args) names.push_back(t.name);
  return names;
}

std::vector<std::string> ResultNames(const ModelSignature& sig) {
  std::vector<std::string> names;
  for (const TensorInfo& t : sig.results) names.push_back(t.name);
  return names;
}

// A module whose entry has scalar f32 parameters with the given attribute
// text (e.g. `, metadata={op_name="x"}`) and returns parameter 0.
std::string ScalarParams(const std::vector<std::string>& suffixes) {
  std::string text = "HloModule m\nENTRY e {\n";
  for (size_t i = 0; i < suffixes.size(); ++i) {
    absl::StrAppend(&text, "  p", i, " = f32[] parameter(", i, ")", suffixes[i],
                    "\n");
  }
  absl::StrAppend(&text, "  ROOT r = f32[] negate(p0)\n}\n");
  return text;
}

std::string OpName(std::string_view name) {
  return absl::StrCat(", metadata={op_name=\"", Sv(name), "\"}");
}

// The full located diagnostic for line `line`, column `column` of test.hlo.
std::string Located(int line, int column, std::string_view message,
                    std::string_view source_line) {
  return absl::StrCat("test.hlo:", line, ":", column, ": error: ", Sv(message),
                      "\n", Sv(source_line), "\n", std::string(column - 1, ' '),
                      "^");
}

TEST(SignatureTest, RunningExample) {
  absl::StatusOr<std::unique_ptr<Module>> m =
      LoadModuleFromFile(AOTC_SOURCE_DIR "/samples/running_example.hlo");
  ASSERT_TRUE(m.ok()) << m.status();
  absl::StatusOr<ModelSignature> sig =
      BuildSignature(**m, "running_example", "");
  ASSERT_TRUE(sig.ok()) << sig.status();
  EXPECT_EQ(sig->name, "running_example");
  EXPECT_EQ(sig->cpp_namespace, "");
  EXPECT_EQ(sig->hlo_signature,
            "(x: f32[4096,4096], y: f32[4096,4096]) -> f32[]");
  EXPECT_EQ(sig->temp_bytes, 0);
  EXPECT_EQ(sig->alignment, 64);
  ASSERT_EQ(sig->args.size(), 2u);
  const TensorInfo& x = sig->args[0];
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(x.hlo_name, "Arg_0.1");
  EXPECT_EQ(x.type, PrimitiveType::kF32);
  EXPECT_EQ(x.dims, (std::vector<int64_t>{4096, 4096}));
  EXPECT_EQ(x.minor_to_major, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(x.element_count, 4096 * 4096);
  EXPECT_EQ(x.byte_size, int64_t{4096} * 4096 * 4);
  EXPECT_EQ(sig->args[1].name, "y");
  EXPECT_EQ(sig->args[1].hlo_name, "Arg_1.2");
  ASSERT_EQ(sig->results.size(), 1u);
  const TensorInfo& r = sig->results[0];
  EXPECT_EQ(r.name, "result0");
  EXPECT_EQ(r.hlo_name, "");
  EXPECT_EQ(r.type, PrimitiveType::kF32);
  EXPECT_TRUE(r.dims.empty());
  EXPECT_TRUE(r.minor_to_major.empty());
  EXPECT_EQ(r.element_count, 1);
  EXPECT_EQ(r.byte_size, 4);
}

TEST(SignatureTest, CTypes) {
  using P = PrimitiveType;
  const std::pair<P, const char*> expected[] = {
      {P::kPred, "uint8_t"}, {P::kS8, "int8_t"},     {P::kS16, "int16_t"},
      {P::kS32, "int32_t"},  {P::kS64, "int64_t"},   {P::kU8, "uint8_t"},
      {P::kU16, "uint16_t"}, {P::kU32, "uint32_t"},  {P::kU64, "uint64_t"},
      {P::kF16, "uint16_t"}, {P::kBF16, "uint16_t"}, {P::kF32, "float"},
      {P::kF64, "double"},
      // Narrow types take a byte each (compiler/ir/narrow_type.h).
      {P::kS4, "int8_t"},    {P::kS2, "int8_t"},     {P::kU4, "uint8_t"},
      {P::kU2, "uint8_t"},   {P::kF8E5M2, "uint8_t"}, {P::kF8E4M3FN, "uint8_t"},
      {P::kF4E2M1FN, "uint8_t"},
      // Complex elements are (re, im) pairs of their part's type.
      {P::kC64, "float"},    {P::kC128, "double"},
  };
  for (const auto& [type, c_type] : expected) {
    ASSERT_TRUE(CTypeName(type).has_value()) << PrimitiveTypeName(type);
    EXPECT_EQ(*CTypeName(type), c_type) << PrimitiveTypeName(type);
  }
  for (P type :
       {P::kU1, P::kS1, P::kToken, P::kOpaque, P::kTuple, P::kInvalid}) {
    EXPECT_FALSE(CTypeName(type).has_value()) << PrimitiveTypeName(type);
  }
}

TEST(SignatureTest, NamesFromInstructionNamesWithoutMetadata) {
  ModelSignature sig = SignatureOf(R"(HloModule m
ENTRY e {
  Arg_0.1 = f32[2] parameter(0)
  weights = s32[3] parameter(1)
  ROOT r = f32[2] negate(Arg_0.1)
})");
  EXPECT_EQ(ArgNames(sig), (std::vector<std::string>{"Arg_0_1", "weights"}));
  EXPECT_EQ(sig.args[0].hlo_name, "Arg_0.1");
  EXPECT_EQ(sig.hlo_signature, "(Arg_0_1: f32[2], weights: s32[3]) -> f32[2]");
}

TEST(SignatureTest, OpNamesThatAreNotIdentifiersAreIgnored) {
  ModelSignature sig = SignatureOf(
      ScalarParams({OpName("params['w']"), OpName("jit(f)/x"), OpName(""),
                    OpName("a b"), OpName("_"), OpName("2x")}));
  EXPECT_EQ(ArgNames(sig),
            (std::vector<std::string>{"p0", "p1", "p2", "p3", "p4", "p5"}));
}

TEST(SignatureTest, OpNamesAreNormalized) {
  ModelSignature sig =
      SignatureOf(ScalarParams({OpName("_x"), OpName("y__z"), OpName("w_")}));
  EXPECT_EQ(ArgNames(sig), (std::vector<std::string>{"x", "y_z", "w"}));
}

TEST(SignatureTest, UnusableInstructionNamesFallBackToPositions) {
  ModelSignature sig = SignatureOf(R"(HloModule m
ENTRY e {
  _.1 = f32[] parameter(0)
  __ = f32[] parameter(1)
  ROOT r = f32[] add(_.1, __)
})");
  EXPECT_EQ(ArgNames(sig), (std::vector<std::string>{"arg0", "arg1"}));
}

TEST(SignatureTest, DuplicatesGetSuffixes) {
  ModelSignature sig = SignatureOf(
      ScalarParams({OpName("x"), OpName("x"), OpName("x"), OpName("x_1")}));
  EXPECT_EQ(ArgNames(sig),
            (std::vector<std::string>{"x", "x_1", "x_2", "x_1_1"}));
}

TEST(SignatureTest, CollisionsInMacroAndCamelCaseSpellings) {
  // "X" is MODEL_X_... like "x"; "xY" is kXY... like "x_y".
  ModelSignature sig = SignatureOf(
      ScalarParams({OpName("x"), OpName("X"), OpName("x_y"), OpName("xY")}));
  EXPECT_EQ(ArgNames(sig),
            (std::vector<std::string>{"x", "X_1", "x_y", "xY_1"}));
}

TEST(SignatureTest, KeywordsAndNamesTheHeaderUses) {
  // "Temp_1" would be kTemp1... like "temp_1" before it, hence "Temp_2".
  ModelSignature sig = SignatureOf(ScalarParams(
      {OpName("int"), OpName("new"), OpName("temp"), OpName("Temp"),
       OpName("size_t"), OpName("uint_least8_t"), OpName("INT32_MAX"),
       OpName("NULL"), OpName("std"), OpName("module"), OpName("constants"),
       OpName("CONSTANTS")}));
  EXPECT_EQ(ArgNames(sig), (std::vector<std::string>{
                               "int_1", "new_1", "temp_1", "Temp_2", "size_t_1",
                               "uint_least8_t_1", "INT32_MAX_1", "NULL_1",
                               "std_1", "module", "constants_1",
                               "CONSTANTS_2"}));
}

TEST(SignatureTest, PositionSpellingsBelongToTheirPosition) {
  // arg1 at position 1 keeps its name; at position 0 it would define
  // MODEL_ARG1_BYTES twice. Result names are taken before argument names.
  // "result_0" is kResult0... like result0, and "result_0_1" kResult01...
  // like "result0_1" before it.
  ModelSignature sig = SignatureOf(
      ScalarParams({OpName("arg1"), OpName("arg1"), OpName("Arg2"),
                    OpName("result0"), OpName("result_0"), OpName("RESULT7")}));
  EXPECT_EQ(ArgNames(sig),
            (std::vector<std::string>{"arg1_1", "arg1", "Arg2", "result0_1",
                                      "result_0_2", "RESULT7_1"}));
  EXPECT_EQ(ResultNames(sig), (std::vector<std::string>{"result0"}));
}

TEST(SignatureTest, TupleResultLeavesDepthFirst) {
  ModelSignature sig = SignatureOf(R"(HloModule m
ENTRY e {
  a = f32[2] parameter(0)
  b = s64[] parameter(1)
  n = pred[3] constant({1, 0, 1})
  inner = (s64[], pred[3]) tuple(b, n)
  empty = () tuple()
  ROOT t = (f32[2], (s64[], pred[3]), (), f32[2]) tuple(a, inner, empty, a)
})");
  ASSERT_EQ(sig.results.size(), 4u);
  EXPECT_EQ(ResultNames(sig), (std::vector<std::string>{"result0", "result1",
                                                        "result2", "result3"}));
  EXPECT_EQ(sig.results[0].type, PrimitiveType::kF32);
  EXPECT_EQ(sig.results[1].type, PrimitiveType::kS64);
  EXPECT_EQ(sig.results[2].type, PrimitiveType::kPred);
  EXPECT_EQ(sig.results[2].dims, (std::vector<int64_t>{3}));
  EXPECT_EQ(sig.results[2].byte_size, 3);
  EXPECT_EQ(sig.results[3].type, PrimitiveType::kF32);
  EXPECT_EQ(sig.hlo_signature,
            "(a: f32[2], b: s64[]) -> (f32[2], (s64[], pred[3]), (), f32[2])");
}

TEST(SignatureTest, NoArgumentsAndNoResults) {
  ModelSignature sig = SignatureOf(R"(HloModule m
ENTRY e {
  ROOT t = () tuple()
})");
  EXPECT_TRUE(sig.args.empty());
  EXPECT_TRUE(sig.results.empty());
  EXPECT_EQ(sig.hlo_signature, "() -> ()");
}

TEST(SignatureTest, LayoutsAndSizes) {
  ModelSignature sig = SignatureOf(R"(HloModule m
ENTRY e {
  a = f16[2,3,5]{0,2,1} parameter(0)
  b = bf16[7] parameter(1)
  c = u8[0,4] parameter(2)
  ROOT r = f16[2,3,5]{2,1,0} copy(a)
})");
  ASSERT_EQ(sig.args.size(), 3u);
  EXPECT_EQ(sig.args[0].minor_to_major, (std::vector<int64_t>{0, 2, 1}));
  EXPECT_EQ(sig.args[0].element_count, 30);
  EXPECT_EQ(sig.args[0].byte_size, 60);
  EXPECT_EQ(sig.args[1].minor_to_major, (std::vector<int64_t>{0}));
  EXPECT_EQ(sig.args[1].byte_size, 14);
  EXPECT_EQ(sig.args[2].element_count, 0);
  EXPECT_EQ(sig.args[2].byte_size, 0);
  EXPECT_EQ(sig.results[0].minor_to_major, (std::vector<int64_t>{2, 1, 0}));
}

TEST(SignatureErrorTest, ModelNames) {
  const std::string text = ScalarParams({""});
  EXPECT_EQ(SignatureError(text, "my-model"),
            "model name 'my-model' is not a valid C identifier");
  EXPECT_EQ(SignatureError(text, "1model"),
            "model name '1model' is not a valid C identifier");
  EXPECT_EQ(SignatureError(text, ""),
            "model name '' is not a valid C identifier");
  EXPECT_EQ(SignatureError(text, "int"),
            "model name 'int' is a C or C++ keyword");
  const char* reserved =
      "' starts or ends with '_' or contains '__', which C and C++ reserve";
  EXPECT_EQ(SignatureError(text, "_m"),
            absl::StrCat("model name '_m", reserved));
  EXPECT_EQ(SignatureError(text, "m_"),
            absl::StrCat("model name 'm_", reserved));
  EXPECT_EQ(SignatureError(text, "a__b"),
            absl::StrCat("model name 'a__b", reserved));
}

TEST(SignatureErrorTest, Namespaces) {
  const std::string text = ScalarParams({""});
  const char* rule =
      "': expected identifiers separated by '::', not keywords, not starting "
      "with std, without '__' or a leading or trailing '_'";
  for (const char* ns : {"a::1b", "a::", "::a", "a:b", "a:::b", "std", "std::x",
                         "a::int", "a::_b", "a__b"}) {
    EXPECT_EQ(SignatureError(text, "m", ns),
              absl::StrCat("invalid C++ namespace '", ns, rule));
  }
  EXPECT_EQ(SignatureOf(text, "m", "a::std::b").cpp_namespace, "a::std::b");
  EXPECT_EQ(SignatureOf(text, "m", "acme").cpp_namespace, "acme");
}

TEST(SignatureErrorTest, NoEntry) {
  Module module("empty");
  absl::StatusOr<ModelSignature> sig = BuildSignature(module, "m", "");
  ASSERT_FALSE(sig.ok());
  EXPECT_EQ(sig.status().message(), "module 'empty' has no entry computation");
}

TEST(SignatureErrorTest, ParametersThatAreNotArrays) {
  EXPECT_EQ(SignatureError("HloModule m\nENTRY e {\n"
                           "  tok = token[] parameter(0)\n"
                           "  ROOT r = f32[] constant(1)\n}\n"),
            Located(3, 3,
                    "parameter 'tok' has shape token[]; compiled models take "
                    "and return arrays only",
                    "  tok = token[] parameter(0)"));
  // Tuple parameters are accepted leaf by leaf (tuple_parameters_test.cc).
}

TEST(SignatureErrorTest, ElementTypesWithoutCType) {
  for (const char* type : {"s1", "u1"}) {
    std::string line = absl::StrCat("  v = ", type, "[4] parameter(0)");
    EXPECT_EQ(
        SignatureError(absl::StrCat("HloModule m\nENTRY e {\n", line,
                                    "\n  ROOT r = f32[] constant(1)\n}\n")),
        Located(3, 3,
                absl::StrCat("parameter 'v' has element type ", type,
                             ", which has no C type"),
                line));
  }
}

TEST(SignatureErrorTest, PackedSubByteLayout) {
  // E(4) packs two s4 elements per byte; the C interface has one per byte.
  EXPECT_EQ(SignatureError("HloModule m\nENTRY e {\n"
                           "  w = s4[8]{0:E(4)} parameter(0)\n"
                           "  ROOT r = f32[] constant(1)\n}\n"),
            Located(3, 3,
                    "parameter 'w' has layout {0:E(4)}; only dimension "
                    "permutations are supported",
                    "  w = s4[8]{0:E(4)} parameter(0)"));
}

TEST(SignatureErrorTest, TiledLayout) {
  EXPECT_EQ(SignatureError("HloModule m\nENTRY e {\n"
                           "  w = f32[8,128]{1,0:T(8,128)} parameter(0)\n"
                           "  ROOT r = f32[] constant(1)\n}\n"),
            Located(3, 3,
                    "parameter 'w' has layout {1,0:T(8,128)}; only dimension "
                    "permutations are supported",
                    "  w = f32[8,128]{1,0:T(8,128)} parameter(0)"));
}

TEST(SignatureErrorTest, Results) {
  EXPECT_EQ(SignatureError("HloModule m\nENTRY e {\n"
                           "  p = f32[] parameter(0)\n"
                           "  tok = token[] after-all()\n"
                           "  ROOT t = (f32[], token[]) tuple(p, tok)\n}\n"),
            Located(5, 8,
                    "result 1 of the entry computation has shape token[]; "
                    "compiled models take and return arrays only",
                    "  ROOT t = (f32[], token[]) tuple(p, tok)"));
  EXPECT_EQ(SignatureError("HloModule m\nENTRY e {\n"
                           "  ROOT c = u1[2] constant({0, 1})\n}\n"),
            Located(3, 8,
                    "result 0 of the entry computation has element type u1, "
                    "which has no C type",
                    "  ROOT c = u1[2] constant({0, 1})"));
}

}  // namespace
}  // namespace aotc::codegen
