// Tests of tuple-shaped entry parameters in the signature, the header and the
// JSON: each array leaf becomes one argument, depth first, named after the
// parameter and its tuple indices (docs/header.md).
#include <string>
#include <vector>

#include "codegen/header/header_test_util.h"
#include "codegen/header/header_writer.h"
#include "codegen/header/model_json.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace aotc::codegen {
namespace {

using ::testing::HasSubstr;
using testing::SignatureError;
using testing::SignatureOf;

std::vector<std::string> ArgNames(const ModelSignature& sig) {
  std::vector<std::string> names;
  for (const TensorInfo& t : sig.args) names.push_back(t.name);
  return names;
}

// A nested tuple parameter, an array parameter and an empty tuple parameter.
constexpr std::string_view kNested = R"(HloModule m
ENTRY e {
  p = (f32[2], (s32[3], f32[])) parameter(0)
  q = f32[2] parameter(1)
  none = () parameter(2)
  a = f32[2] get-tuple-element(p), index=0
  ROOT r = f32[2] add(a, q)
})";

TEST(TupleParametersTest, LeavesBecomeArgumentsDepthFirst) {
  ModelSignature sig = SignatureOf(kNested);
  EXPECT_EQ(ArgNames(sig),
            (std::vector<std::string>{"p_0", "p_1_0", "p_1_1", "q"}));
  EXPECT_EQ(sig.num_parameters, 3);
  EXPECT_TRUE(sig.tuple_parameters);
  ASSERT_EQ(sig.args.size(), 4u);
  const std::vector<int> parameters = {0, 0, 0, 1};
  const std::vector<std::vector<int64_t>> leaves = {{0}, {1, 0}, {1, 1}, {}};
  const std::vector<PrimitiveType> types = {
      PrimitiveType::kF32, PrimitiveType::kS32, PrimitiveType::kF32,
      PrimitiveType::kF32};
  const std::vector<int64_t> bytes = {8, 12, 4, 8};
  for (size_t k = 0; k < sig.args.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(sig.args[k].parameter, parameters[k]);
    EXPECT_EQ(sig.args[k].leaf, leaves[k]);
    EXPECT_EQ(sig.args[k].type, types[k]);
    EXPECT_EQ(sig.args[k].byte_size, bytes[k]);
  }
  EXPECT_EQ(sig.args[1].hlo_name, "p");
  EXPECT_EQ(sig.args[1].dims, std::vector<int64_t>{3});
  EXPECT_EQ(sig.hlo_signature,
            "(p_0: f32[2], p_1_0: s32[3], p_1_1: f32[], q: f32[2]) -> f32[2]");
}

TEST(TupleParametersTest, ArrayOnlyModulesKeepOneArgumentPerParameter) {
  ModelSignature sig = SignatureOf(R"(HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  y = f32[2] parameter(1)
  ROOT r = f32[2] add(x, y)
})");
  EXPECT_EQ(ArgNames(sig), (std::vector<std::string>{"x", "y"}));
  EXPECT_FALSE(sig.tuple_parameters);
  EXPECT_EQ(sig.num_parameters, 2);
  EXPECT_EQ(sig.args[1].parameter, 1);
  EXPECT_TRUE(sig.args[1].leaf.empty());
}

TEST(TupleParametersTest, LeafNamesAreMadeUnique) {
  // p_1_1 and p_11 share the CamelCase spelling P11; p's own p_0 collides
  // with the array parameter claimed before it.
  ModelSignature sig = SignatureOf(R"(HloModule m
ENTRY e {
  p_0 = f32[] parameter(0)
  p = (f32[], (f32[], f32[])) parameter(1)
  p_11 = f32[] parameter(2)
  ROOT r = f32[] add(p_0, p_11)
})");
  EXPECT_EQ(ArgNames(sig), (std::vector<std::string>{"p_0", "p_0_1", "p_1_0",
                                                     "p_1_1", "p_11_1"}));
}

TEST(TupleParametersTest, UnusableNamesFallBackToTheFirstPosition) {
  // The tuple's base name is arg1 (its first argument is argument 1); the
  // array parameter after it is argument 3.
  ModelSignature sig = SignatureOf(R"(HloModule m
ENTRY e {
  _.1 = f32[] parameter(0)
  __ = (f32[], f32[]) parameter(1)
  _.2 = f32[] parameter(2)
  ROOT r = f32[] add(_.1, _.2)
})");
  EXPECT_EQ(ArgNames(sig),
            (std::vector<std::string>{"arg0", "arg1_0", "arg1_1", "arg3"}));
}

TEST(TupleParametersTest, TokensInsideATupleAreRefused) {
  EXPECT_EQ(
      SignatureError("HloModule m\nENTRY e {\n"
                     "  tup = (f32[2]{0}, (s32[], token[])) parameter(0)\n"
                     "  ROOT r = f32[] constant(1)\n}\n"),
      "test.hlo:3:3: error: leaf {1,1} of parameter 'tup' has shape "
      "token[]; compiled models take and return arrays only\n"
      "  tup = (f32[2]{0}, (s32[], token[])) parameter(0)\n"
      "  ^");
}

// The parts of the header that change with a tuple parameter, written out by
// hand for kNested compiled as "tup".
constexpr std::string_view kNestedComment =
    R"( * HLO signature: (p_0: f32[2], p_1_0: s32[3], p_1_1: f32[], q: f32[2]) -> f32[2]
 *
 * Arguments:
 *   0 p_0: f32[2], HLO parameter p leaf {0}
 *   1 p_1_0: s32[3], HLO parameter p leaf {1,0}
 *   2 p_1_1: f32[], HLO parameter p leaf {1,1}
 *   3 q: f32[2], HLO parameter q
 * Results:
 *   0 result0: f32[2]
 *
 * Every buffer is a dense array of its C element type without padding,
 * its elements in row-major order (the last dimension varies fastest).
 * A tuple-shaped HLO parameter is passed as one argument per array leaf,
 * depth first (the leaf lists the tuple indices).
)";

constexpr std::string_view kNestedMacros = R"(#define TUP_NUM_ARGS 4
#define TUP_NUM_RESULTS 1

/* Read-only bytes of the model's constant arrays (its weights), as one
 * section of the object holds them with the alignment padding between
 * arrays: the size of the constants section when one is given. */
#define TUP_CONSTANTS_BYTES 0

/* Argument 0: p_0, f32[2] */
#define TUP_ARG0_ELEMENTS 2
#define TUP_ARG0_BYTES 8
#define TUP_ARG0_RANK 1
#define TUP_ARG0_DIMS {2}
#define TUP_P_0_ELEMENTS TUP_ARG0_ELEMENTS
#define TUP_P_0_BYTES TUP_ARG0_BYTES
#define TUP_P_0_RANK TUP_ARG0_RANK
#define TUP_P_0_DIMS TUP_ARG0_DIMS

/* Argument 1: p_1_0, s32[3] */
#define TUP_ARG1_ELEMENTS 3
#define TUP_ARG1_BYTES 12
#define TUP_ARG1_RANK 1
#define TUP_ARG1_DIMS {3}
#define TUP_P_1_0_ELEMENTS TUP_ARG1_ELEMENTS
#define TUP_P_1_0_BYTES TUP_ARG1_BYTES
#define TUP_P_1_0_RANK TUP_ARG1_RANK
#define TUP_P_1_0_DIMS TUP_ARG1_DIMS

/* Argument 2: p_1_1, f32[] */
#define TUP_ARG2_ELEMENTS 1
#define TUP_ARG2_BYTES 4
#define TUP_ARG2_RANK 0
#define TUP_P_1_1_ELEMENTS TUP_ARG2_ELEMENTS
#define TUP_P_1_1_BYTES TUP_ARG2_BYTES
#define TUP_P_1_1_RANK TUP_ARG2_RANK

/* Argument 3: q, f32[2] */
)";

constexpr std::string_view kNestedRun = R"(int tup_run(
    const float* p_0,
    const int32_t* p_1_0,
    const float* p_1_1,
    const float* q,
    float* result0,
    void* temp);
)";

constexpr std::string_view kNestedClass = R"(
  // Argument 1: p_1_0, s32[3]
  static constexpr int kP10Rank = 1;
  static constexpr std::array<std::int64_t, 1> kP10Dims = {{3}};
  static constexpr std::size_t kP10Elements = 3;
  static constexpr std::size_t kP10Bytes = 12;
)";

constexpr std::string_view kNestedSetters =
    R"(  void set_p_0(const float* value) { arg0_ = value; }
  void set_p_1_0(const int32_t* value) { arg1_ = value; }
  void set_p_1_1(const float* value) { arg2_ = value; }
  void set_q(const float* value) { arg3_ = value; }
)";

TEST(TupleParametersTest, HeaderNamesEveryLeaf) {
  const std::string header = GenerateHeader(SignatureOf(kNested, "tup"));
  EXPECT_THAT(header, HasSubstr(kNestedComment));
  EXPECT_THAT(header, HasSubstr(kNestedMacros));
  EXPECT_THAT(header, HasSubstr(kNestedRun));
  EXPECT_THAT(header, HasSubstr(kNestedClass));
  EXPECT_THAT(header, HasSubstr(kNestedSetters));
}

TEST(TupleParametersTest, ArrayOnlyHeadersHaveNoTupleNote) {
  const std::string header = GenerateHeader(SignatureOf(R"(HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] negate(x)
})"));
  EXPECT_THAT(header, ::testing::Not(HasSubstr("tuple-shaped")));
  EXPECT_THAT(header, HasSubstr(" *   0 x: f32[2], HLO parameter x\n"));
}

TEST(TupleParametersTest, JsonRecordsParameterAndLeaf) {
  nlohmann::ordered_json j =
      nlohmann::ordered_json::parse(GenerateJson(SignatureOf(kNested, "tup")));
  ASSERT_EQ(j["args"].size(), 4u);
  EXPECT_EQ(j["args"][1].dump(),
            R"({"name":"p_1_0","hlo_name":"p","parameter":0,"leaf":[1,0],)"
            R"("element_type":"s32","c_type":"int32_t","dims":[3],)"
            R"("minor_to_major":[0],"element_count":3,"byte_size":12})");
  EXPECT_EQ(j["args"][3]["parameter"], 1);
  EXPECT_EQ(j["args"][3]["leaf"], nlohmann::ordered_json::array());
  EXPECT_FALSE(j["results"][0].contains("parameter"));
  EXPECT_FALSE(j["results"][0].contains("leaf"));
}

TEST(TupleParametersTest, ArrayOnlyJsonHasNoLeafFields) {
  nlohmann::json j = nlohmann::json::parse(GenerateJson(SignatureOf(R"(
HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] negate(x)
})")));
  EXPECT_FALSE(j["args"][0].contains("parameter"));
  EXPECT_FALSE(j["args"][0].contains("leaf"));
}

}  // namespace
}  // namespace aotc::codegen
