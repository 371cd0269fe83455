// Runs the compiled GELU MLP (samples/gelu_mlp.hlo) through its generated C++
// class, samples::GeluMlp, and checks every output against the same network
// computed here in double with std::erf:
//
//   out = gelu(x . w1 + b1) . w2 + b2,  gelu(v) = v * 0.5 * (1 + erf(v / sqrt
//   2))
//
// The inputs follow fixed patterns, so every run prints the same numbers. The
// program exits with status 1 when an output is off by more than kTolerance.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "aotc/runtime.h"
#include "gelu_mlp.h"

namespace {

using Model = samples::GeluMlp;

constexpr int kBatch = 8;
constexpr int kIn = 16;
constexpr int kHidden = 32;
constexpr int kOut = 4;
static_assert(Model::kXDims[0] == kBatch && Model::kXDims[1] == kIn &&
                  Model::kW1Dims[1] == kHidden && Model::kW2Dims[1] == kOut,
              "gelu_mlp.hlo does not have the shapes this program expects");

// The compiled model computes in f32 and its erf is a polynomial accurate to
// a few f32 ulps; outputs are of order 1.
constexpr double kTolerance = 1e-5;
constexpr int kTimedRuns = 10000;

// A fixed pattern of multiples of 1/8 in [-1, 1], different for each salt.
std::vector<float> Pattern(std::size_t count, int salt, float scale) {
  std::vector<float> values(count);
  for (std::size_t i = 0; i < count; ++i) {
    int step = static_cast<int>((i * 37 + salt * 11) % 17) - 8;
    values[i] = scale * static_cast<float>(step) / 8.0f;
  }
  return values;
}

double Gelu(double v) { return v * 0.5 * (1.0 + std::erf(v / std::sqrt(2.0))); }

// The network in double, row-major like the model's buffers.
std::vector<double> Reference(const std::vector<float>& x,
                              const std::vector<float>& w1,
                              const std::vector<float>& b1,
                              const std::vector<float>& w2,
                              const std::vector<float>& b2) {
  std::vector<double> out(kBatch * kOut);
  for (int r = 0; r < kBatch; ++r) {
    double hidden[kHidden];
    for (int j = 0; j < kHidden; ++j) {
      double sum = b1[j];
      for (int k = 0; k < kIn; ++k)
        sum += double{x[r * kIn + k]} * w1[k * kHidden + j];
      hidden[j] = Gelu(sum);
    }
    for (int j = 0; j < kOut; ++j) {
      double sum = b2[j];
      for (int k = 0; k < kHidden; ++k) sum += hidden[k] * w2[k * kOut + j];
      out[r * kOut + j] = sum;
    }
  }
  return out;
}

}  // namespace

int main() {
  std::vector<float> x = Pattern(Model::kXElements, 1, 1.0f);
  std::vector<float> w1 = Pattern(Model::kW1Elements, 2, 0.5f);
  std::vector<float> b1 = Pattern(Model::kB1Elements, 3, 0.25f);
  std::vector<float> w2 = Pattern(Model::kW2Elements, 4, 0.5f);
  std::vector<float> b2 = Pattern(Model::kB2Elements, 5, 0.25f);
  std::vector<float> out(Model::kResult0Elements);

  Model model;
  model.set_x(x.data());
  model.set_w1(w1.data());
  model.set_b1(b1.data());
  model.set_w2(w2.data());
  model.set_b2(b2.data());
  model.set_result0(out.data());
  // Only temp is still unset, so this allocates just the scratch memory.
  if (int status = model.AllocateBuffers(); status != AOTC_OK) {
    std::fprintf(stderr, "AllocateBuffers failed: %s\n",
                 aotc_status_message(status));
    return 1;
  }

  double best_seconds = 0;
  for (int run = 0; run < kTimedRuns; ++run) {
    auto start = std::chrono::steady_clock::now();
    int status = model.Run();
    std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - start;
    if (status != AOTC_OK) {
      std::fprintf(stderr, "Run failed: %s\n", aotc_status_message(status));
      return 1;
    }
    if (run == 0 || elapsed.count() < best_seconds)
      best_seconds = elapsed.count();
  }

  std::vector<double> expected = Reference(x, w1, b1, w2, b2);
  std::printf("gelu_mlp: x f32[%d,%d] -> dense %d -> GELU -> dense %d\n",
              kBatch, kIn, kHidden, kOut);
  double max_error = 0;
  for (int r = 0; r < kBatch; ++r) {
    std::printf("row %d:", r);
    for (int j = 0; j < kOut; ++j) {
      double got = out[r * kOut + j];
      double want = expected[r * kOut + j];
      max_error = std::max(max_error, std::abs(got - want));
      std::printf("  %10.6f (ref %10.6f)", got, want);
    }
    std::printf("\n");
  }
  bool ok = max_error <= kTolerance;
  std::printf("max abs error vs reference: %.3g (%s, tolerance %.0e)\n",
              max_error, ok ? "ok" : "MISMATCH", kTolerance);
  std::printf("time: %.3f us per run (best of %d runs)\n", best_seconds * 1e6,
              kTimedRuns);
  return ok ? 0 : 1;
}
