// Seeded inputs, aligned buffers, thread selection and checks for aotc_bench.
#include "bench_util.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>

#include "aotc/runtime.h"

namespace aotc::bench {

namespace {

constexpr size_t kAlignment = 64;

void* AlignedAlloc(size_t bytes) {
  // aligned_alloc wants a size that is a multiple of the alignment, and a
  // zero-byte request may return null.
  size_t rounded = std::max(kAlignment, (bytes + kAlignment - 1) / kAlignment *
                                            kAlignment);
  void* p = std::aligned_alloc(kAlignment, rounded);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int current_threads = 1;

std::string Format(const char* format, const char* what, double a, double b,
                   double c) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, format, what, a, b, c);
  return buffer;
}

}  // namespace

AlignedFloats::AlignedFloats(size_t count)
    : data_(static_cast<float*>(AlignedAlloc(count * sizeof(float)))),
      size_(count) {}

std::unique_ptr<void, FreeDeleter> AllocateTemp(size_t bytes) {
  return std::unique_ptr<void, FreeDeleter>(AlignedAlloc(bytes));
}

AlignedFloats UniformFloats(size_t count, uint64_t seed, float lo, float hi) {
  AlignedFloats values(count);
  uint64_t state = seed;
  for (size_t i = 0; i < count; ++i) {
    // The top 24 bits give a float in [0, 1) exactly.
    float unit = static_cast<float>(SplitMix64(state) >> 40) * 0x1p-24f;
    values[i] = lo + (hi - lo) * unit;
  }
  return values;
}

ThreadPool& Pool() {
  static ThreadPool pool(2);
  return pool;
}

void UseThreads(const benchmark::State& state) {
  current_threads = static_cast<int>(state.range(0));
  if (current_threads == 1) {
    aotc_set_parallel_for(nullptr, nullptr);
  } else {
    aotc_set_parallel_for(&ThreadPool::Hook, &Pool());
  }
}

int CurrentThreads() { return current_threads; }

std::optional<std::string> CheckScalar(const char* what, double got,
                                       double want) {
  double error = std::abs(got - want) / std::abs(want);
  if (error <= kScalarRelTolerance) return std::nullopt;
  return Format("%s: result %.9g, expected %.9g (relative error %.3g)", what,
                got, want, error);
}

std::optional<std::string> CheckArray(const char* what, const float* got,
                                      const std::vector<double>& want) {
  double scale = 0;
  for (double w : want) scale = std::max(scale, std::abs(w));
  double worst = 0;
  size_t worst_index = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    double error = std::abs(static_cast<double>(got[i]) - want[i]);
    // Written so that a NaN result counts as the worst error.
    if (!(error <= worst)) {
      worst = error;
      worst_index = i;
    }
  }
  if (worst <= kArrayTolerance * scale) return std::nullopt;
  return Format("%s: max abs error %.3g at index %.0f exceeds %.3g", what,
                worst, static_cast<double>(worst_index),
                kArrayTolerance * scale);
}

std::optional<std::string> CheckExact(const char* what, const float* got,
                                      const std::vector<float>& want,
                                      bool bits) {
  for (size_t i = 0; i < want.size(); ++i) {
    const bool same = bits ? std::memcmp(&got[i], &want[i], sizeof(float)) == 0
                           : got[i] == want[i];
    if (!same) {
      // A zero of the other sign prints as -0 or 0.
      return Format("%s: element %.0f is %.9g, expected %.9g", what,
                    static_cast<double>(i), static_cast<double>(got[i]),
                    static_cast<double>(want[i]));
    }
  }
  return std::nullopt;
}

bool SkipOnError(benchmark::State& state,
                 const std::optional<std::string>& error) {
  if (!error) return false;
  state.SkipWithError(error->c_str());
  return true;
}

bool SkipOnStatus(benchmark::State& state, const char* model, int status) {
  if (status == AOTC_OK) return false;
  std::string message =
      std::string(model) + "_run failed: " + aotc_status_message(status);
  state.SkipWithError(message.c_str());
  return true;
}

std::optional<std::string> CheckSamples(const std::vector<Sample>& samples,
                                        const float* got) {
  for (const Sample& s : samples) {
    if (!(std::abs(got[s.offset] - s.want) <= s.bound)) {
      return "element " + std::to_string(s.offset) + " is " +
             std::to_string(got[s.offset]) + ", want " + std::to_string(s.want);
    }
  }
  return std::nullopt;
}

void SetBytes(benchmark::State& state, int64_t bytes_per_iteration) {
  state.SetBytesProcessed(bytes_per_iteration *
                          static_cast<int64_t>(state.iterations()));
}

benchmark::internal::Benchmark* Register(
    const std::string& name, std::function<void(benchmark::State&)> fn) {
  return benchmark::RegisterBenchmark(
             name.c_str(), [fn](benchmark::State& state) { fn(state); })
      ->ArgName("threads")
      ->Arg(1)
      ->Arg(2)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace aotc::bench
