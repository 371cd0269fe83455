// One decoder step's write into a KV cache of 256 MiB (f32[65536,1024]):
//
//   kv_cache/aotc_donated  the cache is donated (input_output_alias): the
//                          dynamic-update-slice writes the one 4 KiB row in
//                          place
//   kv_cache/aotc_copy     the same model without donation: the result is a
//                          new array, so the whole cache is copied
//   kv_cache/row_memcpy    memcpy of the row alone: the least a step costs
//
// Bytes per iteration are the row's 4 KiB for all three, so the rates show
// how far each is from touching only the row. The row and its neighbours are
// checked before timing.
#include <cstdint>
#include <cstring>
#include <string>

#include "bench_util.h"
#include "kv_cache_copy.h"
#include "kv_cache_donated.h"

namespace aotc::bench {
namespace {

constexpr int64_t kRows = 65536;
constexpr int64_t kWidth = 1024;
constexpr int32_t kPos = 4321;
constexpr int64_t kRowBytes = kWidth * sizeof(float);

static_assert(KV_CACHE_DONATED_CACHE_ELEMENTS == kRows * kWidth &&
                  KV_CACHE_COPY_CACHE_ELEMENTS == kRows * kWidth,
              "kv_cache_*.hlo have unexpected shapes");

// Row kPos must hold x, the rows around it their old value `old`.
std::optional<std::string> CheckRow(const float* cache, const float* x,
                                    float old) {
  for (int64_t j = 0; j < kWidth; ++j) {
    if (cache[kPos * kWidth + j] != x[j] ||
        cache[(kPos - 1) * kWidth + j] != old ||
        cache[(kPos + 1) * kWidth + j] != old) {
      return "kv_cache: row " + std::to_string(kPos) +
             " or a neighbour is wrong";
    }
  }
  return std::nullopt;
}

void Donated(benchmark::State& state) {
  UseThreads(state);
  const AlignedFloats x = UniformFloats(kWidth, 31, -1.0f, 1.0f);
  AlignedFloats cache(kRows * kWidth);
  std::fill(cache.data(), cache.data() + cache.size(), 0.25f);
  auto temp = AllocateTemp(KV_CACHE_DONATED_TEMP_BYTES);
  auto step = [&] {
    return kv_cache_donated_run(x.data(), cache.data(), &kPos, temp.get());
  };
  if (SkipOnStatus(state, "kv_cache donated", step())) return;
  if (SkipOnError(state, CheckRow(cache.data(), x.data(), 0.25f))) return;
  for (auto _ : state) {
    step();
    benchmark::ClobberMemory();
  }
  SetBytes(state, kRowBytes);
}

void Copy(benchmark::State& state) {
  UseThreads(state);
  const AlignedFloats x = UniformFloats(kWidth, 31, -1.0f, 1.0f);
  AlignedFloats cache(kRows * kWidth), out(kRows * kWidth);
  std::fill(cache.data(), cache.data() + cache.size(), 0.25f);
  auto temp = AllocateTemp(KV_CACHE_COPY_TEMP_BYTES);
  auto step = [&] {
    return kv_cache_copy_run(x.data(), cache.data(), &kPos, out.data(),
                             temp.get());
  };
  if (SkipOnStatus(state, "kv_cache copy", step())) return;
  if (SkipOnError(state, CheckRow(out.data(), x.data(), 0.25f))) return;
  for (auto _ : state) {
    step();
    benchmark::ClobberMemory();
  }
  SetBytes(state, kRowBytes);
}

void RowMemcpy(benchmark::State& state) {
  UseThreads(state);
  const AlignedFloats x = UniformFloats(kWidth, 31, -1.0f, 1.0f);
  AlignedFloats cache(kRows * kWidth);
  std::fill(cache.data(), cache.data() + cache.size(), 0.25f);
  for (auto _ : state) {
    std::memcpy(cache.data() + kPos * kWidth, x.data(), kRowBytes);
    benchmark::ClobberMemory();
  }
  if (SkipOnError(state, CheckRow(cache.data(), x.data(), 0.25f))) return;
  SetBytes(state, kRowBytes);
}

[[maybe_unused]] const bool registered = [] {
  Register("kv_cache/aotc_donated", Donated);
  Register("kv_cache/aotc_copy", Copy);
  Register("kv_cache/row_memcpy", RowMemcpy);
  return true;
}();

}  // namespace
}  // namespace aotc::bench
