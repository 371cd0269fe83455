// The running example, mean(x**2 * 3 + y) over two f32[4096,4096], five ways
// on the same inputs:
//
//   running_example/aotc_fused     samples/running_example.hlo, default flags
//   running_example/aotc_unfused   the same model compiled with --no-fusion
//   running_example/eigen_tensor   Eigen Tensor: (x.square() * 3 + y).sum() / n
//   running_example/hand_loop      a hand-written fused C++ loop
//   running_example/roofline       a loop that only sums x and y: the reads any
//                                  implementation must do, and nothing else
//
// Each iteration reads 2 x 64 MiB, which SetBytes reports. Before timing,
// every variant's result is checked against the mean computed in double
// (relative kScalarRelTolerance; the roofline against sum(x) + sum(y)).
#include <cmath>
#include <cstdint>

#include "bench_util.h"
#include "eigen_device.h"
#include "running_example_fused.h"
#include "running_example_unfused.h"

namespace aotc::bench {
namespace {

constexpr int64_t kRows = 4096;
constexpr int64_t kCols = 4096;
constexpr int64_t kElements = kRows * kCols;
constexpr int64_t kBytesRead = 2 * kElements * int64_t{sizeof(float)};
// Rows per chunk of the hand-written loops: 64 rows = 2 MiB of input.
constexpr int64_t kMinRows = 64;

static_assert(RUNNING_EXAMPLE_FUSED_X_ELEMENTS == kElements &&
                  RUNNING_EXAMPLE_UNFUSED_Y_ELEMENTS == kElements,
              "running_example.hlo is not over f32[4096,4096]");

struct Inputs {
  AlignedFloats x;
  AlignedFloats y;
  double mean = 0;      // the exact answer, in double
  double plain_sum = 0; // sum(x) + sum(y), what the roofline computes
  double abs_sum = 0;   // sum(|x| + |y|), the scale of the roofline's error
};

const Inputs& Data() {
  static const Inputs inputs = [] {
    Inputs in;
    in.x = UniformFloats(kElements, 1, -1.0f, 1.0f);
    in.y = UniformFloats(kElements, 2, -1.0f, 1.0f);
    double sum = 0;
    for (int64_t i = 0; i < kElements; ++i) {
      double x = in.x[i];
      double y = in.y[i];
      sum += x * x * 3.0 + y;
      in.plain_sum += x + y;
      in.abs_sum += std::abs(x) + std::abs(y);
    }
    in.mean = sum / kElements;
    return in;
  }();
  return inputs;
}

// The per-row kernels keep 32 independent partial sums, which the compiler
// holds in vector registers; a single running sum would be bound by the
// latency of one add and drift by about 1% over 16.7 million terms.
constexpr int kLanes = 32;
static_assert(kCols % kLanes == 0);

float FusedRowSum(const float* x, const float* y) {
  float acc[kLanes] = {};
  for (int64_t i = 0; i < kCols; i += kLanes) {
    for (int k = 0; k < kLanes; ++k) {
      acc[k] += x[i + k] * x[i + k] * 3.0f + y[i + k];
    }
  }
  float total = 0;
  for (float a : acc) total += a;
  return total;
}

float ReadOnlyRowSum(const float* x, const float* y) {
  float acc[kLanes] = {};
  for (int64_t i = 0; i < kCols; i += kLanes) {
    for (int k = 0; k < kLanes; ++k) acc[k] += x[i + k] + y[i + k];
  }
  float total = 0;
  for (float a : acc) total += a;
  return total;
}

// Sums row_sum(x row, y row) over all rows, rows spread over the threads;
// each row's f32 sum is added in double.
template <float (*RowSum)(const float*, const float*)>
double SumRows(const Inputs& in, std::vector<double>& row_sums) {
  ParallelFor(kRows, kMinRows, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      row_sums[r] = RowSum(in.x.data() + r * kCols, in.y.data() + r * kCols);
    }
  });
  double total = 0;
  for (double s : row_sums) total += s;
  return total;
}

using RunFn = int (*)(const float*, const float*, float*, void*);

void Compiled(benchmark::State& state, const char* name, RunFn run,
              size_t temp_bytes) {
  UseThreads(state);
  const Inputs& in = Data();
  auto temp = AllocateTemp(temp_bytes);
  float result = 0;
  if (SkipOnStatus(state, name, run(in.x.data(), in.y.data(), &result,
                                    temp.get()))) {
    return;
  }
  if (SkipOnError(state, CheckScalar(name, result, in.mean))) return;
  for (auto _ : state) {
    run(in.x.data(), in.y.data(), &result, temp.get());
    benchmark::DoNotOptimize(result);
  }
  SetBytes(state, kBytesRead);
}

void EigenTensor(benchmark::State& state) {
  UseThreads(state);
  const Inputs& in = Data();
  using Matrix = Eigen::TensorMap<
      const Eigen::Tensor<const float, 2, Eigen::RowMajor, Eigen::Index>>;
  Matrix x(in.x.data(), kRows, kCols);
  Matrix y(in.y.data(), kRows, kCols);
  Eigen::Tensor<float, 0, Eigen::RowMajor> sum;
  // sum() / n rather than mean(): Eigen sums with a tree of partial sums,
  // while its mean reducer keeps one running sum per vector lane.
  auto expression = (x.square() * 3.0f + y).sum();
  EigenAssign(sum, expression);
  if (SkipOnError(state, CheckScalar("eigen_tensor",
                                     sum() / float{kElements}, in.mean))) {
    return;
  }
  for (auto _ : state) {
    EigenAssign(sum, expression);
    float mean = sum() / float{kElements};
    benchmark::DoNotOptimize(mean);
  }
  SetBytes(state, kBytesRead);
}

void HandLoop(benchmark::State& state) {
  UseThreads(state);
  const Inputs& in = Data();
  std::vector<double> row_sums(kRows);
  float mean = static_cast<float>(SumRows<FusedRowSum>(in, row_sums) /
                                  kElements);
  if (SkipOnError(state, CheckScalar("hand_loop", mean, in.mean))) return;
  for (auto _ : state) {
    mean = static_cast<float>(SumRows<FusedRowSum>(in, row_sums) / kElements);
    benchmark::DoNotOptimize(mean);
  }
  SetBytes(state, kBytesRead);
}

void Roofline(benchmark::State& state) {
  UseThreads(state);
  const Inputs& in = Data();
  std::vector<double> row_sums(kRows);
  // sum(x) + sum(y) is near 0, so its error is measured against the sum of
  // the magnitudes instead.
  double got = SumRows<ReadOnlyRowSum>(in, row_sums);
  double error = std::abs(got - in.plain_sum) / in.abs_sum;
  if (!(error <= kScalarRelTolerance)) {
    state.SkipWithError("roofline: sum(x) + sum(y) is off");
    return;
  }
  for (auto _ : state) {
    got = SumRows<ReadOnlyRowSum>(in, row_sums);
    benchmark::DoNotOptimize(got);
  }
  SetBytes(state, kBytesRead);
}

[[maybe_unused]] const bool registered = [] {
  Register("running_example/aotc_fused", [](benchmark::State& state) {
    Compiled(state, "running_example_fused", &running_example_fused_run,
             RUNNING_EXAMPLE_FUSED_TEMP_BYTES);
  });
  Register("running_example/aotc_unfused", [](benchmark::State& state) {
    Compiled(state, "running_example_unfused", &running_example_unfused_run,
             RUNNING_EXAMPLE_UNFUSED_TEMP_BYTES);
  });
  Register("running_example/eigen_tensor", &EigenTensor);
  Register("running_example/hand_loop", &HandLoop);
  Register("running_example/roofline", &Roofline);
  return true;
}();

}  // namespace
}  // namespace aotc::bench
