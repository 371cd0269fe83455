/* Firmware for an MPS2 Cortex-M4 board (qemu-system-arm -M mps2-an386):
 * runs the gesture classifier compiled by aotc on one feature vector and
 * prints, over semihosting, the class probabilities, the chosen class and
 * where the model's memory is: the weights in flash (.flash_weights, placed
 * by mps2.ld) and the scratch buffer in RAM. */
#include <stdint.h>
#include <stdio.h>

#include "gesture_classifier.h"

/* The scratch memory the model needs, aligned as the header asks. */
static unsigned char temp[GESTURE_CLASSIFIER_TEMP_BYTES]
    __attribute__((aligned(GESTURE_CLASSIFIER_ALIGNMENT)));

/* The probabilities `aotc eval gesture_classifier.hlo` gives for the input
 * below, and the tolerance `aotc run --check` uses for f32. */
static const float kExpected[4] = {0.11486383f, 0.31886953f, 0.20926285f,
                                   0.35700378f};

extern const unsigned char __flash_weights_start[], __flash_weights_end[];

int main(void) {
  float features[24];
  float probabilities[4];
  int i, best = 0, mismatches = 0;
  for (i = 0; i < 24; ++i) features[i] = (float)((i * 7) % 11 - 5) / 5.0f;

  int status = gesture_classifier_run(features, probabilities, temp);
  if (status != 0) {
    printf("gesture_classifier_run failed with status %d\n", status);
    return 1;
  }
  for (i = 0; i < 4; ++i) {
    const float error = probabilities[i] - kExpected[i];
    const float bound = 1e-5f + 1e-4f * kExpected[i];
    printf("class %d: %.4f\n", i, (double)probabilities[i]);
    if (error > bound || -error > bound) ++mismatches;
    if (probabilities[i] > probabilities[best]) best = i;
  }
  printf("gesture: class %d\n", best);
  printf("weights: %u bytes in flash at 0x%08lx\n",
         (unsigned)(__flash_weights_end - __flash_weights_start),
         (unsigned long)(uintptr_t)__flash_weights_start);
  printf("scratch: %u bytes in RAM at 0x%08lx\n",
         (unsigned)GESTURE_CLASSIFIER_TEMP_BYTES,
         (unsigned long)(uintptr_t)temp);
  printf(mismatches == 0 ? "matches the reference evaluator\n"
                         : "DIFFERS from the reference evaluator\n");
  return mismatches != 0;
}
