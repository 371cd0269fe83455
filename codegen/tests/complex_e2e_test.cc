// End-to-end tests of the complex element types c64 and c128: every test
// runs in both types on values whose results are worked out by hand in the
// comments, then random inputs are checked against the reference evaluator
// at -O0 and -O2. The modules are written once with $C for the complex type
// and $R for its part's type (f32 / f64).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "codegen/tests/codegen_test_util.h"
#include "tools/inputs.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;
using Z = std::complex<double>;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.14159265358979323846;

class ComplexCodegenTest : public ::testing::TestWithParam<P> {
 protected:
  bool IsC64() const { return GetParam() == P::kC64; }

  std::string Hlo(const std::string& text) const {
    return absl::StrReplaceAll(text, {{"$C", IsC64() ? "c64" : "c128"},
                                      {"$R", IsC64() ? "f32" : "f64"}});
  }

  // A literal of the complex type under test: rank 1, or of `dims`.
  Literal CVec(const std::vector<Z>& values,
               std::vector<int64_t> dims = {}) const {
    if (dims.empty()) dims = {static_cast<int64_t>(values.size())};
    if (!IsC64()) return MakeArray<P::kC128>(dims, values);
    std::vector<std::complex<float>> narrow;
    for (Z z : values) {
      narrow.emplace_back(static_cast<float>(z.real()),
                          static_cast<float>(z.imag()));
    }
    return MakeArray<P::kC64>(dims, narrow);
  }

  // A rank-1 literal of the part type under test.
  Literal RVec(const std::vector<double>& values) const {
    if (!IsC64()) return Vec<P::kF64>(values);
    return Vec<P::kF32>(std::vector<float>(values.begin(), values.end()));
  }

  // The relative accuracy expected of a result: a few ulps of the type.
  double Eps() const { return IsC64() ? 1e-6 : 1e-14; }

  std::vector<Literal> Run(const std::string& text,
                           const std::vector<Literal>& args, int opt = 2) {
    auto r = CompileAndRun(Hlo(text), args, opt);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? std::move(*r) : std::vector<Literal>();
  }
};

// The elements of a c64 or c128 literal.
std::vector<Z> Complexes(const Literal& lit) {
  std::vector<Z> out;
  if (lit.shape().element_type() == P::kC64) {
    for (std::complex<float> z : lit.data<std::complex<float>>()) {
      out.emplace_back(z.real(), z.imag());
    }
  } else {
    for (Z z : lit.data<Z>()) out.push_back(z);
  }
  return out;
}

// The elements of an f32 or f64 literal.
std::vector<double> Reals(const Literal& lit) {
  if (lit.shape().element_type() == P::kF32) {
    auto d = lit.data<float>();
    return std::vector<double>(d.begin(), d.end());
  }
  auto d = lit.data<double>();
  return std::vector<double>(d.begin(), d.end());
}

// x is within `eps` of y relative to max(1, |y|), or both are the same
// infinity, or both are NaN.
void ExpectNear(double x, double y, double eps, const std::string& what) {
  if (std::isnan(y)) {
    EXPECT_TRUE(std::isnan(x)) << what << ": got " << x << ", expected NaN";
  } else if (std::isinf(y)) {
    EXPECT_EQ(x, y) << what;
  } else {
    EXPECT_NEAR(x, y, eps * std::max(1.0, std::fabs(y))) << what;
  }
}

void ExpectComplexes(const Literal& lit, const std::vector<Z>& expected,
                     double eps) {
  const std::vector<Z> got = Complexes(lit);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const std::string at = "element " + std::to_string(i);
    ExpectNear(got[i].real(), expected[i].real(), eps, at + " real");
    ExpectNear(got[i].imag(), expected[i].imag(), eps, at + " imag");
  }
}

void ExpectReals(const Literal& lit, const std::vector<double>& expected,
                 double eps) {
  const std::vector<double> got = Reals(lit);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ExpectNear(got[i], expected[i], eps, "element " + std::to_string(i));
  }
}

TEST_P(ComplexCodegenTest, ComplexRealImag) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  re = $R[2] parameter(0)
  im = $R[2] parameter(1)
  z = $C[2] complex(re, im)
  r = $R[2] real(z)
  i = $R[2] imag(z)
  ROOT t = ($C[2], $R[2], $R[2]) tuple(z, r, i)
})";
  for (int opt : {0, 2}) {
    std::vector<Literal> r = Run(hlo, {RVec({1, -2}), RVec({3, 4})}, opt);
    ASSERT_EQ(r.size(), 3u);
    ExpectComplexes(r[0], {{1, 3}, {-2, 4}}, 0);
    ExpectReals(r[1], {1, -2}, 0);
    ExpectReals(r[2], {3, 4}, 0);
  }
}

TEST_P(ComplexCodegenTest, Arithmetic) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = $C[3] parameter(0)
  b = $C[3] parameter(1)
  add = $C[3] add(a, b)
  sub = $C[3] subtract(a, b)
  mul = $C[3] multiply(a, b)
  div = $C[3] divide(a, b)
  neg = $C[3] negate(a)
  ROOT t = ($C[3], $C[3], $C[3], $C[3], $C[3]) tuple(add, sub, mul, div, neg)
})";
  for (int opt : {0, 2}) {
    std::vector<Literal> r = Run(
        hlo,
        {CVec({{1, 2}, {0, 1}, {-1.5, 0.5}}), CVec({{3, 4}, {0, 1}, {2, 0}})},
        opt);
    ASSERT_EQ(r.size(), 5u);
    ExpectComplexes(r[0], {{4, 6}, {0, 2}, {0.5, 0.5}}, 0);
    ExpectComplexes(r[1], {{-2, -2}, {0, 0}, {-3.5, 0.5}}, 0);
    // (1+2i)(3+4i) = 3 + 4i + 6i - 8 = -5 + 10i; i * i = -1;
    // (-1.5+0.5i) * 2 = -3 + 1i.
    ExpectComplexes(r[2], {{-5, 10}, {-1, 0}, {-3, 1}}, 0);
    // (1+2i)/(3+4i) = (1+2i)(3-4i)/25 = (11+2i)/25 = 0.44 + 0.08i; i/i = 1;
    // (-1.5+0.5i)/2 = -0.75 + 0.25i.
    ExpectComplexes(r[3], {{0.44, 0.08}, {1, 0}, {-0.75, 0.25}}, Eps());
    ExpectComplexes(r[4], {{-1, -2}, {0, -1}, {1.5, -0.5}}, 0);
  }
}

TEST_P(ComplexCodegenTest, DivisionScalesAndDividesByZero) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = $C[5] parameter(0)
  b = $C[5] parameter(1)
  ROOT div = $C[5] divide(a, b)
})";
  // Near the top of the range, |b|^2 overflows: a textbook division gives
  // inf / inf = NaN where the quotient is 1 (and 2 - i, and i).
  const double big = IsC64() ? 1e30 : 1e300;
  std::vector<Literal> r =
      Run(hlo, {CVec({{big, big}, {3 * big, big}, {-big, big}, {1, 1}, {0, 0}}),
                CVec({{big, big}, {big, big}, {big, big}, {0, 0}, {0, 0}})});
  ASSERT_EQ(r.size(), 1u);
  // (3+1i)/(1+1i) = (3+1i)(1-1i)/2 = (4-2i)/2 = 2 - i;
  // (-1+1i)/(1+1i) = (-1+1i)(1-1i)/2 = 2i/2 = i.
  // Nonzero / 0 is infinite (copysign(inf, 0) times each part, as C99's
  // Annex G and the evaluator's std::complex); 0 / 0 is NaN.
  ExpectComplexes(r[0], {{1, 0}, {2, -1}, {0, 1}, {kInf, kInf}, {kNaN, kNaN}},
                  Eps());
  if (IsC64()) return;
  // (inf + 1e300i) / 1e-300i = 1e300/1e-300 - (inf/1e-300) i = inf - inf i:
  // the scaling of a tiny divisor by 2^52 overflows 1e300 to inf, and the
  // recovery of inf / finite boxes both parts (as libgcc).
  r = Run(hlo, {CVec({{kInf, 1e300}, {1, 1}, {1, 1}, {1, 1}, {1, 1}}),
                CVec({{0, 1e-300}, {1, 1}, {1, 1}, {1, 1}, {1, 1}})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Complexes(r[0])[0], Z(kInf, -kInf));
}

TEST_P(ComplexCodegenTest, AbsAndSign) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = $C[5] parameter(0)
  abs = $R[5] abs(a)
  sign = $C[5] sign(a)
  ROOT t = ($R[5], $C[5]) tuple(abs, sign)
})";
  // |3e300 + 4e300i| = 5e300 although its square overflows double (c64:
  // 3e30 and 4e30, whose squares overflow float).
  const double big = IsC64() ? 1e30 : 1e300;
  std::vector<Literal> r = Run(
      hlo, {CVec({{3, 4}, {3 * big, 4 * big}, {0, 0}, {0, -2}, {kInf, kNaN}})});
  ASSERT_EQ(r.size(), 2u);
  ExpectReals(r[0], {5, 5 * big, 0, 2, kInf}, Eps());
  // sign(z) = z / |z|: 0.6 + 0.8i twice, 0 for 0, -i; inf / inf is NaN.
  ExpectComplexes(r[1], {{0.6, 0.8}, {0.6, 0.8}, {0, 0}, {0, -1}, {kNaN, kNaN}},
                  Eps());
}

TEST_P(ComplexCodegenTest, ExpLogSqrtRsqrt) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = $C[4] parameter(0)
  exp = $C[4] exponential(a)
  log = $C[4] log(a)
  sqrt = $C[4] sqrt(a)
  rsqrt = $C[4] rsqrt(a)
  ROOT t = ($C[4], $C[4], $C[4], $C[4]) tuple(exp, log, sqrt, rsqrt)
})";
  const double ln2 = std::log(2.0);
  std::vector<Literal> r =
      Run(hlo, {CVec({{3, 4}, {-4, 0}, {0, 2}, {ln2, kPi / 3}})});
  ASSERT_EQ(r.size(), 4u);
  const double s3 = std::sqrt(3.0);
  // exp(3+4i) = e^3 (cos 4 + i sin 4) = 20.085536923187668 *
  // (-0.6536436208636119, -0.7568024953079282); exp(-4) = 0.01831563888873418;
  // exp(2i) = cos 2 + i sin 2; exp(ln 2 + i pi/3) = 2 (1/2 + i sqrt(3)/2).
  ExpectComplexes(r[0],
                  {{-13.128783081462158, -15.200784463067954},
                   {0.01831563888873418, 0},
                   {-0.4161468365471424, 0.9092974268256817},
                   {1, s3}},
                  10 * Eps());
  // log(3+4i) = ln 5 + i atan2(4, 3); log(-4) = ln 4 + i pi;
  // log(2i) = ln 2 + i pi/2; |ln 2 + i pi/3| = 1.2537..., see below.
  const double m = std::hypot(ln2, kPi / 3);
  ExpectComplexes(r[1],
                  {{std::log(5.0), 0.9272952180016122},
                   {std::log(4.0), kPi},
                   {ln2, kPi / 2},
                   {std::log(m), std::atan2(kPi / 3, ln2)}},
                  10 * Eps());
  // sqrt(3+4i) = 2 + i (since (2+i)^2 = 3 + 4i); sqrt(-4) = 2i;
  // sqrt(2i) = 1 + i.
  const Z root_last = std::sqrt(Z(ln2, kPi / 3));
  ExpectComplexes(r[2], {{2, 1}, {0, 2}, {1, 1}, root_last}, Eps());
  // rsqrt = 1 / sqrt: 1/(2+i) = (2-i)/5; 1/(2i) = -i/2; 1/(1+i) = (1-i)/2.
  ExpectComplexes(r[3], {{0.4, -0.2}, {0, -0.5}, {0.5, -0.5}, 1.0 / root_last},
                  10 * Eps());
}

TEST_P(ComplexCodegenTest, Tanh) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = $C[4] parameter(0)
  ROOT tanh = $C[4] tanh(a)
})";
  const double ln2 = std::log(2.0);
  std::vector<Literal> r =
      Run(hlo, {CVec({{ln2, 0}, {0, kPi / 4}, {ln2, kPi / 4}, {1000, 1}})});
  ASSERT_EQ(r.size(), 1u);
  // tanh(ln 2) = (2 - 1/2) / (2 + 1/2) = 0.6; tanh(i pi/4) = i tan(pi/4) = i.
  // tanh(x + iy) = (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y):
  // sinh(ln 2) = 3/4, cosh(ln 2) = 5/4, sin = cos = sqrt(1/2) at pi/4, so
  // (15/16 + i/2) / (9/16 + 1/2) = 15/17 + 8/17 i. tanh(1000 + i) = 1 (the
  // imaginary part underflows) where sinh^2 1000 would overflow.
  ExpectComplexes(r[0], {{0.6, 0}, {0, 1}, {15.0 / 17, 8.0 / 17}, {1, 0}},
                  10 * Eps());
}

TEST_P(ComplexCodegenTest, Power) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = $C[5] parameter(0)
  b = $C[5] parameter(1)
  ROOT pow = $C[5] power(a, b)
})";
  std::vector<Literal> r =
      Run(hlo, {CVec({{0, 2}, {2, 0}, {5, 5}, {0, 0}, {0, 1}}),
                CVec({{3, 0}, {0.5, 0}, {0, 0}, {1, 1}, {0, 1}})});
  ASSERT_EQ(r.size(), 1u);
  // (2i)^3 = 8 i^3 = -8i; 2^0.5 = sqrt 2; z^0 = 1; 0^(1+i) = 0 (Re > 0);
  // i^i = exp(i * i pi/2) = exp(-pi/2).
  ExpectComplexes(
      r[0],
      {{0, -8}, {std::sqrt(2.0), 0}, {1, 0}, {0, 0}, {std::exp(-kPi / 2), 0}},
      10 * Eps());
}

TEST_P(ComplexCodegenTest, CbrtIsThePrincipalCubeRoot) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = $C[3] parameter(0)
  ROOT cbrt = $C[3] cbrt(a)
})";
  std::vector<Literal> r = Run(hlo, {CVec({{-8, 0}, {0, 8}, {0, 0}})});
  ASSERT_EQ(r.size(), 1u);
  // cbrt(-8) = 2 e^(i pi/3) = 1 + sqrt(3) i (not the real root -2);
  // cbrt(8i) = 2 e^(i pi/6) = sqrt(3) + i; cbrt(0) = 0.
  const double s3 = std::sqrt(3.0);
  ExpectComplexes(r[0], {{1, s3}, {s3, 1}, {0, 0}}, 10 * Eps());
}

TEST_P(ComplexCodegenTest, CompareAndSelect) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = $C[3] parameter(0)
  b = $C[3] parameter(1)
  eq = pred[3] compare(a, b), direction=EQ
  ne = pred[3] compare(a, b), direction=NE
  sel = $C[3] select(eq, a, b)
  ROOT t = (pred[3], pred[3], $C[3]) tuple(eq, ne, sel)
})";
  std::vector<Literal> r = Run(hlo, {CVec({{1, 2}, {1, 2}, {kNaN, 0}}),
                                     CVec({{1, 2}, {1, 3}, {kNaN, 0}})});
  ASSERT_EQ(r.size(), 3u);
  // Equal when both parts are; a NaN part makes the numbers unequal.
  EXPECT_EQ(Values<P::kPred>(r[0]), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(Values<P::kPred>(r[1]), (std::vector<bool>{false, true, true}));
  ExpectComplexes(r[2], {{1, 2}, {1, 3}, {kNaN, 0}}, 0);
}

TEST_P(ComplexCodegenTest, ConstantsAndConversions) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  s = s32[2] parameter(0)
  f = $R[2] parameter(1)
  p = pred[2] parameter(2)
  k = $C[] constant((1.5, -2))
  v = $C[2] constant({(0.5, 1), (2.7, 9)})
  kb = $C[2] broadcast(k), dimensions={}
  sum = $C[2] add(kb, v)
  from_s = $C[2] convert(s)
  from_f = $C[2] convert(f)
  from_p = $C[2] convert(p)
  w = c128[2] convert(sum)
  n = c64[2] convert(w)
  ROOT t = ($C[2], $C[2], $C[2], $C[2], c128[2], c64[2]) tuple(sum, from_s, from_f, from_p, w, n)
})";
  std::vector<Literal> r = Run(hlo, {Vec<P::kS32>({-3, 7}), RVec({0.25, -1}),
                                     Vec<P::kPred>({true, false})});
  ASSERT_EQ(r.size(), 6u);
  // (1.5-2i) + (0.5+i) = 2 - i; (1.5-2i) + (2.7+9i) = 4.2 + 7i (rounded in
  // the type: 2.7 is parsed into it).
  const double sum_re = IsC64() ? static_cast<float>(1.5f + 2.7f) : 1.5 + 2.7;
  ExpectComplexes(r[0], {{2, -1}, {sum_re, 7}}, 0);
  // Real types become complex with imaginary part 0.
  ExpectComplexes(r[1], {{-3, 0}, {7, 0}}, 0);
  ExpectComplexes(r[2], {{0.25, 0}, {-1, 0}}, 0);
  ExpectComplexes(r[3], {{1, 0}, {0, 0}}, 0);
  // Between complex types each part converts (c64 -> c128 exactly, c128 ->
  // c64 rounding each part).
  ExpectComplexes(r[4], {{2, -1}, {sum_re, 7}}, 0);
  ExpectComplexes(r[5], {{2, -1}, {static_cast<float>(sum_re), 7}}, 0);
}

TEST_P(ComplexCodegenTest, DataMovement) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = $C[2,3] parameter(0)
  t = $C[3,2] transpose(a), dimensions={1,0}
  r = $C[6] reshape(t)
  s = $C[2] slice(r), slice={[1:5:2]}
  z = $C[] constant((9, -9))
  p = $C[4] pad(s, z), padding=1_1
  c = $C[10] concatenate(p, r), dimensions={0}
  rev = $C[10] reverse(c), dimensions={0}
  ROOT out = ($C[3,2], $C[10]) tuple(t, rev)
})";
  std::vector<Literal> r = Run(
      hlo,
      {CVec({{0, 10}, {1, 11}, {2, 12}, {3, 13}, {4, 14}, {5, 15}}, {2, 3})});
  ASSERT_EQ(r.size(), 2u);
  // a = [[0,1,2],[3,4,5]] (+10i each); its transpose [[0,3],[1,4],[2,5]]
  // flattens to 0 3 1 4 2 5; [1:5:2] picks 3 and 4; padded: z 3 4 z; then
  // concatenated with r and reversed.
  ExpectComplexes(r[0], {{0, 10}, {3, 13}, {1, 11}, {4, 14}, {2, 12}, {5, 15}},
                  0);
  ExpectComplexes(r[1],
                  {{5, 15},
                   {2, 12},
                   {4, 14},
                   {1, 11},
                   {3, 13},
                   {0, 10},
                   {9, -9},
                   {4, 14},
                   {3, 13},
                   {9, -9}},
                  0);
}

TEST_P(ComplexCodegenTest, DotAndReduce) {
  const std::string hlo = R"(HloModule m
add {
  x = $C[] parameter(0)
  y = $C[] parameter(1)
  ROOT s = $C[] add(x, y)
}
ENTRY e {
  m = $C[2,2] parameter(0)
  v = $C[2] parameter(1)
  d = $C[2] dot(m, v), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  zero = $C[] constant((0, 0))
  s = $C[] reduce(v, zero), dimensions={0}, to_apply=add
  ROOT t = ($C[2], $C[]) tuple(d, s)
})";
  std::vector<Literal> r = Run(
      hlo,
      {CVec({{1, 1}, {2, 0}, {0, 0}, {0, 1}}, {2, 2}), CVec({{1, 0}, {0, 1}})});
  ASSERT_EQ(r.size(), 2u);
  // [[1+i, 2], [0, i]] . [1, i] = [(1+i) + 2i, i * i] = [1 + 3i, -1];
  // 1 + i summed.
  ExpectComplexes(r[0], {{1, 3}, {-1, 0}}, 0);
  ExpectComplexes(r[1], {{1, 1}}, 0);
}

TEST_P(ComplexCodegenTest, MatchesEvaluatorOnRandomInputs) {
  const std::string hlo = Hlo(R"(HloModule m
add {
  x = $C[] parameter(0)
  y = $C[] parameter(1)
  ROOT s = $C[] add(x, y)
}
ENTRY e {
  a = $C[4,8] parameter(0)
  b = $C[4,8] parameter(1)
  mul = $C[4,8] multiply(a, b)
  div = $C[4,8] divide(a, b)
  e = $C[4,8] exponential(a)
  l = $C[4,8] log(b)
  q = $C[4,8] sqrt(a)
  rq = $C[4,8] rsqrt(b)
  th = $C[4,8] tanh(a)
  pw = $C[4,8] power(a, b)
  sg = $C[4,8] sign(b)
  ab = $R[4,8] abs(mul)
  em = $C[4,8] exponential-minus-one(a)
  lp = $C[4,8] log-plus-one(b)
  lg = $C[4,8] logistic(a)
  sn = $C[4,8] sine(a)
  cs = $C[4,8] cosine(b)
  tn = $C[4,8] tan(a)
  cb = $C[4,8] cbrt(b)
  d = $C[4,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  zero = $C[] constant((0, 0))
  r = $C[4] reduce(div, zero), dimensions={1}, to_apply=add
  ROOT t = ($C[4,8], $C[4,8], $C[4,8], $C[4,8], $C[4,8], $C[4,8], $C[4,8], $C[4,8], $C[4,8], $R[4,8], $C[4,8], $C[4,8], $C[4,8], $C[4,8], $C[4,8], $C[4,8], $C[4,8], $C[4,4], $C[4]) tuple(mul, div, e, l, q, rq, th, pw, sg, ab, em, lp, lg, sn, cs, tn, cb, d, r)
})");
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  for (int seed : {1, 2}) {
    InputOptions inputs;
    inputs.random_seed = seed;
    auto args = BindInputs(*(*module)->entry(), inputs);
    ASSERT_TRUE(args.ok()) << args.status();
    ExpectMatchesEvaluator(hlo, *args);
  }
}

TEST_P(ComplexCodegenTest, UndefinedOpsAreLocatedErrors) {
  for (const char* op : {"maximum", "remainder", "atan2"}) {
    const std::string hlo = Hlo(absl::StrCat(R"(HloModule m
ENTRY e {
  a = $C[2] parameter(0)
  ROOT r = $C[2] )",
                                             op, "(a, a)\n}\n"));
    auto compiled = CompileText(hlo);
    ASSERT_FALSE(compiled.ok()) << op;
    EXPECT_NE(compiled.status().message().find("test.hlo:4:"),
              std::string::npos)
        << compiled.status();
  }
  auto lt = CompileText(Hlo(R"(HloModule m
ENTRY e {
  a = $C[2] parameter(0)
  ROOT r = pred[2] compare(a, a), direction=LT
})"));
  ASSERT_FALSE(lt.ok());
  EXPECT_NE(lt.status().message().find("test.hlo:4:"), std::string::npos)
      << lt.status();
  // TopK without a comparator orders by value, which complex numbers lack.
  auto topk = CompileText(Hlo(R"(HloModule m
ENTRY e {
  a = $C[2,4] parameter(0)
  ROOT t = ($C[2,2], s32[2,2]) custom-call(a), custom_call_target="TopK"
})"));
  ASSERT_FALSE(topk.ok());
  EXPECT_NE(topk.status().message().find(
                "test.hlo:4:8: error: 'custom-call' (TopK) is not supported"),
            std::string::npos)
      << topk.status();
  // HLO defines no convert from complex to real types (real, imag and abs
  // say which real number is meant); the verifier refuses it.
  auto to_real = CompileText(Hlo(R"(HloModule m
ENTRY e {
  a = $C[2] parameter(0)
  ROOT r = $R[2] convert(a)
})"));
  ASSERT_FALSE(to_real.ok());
  EXPECT_NE(to_real.status().message().find("test.hlo:4:8: error: convert "),
            std::string::npos)
      << to_real.status();
  auto bitcast = CompileText(Hlo(R"(HloModule m
ENTRY e {
  a = c64[2] parameter(0)
  ROOT r = s64[2] bitcast-convert(a)
})"));
  ASSERT_FALSE(bitcast.ok());
  EXPECT_NE(bitcast.status().message().find(
                "test.hlo:4:8: error: bitcast-convert from c64[2] to s64[2] "
                "is not supported by code generation"),
            std::string::npos)
      << bitcast.status();
}

INSTANTIATE_TEST_SUITE_P(Types, ComplexCodegenTest,
                         ::testing::Values(P::kC64, P::kC128),
                         [](const ::testing::TestParamInfo<P>& info) {
                           return info.param == P::kC64 ? "C64" : "C128";
                         });

}  // namespace
}  // namespace aotc::codegen::testing
