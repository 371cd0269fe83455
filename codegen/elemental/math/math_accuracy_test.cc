// Accuracy sweeps: every math emitter against libm in higher precision.
//
// Each case compiles its f32 and f64 kernels (O2, so the loop vectorizer
// runs), evaluates them over the case's samples and asserts the largest ulp
// error found. The host run uses ~3M f32 and ~0.6M f64 samples per function;
// the baseline x86-64 run (no FMA, no SSE4.1) repeats it on a sixteenth of
// them. Running the binary prints the table that docs/math.md shows:
//   codegen_math_test --gtest_filter='*Accuracy*'
#include <cstdio>
#include <iomanip>
#include <map>
#include <span>
#include <sstream>
#include <string>

#include "codegen/elemental/math/math_test_cases.h"
#include "codegen/elemental/math/math_test_jit.h"
#include "codegen/elemental/math/math_test_util.h"
#include "gtest/gtest.h"

namespace aotc::codegen::math_test {
namespace {

// Largest errors seen per function and width, printed when the run ends.
std::map<std::string, std::pair<double, double>>& Table() {
  static std::map<std::string, std::pair<double, double>> table;
  return table;
}

class TablePrinter : public ::testing::Environment {
 public:
  void TearDown() override {
    if (Table().empty()) return;
    std::printf(
        "\n| function | f32 max ulp | f64 max ulp |\n| --- | --- | --- |\n");
    for (const auto& [name, errs] : Table()) {
      std::printf("| %s | %.2f | %.2f |\n", name.c_str(), errs.first,
                  errs.second);
    }
  }
};

const ::testing::Environment* const kPrinter =
    ::testing::AddGlobalTestEnvironment(new TablePrinter);

void Record(const std::string& name, double e32, double e64) {
  auto& row = Table()[name];
  row.first = std::max(row.first, e32);
  row.second = std::max(row.second, e64);
}

template <typename T>
struct Worst {
  double ulp = 0;
  std::string where;
};

template <typename T>
std::string Hex(T v) {
  std::ostringstream os;
  os << std::hexfloat << v;
  return os.str();
}

// Keeps the largest error; `describe` runs only for a new maximum.
template <typename T, typename Describe>
void Note(Worst<T>& w, double ulp, Describe describe, T got, long double want) {
  if (!(ulp > w.ulp)) return;
  std::ostringstream os;
  os << describe() << " -> " << Hex(got) << ", want " << std::setprecision(21)
     << want;
  w.ulp = ulp;
  w.where = os.str();
}

// Samples for one unary case at width T; `scale` divides the counts.
template <typename T>
std::vector<T> UnarySamples(const UnaryCase& c, int scale) {
  bool f64 = sizeof(T) == 8;
  std::vector<T> xs = StrideSamples<T>((f64 ? 1 << 17 : 1 << 20) / scale);
  size_t per_range = (f64 ? 1 << 16 : 1 << 18) / scale;
  uint64_t seed = 1;
  for (const Range& r : c.ranges) {
    std::vector<T> more = r.log
                              ? LogSamples<T>(r.lo, r.hi, per_range, seed)
                              : UniformSamples<T>(r.lo, r.hi, per_range, seed);
    xs.insert(xs.end(), more.begin(), more.end());
    ++seed;
  }
  std::vector<T> edges = EdgeValues<T>();
  xs.insert(xs.end(), edges.begin(), edges.end());
  std::vector<T> quarters = QuarterSteps<T>(100);
  xs.insert(xs.end(), quarters.begin(), quarters.end());
  return xs;
}

long double Reference(const UnaryCase& c, float x) { return c.ref32(x); }
long double Reference(const UnaryCase& c, double x) { return c.ref64(x); }
long double Reference(const BinaryCase& c, float a, float b) {
  return c.ref32(a, b);
}
long double Reference(const BinaryCase& c, double a, double b) {
  return c.ref64(a, b);
}

template <typename T>
Worst<T> MeasureUnary(const UnaryCase& c, void* fn, int scale) {
  std::vector<T> xs = UnarySamples<T>(c, scale);
  std::vector<T> got = RunKernel<T, T>(fn, xs);
  Worst<T> w;
  for (size_t i = 0; i < xs.size(); ++i) {
    long double want = Reference(c, xs[i]);
    Note(
        w, UlpError(got[i], want), [&] { return "x=" + Hex(xs[i]); }, got[i],
        want);
  }
  return w;
}

// pow and atan2 pairs: typical magnitudes, results near the range ends,
// integer exponents for negative bases, and random bit patterns.
template <typename T>
void BinarySamples(const BinaryCase& c, int scale, std::vector<T>* a,
                   std::vector<T>* b) {
  bool f64 = sizeof(T) == 8;
  size_t n = (f64 ? 1 << 15 : 1 << 17) / scale;
  auto add = [&](const std::vector<T>& xs, const std::vector<T>& ys) {
    a->insert(a->end(), xs.begin(), xs.end());
    b->insert(b->end(), ys.begin(), ys.end());
  };
  std::vector<T> stride = StrideSamples<T>(4 * n);
  std::vector<T> shuffled = stride;
  std::mt19937_64 rng(7);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  add(stride, shuffled);
  if (std::string(c.name) == "pow") {
    add(LogSamples<T>(1e-3, 1e3, n, 1), UniformSamples<T>(-30, 30, n, 2));
    std::vector<T> ints = UniformSamples<T>(-40, 40, n, 3);
    for (T& y : ints) y = std::nearbyint(y);
    add(LogSamples<T>(1e-2, 1e2, n, 4), ints);
    add(UniformSamples<T>(0.999, 1.001, n, 5),
        UniformSamples<T>(-1e5, 1e5, n, 6));
    double big = f64 ? 1100 : 160;
    add(UniformSamples<T>(0, 3, n, 7), UniformSamples<T>(-big, big, n, 8));
    add(LogSamples<T>(1e-30, 1e30, n, 9), UniformSamples<T>(-1, 1, n, 10));
  } else {
    add(LogSamples<T>(1e-5, 1e5, n, 1), LogSamples<T>(1e-5, 1e5, n, 2));
    std::vector<T> xs = LogSamples<T>(1e-3, 1e3, n, 3);
    std::vector<T> ys = xs;
    std::vector<T> wiggle = UniformSamples<T>(0.5, 2, n, 4);
    for (size_t i = 0; i < n; ++i) ys[i] = xs[i] * wiggle[i];
    add(ys, xs);
    add(LogSamples<T>(1e-40, 1e40, n, 5), LogSamples<T>(1e-40, 1e40, n, 6));
  }
  std::vector<T> edges = EdgeValues<T>();
  for (T x : edges) {
    for (T y : edges) add({x}, {y});
  }
}

template <typename T>
Worst<T> MeasureBinary(const BinaryCase& c, void* fn, int scale) {
  std::vector<T> a, b;
  BinarySamples<T>(c, scale, &a, &b);
  std::vector<T> got = RunKernel2<T>(fn, a, b);
  Worst<T> w;
  for (size_t i = 0; i < a.size(); ++i) {
    long double want = Reference(c, a[i], b[i]);
    Note(
        w, UlpError(got[i], want),
        [&] { return "args=" + Hex(a[i]) + ", " + Hex(b[i]); }, got[i], want);
  }
  return w;
}

KernelSpec UnarySpec(const UnaryCase& c, Elem e) {
  return {KernelName(c.name),
          {e},
          e,
          1,
          [&c](llvm::IRBuilderBase& b, std::span<llvm::Value* const> v) {
            return c.emit(b, v[0]);
          }};
}

KernelSpec BinarySpec(const BinaryCase& c, Elem e) {
  return {KernelName(c.name),
          {e, e},
          e,
          1,
          [&c](llvm::IRBuilderBase& b, std::span<llvm::Value* const> v) {
            return c.emit(b, v[0], v[1]);
          }};
}

// sin, cos and tan at the ends of the range and at the hardest arguments
// for the reduction, against values from mpmath at 2400 bits (f64 results as
// hi + lo). The f32 argument closest to a multiple of pi/2 is 16367173 *
// 2^72 (r = 1.6e-9; found by scanning every float >= 2^23) and the f64 one
// 6381956970095103 * 2^797 (r = 4.7e-19). Generated by:
//   mp.mp.prec = 2400
//   for x in args: v = mp.sin(mp.mpf(x))   # and mp.cos, mp.tan
//   print(x.hex(), float(v).hex(), float(v - float(v)).hex())
struct Trig32 {
  float x;
  double want;
};
struct Trig64 {
  double x;
  double hi;
  double lo;
};

// clang-format off
const Trig32 kSin32[] = {
    {0x1.2a05f20000000p+33f, -0x1.f334c7896a4e3p-2},
    {0x1.5af1d80000000p+66f, 0x1.502ad17d67516p-1},
    {0x1.2eec2e0000000p+101f, -0x1.ecd5b77ce6539p-1},
    {0x1.08b2a20000000p+83f, -0x1.9f9964152e40ep-2},
    {0x1.59206c0000000p+112f, -0x1.79754254397d7p-1},
    {0x1.0000000000000p+60f, -0x1.a94adab06665cp-1},
    {0x1.fffffe0000000p+127f, -0x1.0b33665089575p-1},
    {-0x1.fffffe0000000p+127f, 0x1.0b33665089575p-1},
    {0x1.f37c8a0000000p+95f, 0x1.0000000000000p+0},
    {-0x1.f37c8a0000000p+95f, -0x1.0000000000000p+0},
    {0x1.0000000000000p+23f, 0x1.ba9f45d1ca7c5p-2},
    {0x1.fffffe0000000p+22f, 0x1.9f919943e1642p-1},
    {0x1.0000020000000p+23f, -0x1.0cee506ee9ba3p-1},
    {0x1.0000000000000p-149f, 0x1.0000000000000p-149},
    {0x1.0000000000000p-130f, 0x1.0000000000000p-130},
    {0x1.8000000000000p+127f, 0x1.b177e13fc3f5cp-1},
};
const Trig64 kSin64[] = {
    {0x1.2a05f20000000p+33, -0x1.f334c7896a4e3p-2, -0x1.332cd01b7d484p-56},
    {0x1.5af1d78b58c40p+66, -0x1.4a5e605fd6450p-1, -0x1.cee0e2466719bp-55},
    {0x1.2eec2eb3869afp+101, 0x1.41f2771511615p-3, -0x1.98a37c372b766p-57},
    {0x1.08b2a2c280291p+83, -0x1.38958031b7978p-2, -0x1.4aa9cbf18987ep-59},
    {0x1.59206bdfdf069p+112, -0x1.fe6550e497ae5p-1, -0x1.5db9259cd09cdp-55},
    {0x1.0000000000000p+60, -0x1.a94adab06665cp-1, -0x1.4031e5f71e2bbp-56},
    {0x1.249ad2594c37dp+332, -0x1.85c5e5b929359p-2, 0x1.d798cb7be01afp-57},
    {0x1.7e43c8800759cp+996, -0x1.a2c16b010e385p-1, -0x1.b900a1f54ecd2p-55},
    {0x1.fffffffffffffp+1023, 0x1.452fc98b34e97p-8, -0x1.27bb193d960dfp-62},
    {-0x1.fffffffffffffp+1023, -0x1.452fc98b34e97p-8, 0x1.27bb193d960dfp-62},
    {0x1.6ac5b262ca1ffp+849, 0x1.0000000000000p+0, -0x1.2b089ea1e692bp-123},
    {-0x1.6ac5b262ca1ffp+849, -0x1.0000000000000p+0, 0x1.2b089ea1e692bp-123},
    {0x1.fffffe0000000p+127, -0x1.0b33665089575p-1, -0x1.06cee446be04ap-56},
    {0x1.0000000000000p+23, 0x1.ba9f45d1ca7c5p-2, -0x1.5bf61a9a6b185p-56},
    {0x1.0000000000000p+1023, 0x1.205248cbdb760p-1, -0x1.a5a336baf7435p-57},
    {0x0.0000000000001p-1022, 0x0.0000000000001p-1022, -0x0.0p+0},
    {0x0.0100000000000p-1022, 0x0.0100000000000p-1022, -0x0.0p+0},
    {0x1.0f0cf064dd592p+73, -0x1.b453ab76bf397p-1, -0x1.f453790772648p-58},
    {0x1.fffffe0000000p+22, 0x1.9f919943e1642p-1, -0x1.1d3d259176cbfp-55},
};
const Trig32 kCos32[] = {
    {0x1.2a05f20000000p+33f, 0x1.bf098901c931ap-1},
    {0x1.5af1d80000000p+66f, 0x1.822e45d2fb241p-1},
    {0x1.2eec2e0000000p+101f, -0x1.158b8fc4501ecp-2},
    {0x1.08b2a20000000p+83f, 0x1.d3ef67bf3f85cp-1},
    {0x1.59206c0000000p+112f, 0x1.59eec4b974aecp-1},
    {0x1.0000000000000p+60f, -0x1.1d146047d6947p-1},
    {0x1.fffffe0000000p+127f, 0x1.b4bf2c79bdfcep-1},
    {-0x1.fffffe0000000p+127f, 0x1.b4bf2c79bdfcep-1},
    {0x1.f37c8a0000000p+95f, -0x1.bbdd52a58eafbp-30},
    {-0x1.f37c8a0000000p+95f, -0x1.bbdd52a58eafbp-30},
    {0x1.0000000000000p+23f, -0x1.cdb2c9e19e37fp-1},
    {0x1.fffffe0000000p+22f, -0x1.2b1386c2356f5p-1},
    {0x1.0000020000000p+23f, -0x1.b3aefdaedf0d7p-1},
    {0x1.0000000000000p-149f, 0x1.0000000000000p+0},
    {0x1.0000000000000p-130f, 0x1.0000000000000p+0},
    {0x1.8000000000000p+127f, 0x1.107cb62e2be26p-1},
};
const Trig64 kCos64[] = {
    {0x1.2a05f20000000p+33, 0x1.bf098901c931ap-1, -0x1.f366020f3b0f5p-55},
    {0x1.5af1d78b58c40p+66, 0x1.872720fc60d3dp-1, 0x1.912a503b21538p-55},
    {0x1.2eec2eb3869afp+101, -0x1.f9a256a1a4834p-1, 0x1.ce7021b0e80ddp-63},
    {0x1.08b2a2c280291p+83, 0x1.e78fe68c89fadp-1, 0x1.1e4e016eb3200p-55},
    {0x1.59206bdfdf069p+112, -0x1.43fdc98035b16p-4, 0x1.560bcb2f04923p-58},
    {0x1.0000000000000p+60, -0x1.1d146047d6947p-1, -0x1.bdba6cc761d14p-56},
    {0x1.249ad2594c37dp+332, 0x1.d9757496841f5p-1, 0x1.33eb4677577a7p-56},
    {0x1.7e43c8800759cp+996, -0x1.2699022adc4c1p-1, 0x1.edd5594b5c574p-56},
    {0x1.fffffffffffffp+1023, -0x1.fffe62ecfab75p-1, -0x1.e038d934070f1p-56},
    {-0x1.fffffffffffffp+1023, -0x1.fffe62ecfab75p-1, -0x1.e038d934070f1p-56},
    {0x1.6ac5b262ca1ffp+849, -0x1.14ae72e6ba22fp-61, 0x1.73eef1477d90ep-118},
    {-0x1.6ac5b262ca1ffp+849, -0x1.14ae72e6ba22fp-61, 0x1.73eef1477d90ep-118},
    {0x1.fffffe0000000p+127, 0x1.b4bf2c79bdfcep-1, -0x1.56b04a4ffb027p-55},
    {0x1.0000000000000p+23, -0x1.cdb2c9e19e37fp-1, -0x1.5f6ec47810e6cp-55},
    {0x1.0000000000000p+1023, -0x1.a719f26c232bfp-1, 0x1.7a77829eb1138p-55},
    {0x0.0000000000001p-1022, 0x1.0000000000000p+0, -0x0.0p+0},
    {0x0.0100000000000p-1022, 0x1.0000000000000p+0, -0x0.0p+0},
    {0x1.0f0cf064dd592p+73, 0x1.0be2cef01c8f4p-1, -0x1.b2d1bc8018c4fp-55},
    {0x1.fffffe0000000p+22, -0x1.2b1386c2356f5p-1, -0x1.a0c3d4d521661p-55},
};
const Trig32 kTan32[] = {
    {0x1.2a05f20000000p+33f, -0x1.1de000f443f50p-1},
    {0x1.5af1d80000000p+66f, 0x1.bdb120e3606b4p-1},
    {0x1.2eec2e0000000p+101f, 0x1.c693c6aadfcddp+1},
    {0x1.08b2a20000000p+83f, -0x1.c6bc5012b49efp-2},
    {0x1.59206c0000000p+112f, -0x1.175464560e5e2p+0},
    {0x1.0000000000000p+60f, 0x1.7de90e3bee983p+0},
    {0x1.fffffe0000000p+127f, -0x1.393d94b4988c2p-1},
    {-0x1.fffffe0000000p+127f, 0x1.393d94b4988c2p-1},
    {0x1.f37c8a0000000p+95f, -0x1.274c1bb79adb7p+29},
    {-0x1.f37c8a0000000p+95f, 0x1.274c1bb79adb7p+29},
    {0x1.0000000000000p+23f, -0x1.ead86dfe19bcap-2},
    {0x1.fffffe0000000p+22f, -0x1.63b6c474405e4p+0},
    {0x1.0000020000000p+23f, 0x1.3c09c4970d3d6p-1},
    {0x1.0000000000000p-149f, 0x1.0000000000000p-149},
    {0x1.0000000000000p-130f, 0x1.0000000000000p-130},
    {0x1.8000000000000p+127f, 0x1.973da35f66526p+0},
};
const Trig64 kTan64[] = {
    {0x1.2a05f20000000p+33, -0x1.1de000f443f50p-1, -0x1.78d18e96fadecp-55},
    {0x1.5af1d78b58c40p+66, -0x1.b06fbbe995394p-1, 0x1.293c2ff555386p-55},
    {0x1.2eec2eb3869afp+101, -0x1.46001a3fb1f85p-3, -0x1.10d29ab81c5adp-59},
    {0x1.08b2a2c280291p+83, -0x1.4840633f93616p-2, 0x1.39d255702d77fp-56},
    {0x1.59206bdfdf069p+112, 0x1.93495337538d3p+3, 0x1.281d8207b8b4ep-55},
    {0x1.0000000000000p+60, 0x1.7de90e3bee983p+0, -0x1.b8d38c7f04215p-55},
    {0x1.249ad2594c37dp+332, -0x1.a5807d6f76f7dp-2, -0x1.9a0eea6af1a26p-57},
    {0x1.7e43c8800759cp+996, 0x1.6be411f37ac77p+0, -0x1.5a67ce3109efbp-54},
    {0x1.fffffffffffffp+1023, -0x1.4530cfe729484p-8, 0x1.1c97823bf87a5p-62},
    {-0x1.fffffffffffffp+1023, 0x1.4530cfe729484p-8, -0x1.1c97823bf87a5p-62},
    {0x1.6ac5b262ca1ffp+849, -0x1.d9ba9a7975636p+60, 0x1.714cf36c65449p+6},
    {-0x1.6ac5b262ca1ffp+849, 0x1.d9ba9a7975636p+60, -0x1.714cf36c65449p+6},
    {0x1.fffffe0000000p+127, -0x1.393d94b4988c2p-1, 0x1.b579746c104c3p-58},
    {0x1.0000000000000p+23, -0x1.ead86dfe19bcap-2, 0x1.5abad357a0073p-56},
    {0x1.0000000000000p+1023, -0x1.5ce6b4c0d02a3p-1, -0x1.4efc20fe21559p-55},
    {0x0.0000000000001p-1022, 0x0.0000000000001p-1022, 0x0.0p+0},
    {0x0.0100000000000p-1022, 0x0.0100000000000p-1022, 0x0.0p+0},
    {0x1.0f0cf064dd592p+73, -0x1.a0f79c1b6b257p+0, -0x1.d27810f5737ddp-54},
    {0x1.fffffe0000000p+22, -0x1.63b6c474405e4p+0, 0x1.1873e7ac0d45fp-54},
};
// clang-format on

// The bounds of docs/math.md's table, which must hold at these arguments.
struct TrigExtremes {
  const char* name;
  std::span<const Trig32> f32;
  std::span<const Trig64> f64;
  double bound32;
  double bound64;
};

void CheckTrigExtremes(const TrigExtremes& t, unsigned width) {
  const UnaryCase* c = nullptr;
  for (const UnaryCase& u : UnaryCases()) {
    if (std::string(u.name) == t.name) c = &u;
  }
  ASSERT_NE(c, nullptr);
  auto spec = [&](Elem e) {
    KernelSpec s = UnarySpec(*c, e);
    s.width = width;
    return s;
  };
  std::vector<void*> fns =
      CompileKernels(Target::kHost, {spec(Elem::kF32), spec(Elem::kF64)});
  ASSERT_EQ(fns.size(), 2u);
  // Each argument twice, so that vectorized loops and their scalar
  // remainders both see it.
  std::vector<float> x32;
  for (int k = 0; k < 2; ++k) {
    for (const Trig32& r : t.f32) x32.push_back(r.x);
  }
  std::vector<float> got32 = RunKernel<float, float>(fns[0], x32, width);
  for (size_t i = 0; i < x32.size(); ++i) {
    const Trig32& r = t.f32[i % t.f32.size()];
    EXPECT_LE(UlpError(got32[i], r.want), t.bound32)
        << t.name << "(" << Hex(r.x) << ") = " << Hex(got32[i]) << " width "
        << width;
  }
  std::vector<double> x64;
  for (int k = 0; k < 2; ++k) {
    for (const Trig64& r : t.f64) x64.push_back(r.x);
  }
  std::vector<double> got64 = RunKernel<double, double>(fns[1], x64, width);
  for (size_t i = 0; i < x64.size(); ++i) {
    const Trig64& r = t.f64[i % t.f64.size()];
    long double want = static_cast<long double>(r.hi) + r.lo;
    EXPECT_LE(UlpError(got64[i], want), t.bound64)
        << t.name << "(" << Hex(r.x) << ") = " << Hex(got64[i]) << " width "
        << width;
  }
}

TEST(TrigAccuracy, ExtremeArguments) {
  const TrigExtremes cases[] = {
      {"sin", kSin32, kSin64, 0.6, 0.77},
      {"cos", kCos32, kCos64, 0.6, 0.77},
      {"tan", kTan32, kTan64, 0.64, 2.05},
  };
  for (const TrigExtremes& t : cases) {
    for (unsigned width : {1u, 4u}) CheckTrigExtremes(t, width);
  }
}

struct Run {
  Target target;
  int scale;
};

void CheckUnary(const UnaryCase& c, Run run) {
  std::vector<void*> fns = CompileKernels(
      run.target, {UnarySpec(c, Elem::kF32), UnarySpec(c, Elem::kF64)});
  ASSERT_EQ(fns.size(), 2u);
  Worst<float> w32 = MeasureUnary<float>(c, fns[0], run.scale);
  Worst<double> w64 = MeasureUnary<double>(c, fns[1], run.scale);
  EXPECT_LE(w32.ulp, c.bound32) << c.name << " f32 at " << w32.where;
  EXPECT_LE(w64.ulp, c.bound64) << c.name << " f64 at " << w64.where;
  if (run.target == Target::kHost) Record(c.name, w32.ulp, w64.ulp);
  std::printf("%-16s f32 %6.3f ulp (%s)\n%-16s f64 %6.3f ulp (%s)\n", c.name,
              w32.ulp, w32.where.c_str(), "", w64.ulp, w64.where.c_str());
}

void CheckBinary(const BinaryCase& c, Run run) {
  std::vector<void*> fns = CompileKernels(
      run.target, {BinarySpec(c, Elem::kF32), BinarySpec(c, Elem::kF64)});
  ASSERT_EQ(fns.size(), 2u);
  Worst<float> w32 = MeasureBinary<float>(c, fns[0], run.scale);
  Worst<double> w64 = MeasureBinary<double>(c, fns[1], run.scale);
  EXPECT_LE(w32.ulp, c.bound32) << c.name << " f32 at " << w32.where;
  EXPECT_LE(w64.ulp, c.bound64) << c.name << " f64 at " << w64.where;
  if (run.target == Target::kHost) Record(c.name, w32.ulp, w64.ulp);
  std::printf("%-16s f32 %6.3f ulp (%s)\n%-16s f64 %6.3f ulp (%s)\n", c.name,
              w32.ulp, w32.where.c_str(), "", w64.ulp, w64.where.c_str());
}

class UnaryAccuracy : public ::testing::TestWithParam<UnaryCase> {};
class BinaryAccuracy : public ::testing::TestWithParam<BinaryCase> {};

TEST_P(UnaryAccuracy, HostWithinBound) {
  CheckUnary(GetParam(), {Target::kHost, 1});
}

TEST_P(UnaryAccuracy, BaselineX86WithinBound) {
  CheckUnary(GetParam(), {Target::kBaseline, 16});
}

TEST_P(BinaryAccuracy, HostWithinBound) {
  CheckBinary(GetParam(), {Target::kHost, 1});
}

TEST_P(BinaryAccuracy, BaselineX86WithinBound) {
  CheckBinary(GetParam(), {Target::kBaseline, 16});
}

INSTANTIATE_TEST_SUITE_P(Math, UnaryAccuracy, ::testing::ValuesIn(UnaryCases()),
                         [](const auto& info) {
                           return std::string(info.param.name);
                         });
INSTANTIATE_TEST_SUITE_P(Math, BinaryAccuracy,
                         ::testing::ValuesIn(BinaryCases()),
                         [](const auto& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace aotc::codegen::math_test
