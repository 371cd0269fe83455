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
    if (std::isfinite(xs[i]) && std::fabs(xs[i]) >= c.accurate_below) {
      bool ok =
          !std::isnan(got[i]) && (!c.unit_range || std::fabs(got[i]) <= 1);
      if (!ok) {
        Note(
            w, std::numeric_limits<double>::infinity(),
            [&] { return "out-of-range x=" + Hex(xs[i]); }, got[i], 0);
      }
      continue;
    }
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
