// Tests of composite kernels: reading a composite back from its call (both
// spellings of its attributes), binding it to a symbol (opaque string,
// kept attributes, the decomposition dropped, in loop bodies and at the
// root, tuple results), what stays (unbound names, reported; plain calls),
// and the located errors of a composite call that says too little.
#include "compiler/passes/composite_kernels.h"

#include <string>

#include "compiler/analysis/composite.h"
#include "compiler/passes/pass_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using testing::ParseVerified;
using testing::RunVerified;

// A tanh GELU as JAX prints a composite in HLO text (attributes as a bare
// group), used twice, the second time inside a loop's body.
constexpr char kGelu[] = R"(
HloModule m

gelu {
  x = f32[4] parameter(0)
  ROOT t = f32[4] tanh(x)
}

cond {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  v = f32[4] get-tuple-element(s), index=1
  g = f32[4] call(v), to_apply=gelu, is_composite=true, frontend_attributes={composite.attributes={approximate = "tanh"},composite.name="my.gelu",composite.version="2"}
  ROOT r = (s32[], f32[4]) tuple(j, g)
}

ENTRY main {
  p = f32[4] parameter(0)
  z = s32[] constant(0)
  c = f32[4] call(p), to_apply=gelu, is_composite=true, frontend_attributes={composite.attributes={approximate = "tanh"},composite.name="my.gelu",composite.version="2"}
  init = (s32[], f32[4]) tuple(z, c)
  w = (s32[], f32[4]) while(init), condition=cond, body=body
  ROOT out = f32[4] get-tuple-element(w), index=1
}
)";

TEST(CompositeTest, ReadsBothSpellingsOfTheAttributes) {
  std::unique_ptr<Module> m = ParseVerified(kGelu);
  ASSERT_NE(m, nullptr);
  const Instruction* c = m->entry()->FindInstruction("c");
  absl::StatusOr<std::optional<CompositeInfo>> info = ReadComposite(*c);
  ASSERT_TRUE(info.ok()) << info.status();
  ASSERT_TRUE(info->has_value());
  EXPECT_EQ((*info)->name, "my.gelu");
  EXPECT_EQ((*info)->attributes, R"({approximate = "tanh"})");
  EXPECT_EQ((*info)->version, 2);
  // StableHLO's spelling: the dictionary's text quoted, braces and quotes
  // inside the string included.
  auto quoted = ParseFrontendAttributes(
      R"({composite.attributes="{note = \"x}\"}",composite.name="a.b"})");
  ASSERT_TRUE(quoted.ok()) << quoted.status();
  EXPECT_THAT(*quoted,
              ElementsAre(Pair("composite.attributes", R"({note = "x}"})"),
                          Pair("composite.name", "a.b")));
  // A plain call is no composite.
  EXPECT_FALSE(ReadComposite(*m->entry()->FindInstruction("w"))->has_value());
  for (const char* bad : {"", "{", "{a}", R"({a="x)", "{a={b}", "{a=1} x"}) {
    EXPECT_FALSE(ParseFrontendAttributes(bad).ok()) << bad;
  }
}

TEST(CompositeKernelsTest, BoundCompositesBecomeCallsOfTheSymbol) {
  std::unique_ptr<Module> m = ParseVerified(kGelu);
  ASSERT_NE(m, nullptr);
  CompositeKernels pass({{"my.gelu", "fast_gelu"}, {"my.absent", "nothing"}});
  ASSERT_TRUE(RunVerified(pass, *m));
  EXPECT_THAT(pass.unbound(), ElementsAre("my.absent"));
  const Instruction* c = m->entry()->FindInstruction("c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->opcode(), Opcode::kCustomCall);
  EXPECT_EQ(c->custom_call_target(), "fast_gelu");
  ASSERT_NE(c->FindRawAttribute("opaque"), nullptr);
  EXPECT_EQ(*c->FindRawAttribute("opaque"),
            R"("{approximate = \"tanh\"};version=2")");
  ASSERT_NE(c->FindRawAttribute("frontend_attributes"), nullptr);
  EXPECT_THAT(*c->FindRawAttribute("frontend_attributes"),
              HasSubstr(R"(composite.name="my.gelu")"));
  EXPECT_EQ(c->FindRawAttribute("is_composite"), nullptr);
  // In the loop's body too, and the decomposition is gone.
  const Computation* body = m->FindComputation("body");
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->FindInstruction("g")->opcode(), Opcode::kCustomCall);
  EXPECT_EQ(m->FindComputation("gelu"), nullptr);
  EXPECT_EQ(CompositeKernelOpaque({"x.y", "{}", 0}), "{};version=0");
}

TEST(CompositeKernelsTest, TupleResultsRootsAndUnboundComposites) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m

pair {
  x = f32[2] parameter(0)
  n = f32[2] negate(x)
  ROOT t = (f32[2], f32[2]) tuple(x, n)
}

pair.1 {
  x = f32[2] parameter(0)
  ROOT a = f32[2] abs(x)
}

ENTRY main {
  p = f32[2] parameter(0)
  k = f32[2] call(p), to_apply=pair.1, is_composite=true, frontend_attributes={composite.name="keep.me"}
  ROOT r = (f32[2], f32[2]) call(k), to_apply=pair, is_composite=true, frontend_attributes={composite.name="my.pair",composite.version="0"}
}
)");
  ASSERT_NE(m, nullptr);
  CompositeKernels pass(CompositeKernelMap{{"my.pair", "pair_kernel"}});
  ASSERT_TRUE(RunVerified(pass, *m));
  EXPECT_TRUE(pass.unbound().empty());
  const Instruction* root = m->entry()->root();
  EXPECT_EQ(root->opcode(), Opcode::kCustomCall);
  EXPECT_EQ(root->name(), "r");
  EXPECT_EQ(root->shape().ToString(false), "(f32[2], f32[2])");
  EXPECT_EQ(*root->FindRawAttribute("opaque"), R"("{};version=0")");
  // keep.me is not bound: still a call of its decomposition.
  EXPECT_EQ(root->operand(0)->opcode(), Opcode::kCall);
  EXPECT_NE(m->FindComputation("pair.1"), nullptr);
  EXPECT_EQ(m->FindComputation("pair"), nullptr);
}

TEST(CompositeKernelsTest, ACompositeWithoutANameIsALocatedError) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m

id {
  ROOT x = f32[2] parameter(0)
}

ENTRY main {
  p = f32[2] parameter(0)
  ROOT c = f32[2] call(p), to_apply=id, is_composite=true, frontend_attributes={composite.version="1"}
}
)");
  ASSERT_NE(m, nullptr);
  CompositeKernels pass(CompositeKernelMap{{"my.op", "op"}});
  absl::StatusOr<bool> r = pass.Run(*m);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(),
              HasSubstr("test.hlo:10:8: error: composite call without "
                        "composite.name"));
}

}  // namespace
}  // namespace aotc
