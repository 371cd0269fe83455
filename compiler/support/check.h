// AOTC_CHECK: invariant assertions that stay on in release builds.
//
// A failed check is a compiler bug, never a user error: it prints the
// condition, the location in aotc's source and a message, then aborts.
// Anything that malformed input can trigger must return an absl::Status.
#ifndef AOTC_COMPILER_SUPPORT_CHECK_H_
#define AOTC_COMPILER_SUPPORT_CHECK_H_

namespace aotc::internal {
[[noreturn]] void CheckFailed(const char* file, int line, const char* cond,
                              const char* message);
}  // namespace aotc::internal

#define AOTC_CHECK(cond, message)                                          \
  do {                                                                     \
    if (!(cond))                                                           \
      ::aotc::internal::CheckFailed(__FILE__, __LINE__, #cond, (message)); \
  } while (0)

#endif  // AOTC_COMPILER_SUPPORT_CHECK_H_
