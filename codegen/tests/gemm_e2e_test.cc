// End-to-end tests of the GEMM strategy: a closed-form product, a sweep of
// sizes (1-row edges, primes, odd) against a product computed here in
// double with the classic error bound of a sum of K products, every
// dimension-numbers form and layout against the evaluator, fused epilogues,
// bf16 operands, constant weights packed at compile time, the evaluator's
// numbers bit for bit under --strict-fp, blocks split across threads,
// convolutions (features minor and feature-major), and the tilings chosen
// for each kind of target.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "codegen/strategies/gemm/gemm.h"
#include "codegen/tests/codegen_test_util.h"
#include "codegen/tests/gemm_test_util.h"

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

// A plain [m,k] x [k,n] product.
std::string MatMulHlo(int64_t m, int64_t n, int64_t k) {
  return absl::StrCat(R"(HloModule m
ENTRY e {
  a = f32[)", m, ",", k, R"(] parameter(0)
  b = f32[)", k, ",", n, R"(] parameter(1)
  ROOT d = f32[)", m, ",", n, R"(] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
}

TEST(GemmE2eTest, ClosedFormProduct) {
  // a[i,k] = i + 1, b[k,j] = k + (j % 4) - 1, so
  // c[i,j] = (i + 1) * (K (K - 1) / 2 + K ((j % 4) - 1)): small integers,
  // exact in f32 whatever the order of the sum.
  const int64_t m = 37, n = 65, k = 31;
  const std::string hlo = MatMulHlo(m, n, k);
  ASSERT_EQ(PlanName(hlo), "gemm");
  std::vector<float> a(m * k), b(k * n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t p = 0; p < k; ++p) a[i * k + p] = static_cast<float>(i + 1);
  }
  for (int64_t p = 0; p < k; ++p) {
    for (int64_t j = 0; j < n; ++j) b[p * n + j] = static_cast<float>(p + j % 4 - 1);
  }
  auto r = CompileAndRun(hlo, {MakeArray<P::kF32>({m, k}, a),
                               MakeArray<P::kF32>({k, n}, b)});
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<float> c = Values<P::kF32>((*r)[0]);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const double want = (i + 1.0) * (k * (k - 1) / 2.0 + k * (j % 4 - 1.0));
      ASSERT_EQ(c[i * n + j], want) << i << "," << j;
    }
  }
}

// Random operands; every element must lie within the bound of a sum of k
// rounded products, |c - exact| <= 1.01 k u sum |a b| (u = 2^-24), of the
// product computed in double.
void CheckRandomProduct(int64_t m, int64_t n, int64_t k, bool threads) {
  SCOPED_TRACE(absl::StrCat(m, "x", n, "x", k));
  const std::string hlo = MatMulHlo(m, n, k);
  EXPECT_EQ(PlanName(hlo), "gemm");
  const Literal a = RandomLiteral(Shape::Array(P::kF32, {m, k}), 5, 0);
  const Literal b = RandomLiteral(Shape::Array(P::kF32, {k, n}), 5, 1);
  HookLog log;
  if (threads) aotc_set_parallel_for(&ThreadedReverseHook, &log);
  auto r = CompileAndRun(hlo, {a, b});
  if (threads) aotc_set_parallel_for(nullptr, nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<float> c = Values<P::kF32>((*r)[0]);
  const absl::Span<const float> av = a.data<float>(), bv = b.data<float>();
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double exact = 0, magnitude = 0;
      for (int64_t p = 0; p < k; ++p) {
        exact += double{av[i * k + p]} * bv[p * n + j];
        magnitude += std::abs(double{av[i * k + p]} * bv[p * n + j]);
      }
      const double bound = 1.01 * k * std::ldexp(1.0, -24) * magnitude;
      ASSERT_LE(std::abs(c[i * n + j] - exact), bound) << i << "," << j;
    }
  }
  if (threads) {
    EXPECT_GT(log.calls, 0);
  }
}

TEST(GemmE2eTest, SizesWithEdgesInEveryDimension) {
  for (int64_t m : {8, 13, 97}) {
    for (int64_t n : {16, 61, 129}) {
      for (int64_t k : {17, 256, 601}) {
        if (m * n * k < (int64_t{1} << 15)) continue;
        CheckRandomProduct(m, n, k, false);
      }
    }
  }
}

TEST(GemmE2eTest, BlocksSplitAcrossThreads) {
  CheckRandomProduct(300, 130, 70, true);
}

TEST(GemmE2eTest, RowsFourKibApartArePackedAndStillRight) {
  // A's rows 4 KiB apart over more rows than one block: packed (plan.cc),
  // with a last slice and a last block of edges.
  CheckRandomProduct(700, 40, 1024, false);
  CheckRandomProduct(600, 100, 2048, true);
}

TEST(GemmE2eTest, FewRowsSplitByColumnsAcrossThreads) {
  // One block of 20 rows: the parallel units are groups of columns, the
  // last one narrower than the others.
  CheckRandomProduct(20, 300, 64, true);
  CheckRandomProduct(64, 512, 784, true);
}

// Whether `hlo`'s root, planned for an AVX-512 target (6 x 4 x 16 tiles),
// packs an operand at run time before its parallel loop.
bool PacksAtRunTime(std::string_view hlo) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return false;
  auto plan = PlanInstruction(*(*module)->entry()->root(),
                              TargetInfo{64, 32, 48 << 10, 1 << 20});
  EXPECT_TRUE(plan.ok()) << plan.status();
  if (!plan.ok()) return false;
  EXPECT_EQ(plan->name, "gemm");
  return static_cast<bool>(plan->prologue);
}

TEST(GemmE2eTest, WeightsOfOneBlockOfRowsAreReadInPlace) {
  // 64 rows are one block: a row-major [K, N] weight whose N is a whole
  // number of 64-wide panels is read in place, nothing packed.
  EXPECT_FALSE(PacksAtRunTime(MatMulHlo(64, 128, 300)));
  const char* batched = R"(HloModule m
ENTRY e {
  a = f32[3,40,70] parameter(0)
  b = f32[3,70,192] parameter(1)
  ROOT d = f32[3,40,192] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
})";
  EXPECT_FALSE(PacksAtRunTime(batched));
  // Packed: columns past the last whole panel, several blocks of rows
  // sharing each panel, a transposed weight.
  EXPECT_TRUE(PacksAtRunTime(MatMulHlo(64, 100, 300)));
  EXPECT_TRUE(PacksAtRunTime(MatMulHlo(600, 128, 300)));
  EXPECT_TRUE(PacksAtRunTime(R"(HloModule m
ENTRY e {
  a = f32[64,300] parameter(0)
  b = f32[128,300] parameter(1)
  ROOT d = f32[64,128] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1}
})"));
  CheckRandomProduct(64, 128, 300, false);
  CheckRandomProduct(64, 512, 1100, true);  // slices deeper than 1024
  auto module = LoadModuleFromString(batched, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<Literal> args;
  for (int i = 0; i < 2; ++i) {
    args.push_back(RandomLiteral((*module)->entry()->parameters()[i]->shape(), 13, i));
  }
  ExpectMatchesEvaluator(batched, args);
}

TEST(GemmE2eTest, NarrowProductsGetNarrowTiles) {
  // 10 columns: one 16-lane vector, 16 rows; 40 columns: three, 9 rows.
  const TargetInfo avx512{64, 32, 48 << 10, 1 << 20};
  const GemmTiling ten = ChooseGemmTiling(4, avx512, 64, 512, 0, 10);
  EXPECT_EQ(ten.vectors, 1);
  EXPECT_EQ(ten.mr, 16);
  const GemmTiling forty = ChooseGemmTiling(4, avx512, 64, 512, 0, 40);
  EXPECT_EQ(forty.vectors, 3);
  EXPECT_EQ(forty.mr, 9);
  CheckRandomProduct(64, 10, 512, false);
  CheckRandomProduct(33, 40, 100, false);
  CheckRandomProduct(70, 8, 30, false);
}

// The evaluator's numbers for every operand arrangement: transposed
// operands, batch dimensions, several contracting and free dimensions,
// column-major layouts.
TEST(GemmE2eTest, EveryDimensionNumbersFormMatchesTheEvaluator) {
  struct Case {
    const char* name;
    const char* hlo;
    std::vector<std::vector<int64_t>> params;
  };
  const std::vector<Case> cases = {
      {"lhs transposed", R"(HloModule m
ENTRY e {
  a = f32[33,20] parameter(0)
  b = f32[33,47] parameter(1)
  ROOT d = f32[20,47] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}
})", {{33, 20}, {33, 47}}},
      {"rhs transposed", R"(HloModule m
ENTRY e {
  a = f32[20,33] parameter(0)
  b = f32[47,33] parameter(1)
  ROOT d = f32[20,47] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1}
})", {{20, 33}, {47, 33}}},
      {"batched attention scores", R"(HloModule m
ENTRY e {
  q = f32[3,2,19,24] parameter(0)
  k = f32[3,2,41,24] parameter(1)
  ROOT s = f32[3,2,19,41] dot(q, k), lhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_batch_dims={0,1}, rhs_contracting_dims={3}
})", {{3, 2, 19, 24}, {3, 2, 41, 24}}},
      {"batch dimension in the middle", R"(HloModule m
ENTRY e {
  a = f32[17,4,29] parameter(0)
  b = f32[29,4,33] parameter(1)
  ROOT d = f32[4,17,33] dot(a, b), lhs_batch_dims={1}, lhs_contracting_dims={2}, rhs_batch_dims={1}, rhs_contracting_dims={0}
})", {{17, 4, 29}, {29, 4, 33}}},
      {"two contracting and two free dimensions", R"(HloModule m
ENTRY e {
  a = f32[3,5,7,6] parameter(0)
  b = f32[7,4,6,9] parameter(1)
  ROOT d = f32[3,5,4,9] dot(a, b), lhs_contracting_dims={2,3}, rhs_contracting_dims={0,2}
})", {{3, 5, 7, 6}, {7, 4, 6, 9}}},
      {"column-major operands and result", R"(HloModule m
ENTRY e {
  a = f32[23,35]{0,1} parameter(0)
  b = f32[35,41]{0,1} parameter(1)
  ROOT d = f32[23,41]{0,1} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})", {{23, 35}, {35, 41}}},
      {"f16 into f16, summed in f32", R"(HloModule m
ENTRY e {
  a = f16[5,29,31] parameter(0)
  b = f16[5,31,37] parameter(1)
  ROOT d = f16[5,29,37] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
})", {{5, 29, 31}, {5, 31, 37}}},
      {"f64", R"(HloModule m
ENTRY e {
  a = f64[29,31] parameter(0)
  b = f64[31,37] parameter(1)
  ROOT d = f64[29,37] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})", {{29, 31}, {31, 37}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto module = LoadModuleFromString(c.hlo, "test.hlo");
    ASSERT_TRUE(module.ok()) << module.status();
    EXPECT_EQ(PlanName(c.hlo), "gemm");
    std::vector<Literal> args;
    const Computation& entry = *(*module)->entry();
    for (size_t i = 0; i < c.params.size(); ++i) {
      args.push_back(RandomLiteral(entry.parameters()[i]->shape(), 9, i));
    }
    ExpectMatchesEvaluator(c.hlo, args);
  }
}

TEST(GemmE2eTest, BiasAndReluEpilogueFusesIntoTheProduct) {
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[40,64] parameter(0)
  w = f32[64,48] parameter(1)
  bias = f32[48] parameter(2)
  d = f32[40,48] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[40,48] broadcast(bias), dimensions={1}
  s = f32[40,48] add(d, bb)
  z = f32[] constant(0)
  zb = f32[40,48] broadcast(z), dimensions={}
  ROOT r = f32[40,48] maximum(s, zb)
})";
  EXPECT_EQ(PlanName(hlo, /*optimize=*/true), "gemm");
  std::vector<float> x(40 * 64), w(64 * 48), bias(48);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 5) - 2;
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 3) - 1;
  for (size_t i = 0; i < bias.size(); ++i) bias[i] = static_cast<float>(i) - 24;
  auto r = CompileAndRun(hlo,
                         {MakeArray<P::kF32>({40, 64}, x),
                          MakeArray<P::kF32>({64, 48}, w), Vec<P::kF32>(bias)},
                         2, /*optimize=*/true);
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<float> y = Values<P::kF32>((*r)[0]);
  for (int i = 0; i < 40; ++i) {
    for (int j = 0; j < 48; ++j) {
      double s = bias[j];
      for (int p = 0; p < 64; ++p) s += double{x[i * 64 + p]} * w[p * 48 + j];
      ASSERT_EQ(y[i * 48 + j], std::max(s, 0.0)) << i << "," << j;
    }
  }
}

TEST(GemmE2eTest, S8ProductsAtTheExtremesOfTheRangeAreExact) {
  // a[i,q] is -128 in odd rows, and in even rows -128 at even q and 127 at
  // odd q; b[q,j] is -128 in even columns and 127 in odd ones. With K = 64:
  //   odd row,  even column: 64 * 16384                       =  1048576
  //   odd row,  odd column:  64 * (-128 * 127)                = -1040384
  //   even row, even column: 32 * 16384 + 32 * (127 * -128)   =     4096
  //   even row, odd column:  32 * (-128 * 127) + 32 * 127^2   =    -4064
  // Pairs of such products overflow 16 bits, so a kernel that sums them in
  // 16 bits (vpmaddubsw) would be wrong; the quads (vpdpbusd) and the
  // widened kernels sum in 32.
  const int64_t m = 32, n = 32, k = 64;
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = s8[32,64] parameter(0)
  b = s8[64,32] parameter(1)
  ROOT d = s32[32,32] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";
  EXPECT_EQ(PlanName(hlo), "gemm");
  Literal a(Shape::Array(P::kS8, {m, k}));
  Literal b(Shape::Array(P::kS8, {k, n}));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t q = 0; q < k; ++q) {
      a.Set<int8_t>(i * k + q, i % 2 == 1 || q % 2 == 0 ? -128 : 127);
    }
  }
  for (int64_t q = 0; q < k; ++q) {
    for (int64_t j = 0; j < n; ++j) {
      b.Set<int8_t>(q * n + j, j % 2 == 0 ? -128 : 127);
    }
  }
  // This host's kernel, then without VNNI (the operands widened to s32),
  // then without AVX-512.
  for (const std::string features : {"", "-avx512vnni", "-avx512f"}) {
    SCOPED_TRACE(features);
    auto r = CompileAndRunWith(hlo, {a, b}, features, /*threads=*/false);
    ASSERT_TRUE(r.ok()) << r.status();
    const std::vector<int32_t> c = Values<P::kS32>((*r)[0]);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const int32_t want = i % 2 == 1 ? (j % 2 == 0 ? 1048576 : -1040384)
                                        : (j % 2 == 0 ? 4096 : -4064);
        ASSERT_EQ(c[i * n + j], want) << i << "," << j;
      }
    }
  }
}

TEST(GemmE2eTest, Bf16OperandsAccumulateInF32) {
  const char* hlo = R"(HloModule m
ENTRY e {
  a = bf16[24,40] parameter(0)
  b = bf16[40,36] parameter(1)
  ROOT d = f32[24,36] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";
  EXPECT_EQ(PlanName(hlo), "gemm");
  ExpectMatchesEvaluator(
      hlo, {RandomLiteral(Shape::Array(P::kBF16, {24, 40}), 3, 0),
            RandomLiteral(Shape::Array(P::kBF16, {40, 36}), 3, 1)});
}

TEST(GemmE2eTest, Bf16ResultsRoundBeforeTheEpilogue) {
  // Each row of x is (1, 2^-8, 2^-10, 0...), w is all ones: the f32 sum
  // 1 + 2^-8 + 2^-10 rounds to bf16 1 + 2^-7 (7 fraction bits), and the
  // fused bias of -1 gives 2^-7; without that rounding it would be 1.25 2^-8.
  const char* hlo = R"(HloModule m
ENTRY e {
  x = bf16[64,16] parameter(0)
  w = bf16[16,16] parameter(1)
  d = bf16[64,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  one = bf16[] constant(1)
  ob = bf16[64,16] broadcast(one), dimensions={}
  ROOT r = bf16[64,16] subtract(d, ob)
})";
  EXPECT_EQ(PlanName(hlo, /*optimize=*/true), "gemm");
  Literal x(Shape::Array(P::kBF16, {64, 16}));
  Literal w(Shape::Array(P::kBF16, {16, 16}));
  for (int64_t i = 0; i < 64; ++i) {
    x.Set<uint16_t>(i * 16, 0x3f80);      // 1
    x.Set<uint16_t>(i * 16 + 1, 0x3b80);  // 2^-8
    x.Set<uint16_t>(i * 16 + 2, 0x3a80);  // 2^-10
  }
  for (int64_t i = 0; i < 256; ++i) w.Set<uint16_t>(i, 0x3f80);
  auto r = CompileAndRun(hlo, {x, w}, 2, /*optimize=*/true);
  ASSERT_TRUE(r.ok()) << r.status();
  for (int64_t i = 0; i < 64 * 16; ++i) {
    ASSERT_EQ((*r)[0].Get<uint16_t>(i), 0x3c00) << i;  // 2^-7
  }
}

TEST(GemmE2eTest, ConstantWeightsArePackedAtCompileTime) {
  // w[k,j] = (k + 2 j) % 7 - 3 as a constant; x[i,k] = 1 for k even, else
  // -1: c[i,j] = sum over k of (+-1) w[k,j], computed here.
  const int64_t m = 16, n = 20, k = 130;
  std::string w_text = "{";
  std::vector<float> w(k * n);
  for (int64_t p = 0; p < k; ++p) {
    absl::StrAppend(&w_text, p ? ", {" : "{");
    for (int64_t j = 0; j < n; ++j) {
      w[p * n + j] = static_cast<float>((p + 2 * j) % 7 - 3);
      absl::StrAppend(&w_text, j ? ", " : "", w[p * n + j]);
    }
    absl::StrAppend(&w_text, "}");
  }
  absl::StrAppend(&w_text, "}");
  const std::string hlo = absl::StrCat(R"(HloModule m
ENTRY e {
  x = f32[16,130] parameter(0)
  w = f32[130,20] constant()", w_text, R"()
  ROOT d = f32[16,20] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto plan = PlanInstruction(*(*module)->entry()->root());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->name, "gemm");
  EXPECT_FALSE(plan->prologue);  // nothing to pack at run time
  std::vector<float> x(m * k);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t p = 0; p < k; ++p) x[i * k + p] = p % 2 == 0 ? 1.0f : -1.0f;
  }
  auto r = CompileAndRun(hlo, {MakeArray<P::kF32>({m, k}, x)});
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<float> c = Values<P::kF32>((*r)[0]);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double want = 0;
      for (int64_t p = 0; p < k; ++p) want += x[i * k + p] * w[p * n + j];
      ASSERT_EQ(c[i * n + j], want) << i << "," << j;
    }
  }
}

// `hlo` compiled with --strict-fp gives the evaluator's result bit for bit
// on seeded arguments (seed `seed`).
TEST(GemmE2eTest, StrictFpGivesTheEvaluatorsNumbersBitForBit) {
  ExpectStrictFpBitForBit(MatMulHlo(45, 70, 300), 11);
}

// Convolutions whose input features are contiguous run as products on the
// microkernel: A's rows straight from the input (many features) or packed
// tap by tap (few), zeros outside the input. The evaluator's numbers for
// padding, negative padding, strides, dilation, reversal, 1-D and 3-D
// windows and a fused bias and relu.
TEST(GemmE2eTest, ConvolutionsMatchTheEvaluator) {
  ExpectGemmConvolutionsMatch({
      {"3x3 same padding, 24 features in place", R"(HloModule m
ENTRY e {
  x = f32[2,9,11,24] parameter(0)
  w = f32[3,3,24,20] parameter(1)
  ROOT c = f32[2,9,11,20] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})"},
      {"stride 2, 3 features packed (a stem)", R"(HloModule m
ENTRY e {
  x = f32[1,23,19,3] parameter(0)
  w = f32[7,7,3,17] parameter(1)
  ROOT c = f32[1,12,10,17] convolution(x, w), window={size=7x7 stride=2x2 pad=3_3x3_3}, dim_labels=b01f_01io->b01f
})"},
      {"dilated, reversed, uneven and negative padding", R"(HloModule m
ENTRY e {
  x = f32[1,13,12,16] parameter(0)
  w = f32[3,2,16,18] parameter(1)
  ROOT c = f32[1,10,12,18] convolution(x, w), window={size=3x2 pad=2_-1x0_1 rhs_dilate=2x1 rhs_reversal=1x0}, dim_labels=b01f_01io->b01f
})"},
      {"1-D, features more than one slice", R"(HloModule m
ENTRY e {
  x = f32[3,40,300] parameter(0)
  w = f32[5,300,16] parameter(1)
  ROOT c = f32[3,36,16] convolution(x, w), window={size=5}, dim_labels=b0f_0io->b0f
})"},
      {"3-D, kernel in another order, output feature-major", R"(HloModule m
ENTRY e {
  x = f32[1,5,6,7,8] parameter(0)
  w = f32[20,8,2,2,2] parameter(1)
  ROOT c = f32[1,20,4,5,6] convolution(x, w), window={size=2x2x2}, dim_labels=b012f_oi012->bf012
})"},
      {"bias and relu fused", R"(HloModule m
ENTRY e {
  x = f32[1,10,10,32] parameter(0)
  w = f32[1,1,32,40] parameter(1)
  bias = f32[40] parameter(2)
  c = f32[1,10,10,40] convolution(x, w), window={size=1x1}, dim_labels=b01f_01io->b01f
  bb = f32[1,10,10,40] broadcast(bias), dimensions={3}
  s = f32[1,10,10,40] add(c, bb)
  z = f32[] constant(0)
  zb = f32[1,10,10,40] broadcast(z), dimensions={}
  ROOT r = f32[1,10,10,40] maximum(s, zb)
})"},
  });
}

// Feature-major convolutions (NCHW, OIHW as PyTorch exports them, and other
// layouts whose input features are not the most minor dimension) run as the
// transposed product: output features times positions, the input packed
// panel by panel. Batches, strides, padding (negative too), dilation,
// reversal, sizes of 1 and primes, 1-D to 3-D windows, f64, an input whose
// innermost spatial axis is not contiguous, a feature-minor output and a
// fused bias and relu per output element.
TEST(GemmE2eTest, FeatureMajorConvolutionsMatchTheEvaluator) {
  ExpectGemmConvolutionsMatch({
      {"NCHW 3x3 same padding, batch 2", R"(HloModule m
ENTRY e {
  x = f32[2,24,9,11] parameter(0)
  w = f32[20,24,3,3] parameter(1)
  ROOT c = f32[2,20,9,11] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01
})"},
      {"stride 2, 3 features (a stem)", R"(HloModule m
ENTRY e {
  x = f32[1,3,23,19] parameter(0)
  w = f32[17,3,7,7] parameter(1)
  ROOT c = f32[1,17,12,10] convolution(x, w), window={size=7x7 stride=2x2 pad=3_3x3_3}, dim_labels=bf01_oi01->bf01
})"},
      {"dilated, reversed, uneven and negative padding", R"(HloModule m
ENTRY e {
  x = f32[1,16,13,12] parameter(0)
  w = f32[18,16,3,2] parameter(1)
  ROOT c = f32[1,18,10,12] convolution(x, w), window={size=3x2 pad=2_-1x0_1 rhs_dilate=2x1 rhs_reversal=1x0}, dim_labels=bf01_oi01->bf01
})"},
      {"1-D, stride 3, 13 output features, batch 3", R"(HloModule m
ENTRY e {
  x = f32[3,30,61] parameter(0)
  w = f32[13,30,5] parameter(1)
  ROOT c = f32[3,13,20] convolution(x, w), window={size=5 stride=3 pad=1_2}, dim_labels=bf0_oi0->bf0
})"},
      {"3-D, f64", R"(HloModule m
ENTRY e {
  x = f64[1,8,5,6,7] parameter(0)
  w = f64[20,8,2,2,2] parameter(1)
  ROOT c = f64[1,20,4,5,6] convolution(x, w), window={size=2x2x2}, dim_labels=bf012_oi012->bf012
})"},
      {"rows of one position, a prime width", R"(HloModule m
ENTRY e {
  x = f32[1,16,1,37] parameter(0)
  w = f32[16,16,1,3] parameter(1)
  ROOT c = f32[1,16,1,37] convolution(x, w), window={size=1x3 pad=0_0x1_1}, dim_labels=bf01_oi01->bf01
})"},
      {"input height-minor, kernel HWIO, output NHWC", R"(HloModule m
ENTRY e {
  x = f32[2,16,10,12]{2,3,1,0} parameter(0)
  w = f32[3,3,16,24] parameter(1)
  ROOT c = f32[2,8,12,24] convolution(x, w), window={size=3x3 pad=0_0x1_1}, dim_labels=bf01_01io->b01f
})"},
      {"1x1 pointwise (planes read in place), batch 3, depth slices, an edge panel", R"(HloModule m
ENTRY e {
  x = f32[3,130,7,11] parameter(0)
  w = f32[16,130,1,1] parameter(1)
  ROOT c = f32[3,16,7,11] convolution(x, w), window={size=1x1}, dim_labels=bf01_oi01->bf01
})"},
      {"1x1 pointwise, whole panels only", R"(HloModule m
ENTRY e {
  x = f32[2,40,8,16] parameter(0)
  w = f32[24,40,1,1] parameter(1)
  ROOT c = f32[2,24,8,16] convolution(x, w), window={size=1x1}, dim_labels=bf01_oi01->bf01
})"},
      {"1x1 stride 2: not pointwise", R"(HloModule m
ENTRY e {
  x = f32[2,32,9,9] parameter(0)
  w = f32[16,32,1,1] parameter(1)
  ROOT c = f32[2,16,5,5] convolution(x, w), window={size=1x1 stride=2x2}, dim_labels=bf01_oi01->bf01
})"},
      {"1x1 padded: not pointwise", R"(HloModule m
ENTRY e {
  x = f32[2,16,9,9] parameter(0)
  w = f32[16,16,1,1] parameter(1)
  ROOT c = f32[2,16,11,9] convolution(x, w), window={size=1x1 pad=1_1x0_0}, dim_labels=bf01_oi01->bf01
})"},
      {"bias and relu fused", R"(HloModule m
ENTRY e {
  x = f32[1,32,10,10] parameter(0)
  w = f32[40,32,1,1] parameter(1)
  bias = f32[40] parameter(2)
  c = f32[1,40,10,10] convolution(x, w), window={size=1x1}, dim_labels=bf01_oi01->bf01
  bb = f32[1,40,10,10] broadcast(bias), dimensions={1}
  s = f32[1,40,10,10] add(c, bb)
  z = f32[] constant(0)
  zb = f32[1,40,10,10] broadcast(z), dimensions={}
  ROOT r = f32[1,40,10,10] maximum(s, zb)
})"},
  });
}

// The transposed product sums each output in the evaluator's depth order
// (tap, then input feature): under --strict-fp its numbers bit for bit.
TEST(GemmE2eTest, FeatureMajorStrictFpGivesTheEvaluatorsNumbersBitForBit) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  x = f32[2,20,11,13] parameter(0)
  w = f32[24,20,3,3] parameter(1)
  ROOT c = f32[2,24,6,13] convolution(x, w), window={size=3x3 stride=2x1 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01
})";
  EXPECT_EQ(PlanName(hlo), "gemm");
  ExpectStrictFpBitForBit(hlo, 29);
  // Stride 1 and 48 input features: B read from padded planes.
  const std::string planes = R"(HloModule m
ENTRY e {
  x = f32[2,48,11,13] parameter(0)
  w = f32[24,48,3,3] parameter(1)
  ROOT c = f32[2,24,11,13] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01
})";
  EXPECT_EQ(PlanName(planes), "gemm");
  ExpectStrictFpBitForBit(planes, 31);
}

TEST(GemmE2eTest, ConstantConvolutionKernelsArePackedAtCompileTime) {
  // k[ky,kx,c,o] = (ky + 2 kx + 3 c + o) % 5 - 2 as a constant, reversed
  // along x; the evaluator's numbers.
  const std::string k_text = KernelLiteralText(8, 16, 5);
  const std::string hlo = absl::StrCat(R"(HloModule m
ENTRY e {
  x = f32[1,12,10,8] parameter(0)
  k = f32[3,3,8,16] constant()", k_text, R"()
  ROOT c = f32[1,12,10,16] convolution(x, k), window={size=3x3 pad=1_1x1_1 rhs_reversal=0x1}, dim_labels=b01f_01io->b01f
})");
  // The same kernel against an NCHW input: the feature-major product, whose
  // A is the kernel, packed into rows at compile time.
  const std::string nchw = absl::StrCat(R"(HloModule m
ENTRY e {
  x = f32[1,8,12,10] parameter(0)
  k = f32[3,3,8,16] constant()", k_text, R"()
  ROOT c = f32[1,16,12,10] convolution(x, k), window={size=3x3 pad=1_1x1_1 rhs_reversal=0x1}, dim_labels=bf01_01io->bf01
})");
  // With 48 input features B is read from padded planes: the prologue only
  // copies the input into them.
  const std::string planes = absl::StrCat(R"(HloModule m
ENTRY e {
  x = f32[1,48,12,10] parameter(0)
  k = f32[3,3,48,16] constant()", KernelLiteralText(48, 16, 5), R"()
  ROOT c = f32[1,16,12,10] convolution(x, k), window={size=3x3 pad=1_1x1_1 rhs_reversal=0x1}, dim_labels=bf01_01io->bf01
})");
  ExpectKernelsPackedAtCompileTime(
      {{&hlo, {1, 12, 10, 8}}, {&nchw, {1, 8, 12, 10}}});
  // Padded planes: the prologue only copies the input into them.
  auto module = LoadModuleFromString(planes, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto plan = PlanInstruction(*(*module)->entry()->root());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->name, "gemm");
  EXPECT_TRUE(plan->prologue);
  absl::StatusOr<std::string> ir = UnoptimizedIr(**module);
  ASSERT_TRUE(ir.ok()) << ir.status();
  EXPECT_EQ(ir->find("gemm.pack_kernel"), std::string::npos);
  EXPECT_NE(ir->find("gemm.pad_planes"), std::string::npos);
  ExpectMatchesEvaluator(planes,
                         {RandomLiteral(Shape::Array(P::kF32, {1, 48, 12, 10}), 17, 0)});
}

TEST(GemmE2eTest, ConvolutionsTheGemmDeclines) {
  // Input dilation goes to the generic loops, a depthwise convolution to
  // the depthwise loops (grouped ones: grouped_conv_e2e_test.cc).
  EXPECT_EQ(PlanName(R"(HloModule m
ENTRY e {
  x = f32[1,10,10,32] parameter(0)
  w = f32[3,3,1,32] parameter(1)
  ROOT c = f32[1,8,8,32] convolution(x, w), window={size=3x3}, dim_labels=b01f_01io->b01f, feature_group_count=32
})"),
            "depthwise");
  EXPECT_EQ(PlanName(R"(HloModule m
ENTRY e {
  x = f32[1,10,10,32] parameter(0)
  w = f32[3,3,32,32] parameter(1)
  ROOT c = f32[1,21,21,32] convolution(x, w), window={size=3x3 pad=2_2x2_2 lhs_dilate=2x2}, dim_labels=b01f_01io->b01f
})"),
            "element-loops");
}

TEST(GemmE2eTest, FewRowsStayWithTheRowDot) {
  EXPECT_EQ(PlanName(MatMulHlo(1, 512, 784)), "row-dot");
  EXPECT_EQ(PlanName(MatMulHlo(kGemmMinRows - 1, 512, 784)), "row-dot");
  EXPECT_EQ(PlanName(MatMulHlo(kGemmMinRows, 256, 784)), "gemm");
  // From 1 MiB of W[K, N] on, up to 16 rows stream W instead of packing it.
  EXPECT_EQ(PlanName(MatMulHlo(kGemmMinRows, 512, 784)), "stream-dot");
  EXPECT_EQ(PlanName(MatMulHlo(64, 7, 512)), "row-dot");  // 7 columns
}

TEST(GemmE2eTest, RowDotGivesTheEvaluatorsBitsForEveryDepth) {
  // The row-dot takes four depths per pass over a row of sums of 64 floats
  // or more (67, 512 columns), then the rest one at a time; a narrower row
  // (9) one depth per pass: depths on either side of a multiple of four,
  // each sum in the evaluator's order, product rounded then added.
  for (int64_t k : {1, 3, 4, 5, 8, 785}) {
    for (const auto& [m, n] :
         {std::pair<int64_t, int64_t>{1, 67}, {3, 512}, {2, 9}}) {
      const std::string hlo = MatMulHlo(m, n, k);
      SCOPED_TRACE(hlo);
      ASSERT_EQ(PlanName(hlo), "row-dot");
      auto module = LoadModuleFromString(hlo, "test.hlo");
      ASSERT_TRUE(module.ok()) << module.status();
      ExpectEvaluatorsBits(hlo, RandomArguments(*(*module)->entry(), 7));
    }
  }
}

TEST(GemmE2eTest, TilingsFitTheRegistersOfEachTarget) {
  struct Want {
    TargetInfo target;
    int mr, vectors, lanes;
  };
  TargetInfo avx512{64, 32, 48 << 10, 1 << 20};
  TargetInfo avx2{32, 16, 32 << 10, 512 << 10};
  TargetInfo neon{16, 32, 64 << 10, 512 << 10};
  TargetInfo scalar{0, 16, 16 << 10, 128 << 10};
  // Accumulators + one row of B + one broadcast <= registers, with the most
  // multiply-adds per loaded value where every column is used: 6 x 4
  // vectors on 32 registers, 4 x 3 on 16.
  for (const Want& w : {Want{avx512, 6, 4, 16}, Want{avx2, 4, 3, 8},
                        Want{neon, 6, 4, 4}, Want{scalar, 4, 3, 1}}) {
    const GemmTiling t = ChooseGemmTiling(4, w.target, 1024, 1024, 1024);
    EXPECT_EQ(t.mr, w.mr) << w.target.ToString();
    EXPECT_EQ(t.vectors, w.vectors) << w.target.ToString();
    EXPECT_EQ(t.lanes, w.lanes) << w.target.ToString();
    EXPECT_LE(t.mr * t.vectors + t.vectors + 1, w.target.vector_registers);
    // A KC x NR panel of B fits in half of L1 (three quarters with 16
    // registers), unless at the 64 floor.
    const int64_t share = w.target.vector_registers <= 16
                              ? w.target.l1_bytes * 3 / 4
                              : w.target.l1_bytes / 2;
    EXPECT_TRUE(t.kc * t.nr() * 4 <= share || t.kc == 64);
    EXPECT_EQ(t.mc % t.mr, 0);
  }
  // AVX2: 4 x 24 for wide products, but 6 x 16 for 64 columns, which 24
  // would round up to 72; slices of 256 (24 KiB of B), 1000 deep as four
  // of 252 (a multiple of the kernel's unroll), not three of 256 and 232.
  const GemmTiling wide = ChooseGemmTiling(4, avx2, 1024, 1024, 0, 1024);
  EXPECT_EQ(wide.mr, 4);
  EXPECT_EQ(wide.vectors, 3);
  EXPECT_EQ(wide.kc, 256);
  const GemmTiling sixty_four = ChooseGemmTiling(4, avx2, 3136, 576, 0, 64);
  EXPECT_EQ(sixty_four.mr, 6);
  EXPECT_EQ(sixty_four.vectors, 2);
  EXPECT_EQ(ChooseGemmTiling(4, avx2, 1024, 1000, 0, 1024).kc, 252);
  // f64 halves the lanes.
  EXPECT_EQ(ChooseGemmTiling(8, avx512, 64, 64, 64).lanes, 8);
  // Never deeper than K, never more rows than M needs.
  const GemmTiling small = ChooseGemmTiling(4, avx512, 10, 20, 0, 64);
  EXPECT_EQ(small.kc, 20);
  EXPECT_EQ(small.mc, 12);
  // A narrow product (a grouped convolution's) takes a tile no wider than
  // its columns: 4 columns, one vector of 4 floats (16 bytes) and
  // (32 - 1 - 1) / 1 rows capped at 16; 8 columns, 8 floats; 32 columns,
  // two vectors of 16, 14 rows; f64 stops at 2 lanes; AVX2 at 4 floats.
  for (const auto& [target, bytes, columns, want] :
       {std::tuple{avx512, 4, 4, Want{avx512, 16, 1, 4}},
        std::tuple{avx512, 4, 8, Want{avx512, 16, 1, 8}},
        std::tuple{avx512, 4, 32, Want{avx512, 14, 2, 16}},
        std::tuple{avx512, 8, 1, Want{avx512, 16, 1, 2}},
        std::tuple{avx2, 4, 2, Want{avx2, 14, 1, 4}}}) {
    const GemmTiling t = ChooseGemmTiling(bytes, target, 1024, 36, 0, columns);
    EXPECT_EQ(t.mr, want.mr) << columns;
    EXPECT_EQ(t.vectors, want.vectors) << columns;
    EXPECT_EQ(t.lanes, want.lanes) << columns;
  }
}

}  // namespace
}  // namespace aotc::codegen::testing
