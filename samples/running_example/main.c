/* Runs the compiled running example, mean(x**2 * 3 + y) over 4096x4096 f32.
 *
 * Everything the model touches is static, as firmware would have it: the two
 * inputs, the result and the scratch memory (RUNNING_EXAMPLE_TEMP_BYTES at
 * RUNNING_EXAMPLE_ALIGNMENT, straight from the generated header). The inputs
 * follow a fixed pattern, so the program computes the expected mean itself,
 * in double, and checks the model's result against it.
 *
 * An f32 sum of 16.7 million terms is not exact, and HLO's reduce leaves the
 * order of the additions open. The program accepts the rounding error that
 * f32 arithmetic explains, worked out from the computation itself (u = 2^-24,
 * the unit roundoff of f32; n = 4096 * 4096 terms t = x*x*3 + y):
 *   - each term: three roundings, at most 3u (3x^2 + |y|);
 *   - the sum: u sqrt(n) sum |t|, the rounding of a sum of n terms in any
 *     order (n - 1 roundings, each at most u times a partial sum, which is at
 *     most sum |t|; independent roundings add like a random walk, hence
 *     sqrt(n) rather than the worst case n; docs/testing.md, "The oracle");
 *   - the division by n = 2^24 is exact, the result then rounds once: u |mean|.
 * Divided by n this allows about 2.5e-4 relative here (adding the terms left to
 * right in one f32 running sum drifts by 1.4e-2: such a result would fail).
 * The program exits with status 1 when the error exceeds the bound. */
#define _POSIX_C_SOURCE 199309L

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "aotc/runtime.h"
#include "running_example.h"

enum { kRows = 4096, kCols = 4096, kElements = kRows * kCols, kRuns = 10 };
_Static_assert(RUNNING_EXAMPLE_X_ELEMENTS == kElements &&
                   RUNNING_EXAMPLE_Y_ELEMENTS == kElements,
               "the model's inputs are not 4096x4096");

static float x[kElements];
static float y[kElements];
/* One extra byte keeps the array legal when the model needs no scratch. */
#define SCRATCH_BYTES (RUNNING_EXAMPLE_TEMP_BYTES + 1)
static _Alignas(RUNNING_EXAMPLE_ALIGNMENT) unsigned char scratch[SCRATCH_BYTES];

static double NowSeconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static double RelativeError(double value, double exact) {
  double error = (value - exact) / exact;
  return error < 0 ? -error : error;
}

int main(void) {
  for (long i = 0; i < kElements; ++i) {
    x[i] = (float)(i % 7) * 0.25f;
    y[i] = (float)(i % 5 - 2) * 0.5f;
  }

  /* Every term is exact in double and so is their sum: this is the mean. */
  const double u = ldexp(1.0, -24);
  double expected = 0.0, term_errors = 0.0, magnitude = 0.0;
  for (long i = 0; i < kElements; ++i) {
    double xi = (double)x[i], yi = (double)y[i];
    double term = xi * xi * 3.0 + yi;
    expected += term;
    term_errors += 3.0 * u * (xi * xi * 3.0 + fabs(yi));
    magnitude += fabs(term);
  }
  expected /= (double)kElements;
  const double n = (double)kElements;
  const double allowed =
      (term_errors + u * sqrt(n) * magnitude) / n + u * fabs(expected);

  float result = 0.0f;
  double best = 0.0;
  for (int run = 0; run < kRuns; ++run) {
    double start = NowSeconds();
    int status = running_example_run(x, y, &result, scratch);
    double elapsed = NowSeconds() - start;
    if (status != AOTC_OK) {
      fprintf(stderr, "running_example_run failed: %s\n",
              aotc_status_message(status));
      return 1;
    }
    if (run == 0 || elapsed < best) best = elapsed;
  }

  double error = RelativeError((double)result, expected);
  double bound = allowed / fabs(expected);
  int ok = error <= bound;
  printf("running_example: mean(x**2 * 3 + y) over %dx%d f32\n", kRows, kCols);
  printf("result:   %.7g\n", (double)result);
  printf("expected: %.7g (exact, computed in double by main.c)\n", expected);
  printf("relative error: %.2e (%s: f32 rounding allows %.2e)\n", error,
         ok ? "ok" : "TOO LARGE", bound);
  printf("time: %.3f ms per run (best of %d runs)\n", best * 1e3, kRuns);
  return ok ? 0 : 1;
}
