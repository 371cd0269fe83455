// Tests of the transcendental expander: the rewrite fires (and only where it
// should), and the expanded formulas, run by the reference evaluator, agree
// with the C++ library's functions (computed one precision higher) within
// the ulp bounds docs/passes.md states.
#include "compiler/passes/transcendental_expander.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/evaluator_test_util.h"
#include "compiler/passes/pass_test_util.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

using ::aotc::testing::ParseVerified;
using ::aotc::testing::RunVerified;

std::string UnaryModule(std::string_view type, std::string_view op, int n) {
  return absl::StrCat("HloModule m\n\nENTRY e {\n  p = ", Sv(type), "[", n,
                      "] parameter(0)\n  ROOT r = ", Sv(type), "[", n, "] ",
                      Sv(op), "(p)\n}\n");
}

// Inputs: signed zeros, subnormals, a logarithmic sweep over the whole
// range, dense points around 1 and the branch thresholds, infinities, NaN.
template <typename T>
std::vector<T> TestInputs() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0),     T(-0.0),       L::denorm_min(), L::min(),
                      L::max(), L::infinity(), -L::infinity(),  L::quiet_NaN()};
  for (double e = std::log2(double(L::min())); e < std::log2(double(L::max()));
       e += 0.173) {
    v.push_back(T(std::exp2(e)));
  }
  for (int k = -300; k <= 300; ++k) {
    v.push_back(T(1) + T(k) * L::epsilon());
    v.push_back(T(1) + T(k) * T(1e-3));
    v.push_back(T(k) / T(16));
  }
  for (double t : {std::ldexp(1.0, -12), std::ldexp(1.0, -27),
                   std::ldexp(1.0, 12), std::ldexp(1.0, 27), 88.0, 88.7, 89.4,
                   89.5, 709.0, 709.8, 710.4, 710.5}) {
    for (T d : {T(-1), T(0), T(1)}) {
      v.push_back(std::nextafter(T(t), d * L::infinity() + T(t)));
    }
  }
  const size_t n = v.size();
  for (size_t i = 0; i < n; ++i) v.push_back(-v[i]);
  return v;
}

// Distance of `got` from the exact value `ref` in ulps of T at ref; 0 when
// both are the same NaN class or the same infinity, infinite otherwise.
template <typename T, typename R>
double UlpError(T got, R ref) {
  if (std::isnan(ref) || std::isnan(got)) {
    return std::isnan(ref) && std::isnan(got) ? 0 : INFINITY;
  }
  const T rounded = static_cast<T>(ref);
  if (std::isinf(rounded) || std::isinf(got)) {
    return rounded == got ? 0 : INFINITY;
  }
  const T mag = std::fabs(rounded);
  const T ulp = std::nextafter(mag, std::numeric_limits<T>::infinity()) - mag;
  return static_cast<double>(std::fabs(static_cast<R>(got) - ref) / ulp);
}

struct OpCase {
  const char* op;
  std::function<long double(long double)> f;
  double ulp_f32;
  double ulp_f64;
};

const OpCase kCases[] = {
    {"asinh", [](long double x) { return std::asinh(x); }, 2, 2},
    {"acosh", [](long double x) { return std::acosh(x); }, 2, 2},
    {"atanh", [](long double x) { return std::atanh(x); }, 2, 2},
    {"asin", [](long double x) { return std::asin(x); }, 2, 2},
    {"acos", [](long double x) { return std::acos(x); }, 2, 2},
    {"sinh", [](long double x) { return std::sinh(x); }, 2, 2},
    {"cosh", [](long double x) { return std::cosh(x); }, 2, 2},
};

template <PrimitiveType P>
void CheckAccuracy(const OpCase& c, double bound) {
  using T = NativeType<P>;
  const std::vector<T> inputs = TestInputs<T>();
  const int n = static_cast<int>(inputs.size());
  std::unique_ptr<Module> module =
      ParseVerified(UnaryModule(PrimitiveTypeName(P), c.op, n));
  ASSERT_NE(module, nullptr);
  TranscendentalExpander pass;
  EXPECT_TRUE(RunVerified(pass, *module));
  for (const auto& inst : module->entry()->instructions()) {
    EXPECT_NE(OpcodeName(inst->opcode()), c.op);
  }
  auto result = EvaluateModule(*module, {testing::Vec<P>(inputs)});
  ASSERT_TRUE(result.ok()) << result.status();
  const std::vector<T> got = testing::Values<P>(*result);
  double worst = 0;
  T worst_x = 0;
  for (int i = 0; i < n; ++i) {
    const double e = UlpError(got[i], c.f(static_cast<long double>(inputs[i])));
    if (e > worst) worst = e, worst_x = inputs[i];
    EXPECT_LE(e, bound) << c.op << "(" << inputs[i] << ") = " << got[i]
                        << ", expected " << double(c.f(inputs[i]));
  }
  std::printf("%s %s: max error %.2f ulp at %.17g over %d inputs\n", c.op,
              std::string(PrimitiveTypeName(P)).c_str(), worst, double(worst_x),
              n);
}

TEST(TranscendentalExpanderTest, F32MatchesLibraryWithinBound) {
  for (const OpCase& c : kCases)
    CheckAccuracy<PrimitiveType::kF32>(c, c.ulp_f32);
}

TEST(TranscendentalExpanderTest, F64MatchesLibraryWithinBound) {
  for (const OpCase& c : kCases)
    CheckAccuracy<PrimitiveType::kF64>(c, c.ulp_f64);
}

// f16 and bf16 go through f32: within one ulp of the narrow type (the f32
// error is far below it; only the final rounding counts).
template <PrimitiveType P>
void CheckNarrow(const OpCase& c) {
  std::vector<float> inputs;
  for (float x : TestInputs<float>()) {
    const float narrow = static_cast<float>(NativeType<P>(x));
    inputs.push_back(narrow);
  }
  const int n = static_cast<int>(inputs.size());
  std::unique_ptr<Module> module =
      ParseVerified(UnaryModule(PrimitiveTypeName(P), c.op, n));
  ASSERT_NE(module, nullptr);
  TranscendentalExpander pass;
  EXPECT_TRUE(RunVerified(pass, *module));
  auto result = EvaluateModule(*module, {testing::HalfVec<P>(inputs)});
  ASSERT_TRUE(result.ok()) << result.status();
  const std::vector<float> got = testing::HalfValues<P>(*result);
  for (int i = 0; i < n; ++i) {
    const float want =
        static_cast<float>(NativeType<P>(static_cast<float>(c.f(inputs[i]))));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got[i])) << c.op << "(" << inputs[i] << ")";
      continue;
    }
    // One step of the narrow type either way of the rounded exact value.
    const uint16_t bits = NativeType<P>(want).bits;
    const float up = static_cast<float>(NativeType<P>::FromBits(bits + 1));
    const float down = static_cast<float>(
        NativeType<P>::FromBits(bits == 0x8000 ? 1 : bits - 1));
    const bool ok = got[i] == want || got[i] == up || got[i] == down;
    EXPECT_TRUE(ok) << c.op << "(" << inputs[i] << ") = " << got[i]
                    << ", expected " << want;
  }
}

TEST(TranscendentalExpanderTest, F16AndBF16WithinOneUlp) {
  for (const OpCase& c : kCases) {
    CheckNarrow<PrimitiveType::kF16>(c);
    CheckNarrow<PrimitiveType::kBF16>(c);
  }
}

TEST(TranscendentalExpanderTest, SignedZeroAndSpecialValues) {
  // Exact values: odd functions keep -0; acosh(1) = 0, atanh(+-1) = +-inf,
  // acos(-1) = pi, cosh(0) = 1; out of the domain is NaN.
  struct Exact {
    const char* op;
    float x;
    float want;
  };
  const float inf = std::numeric_limits<float>::infinity();
  const Exact cases[] = {
      {"asinh", -0.0f, -0.0f},
      {"atanh", -0.0f, -0.0f},
      {"sinh", -0.0f, -0.0f},
      {"asin", -0.0f, -0.0f},
      {"acosh", 1, 0},
      {"atanh", 1, inf},
      {"atanh", -1, -inf},
      {"acos", -1, static_cast<float>(M_PI)},
      {"acos", 1, 0},
      {"cosh", 0, 1},
      {"asinh", -inf, -inf},
      {"acosh", inf, inf},
      {"sinh", -inf, -inf},
      {"cosh", -inf, inf},
      {"sinh", 89.4f, std::sinh(89.4f)},
  };
  for (const Exact& c : cases) {
    std::unique_ptr<Module> module = ParseVerified(UnaryModule("f32", c.op, 1));
    TranscendentalExpander pass;
    EXPECT_TRUE(RunVerified(pass, *module));
    auto r =
        EvaluateModule(*module, {testing::Vec<PrimitiveType::kF32>({c.x})});
    ASSERT_TRUE(r.ok()) << r.status();
    const float got = testing::Values<PrimitiveType::kF32>(*r)[0];
    EXPECT_EQ(got, c.want) << c.op << "(" << c.x << ")";
    EXPECT_EQ(std::signbit(got), std::signbit(c.want))
        << c.op << "(" << c.x << ")";
  }
  const std::pair<const char*, float> outside[] = {
      {"acosh", 0.5f}, {"atanh", 1.5f}, {"asin", 1.5f}, {"acos", -1.5f}};
  for (const auto& [op, x] : outside) {
    std::unique_ptr<Module> module = ParseVerified(UnaryModule("f32", op, 1));
    TranscendentalExpander pass;
    EXPECT_TRUE(RunVerified(pass, *module));
    auto r = EvaluateModule(*module, {testing::Vec<PrimitiveType::kF32>({x})});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(std::isnan(testing::Values<PrimitiveType::kF32>(*r)[0])) << op;
  }
}

TEST(TranscendentalExpanderTest, KeepsShapeLayoutAndLocation) {
  std::unique_ptr<Module> module = ParseVerified(R"(HloModule m

ENTRY e {
  p = f32[2,3]{0,1} parameter(0)
  s = f32[2,3]{0,1} sinh(p)
  ROOT n = f32[2,3]{0,1} negate(s)
}
)");
  ASSERT_NE(module, nullptr);
  const Location where = module->entry()->FindInstruction("s")->location();
  TranscendentalExpander pass;
  EXPECT_TRUE(RunVerified(pass, *module));
  const Instruction* n = module->entry()->FindInstruction("n");
  const Instruction* s = n->operand(0);
  EXPECT_EQ(s->shape().ToString(), "f32[2,3]{0,1}");
  EXPECT_EQ(s->location().line, where.line);
  EXPECT_EQ(module->entry()->FindInstruction("s"), nullptr);
}

TEST(TranscendentalExpanderTest, DoesNotTouchOtherOps) {
  // Complex tan and real tanh have element-wise forms in code generation.
  TranscendentalExpander pass;
  std::unique_ptr<Module> tan = ParseVerified(UnaryModule("c64", "tan", 4));
  ASSERT_NE(tan, nullptr);
  EXPECT_FALSE(RunVerified(pass, *tan));
  std::unique_ptr<Module> plain = ParseVerified(UnaryModule("f32", "tanh", 4));
  ASSERT_NE(plain, nullptr);
  EXPECT_FALSE(RunVerified(pass, *plain));
}

TEST(TranscendentalExpanderTest, ComplexComputesOnPartsInDouble) {
  // c64 asin: the parts are taken, widened to f64, combined in f64 and
  // rounded back once; hand-checked values: asin(0) = 0, asin(1) = pi/2,
  // asin(2) = pi/2 + i acosh(2) (the +0 imaginary part picks the upper
  // side of the cut), asin(-0 - 0i) = -0 - 0i, asin(i) = i asinh(1).
  std::unique_ptr<Module> module = ParseVerified(UnaryModule("c64", "asin", 5));
  ASSERT_NE(module, nullptr);
  TranscendentalExpander pass;
  EXPECT_TRUE(RunVerified(pass, *module));
  const Instruction* root = module->entry()->root();
  EXPECT_EQ(root->opcode(), Opcode::kComplex);
  EXPECT_EQ(root->shape().ToString(), "c64[5]{0}");
  EXPECT_EQ(root->operand(0)->opcode(), Opcode::kConvert);
  EXPECT_EQ(root->operand(0)->operand(0)->shape().element_type(),
            PrimitiveType::kF64);
  using C = std::complex<float>;
  const std::vector<C> z = {C(0, 0), C(1, 0), C(2, 0), C(-0.0f, -0.0f),
                            C(0, 1)};
  auto result = EvaluateModule(
      *module, {testing::Vec<PrimitiveType::kC64>(z)});
  ASSERT_TRUE(result.ok()) << result.status();
  const auto w = result->data<C>();
  const float half_pi = 1.57079632679489662f;
  EXPECT_EQ(w[0], C(0, 0));
  EXPECT_EQ(w[1], C(half_pi, 0));
  EXPECT_EQ(w[2], C(half_pi, 1.31695789692481671f));  // acosh(2)
  EXPECT_TRUE(std::signbit(w[3].real()) && std::signbit(w[3].imag()));
  EXPECT_EQ(w[3], C(0, 0));
  EXPECT_EQ(w[4], C(0, 0.881373587019543025f));  // asinh(1)
}

}  // namespace
}  // namespace aotc
