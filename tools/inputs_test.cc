#include "tools/inputs.h"

#include <gtest/gtest.h>

#include "compiler/support/file_io.h"
#include "tools/npy.h"

namespace aotc {
namespace {

class InputsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    AddParam("x", 0, Shape::Array(PrimitiveType::kF32, {2}));
    AddParam("n", 1, Shape::Array(PrimitiveType::kS32, {3}));
  }
  void AddParam(const std::string& name, int64_t number, Shape shape) {
    Instruction* p = comp_.AddInstruction(
        Instruction::Create(Opcode::kParameter, name, std::move(shape), {}));
    p->mutable_attrs().parameter_number = number;
  }
  std::string WriteTemp(const std::string& name, const Literal& lit) {
    std::string path = ::testing::TempDir() + "/" + name;
    EXPECT_TRUE(WriteFileAtomically(path, *WriteNpy(lit)).ok());
    return path;
  }
  Computation comp_{"entry"};
};

TEST_F(InputsTest, NamedByNameAndNumber) {
  Literal x(Shape::Array(PrimitiveType::kF32, {2}));
  x.Set<float>(1, 2.5f);
  Literal n(Shape::Array(PrimitiveType::kS32, {3}));
  n.Set<int32_t>(2, -4);
  InputOptions opts;
  opts.named = {"1=" + WriteTemp("n.npy", n), "%x=" + WriteTemp("x.npy", x)};
  auto args = BindInputs(comp_, opts);
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ((*args)[0].Get<float>(1), 2.5f);
  EXPECT_EQ((*args)[1].Get<int32_t>(2), -4);
}

TEST_F(InputsTest, PositionalThenRandomForTheRest) {
  Literal x(Shape::Array(PrimitiveType::kF32, {2}));
  InputOptions opts;
  opts.positional = {WriteTemp("x0.npy", x)};
  opts.random_seed = 7;
  auto args = BindInputs(comp_, opts);
  ASSERT_TRUE(args.ok()) << args.status();
  for (int i = 0; i < 3; ++i) {
    int32_t v = (*args)[1].Get<int32_t>(i);
    EXPECT_GE(v, -8);
    EXPECT_LT(v, 8);
  }
}

TEST_F(InputsTest, Errors) {
  InputOptions opts;
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            "no input for parameter 'x' (number 0) f32[2]; give --input "
            "x=FILE.npy or --random-inputs SEED");
  opts.named = {"y=a.npy"};
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            "--input names 'y', but the parameters are: x, n");
  opts.named = {"x"};
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            "--input expects NAME=FILE, got 'x'");
  opts.named = {"x=a.npy"};
  opts.positional = {"b.npy"};
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            "parameter 'x' (number 0) is given twice");
  opts.named = {};
  opts.positional = {"a", "b", "c"};
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            "3 positional inputs given, but the model has 2 parameters");
  opts.positional = {"/nonexistent/q.npy"};
  opts.random_seed = 1;
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            "/nonexistent/q.npy: error: no such file");
}

TEST(RandomLiteralTest, DeterministicAndInRange) {
  Shape s = Shape::Array(PrimitiveType::kF32, {1000});
  Literal a = RandomLiteral(s, 42, 0);
  Literal b = RandomLiteral(s, 42, 0);
  Literal c = RandomLiteral(s, 42, 1);
  EXPECT_TRUE(a.BitwiseEquals(b));
  EXPECT_FALSE(a.BitwiseEquals(c));
  float lo = 1, hi = -1;
  for (float v : a.data<float>()) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_GE(lo, -1.0f);
  EXPECT_LT(hi, 1.0f);
  EXPECT_LT(lo, -0.9f);  // 1000 uniform draws cover the range
  EXPECT_GT(hi, 0.9f);
  Literal u = RandomLiteral(Shape::Array(PrimitiveType::kU8, {100}), 1, 0);
  for (uint8_t v : u.data<uint8_t>()) EXPECT_LT(v, 16);
}

}  // namespace
}  // namespace aotc
