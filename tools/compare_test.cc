// Result comparison (compare.h), in particular of complex elements, whose
// two parts must both match.
#include "tools/compare.h"

#include <gtest/gtest.h>

#include <complex>
#include <limits>
#include <vector>

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

}  // namespace
}  // namespace aotc
