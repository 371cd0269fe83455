// Tests of the evaluator's dot kernel. Expected values are worked out by
// hand in the comments or by a naive formula written here.
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/evaluator/kernel_test_util.h"
#include "compiler/ir/literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using ::aotc::testing_util::F32;
using ::aotc::testing_util::Half16;
using ::aotc::testing_util::Half16Values;
using ::aotc::testing_util::Make;
using ::aotc::testing_util::MustRun;
using ::aotc::testing_util::S32;
using ::aotc::testing_util::Values;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

std::string Entry(std::string_view body) {
  return "HloModule m\nENTRY e {\n" + std::string(body) + "}\n";
}

TEST(DotTest, MatrixVector) {
  // [[1, 2, 3], [4, 5, 6]] . [1, 0, -1] = [1 - 3, 4 - 6] = [-2, -2]
  std::string hlo = Entry(R"(
  a = f32[2,3] parameter(0)
  b = f32[3] parameter(1)
  ROOT d = f32[2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
)");
  Literal r =
      MustRun(hlo, {F32({2, 3}, {1, 2, 3, 4, 5, 6}), F32({3}, {1, 0, -1})});
  EXPECT_THAT(Values<float>(r), ElementsAre(-2, -2));
}

TEST(DotTest, MatrixMatrix) {
  // [[1, 2, 3], [4, 5, 6]] . [[7, 8], [9, 10], [11, 12]]
  //   = [[7 + 18 + 33, 8 + 20 + 36], [28 + 45 + 66, 32 + 50 + 72]]
  //   = [[58, 64], [139, 154]]
  std::string hlo = Entry(R"(
  a = f32[2,3] parameter(0)
  b = f32[3,2] parameter(1)
  ROOT d = f32[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
)");
  Literal r = MustRun(hlo, {F32({2, 3}, {1, 2, 3, 4, 5, 6}),
                            F32({3, 2}, {7, 8, 9, 10, 11, 12})});
  EXPECT_THAT(Values<float>(r), ElementsAre(58, 64, 139, 154));
}

TEST(DotTest, BatchMatmulMatchesNaiveFormula) {
  // a: [batch=2, m=2, k=3], b: [batch=2, k=3, n=4]; small integers keep f32
  // sums exact.
  std::vector<float> a, b;
  for (int i = 0; i < 12; ++i) a.push_back(static_cast<float>(i % 5 - 2));
  for (int i = 0; i < 24; ++i) b.push_back(static_cast<float>(i % 7 - 3));
  std::vector<float> expected;
  for (int p = 0; p < 2; ++p) {
    for (int m = 0; m < 2; ++m) {
      for (int n = 0; n < 4; ++n) {
        float sum = 0;
        for (int k = 0; k < 3; ++k)
          sum += a[p * 6 + m * 3 + k] * b[p * 12 + k * 4 + n];
        expected.push_back(sum);
      }
    }
  }
  std::string hlo = Entry(R"(
  a = f32[2,2,3] parameter(0)
  b = f32[2,3,4] parameter(1)
  ROOT d = f32[2,2,4] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
)");
  Literal r = MustRun(hlo, {F32({2, 2, 3}, a), F32({2, 3, 4}, b)});
  EXPECT_THAT(Values<float>(r), ElementsAreArray(expected));
}

TEST(DotTest, BatchDimensionNotLeading) {
  // Batch dimension 1 of lhs [m=2, batch=2, k=2] and 0 of rhs [batch=2, k=2]:
  // result [batch, m]: r[p][m] = sum_k a[m][p][k] * b[p][k].
  // a = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]], b = [[1, 1], [2, -1]]
  //   r[0][0] = 1 + 2 = 3, r[0][1] = 5 + 6 = 11,
  //   r[1][0] = 6 - 4 = 2, r[1][1] = 14 - 8 = 6.
  std::string hlo = Entry(R"(
  a = f32[2,2,2] parameter(0)
  b = f32[2,2] parameter(1)
  ROOT d = f32[2,2] dot(a, b), lhs_batch_dims={1}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
)");
  Literal r = MustRun(hlo, {F32({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
                            F32({2, 2}, {1, 1, 2, -1})});
  EXPECT_THAT(Values<float>(r), ElementsAre(3, 11, 2, 6));
}

TEST(DotTest, ContractingOverDimension0) {
  // a = [[1, 2], [3, 4], [5, 6]] contracted over dimension 0 with
  // b = [[1, 0], [0, 1], [1, 1]]: r = a^T . b
  //   r[0][0] = 1 + 0 + 5 = 6,  r[0][1] = 0 + 3 + 5 = 8
  //   r[1][0] = 2 + 0 + 6 = 8,  r[1][1] = 0 + 4 + 6 = 10
  std::string hlo = Entry(R"(
  a = f32[3,2] parameter(0)
  b = f32[3,2] parameter(1)
  ROOT d = f32[2,2] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}
)");
  Literal r = MustRun(
      hlo, {F32({3, 2}, {1, 2, 3, 4, 5, 6}), F32({3, 2}, {1, 0, 0, 1, 1, 1})});
  EXPECT_THAT(Values<float>(r), ElementsAre(6, 8, 8, 10));
}

TEST(DotTest, SameOperandTwice) {
  // x . x with x = [1, 2, 3]: 1 + 4 + 9 = 14.
  std::string hlo = Entry(R"(
  x = f32[3] parameter(0)
  ROOT d = f32[] dot(x, x), lhs_contracting_dims={0}, rhs_contracting_dims={0}
)");
  EXPECT_THAT(Values<float>(MustRun(hlo, {F32({3}, {1, 2, 3})})),
              ElementsAre(14));
}

TEST(DotTest, OuterProductWithoutContraction) {
  // [1, 2] x [3, 4, 5] -> [[3, 4, 5], [6, 8, 10]]
  std::string hlo = Entry(R"(
  a = f32[2] parameter(0)
  b = f32[3] parameter(1)
  ROOT d = f32[2,3] dot(a, b)
)");
  Literal r = MustRun(hlo, {F32({2}, {1, 2}), F32({3}, {3, 4, 5})});
  EXPECT_THAT(Values<float>(r), ElementsAre(3, 4, 5, 6, 8, 10));
}

TEST(DotTest, S32WrapsAround) {
  // a = [[65536, 3], [INT32_MIN, -1]], b = [65537, 1]
  // Row 0: 65536 * 65537 + 3 = 2^32 + 65536 + 3 -> 65539 (mod 2^32).
  // Row 1: INT32_MIN * 65537 = INT32_MIN (mod 2^32, 65537 is odd); adding
  //        -1 wraps to INT32_MAX.
  auto wrap = [](uint64_t v) {
    return static_cast<int32_t>(static_cast<uint32_t>(v));
  };
  const int32_t row0 = wrap(uint64_t{65536} * 65537 + 3);
  const int32_t row1 =
      wrap(uint64_t{0x80000000} * 65537 + uint64_t{0xFFFFFFFF});
  ASSERT_EQ(row0, 65539);
  ASSERT_EQ(row1, INT32_MAX);
  std::string hlo = Entry(R"(
  a = s32[2,2] parameter(0)
  b = s32[2] parameter(1)
  ROOT d = s32[2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
)");
  Literal r = MustRun(
      hlo, {S32({2, 2}, {65536, 3, INT32_MIN, -1}), S32({2}, {65537, 1})});
  EXPECT_THAT(Values<int32_t>(r), ElementsAre(row0, row1));
}

TEST(DotTest, Bf16AccumulatesInFloat) {
  // 300 ones dotted with 300 ones: a bf16 accumulator would stick at 256
  // (256 + 1 rounds back to 256 with 8 significant bits); a float
  // accumulator reaches 300, which bf16 represents exactly (150 * 2).
  std::string hlo = Entry(R"(
  a = bf16[300] parameter(0)
  b = bf16[300] parameter(1)
  ROOT d = bf16[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}
)");
  std::vector<float> ones(300, 1.0f);
  Literal r = MustRun(hlo, {Half16(PrimitiveType::kBF16, {300}, ones),
                            Half16(PrimitiveType::kBF16, {300}, ones)});
  EXPECT_THAT(Half16Values(r), ElementsAre(300));
}

TEST(DotTest, F16AccumulatesInFloatAndRoundsOnce) {
  // 3001 ones dotted with 3001 ones. Above 2048, f16 steps by 2, so an f16
  // accumulator sticks at 2048 (2048 + 1 rounds to even, 2048). A float
  // accumulator reaches 3001, rounded once to f16: 3000 (ties to even).
  std::string hlo = Entry(R"(
  a = f16[3001] parameter(0)
  b = f16[3001] parameter(1)
  ROOT d = f16[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}
)");
  std::vector<float> ones(3001, 1.0f);
  Literal r = MustRun(hlo, {Half16(PrimitiveType::kF16, {3001}, ones),
                            Half16(PrimitiveType::kF16, {3001}, ones)});
  EXPECT_THAT(Half16Values(r), ElementsAre(3000));
}

TEST(DotTest, MixedBf16OperandsF32Result) {
  // bf16 operands are widened exactly; 1.5 * 2 + 0.25 * 4 = 4.
  std::string hlo = Entry(R"(
  a = bf16[2] parameter(0)
  b = bf16[2] parameter(1)
  ROOT d = f32[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}
)");
  Literal r = MustRun(hlo, {Half16(PrimitiveType::kBF16, {2}, {1.5f, 0.25f}),
                            Half16(PrimitiveType::kBF16, {2}, {2, 4})});
  EXPECT_THAT(Values<float>(r), ElementsAre(4));
}

TEST(DotTest, MixedS8OperandsS32Result) {
  // 127 * 127 + (-128) * 2 = 16129 - 256 = 15873: no s8 wrap, the operands
  // are converted to s32 first.
  std::string hlo = Entry(R"(
  a = s8[2] parameter(0)
  b = s8[2] parameter(1)
  ROOT d = s32[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}
)");
  Literal r = MustRun(hlo, {Make<int8_t>(PrimitiveType::kS8, {2}, {127, -128}),
                            Make<int8_t>(PrimitiveType::kS8, {2}, {127, 2})});
  EXPECT_THAT(Values<int32_t>(r), ElementsAre(15873));
}

TEST(DotTest, WideIntegerOperandsRoundOnceToBf16) {
  // x = 2^62 + 2^54 + 1 lies just above the midpoint between the bf16
  // neighbours 2^62 and 2^62 + 2^55 (8 significant bits), so it converts to
  // 2^62 + 2^55. Going through double first would lose the +1 and round the
  // exact midpoint to even, 2^62. Then x * 1 is exact.
  std::string hlo = Entry(R"(
  a = s64[1] parameter(0)
  b = s64[1] parameter(1)
  ROOT d = bf16[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}
)");
  const int64_t x = (int64_t{1} << 62) + (int64_t{1} << 54) + 1;
  Literal r = MustRun(hlo, {Make<int64_t>(PrimitiveType::kS64, {1}, {x}),
                            Make<int64_t>(PrimitiveType::kS64, {1}, {1})});
  EXPECT_THAT(Half16Values(r),
              ElementsAre(std::ldexp(1.0f, 62) + std::ldexp(1.0f, 55)));
}

TEST(DotTest, Complex) {
  // (1+2i)(2-i) + (3-i)(i) = (2 - i + 4i + 2) + (3i + 1) = 5 + 6i
  using C = std::complex<float>;
  std::string hlo = Entry(R"(
  a = c64[2] parameter(0)
  b = c64[2] parameter(1)
  ROOT d = c64[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}
)");
  Literal r =
      MustRun(hlo, {Make<C>(PrimitiveType::kC64, {2}, {C(1, 2), C(3, -1)}),
                    Make<C>(PrimitiveType::kC64, {2}, {C(2, -1), C(0, 1)})});
  EXPECT_THAT(Values<C>(r), ElementsAre(C(5, 6)));
}

TEST(DotTest, PredIsOrOfAnds) {
  // [[1, 0], [0, 0]] . [1, 1] -> [true, false]
  std::string hlo = Entry(R"(
  a = pred[2,2] parameter(0)
  b = pred[2] parameter(1)
  ROOT d = pred[2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
)");
  Literal r = MustRun(
      hlo,
      {Make<bool>(PrimitiveType::kPred, {2, 2}, {true, false, false, false}),
       Make<bool>(PrimitiveType::kPred, {2}, {true, true})});
  EXPECT_THAT(Values<bool>(r), ElementsAre(true, false));
}

}  // namespace
}  // namespace aotc
