/* Runs three_steps (4x^2 - x) on x[i] = i % 7 and prints two elements. */
#include <stdio.h>
#include <stdlib.h>

#include "three_steps.h"

int main(void) {
  static float x[256 * 256], c[256 * 256];
  for (int i = 0; i < 256 * 256; ++i) x[i] = (float)(i % 7);
  void* temp = aligned_alloc(THREE_STEPS_ALIGNMENT, THREE_STEPS_TEMP_BYTES);
  int status = three_steps_run(x, c, temp);
  printf("status %d c[3] %g c[65535] %g\n", status, c[3], c[65535]);
  free(temp);
  return 0;
}
