// The per-instruction facts of op_facts.h, and that the
// transcendental-expander pass rewrites exactly the instructions
// IsExpandedByTranscendentalExpander names.
#include "compiler/analysis/op_facts.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/transcendental_expander.h"
#include "compiler/support/strings.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ParseVerified;
using testing::RunVerified;

// The root of a module of one `result` instruction over a `param`
// parameter, "r = <result> <op>(p)<attrs>".
std::unique_ptr<Module> OneOp(std::string_view param, std::string_view result,
                              std::string_view op,
                              std::string_view attrs = "") {
  return ParseVerified(absl::StrCat("HloModule m\nENTRY e {\n  p = ", Sv(param),
                                    " parameter(0)\n  ROOT r = ", Sv(result),
                                    " ", Sv(op), "(p)", Sv(attrs), "\n}\n"));
}

TEST(OpFactsTest, WidthChangingBitcastConvert) {
  std::unique_ptr<Module> same = OneOp("f32[4]", "s32[4]", "bitcast-convert");
  ASSERT_NE(same, nullptr);
  EXPECT_FALSE(IsWidthChangingBitcast(*same->entry()->root()));
  std::unique_ptr<Module> wide = OneOp("s8[4,2]", "s16[4]", "bitcast-convert");
  ASSERT_NE(wide, nullptr);
  EXPECT_TRUE(IsWidthChangingBitcast(*wide->entry()->root()));
  std::unique_ptr<Module> other = OneOp("s8[4]", "s16[4]", "convert");
  ASSERT_NE(other, nullptr);
  EXPECT_FALSE(IsWidthChangingBitcast(*other->entry()->root()));
}

TEST(OpFactsTest, SmallDynamicUpdateIsAQuarterOrLess) {
  auto update = [](int n) {
    return ParseVerified(absl::StrCat(
        "HloModule m\nENTRY e {\n  p = f32[16] parameter(0)\n  u = f32[", n,
        "] parameter(1)\n  i = s32[] parameter(2)\n  ROOT r = f32[16] "
        "dynamic-update-slice(p, u, i)\n}\n"));
  };
  std::unique_ptr<Module> small = update(4);
  ASSERT_NE(small, nullptr);
  EXPECT_TRUE(IsSmallDynamicUpdate(*small->entry()->root()));
  std::unique_ptr<Module> large = update(5);
  ASSERT_NE(large, nullptr);
  EXPECT_FALSE(IsSmallDynamicUpdate(*large->entry()->root()));
}

// The expander's opcodes are the evaluable elementwise ones code generation
// has no element-wise form for: any other such opcode would reach code
// generation and fail there.
TEST(OpFactsTest, ExpanderOpcodesAreTheElementwiseOnesWithoutElementForm) {
  const absl::Span<const Opcode> ops = TranscendentalExpanderOpcodes();
  for (int i = 0; i < NumOpcodes(); ++i) {
    const Opcode op = static_cast<Opcode>(i);
    const bool listed = std::find(ops.begin(), ops.end(), op) != ops.end();
    const bool needs = IsElementwise(op) && IsEvaluable(op) &&
                       !HasProperty(op, kPropElementalForm);
    EXPECT_EQ(listed, needs) << OpcodeName(op);
  }
}

// For every unary transcendental opcode and every type it accepts,
// the pass changes the module exactly when the predicate says it rewrites
// the instruction, and then leaves none of that opcode behind.
TEST(OpFactsTest, ExpanderRewritesWhatThePredicateNames) {
  for (int i = 0; i < NumOpcodes(); ++i) {
    const Opcode op = static_cast<Opcode>(i);
    if (!IsElementwiseUnary(op) || !IsTranscendental(op) ||
        !IsEvaluable(op)) {
      continue;
    }
    for (std::string_view type :
         {"f16", "bf16", "f32", "f64", "c64", "c128", "f8e5m2"}) {
      const std::string shape = absl::StrCat(Sv(type), "[3]");
      std::unique_ptr<Module> m = OneOp(shape, shape, OpcodeName(op));
      ASSERT_NE(m, nullptr) << OpcodeName(op) << " " << type;
      const bool expected =
          IsExpandedByTranscendentalExpander(*m->entry()->root());
      TranscendentalExpander pass;
      EXPECT_EQ(RunVerified(pass, *m), expected)
          << OpcodeName(op) << " " << type;
      if (!expected) continue;
      for (const auto& inst : m->entry()->instructions()) {
        EXPECT_NE(inst->opcode(), op) << OpcodeName(op) << " " << type;
      }
    }
  }
}

}  // namespace
}  // namespace aotc
