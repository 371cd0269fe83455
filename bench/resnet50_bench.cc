// ResNet-50 end to end: the corpus module resnet50_keras_jax_f32_1.hlo
// (Keras through JAX, NHWC, batch 1, f32) compiled as it is, every weight
// and batch-norm statistic a parameter:
//
//   resnet50/aotc       one image through the network; the time per
//                       iteration is the milliseconds per image
//
// Inputs, seeded: each convolution kernel (rank 4, HWIO) and the dense
// layer's matrix uniform in +-sqrt(3 / fan_in), so that activations keep
// their scale through the fifty layers; every vector (biases, batch-norm
// scales, offsets, means and variances) uniform in [0.5, 1.5), so the
// variances are positive; the image (the last argument) uniform in [0, 1).
// The network ends in a softmax: before timing, its 1000 outputs must be
// finite, non-negative, sum to 1 within 1e-4, and match the reference
// evaluator's (oracle mode, evaluated once per process on the same inputs:
// about 40 s of one core) within its error budget (tools/compare.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_util.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/load_module.h"
#include "resnet50.h"
#include "tools/compare.h"

namespace aotc::bench {
namespace {

// The generated header describes argument i with RESNET50_ARGi_* macros;
// these list them for i = 0 .. 320.
#define AOTC_R50_DIMS(i) std::vector<int64_t> RESNET50_ARG##i##_DIMS,
#define AOTC_R50_TEN(d)                                                   \
  AOTC_R50_DIMS(d##0) AOTC_R50_DIMS(d##1) AOTC_R50_DIMS(d##2)             \
  AOTC_R50_DIMS(d##3) AOTC_R50_DIMS(d##4) AOTC_R50_DIMS(d##5)             \
  AOTC_R50_DIMS(d##6) AOTC_R50_DIMS(d##7) AOTC_R50_DIMS(d##8)             \
  AOTC_R50_DIMS(d##9)

const std::vector<std::vector<int64_t>>& ArgDims() {
  static const auto* dims = new std::vector<std::vector<int64_t>>{
      AOTC_R50_TEN() AOTC_R50_TEN(1) AOTC_R50_TEN(2) AOTC_R50_TEN(3)
      AOTC_R50_TEN(4) AOTC_R50_TEN(5) AOTC_R50_TEN(6) AOTC_R50_TEN(7)
      AOTC_R50_TEN(8) AOTC_R50_TEN(9) AOTC_R50_TEN(10) AOTC_R50_TEN(11)
      AOTC_R50_TEN(12) AOTC_R50_TEN(13) AOTC_R50_TEN(14) AOTC_R50_TEN(15)
      AOTC_R50_TEN(16) AOTC_R50_TEN(17) AOTC_R50_TEN(18) AOTC_R50_TEN(19)
      AOTC_R50_TEN(20) AOTC_R50_TEN(21) AOTC_R50_TEN(22) AOTC_R50_TEN(23)
      AOTC_R50_TEN(24) AOTC_R50_TEN(25) AOTC_R50_TEN(26) AOTC_R50_TEN(27)
      AOTC_R50_TEN(28) AOTC_R50_TEN(29) AOTC_R50_TEN(30) AOTC_R50_TEN(31)
      AOTC_R50_DIMS(320)};
  return *dims;
}

#undef AOTC_R50_TEN
#undef AOTC_R50_DIMS

// The arguments (see above), made once.
const std::vector<AlignedFloats>& Args() {
  static const auto* args = [] {
    auto* a = new std::vector<AlignedFloats>;
    const std::vector<std::vector<int64_t>>& dims = ArgDims();
    for (size_t i = 0; i < dims.size(); ++i) {
      int64_t count = 1;
      for (int64_t d : dims[i]) count *= d;
      const uint64_t seed = 500 + i;
      if (i + 1 == dims.size()) {
        a->push_back(UniformFloats(count, seed, 0.0f, 1.0f));
      } else if (dims[i].size() == 1) {
        a->push_back(UniformFloats(count, seed, 0.5f, 1.5f));
      } else {
        // HWIO kernels and the [in, out] dense matrix: all but the last
        // dimension feed each output.
        const int64_t fan_in = count / dims[i].back();
        const float limit = std::sqrt(3.0f / static_cast<float>(fan_in));
        a->push_back(UniformFloats(count, seed, -limit, limit));
      }
    }
    return a;
  }();
  return *args;
}

std::optional<std::string> CheckSoftmax(const float* p, int64_t n) {
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(p[i]) || p[i] < 0) {
      return "resnet50: output " + std::to_string(i) + " is " +
             std::to_string(p[i]);
    }
    sum += p[i];
  }
  if (std::abs(sum - 1) > 1e-4) {
    return "resnet50: the softmax sums to " + std::to_string(sum);
  }
  return std::nullopt;
}

// The evaluator's softmax on the same arguments, with its error budgets;
// evaluated once per process.
const absl::StatusOr<OracleValue>& Expected() {
  static const auto* expected = [] {
    absl::StatusOr<std::unique_ptr<Module>> module =
        LoadModuleFromFile(AOTC_RESNET50_HLO_PATH);
    if (!module.ok()) return new absl::StatusOr<OracleValue>(module.status());
    const std::vector<AlignedFloats>& args = Args();
    const std::vector<std::vector<int64_t>>& dims = ArgDims();
    std::vector<Literal> literals;
    for (size_t i = 0; i < args.size(); ++i) {
      Literal lit(Shape::Array(PrimitiveType::kF32, dims[i]));
      std::memcpy(lit.mutable_raw(), args[i].data(), lit.raw_size());
      literals.push_back(std::move(lit));
    }
    return new absl::StatusOr<OracleValue>(
        EvaluateOracle(**module, literals));
  }();
  return *expected;
}

// The softmax compared with the evaluator's.
std::optional<std::string> CheckAgainstEvaluator(const float* p, int64_t n) {
  const absl::StatusOr<OracleValue>& oracle = Expected();
  if (!oracle.ok()) {
    return "resnet50: the evaluator: " +
           std::string(oracle.status().message());
  }
  const Literal& want = *oracle->value.Leaves()[0];
  Literal got(want.shape());
  if (got.element_count() != n) return "resnet50: wrong result size";
  std::memcpy(got.mutable_raw(), p, got.raw_size());
  const Comparison c =
      CompareLiterals(got, want, DefaultTolerance(PrimitiveType::kF32),
                      &oracle->bounds[0]);
  if (!c.ok()) {
    return "resnet50: differs from the evaluator beyond the error budget: " +
           c.first_mismatch;
  }
  if (c.finite != n) {
    return "resnet50: only " + std::to_string(c.finite) + " of " +
           std::to_string(n) + " elements compared as finite values (" +
           std::to_string(c.both_nan) + " NaN on both sides)";
  }
  return std::nullopt;
}

void Resnet50(benchmark::State& state) {
  UseThreads(state);
  const std::vector<AlignedFloats>& args = Args();
  std::vector<const void*> arg_ptrs;
  for (const AlignedFloats& a : args) arg_ptrs.push_back(a.data());
  if (arg_ptrs.size() != RESNET50_NUM_ARGS) {
    state.SkipWithError("resnet50: wrong argument count");
    return;
  }
  AlignedFloats out(RESNET50_RESULT0_ELEMENTS);
  std::fill(out.data(), out.data() + out.size(),
            std::numeric_limits<float>::quiet_NaN());
  // The other results are the state, written into its own (donated)
  // arguments; their pointers are not read.
  std::vector<void*> results(RESNET50_NUM_RESULTS, nullptr);
  results[0] = out.data();
  auto temp = AllocateTemp(RESNET50_TEMP_BYTES);
  auto run = [&] {
    return resnet50_run_packed(arg_ptrs.data(), results.data(), temp.get());
  };
  if (SkipOnStatus(state, "resnet50", run())) return;
  if (SkipOnError(state, CheckSoftmax(out.data(), out.size()))) return;
  if (SkipOnError(state, CheckAgainstEvaluator(out.data(), out.size()))) {
    return;
  }
  for (auto _ : state) {
    run();
    benchmark::ClobberMemory();
  }
  state.counters["images/s"] =
      benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}

[[maybe_unused]] const bool registered = [] {
  Register("resnet50/aotc", Resnet50);
  return true;
}();

}  // namespace
}  // namespace aotc::bench
