/* Runs two compiled models from C, with the scratch memory of both carved
 * out of one static buffer by the runtime's arena, then runs them again
 * through their C++ classes (classes.cc). Every expected value is exact in
 * f32: affine(x) = 2x + 1 and sum_squares(x) = sum of x*x. */
#include <stdio.h>

#include "affine.h"
#include "aotc/runtime.h"
#include "sum_squares.h"

int RunWithClasses(void);

/* Room for both scratch areas, each rounded up to its alignment, plus the
 * padding the arena may need to align the first one. */
#define SCRATCH_BYTES                                             \
  (AOTC_ALIGN_UP(AFFINE_TEMP_BYTES, AFFINE_ALIGNMENT) +           \
   AOTC_ALIGN_UP(SUM_SQUARES_TEMP_BYTES, SUM_SQUARES_ALIGNMENT) + \
   AFFINE_ALIGNMENT + SUM_SQUARES_ALIGNMENT)
static unsigned char scratch[SCRATCH_BYTES];

int main(void) {
  aotc_arena arena;
  aotc_arena_init(&arena, scratch, sizeof scratch);
  void* affine_temp =
      aotc_arena_alloc(&arena, AFFINE_TEMP_BYTES, AFFINE_ALIGNMENT);
  void* sum_squares_temp =
      aotc_arena_alloc(&arena, SUM_SQUARES_TEMP_BYTES, SUM_SQUARES_ALIGNMENT);
  if (affine_temp == NULL || sum_squares_temp == NULL) {
    fprintf(stderr, "the arena is too small for both models\n");
    return 1;
  }

  const float x4[AFFINE_X_ELEMENTS] = {1.0f, -2.0f, 0.5f, 3.0f};
  const float want4[AFFINE_RESULT0_ELEMENTS] = {3.0f, -3.0f, 2.0f, 7.0f};
  float got4[AFFINE_RESULT0_ELEMENTS];
  int status = affine_run(x4, got4, affine_temp);
  if (status != AOTC_OK) {
    fprintf(stderr, "affine_run: %s\n", aotc_status_message(status));
    return 1;
  }

  const float x23[SUM_SQUARES_X_ELEMENTS] = {1, 2, 3, 4, 5, 6};
  float sum = 0.0f;
  status = sum_squares_run(x23, &sum, sum_squares_temp);
  if (status != AOTC_OK) {
    fprintf(stderr, "sum_squares_run: %s\n", aotc_status_message(status));
    return 1;
  }

  int ok = sum == 91.0f;
  printf("affine:");
  for (int i = 0; i < AFFINE_RESULT0_ELEMENTS; ++i) {
    printf(" %g", (double)got4[i]);
    ok = ok && got4[i] == want4[i];
  }
  printf("\nsum_squares: %g\n", (double)sum);
  if (!ok) {
    printf("C interface: MISMATCH\n");
    return 1;
  }
  printf("C interface: ok\n");
  return RunWithClasses();
}
