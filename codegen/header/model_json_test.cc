// Tests of GenerateJson: a complete golden document written out by hand, the
// fields of a module with several element types, and non-UTF-8 names.
#include "codegen/header/model_json.h"

#include "codegen/header/header_test_util.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace aotc::codegen {
namespace {

ModelSignature Tiny() {
  ModelSignature sig;
  sig.name = "tiny";
  TensorInfo x;
  x.name = "x";
  x.hlo_name = "Arg_0.1";
  x.type = PrimitiveType::kF32;
  x.dims = {2, 3};
  x.minor_to_major = {0, 1};
  x.element_count = 6;
  x.byte_size = 24;
  sig.args.push_back(x);
  TensorInfo r;
  r.name = "result0";
  r.type = PrimitiveType::kS64;
  r.element_count = 1;
  r.byte_size = 8;
  sig.results.push_back(r);
  sig.temp_bytes = 128;
  sig.footprint.constants_bytes = 4160;
  sig.hlo_signature = "(x: f32[2,3]) -> s64[]";
  sig.target_triple = "aarch64-none-elf";
  sig.cpu = "cortex-a53";
  sig.features = "+neon";
  sig.aotc_version = "1.2.3";
  return sig;
}

constexpr std::string_view kTinyJson = R"({
  "format_version": 1,
  "name": "tiny",
  "aotc_version": "1.2.3",
  "target_triple": "aarch64-none-elf",
  "cpu": "cortex-a53",
  "features": "+neon",
  "abi": "",
  "hlo_signature": "(x: f32[2,3]) -> s64[]",
  "symbols": {
    "run": "tiny_run",
    "run_packed": "tiny_run_packed"
  },
  "header": "tiny.h",
  "cpp_class": "Tiny",
  "external_functions": [],
  "temp_bytes": 128,
  "alignment": 64,
  "footprint": {
    "text_bytes": 0,
    "rodata_bytes": 0,
    "data_bytes": 0,
    "bss_bytes": 0,
    "temp_bytes": 128,
    "constants_section": "",
    "constants_section_bytes": 0,
    "constants_bytes": 4160
  },
  "args": [
    {
      "name": "x",
      "hlo_name": "Arg_0.1",
      "element_type": "f32",
      "c_type": "float",
      "dims": [
        2,
        3
      ],
      "minor_to_major": [
        0,
        1
      ],
      "element_count": 6,
      "byte_size": 24
    }
  ],
  "results": [
    {
      "name": "result0",
      "hlo_name": "",
      "element_type": "s64",
      "c_type": "int64_t",
      "dims": [],
      "minor_to_major": [],
      "element_count": 1,
      "byte_size": 8
    }
  ]
}
)";

TEST(ModelJsonTest, GoldenTinyJson) {
  EXPECT_EQ(GenerateJson(Tiny()), kTinyJson);
  EXPECT_EQ(GenerateJson(Tiny()), GenerateJson(Tiny()));
}

TEST(ModelJsonTest, ListsTheExternalFunctions) {
  ModelSignature sig = Tiny();
  sig.external_functions = {"my_op", "other_op"};
  nlohmann::json j = nlohmann::json::parse(GenerateJson(sig));
  EXPECT_EQ(j["external_functions"],
            (std::vector<std::string>{"my_op", "other_op"}));
}

TEST(ModelJsonTest, FieldsOfAMixedModule) {
  ModelSignature sig = testing::SignatureOf(R"(HloModule m
ENTRY e {
  flags = pred[4] parameter(0)
  h = bf16[2,3]{0,1} parameter(1), metadata={op_name="half"}
  n = u16[] parameter(2)
  d = f64[3] parameter(3)
  b = s8[2] parameter(4)
  ROOT t = (f64[3], s8[2]) tuple(d, b)
})",
                                            "mixed", "acme::models");
  nlohmann::json j = nlohmann::json::parse(GenerateJson(sig));
  EXPECT_EQ(j["cpp_class"], "acme::models::Mixed");
  EXPECT_EQ(j["symbols"]["run"], "mixed_run");
  EXPECT_EQ(j["hlo_signature"],
            "(flags: pred[4], half: bf16[2,3], n: u16[], d: f64[3], b: s8[2]) "
            "-> (f64[3], s8[2])");
  ASSERT_EQ(j["args"].size(), 5u);
  EXPECT_EQ(j["args"][0]["element_type"], "pred");
  EXPECT_EQ(j["args"][0]["c_type"], "uint8_t");
  EXPECT_EQ(j["args"][1]["name"], "half");
  EXPECT_EQ(j["args"][1]["hlo_name"], "h");
  EXPECT_EQ(j["args"][1]["element_type"], "bf16");
  EXPECT_EQ(j["args"][1]["c_type"], "uint16_t");
  EXPECT_EQ(j["args"][1]["minor_to_major"], (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(j["args"][1]["byte_size"], 12);
  EXPECT_EQ(j["args"][2]["c_type"], "uint16_t");
  EXPECT_EQ(j["args"][2]["dims"], std::vector<int64_t>{});
  ASSERT_EQ(j["results"].size(), 2u);
  EXPECT_EQ(j["results"][0]["c_type"], "double");
  EXPECT_EQ(j["results"][0]["byte_size"], 24);
  EXPECT_EQ(j["results"][1]["name"], "result1");
  EXPECT_EQ(j["results"][1]["c_type"], "int8_t");
}

TEST(ModelJsonTest, InvalidUtf8IsReplaced) {
  ModelSignature sig = Tiny();
  sig.args[0].hlo_name =
      "a\xff"
      "b";
  nlohmann::json j = nlohmann::json::parse(GenerateJson(sig));
  EXPECT_EQ(j["args"][0]["hlo_name"],
            "a\xef\xbf\xbd"
            "b");
}

}  // namespace
}  // namespace aotc::codegen
