// Row-wise models over f32[8192,1024], as JAX prints them (bench/models/):
//
//   softmax/...     softmax over each row (max, exp, sum, divide)
//   layernorm/...   (x - mean) * rsqrt(var + 1e-5) * scale + bias over each
//                   row, scale and bias f32[1024]
//   rmsnorm/...     x * rsqrt(mean(x^2) + 1e-6) * scale over each row
//
// each as aotc_fused (default flags), aotc_unfused (--no-fusion), for the
// norms aotc_decomposed (--disable-pass norm-fusion: fusion alone, one pass
// over x per sum),
// eigen_tensor (the same math as Eigen Tensor statements, one pass per
// statement) and roofline (a loop that reads the input once and writes the
// output once: the memory traffic any implementation needs). The bytes per
// iteration are that traffic: 32 MiB read + 32 MiB written (+ 4 KiB per
// vector of scale or bias). Every variant's output is checked against the model computed in
// double before timing (CheckArray).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "bench_util.h"
#include "eigen_device.h"
#include "layernorm_decomposed.h"
#include "layernorm_fused.h"
#include "layernorm_unfused.h"
#include "rmsnorm_decomposed.h"
#include "rmsnorm_fused.h"
#include "rmsnorm_unfused.h"
#include "softmax_fused.h"
#include "softmax_unfused.h"

namespace aotc::bench {
namespace {

constexpr int64_t kRows = 8192;
constexpr int64_t kCols = 1024;
constexpr int64_t kElements = kRows * kCols;
constexpr int64_t kTensorBytes = kElements * int64_t{sizeof(float)};
constexpr double kEpsilon = 1e-5;
// Rows per chunk of the roofline loop: 64 rows = 256 KiB.
constexpr int64_t kMinRows = 64;

static_assert(SOFTMAX_FUSED_X_ELEMENTS == kElements &&
                  LAYERNORM_FUSED_X_ELEMENTS == kElements &&
                  LAYERNORM_FUSED_SCALE_ELEMENTS == kCols &&
                  RMSNORM_FUSED_X_ELEMENTS == kElements &&
                  RMSNORM_FUSED_SCALE_ELEMENTS == kCols,
              "softmax.hlo, layernorm.hlo or rmsnorm.hlo has unexpected shapes");

using Matrix = Eigen::TensorMap<
    Eigen::Tensor<float, 2, Eigen::RowMajor, Eigen::Index>>;
using ConstMatrix = Eigen::TensorMap<
    const Eigen::Tensor<const float, 2, Eigen::RowMajor, Eigen::Index>>;
using ConstVector = Eigen::TensorMap<
    const Eigen::Tensor<const float, 1, Eigen::RowMajor, Eigen::Index>>;
using Vector = Eigen::Tensor<float, 1, Eigen::RowMajor, Eigen::Index>;

const Eigen::array<Eigen::Index, 1> kReduceCols{1};
const Eigen::array<Eigen::Index, 2> kRowColumn{kRows, 1};
const Eigen::array<Eigen::Index, 2> kAcrossCols{1, kCols};
const Eigen::array<Eigen::Index, 2> kOneRow{1, kCols};
const Eigen::array<Eigen::Index, 2> kDownRows{kRows, 1};

// The roofline: out = 2 * x, one read and one write per element. The factor
// keeps the compiler from turning the loop into memcpy, whose non-temporal
// stores no compiled model uses.
void StreamRows(const float* x, float* out) {
  ParallelFor(kRows, kMinRows, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin * kCols; i < end * kCols; ++i) out[i] = 2.0f * x[i];
  });
}

std::vector<double> Doubled(const AlignedFloats& x) {
  std::vector<double> want(x.size());
  for (size_t i = 0; i < x.size(); ++i) want[i] = 2.0 * x[i];
  return want;
}

// ----------------------------------------------------------------------------
// Softmax

struct SoftmaxData {
  AlignedFloats x;
  std::vector<double> want;     // softmax in double
  std::vector<double> doubled;  // 2 * x, the roofline's output
};

const SoftmaxData& Softmax() {
  static const SoftmaxData data = [] {
    SoftmaxData d;
    // Logits in [-4, 4]: row maxima near 4, exponentials over a range of e^8.
    d.x = UniformFloats(kElements, 3, -4.0f, 4.0f);
    d.want.resize(kElements);
    for (int64_t r = 0; r < kRows; ++r) {
      const float* row = d.x.data() + r * kCols;
      double* out = d.want.data() + r * kCols;
      double max = *std::max_element(row, row + kCols);
      double sum = 0;
      for (int64_t c = 0; c < kCols; ++c) sum += out[c] = std::exp(row[c] - max);
      for (int64_t c = 0; c < kCols; ++c) out[c] /= sum;
    }
    d.doubled = Doubled(d.x);
    return d;
  }();
  return data;
}

template <int (*Run)(const float*, float*, void*)>
void SoftmaxCompiled(benchmark::State& state, const char* name,
                     size_t temp_bytes) {
  const SoftmaxData& d = Softmax();
  AlignedFloats out(kElements);
  auto temp = AllocateTemp(temp_bytes);
  TimeArrayResult(state, name, d.want, out, 2 * kTensorBytes,
                  [&] { return Run(d.x.data(), out.data(), temp.get()); });
}

void SoftmaxEigen(benchmark::State& state) {
  const SoftmaxData& d = Softmax();
  AlignedFloats out(kElements);
  ConstMatrix x(d.x.data(), kRows, kCols);
  Matrix y(out.data(), kRows, kCols);
  Vector row_max(kRows);
  Vector row_sum(kRows);
  TimeArrayResult(state, "softmax eigen_tensor", d.want, out,
                  2 * kTensorBytes, [&] {
    EigenAssign(row_max, x.maximum(kReduceCols));
    EigenAssign(y, (x - row_max.reshape(kRowColumn).broadcast(kAcrossCols))
                       .exp());
    EigenAssign(row_sum, y.sum(kReduceCols));
    EigenAssign(y, y / row_sum.reshape(kRowColumn).broadcast(kAcrossCols));
    return 0;
  });
}

void SoftmaxRoofline(benchmark::State& state) {
  const SoftmaxData& d = Softmax();
  AlignedFloats out(kElements);
  TimeArrayResult(state, "softmax roofline", d.doubled, out, 2 * kTensorBytes,
                  [&] {
                    StreamRows(d.x.data(), out.data());
                    return 0;
                  });
}

// ----------------------------------------------------------------------------
// Layernorm

struct LayernormData {
  AlignedFloats x;
  AlignedFloats scale;
  AlignedFloats bias;
  std::vector<double> want;     // layernorm in double
  std::vector<double> doubled;  // 2 * x, the roofline's output
};

const LayernormData& Layernorm() {
  static const LayernormData data = [] {
    LayernormData d;
    // Rows with an offset, so that the mean matters: values in [0, 2].
    d.x = UniformFloats(kElements, 4, 0.0f, 2.0f);
    d.scale = UniformFloats(kCols, 5, 0.5f, 1.5f);
    d.bias = UniformFloats(kCols, 6, -0.5f, 0.5f);
    d.want.resize(kElements);
    for (int64_t r = 0; r < kRows; ++r) {
      const float* row = d.x.data() + r * kCols;
      double* out = d.want.data() + r * kCols;
      double mean = 0;
      for (int64_t c = 0; c < kCols; ++c) mean += row[c];
      mean /= kCols;
      double var = 0;
      for (int64_t c = 0; c < kCols; ++c) var += (row[c] - mean) * (row[c] - mean);
      var /= kCols;
      double inv = 1.0 / std::sqrt(var + kEpsilon);
      for (int64_t c = 0; c < kCols; ++c) {
        out[c] = (row[c] - mean) * inv * d.scale[c] + d.bias[c];
      }
    }
    d.doubled = Doubled(d.x);
    return d;
  }();
  return data;
}

constexpr int64_t kLayernormBytes =
    2 * kTensorBytes + 2 * kCols * int64_t{sizeof(float)};

template <int (*Run)(const float*, const float*, const float*, float*, void*)>
void LayernormCompiled(benchmark::State& state, const char* name,
                       size_t temp_bytes) {
  const LayernormData& d = Layernorm();
  AlignedFloats out(kElements);
  auto temp = AllocateTemp(temp_bytes);
  TimeArrayResult(state, name, d.want, out, kLayernormBytes, [&] {
    return Run(d.x.data(), d.scale.data(), d.bias.data(), out.data(),
               temp.get());
  });
}

void LayernormEigen(benchmark::State& state) {
  const LayernormData& d = Layernorm();
  AlignedFloats out(kElements);
  ConstMatrix x(d.x.data(), kRows, kCols);
  ConstVector scale(d.scale.data(), kCols);
  ConstVector bias(d.bias.data(), kCols);
  Matrix y(out.data(), kRows, kCols);
  Vector mean(kRows);
  Vector inv(kRows);
  const float n = static_cast<float>(kCols);
  const float epsilon = static_cast<float>(kEpsilon);
  TimeArrayResult(state, "layernorm eigen_tensor", d.want, out,
                  kLayernormBytes, [&] {
    EigenAssign(mean, x.sum(kReduceCols) / n);
    EigenAssign(y, x - mean.reshape(kRowColumn).broadcast(kAcrossCols));
    EigenAssign(inv, (y.square().sum(kReduceCols) / n + epsilon).rsqrt());
    EigenAssign(y, y * inv.reshape(kRowColumn).broadcast(kAcrossCols) *
                           scale.reshape(kOneRow).broadcast(kDownRows) +
                       bias.reshape(kOneRow).broadcast(kDownRows));
    return 0;
  });
}

void LayernormRoofline(benchmark::State& state) {
  const LayernormData& d = Layernorm();
  AlignedFloats out(kElements);
  TimeArrayResult(state, "layernorm roofline", d.doubled, out,
                  kLayernormBytes, [&] {
                    StreamRows(d.x.data(), out.data());
                    return 0;
                  });
}

// ----------------------------------------------------------------------------
// RMSNorm

constexpr double kRmsEpsilon = 1e-6;

struct RmsnormData {
  AlignedFloats x;
  AlignedFloats scale;
  std::vector<double> want;     // rmsnorm in double
  std::vector<double> doubled;  // 2 * x, the roofline's output
};

const RmsnormData& Rmsnorm() {
  static const RmsnormData data = [] {
    RmsnormData d;
    d.x = UniformFloats(kElements, 7, -2.0f, 2.0f);
    d.scale = UniformFloats(kCols, 8, 0.5f, 1.5f);
    d.want.resize(kElements);
    for (int64_t r = 0; r < kRows; ++r) {
      const float* row = d.x.data() + r * kCols;
      double* out = d.want.data() + r * kCols;
      double squares = 0;
      for (int64_t c = 0; c < kCols; ++c) squares += double{row[c]} * row[c];
      const double inv = 1.0 / std::sqrt(squares / kCols + kRmsEpsilon);
      for (int64_t c = 0; c < kCols; ++c) out[c] = row[c] * inv * d.scale[c];
    }
    d.doubled = Doubled(d.x);
    return d;
  }();
  return data;
}

constexpr int64_t kRmsnormBytes = 2 * kTensorBytes + kCols * int64_t{sizeof(float)};

template <int (*Run)(const float*, const float*, float*, void*)>
void RmsnormCompiled(benchmark::State& state, const char* name,
                     size_t temp_bytes) {
  const RmsnormData& d = Rmsnorm();
  AlignedFloats out(kElements);
  auto temp = AllocateTemp(temp_bytes);
  TimeArrayResult(state, name, d.want, out, kRmsnormBytes, [&] {
    return Run(d.x.data(), d.scale.data(), out.data(), temp.get());
  });
}

void RmsnormRoofline(benchmark::State& state) {
  const RmsnormData& d = Rmsnorm();
  AlignedFloats out(kElements);
  TimeArrayResult(state, "rmsnorm roofline", d.doubled, out, kRmsnormBytes,
                  [&] {
                    StreamRows(d.x.data(), out.data());
                    return 0;
                  });
}

[[maybe_unused]] const bool registered = [] {
  Register("softmax/aotc_fused", [](benchmark::State& state) {
    SoftmaxCompiled<&softmax_fused_run>(state, "softmax_fused",
                                        SOFTMAX_FUSED_TEMP_BYTES);
  });
  Register("softmax/aotc_unfused", [](benchmark::State& state) {
    SoftmaxCompiled<&softmax_unfused_run>(state, "softmax_unfused",
                                          SOFTMAX_UNFUSED_TEMP_BYTES);
  });
  Register("softmax/eigen_tensor", &SoftmaxEigen);
  Register("softmax/roofline", &SoftmaxRoofline);
  Register("layernorm/aotc_fused", [](benchmark::State& state) {
    LayernormCompiled<&layernorm_fused_run>(state, "layernorm_fused",
                                            LAYERNORM_FUSED_TEMP_BYTES);
  });
  Register("layernorm/aotc_unfused", [](benchmark::State& state) {
    LayernormCompiled<&layernorm_unfused_run>(state, "layernorm_unfused",
                                              LAYERNORM_UNFUSED_TEMP_BYTES);
  });
  Register("layernorm/aotc_decomposed", [](benchmark::State& state) {
    LayernormCompiled<&layernorm_decomposed_run>(
        state, "layernorm_decomposed", LAYERNORM_DECOMPOSED_TEMP_BYTES);
  });
  Register("layernorm/eigen_tensor", &LayernormEigen);
  Register("layernorm/roofline", &LayernormRoofline);
  Register("rmsnorm/aotc_fused", [](benchmark::State& state) {
    RmsnormCompiled<&rmsnorm_fused_run>(state, "rmsnorm_fused",
                                        RMSNORM_FUSED_TEMP_BYTES);
  });
  Register("rmsnorm/aotc_unfused", [](benchmark::State& state) {
    RmsnormCompiled<&rmsnorm_unfused_run>(state, "rmsnorm_unfused",
                                          RMSNORM_UNFUSED_TEMP_BYTES);
  });
  Register("rmsnorm/aotc_decomposed", [](benchmark::State& state) {
    RmsnormCompiled<&rmsnorm_decomposed_run>(state, "rmsnorm_decomposed",
                                             RMSNORM_DECOMPOSED_TEMP_BYTES);
  });
  Register("rmsnorm/roofline", &RmsnormRoofline);
  return true;
}();

}  // namespace
}  // namespace aotc::bench
