/* External functions for the custom-calls of unknown_custom_call.hlo and
 * failing_custom_call.hlo, with the ABI of docs/codegen.md: built as a shared
 * library that `aotc run --library` loads, and linked into external_main.c's
 * program. */
#include <stddef.h>

/* y = 2 x over f32[4]. */
int my_kernel(void* const* outputs, const void* const* inputs,
              const char* opaque, size_t opaque_len) {
  const float* x = (const float*)inputs[0];
  float* y = (float*)outputs[0];
  int i;
  (void)opaque;
  (void)opaque_len;
  for (i = 0; i < 4; ++i) y[i] = 2 * x[i];
  return 0;
}

/* Always fails. */
int my_failing_kernel(void* const* outputs, const void* const* inputs,
                      const char* opaque, size_t opaque_len) {
  (void)outputs;
  (void)inputs;
  (void)opaque;
  (void)opaque_len;
  return 3;
}
