// Compiled complex functions at the extremes of c64 and c128: the cases of
// compiler/evaluator/complex_extremes_test_cases.h (huge and subnormal
// parts, signed zeros on the branch cuts, infinities and NaN, with mpmath's
// values), run through the optimization pipeline and code generation at
// -O0, -O2 and -O2 without FMA, each part within the case's bound. The
// evaluator's test holds the evaluator to the same values, so the two are
// checked against a third party, not only against each other.
#include <gtest/gtest.h>

#include <complex>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/tests/codegen_test_util.h"
#include "compiler/evaluator/complex_extremes_test_cases.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;
using ::aotc::testing::CaseUlps;
using ::aotc::testing::ComplexExtremeCase;
using ::aotc::testing::ComplexExtremeCases;
using ::aotc::testing::Describe;

// A rank-1 literal of z (or of the exponents u + vi) of the cases.
Literal Operand(const std::vector<const ComplexExtremeCase*>& cases, bool c64,
                bool exponent) {
  const int64_t n = static_cast<int64_t>(cases.size());
  if (c64) {
    std::vector<std::complex<float>> v;
    for (const auto* c : cases) {
      v.emplace_back(static_cast<float>(exponent ? c->u : c->x),
                     static_cast<float>(exponent ? c->v : c->y));
    }
    return MakeArray<P::kC64>({n}, v);
  }
  std::vector<std::complex<double>> v;
  for (const auto* c : cases) {
    v.emplace_back(exponent ? c->u : c->x, exponent ? c->v : c->y);
  }
  return MakeArray<P::kC128>({n}, v);
}

std::vector<std::complex<double>> Results(const Literal& lit) {
  std::vector<std::complex<double>> out;
  if (lit.shape().element_type() == P::kC64) {
    for (std::complex<float> z : lit.data<std::complex<float>>()) {
      out.emplace_back(z.real(), z.imag());
    }
    return out;
  }
  for (std::complex<double> z : lit.data<std::complex<double>>()) {
    out.push_back(z);
  }
  return out;
}

TEST(ComplexExtremesE2eTest, EveryPartWithinItsBound) {
  // One module per opcode and type, all its cases as one array.
  std::map<std::pair<std::string, bool>, std::vector<const ComplexExtremeCase*>>
      groups;
  for (const auto& c : ComplexExtremeCases()) {
    groups[{c.op, c.c64}].push_back(&c);
  }
  for (const auto& [key, cases] : groups) {
    const auto& [op, c64] = key;
    const bool binary = op == "power";
    const std::string type =
        absl::StrCat(c64 ? "c64" : "c128", "[", cases.size(), "]");
    const std::string hlo = absl::StrCat(
        "HloModule m\nENTRY e {\n  z = ", type, " parameter(0)\n",
        binary ? absl::StrCat("  w = ", type, " parameter(1)\n") : "",
        "  ROOT r = ", type, " ", op, binary ? "(z, w)" : "(z)", "\n}\n");
    std::vector<Literal> args;
    args.push_back(Operand(cases, c64, /*exponent=*/false));
    if (binary) args.push_back(Operand(cases, c64, /*exponent=*/true));
    // -O0 keeps every select and multiply as emitted; -O2 may fuse
    // llvm.fmuladd and vectorize the loop; without FMA nothing is fused.
    for (int config = 0; config < 3; ++config) {
      SCOPED_TRACE(config == 0 ? "-O0" : config == 1 ? "-O2" : "-O2, no FMA");
      auto results =
          config == 2 ? CompileAndRunWith(hlo, args, "-fma", /*threads=*/false)
                      : CompileAndRun(hlo, args, config == 0 ? 0 : 2,
                                      /*optimize=*/true);
      ASSERT_TRUE(results.ok()) << op << ": " << results.status();
      const std::vector<std::complex<double>> got = Results((*results)[0]);
      ASSERT_EQ(got.size(), cases.size());
      for (size_t i = 0; i < cases.size(); ++i) {
        const ComplexExtremeCase& c = *cases[i];
        SCOPED_TRACE(Describe(c));
        EXPECT_LE(CaseUlps(c, got[i].real(), c.re), c.ulps)
            << "real part " << got[i].real() << ", expected " << c.re;
        EXPECT_LE(CaseUlps(c, got[i].imag(), c.im), c.ulps)
            << "imaginary part " << got[i].imag() << ", expected " << c.im;
      }
    }
  }
}

}  // namespace
}  // namespace aotc::codegen::testing
