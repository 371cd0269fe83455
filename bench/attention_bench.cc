// Attention, softmax(Q K^T / 8 [+ causal mask]) V over 8 heads of 64, f32
// (bench/models/attention_*.hlo, in the decomposed form exporters write):
//
//   attention/aotc/S          the attention strategy (online softmax)
//   attention/decomposed/S    the same model with --disable-pass
//                             attention-fusion: the scores materialised
//   attention_causal/...      the causal mask; FLOP/s count the causal
//                             FLOPs (about half)
//
// for S = 128, 512, 2048 and 8192 (no decomposed row at 8192: its scores
// alone would be 2 GiB). FLOPs: 4 S^2 64 per head (two products), half and a
// diagonal with the mask. Before timing, 64 sampled output elements are
// checked against attention computed in double, within 1e-5 of the sum of
// the probabilities times |v| (the scores' f32 rounding moves each
// probability by about 1e-6 relative). Counters: FLOP/s, and TEMP_BYTES, the
// model's scratch. fma_peak (gemm_bench.cc) is the bound to divide by.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "attention_128.h"
#include "attention_128_causal.h"
#include "attention_128_causal_decomposed.h"
#include "attention_128_decomposed.h"
#include "attention_2048.h"
#include "attention_2048_causal.h"
#include "attention_2048_causal_decomposed.h"
#include "attention_2048_decomposed.h"
#include "attention_512.h"
#include "attention_512_causal.h"
#include "attention_512_causal_decomposed.h"
#include "attention_512_decomposed.h"
#include "attention_8192.h"
#include "attention_8192_causal.h"
#include "bench_util.h"

namespace aotc::bench {
namespace {

constexpr int64_t kHeads = 8;
constexpr int64_t kHead = 64;

using RunFn = int (*)(const float*, const float*, const float*, float*, void*);

struct Inputs {
  AlignedFloats q, k, v;
};

const Inputs& InputsFor(int64_t s) {
  static std::vector<std::pair<int64_t, std::unique_ptr<Inputs>>> cache;
  for (const auto& [size, in] : cache) {
    if (size == s) return *in;
  }
  auto in = std::make_unique<Inputs>();
  const size_t n = kHeads * s * kHead;
  in->q = UniformFloats(n, 71, -1, 1);
  in->k = UniformFloats(n, 72, -1, 1);
  in->v = UniformFloats(n, 73, -1, 1);
  cache.emplace_back(s, std::move(in));
  return *cache.back().second;
}

// 64 output elements spread over heads, rows and columns, in double.
std::vector<Sample> Samples(const Inputs& in, int64_t s, bool causal) {
  std::vector<Sample> out;
  for (int64_t n = 0; n < 64; ++n) {
    const int64_t h = n % kHeads, i = (n * 977) % s, d = (n * 13) % kHead;
    const float* q = in.q.data() + (h * s + i) * kHead;
    const int64_t keys = causal ? i + 1 : s;
    std::vector<double> score(keys);
    double m = -INFINITY;
    for (int64_t j = 0; j < keys; ++j) {
      const float* k = in.k.data() + (h * s + j) * kHead;
      double dot = 0;
      for (int64_t c = 0; c < kHead; ++c) dot += double(q[c]) * k[c];
      score[j] = dot * 0.125;
      m = std::max(m, score[j]);
    }
    double l = 0, o = 0, weight = 0;
    for (int64_t j = 0; j < keys; ++j) {
      const double e = std::exp(score[j] - m);
      const double v = in.v[(h * s + j) * kHead + d];
      l += e;
      o += e * v;
      weight += e * std::fabs(v);
    }
    out.push_back({(h * s + i) * kHead + d, o / l, 1e-5 * weight / l + 1e-7});
  }
  return out;
}

double Flops(int64_t s, bool causal) {
  const double pairs = causal ? double(s) * (s + 1) / 2 : double(s) * s;
  return kHeads * pairs * kHead * 4;
}

void Attention(benchmark::State& state, RunFn run, const char* name, int64_t s,
               bool causal, int64_t temp_bytes) {
  const Inputs& in = InputsFor(s);
  AlignedFloats out(kHeads * s * kHead);
  auto temp = AllocateTemp(temp_bytes);
  TimeSampledResult(state, name, Samples(in, s, causal), out, Flops(s, causal), [&] {
    return run(in.q.data(), in.k.data(), in.v.data(), out.data(), temp.get());
  });
  state.counters["TEMP_BYTES"] = static_cast<double>(temp_bytes);
}

void Add(const std::string& group, const std::string& variant, int64_t s,
         bool causal, RunFn run, const char* name, int64_t temp_bytes) {
  Register(group + "/" + variant + "/" + std::to_string(s),
           [=](benchmark::State& state) {
             Attention(state, run, name, s, causal, temp_bytes);
           });
}

[[maybe_unused]] const bool registered = [] {
#define AOTC_ATTENTION(S, NAME, MACRO)                                     \
  Add("attention", "aotc", S, false, &NAME##_run, #NAME, MACRO##_TEMP_BYTES)
  AOTC_ATTENTION(128, attention_128, ATTENTION_128);
  AOTC_ATTENTION(512, attention_512, ATTENTION_512);
  AOTC_ATTENTION(2048, attention_2048, ATTENTION_2048);
  AOTC_ATTENTION(8192, attention_8192, ATTENTION_8192);
  Add("attention", "decomposed", 128, false, &attention_128_decomposed_run,
      "attention_128_decomposed", ATTENTION_128_DECOMPOSED_TEMP_BYTES);
  Add("attention", "decomposed", 512, false, &attention_512_decomposed_run,
      "attention_512_decomposed", ATTENTION_512_DECOMPOSED_TEMP_BYTES);
  Add("attention", "decomposed", 2048, false, &attention_2048_decomposed_run,
      "attention_2048_decomposed", ATTENTION_2048_DECOMPOSED_TEMP_BYTES);
  Add("attention_causal", "aotc", 128, true, &attention_128_causal_run,
      "attention_128_causal", ATTENTION_128_CAUSAL_TEMP_BYTES);
  Add("attention_causal", "aotc", 512, true, &attention_512_causal_run,
      "attention_512_causal", ATTENTION_512_CAUSAL_TEMP_BYTES);
  Add("attention_causal", "aotc", 2048, true, &attention_2048_causal_run,
      "attention_2048_causal", ATTENTION_2048_CAUSAL_TEMP_BYTES);
  Add("attention_causal", "aotc", 8192, true, &attention_8192_causal_run,
      "attention_8192_causal", ATTENTION_8192_CAUSAL_TEMP_BYTES);
  Add("attention_causal", "decomposed", 128, true,
      &attention_128_causal_decomposed_run, "attention_128_causal_decomposed",
      ATTENTION_128_CAUSAL_DECOMPOSED_TEMP_BYTES);
  Add("attention_causal", "decomposed", 512, true,
      &attention_512_causal_decomposed_run, "attention_512_causal_decomposed",
      ATTENTION_512_CAUSAL_DECOMPOSED_TEMP_BYTES);
  Add("attention_causal", "decomposed", 2048, true,
      &attention_2048_causal_decomposed_run, "attention_2048_causal_decomposed",
      ATTENTION_2048_CAUSAL_DECOMPOSED_TEMP_BYTES);
#undef AOTC_ATTENTION
  return true;
}();

}  // namespace
}  // namespace aotc::bench
