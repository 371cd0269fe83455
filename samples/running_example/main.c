/* Runs the compiled running example, mean(x**2 * 3 + y) over 4096x4096 f32.
 *
 * Everything the model touches is static, as firmware would have it: the two
 * inputs, the result and the scratch memory (RUNNING_EXAMPLE_TEMP_BYTES at
 * RUNNING_EXAMPLE_ALIGNMENT, straight from the generated header). The inputs
 * follow a fixed pattern, so the program computes the expected mean itself,
 * in double, and checks the model's result against it.
 *
 * An f32 sum of 16.7 million positive terms is not exact: HLO's reduce leaves
 * the order of the additions open, and adding the terms one after another
 * into a single f32 running sum (which ends near 4e7, where f32 values are 4
 * apart) drifts by about 1%. The program therefore also computes that
 * left-to-right f32 sum and accepts any result at least as accurate as it,
 * plus a relative 1e-5; it exits with status 1 otherwise. */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <time.h>

#include "aotc/runtime.h"
#include "running_example.h"

enum { kRows = 4096, kCols = 4096, kElements = kRows * kCols, kRuns = 10 };
_Static_assert(RUNNING_EXAMPLE_X_ELEMENTS == kElements &&
                   RUNNING_EXAMPLE_Y_ELEMENTS == kElements,
               "the model's inputs are not 4096x4096");

static const double kSlack = 1e-5;

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
  double expected = 0.0;
  float left_to_right = 0.0f;
  for (long i = 0; i < kElements; ++i) {
    double xi = (double)x[i];
    expected += xi * xi * 3.0 + (double)y[i];
    left_to_right += x[i] * x[i] * 3.0f + y[i];
  }
  expected /= (double)kElements;
  left_to_right /= (float)kElements;

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
  double bound = RelativeError((double)left_to_right, expected) + kSlack;
  int ok = error <= bound;
  printf("running_example: mean(x**2 * 3 + y) over %dx%d f32\n", kRows, kCols);
  printf("result:   %.7g\n", (double)result);
  printf("expected: %.7g (exact, computed in double by main.c)\n", expected);
  printf(
      "relative error: %.2e (%s: an f32 sum from left to right is off by "
      "%.2e)\n",
      error, ok ? "ok" : "TOO LARGE", bound - kSlack);
  printf("time: %.3f ms per run (best of %d runs)\n", best * 1e3, kRuns);
  return ok ? 0 : 1;
}
