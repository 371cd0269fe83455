// String helpers shared by aotc.
//
// Debian's Abseil is built with ABSL_OPTION_USE_STD_STRING_VIEW=0, so
// absl::string_view is a distinct type from std::string_view and absl::StrCat
// does not accept a std::string_view. aotc's own interfaces use
// std::string_view; Sv() bridges to Abseil where needed:
//   absl::StrCat("unknown opcode '", Sv(name), "'")
#ifndef AOTC_COMPILER_SUPPORT_STRINGS_H_
#define AOTC_COMPILER_SUPPORT_STRINGS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace aotc {

inline absl::string_view Sv(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}

// "{1,2,3}": a dimension list as messages quote it.
inline std::string BracedList(absl::Span<const int64_t> values) {
  return absl::StrCat("{", absl::StrJoin(values, ","), "}");
}

}  // namespace aotc

#endif  // AOTC_COMPILER_SUPPORT_STRINGS_H_
