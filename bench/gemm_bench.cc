// Matrix products against the machine's multiply-add peak and the BLAS
// libraries:
//
//   fma_peak                  independent vector multiply-adds, as many as
//                             the core issues: the ceiling of any GEMM here
//   gemm/aotc/N               bench/models/gemm_N.hlo, C = A B with
//                             f32[N,N] operands, N = 256, 512, 1024, 2048
//   gemm/openblas/N           cblas_sgemm on the same data
//   gemm/onednn/N             dnnl_sgemm on the same data
//   skinny/{aotc,openblas,onednn}/mM
//                             f32[M,784] x f32[784,512], M = 1, 16, 64
//   gemm_bf16/aotc/1024       bench/models/gemm_bf16_1024.hlo: bf16[1024,1024]
//                             operands into f32, on vdpbf16ps where the CPU
//                             has AVX512-BF16
//   gemm_bf16/aotc_widened/1024
//                             the same model compiled --features=-avx512bf16:
//                             operands widened to f32 when packed
//   gemm_bf16/onednn/1024     oneDNN's bf16 x bf16 -> f32 matmul primitive
//   gemm_s8/aotc/1024         bench/models/gemm_s8_1024.hlo: s8[1024,1024]
//                             operands into s32, on vpdpbusd where the CPU has
//                             AVX512-VNNI
//   gemm_s8/aotc_widened/1024 the same model compiled --features=-avx512vnni
//   gemm_s8/onednn/1024       dnnl_gemm_s8s8s32 on the same data
//
// Every variant reports FLOP/s (2 M N K per product). Before timing, 64
// sampled elements of the result are checked against the products computed
// in double, within the bound of a sum of K rounded products (two roundings
// per pair of bf16 products, 2^-23 per depth; s8 products exactly). OpenBLAS's
// label names the kernel it picked (openblas_get_corename()): the machine's
// OPENBLAS_CORETYPE, if set, selects an older one (docs/performance.md).
// The libraries are comparisons only: nothing of aotc links them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bench_util.h"
#include "gemm_1024.h"
#include "gemm_2048.h"
#include "gemm_256.h"
#include "gemm_512.h"
#include "gemm_bf16_1024.h"
#include "gemm_bf16_1024_widened.h"
#include "gemm_s8_1024.h"
#include "gemm_s8_1024_widened.h"
#include "skinny_m1.h"
#include "skinny_m16.h"
#include "skinny_m64.h"

#ifdef AOTC_BENCH_HAS_OPENBLAS
#include <cblas.h>
#endif
#ifdef AOTC_BENCH_HAS_ONEDNN
#include <dnnl.h>
#include <omp.h>

#include <dnnl.hpp>
#endif

namespace aotc::bench {
namespace {

struct Product {
  int64_t m, n, k;
};

struct GemmData {
  AlignedFloats a, b;
  // Sampled elements of the result, the product there in double and the
  // bound of its rounding error.
  std::vector<Sample> samples;
};

const GemmData& Data(const Product& p) {
  static std::map<std::tuple<int64_t, int64_t, int64_t>, GemmData>* cache =
      new std::map<std::tuple<int64_t, int64_t, int64_t>, GemmData>;
  auto [it, inserted] = cache->try_emplace({p.m, p.n, p.k});
  GemmData& d = it->second;
  if (inserted) {
    d.a = UniformFloats(p.m * p.k, 21, -1.0f, 1.0f);
    d.b = UniformFloats(p.k * p.n, 22, -1.0f, 1.0f);
    for (int64_t s = 0; s < 64; ++s) {
      const int64_t i = (s * 7919) % p.m, j = (s * 104729 + 13) % p.n;
      double sum = 0, magnitude = 0;
      for (int64_t q = 0; q < p.k; ++q) {
        const double x = double{d.a[i * p.k + q]} * d.b[q * p.n + j];
        sum += x;
        magnitude += std::abs(x);
      }
      d.samples.push_back(
          {i * p.n + j, sum, 1.01 * p.k * std::ldexp(1.0, -24) * magnitude});
    }
  }
  return d;
}

// bf16 operands (uniform in [-1, 1], rounded to nearest even) as their bits.
struct Bf16GemmData {
  std::vector<uint16_t> a, b;
  std::vector<Sample> samples;
};

uint16_t ToBf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

double FromBf16(uint16_t h) {
  const uint32_t bits = uint32_t{h} << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// One product size only (the first asked for).
const Bf16GemmData& Bf16Data(const Product& p) {
  static Bf16GemmData* d = [&] {
    auto* d = new Bf16GemmData;
    const AlignedFloats a = UniformFloats(p.m * p.k, 23, -1.0f, 1.0f);
    const AlignedFloats b = UniformFloats(p.k * p.n, 24, -1.0f, 1.0f);
    for (size_t i = 0; i < a.size(); ++i) d->a.push_back(ToBf16(a[i]));
    for (size_t i = 0; i < b.size(); ++i) d->b.push_back(ToBf16(b[i]));
    for (int64_t s = 0; s < 64; ++s) {
      const int64_t i = (s * 7919) % p.m, j = (s * 104729 + 13) % p.n;
      double sum = 0, magnitude = 0;
      for (int64_t q = 0; q < p.k; ++q) {
        const double x = FromBf16(d->a[i * p.k + q]) * FromBf16(d->b[q * p.n + j]);
        sum += x;
        magnitude += std::abs(x);
      }
      d->samples.push_back(
          {i * p.n + j, sum, 1.01 * p.k * std::ldexp(1.0, -23) * magnitude});
    }
    return d;
  }();
  return *d;
}

// s8 operands, uniform in [-64, 64), and 64 sampled elements of the s32
// product, exact. Without VNNI (AVX2, AVX-512 before Cascade Lake) oneDNN
// multiplies with vpmaddubsw, one operand shifted to u8 by 128, and sums
// each pair of products in 16 bits with saturation: over the whole s8 range
// a pair reaches 2 * 255 * 128, and its result is wrong. In [-64, 64) a pair
// stays within 2 * 191 * 64 = 24448 < 2^15, so every anchor is exact on
// every CPU; aotc's kernels are exact over the whole range (s8_dot.test).
struct S8GemmData {
  std::vector<int8_t> a, b;
  std::vector<std::pair<int64_t, int32_t>> samples;
};

// One product size only (the first asked for).
const S8GemmData& S8Data(const Product& p) {
  static S8GemmData* d = [&] {
    auto* d = new S8GemmData;
    const AlignedFloats a = UniformFloats(p.m * p.k, 25, -64.0f, 64.0f);
    const AlignedFloats b = UniformFloats(p.k * p.n, 26, -64.0f, 64.0f);
    auto to_s8 = [](float x) {
      return static_cast<int8_t>(std::clamp(std::floor(x), -64.0f, 63.0f));
    };
    for (size_t i = 0; i < a.size(); ++i) d->a.push_back(to_s8(a[i]));
    for (size_t i = 0; i < b.size(); ++i) d->b.push_back(to_s8(b[i]));
    for (int64_t s = 0; s < 64; ++s) {
      const int64_t i = (s * 7919) % p.m, j = (s * 104729 + 13) % p.n;
      int32_t sum = 0;
      for (int64_t q = 0; q < p.k; ++q) {
        sum += int32_t{d->a[i * p.k + q]} * d->b[q * p.n + j];
      }
      d->samples.push_back({i * p.n + j, sum});
    }
    return d;
  }();
  return *d;
}

// Checks the sampled elements of an s32 product (its buffer starts as
// 0x7fffffff, which no sample can be), then times call().
template <typename Call>
void TimeS8Product(benchmark::State& state, const char* name, const Product& p,
                   Call call) {
  UseThreads(state);
  const S8GemmData& d = S8Data(p);
  std::vector<int32_t> c(p.m * p.n, 0x7fffffff);
  if (SkipOnStatus(state, name, call(d, c.data()))) return;
  for (const auto& [offset, want] : d.samples) {
    if (c[offset] != want) {
      SkipOnError(state, std::string(name) + ": element " + std::to_string(offset) +
                             " is " + std::to_string(c[offset]) + ", expected " +
                             std::to_string(want));
      return;
    }
  }
  for (auto _ : state) {
    call(d, c.data());
    benchmark::ClobberMemory();
  }
  state.counters["OP/s"] = benchmark::Counter(
      2.0 * p.m * p.n * p.k, benchmark::Counter::kIsIterationInvariantRate);
}

template <int (*Run)(const int8_t*, const int8_t*, int32_t*, void*)>
void CompiledS8(benchmark::State& state, const char* name, const Product& p,
                size_t temp_bytes) {
  auto temp = AllocateTemp(temp_bytes);
  TimeS8Product(state, name, p, [&](const S8GemmData& d, int32_t* c) {
    return Run(d.a.data(), d.b.data(), c, temp.get());
  });
}

// Checks once, then times `call(data, c)` (which returns an aotc status).
template <typename Call>
void TimeProduct(benchmark::State& state, const char* name, const Product& p,
                 Call call) {
  const GemmData& d = Data(p);
  AlignedFloats c(p.m * p.n);
  TimeSampledResult(state, name, d.samples, c, 2.0 * p.m * p.n * p.k,
                    [&] { return call(d, c.data()); });
}

template <int (*Run)(const float*, const float*, float*, void*)>
void Compiled(benchmark::State& state, const char* name, const Product& p,
              size_t temp_bytes) {
  auto temp = AllocateTemp(temp_bytes);
  TimeProduct(state, name, p, [&](const GemmData& d, float* c) {
    return Run(d.a.data(), d.b.data(), c, temp.get());
  });
}

template <int (*Run)(const uint16_t*, const uint16_t*, float*, void*)>
void CompiledBf16(benchmark::State& state, const char* name, const Product& p,
                  size_t temp_bytes) {
  auto temp = AllocateTemp(temp_bytes);
  const Bf16GemmData& d = Bf16Data(p);
  AlignedFloats c(p.m * p.n);
  TimeSampledResult(state, name, d.samples, c, 2.0 * p.m * p.n * p.k, [&] {
    return Run(d.a.data(), d.b.data(), c.data(), temp.get());
  });
}

#ifdef AOTC_BENCH_HAS_OPENBLAS
void OpenBlas(benchmark::State& state, const Product& p) {
  openblas_set_num_threads(static_cast<int>(state.range(0)));
  state.SetLabel(openblas_get_corename());
  TimeProduct(state, "openblas", p, [&](const GemmData& d, float* c) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, p.m, p.n, p.k, 1.0f,
                d.a.data(), p.k, d.b.data(), p.n, 0.0f, c, p.n);
    return 0;
  });
}
#endif

#ifdef AOTC_BENCH_HAS_ONEDNN
void OneDnn(benchmark::State& state, const Product& p) {
  omp_set_num_threads(static_cast<int>(state.range(0)));
  TimeProduct(state, "onednn", p, [&](const GemmData& d, float* c) {
    return dnnl_sgemm('N', 'N', p.m, p.n, p.k, 1.0f, d.a.data(), p.k,
                      d.b.data(), p.n, 0.0f, c, p.n) == dnnl_success
               ? 0
               : 1;
  });
}
#endif

#ifdef AOTC_BENCH_HAS_ONEDNN
dnnl::memory::desc RowMajor(int64_t rows, int64_t cols,
                            dnnl::memory::data_type type) {
  return dnnl::memory::desc({rows, cols}, type, dnnl::memory::format_tag::ab);
}

// oneDNN's matmul primitive on bf16 operands with an f32 result for `p`
// (its API has no bf16 gemm function), or none where oneDNN has no bf16
// implementation for this CPU.
std::optional<dnnl::matmul> Bf16Matmul(const dnnl::engine& engine,
                                       const Product& p) {
  using dt = dnnl::memory::data_type;
  try {
    return dnnl::matmul(dnnl::matmul::primitive_desc(
        dnnl::matmul::desc(RowMajor(p.m, p.k, dt::bf16),
                           RowMajor(p.k, p.n, dt::bf16),
                           RowMajor(p.m, p.n, dt::f32)),
        engine));
  } catch (const dnnl::error&) {
    return std::nullopt;
  }
}

void OneDnnBf16(benchmark::State& state, const Product& p) {
  omp_set_num_threads(static_cast<int>(state.range(0)));
  using dt = dnnl::memory::data_type;
  const Bf16GemmData& d = Bf16Data(p);
  AlignedFloats c(p.m * p.n);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const std::optional<dnnl::matmul> matmul = Bf16Matmul(engine, p);
  if (!matmul.has_value()) return state.SkipWithError("no bf16 matmul");
  dnnl::memory a_mem(RowMajor(p.m, p.k, dt::bf16), engine,
                     const_cast<uint16_t*>(d.a.data()));
  dnnl::memory b_mem(RowMajor(p.k, p.n, dt::bf16), engine,
                     const_cast<uint16_t*>(d.b.data()));
  dnnl::memory c_mem(RowMajor(p.m, p.n, dt::f32), engine, c.data());
  TimeSampledResult(state, "onednn", d.samples, c, 2.0 * p.m * p.n * p.k, [&] {
    matmul->execute(stream, {{DNNL_ARG_SRC, a_mem},
                             {DNNL_ARG_WEIGHTS, b_mem},
                             {DNNL_ARG_DST, c_mem}});
    stream.wait();
    return 0;
  });
}
#endif

#ifdef AOTC_BENCH_HAS_ONEDNN
void OneDnnS8(benchmark::State& state, const Product& p) {
  omp_set_num_threads(static_cast<int>(state.range(0)));
  const int32_t no_offset = 0;
  TimeS8Product(state, "onednn", p, [&](const S8GemmData& d, int32_t* c) {
    return dnnl_gemm_s8s8s32('N', 'N', 'F', p.m, p.n, p.k, 1.0f, d.a.data(),
                             p.k, 0, d.b.data(), p.n, 0, 0.0f, c, p.n,
                             &no_offset) == dnnl_success
               ? 0
               : 1;
  });
}
#endif

// Twelve independent chains of vector multiply-adds (compiled with
// -march=native, so each is one FMA instruction): enough to cover the
// latency of two pipes, so the loop runs at the issue rate.
#if defined(__AVX512F__)
constexpr int kLanes = 16;
#elif defined(__AVX__)
constexpr int kLanes = 8;
#else
constexpr int kLanes = 4;
#endif
using Vec = float __attribute__((vector_size(kLanes * sizeof(float))));

void FmaPeak(benchmark::State& state) {
  state.SetLabel("one core, whatever the thread count");
  constexpr int kChains = 12;
  constexpr int64_t kSteps = 1 << 16;
  const Vec x = Vec{} + 0.999999f, y = Vec{} + 1e-7f;
  // Twelve named accumulators, so that each stays in a register.
  Vec a0 = x, a1 = x + 1, a2 = x + 2, a3 = x + 3, a4 = x + 4, a5 = x + 5;
  Vec a6 = x + 6, a7 = x + 7, a8 = x + 8, a9 = x + 9, a10 = x + 10, a11 = x + 11;
  for (auto _ : state) {
    for (int64_t s = 0; s < kSteps; ++s) {
      a0 = a0 * x + y, a1 = a1 * x + y, a2 = a2 * x + y, a3 = a3 * x + y;
      a4 = a4 * x + y, a5 = a5 * x + y, a6 = a6 * x + y, a7 = a7 * x + y;
      a8 = a8 * x + y, a9 = a9 * x + y, a10 = a10 * x + y, a11 = a11 * x + y;
    }
  }
  const Vec sum = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11;
  benchmark::DoNotOptimize(sum);
  state.counters["FLOP/s"] = benchmark::Counter(
      2.0 * kLanes * kChains * kSteps,
      benchmark::Counter::kIsIterationInvariantRate);
}

template <int (*Run)(const float*, const float*, float*, void*)>
void RegisterProduct(const std::string& group, const std::string& size,
                     const Product& p, const char* model, size_t temp_bytes) {
  Register(group + "/aotc/" + size, [=](benchmark::State& state) {
    Compiled<Run>(state, model, p, temp_bytes);
  });
#ifdef AOTC_BENCH_HAS_OPENBLAS
  Register(group + "/openblas/" + size,
           [=](benchmark::State& state) { OpenBlas(state, p); });
#endif
#ifdef AOTC_BENCH_HAS_ONEDNN
  Register(group + "/onednn/" + size,
           [=](benchmark::State& state) { OneDnn(state, p); });
#endif
}

[[maybe_unused]] const bool registered = [] {
  Register("fma_peak", &FmaPeak);
  RegisterProduct<&gemm_256_run>("gemm", "256", {256, 256, 256}, "gemm_256",
                                 GEMM_256_TEMP_BYTES);
  RegisterProduct<&gemm_512_run>("gemm", "512", {512, 512, 512}, "gemm_512",
                                 GEMM_512_TEMP_BYTES);
  RegisterProduct<&gemm_1024_run>("gemm", "1024", {1024, 1024, 1024},
                                  "gemm_1024", GEMM_1024_TEMP_BYTES);
  RegisterProduct<&gemm_2048_run>("gemm", "2048", {2048, 2048, 2048},
                                  "gemm_2048", GEMM_2048_TEMP_BYTES);
  const Product bf16_1024{1024, 1024, 1024};  // and the s8 product's
  Register("gemm_bf16/aotc/1024", [=](benchmark::State& state) {
    CompiledBf16<&gemm_bf16_1024_run>(state, "gemm_bf16_1024", bf16_1024,
                                      GEMM_BF16_1024_TEMP_BYTES);
  });
  Register("gemm_bf16/aotc_widened/1024", [=](benchmark::State& state) {
    CompiledBf16<&gemm_bf16_1024_widened_run>(
        state, "gemm_bf16_1024_widened", bf16_1024,
        GEMM_BF16_1024_WIDENED_TEMP_BYTES);
  });
#ifdef AOTC_BENCH_HAS_ONEDNN
  // Registered where oneDNN implements it (AVX-512 CPUs), so that the smoke
  // test does not fail elsewhere.
  if (Bf16Matmul(dnnl::engine(dnnl::engine::kind::cpu, 0), bf16_1024)) {
    Register("gemm_bf16/onednn/1024",
             [=](benchmark::State& state) { OneDnnBf16(state, bf16_1024); });
  }
#endif
  Register("gemm_s8/aotc/1024", [=](benchmark::State& state) {
    CompiledS8<&gemm_s8_1024_run>(state, "gemm_s8_1024", bf16_1024,
                                  GEMM_S8_1024_TEMP_BYTES);
  });
  Register("gemm_s8/aotc_widened/1024", [=](benchmark::State& state) {
    CompiledS8<&gemm_s8_1024_widened_run>(state, "gemm_s8_1024_widened",
                                          bf16_1024,
                                          GEMM_S8_1024_WIDENED_TEMP_BYTES);
  });
#ifdef AOTC_BENCH_HAS_ONEDNN
  Register("gemm_s8/onednn/1024",
           [=](benchmark::State& state) { OneDnnS8(state, bf16_1024); });
#endif
  RegisterProduct<&skinny_m1_run>("skinny", "m1", {1, 512, 784}, "skinny_m1",
                                  SKINNY_M1_TEMP_BYTES);
  RegisterProduct<&skinny_m16_run>("skinny", "m16", {16, 512, 784},
                                   "skinny_m16", SKINNY_M16_TEMP_BYTES);
  RegisterProduct<&skinny_m64_run>("skinny", "m64", {64, 512, 784},
                                   "skinny_m64", SKINNY_M64_TEMP_BYTES);
  return true;
}();

}  // namespace
}  // namespace aotc::bench
