// End-to-end tests of tuple-shaped entry parameters: the compiled model takes
// one buffer per array leaf (docs/header.md), LoadedModel::Run takes one
// literal per parameter and flattens tuple literals into those buffers.
// Expected values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codegen/tests/codegen_test_util.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

TEST(TupleParamsE2eTest, AddConvertedLeaves) {
  // p.0 + convert(p.1) = {1.5 + 3, -2 + 4} = {4.5, 2}.
  const char* hlo = R"(HloModule m
ENTRY e {
  p = (f32[2], s32[2]) parameter(0)
  a = f32[2] get-tuple-element(p), index=0
  b = s32[2] get-tuple-element(p), index=1
  c = f32[2] convert(b)
  ROOT r = f32[2] add(a, c)
})";
  std::vector<Literal> args;
  args.push_back(
      Literal::MakeTuple({Vec<P::kF32>({1.5f, -2.0f}), Vec<P::kS32>({3, 4})}));
  for (bool optimize : {false, true}) {
    SCOPED_TRACE(optimize ? "optimized" : "as read");
    auto results = CompileAndRun(hlo, args, 2, optimize);
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_EQ(results->size(), 1u);
    EXPECT_EQ(Values<P::kF32>((*results)[0]), (std::vector<float>{4.5f, 2.0f}));
  }
}

// A nested tuple before an array parameter, with an empty tuple parameter
// that takes no buffer: the arguments are a, n, s, q in this order.
constexpr const char* kNested = R"(HloModule m
ENTRY e {
  p = (f32[2], (s32[2], f32[])) parameter(0)
  none = () parameter(1)
  q = f32[2] parameter(2)
  a = f32[2] get-tuple-element(p), index=0
  inner = (s32[2], f32[]) get-tuple-element(p), index=1
  n = s32[2] get-tuple-element(inner), index=0
  s = f32[] get-tuple-element(inner), index=1
  nf = f32[2] convert(n)
  sb = f32[2] broadcast(s), dimensions={}
  t = f32[2] add(a, nf)
  u = f32[2] multiply(t, sb)
  v = f32[2] add(u, q)
  ROOT r = (f32[2], s32[2]) tuple(v, n)
})";

std::vector<Literal> NestedArgs() {
  std::vector<Literal> args;
  args.push_back(Literal::MakeTuple(
      {Vec<P::kF32>({1, 2}),
       Literal::MakeTuple({Vec<P::kS32>({3, -4}), Scalar<P::kF32>(2)})}));
  args.push_back(Literal::MakeTuple({}));
  args.push_back(Vec<P::kF32>({10, 20}));
  return args;
}

TEST(TupleParamsE2eTest, NestedTupleBeforeAnArrayParameter) {
  // t = a + n = {1 + 3, 2 - 4} = {4, -2}; u = t * s = {8, -4};
  // v = u + q = {18, 16}; the second result passes n through.
  auto compiled = CompileText(kNested);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  const ModelSignature& sig = compiled->signature;
  ASSERT_EQ(sig.args.size(), 4u);
  EXPECT_EQ(sig.args[1].name, "p_1_0");
  EXPECT_EQ(sig.args[3].name, "q");
  auto loaded = LoadedModel::Load(*compiled);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  auto results = (*loaded)->Run(NestedArgs());
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 2u);
  EXPECT_EQ(Values<P::kF32>((*results)[0]), (std::vector<float>{18, 16}));
  EXPECT_EQ(Values<P::kS32>((*results)[1]), (std::vector<int32_t>{3, -4}));
  ExpectMatchesEvaluator(kNested, NestedArgs());
}

TEST(TupleParamsE2eTest, PackedBuffersFollowTheLeafOrder) {
  // The same model through NAME_run_packed with hand-made buffers: args[0..3]
  // are a, n, s, q.
  auto compiled = CompileText(kNested);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  auto loaded = LoadedModel::Load(*compiled);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const float a[2] = {1, 2};
  const int32_t n[2] = {3, -4};
  const float s = 2;
  const float q[2] = {10, 20};
  float v[2] = {0, 0};
  int32_t n_out[2] = {0, 0};
  const void* args[] = {a, n, &s, q};
  void* results[] = {v, n_out};
  auto temp = LoadedModel::AllocateBuffer(compiled->signature.temp_bytes);
  ASSERT_TRUE(temp.ok()) << temp.status();
  ASSERT_EQ((*loaded)->RunPacked(args, results, temp->get()), 0);
  EXPECT_EQ(v[0], 18);
  EXPECT_EQ(v[1], 16);
  EXPECT_EQ(n_out[0], 3);
  EXPECT_EQ(n_out[1], -4);
}

TEST(TupleParamsE2eTest, LiteralsOfTheWrongStructureAreRefused) {
  auto compiled = CompileText(kNested);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  auto loaded = LoadedModel::Load(*compiled);
  ASSERT_TRUE(loaded.ok()) << loaded.status();

  std::vector<Literal> too_few;
  too_few.push_back(Vec<P::kF32>({10, 20}));
  auto r = (*loaded)->Run(too_few);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "the model takes 3 parameters, got 1");

  std::vector<Literal> flat = NestedArgs();
  flat[0] = Vec<P::kF32>({1, 2});
  r = (*loaded)->Run(flat);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "parameter 0 (p) has no leaf {0}: got f32[2]");

  std::vector<Literal> wrong_leaf = NestedArgs();
  wrong_leaf[0].mutable_tuple_elements()[1].mutable_tuple_elements()[0] =
      Vec<P::kS32>({3, 4, 5});
  r = (*loaded)->Run(wrong_leaf);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "argument 1 (p_1_0) must be s32[2], got s32[3]");

  std::vector<Literal> extra_leaf = NestedArgs();
  extra_leaf[1] = Literal::MakeTuple({Scalar<P::kF32>(1)});
  r = (*loaded)->Run(extra_leaf);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "parameter 1 must have 0 array leaves, got 1");
}

TEST(TupleParamsE2eTest, TokensInParametersAreRefusedWithTheirLocation) {
  const char* hlo = R"(HloModule m
ENTRY e {
  p = (f32[2], token[]) parameter(0)
  ROOT a = f32[2] get-tuple-element(p), index=0
})";
  auto compiled = CompileText(hlo);
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(std::string(compiled.status().message()),
            "test.hlo:3:3: error: entry parameter of type (f32[2]{0}, "
            "token[]) is not supported: compiled models take arrays and "
            "tuples of arrays\n"
            "  p = (f32[2], token[]) parameter(0)\n"
            "  ^");
}

}  // namespace
}  // namespace aotc::codegen::testing
