// Result comparison (compare.h), the oracle of every numerical test: exact
// integers, NaN and infinities, error budgets (accepting what rounding
// explains, refusing what it cannot), the per-type tolerance where there is
// no budget, complex parts. Expected outcomes are worked
// out by hand in the comments.
#include "tools/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/native_type.h"

namespace aotc {
namespace {

template <typename T>
Literal ComplexVec(PrimitiveType type, const std::vector<std::complex<T>>& v) {
  Literal lit(Shape::Array(type, {static_cast<int64_t>(v.size())}));
  auto data = lit.mutable_data<std::complex<T>>();
  for (size_t i = 0; i < v.size(); ++i) data[i] = v[i];
  return lit;
}

TEST(CompareTest, ComplexPartsBothCount) {
  using Z = std::complex<float>;
  const Literal expected =
      ComplexVec<float>(PrimitiveType::kC64, {Z(1, 2), Z(3, 4), Z(5, 6)});
  // Element 1 differs in its imaginary part only, by 1e-3 (beyond f32's
  // 1e-5 + 1e-4 * 4); element 2 within tolerance (5e-6 on each part).
  const Literal actual = ComplexVec<float>(
      PrimitiveType::kC64, {Z(1, 2), Z(3, 4.001f), Z(5.000005f, 6.000005f)});
  const Comparison c =
      CompareLiterals(actual, expected, DefaultTolerance(PrimitiveType::kC64));
  EXPECT_EQ(c.elements, 3);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.first_mismatch, "element [1]: got (3, 4.001), expected (3, 4)");
}

TEST(CompareTest, ComplexNaNPartsMatchOnlyNaN) {
  using Z = std::complex<double>;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Literal expected =
      ComplexVec<double>(PrimitiveType::kC128, {Z(nan, 1), Z(0, nan)});
  const Literal actual =
      ComplexVec<double>(PrimitiveType::kC128, {Z(nan, 1), Z(0, 0)});
  const Comparison c =
      CompareLiterals(actual, expected, DefaultTolerance(PrimitiveType::kC128));
  EXPECT_EQ(c.mismatches, 1);
}

TEST(CompareTest, ComplexTolerancesAreTheirParts) {
  EXPECT_EQ(DefaultTolerance(PrimitiveType::kC64).rel,
            DefaultTolerance(PrimitiveType::kF32).rel);
  EXPECT_EQ(DefaultTolerance(PrimitiveType::kC128).abs,
            DefaultTolerance(PrimitiveType::kF64).abs);
}

template <PrimitiveType P>
Literal Array(const std::vector<NativeType<P>>& v) {
  Literal lit(Shape::Array(P, {static_cast<int64_t>(v.size())}));
  auto data = lit.mutable_data<NativeType<P>>();
  for (size_t i = 0; i < v.size(); ++i) data[i] = v[i];
  return lit;
}

TEST(CompareTest, IntegersMustBeExact) {
  // int64 values beyond 2^53 differ by one: still a mismatch.
  const int64_t big = (int64_t{1} << 60) + 1;
  const Literal e = Array<PrimitiveType::kS64>({big, -3});
  const Literal a = Array<PrimitiveType::kS64>({big - 1, -3});
  const Comparison c =
      CompareLiterals(a, e, DefaultTolerance(PrimitiveType::kS64));
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(
      c.first_mismatch,
      "element [0]: got 1152921504606846976, expected 1152921504606846977");
  const Literal p = Array<PrimitiveType::kPred>({true, false});
  const Literal q = Array<PrimitiveType::kPred>({true, true});
  EXPECT_EQ(
      CompareLiterals(q, p, DefaultTolerance(PrimitiveType::kPred)).mismatches,
      1);
}

TEST(CompareTest, PredBytesAreTrueWhenNonzero) {
  // bitcast-convert s8 -> pred keeps the byte (7); the evaluator stores 1.
  Literal expected(Shape::Array(PrimitiveType::kPred, {3}));
  Literal actual(Shape::Array(PrimitiveType::kPred, {3}));
  const uint8_t e[3] = {1, 0, 1};
  const uint8_t a[3] = {7, 0, 0};
  std::memcpy(expected.mutable_raw(), e, 3);
  std::memcpy(actual.mutable_raw(), a, 3);
  const Comparison c =
      CompareLiterals(actual, expected, DefaultTolerance(PrimitiveType::kPred));
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.first_mismatch, "element [2]: got 0, expected 1");
}

TEST(CompareTest, F32ToleranceIsAbsPlusRelative) {
  // f32: 1e-5 + 1e-4 * |e|. For e = 100 that is 0.01001: 100.01f (error
  // 0.0100021) is inside, 100.011f (error 0.0110016) outside. For e = 0
  // only the absolute 1e-5 applies: 9e-6 inside, 1.1e-5 outside.
  const Literal e = Array<PrimitiveType::kF32>({100, 100, 0, 0});
  const Literal a =
      Array<PrimitiveType::kF32>({100.01f, 100.011f, 9e-6f, 1.1e-5f});
  const Comparison c =
      CompareLiterals(a, e, DefaultTolerance(PrimitiveType::kF32));
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.first_mismatch, "element [1]: got 100.011, expected 100");
  EXPECT_GT(c.max_error_ratio, 1.0);
}

TEST(CompareTest, NaNMatchesOnlyNaNAndInfinitiesOnlyThemselves) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const Literal e = Array<PrimitiveType::kF32>({nan, nan, inf, inf, -inf, 1});
  const Literal a =
      Array<PrimitiveType::kF32>({-nan, 0, inf, -inf, 3e38f, nan});
  const Comparison c =
      CompareLiterals(a, e, DefaultTolerance(PrimitiveType::kF32));
  // Matches: [0] (any NaN), [2]. Mismatches: [1], [3], [4], [5].
  EXPECT_EQ(c.mismatches, 4);
  EXPECT_EQ(c.first_mismatch, "element [1]: got 0, expected nan");
  // Errors are measured over pairs where both are finite: none here ([4]
  // has an infinity, [5] a NaN). Only [0] is a NaN pair.
  EXPECT_EQ(c.max_abs_error, 0);
  EXPECT_EQ(c.finite, 0);
  EXPECT_EQ(c.both_nan, 1);
}

TEST(CompareTest, ABudgetReplacesTheTolerance) {
  // Expected 652.6266 on all three; 652.532 is off by 0.0946. Element 0's
  // budget 0.1 admits it; element 1's budget 0 refuses it though the per-type
  // tolerance (1e-5 + 1e-4 * 652.6266 = 0.06527) would too; element 2 has no
  // budget (NaN) and the tolerance judges it: refused. Elements 3 to 5 have
  // an infinite budget, which says the oracle lost track, not that anything
  // goes: the tolerance judges them too. 1.00005 against 1 is within
  // 1e-5 + 1e-4; 2 against 1 is not, nor is NaN against 1.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Literal e = Array<PrimitiveType::kF32>(
      {652.6266f, 652.6266f, 652.6266f, 1, 1, 1});
  const Literal a = Array<PrimitiveType::kF32>(
      {652.532f, 652.532f, 652.532f, 1.00005f, 2, nan});
  const Literal budget = Array<PrimitiveType::kF64>(
      {0.1, 0, std::numeric_limits<double>::quiet_NaN(), inf, inf, inf});
  const Comparison c =
      CompareLiterals(a, e, DefaultTolerance(PrimitiveType::kF32), &budget);
  EXPECT_EQ(c.mismatches, 4);
  EXPECT_EQ(c.finite, 5);
  EXPECT_EQ(c.by_tolerance, 3);
  EXPECT_EQ(c.infinite_budget, 3);
  EXPECT_EQ(c.first_mismatch, "element [1]: got 652.532, expected 652.627");
  // Element 1's error over a zero budget.
  EXPECT_TRUE(std::isinf(c.max_error_ratio));
}

// The oracle's value and budgets of `hlo` on `args`.
OracleValue Oracle(const char* hlo, const std::vector<Literal>& args) {
  auto module = ParseHloText(hlo, "m.hlo");
  EXPECT_TRUE(module.ok()) << module.status();
  auto oracle = EvaluateOracle(**module, args);
  EXPECT_TRUE(oracle.ok()) << oracle.status();
  return *std::move(oracle);
}

// The same on f32 vector arguments.
OracleValue Oracle(const char* hlo, const std::vector<std::vector<float>>& xs) {
  std::vector<Literal> args;
  for (const auto& x : xs) args.push_back(Array<PrimitiveType::kF32>(x));
  return Oracle(hlo, args);
}

// Compares f32 values with the oracle's first result.
Comparison Against(const OracleValue& o, const std::vector<float>& actual) {
  return CompareLiterals(Array<PrimitiveType::kF32>(actual),
                         *o.value.Leaves()[0],
                         DefaultTolerance(PrimitiveType::kF32), &o.bounds[0]);
}

float Ulps(float v, int n) {
  for (int i = 0; i < n; ++i) v = std::nextafter(v, 2 * v + 1);
  return v;
}

TEST(CompareTest, AWrongSignNearZeroIsRefused) {
  // x * y = 1e-7 exactly rounded on both sides: its budget is 0, so -1e-7
  // is refused, where the per-type tolerance's absolute 1e-5 admitted it.
  const OracleValue o = Oracle(R"(
HloModule m
ENTRY e {
  x = f32[1] parameter(0)
  y = f32[1] parameter(1)
  ROOT m = f32[1] multiply(x, y)
}
)",
                               {{1e-3f}, {1e-4f}});
  const float v = o.value.Get<float>(0);
  EXPECT_EQ(Against(o, {-v}).mismatches, 1);
  EXPECT_EQ(Against(o, {v}).mismatches, 0);
  EXPECT_EQ(CompareLiterals(Array<PrimitiveType::kF32>({-v}), o.value,
                            DefaultTolerance(PrimitiveType::kF32))
                .mismatches,
            0);
}

TEST(CompareTest, TenUlpsOffInAnElementaryFunctionIsRefused) {
  // exp(0.3) of an exact input may be 2 ulps off (OwnError), not 10: the
  // per-type relative 1e-4 is about 840 ulps and admitted both.
  const OracleValue o = Oracle(R"(
HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] exponential(x)
}
)",
                               {{0.3f, -5.5f}});
  const float a = o.value.Get<float>(0), b = o.value.Get<float>(1);
  EXPECT_EQ(Against(o, {Ulps(a, 2), Ulps(b, 1)}).mismatches, 0);
  EXPECT_EQ(Against(o, {Ulps(a, 10), b}).mismatches, 1);
  EXPECT_EQ(Against(o, {a, Ulps(b, 10)}).mismatches, 1);
}

TEST(CompareTest, SineOfHugeArgumentsScaledDownIsRefused) {
  // sin(x) * 1e-6 for x = 1e20, 3e30, 1e25, 7e33: about 6.57e-7, -9.63e-7,
  // -4.06e-7, -7.37e-7 (the C library reduces exactly). A sine that does
  // not reduce these gives 0.70710677 for each, 7.07e-7 after scaling: every
  // element is refused; the per-type tolerance (absolute 1e-5) admitted all.
  const OracleValue o = Oracle(R"(
HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  s = f32[4] sine(x)
  c = f32[] constant(1e-06)
  cb = f32[4] broadcast(c), dimensions={}
  ROOT r = f32[4] multiply(s, cb)
}
)",
                               {{1e20f, 3e30f, 1e25f, 7e33f}});
  EXPECT_NEAR(o.value.Get<float>(0), 6.57e-7f, 1e-9);
  EXPECT_NEAR(o.value.Get<float>(1), -9.63e-7f, 1e-9);
  const float wrong = 0.70710677f * 1e-6f;
  const std::vector<float> actual(4, wrong);
  EXPECT_EQ(Against(o, actual).mismatches, 4);
  EXPECT_EQ(CompareLiterals(Array<PrimitiveType::kF32>(actual), o.value,
                            DefaultTolerance(PrimitiveType::kF32))
                .mismatches,
            0);
}

TEST(CompareTest, LargeReassociatedSumsAndCancellationAreAccepted) {
  // 2^16 seeded terms in [-1, 1) and the same terms shifted to [0, 2): an
  // honest compiled sum (16 f32 accumulators, as vector code adds, then a
  // left-to-right sum of the accumulators) is within the budget, although
  // for the centred terms the result is small next to sum |x| (cancellation)
  // and the per-type relative tolerance would refuse it.
  const char* hlo = R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[1,65536] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[1] reduce(x, z), dimensions={1}, to_apply=add
}
)";
  uint64_t state = 12345;
  auto next = [&state]() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<float>(static_cast<double>(state >> 40) * 0x1p-24);
  };
  for (float shift : {-1.0f, 0.0f}) {
    std::vector<float> x(65536);
    for (float& v : x) v = 2 * next() + shift;
    Literal arg(Shape::Array(PrimitiveType::kF32, {1, 65536}));
    for (int i = 0; i < 65536; ++i) arg.Set<float>(i, x[i]);
    std::vector<Literal> args;
    args.push_back(std::move(arg));
    const OracleValue o = Oracle(hlo, args);
    float acc[16] = {};
    for (int i = 0; i < 65536; ++i) acc[i % 16] += x[i];
    float sum = 0;
    for (float a : acc) sum += a;
    const Comparison c = Against(o, {sum});
    EXPECT_EQ(c.mismatches, 0) << "shift " << shift << ": " << c.first_mismatch;
    EXPECT_GT(c.max_abs_error, 0) << "the test should exercise rounding";
  }
}

TEST(CompareTest, HalfAndBFloat16UseTheirTolerances) {
  // bf16: 1e-2 + 4e-2 * |e|: for e = 1 that is 0.05. 1.03125 (a bf16 value)
  // is inside, 1.0625 outside. f16 is stricter: 1e-3 + 1e-2 = 0.011 for e = 1,
  // so 1.0107421875 inside (f16's 1 + 11/1024), 1.013671875 outside.
  using B = BFloat16;
  const Literal be = Array<PrimitiveType::kBF16>({B(1.0f), B(1.0f)});
  const Literal ba = Array<PrimitiveType::kBF16>({B(1.03125f), B(1.0625f)});
  EXPECT_EQ(CompareLiterals(ba, be, DefaultTolerance(PrimitiveType::kBF16))
                .mismatches,
            1);
  const Literal he = Array<PrimitiveType::kF16>({Half(1.0f), Half(1.0f)});
  const Literal ha =
      Array<PrimitiveType::kF16>({Half(1.0107421875f), Half(1.013671875f)});
  const Comparison c =
      CompareLiterals(ha, he, DefaultTolerance(PrimitiveType::kF16));
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.first_mismatch, "element [1]: got 1.01367, expected 1");
}

TEST(CompareTest, F64IsNineDigits) {
  // 1e-9 + 1e-9 * 1e6 = 1.000000001e-3 for e = 1e6.
  const Literal e = Array<PrimitiveType::kF64>({1e6, 1e6});
  const Literal a = Array<PrimitiveType::kF64>({1e6 + 9e-4, 1e6 + 2e-3});
  EXPECT_EQ(
      CompareLiterals(a, e, DefaultTolerance(PrimitiveType::kF64)).mismatches,
      1);
}

TEST(CompareTest, EmptyArraysMatch) {
  const Literal e(Shape::Array(PrimitiveType::kF32, {0, 3}));
  const Comparison c =
      CompareLiterals(e, e, DefaultTolerance(PrimitiveType::kF32));
  EXPECT_EQ(c.elements, 0);
  EXPECT_TRUE(c.ok());
}

TEST(CompareTest, MultiDimensionalIndexInTheMessage) {
  Literal e(Shape::Array(PrimitiveType::kS32, {2, 3}));
  Literal a(Shape::Array(PrimitiveType::kS32, {2, 3}));
  a.Set<int32_t>(5, 7);  // row-major [1, 2]
  EXPECT_EQ(CompareLiterals(a, e, {}).first_mismatch,
            "element [1,2]: got 7, expected 0");
}

TEST(CompareTest, SumWithinItsBoundPassesBeyondItFails) {
  // The oracle sums 1e8, sixteen ones and -1e8 exactly: 16, with the bound
  // 2^-24 * sqrt(19) * (2e8 + 16) = 51.962 (19 terms with the init value).
  // Compiled sums 0 (the ones lost, as sequential f32 loses them) and 67
  // (off by 51) are within the bound; -40 (off by 56) is beyond it and fails.
  // The per-type tolerance alone (1e-5 + 1e-4 * 16) would refuse all three.
  auto module = ParseHloText(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[18] parameter(0)
  z = f32[] constant(0)
  r = f32[] reduce(x, z), dimensions={0}, to_apply=add
  ROOT b = f32[3] broadcast(r), dimensions={}
}
)",
                             "sum.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<float> x(18, 1.0f);
  x.front() = 1e8f;
  x.back() = -1e8f;
  std::vector<Literal> args;
  args.push_back(Array<PrimitiveType::kF32>(x));
  auto oracle = EvaluateOracle(**module, args);
  ASSERT_TRUE(oracle.ok()) << oracle.status();
  EXPECT_EQ(oracle->value.Get<float>(0), 16.0f);
  const Literal compiled = Array<PrimitiveType::kF32>({0, 67, -40});
  const Comparison c = CompareLiterals(compiled, oracle->value,
                                       DefaultTolerance(PrimitiveType::kF32),
                                       &oracle->bounds[0]);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.first_mismatch, "element [2]: got -40, expected 16");
  // Element 1: 51 / 51.964 is inside.
  EXPECT_NEAR(c.max_error_ratio, 56 / 51.9637, 1e-3);
}

}  // namespace
}  // namespace aotc
