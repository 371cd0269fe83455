// Status propagation macros for absl::Status / absl::StatusOr.
//
// Debian's Abseil ships no RETURN_IF_ERROR / ASSIGN_OR_RETURN, so aotc defines
// its own. Errors that input can trigger travel through these; invariants use
// AOTC_CHECK (see check.h).
#ifndef AOTC_COMPILER_SUPPORT_STATUS_MACROS_H_
#define AOTC_COMPILER_SUPPORT_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define AOTC_CONCAT_IMPL(a, b) a##b
#define AOTC_CONCAT(a, b) AOTC_CONCAT_IMPL(a, b)

#define RETURN_IF_ERROR(expr)                        \
  do {                                               \
    ::absl::Status aotc_status_ = (expr);            \
    if (!aotc_status_.ok()) return aotc_status_;     \
  } while (0)

#define ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                          \
  if (!tmp.ok()) return std::move(tmp).status(); \
  lhs = std::move(*tmp)

#define ASSIGN_OR_RETURN(lhs, expr) \
  ASSIGN_OR_RETURN_IMPL(AOTC_CONCAT(aotc_statusor_, __LINE__), lhs, expr)

#endif  // AOTC_COMPILER_SUPPORT_STATUS_MACROS_H_
