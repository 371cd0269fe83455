// Verifier tests: every corpus module verifies; each kind of malformed
// module gives its exact located message; several failures are reported
// together. Modules the text parser cannot express (call cycles, foreign
// computations) are made by editing a parsed module.
#include "compiler/ir/verifier.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/input_output_alias.h"
#include "compiler/support/file_io.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

std::unique_ptr<Module> Parse(const std::string& hlo) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseHloText(hlo, "t.hlo");
  EXPECT_TRUE(module.ok()) << module.status().message();
  if (!module.ok()) return nullptr;
  return *std::move(module);
}

// "ok", or the verifier's message.
std::string VerifyText(const Module& module) {
  absl::Status st = VerifyModule(module);
  if (st.ok()) return "ok";
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  return std::string(st.message());
}

std::string Verify(const std::string& hlo) {
  std::unique_ptr<Module> module = Parse(hlo);
  if (module == nullptr) return "parse failed";
  return VerifyText(*module);
}

Instruction* Find(const Module& module, const std::string& name) {
  for (const auto& comp : module.computations()) {
    if (Instruction* inst = comp->FindInstruction(name)) return inst;
  }
  ADD_FAILURE() << "no instruction " << name;
  return nullptr;
}

TEST(VerifierCorpusTest, EveryCorpusModuleVerifies) {
  std::vector<std::string> paths;
  for (const auto& entry :
       std::filesystem::directory_iterator(AOTC_CORPUS_DIR)) {
    if (entry.path().extension() == ".hlo") {
      paths.push_back(entry.path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
  EXPECT_EQ(paths.size(), 247u);
  int verified = 0;
  for (const std::string& path : paths) {
    absl::StatusOr<std::string> text = ReadFile(path);
    ASSERT_TRUE(text.ok()) << text.status().message();
    std::string name = std::filesystem::path(path).filename().string();
    absl::StatusOr<std::unique_ptr<Module>> module = ParseHloText(*text, name);
    if (!module.ok()) {
      ADD_FAILURE() << name << " does not parse:\n"
                    << module.status().message();
      continue;
    }
    absl::Status st = VerifyModule(**module);
    if (!st.ok()) {
      ADD_FAILURE() << name << " does not verify:\n" << st.message();
      continue;
    }
    ++verified;
  }
  EXPECT_EQ(verified, 247);
}

// Each case: a module, and "ok" or the verifier's exact located message.
struct VerifyCase {
  std::string name;
  std::string hlo;
  std::string expected;
};

const std::vector<VerifyCase>& VerifyCases() {
  static const auto* const kCases = new std::vector<VerifyCase>{
    {"WellFormedModuleVerifies",
      R"(HloModule m

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY e {
  a = f32[2,3] parameter(0)
  z = f32[] constant(0)
  b = f32[3] reduce(a, z), dimensions={0}, to_apply=add
  ROOT r = f32[3,2] broadcast(b), dimensions={0}
})",
      "ok"},
    {"OperandShapeMismatch",
      R"(HloModule m

ENTRY e {
  a = f32[4] parameter(0)
  b = f32[8] parameter(1)
  ROOT r = f32[4] add(a, b)
})",
      "t.hlo:6:8: error: operand 1 has shape f32[8], expected f32[4]\n"
      "  ROOT r = f32[4] add(a, b)\n"
      "       ^"},
    {"DeclaredShapeMismatch",
      R"(HloModule m

ENTRY e {
  a = f32[4] parameter(0)
  ROOT r = f32[5] negate(a)
})",
      "t.hlo:5:8: error: declared shape f32[5] does not match inferred "
      "shape f32[4]\n"
      "  ROOT r = f32[5] negate(a)\n"
      "       ^"},
    {"WrongOperandCount",
      R"(HloModule m

ENTRY e {
  a = f32[4] parameter(0)
  ROOT r = f32[4] negate(a, a)
})",
      "t.hlo:5:8: error: negate takes 1 operand, got 2\n"
      "  ROOT r = f32[4] negate(a, a)\n"
      "       ^"},
    {"ReduceWithOddOperandCount",
      R"(HloModule m

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY e {
  a = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(a, z, z), dimensions={0}, to_apply=add
})",
      "t.hlo:12:8: error: reduce needs 2N operands (N inputs, N init "
      "values), got 3\n"
      "  ROOT r = f32[] reduce(a, z, z), dimensions={0}, to_apply=add\n"
      "       ^"},
    {"ParameterGap",
      R"(HloModule m

ENTRY e {
  a = f32[] parameter(0)
  b = f32[] parameter(2)
  ROOT r = f32[] add(a, b)
})",
      "t.hlo:5:3: error: parameter number 2 is out of range: "
      "computation 'e' has 2 parameters, numbered from 0\n"
      "  b = f32[] parameter(2)\n"
      "  ^"},
    {"DuplicateParameterNumber",
      R"(HloModule m

ENTRY e {
  a = f32[] parameter(0)
  b = f32[] parameter(0)
  ROOT r = f32[] add(a, b)
})",
      "t.hlo:5:3: error: parameter number 0 is already used by 'a'\n"
      "  b = f32[] parameter(0)\n"
      "  ^"},
    {"WhileBodySignatureMismatch",
      R"(HloModule m

cond {
  cs = (s32[], f32[2]) parameter(0)
  ROOT cr = pred[] constant(true)
}

body {
  bs = (s32[], f32[2]) parameter(0)
  ROOT bi = s32[] get-tuple-element(bs), index=0
}

ENTRY e {
  s = (s32[], f32[2]) parameter(0)
  ROOT w = (s32[], f32[2]) while(s), condition=cond, body=body
})",
      "t.hlo:15:8: error: while body 'body' returns s32[], expected the "
      "loop state shape (s32[], f32[2])\n"
      "  ROOT w = (s32[], f32[2]) while(s), condition=cond, body=body\n"
      "       ^"},
    {"WhileConditionMustReturnPred",
      R"(HloModule m

cond {
  cs = s32[] parameter(0)
  ROOT cr = s32[] copy(cs)
}

body {
  bs = s32[] parameter(0)
  ROOT bn = s32[] negate(bs)
}

ENTRY e {
  s = s32[] parameter(0)
  ROOT w = s32[] while(s), condition=cond, body=body
})",
      "t.hlo:15:8: error: while condition 'cond' returns s32[], "
      "expected pred[]\n"
      "  ROOT w = s32[] while(s), condition=cond, body=body\n"
      "       ^"},
    {"ReducerWithWrongArity",
      R"(HloModule m

add3 {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  w = f32[] parameter(2)
  ROOT s = f32[] add(x, y)
}

ENTRY e {
  a = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=add3
})",
      "t.hlo:13:8: error: reducer 'add3' has 3 parameters, expected 2\n"
      "  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=add3\n"
      "       ^"},
    {"ConditionalBranchesDisagree",
      R"(HloModule m

b0 {
  x0 = f32[2] parameter(0)
  ROOT y0 = f32[2] negate(x0)
}

b1 {
  x1 = f32[2] parameter(0)
  ROOT y1 = f32[] constant(0)
}

ENTRY e {
  i = s32[] parameter(0)
  a = f32[2] parameter(1)
  ROOT r = f32[2] conditional(i, a, a), branch_computations={b0, b1}
})",
      "t.hlo:16:8: error: branch 1 'b1' returns f32[], but branch 0 "
      "'b0' returns f32[2]\n"
      "  ROOT r = f32[2] conditional(i, a, a), "
      "branch_computations={b0, b1}\n"
      "       ^"},
    {"BadBroadcastDimensions",
      R"(HloModule m

ENTRY e {
  a = f32[3] parameter(0)
  ROOT r = f32[3,3] broadcast(a), dimensions={0,1}
})",
      "t.hlo:5:8: error: broadcast dimensions {0,1} do not match operand "
      "rank 1\n"
      "  ROOT r = f32[3,3] broadcast(a), dimensions={0,1}\n"
      "       ^"},
    {"BadTransposePermutation",
      R"(HloModule m

ENTRY e {
  a = f32[2,3] parameter(0)
  ROOT r = f32[3,2] transpose(a), dimensions={1,2}
})",
      "t.hlo:5:8: error: transpose dimensions {1,2} are not a "
      "permutation of the 2 operand dimensions\n"
      "  ROOT r = f32[3,2] transpose(a), dimensions={1,2}\n"
      "       ^"},
    {"SliceOutOfBounds",
      R"(HloModule m

ENTRY e {
  a = f32[10] parameter(0)
  ROOT r = f32[4] slice(a), slice={[8:12]}
})",
      "t.hlo:5:8: error: slice dimension 0 range [8:12] is not within "
      "[0:10]\n"
      "  ROOT r = f32[4] slice(a), slice={[8:12]}\n"
      "       ^"},
    {"GetTupleElementIndexOutOfRange",
      R"(HloModule m

ENTRY e {
  t = (f32[], s32[]) parameter(0)
  ROOT r = f32[] get-tuple-element(t), index=2
})",
      "t.hlo:5:8: error: get-tuple-element index 2 is out of range for "
      "a tuple of 2 elements\n"
      "  ROOT r = f32[] get-tuple-element(t), index=2\n"
      "       ^"},
    {"CompareWithDifferentElementTypes",
      R"(HloModule m

ENTRY e {
  a = f32[2] parameter(0)
  b = s32[2] parameter(1)
  ROOT r = pred[2] compare(a, b), direction=EQ
})",
      "t.hlo:6:8: error: operand 1 has shape s32[2], expected f32[2]\n"
      "  ROOT r = pred[2] compare(a, b), direction=EQ\n"
      "       ^"},
    {"DotContractingSizeMismatch",
      R"(HloModule m

ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[4,5] parameter(1)
  ROOT r = f32[2,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})",
      "t.hlo:6:8: error: dot contracting dimension sizes differ: lhs "
      "dimension 1 has size 3, rhs dimension 0 has size 4\n"
      "  ROOT r = f32[2,5] dot(a, b), lhs_contracting_dims={1}, "
      "rhs_contracting_dims={0}\n"
      "       ^"},
    {"ReportsEveryFailureTogether",
      R"(HloModule m

f {
  p = f32[2] parameter(1)
  ROOT n = f32[3] negate(p)
}

ENTRY e {
  a = f32[2] parameter(0)
  b = s32[2] parameter(1)
  c = f32[2] multiply(a, b)
  ROOT r = f32[2] call(a), to_apply=f
})",
      "t.hlo:4:3: error: parameter number 1 is out of range: "
      "computation 'f' has 1 parameter, numbered from 0\n"
      "  p = f32[2] parameter(1)\n"
      "  ^\n"
      "t.hlo:5:8: error: declared shape f32[3] does not match inferred "
      "shape f32[2]\n"
      "  ROOT n = f32[3] negate(p)\n"
      "       ^\n"
      "t.hlo:11:3: error: operand 1 has shape s32[2], expected f32[2]\n"
      "  c = f32[2] multiply(a, b)\n"
      "  ^\n"
      "t.hlo:12:8: error: computation 'f' has parameter numbers that "
      "are not 0..0\n"
      "  ROOT r = f32[2] call(a), to_apply=f\n"
      "       ^"},
  };
  return *kCases;
}

class VerifierCaseTest : public ::testing::TestWithParam<VerifyCase> {};

TEST_P(VerifierCaseTest, GivesTheExpectedMessage) {
  EXPECT_EQ(Verify(GetParam().hlo), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    VerifierTest, VerifierCaseTest, ::testing::ValuesIn(VerifyCases()),
    [](const ::testing::TestParamInfo<VerifyCase>& info) {
      return info.param.name;
    });

TEST(VerifierTest, FftResultIsLocated) {
  // RFFT of 8 reals keeps 8/2+1 = 5 outputs, not 8.
  EXPECT_EQ(Verify(R"(HloModule m

ENTRY e {
  x = f32[8] parameter(0)
  ROOT r = c64[8] fft(x), fft_type=RFFT, fft_length={8}
})"),
            "t.hlo:5:8: error: declared shape c64[8] does not match inferred "
            "shape c64[5]\n"
            "  ROOT r = c64[8] fft(x), fft_type=RFFT, fft_length={8}\n"
            "       ^");
}

TEST(VerifierTest, TopKNeedsKAndAResultOfKPerRow) {
  // A missing k, and a declared result that keeps 3 of each row when k=2
  // keeps 2: f32[4,5] -> (f32[4,2], s32[4,2]).
  EXPECT_EQ(Verify(R"(HloModule m

ENTRY e {
  a = f32[4,5] parameter(0)
  t = (f32[4,2], s32[4,2]) topk(a)
  ROOT r = (f32[4,3], s32[4,3]) topk(a), k=2, largest=false
})"),
            "t.hlo:5:3: error: topk needs k=\n"
            "  t = (f32[4,2], s32[4,2]) topk(a)\n"
            "  ^\n"
            "t.hlo:6:8: error: declared shape (f32[4,3], s32[4,3]) does not "
            "match inferred shape (f32[4,2], s32[4,2])\n"
            "  ROOT r = (f32[4,3], s32[4,3]) topk(a), k=2, largest=false\n"
            "       ^");
}

TEST(VerifierTest, DuplicateInstructionName) {
  std::unique_ptr<Module> module = Parse(R"(HloModule m

ENTRY e {
  a = f32[] parameter(0)
  b = f32[] negate(a)
  ROOT r = f32[] add(a, b)
})");
  ASSERT_NE(module, nullptr);
  Find(*module, "b")->set_name("a");
  EXPECT_EQ(VerifyText(*module),
            "t.hlo:5:3: error: instruction name 'a' is already used in "
            "computation 'e'\n"
            "  b = f32[] negate(a)\n"
            "  ^");
}

TEST(VerifierTest, NamesAreScopedByComputation) {
  // XLA's dumps reuse names such as `param` in every computation.
  EXPECT_EQ(Verify(R"(HloModule m

f {
  a = f32[] parameter(0)
  ROOT n = f32[] negate(a)
}

ENTRY e {
  a = f32[] parameter(0)
  ROOT n = f32[] call(a), to_apply=f
})"),
            "ok");
}

TEST(VerifierTest, DuplicateComputationName) {
  std::unique_ptr<Module> module = Parse(R"(HloModule m

f {
  a = f32[] parameter(0)
  ROOT n = f32[] negate(a)
}

g {
  b = f32[] parameter(0)
  ROOT c = f32[] copy(b)
}

ENTRY e {
  x = f32[] parameter(0)
  ROOT r = f32[] call(x), to_apply=f
})");
  ASSERT_NE(module, nullptr);
  module->FindComputation("g")->set_name("f");
  EXPECT_EQ(VerifyText(*module),
            "t.hlo:8:1: error: computation name 'f' is already used\n"
            "g {\n"
            "^");
}

TEST(VerifierTest, CalledComputationNotInModule) {
  const std::string hlo = R"(HloModule m

f {
  a = f32[] parameter(0)
  ROOT n = f32[] negate(a)
}

ENTRY e {
  x = f32[] parameter(0)
  ROOT r = f32[] call(x), to_apply=f
})";
  std::unique_ptr<Module> module = Parse(hlo);
  std::unique_ptr<Module> other = Parse(
      "HloModule o\n\nENTRY g {\n  p = f32[] parameter(0)\n"
      "  ROOT q = f32[] negate(p)\n}\n");
  ASSERT_NE(module, nullptr);
  ASSERT_NE(other, nullptr);
  Find(*module, "r")->set_called_computations({other->entry()});
  EXPECT_EQ(VerifyText(*module),
            "t.hlo:10:8: error: called computation 'g' is not a computation "
            "of module 'm'\n"
            "  ROOT r = f32[] call(x), to_apply=f\n"
            "       ^");
}

TEST(VerifierTest, RecursiveCallCycle) {
  std::unique_ptr<Module> module = Parse(R"(HloModule m

h {
  a = f32[] parameter(0)
  ROOT b = f32[] negate(a)
}

g {
  c = f32[] parameter(0)
  ROOT d = f32[] call(c), to_apply=h
}

f {
  u = f32[] parameter(0)
  ROOT v = f32[] call(u), to_apply=g
}

ENTRY e {
  x = f32[] parameter(0)
  ROOT r = f32[] call(x), to_apply=f
})");
  ASSERT_NE(module, nullptr);
  // g now calls f, which calls g.
  Find(*module, "d")->set_called_computations({module->FindComputation("f")});
  EXPECT_EQ(VerifyText(*module),
            "t.hlo:15:8: error: call cycle 'g' -> 'f' -> 'g'\n"
            "  ROOT v = f32[] call(u), to_apply=g\n"
            "       ^");
}

TEST(VerifierTest, MissingEntry) {
  std::unique_ptr<Module> module = Parse(R"(HloModule m

ENTRY e {
  ROOT x = f32[] constant(1)
})");
  ASSERT_NE(module, nullptr);
  module->set_entry(nullptr);
  EXPECT_EQ(VerifyText(*module),
            "t.hlo: error: module 'm' has no entry computation");
}

TEST(VerifierTest, HostileAttributesGiveErrors) {
  // Out-of-range and overflowing attribute values are reported, never used.
  EXPECT_EQ(Verify(R"(HloModule m

ENTRY e {
  a = f32[3] parameter(0)
  ROOT r = f32[3,3] broadcast(a), dimensions={-1}
})"),
            "t.hlo:5:8: error: broadcast dimension -1 is out of range for "
            "rank 2\n"
            "  ROOT r = f32[3,3] broadcast(a), dimensions={-1}\n"
            "       ^");
  EXPECT_EQ(Verify(R"(HloModule m

ENTRY e {
  a = f32[3] parameter(0)
  z = f32[] parameter(1)
  ROOT r = f32[3] pad(a, z), padding=0_9223372036854775807
})"),
            "t.hlo:6:8: error: pad dimension 0 overflows 64 bits\n"
            "  ROOT r = f32[3] pad(a, z), padding=0_9223372036854775807\n"
            "       ^");
  EXPECT_EQ(Verify(R"(HloModule m

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY e {
  a = f32[3] parameter(0)
  z = f32[] parameter(1)
  ROOT r = f32[3] reduce-window(a, z), window={size=4611686018427387904 rhs_dilate=4}, to_apply=add
})"),
            "t.hlo:12:8: error: window dimension 0 overflows 64 bits for "
            "input size 3\n"
            "  ROOT r = f32[3] reduce-window(a, z), "
            "window={size=4611686018427387904 rhs_dilate=4}, to_apply=add\n"
            "       ^");
}

TEST(VerifierTest, EntryLayoutDisagreesWithParameters) {
  EXPECT_EQ(
      Verify(R"(HloModule m, entry_computation_layout={(f32[3]{0})->f32[2]{0}}

ENTRY e {
  a = f32[2] parameter(0)
  ROOT r = f32[2] negate(a)
})"),
      "t.hlo:4:3: error: entry_computation_layout gives parameter 0 "
      "shape f32[3], but it has shape f32[2]\n"
      "  a = f32[2] parameter(0)\n"
      "  ^");
}

TEST(VerifierTest, ConstantLiteralShapeMismatch) {
  std::unique_ptr<Module> module = Parse(R"(HloModule m

ENTRY e {
  ROOT c = f32[2] constant({1, 2})
})");
  ASSERT_NE(module, nullptr);
  Find(*module, "c")->mutable_attrs().literal =
      Literal(Shape::Array(PrimitiveType::kF32, {3}));
  EXPECT_EQ(VerifyText(*module),
            "t.hlo:4:8: error: constant literal has shape f32[3], expected "
            "f32[2]\n"
            "  ROOT c = f32[2] constant({1, 2})\n"
            "       ^");
}

TEST(VerifierTest, ComputationWithoutRoot) {
  std::unique_ptr<Module> module = Parse(R"(HloModule m

ENTRY e {
  ROOT c = f32[] constant(1)
})");
  ASSERT_NE(module, nullptr);
  module->entry()->set_root(nullptr);
  EXPECT_EQ(VerifyText(*module),
            "t.hlo:3:7: error: computation 'e' has no root instruction\n"
            "ENTRY e {\n"
            "      ^");
}

TEST(VerifierTest, OperandDefinedAfterUse) {
  std::unique_ptr<Module> module = Parse(R"(HloModule m

ENTRY e {
  a = f32[] parameter(0)
  b = f32[] negate(a)
  ROOT r = f32[] negate(b)
})");
  ASSERT_NE(module, nullptr);
  Find(*module, "b")->ReplaceOperand(0, Find(*module, "r"));
  EXPECT_EQ(VerifyText(*module),
            "t.hlo:5:3: error: operand 0 'r' is not defined before its use\n"
            "  b = f32[] negate(a)\n"
            "  ^");
}

// Buffer donation: the header's input_output_alias, read and checked.
std::string DonationModule(const std::string& alias) {
  return absl::StrCat("HloModule m, input_output_alias=", alias, R"(

ENTRY e {
  a = f32[2,3] parameter(0)
  b = (f32[6], s32[]) parameter(1)
  r = f32[3,2] reshape(a)
  i = s32[] get-tuple-element(b), index=1
  ROOT t = (f32[3,2], s32[]) tuple(r, i)
}
)");
}

TEST(InputOutputAliasTest, ParsesEveryForm) {
  auto aliases = ParseInputOutputAliasText(
      "{ {0}: (1, {0}, must-alias), {1, 2}: (0, {}), {}: (3, {}, may-alias) }");
  ASSERT_TRUE(aliases.ok()) << aliases.status();
  ASSERT_EQ(aliases->size(), 3u);
  EXPECT_EQ((*aliases)[0].output_index, (std::vector<int64_t>{0}));
  EXPECT_EQ((*aliases)[0].parameter, 1);
  EXPECT_EQ((*aliases)[0].parameter_index, (std::vector<int64_t>{0}));
  EXPECT_TRUE((*aliases)[0].must_alias);
  EXPECT_EQ((*aliases)[1].output_index, (std::vector<int64_t>{1, 2}));
  EXPECT_FALSE((*aliases)[1].must_alias);  // may-alias is the default
  EXPECT_TRUE((*aliases)[2].output_index.empty());
  EXPECT_TRUE(ParseInputOutputAliasText("{}")->empty());
  EXPECT_EQ(ParseInputOutputAliasText("{ {0}: (1, {}, maybe) }").status().message(),
            "input_output_alias: expected 'may-alias' or 'must-alias' at offset "
            "15 of '{ {0}: (1, {}, maybe) }'");
  EXPECT_FALSE(ParseInputOutputAliasText("{ {0}: (1 {}) }").ok());
  EXPECT_FALSE(ParseInputOutputAliasText("{ {0}: (1, {}) } x").ok());
}

TEST(InputOutputAliasTest, VerifierChecksTheAliasesAgainstTheEntry) {
  // Same byte size, other shape: f32[3,2] in f32[2,3]'s buffer, and a
  // tuple leaf of parameter 1.
  EXPECT_EQ(Verify(DonationModule("{ {0}: (0, {}), {1}: (1, {1}) }")), "ok");
  EXPECT_EQ(Verify(DonationModule("{ {0}: (1, {1}) }")),
            "t.hlo:1:1: error: input_output_alias: output {0} -> parameter 1 "
            "{1}: f32[3,2]{1,0} (24 bytes) cannot live in s32[] (4 bytes)\n"
            "HloModule m, input_output_alias={ {0}: (1, {1}) }\n^");
  EXPECT_NE(Verify(DonationModule("{ {2}: (0, {}) }")).find(
                "the output index names no array of the result"),
            std::string::npos);
  EXPECT_NE(Verify(DonationModule("{ {0}: (2, {}) }")).find(
                "the entry computation has 2 parameters"),
            std::string::npos);
  EXPECT_NE(Verify(DonationModule("{ {0}: (1, {}) }")).find(
                "the parameter index names no array of (f32[6]{0}, s32[])"),
            std::string::npos);
  EXPECT_NE(Verify(DonationModule("{ {0}: (0, {}), {0}: (1, {0}) }"))
                .find("the output is aliased twice"),
            std::string::npos);
  EXPECT_NE(Verify(DonationModule("{ {0}: (1, {0}), {1}: (1, {0}) }"))
                .find("s32[] (4 bytes) cannot live in f32[6]{0} (24 bytes)"),
            std::string::npos);
  const std::string twice = R"(HloModule m, input_output_alias={ {0}: (0, {}), {1}: (0, {}) }
ENTRY e {
  a = f32[4] parameter(0)
  ROOT t = (f32[4], f32[4]) tuple(a, a)
}
)";
  EXPECT_NE(Verify(twice).find("the parameter is donated twice"), std::string::npos);
}

TEST(InputOutputAliasTest, DonatedArgumentPerResultCountsLeaves) {
  std::unique_ptr<Module> m =
      Parse(DonationModule("{ {0}: (1, {0}), {1}: (1, {1}) }"));
  ASSERT_NE(m, nullptr);
  auto aliases = InputOutputAliases(*m);
  ASSERT_TRUE(aliases.ok()) << aliases.status();
  // Argument leaves: a = 0, b.0 = 1, b.1 = 2.
  EXPECT_EQ(DonatedArgumentPerResult(*m, *aliases), (std::vector<int>{1, 2}));
}

}  // namespace
}  // namespace aotc
