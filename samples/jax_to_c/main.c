/* Runs the Flax classifier of export_model.py, compiled by aotc, from C.
 *
 * The weights are constants inside the model's object, in the section
 * model_weights (add_compiled_model(... CONSTANTS_SECTION model_weights)); the
 * program passes only the picture, a result buffer and the scratch memory the
 * header asks for. It prints the class probabilities, the weights' size as
 * the linker placed them, and the largest difference from JAX's output that
 * export_model.py saved in expected.h; it exits 1 if that difference is
 * larger than the tolerance below, the section is smaller than the weights,
 * or its size is not the header's CLASSIFIER_CONSTANTS_BYTES.
 */
#include <stdio.h>

#include "aotc/runtime.h"
#include "classifier.h"
#include "expected.h"

/* Scratch memory, at the alignment the model needs (C11 _Alignas). A model
 * whose TEMP_BYTES is 0 accepts a null temp; one byte keeps the array legal. */
static _Alignas(CLASSIFIER_ALIGNMENT) unsigned char
    temp[CLASSIFIER_TEMP_BYTES > 0 ? CLASSIFIER_TEMP_BYTES : 1];
static float probabilities[CLASSIFIER_RESULT0_ELEMENTS];

/* GNU ld and lld define __start_SECTION and __stop_SECTION around a section
 * whose name is a C identifier: here, the model's weights. */
extern const unsigned char __start_model_weights[];
extern const unsigned char __stop_model_weights[];

_Static_assert(CLASSIFIER_ARG0_ELEMENTS == sizeof kPicture / sizeof kPicture[0],
               "expected.h holds a picture of the model's input size");
_Static_assert(CLASSIFIER_RESULT0_ELEMENTS ==
                   sizeof kExpected / sizeof kExpected[0],
               "expected.h holds one probability per class");

static float Magnitude(float x) { return x < 0 ? -x : x; }

int main(void) {
  int status = classifier_run(kPicture, probabilities, temp);
  if (status != 0) {
    printf("classifier_run failed: %s\n", aotc_status_message(status));
    return 1;
  }
  int best = 0;
  float largest = 0;
  for (int i = 0; i < CLASSIFIER_RESULT0_ELEMENTS; ++i) {
    printf("class %d: %.6f\n", i, probabilities[i]);
    if (probabilities[i] > probabilities[best]) best = i;
    if (Magnitude(kExpected[i]) > largest) largest = Magnitude(kExpected[i]);
  }
  printf("predicted class: %d\n", best);
  long section_bytes = (long)(__stop_model_weights - __start_model_weights);
  printf("weights: %d values, %ld bytes in section model_weights\n",
         EXPECTED_WEIGHT_COUNT, section_bytes);
  if (section_bytes < (long)(EXPECTED_WEIGHT_COUNT * sizeof(float))) {
    printf("the weights are not all in section model_weights\n");
    return 1;
  }
  /* The header knows the size without linking. */
  printf("CLASSIFIER_CONSTANTS_BYTES: %ld\n", (long)CLASSIFIER_CONSTANTS_BYTES);
  if (section_bytes != (long)CLASSIFIER_CONSTANTS_BYTES) {
    printf("the section is not CLASSIFIER_CONSTANTS_BYTES bytes\n");
    return 1;
  }
  printf("scratch: %d bytes\n", CLASSIFIER_TEMP_BYTES);

  /* aotc and XLA sum the convolutions' and the dense layer's f32 products
   * (at most 72 terms) in orders of their own, and exp differs by an ulp or
   * two: well inside 1e-4 of the largest probability, while a wrong weight
   * moves probabilities by far more. */
  float difference = 0;
  for (int i = 0; i < CLASSIFIER_RESULT0_ELEMENTS; ++i) {
    float d = Magnitude(probabilities[i] - kExpected[i]);
    if (!(d <= difference)) difference = d; /* NaN sticks */
  }
  float tolerance = 1e-4f * largest;
  printf("largest difference from JAX: %.3g (tolerance %.3g)\n", difference,
         tolerance);
  if (!(difference <= tolerance)) {
    printf("MISMATCH\n");
    return 1;
  }
  printf("OK: matches JAX\n");
  return 0;
}
