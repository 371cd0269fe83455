/* Reads profile_loop's counters the way a firmware would: two runs, then
 * every region with its calls, and whether the regions' ticks fit in the
 * whole runs' ticks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "profile_loop.h"

int main(void) {
  static float x[64], y[64];
  void* temp = aligned_alloc(PROFILE_LOOP_ALIGNMENT, PROFILE_LOOP_TEMP_BYTES);
  for (int i = 0; i < 64; ++i) x[i] = (float)i / 64;
  for (int run = 0; run < 2; ++run) {
    if (profile_loop_run(x, y, temp) != 0) return 1;
  }
  uint64_t regions = 0;
  for (int k = 0; k <= PROFILE_LOOP_PROFILE_REGIONS; ++k) {
    printf("%s: %llu calls\n", profile_loop_profile_names[k],
           (unsigned long long)profile_loop_profile[2 * k + 1]);
    if (k > 0) regions += profile_loop_profile[2 * k];
  }
  printf("regions within the runs: %s\n",
         regions <= profile_loop_profile[0] ? "yes" : "no");
  /* exp(x * 2^5) of x = 1/64 is e^0.5. */
  printf("y[1] = %.4f\n", y[1]);
  free(temp);
  return 0;
}
