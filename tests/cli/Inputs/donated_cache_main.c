/* Runs donated_cache (tests/cli/donation.test): the cache is updated in place. */
#include <stdio.h>

#include "donated_cache.h"

static _Alignas(64) unsigned char temp[DONATED_CACHE_TEMP_BYTES + 64];

int main(void) {
  float x[4] = {1, 2, 3, 4};
  float cache[6][4];
  float result0[4];
  int32_t pos = 2;
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 4; ++j) cache[i][j] = 0.5f;
  }
  int status = donated_cache_run(x, &cache[0][0], &pos, result0, temp);
  printf("status %d\n", status);
  for (int i = 1; i <= 3; ++i) {
    printf("row%d %g %g %g %g\n", i, cache[i][0], cache[i][1], cache[i][2],
           cache[i][3]);
  }
  printf("result0 %g %g %g %g\n", result0[0], result0[1], result0[2], result0[3]);
  return status;
}
