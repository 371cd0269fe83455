/* Runs the softmax that JAX exported as StableHLO and checks it against the
 * same softmax computed in double.
 *
 * Error bound per probability p (f32, u = 2^-24): exp is within 2 ulps
 * (docs/math.md), max and subtract are exact or one rounding, the sum of 8
 * terms adds at most 7 roundings, the division one: |got - p| <= 16 u p.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "softmax.h"

static _Alignas(SOFTMAX_ALIGNMENT) unsigned char temp[SOFTMAX_TEMP_BYTES + 1];

int main(void) {
  enum { kRows = 4, kCols = 8 };
  float x[kRows][kCols], p[kRows][kCols];
  for (int i = 0; i < kRows; ++i) {
    for (int j = 0; j < kCols; ++j) {
      x[i][j] = 0.37f * (float)(j * (i + 1)) - 1.5f * (float)i;
    }
  }
  const int status = softmax_run(&x[0][0], &p[0][0], temp);
  if (status != 0) {
    printf("softmax_run failed: %d\n", status);
    return 1;
  }
  double worst = 0; /* largest error as a fraction of its bound */
  for (int i = 0; i < kRows; ++i) {
    double m = x[i][0], sum = 0, row = 0;
    for (int j = 1; j < kCols; ++j) m = fmax(m, x[i][j]);
    for (int j = 0; j < kCols; ++j) sum += exp((double)x[i][j] - m);
    for (int j = 0; j < kCols; ++j) {
      const double want = exp((double)x[i][j] - m) / sum;
      const double bound = 16 * ldexp(1.0, -24) * want;
      worst = fmax(worst, fabs(p[i][j] - want) / bound);
      row += p[i][j];
    }
    printf("row %d: p[0] %.7f p[7] %.7f sum %.7f\n", i, p[i][0],
           p[i][kCols - 1], row);
  }
  printf("largest error: %.3f of the bound (%s)\n", worst,
         worst <= 1 ? "ok" : "TOO LARGE");
  return worst <= 1 ? 0 : 1;
}
