// The minifloat conversion emitters against compiler/ir/minifloat.cc, the
// independent software encoder and decoder, and against bit patterns worked
// out by hand.
//
// Decoding is checked on all 256 byte values of every format (the f6 and f4
// decoders must ignore the bits above their width); encoding on a stride
// sweep over all float bit patterns plus, for every value of every format,
// the value, the midpoints to its neighbours and the floats just beside
// them (where rounding decides), and from double on the same midpoints
// nudged by less than a float ulp (one rounding, not two). Bit for bit; each
// conversion also runs as <4 x ...> vector IR and for the x86-64 baseline.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "codegen/elemental/math/math_emitter.h"
#include "codegen/elemental/math/math_test_jit.h"
#include "compiler/ir/minifloat.h"
#include "compiler/ir/primitive_type.h"
#include "gtest/gtest.h"

namespace aotc::codegen::math_test {
namespace {

using P = PrimitiveType;

constexpr P kFormats[] = {P::kF8E5M2,        P::kF8E4M3,    P::kF8E4M3FN,
                          P::kF8E4M3B11FNUZ, P::kF8E3M4,    P::kF8E5M2FNUZ,
                          P::kF8E4M3FNUZ,    P::kF8E8M0FNU, P::kF6E3M2FN,
                          P::kF6E2M3FN,      P::kF4E2M1FN};

KernelSpec Spec(const char* name, Elem in, Elem out, unsigned width,
                KernelBody body) {
  return {KernelName(name), {in}, out, width, std::move(body)};
}

// The three compiled variants of one conversion: host scalar, host 4-wide
// vector, x86-64 baseline scalar.
template <typename In, typename Out>
std::vector<std::vector<Out>> RunVariants(Elem in, Elem out, KernelBody body,
                                          const std::vector<In>& inputs) {
  std::vector<void*> host = CompileKernels(
      Target::kHost,
      {Spec("mf", in, out, 1, body), Spec("mf", in, out, 4, body)});
  std::vector<void*> base =
      CompileKernels(Target::kBaseline, {Spec("mf", in, out, 1, body)});
  if (host.size() != 2 || base.size() != 1) return {};
  return {RunKernel<In, Out>(host[0], inputs),
          RunKernel<In, Out>(host[1], inputs, 4),
          RunKernel<In, Out>(base[0], inputs)};
}

std::vector<float> Decode(P type, const std::vector<uint8_t>& bits) {
  const MinifloatFormat& f = GetMinifloatFormat(type);
  auto v = RunVariants<uint8_t, float>(
      Elem::kI8, Elem::kF32,
      [&f](llvm::IRBuilderBase& b, std::span<llvm::Value* const> x) {
        return EmitMinifloatToFloat(b, x[0], f);
      },
      bits);
  EXPECT_EQ(v.size(), 3u);
  return v.empty() ? std::vector<float>() : v[0];
}

template <typename Src>
std::vector<uint8_t> Encode(P type, const std::vector<Src>& values) {
  const MinifloatFormat& f = GetMinifloatFormat(type);
  auto v = RunVariants<Src, uint8_t>(
      std::is_same_v<Src, float> ? Elem::kF32 : Elem::kF64, Elem::kI8,
      [&f](llvm::IRBuilderBase& b, std::span<llvm::Value* const> x) {
        return EmitToMinifloat(b, x[0], f);
      },
      values);
  EXPECT_EQ(v.size(), 3u);
  return v.empty() ? std::vector<uint8_t>() : v[0];
}

uint32_t Bits(float v) { return std::bit_cast<uint32_t>(v); }

std::vector<uint8_t> AllBytes() {
  std::vector<uint8_t> all(256);
  for (int i = 0; i < 256; ++i) all[i] = static_cast<uint8_t>(i);
  return all;
}

TEST(MinifloatConversionTest, DecodeEveryEncodingOfEveryFormat) {
  const std::vector<uint8_t> all = AllBytes();
  for (P type : kFormats) {
    const MinifloatFormat& f = GetMinifloatFormat(type);
    auto variants = RunVariants<uint8_t, float>(
        Elem::kI8, Elem::kF32,
        [&f](llvm::IRBuilderBase& b, std::span<llvm::Value* const> x) {
          return EmitMinifloatToFloat(b, x[0], f);
        },
        all);
    ASSERT_EQ(variants.size(), 3u);
    for (const std::vector<float>& got : variants) {
      int failures = 0;
      for (int i = 0; i < 256 && failures < 5; ++i) {
        // minifloat.cc's NaNs are +-NAN, which float keeps as +-0x7fc00000.
        const float want = static_cast<float>(
            MinifloatToDouble(type, static_cast<uint8_t>(i)));
        if (Bits(got[i]) == Bits(want)) continue;
        ++failures;
        ADD_FAILURE() << PrimitiveTypeName(type) << " bits 0x" << std::hex << i
                      << ": got 0x" << Bits(got[i]) << ", want 0x"
                      << Bits(want);
      }
    }
  }
}

// Values worked out by hand from (exponent bits, mantissa bits, bias).
TEST(MinifloatConversionTest, DecodeHandWorkedPatterns) {
  struct Case {
    P type;
    uint8_t bits;
    float value;
  };
  const float inf = std::numeric_limits<float>::infinity();
  const Case cases[] = {
      // e4m3fn, bias 7: 0.1111.110 = 2^(15-7) * 1.75 = 448, the largest.
      {P::kF8E4M3FN, 0x7e, 448},
      // 0.1111.000 = 256: the all-ones exponent is not infinity here.
      {P::kF8E4M3FN, 0x78, 256},
      // 0.0000.001: subnormal 1 * 2^(1 - 7 - 3) = 2^-9.
      {P::kF8E4M3FN, 0x01, std::ldexp(1.0f, -9)},
      {P::kF8E4M3FN, 0xb8, -1.0f},  // 1.0111.000 = -2^0
      // e5m2, bias 15: 0.11110.11 = 2^15 * 1.75 = 57344; 0.11111.00 = inf.
      {P::kF8E5M2, 0x7b, 57344},
      {P::kF8E5M2, 0x7c, inf},
      {P::kF8E5M2, 0xfc, -inf},
      {P::kF8E5M2, 0x01, std::ldexp(1.0f, -16)},  // 2^(1 - 15 - 2)
      // e4m3fnuz, bias 8: 0.1111.111 = 2^7 * 1.875 = 240 (no NaN there).
      {P::kF8E4M3FNUZ, 0x7f, 240},
      // e5m2fnuz, bias 16: 0.11111.11 = 2^15 * 1.75 = 57344.
      {P::kF8E5M2FNUZ, 0x7f, 57344},
      // e4m3b11fnuz, bias 11: 0.1011.000 = 1; 0.1111.111 = 2^4 * 1.875 = 30.
      {P::kF8E4M3B11FNUZ, 0x58, 1},
      {P::kF8E4M3B11FNUZ, 0x7f, 30},
      // e3m4, bias 3: 0.110.1111 = 2^3 * 1.9375 = 15.5; 0.111.0000 = inf.
      {P::kF8E3M4, 0x6f, 15.5},
      {P::kF8E3M4, 0x70, inf},
      // e4m3, bias 7: 0.1110.111 = 2^7 * 1.875 = 240; 0.1111.000 = inf.
      {P::kF8E4M3, 0x77, 240},
      {P::kF8E4M3, 0x78, inf},
      // e8m0fnu: 2^(bits - 127); 0x00 = 2^-127, a float subnormal.
      {P::kF8E8M0FNU, 0x7f, 1},
      {P::kF8E8M0FNU, 0x00, std::ldexp(1.0f, -127)},
      {P::kF8E8M0FNU, 0xfe, std::ldexp(1.0f, 127)},
      // f4e2m1fn, bias 1: 0.11.1 = 2^2 * 1.5 = 6; 0.00.1 = 0.5; 1.10.0 = -2.
      {P::kF4E2M1FN, 0x7, 6},
      {P::kF4E2M1FN, 0x1, 0.5},
      {P::kF4E2M1FN, 0xc, -2},
      // Bits above the width are ignored: 0xf7 is 0x7.
      {P::kF4E2M1FN, 0xf7, 6},
      // f6e2m3fn, bias 1: 0.11.111 = 2^2 * 1.875 = 7.5.
      {P::kF6E2M3FN, 0x1f, 7.5},
      // f6e3m2fn, bias 3: 0.111.11 = 2^4 * 1.75 = 28.
      {P::kF6E3M2FN, 0x1f, 28},
  };
  for (const Case& c : cases) {
    const std::vector<float> got = Decode(c.type, {c.bits});
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(Bits(got[0]), Bits(c.value))
        << PrimitiveTypeName(c.type) << " 0x" << std::hex << int{c.bits}
        << " -> " << got[0] << ", want " << c.value;
  }
  // NaNs: e4m3fn S.1111.111, e5m2 exponent all ones with a mantissa, the fnuz
  // types' 0x80 ("negative zero"), e8m0fnu 0xff.
  for (auto [type, bits] :
       std::vector<std::pair<P, uint8_t>>{{P::kF8E4M3FN, 0x7f},
                                          {P::kF8E4M3FN, 0xff},
                                          {P::kF8E5M2, 0x7d},
                                          {P::kF8E4M3FNUZ, 0x80},
                                          {P::kF8E5M2FNUZ, 0x80},
                                          {P::kF8E4M3B11FNUZ, 0x80},
                                          {P::kF8E8M0FNU, 0xff}}) {
    const std::vector<float> got = Decode(type, {bits});
    ASSERT_EQ(got.size(), 1u);
    EXPECT_TRUE(std::isnan(got[0])) << PrimitiveTypeName(type);
  }
}

// Every value of the format, the midpoints to its neighbours and the floats
// just beside them, both signs; plus specials and a stride over all floats.
std::vector<float> FloatSweep(P type) {
  std::vector<float> values;
  std::vector<double> sorted;
  for (int i = 0; i < 256; ++i) {
    const double v = MinifloatToDouble(type, static_cast<uint8_t>(i));
    if (std::isfinite(v) && v >= 0) sorted.push_back(v);
  }
  std::sort(sorted.begin(), sorted.end());
  // The first value past the largest: where overflow starts after rounding.
  const double top = sorted.back();
  sorted.push_back(2 * top);
  for (size_t i = 0; i < sorted.size(); ++i) {
    std::vector<double> points = {sorted[i]};
    if (i + 1 < sorted.size())
      points.push_back((sorted[i] + sorted[i + 1]) / 2);
    for (double p : points) {
      const float f = static_cast<float>(p);
      for (float v : {f, std::nextafter(f, 0.0f), std::nextafter(f, 1e30f)}) {
        values.push_back(v);
        values.push_back(-v);
      }
    }
  }
  const float inf = std::numeric_limits<float>::infinity();
  for (float v :
       {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(),
        -std::numeric_limits<float>::quiet_NaN(),
        std::numeric_limits<float>::denorm_min(),
        std::numeric_limits<float>::max(), 1e-30f, -1e-30f}) {
    values.push_back(v);
  }
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 65521) {
    values.push_back(std::bit_cast<float>(static_cast<uint32_t>(bits)));
  }
  return values;
}

TEST(MinifloatConversionTest, EncodeFloatMatchesMinifloatCc) {
  for (P type : kFormats) {
    const std::vector<float> values = FloatSweep(type);
    const MinifloatFormat& f = GetMinifloatFormat(type);
    auto variants = RunVariants<float, uint8_t>(
        Elem::kF32, Elem::kI8,
        [&f](llvm::IRBuilderBase& b, std::span<llvm::Value* const> x) {
          return EmitToMinifloat(b, x[0], f);
        },
        values);
    ASSERT_EQ(variants.size(), 3u);
    for (const std::vector<uint8_t>& got : variants) {
      int failures = 0;
      for (size_t i = 0; i < values.size() && failures < 5; ++i) {
        const uint8_t want = DoubleToMinifloat(type, values[i]);
        if (got[i] == want) continue;
        ++failures;
        ADD_FAILURE() << PrimitiveTypeName(type) << " of " << values[i]
                      << " (0x" << std::hex << Bits(values[i]) << "): got 0x"
                      << int{got[i]} << ", want 0x" << int{want};
      }
    }
  }
}

TEST(MinifloatConversionTest, EncodeDoubleRoundsOnce) {
  for (P type : kFormats) {
    std::vector<double> values;
    for (float v : FloatSweep(type)) {
      const double d = v;
      // Below half a float ulp: a double -> float -> format path would see
      // the exact midpoint and might round the other way.
      values.push_back(d);
      values.push_back(d + std::ldexp(std::fabs(d), -40));
      values.push_back(d - std::ldexp(std::fabs(d), -40));
    }
    const std::vector<uint8_t> got = Encode<double>(type, values);
    ASSERT_EQ(got.size(), values.size());
    int failures = 0;
    for (size_t i = 0; i < values.size() && failures < 5; ++i) {
      const uint8_t want = DoubleToMinifloat(type, values[i]);
      if (got[i] == want) continue;
      ++failures;
      ADD_FAILURE() << PrimitiveTypeName(type) << " of double " << values[i]
                    << ": got 0x" << std::hex << int{got[i]} << ", want 0x"
                    << int{want};
    }
  }
}

// Rounding, overflow and NaN cases worked out by hand.
TEST(MinifloatConversionTest, EncodeHandWorkedPatterns) {
  struct Case {
    P type;
    float value;
    uint8_t bits;
  };
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Case cases[] = {
      // e4m3fn: 464 is halfway between 448 (0x7e, mantissa 110) and 480
      // (0x7f, which is NaN): ties to the even mantissa, 448.
      {P::kF8E4M3FN, 464, 0x7e},
      // 480 rounds to 0x7f, past the largest finite value: NaN (no inf).
      {P::kF8E4M3FN, 480, 0x7f},
      {P::kF8E4M3FN, -inf, 0xff},
      {P::kF8E4M3FN, -0.0f, 0x80},
      // Half the smallest subnormal 2^-9 ties to even: 0; 1.5 * 2^-9 ties
      // between 0x01 and 0x02: 0x02.
      {P::kF8E4M3FN, std::ldexp(1.0f, -10), 0x00},
      {P::kF8E4M3FN, 3 * std::ldexp(1.0f, -10), 0x02},
      // e5m2: 1.125 is halfway between 1 (0x3c) and 1.25 (0x3d): 0x3c;
      // 1.375 between 1.25 (0x3d) and 1.5 (0x3e): 0x3e.
      {P::kF8E5M2, 1.125f, 0x3c},
      {P::kF8E5M2, 1.375f, 0x3e},
      // 61440 is halfway between 57344 (0x7b) and 2^16 (0x7c, inf): even
      // wins, inf. Anything beyond the largest is inf, NaN is 0x7e.
      {P::kF8E5M2, 61440, 0x7c},
      {P::kF8E5M2, 1e10f, 0x7c},
      {P::kF8E5M2, nan, 0x7e},
      // fnuz: no negative zero (-0 and negative underflow are +0), 0x80 is
      // NaN and overflow is NaN. e4m3fnuz's largest is 240 (0x7f).
      {P::kF8E4M3FNUZ, -0.0f, 0x00},
      {P::kF8E4M3FNUZ, -std::ldexp(1.0f, -13), 0x00},
      {P::kF8E4M3FNUZ, 1000, 0x80},
      {P::kF8E4M3FNUZ, nan, 0x80},
      // e8m0fnu: 3 is halfway between 2 (0x80) and 4 (0x81); ties round up.
      // 2.9 -> 2; negative values are NaN (0xff); 0 -> 2^-127 (0x00).
      {P::kF8E8M0FNU, 3, 0x81},
      {P::kF8E8M0FNU, 2.9f, 0x80},
      {P::kF8E8M0FNU, -1, 0xff},
      {P::kF8E8M0FNU, 0, 0x00},
      // f4e2m1fn: 5 is halfway between 4 (0x6) and 6 (0x7): 0x6. No inf or
      // NaN: beyond 6 saturates (0x7 / 0xf), NaN becomes +0.
      {P::kF4E2M1FN, 5, 0x6},
      {P::kF4E2M1FN, 100, 0x7},
      {P::kF4E2M1FN, -inf, 0xf},
      {P::kF4E2M1FN, nan, 0x0},
  };
  for (const Case& c : cases) {
    const std::vector<uint8_t> got = Encode<float>(c.type, {c.value});
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(int{got[0]}, int{c.bits})
        << PrimitiveTypeName(c.type) << " of " << c.value;
  }
}

}  // namespace
}  // namespace aotc::codegen::math_test
