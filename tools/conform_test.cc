// The checks of self-checking programs and the preparation that turns their
// input calls into parameters. Expected verdicts are worked out by hand from
// the bit patterns.
#include "tools/conform.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/support/float16.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

template <typename T>
Literal Vector(PrimitiveType type, std::vector<T> values) {
  Literal l(Shape::Array(type, {static_cast<int64_t>(values.size())}));
  std::memcpy(l.mutable_raw(), values.data(), values.size() * sizeof(T));
  return l;
}

Literal F32(std::vector<float> v) { return Vector(PrimitiveType::kF32, v); }

// The float `ulps` representable values above x.
float Up(float x, int ulps) {
  for (int i = 0; i < ulps; ++i) {
    x = std::nextafter(x, std::numeric_limits<float>::infinity());
  }
  return x;
}

TEST(ApplyCheck, ExpectCloseAllowsThreeUlpsInTheElementType) {
  EXPECT_EQ(
      ApplyCheck(CheckKind::kExpectClose, F32({Up(1.0f, 3)}), F32({1.0f})), "");
  EXPECT_EQ(
      ApplyCheck(CheckKind::kExpectClose, F32({Up(1.0f, 4)}), F32({1.0f})),
      "expect_close: 1 of 1 elements differ; first [0]: got 1.00000048, "
      "expected 1 (4 ulps)");
  // Across zero: the smallest denormal on each side of +-0 are 2 apart.
  const float tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(ApplyCheck(CheckKind::kExpectClose, F32({-tiny}), F32({tiny})), "");
  EXPECT_EQ(ApplyCheck(CheckKind::kExpectClose, F32({-0.0f}), F32({0.0f})), "");
  EXPECT_NE(
      ApplyCheck(CheckKind::kExpectClose, F32({-2 * tiny}), F32({2 * tiny})),
      "");  // 4 apart
}

TEST(ApplyCheck, UlpsAreCountedInNarrowFloatTypes) {
  // bf16 1.0 = 0x3F80; 0x3F83 is 3 ulps above it, 0x3F84 four. In f32 these
  // differ by 2^16 times more, so counting in f32 would fail both.
  const Literal one = Vector<uint16_t>(PrimitiveType::kBF16, {0x3F80});
  EXPECT_EQ(ApplyCheck(CheckKind::kExpectClose,
                       Vector<uint16_t>(PrimitiveType::kBF16, {0x3F83}), one),
            "");
  EXPECT_NE(ApplyCheck(CheckKind::kExpectClose,
                       Vector<uint16_t>(PrimitiveType::kBF16, {0x3F84}), one),
            "");
  // f16: 0x3C00 = 1; 0xBC00 = -1 is far away.
  EXPECT_NE(ApplyCheck(CheckKind::kExpectClose,
                       Vector<uint16_t>(PrimitiveType::kF16, {0xBC00}),
                       Vector<uint16_t>(PrimitiveType::kF16, {0x3C00})),
            "");
  // f64: 3 ulps of 1.0 pass, 2^-52 * 4 above 1 fails.
  EXPECT_EQ(ApplyCheck(CheckKind::kExpectClose,
                       Vector<double>(PrimitiveType::kF64, {1.0 + 3 * 0x1p-52}),
                       Vector<double>(PrimitiveType::kF64, {1.0})),
            "");
  EXPECT_NE(ApplyCheck(CheckKind::kExpectClose,
                       Vector<double>(PrimitiveType::kF64, {1.0 + 4 * 0x1p-52}),
                       Vector<double>(PrimitiveType::kF64, {1.0})),
            "");
}

TEST(ApplyCheck, NanMatchesOnlyNanAndInfinityOnlyItself) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (CheckKind kind : {CheckKind::kExpectEq, CheckKind::kExpectClose,
                         CheckKind::kExpectAlmostEq}) {
    SCOPED_TRACE(std::string(CheckKindName(kind)));
    EXPECT_EQ(ApplyCheck(kind, F32({nan, inf, -inf}), F32({-nan, inf, -inf})),
              "");
    EXPECT_NE(ApplyCheck(kind, F32({nan}), F32({1.0f})), "");
    EXPECT_NE(ApplyCheck(kind, F32({1.0f}), F32({nan})), "");
    EXPECT_NE(ApplyCheck(kind, F32({inf}), F32({-inf})), "");
  }
  // The largest float is one ulp below infinity: close, but not almost equal.
  const float max = std::numeric_limits<float>::max();
  EXPECT_EQ(ApplyCheck(CheckKind::kExpectClose, F32({max}), F32({inf})), "");
  EXPECT_NE(ApplyCheck(CheckKind::kExpectAlmostEq, F32({max}), F32({inf})), "");
}

TEST(ApplyCheck, ExpectEqIsExactAndAlmostEqIsAbsolute) {
  EXPECT_NE(ApplyCheck(CheckKind::kExpectEq, F32({Up(1.0f, 1)}), F32({1.0f})),
            "");
  EXPECT_EQ(ApplyCheck(CheckKind::kExpectEq, F32({-0.0f}), F32({0.0f})), "");
  // 1000 + 0.0009765625 (2^-10, exact in f32) is within 0.001 of 1000;
  // 1000 + 0.00109863 (9 * 2^-13) is not, though only 1e-6 relative.
  EXPECT_EQ(ApplyCheck(CheckKind::kExpectAlmostEq, F32({1000.0f + 0x1p-10f}),
                       F32({1000.0f})),
            "");
  EXPECT_NE(ApplyCheck(CheckKind::kExpectAlmostEq,
                       F32({1000.0f + 9 * 0x1p-13f}), F32({1000.0f})),
            "");
  // 1e-3 absolute even for tiny values: 0.0005 vs 0.0014 passes.
  EXPECT_EQ(
      ApplyCheck(CheckKind::kExpectAlmostEq, F32({0.0005f}), F32({0.0014f})),
      "");
}

TEST(ApplyCheck, ComplexNeedsBothParts) {
  using C = std::complex<float>;
  auto c64 = [](std::vector<C> v) { return Vector(PrimitiveType::kC64, v); };
  EXPECT_EQ(ApplyCheck(CheckKind::kExpectClose, c64({C(1, Up(2, 3))}),
                       c64({C(1, 2)})),
            "");
  EXPECT_EQ(
      ApplyCheck(CheckKind::kExpectClose, c64({C(1, Up(2, 4))}),
                 c64({C(1, 2)})),
      "expect_close: 1 of 1 elements differ; first [0]: got (1, 2.00000095), "
      "expected (1, 2) (4 ulps)");
  EXPECT_NE(
      ApplyCheck(CheckKind::kExpectEq, c64({C(Up(1, 1), 2)}), c64({C(1, 2)})),
      "");
  // The note names the part that fails, not the last part compared: the
  // real part is 5 ulps off, the imaginary one 1.
  EXPECT_EQ(ApplyCheck(CheckKind::kExpectClose, c64({C(Up(1, 5), Up(2, 1))}),
                       c64({C(1, 2)})),
            "expect_close: 1 of 1 elements differ; first [0]: got (1.0000006, "
            "2.00000024), expected (1, 2) (5 ulps)");
}

TEST(ApplyCheck, IntegersArePrintedInTheirTypeAndMustBeExact) {
  EXPECT_EQ(ApplyCheck(CheckKind::kExpectAlmostEq,
                       Vector<int8_t>(PrimitiveType::kS8, {1, -1, 3}),
                       Vector<int8_t>(PrimitiveType::kS8, {1, -2, 3})),
            "expect_almost_eq: 1 of 3 elements differ; first [1]: got -1, "
            "expected -2");
  EXPECT_EQ(
      ApplyCheck(CheckKind::kExpectEq,
                 Vector<uint64_t>(PrimitiveType::kU64, {~uint64_t{0}}),
                 Vector<uint64_t>(PrimitiveType::kU64, {~uint64_t{0} - 1})),
      "expect_eq: 1 of 1 elements differ; first [0]: got "
      "18446744073709551615, expected 18446744073709551614");
  EXPECT_EQ(ApplyCheck(CheckKind::kExpectEq,
                       Vector<uint8_t>(PrimitiveType::kPred, {1, 0}),
                       Vector<uint8_t>(PrimitiveType::kPred, {1, 1})),
            "expect_eq: 1 of 2 elements differ; first [1]: got false, expected "
            "true");
}

TEST(ApplyCheck, ShapesMustAgree) {
  EXPECT_EQ(ApplyCheck(CheckKind::kExpectEq, F32({1, 2}), F32({1, 2, 3})),
            "shape f32[2]{0} differs from the expected f32[3]{0}");
}

TEST(ParseCheckKind, NamesTheThreeChecks) {
  EXPECT_EQ(*ParseCheckKind("check.expect_almost_eq"),
            CheckKind::kExpectAlmostEq);
  EXPECT_FALSE(ParseCheckKind("check.expect_lt").ok());
}

constexpr char kSelfChecking[] = R"(
HloModule selfcheck

inputs {
  c0 = f32[3] constant({1, 2, 3})
  c1 = s32[] constant(7)
  ROOT t = (f32[3], s32[]) tuple(c0, c1)
}

expected {
  ROOT e = f32[3] constant({2, 4, 6})
}

ENTRY main {
  in = (f32[3], s32[]) call(), to_apply=inputs
  x = f32[3] get-tuple-element(in), index=0
  k = s32[] get-tuple-element(in), index=1
  y = f32[3] add(x, x)
  want = f32[3] call(), to_apply=expected
  seven = s32[] constant(7)
  check0 = () custom-call(y, want), custom_call_target="check.expect_close", custom_call_has_side_effect=true
  check1 = () custom-call(k, seven), custom_call_target="check.expect_eq", custom_call_has_side_effect=true
  ROOT r = f32[3] copy(y)
}
)";

std::unique_ptr<Module> Parse(const char* text) {
  absl::StatusOr<std::unique_ptr<Module>> m = ParseHloText(text, "test.hlo");
  EXPECT_TRUE(m.ok()) << m.status();
  return std::move(*m);
}

TEST(PrepareConformProgram, InputCallsBecomeParametersAndChecksBecomeResults) {
  absl::StatusOr<ConformProgram> p =
      PrepareConformProgram(Parse(kSelfChecking), Parse(kSelfChecking));
  ASSERT_TRUE(p.ok()) << p.status();
  const Computation& entry = *p->module->entry();
  // The two tuple elements of @inputs are parameters 0 and 1, fed with the
  // values the call returned; nothing calls @inputs any more.
  ASSERT_EQ(entry.num_parameters(), 2);
  EXPECT_EQ(entry.parameter(0)->shape().ToString(), "f32[3]{0}");
  EXPECT_EQ(entry.parameter(1)->shape().ToString(), "s32[]");
  ASSERT_EQ(p->inputs.size(), 2u);
  EXPECT_EQ(p->inputs[0].Get<float>(2), 3.0f);
  EXPECT_EQ(p->inputs[1].Get<int32_t>(0), 7);
  for (const auto& inst : entry.instructions()) {
    EXPECT_NE(inst->opcode(), Opcode::kCall) << inst->name();
    EXPECT_NE(inst->opcode(), Opcode::kCustomCall) << inst->name();
  }
  // The values under test, in check order.
  ASSERT_EQ(entry.root()->opcode(), Opcode::kTuple);
  EXPECT_EQ(entry.root()->operand(0)->opcode(), Opcode::kAdd);
  EXPECT_EQ(entry.root()->operand(1), entry.parameter(1));
  ASSERT_EQ(p->checks.size(), 2u);
  EXPECT_EQ(p->checks[0].kind, CheckKind::kExpectClose);
  EXPECT_EQ(p->checks[0].expected.Get<float>(1), 4.0f);
  EXPECT_EQ(p->checks[1].kind, CheckKind::kExpectEq);
  EXPECT_EQ(p->checks[1].expected.Get<int32_t>(0), 7);
}

TEST(PrepareConformProgram, OnlyTheInputsCallBecomesParameters) {
  // @compute() takes no parameters either, but it is the work under test:
  // it stays a call (compiled with the rest), where turning it into a
  // parameter would hand the compiled program the evaluator's answer.
  constexpr char kCompute[] = R"(
HloModule selfcheck

inputs {
  ROOT c = f32[2] constant({1, 4})
}

compute {
  c = f32[2] constant({0.5, 2})
  ROOT e = f32[2] exponential(c)
}

expected {
  ROOT e = f32[2] constant({1.64872122, 7.3890561})
}

ENTRY main {
  x = f32[2] call(), to_apply=inputs
  s = f32[2] sqrt(x)
  y = f32[2] call(), to_apply=compute
  z = f32[2] add(s, y)
  want = f32[2] call(), to_apply=expected
  check = () custom-call(y, want), custom_call_target="check.expect_close", custom_call_has_side_effect=true
  check1 = () custom-call(z, z), custom_call_target="check.expect_close", custom_call_has_side_effect=true
  ROOT r = f32[2] copy(z)
}
)";
  absl::StatusOr<ConformProgram> p =
      PrepareConformProgram(Parse(kCompute), Parse(kCompute));
  ASSERT_TRUE(p.ok()) << p.status();
  const Computation& entry = *p->module->entry();
  ASSERT_EQ(entry.num_parameters(), 1);
  ASSERT_EQ(p->inputs.size(), 1u);
  EXPECT_EQ(p->inputs[0].Get<float>(1), 4.0f);
  int calls = 0;
  for (const auto& inst : entry.instructions()) {
    if (inst->opcode() == Opcode::kCall) {
      ++calls;
      EXPECT_EQ(inst->to_apply()->name(), "compute");
    }
  }
  EXPECT_EQ(calls, 1);
}

TEST(PrepareConformProgram, RefusesModulesWithoutChecks) {
  constexpr char kPlain[] = R"(
HloModule plain
ENTRY main {
  ROOT c = f32[] constant(1)
}
)";
  absl::StatusOr<ConformProgram> p =
      PrepareConformProgram(Parse(kPlain), Parse(kPlain));
  ASSERT_FALSE(p.ok());
  EXPECT_NE(std::string(p.status().message()).find("no check.* custom-call"),
            std::string::npos);
}

}  // namespace
}  // namespace aotc
