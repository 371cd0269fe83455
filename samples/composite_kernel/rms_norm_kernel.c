/* The program's own RMSNorm for the composite my.rms_norm, with the
 * external-call ABI the generated header declares:
 *   inputs[0] x : f32[4,16], inputs[1] w : f32[16], outputs[0] y : f32[4,16]
 *   opaque: the composite's attributes as written, then ";version=N", e.g.
 *   "{epsilon = 1.000000e-05 : f32};version=1".
 * It reads epsilon from the attributes and refuses another version. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rms_model.h"

int rms_norm_kernel_calls = 0;

int rms_norm_kernel(void* const* outputs, const void* const* inputs,
                    const char* opaque, size_t opaque_len) {
  enum { kRows = 4, kCols = 16 };
  const float* x = (const float*)inputs[0];
  const float* w = (const float*)inputs[1];
  float* y = (float*)outputs[0];
  const char* version = strstr(opaque, ";version=");
  const char* eps_text = strstr(opaque, "epsilon = ");
  if (version == NULL || strcmp(version, ";version=1") != 0 ||
      eps_text == NULL || (size_t)(eps_text - opaque) >= opaque_len) {
    return 1;
  }
  const double eps = strtod(eps_text + strlen("epsilon = "), NULL);
  for (int i = 0; i < kRows; ++i) {
    double ss = 0;
    for (int j = 0; j < kCols; ++j) ss += (double)x[i * kCols + j] * x[i * kCols + j];
    const double r = 1.0 / sqrt(ss / kCols + eps);
    for (int j = 0; j < kCols; ++j) {
      y[i * kCols + j] = (float)(x[i * kCols + j] * r * w[j]);
    }
  }
  ++rms_norm_kernel_calls;
  return 0;
}
