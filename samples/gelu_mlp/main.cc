// Runs the compiled GELU MLP (samples/gelu_mlp.hlo) through its generated C++
// class, samples::GeluMlp, and checks every output against the same network
// computed here in double with std::erf:
//
//   out = gelu(x . w1 + b1) . w2 + b2,  gelu(v) = v * 0.5 * (1 + erf(v / sqrt
//   2))
//
// The inputs follow fixed patterns, so every run prints the same numbers. The
// program exits with status 1 when an output is off by more than the error
// that f32 arithmetic explains, bounded per output from the computation (see
// Reference).
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

constexpr int kTimedRuns = 10000;
// f32's unit roundoff, and the largest error of aotc's f32 erf in ulps
// (docs/math.md, "Accuracy").
const double kU = std::ldexp(1.0, -24);
constexpr double kErfUlps = 1.56;

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

// The worst-case rounding error of b + sum of n products in f32, in any
// order: gamma_(n+1) (|b| + sum |products|), gamma_m = m u / (1 - m u).
double DotBound(int n, double magnitude) {
  const double m = n + 1;
  return m * kU / (1 - m * kU) * magnitude;
}

// The error of gelu computed in f32 as the model does, v * 0.5 *
// (1 + erf(v * c)) with c = 1/sqrt(2) rounded to f32, for an input v off by
// at most e_v (first order, grown by 1% for the second):
//   a = v * c:   (e_v + 2u|v|) / sqrt(2)    (the rounded c, the product)
//   s = 1 + erf(a): 2/sqrt(pi) e_a + erf's ulps (ulp <= 2u) + u |s|
//   g = (v * 0.5) * s: 0.5 |s| e_v + 0.5 |v| e_s + u |g|
double GeluBound(double v, double e_v) {
  const double e_a = (e_v + 2 * kU * std::abs(v)) / std::sqrt(2.0);
  const double s = 1 + std::erf(v / std::sqrt(2.0));
  const double two_over_sqrt_pi = 2 / std::sqrt(std::acos(-1.0));  // erf'(0)
  const double e_s = two_over_sqrt_pi * e_a + kErfUlps * 2 * kU + kU * s;
  const double g = 0.5 * v * s;
  return 1.01 * (0.5 * s * e_v + 0.5 * std::abs(v) * e_s + kU * std::abs(g));
}

// The network in double, row-major like the model's buffers, and per
// output the error an f32 evaluation may have: the first layer's dot bound
// through gelu, then summed with |w2| into the second layer's dot bound.
struct Expected {
  std::vector<double> out;
  std::vector<double> bound;
};
Expected Reference(const std::vector<float>& x, const std::vector<float>& w1,
                   const std::vector<float>& b1, const std::vector<float>& w2,
                   const std::vector<float>& b2) {
  Expected e{std::vector<double>(kBatch * kOut),
             std::vector<double>(kBatch * kOut)};
  for (int r = 0; r < kBatch; ++r) {
    double hidden[kHidden], hidden_bound[kHidden];
    for (int j = 0; j < kHidden; ++j) {
      double sum = b1[j], magnitude = std::abs(b1[j]);
      for (int k = 0; k < kIn; ++k) {
        const double p = double{x[r * kIn + k]} * w1[k * kHidden + j];
        sum += p;
        magnitude += std::abs(p);
      }
      hidden[j] = Gelu(sum);
      hidden_bound[j] = GeluBound(sum, DotBound(kIn, magnitude));
    }
    for (int j = 0; j < kOut; ++j) {
      double sum = b2[j], magnitude = std::abs(b2[j]), carried = 0;
      for (int k = 0; k < kHidden; ++k) {
        const double w = w2[k * kOut + j];
        sum += hidden[k] * w;
        magnitude += std::abs(hidden[k] * w);
        carried += std::abs(w) * hidden_bound[k];
      }
      e.out[r * kOut + j] = sum;
      e.bound[r * kOut + j] = carried + DotBound(kHidden, magnitude);
    }
  }
  return e;
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

  const Expected expected = Reference(x, w1, b1, w2, b2);
  std::printf("gelu_mlp: x f32[%d,%d] -> dense %d -> GELU -> dense %d\n",
              kBatch, kIn, kHidden, kOut);
  double max_error = 0, max_bound = 0, max_ratio = 0;
  for (int r = 0; r < kBatch; ++r) {
    std::printf("row %d:", r);
    for (int j = 0; j < kOut; ++j) {
      double got = out[r * kOut + j];
      double want = expected.out[r * kOut + j];
      double error = std::abs(got - want);
      max_error = std::max(max_error, error);
      max_bound = std::max(max_bound, expected.bound[r * kOut + j]);
      max_ratio = std::max(max_ratio, error / expected.bound[r * kOut + j]);
      std::printf("  %10.6f (ref %10.6f)", got, want);
    }
    std::printf("\n");
  }
  bool ok = max_ratio <= 1;
  std::printf(
      "max abs error vs reference: %.3g (%s: at most %.2f of the f32 rounding "
      "bound, which is up to %.2g)\n",
      max_error, ok ? "ok" : "MISMATCH", max_ratio, max_bound);
  std::printf("time: %.3f us per run (best of %d runs)\n", best_seconds * 1e6,
              kTimedRuns);
  return ok ? 0 : 1;
}
