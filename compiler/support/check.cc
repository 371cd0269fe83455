// Reporting of failed AOTC_CHECK invariants.
#include "compiler/support/check.h"

#include <cstdio>
#include <cstdlib>

namespace aotc::internal {

void CheckFailed(const char* file, int line, const char* cond,
                 const char* message) {
  std::fprintf(stderr,
               "aotc internal error: %s:%d: check '%s' failed: %s\n"
               "this is a bug in aotc, please report it with the input\n",
               file, line, cond, message);
  std::abort();
}

}  // namespace aotc::internal
