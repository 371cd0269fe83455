/* Runs the models of a cross-target test program and compares their results
 * with the reference evaluator's, with the tolerances of `aotc run --check`
 * (tools/compare.h): integers and pred exactly; floats when both are NaN,
 * or the same infinity, or |actual - expected| <= abs + rel * |expected|.
 * No libm: the target may have none (Cortex-M3 has no FPU at all). */
#include "cross_harness.h"

#include <stdio.h>
#include <string.h>

/* Large enough for every result of the models in models/. */
#define CROSS_MAX_RESULT_BYTES 4096
#define CROSS_MAX_RESULTS 8

static unsigned char result_buffers[CROSS_MAX_RESULTS][CROSS_MAX_RESULT_BYTES]
    __attribute__((aligned(64)));

static double half_to_double(unsigned bits) {
  const unsigned sign = bits >> 15, exponent = (bits >> 10) & 31;
  const unsigned mantissa = bits & 1023;
  double v;
  if (exponent == 31) {
    v = mantissa ? 0.0 / 0.0 : 1.0 / 0.0;
  } else if (exponent == 0) {
    v = mantissa / 16777216.0; /* 2^-24 */
  } else {
    v = (1024 + mantissa);
    int e = (int)exponent - 25;
    for (; e > 0; --e) v *= 2;
    for (; e < 0; ++e) v /= 2;
  }
  return sign ? -v : v;
}

static double element(const unsigned char* p, enum cross_kind kind,
                      unsigned long i) {
  switch (kind) {
    case CROSS_F64: {
      double d;
      memcpy(&d, p + 8 * i, 8);
      return d;
    }
    case CROSS_F32: {
      float f;
      memcpy(&f, p + 4 * i, 4);
      return f;
    }
    case CROSS_F16: {
      unsigned short h;
      memcpy(&h, p + 2 * i, 2);
      return half_to_double(h);
    }
    case CROSS_BF16: {
      unsigned short h;
      unsigned int bits;
      float f;
      memcpy(&h, p + 2 * i, 2);
      bits = (unsigned int)h << 16;
      memcpy(&f, &bits, 4);
      return f;
    }
    default:
      return 0;
  }
}

static int is_nan(double x) { return x != x; }
static double magnitude(double x) { return x < 0 ? -x : x; }

/* 1 when `a` (compiled) matches `e` (evaluator). */
static int close_enough(double a, double e, const struct cross_tensor* t) {
  if (is_nan(a) || is_nan(e)) return is_nan(a) && is_nan(e);
  if (a == e) return 1; /* the same infinity, or equal */
  if (magnitude(e) > 1e308 || magnitude(a) > 1e308) return 0;
  return magnitude(a - e) <= t->abs_tolerance + t->rel_tolerance * magnitude(e);
}

int cross_run_model(const struct cross_model* m) {
  const void* args[16];
  void* results[CROSS_MAX_RESULTS];
  double max_error = 0;
  int r, status, failures = 0;
  unsigned long i;
  if (m->num_args > 16 || m->num_results > CROSS_MAX_RESULTS) {
    printf("%s: FAIL: too many arguments or results for the harness\n",
           m->name);
    return 1;
  }
  for (r = 0; r < m->num_args; ++r) args[r] = m->args[r].data;
  for (r = 0; r < m->num_results; ++r) {
    if (m->results[r].bytes > CROSS_MAX_RESULT_BYTES) {
      printf("%s: FAIL: result %d has %lu bytes, the harness holds %d\n",
             m->name, r, m->results[r].bytes, CROSS_MAX_RESULT_BYTES);
      return 1;
    }
    /* Poisoned: all-ones bytes are NaN in every float type. */
    memset(result_buffers[r], 0xff, CROSS_MAX_RESULT_BYTES);
    results[r] = result_buffers[r];
  }
  memset(m->temp, 0xff, m->temp_bytes);
  status = m->run_packed(args, results, m->temp);
  if (status != 0) {
    printf("%s: FAIL: the model returned status %d\n", m->name, status);
    return 1;
  }
  for (r = 0; r < m->num_results; ++r) {
    const struct cross_tensor* t = &m->results[r];
    const unsigned char* got = result_buffers[r];
    if (t->kind == CROSS_EXACT) {
      unsigned long size = t->elements ? t->bytes / t->elements : 0;
      for (i = 0; i < t->elements; ++i) {
        if (memcmp(got + i * size, t->data + i * size, size) != 0) {
          if (failures++ == 0) {
            printf("%s: FAIL: result %d element %lu differs in its bytes\n",
                   m->name, r, i);
          }
        }
      }
      continue;
    }
    for (i = 0; i < t->elements; ++i) {
      const double a = element(got, t->kind, i);
      const double e = element(t->data, t->kind, i);
      if (!close_enough(a, e, t)) {
        if (failures++ == 0) {
          printf("%s: FAIL: result %d element %lu: got %.9g, expected %.9g\n",
                 m->name, r, i, a, e);
        }
      } else if (!is_nan(a) && a != e && magnitude(a - e) > max_error) {
        max_error = magnitude(a - e);
      }
    }
  }
  if (failures > 0) {
    printf("%s: FAIL: %d elements off\n", m->name, failures);
    return 1;
  }
  printf("%s: ok (%d results, max abs error %.3g)\n", m->name, m->num_results,
         max_error);
  return 0;
}
