// End-to-end tests of the row-norm strategy (row_norm.h): row
// normalisations in decomposed form (compiler/analysis/norm_test_util.h)
// go through the optimization pipeline, must be planned by the row-norm
// strategy, and must agree with the reference evaluator on the module as
// read within the oracle's budgets: RMSNorm, LayerNorm with a centred and a
// fast variance, bf16 with its converts, keep-dims reshapes, a residual
// before and operations after, rows of odd lengths and several leading
// dimensions, on this host's vectors and on AVX2-wide ones, on one thread
// and split over threads.
#include <gtest/gtest.h>

#include <string>

#include "codegen/strategy.h"
#include "codegen/tests/codegen_test_util.h"
#include "compiler/analysis/norm_test_util.h"

namespace aotc::codegen {
namespace {

using aotc::testing::NormForm;
using aotc::testing::NormHlo;

void ExpectNormMatches(const NormForm& f, uint64_t seed) {
  testing::ExpectCustomFusionMatchesOracle(NormHlo(f), "row-norm", seed);
}

TEST(NormE2eTest, RmsNormOverRowsOfOddLength) {
  NormForm f;
  f.rows = {3, 37};
  f.row = 301;
  ExpectNormMatches(f, 1);
}

TEST(NormE2eTest, LayerNormCentred) {
  NormForm f;
  f.kind = NormForm::kLayerCentred;
  f.rows = {70};
  f.row = 1024;
  ExpectNormMatches(f, 2);
}

TEST(NormE2eTest, LayerNormFastVarianceKeepDims) {
  NormForm f;
  f.kind = NormForm::kLayerFast;
  f.keep_dims = true;
  f.root = NormForm::kDivideBySqrt;
  f.rows = {2, 1, 9};
  f.row = 64;
  ExpectNormMatches(f, 3);
}

TEST(NormE2eTest, Bf16ResidualAndOperationsAfter) {
  NormForm f;
  f.bf16 = true;
  f.residual = true;
  f.after = true;
  f.root = NormForm::kPower;
  f.mean_by_multiply = true;
  f.rows = {11};
  f.row = 1152;
  ExpectNormMatches(f, 4);
}

TEST(NormE2eTest, OneRowL2Norm) {
  NormForm f;
  f.kind = NormForm::kL2;
  f.root = NormForm::kOneOverSqrt;
  f.rows = {1};
  f.row = 17;
  ExpectNormMatches(f, 5);
}

}  // namespace
}  // namespace aotc::codegen
