// A 784-512-512-10 MLP with erf GELU at batch 1 and 64
// (bench/models/mlp_b{1,64}.hlo):
//
//   mlp/aotc/bB        the compiled model: two GEMMs (or row products at
//                      batch 1) with bias and GELU fused into their
//                      epilogues, then the 10-wide output layer
//   mlp/onednn/bB      what PyTorch's CPU linear layers run on: per layer a
//                      oneDNN matmul primitive with the bias and an erf GELU
//                      post-op fused (the output layer bias only), f32 and
//                      row-major, the weights read from the same arrays as
//                      aotc's on every call, primitives created once
//   mlp/openblas/bB    what a framework on a BLAS does: cblas_sgemm per
//                      layer, then one loop for bias and GELU (std::erf)
//
// The output is checked against the network computed in double before
// timing. FLOP/s counts the three products' 2 B (784*512 + 512*512 + 512*10).
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "bench_util.h"
#include "mlp_b1.h"
#include "mlp_b64.h"

#ifdef AOTC_BENCH_HAS_OPENBLAS
#include <cblas.h>
#endif
#ifdef AOTC_BENCH_HAS_ONEDNN
#include <omp.h>

#include <dnnl.hpp>
#endif

namespace aotc::bench {
namespace {

constexpr int64_t kIn = 784, kHidden = 512, kOut = 10;

struct MlpData {
  AlignedFloats x, w1, b1, w2, b2, w3, b3;
  std::vector<double> want;
};

double Gelu(double v) { return v * 0.5 * (1.0 + std::erf(v * 0.70710678)); }

// y = act(x w + b) in double, row-major.
std::vector<double> Layer(const std::vector<double>& x, int64_t batch,
                          int64_t in, const AlignedFloats& w,
                          const AlignedFloats& b, int64_t out, bool gelu) {
  std::vector<double> y(batch * out);
  for (int64_t r = 0; r < batch; ++r) {
    for (int64_t c = 0; c < out; ++c) {
      double s = b[c];
      for (int64_t k = 0; k < in; ++k) s += x[r * in + k] * w[k * out + c];
      y[r * out + c] = gelu ? Gelu(s) : s;
    }
  }
  return y;
}

const MlpData& Data(int64_t batch) {
  static std::map<int64_t, MlpData>* cache = new std::map<int64_t, MlpData>;
  auto [it, inserted] = cache->try_emplace(batch);
  MlpData& d = it->second;
  if (inserted) {
    // Weights scaled by 1/sqrt(fan-in), as initialisers do, keep the
    // activations of order 1.
    d.x = UniformFloats(batch * kIn, 31, -1.0f, 1.0f);
    d.w1 = UniformFloats(kIn * kHidden, 32, -0.036f, 0.036f);
    d.b1 = UniformFloats(kHidden, 33, -0.1f, 0.1f);
    d.w2 = UniformFloats(kHidden * kHidden, 34, -0.044f, 0.044f);
    d.b2 = UniformFloats(kHidden, 35, -0.1f, 0.1f);
    d.w3 = UniformFloats(kHidden * kOut, 36, -0.044f, 0.044f);
    d.b3 = UniformFloats(kOut, 37, -0.1f, 0.1f);
    std::vector<double> x(d.x.data(), d.x.data() + d.x.size());
    const std::vector<double> h1 = Layer(x, batch, kIn, d.w1, d.b1, kHidden, true);
    const std::vector<double> h2 =
        Layer(h1, batch, kHidden, d.w2, d.b2, kHidden, true);
    d.want = Layer(h2, batch, kHidden, d.w3, d.b3, kOut, false);
  }
  return d;
}

// The bytes a run must at least read and write: input, weights, output.
int64_t Bytes(int64_t batch) {
  return int64_t{sizeof(float)} *
         (batch * kIn + kIn * kHidden + kHidden + kHidden * kHidden + kHidden +
          kHidden * kOut + kOut + batch * kOut);
}

void SetFlops(benchmark::State& state, int64_t batch) {
  state.counters["FLOP/s"] = benchmark::Counter(
      2.0 * batch * (kIn * kHidden + kHidden * kHidden + kHidden * kOut),
      benchmark::Counter::kIsIterationInvariantRate);
}

template <int (*Run)(const float*, const float*, const float*, const float*,
                     const float*, const float*, const float*, float*, void*)>
void Compiled(benchmark::State& state, int64_t batch, const char* name,
              size_t temp_bytes) {
  const MlpData& d = Data(batch);
  AlignedFloats out(batch * kOut);
  auto temp = AllocateTemp(temp_bytes);
  TimeArrayResult(state, name, d.want, out, Bytes(batch), [&] {
    return Run(d.x.data(), d.w1.data(), d.b1.data(), d.w2.data(), d.b2.data(),
               d.w3.data(), d.b3.data(), out.data(), temp.get());
  });
  SetFlops(state, batch);
}

#ifdef AOTC_BENCH_HAS_OPENBLAS
void OpenBlas(benchmark::State& state, int64_t batch) {
  openblas_set_num_threads(static_cast<int>(state.range(0)));
  const MlpData& d = Data(batch);
  AlignedFloats h1(batch * kHidden), h2(batch * kHidden), out(batch * kOut);
  auto layer = [&](const float* x, int64_t in, const float* w, const float* b,
                   int64_t n, float* y, bool gelu) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, batch, n, in, 1.0f,
                x, in, w, n, 0.0f, y, n);
    for (int64_t r = 0; r < batch; ++r) {
      for (int64_t c = 0; c < n; ++c) {
        const float v = y[r * n + c] + b[c];
        y[r * n + c] = gelu ? v * 0.5f * (1.0f + std::erf(v * 0.70710678f)) : v;
      }
    }
  };
  TimeArrayResult(state, "openblas", d.want, out, Bytes(batch), [&] {
    layer(d.x.data(), kIn, d.w1.data(), d.b1.data(), kHidden, h1.data(), true);
    layer(h1.data(), kHidden, d.w2.data(), d.b2.data(), kHidden, h2.data(), true);
    layer(h2.data(), kHidden, d.w3.data(), d.b3.data(), kOut, out.data(), false);
    return 0;
  });
  state.SetLabel(openblas_get_corename());
  SetFlops(state, batch);
}
#endif

#ifdef AOTC_BENCH_HAS_ONEDNN
// One layer, y = act(x w + b), as a oneDNN matmul primitive on row-major
// f32 memory over the caller's arrays.
struct OneDnnLayer {
  dnnl::matmul matmul;
  dnnl::memory x, w, b, y;

  OneDnnLayer(const dnnl::engine& engine, int64_t batch, int64_t in,
              const float* x_data, const float* w_data, const float* b_data,
              int64_t out, float* y_data, bool gelu) {
    using dnnl::memory;
    const memory::data_type f32 = memory::data_type::f32;
    const memory::format_tag ab = memory::format_tag::ab;
    const memory::desc x_md({batch, in}, f32, ab), w_md({in, out}, f32, ab);
    const memory::desc b_md({1, out}, f32, ab), y_md({batch, out}, f32, ab);
    dnnl::primitive_attr attr;
    if (gelu) {
      dnnl::post_ops ops;
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_gelu_erf, 0.0f, 0.0f);
      attr.set_post_ops(ops);
    }
    matmul = dnnl::matmul(dnnl::matmul::primitive_desc(
        dnnl::matmul::desc(x_md, w_md, b_md, y_md), attr, engine));
    x = memory(x_md, engine, const_cast<float*>(x_data));
    w = memory(w_md, engine, const_cast<float*>(w_data));
    b = memory(b_md, engine, const_cast<float*>(b_data));
    y = memory(y_md, engine, y_data);
  }

  void Run(dnnl::stream& stream) const {
    matmul.execute(stream, {{DNNL_ARG_SRC, x},
                            {DNNL_ARG_WEIGHTS, w},
                            {DNNL_ARG_BIAS, b},
                            {DNNL_ARG_DST, y}});
  }
};

void OneDnn(benchmark::State& state, int64_t batch) {
  omp_set_num_threads(static_cast<int>(state.range(0)));
  const MlpData& d = Data(batch);
  AlignedFloats h1(batch * kHidden), h2(batch * kHidden), out(batch * kOut);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const OneDnnLayer layers[] = {
      {engine, batch, kIn, d.x.data(), d.w1.data(), d.b1.data(), kHidden,
       h1.data(), true},
      {engine, batch, kHidden, h1.data(), d.w2.data(), d.b2.data(), kHidden,
       h2.data(), true},
      {engine, batch, kHidden, h2.data(), d.w3.data(), d.b3.data(), kOut,
       out.data(), false}};
  TimeArrayResult(state, "onednn", d.want, out, Bytes(batch), [&] {
    for (const OneDnnLayer& layer : layers) layer.Run(stream);
    stream.wait();
    return 0;
  });
  SetFlops(state, batch);
}
#endif

[[maybe_unused]] const bool registered = [] {
  Register("mlp/aotc/b1", [](benchmark::State& state) {
    Compiled<&mlp_b1_run>(state, 1, "mlp_b1", MLP_B1_TEMP_BYTES);
  });
  Register("mlp/aotc/b64", [](benchmark::State& state) {
    Compiled<&mlp_b64_run>(state, 64, "mlp_b64", MLP_B64_TEMP_BYTES);
  });
#ifdef AOTC_BENCH_HAS_ONEDNN
  Register("mlp/onednn/b1", [](benchmark::State& state) { OneDnn(state, 1); });
  Register("mlp/onednn/b64",
           [](benchmark::State& state) { OneDnn(state, 64); });
#endif
#ifdef AOTC_BENCH_HAS_OPENBLAS
  Register("mlp/openblas/b1",
           [](benchmark::State& state) { OpenBlas(state, 1); });
  Register("mlp/openblas/b64",
           [](benchmark::State& state) { OpenBlas(state, 64); });
#endif
  return true;
}();

}  // namespace
}  // namespace aotc::bench
