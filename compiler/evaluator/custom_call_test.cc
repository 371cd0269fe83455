// Tests of custom-calls in the evaluator: identity annotations are their
// operand's value, AllocateBuffer gives zeros, anything else is a located
// error naming the target.
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/evaluator/kernel_test_util.h"
#include "compiler/ir/literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using ::aotc::testing_util::F32;
using ::aotc::testing_util::MustRun;
using ::aotc::testing_util::S32;
using ::aotc::testing_util::Values;
using ::testing::ElementsAre;

TEST(CustomCallTest, IdentityAnnotationsPassTheirOperandThrough) {
  // negate(x) = [-1, 2, -3], then through every annotation target in a
  // chain, then doubled: [-2, 4, -6].
  const std::string hlo = R"(HloModule m
ENTRY e {
  x = f32[3] parameter(0)
  n = f32[3] negate(x)
  a = f32[3] custom-call(n), custom_call_target="Sharding", sharding={replicated}
  b = f32[3] custom-call(a), custom_call_target="SPMDFullToShardShape"
  c = f32[3] custom-call(b), custom_call_target="SPMDShardToFullShape"
  d = f32[3] custom-call(c), custom_call_target="annotate_device_placement"
  h = f32[3]{0:S(5)} custom-call(d), custom_call_target="MoveToHost"
  v = f32[3] custom-call(h), custom_call_target="MoveToDevice"
  m = f32[3] custom-call(v), custom_call_target="xla_mark_tensor"
  s = f32[3] custom-call(m), custom_call_target="xla.sdy.GlobalToLocalShape"
  ROOT r = f32[3] add(s, s)
}
)";
  EXPECT_THAT(Values<float>(MustRun(hlo, {F32({3}, {1, -2, 3})})),
              ElementsAre(-2, 4, -6));
}

TEST(CustomCallTest, IdentityOfAParameterAndOfATupleAtTheRoot) {
  // The root aliases the argument; a tuple annotation keeps both leaves.
  const std::string hlo = R"(HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  i = s32[] parameter(1)
  t = (f32[2], s32[]) tuple(x, i)
  ROOT s = (f32[2], s32[]) custom-call(t), custom_call_target="Sharding"
}
)";
  Literal r = MustRun(hlo, {F32({2}, {0.5f, 4}), S32({}, {7})});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_THAT(Values<float>(r.tuple_elements()[0]), ElementsAre(0.5f, 4));
  EXPECT_THAT(Values<int32_t>(r.tuple_elements()[1]), ElementsAre(7));
}

TEST(CustomCallTest, AllocateBufferIsZeros) {
  // Contents are unspecified in XLA; the evaluator fixes them at zero:
  // zeros + x = x.
  const std::string hlo = R"(HloModule m
ENTRY e {
  x = f32[2,2] parameter(0)
  z = f32[2,2] custom-call(), custom_call_target="AllocateBuffer"
  ROOT r = f32[2,2] add(z, x)
}
)";
  EXPECT_THAT(Values<float>(MustRun(hlo, {F32({2, 2}, {1, -2, 3, 0.25f})})),
              ElementsAre(1, -2, 3, 0.25f));
}

// A module whose root is `root`, over x = f32[4].
absl::StatusOr<Literal> RunRoot(const std::string& root) {
  return testing_util::Run(
      "HloModule m\nENTRY e {\n  x = f32[4] parameter(0)\n  ROOT y = " + root +
          "\n}\n",
      {F32({4}, {1, 2, 3, 4})});
}

TEST(CustomCallTest, OtherTargetsAndMisshapenAnnotationsAreRefused) {
  struct Case {
    std::string root;
    std::string target;
    bool external;  // not a target aotc interprets
  };
  // Unknown targets (external functions in compiled code); an annotation
  // that changes the shape (as SPMDFullToShardShape does across devices) or
  // has two operands is not an identity, and the evaluator cannot compute
  // it either.
  const std::vector<Case> cases = {
      {R"(f32[4] custom-call(x), custom_call_target="my_kernel")", "my_kernel",
       true},
      {R"(f32[2] custom-call(x), custom_call_target="SPMDFullToShardShape")",
       "SPMDFullToShardShape", false},
      {R"(f32[4] custom-call(x, x), custom_call_target="Sharding")",
       "Sharding", false},
      {R"(f32[4] custom-call(x), custom_call_target="xla.sdy")", "xla.sdy",
       true},
  };
  for (const Case& c : cases) {
    absl::StatusOr<Literal> r = RunRoot(c.root);
    ASSERT_FALSE(r.ok()) << c.root;
    EXPECT_EQ(r.status().message(),
              "test.hlo:4:8: error: custom-call target '" + c.target +
                  "' is not supported" +
                  (c.external ? " by the reference evaluator, which cannot "
                                "run external functions"
                              : "") +
                  "\n  ROOT y = " + c.root + "\n       ^");
  }
  // AllocateBuffer takes no operands.
  absl::StatusOr<Literal> r =
      RunRoot(R"(f32[4] custom-call(x), custom_call_target="AllocateBuffer")");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "test.hlo:4:8: error: AllocateBuffer takes no operands, got 1\n"
            "  ROOT y = f32[4] custom-call(x), "
            "custom_call_target=\"AllocateBuffer\"\n"
            "       ^");
}

}  // namespace
}  // namespace aotc
