// A GELU MLP layer, gelu(x . w + b) with x f32[256,1024], w f32[1024,1024],
// b f32[1024] and JAX's tanh approximation
//
//   gelu(v) = v * 0.5 * (1 + tanh(sqrt(2 / pi) * (v + 0.044715 v^3)))
//
// as bench/models/gelu_layer.hlo (printed the way JAX prints jit(gelu_layer)):
//
//   gelu_mlp/aotc_fused     default flags
//   gelu_mlp/aotc_unfused   --no-fusion
//   gelu_mlp/eigen_tensor   Eigen Tensor contraction (its blocked GEMM kernel)
//                           plus the bias, then the GELU expression
//
// The layer does 2 * 256 * 1024 * 1024 flops on 5 MiB of data, so it is
// bound by compute rather than memory; its baseline is Eigen's GEMM instead
// of a memory roofline, and the counter FLOP/s (the dot's flops) says how
// close each variant gets. The output is checked against the layer computed
// in double before timing (CheckArray).
#include <cmath>
#include <cstdint>

#include "bench_util.h"
#include "eigen_device.h"
#include "gelu_layer_fused.h"
#include "gelu_layer_unfused.h"

namespace aotc::bench {
namespace {

constexpr int64_t kBatch = 256;
constexpr int64_t kIn = 1024;
constexpr int64_t kOut = 1024;
constexpr int64_t kBytes =
    (kBatch * kIn + kIn * kOut + kOut + kBatch * kOut) * int64_t{sizeof(float)};
constexpr double kFlops = 2.0 * kBatch * kIn * kOut;
constexpr float kSqrt2OverPi = 0.7978845608f;
constexpr float kCubic = 0.044715f;

static_assert(GELU_LAYER_FUSED_X_ELEMENTS == kBatch * kIn &&
                  GELU_LAYER_FUSED_W_ELEMENTS == kIn * kOut &&
                  GELU_LAYER_FUSED_RESULT0_ELEMENTS == kBatch * kOut,
              "gelu_layer.hlo has unexpected shapes");

struct GeluData {
  AlignedFloats x;
  AlignedFloats w;
  AlignedFloats b;
  std::vector<double> want;  // the layer in double
};

double Gelu(double v) {
  return v * 0.5 *
         (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v)));
}

const GeluData& Data() {
  static const GeluData data = [] {
    GeluData d;
    d.x = UniformFloats(kBatch * kIn, 7, -1.0f, 1.0f);
    // Weights of +-0.1 make the pre-activations of order 1, where GELU bends.
    d.w = UniformFloats(kIn * kOut, 8, -0.1f, 0.1f);
    d.b = UniformFloats(kOut, 9, -0.5f, 0.5f);
    d.want.assign(kBatch * kOut, 0.0);
    for (int64_t r = 0; r < kBatch; ++r) {
      double* out = d.want.data() + r * kOut;
      for (int64_t k = 0; k < kIn; ++k) {
        double xk = d.x[r * kIn + k];
        const float* w_row = d.w.data() + k * kOut;
        for (int64_t c = 0; c < kOut; ++c) out[c] += xk * w_row[c];
      }
      for (int64_t c = 0; c < kOut; ++c) out[c] = Gelu(out[c] + d.b[c]);
    }
    return d;
  }();
  return data;
}

void SetFlops(benchmark::State& state) {
  state.counters["FLOP/s"] =
      benchmark::Counter(kFlops, benchmark::Counter::kIsIterationInvariantRate);
}

template <int (*Run)(const float*, const float*, const float*, float*, void*)>
void Compiled(benchmark::State& state, const char* name, size_t temp_bytes) {
  const GeluData& d = Data();
  AlignedFloats out(kBatch * kOut);
  auto temp = AllocateTemp(temp_bytes);
  TimeArrayResult(state, name, d.want, out, kBytes, [&] {
    return Run(d.x.data(), d.w.data(), d.b.data(), out.data(), temp.get());
  });
  SetFlops(state);
}

void EigenTensor(benchmark::State& state) {
  using Matrix = Eigen::TensorMap<
      Eigen::Tensor<float, 2, Eigen::RowMajor, Eigen::Index>>;
  using ConstMatrix = Eigen::TensorMap<
      const Eigen::Tensor<const float, 2, Eigen::RowMajor, Eigen::Index>>;
  using ConstVector = Eigen::TensorMap<
      const Eigen::Tensor<const float, 1, Eigen::RowMajor, Eigen::Index>>;
  const GeluData& d = Data();
  AlignedFloats out(kBatch * kOut);
  ConstMatrix x(d.x.data(), kBatch, kIn);
  ConstMatrix w(d.w.data(), kIn, kOut);
  ConstVector b(d.b.data(), kOut);
  Matrix y(out.data(), kBatch, kOut);
  const Eigen::array<Eigen::IndexPair<Eigen::Index>, 1> contract{
      Eigen::IndexPair<Eigen::Index>(1, 0)};
  const Eigen::array<Eigen::Index, 2> one_row{1, kOut};
  const Eigen::array<Eigen::Index, 2> down_rows{kBatch, 1};
  TimeArrayResult(state, "gelu_mlp eigen_tensor", d.want, out, kBytes, [&] {
    EigenAssign(y, x.contract(w, contract) +
                       b.reshape(one_row).broadcast(down_rows));
    EigenAssign(y, y * (((y + y.cube() * kCubic) * kSqrt2OverPi).tanh() +
                        1.0f) *
                       0.5f);
    return 0;
  });
  SetFlops(state);
}

[[maybe_unused]] const bool registered = [] {
  Register("gelu_mlp/aotc_fused", [](benchmark::State& state) {
    Compiled<&gelu_layer_fused_run>(state, "gelu_layer_fused",
                                    GELU_LAYER_FUSED_TEMP_BYTES);
  });
  Register("gelu_mlp/aotc_unfused", [](benchmark::State& state) {
    Compiled<&gelu_layer_unfused_run>(state, "gelu_layer_unfused",
                                      GELU_LAYER_UNFUSED_TEMP_BYTES);
  });
  Register("gelu_mlp/eigen_tensor", &EigenTensor);
  return true;
}();

}  // namespace
}  // namespace aotc::bench
