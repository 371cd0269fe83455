// Tests of input binding: by name, number, position and leaf path, random
// fill, and the error for each way a binding can be wrong.
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

// Tuple parameters bind leaf by leaf: `NAME.i.j` or positional files in
// leaf order (depth first, by tuple index).
class TupleInputsTest : public InputsTest {
 protected:
  void SetUp() override {
    // p: (f32[2], (s32[3], f32[])) holds leaves p.0, p.1.0, p.1.1; its
    // name has a dot, as JAX's do. q: f32[1].
    const Shape f2 = Shape::Array(PrimitiveType::kF32, {2});
    const Shape s3 = Shape::Array(PrimitiveType::kS32, {3});
    const Shape f0 = Shape::Scalar(PrimitiveType::kF32);
    AddParam("Arg_0.1", 0, Shape::Tuple({f2, Shape::Tuple({s3, f0})}));
    AddParam("q", 1, Shape::Array(PrimitiveType::kF32, {1}));
  }
  Literal F2() {
    Literal x(Shape::Array(PrimitiveType::kF32, {2}));
    x.Set<float>(0, 1.5f);
    return x;
  }
  Literal S3() {
    Literal n(Shape::Array(PrimitiveType::kS32, {3}));
    n.Set<int32_t>(1, 7);
    return n;
  }
  Literal F0() {
    Literal s(Shape::Scalar(PrimitiveType::kF32));
    s.Set<float>(0, -2.0f);
    return s;
  }
  Literal F1() {
    Literal q(Shape::Array(PrimitiveType::kF32, {1}));
    q.Set<float>(0, 9.0f);
    return q;
  }
};

TEST_F(TupleInputsTest, NamedLeavesByNameAndNumber) {
  InputOptions opts;
  opts.named = {"Arg_0.1.0=" + WriteTemp("f2.npy", F2()),
                "0.1.0=" + WriteTemp("s3.npy", S3()),
                "%Arg_0.1.1.1=" + WriteTemp("f0.npy", F0()),
                "q=" + WriteTemp("f1.npy", F1())};
  auto args = BindInputs(comp_, opts);
  ASSERT_TRUE(args.ok()) << args.status();
  const Literal& p = (*args)[0];
  ASSERT_TRUE(p.IsTuple());
  EXPECT_EQ(p.tuple_elements()[0].Get<float>(0), 1.5f);
  EXPECT_EQ(p.tuple_elements()[1].tuple_elements()[0].Get<int32_t>(1), 7);
  EXPECT_EQ(p.tuple_elements()[1].tuple_elements()[1].Get<float>(0), -2.0f);
  EXPECT_EQ((*args)[1].Get<float>(0), 9.0f);
}

TEST_F(TupleInputsTest, PositionalFilesTakeLeavesInOrder) {
  InputOptions opts;
  opts.positional = {WriteTemp("a.npy", F2()), WriteTemp("b.npy", S3()),
                     WriteTemp("c.npy", F0()), WriteTemp("d.npy", F1())};
  auto args = BindInputs(comp_, opts);
  ASSERT_TRUE(args.ok()) << args.status();
  const Literal& p = (*args)[0];
  EXPECT_EQ(p.tuple_elements()[0].Get<float>(0), 1.5f);
  EXPECT_EQ(p.tuple_elements()[1].tuple_elements()[0].Get<int32_t>(1), 7);
  EXPECT_EQ(p.tuple_elements()[1].tuple_elements()[1].Get<float>(0), -2.0f);
  EXPECT_EQ((*args)[1].Get<float>(0), 9.0f);
}

TEST_F(TupleInputsTest, RandomValuesFillTheOtherLeavesUnchanged) {
  InputOptions all_random;
  all_random.random_seed = 3;
  auto random = BindInputs(comp_, all_random);
  ASSERT_TRUE(random.ok()) << random.status();
  InputOptions one_file = all_random;
  one_file.named = {"Arg_0.1.1.0=" + WriteTemp("s3.npy", S3())};
  auto mixed = BindInputs(comp_, one_file);
  ASSERT_TRUE(mixed.ok()) << mixed.status();
  const Literal& r = (*random)[0];
  const Literal& m = (*mixed)[0];
  EXPECT_EQ(m.tuple_elements()[1].tuple_elements()[0].Get<int32_t>(1), 7);
  // Leaves not bound keep the values they get when nothing is bound.
  EXPECT_TRUE(m.tuple_elements()[0].BitwiseEquals(r.tuple_elements()[0]));
  EXPECT_TRUE(m.tuple_elements()[1].tuple_elements()[1].BitwiseEquals(
      r.tuple_elements()[1].tuple_elements()[1]));
  EXPECT_FALSE(m.tuple_elements()[1].tuple_elements()[0].BitwiseEquals(
      r.tuple_elements()[1].tuple_elements()[0]));
}

TEST_F(TupleInputsTest, Errors) {
  InputOptions opts;
  opts.named = {"Arg_0.1.0=" + WriteTemp("f2.npy", F2())};
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            "no input for leaf Arg_0.1.1.0 of parameter 'Arg_0.1' (number 0) "
            "s32[3]; give --input Arg_0.1.1.0=FILE.npy or --random-inputs "
            "SEED");
  opts.named = {"Arg_0.1.2=a.npy"};
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            "--input names 'Arg_0.1.2', but parameter 'Arg_0.1' (number 0) of "
            "shape (f32[2], (s32[3], f32[])) has no such leaf; its leaves "
            "are: Arg_0.1.0, Arg_0.1.1.0, Arg_0.1.1.1");
  opts.named = {"0.1=a.npy"};
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            "--input names '0.1', which is a tuple (s32[3], f32[]) in "
            "parameter 'Arg_0.1' (number 0); .npy files feed array leaves: "
            "Arg_0.1.0, Arg_0.1.1.0, Arg_0.1.1.1");
  opts.named = {"q.0=a.npy"};
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            "--input names 'q.0', but parameter 'q' (number 1) of shape "
            "f32[1] has no such leaf; its leaves are: q");
  opts.named = {"Arg_0.x=a.npy"};
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            "--input names 'Arg_0.x', but the parameters are: Arg_0.1, q");
  opts.named = {"0.0=a.npy", "Arg_0.1.0=b.npy"};
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            "leaf Arg_0.1.0 of parameter 'Arg_0.1' (number 0) is given twice");
  opts.named = {};
  opts.positional = {"a", "b", "c", "d", "e"};
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            "5 positional inputs given, but the model has 2 parameters with 4 "
            "array leaves");
  // A file of the wrong shape names the leaf.
  opts.positional = {};
  opts.named = {"Arg_0.1.1.0=" + WriteTemp("wrong.npy", F2())};
  opts.random_seed = 1;
  const std::string wrong = ::testing::TempDir() + "/wrong.npy";
  EXPECT_EQ(BindInputs(comp_, opts).status().message(),
            wrong +
                ": error: leaf Arg_0.1.1.0 of parameter 'Arg_0.1' "
                "(number 0) expects s32[3], the file holds f32[2]");
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
