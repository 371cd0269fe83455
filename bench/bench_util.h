// What every benchmark of aotc_bench shares: seeded inputs, aligned buffers,
// the thread count of a run, and the correctness checks done before timing.
//
// Thread counts: each benchmark runs with the argument "threads" = 1 or 2.
// UseThreads(state) installs the process-wide ThreadPool (2 threads, the
// caller included) as aotc's parallel-for hook, or removes any hook for 1
// thread, so compiled models, hand-written loops (ParallelFor) and Eigen
// (EigenThreads) all run on the same number of threads.
#ifndef AOTC_BENCH_BENCH_UTIL_H_
#define AOTC_BENCH_BENCH_UTIL_H_

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/thread_pool.h"

namespace aotc::bench {

using ::aotc::ThreadPool;

// Tolerances of the checks, stated once. A scalar mean of millions of f32
// terms is summed in different orders by each implementation: relative
// kScalarRelTolerance against the mean computed in double. Elementwise
// outputs: max |got - want| <= kArrayTolerance * max |want|, where want is
// computed in double.
inline constexpr double kScalarRelTolerance = 1e-4;
inline constexpr double kArrayTolerance = 1e-5;

// 64-byte aligned float storage (compiled models want NAME_ALIGNMENT = 64 for
// temp; the inputs get the same so every implementation sees equal data).
struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
class AlignedFloats {
 public:
  AlignedFloats() = default;
  explicit AlignedFloats(size_t count);
  float* data() { return data_.get(); }
  const float* data() const { return data_.get(); }
  size_t size() const { return size_; }
  float& operator[](size_t i) { return data_.get()[i]; }
  float operator[](size_t i) const { return data_.get()[i]; }

 private:
  std::unique_ptr<float, FreeDeleter> data_;
  size_t size_ = 0;
};

// Scratch memory for a compiled model: `bytes` (may be 0) at 64 bytes.
std::unique_ptr<void, FreeDeleter> AllocateTemp(size_t bytes);

// `count` values uniform in [lo, hi) from a fixed-seed generator
// (SplitMix64); the same seed always gives the same values on any machine.
AlignedFloats UniformFloats(size_t count, uint64_t seed, float lo, float hi);

// Installs the hook for state.range(0) threads (1 or 2); see above.
void UseThreads(const benchmark::State& state);
// The thread count installed by the last UseThreads (1 before any).
int CurrentThreads();
// The shared pool of two threads.
ThreadPool& Pool();

// Runs body(begin, end) over [0, count) on CurrentThreads() threads.
template <typename Body>
void ParallelFor(int64_t count, int64_t min_chunk, Body&& body) {
  if (CurrentThreads() == 1) {
    body(int64_t{0}, count);
    return;
  }
  Pool().ParallelFor(count, min_chunk, body);
}

// The checks: an error message when `got` is outside the tolerance, else
// nothing.
std::optional<std::string> CheckScalar(const char* what, double got,
                                       double want);
std::optional<std::string> CheckArray(const char* what, const float* got,
                                      const std::vector<double>& want);
// Exact: every element equal to `want`'s, bit for bit when `bits` (so that
// -0 and +0, which compare equal, must also stand where `want` has them),
// else by value.
std::optional<std::string> CheckExact(const char* what, const float* got,
                                      const std::vector<float>& want,
                                      bool bits);

// Skips the benchmark with `error` when there is one; returns whether it did.
bool SkipOnError(benchmark::State& state,
                 const std::optional<std::string>& error);
// Skips the benchmark when a compiled model returned a nonzero status.
bool SkipOnStatus(benchmark::State& state, const char* model, int status);

// Sets the bytes each iteration must at least move, so the output shows the
// bandwidth in bytes/s.
void SetBytes(benchmark::State& state, int64_t bytes_per_iteration);

// The body of a benchmark whose result is the array `out`: installs the
// thread count, runs call() once with `out` poisoned with NaN (so that a stale
// result cannot pass), checks `out` against `want`, then times call().
// call() returns an aotc status (AOTC_OK for non-aotc implementations).
// TimeCheckedResult takes the check itself: check(out.data()) returns the
// error, if any.
template <typename Check, typename Call>
void TimeCheckedResult(benchmark::State& state, const char* name,
                       AlignedFloats& out, int64_t bytes_per_iteration,
                       Check check, Call call) {
  UseThreads(state);
  std::fill(out.data(), out.data() + out.size(),
            std::numeric_limits<float>::quiet_NaN());
  if (SkipOnStatus(state, name, call())) return;
  if (SkipOnError(state, check(out.data()))) return;
  for (auto _ : state) {
    call();
    benchmark::ClobberMemory();
  }
  SetBytes(state, bytes_per_iteration);
}
template <typename Call>
void TimeArrayResult(benchmark::State& state, const char* name,
                     const std::vector<double>& want, AlignedFloats& out,
                     int64_t bytes_per_iteration, Call call) {
  TimeCheckedResult(
      state, name, out, bytes_per_iteration,
      [&](const float* got) { return CheckArray(name, got, want); }, call);
}

// An element of a result checked before timing: its offset, its value
// computed in double and the rounding error allowed.
struct Sample {
  int64_t offset;
  double want;
  double bound;
};
std::optional<std::string> CheckSamples(const std::vector<Sample>& samples,
                                        const float* got);

// The body of a compute-bound benchmark of `flops` flops per call whose
// result `out` is too large to compute in double whole: installs the thread
// count, runs call() once with `out` poisoned with NaN, checks the samples,
// then times call() and reports FLOP/s.
template <typename Call>
void TimeSampledResult(benchmark::State& state, const char* name,
                       const std::vector<Sample>& samples, AlignedFloats& out,
                       double flops, Call call) {
  UseThreads(state);
  std::fill(out.data(), out.data() + out.size(),
            std::numeric_limits<float>::quiet_NaN());
  if (SkipOnStatus(state, name, call())) return;
  if (SkipOnError(state, CheckSamples(samples, out.data()))) return;
  for (auto _ : state) {
    call();
    benchmark::ClobberMemory();
  }
  state.counters["FLOP/s"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}

// The registration every benchmark uses: threads 1 and 2, wall-clock time
// (CPU time of the calling thread would hide the workers), milliseconds.
benchmark::internal::Benchmark* Register(
    const std::string& name, std::function<void(benchmark::State&)> fn);

}  // namespace aotc::bench

#endif  // AOTC_BENCH_BENCH_UTIL_H_
