/* Kernels for the composite my.gelu of composite_gelu.mlir, with the
 * external-call ABI (docs/codegen.md#composite-kernels): built as a shared
 * library that `aotc run --library` loads. Each checks the opaque string
 * the composite passes (its attributes as written, then the version) and
 * returns 1 when it is not the expected one. */
#include <math.h>
#include <stddef.h>
#include <string.h>

static const char kOpaque[] = "{approximate = \"tanh\"};version=1";

static int OpaqueIsExpected(const char* opaque, size_t opaque_len) {
  return opaque_len == sizeof(kOpaque) - 1 &&
         memcmp(opaque, kOpaque, opaque_len) == 0 &&
         opaque[opaque_len] == '\0';
}

/* The tanh GELU the decomposition computes, in double. */
int gelu_tanh_kernel(void* const* outputs, const void* const* inputs,
                     const char* opaque, size_t opaque_len) {
  const float* x = (const float*)inputs[0];
  float* y = (float*)outputs[0];
  int i;
  if (!OpaqueIsExpected(opaque, opaque_len)) return 1;
  for (i = 0; i < 16; ++i) {
    double v = x[i];
    double inner = 0.7978845608028654 * (v + 0.044715 * v * v * v);
    y[i] = (float)(0.5 * v * (1.0 + tanh(inner)));
  }
  return 0;
}

/* The exact GELU, 0.5 x (1 + erf(x / sqrt 2)): up to about 5e-4 away from
 * the tanh form, which --check must see. */
int gelu_erf_kernel(void* const* outputs, const void* const* inputs,
                    const char* opaque, size_t opaque_len) {
  const float* x = (const float*)inputs[0];
  float* y = (float*)outputs[0];
  int i;
  if (!OpaqueIsExpected(opaque, opaque_len)) return 1;
  for (i = 0; i < 16; ++i) {
    double v = x[i];
    y[i] = (float)(0.5 * v * (1.0 + erf(v / 1.4142135623730951)));
  }
  return 0;
}
