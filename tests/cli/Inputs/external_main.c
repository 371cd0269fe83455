/* Links two compiled models with the external functions of external_ops.c
 * and the runtime, as a user's program would, and prints what they return. */
#include <stdio.h>

#include "aotc/runtime.h"
#include "failing_custom_call.h"
#include "unknown_custom_call.h"

/* Neither model needs scratch, so temp may be null. */
#if UNKNOWN_CUSTOM_CALL_TEMP_BYTES != 0 || FAILING_CUSTOM_CALL_TEMP_BYTES != 0
#error "the models need temp memory"
#endif

int main(void) {
  const float x[4] = {0, 1, 2, 3};
  float y[4] = {-1, -1, -1, -1};
  int status = unknown_custom_call_run(x, y, NULL);
  printf("unknown_custom_call_run: %d, y = %g %g %g %g\n", status, y[0], y[1],
         y[2], y[3]);
  status = failing_custom_call_run(x, y, NULL);
  printf("failing_custom_call_run: %d (%s)\n", status,
         aotc_status_message(status));
  return 0;
}
