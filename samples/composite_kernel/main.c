/* Runs the model whose composite my.rms_norm is bound to rms_norm_kernel
 * (rms_norm_kernel.c) and checks every element against RMSNorm computed in
 * double. The kernel computes in double and rounds once, so each element
 * is within half an ulp, u |y| with u = 2^-24, plus the rounding of the
 * inputs' products; the check allows 4 u |y|. */
#include <math.h>
#include <stdio.h>

#include "rms_model.h"

extern int rms_norm_kernel_calls;

static _Alignas(RMS_MODEL_ALIGNMENT) unsigned char
    temp[RMS_MODEL_TEMP_BYTES + 1];

int main(void) {
  enum { kRows = 4, kCols = 16 };
  float x[kRows][kCols], w[kCols], y[kRows][kCols];
  for (int j = 0; j < kCols; ++j) w[j] = 0.5f + 0.0625f * (float)j;
  for (int i = 0; i < kRows; ++i) {
    for (int j = 0; j < kCols; ++j) {
      x[i][j] = 0.25f * (float)((i + 1) * (j - 7)) + (float)i;
    }
  }
  const int status = rms_model_run(&x[0][0], w, &y[0][0], temp);
  if (status != 0) {
    printf("rms_model_run failed: %d\n", status);
    return 1;
  }
  double worst = 0; /* largest error as a fraction of its bound */
  for (int i = 0; i < kRows; ++i) {
    double ss = 0;
    for (int j = 0; j < kCols; ++j) ss += (double)x[i][j] * x[i][j];
    const double r = 1.0 / sqrt(ss / kCols + 1e-5);
    for (int j = 0; j < kCols; ++j) {
      const double want = x[i][j] * r * w[j];
      const double bound = 4 * ldexp(1.0, -24) * fabs(want) + 1e-30;
      worst = fmax(worst, fabs(y[i][j] - want) / bound);
    }
    printf("row %d: y[0] %.6f y[15] %.6f\n", i, y[i][0], y[i][kCols - 1]);
  }
  printf("kernel calls: %d\n", rms_norm_kernel_calls);
  printf("largest error: %.3f of the bound (%s)\n", worst,
         worst <= 1 ? "ok" : "TOO LARGE");
  return worst <= 1 && rms_norm_kernel_calls == 1 ? 0 : 1;
}
