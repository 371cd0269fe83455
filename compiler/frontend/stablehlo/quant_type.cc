// Uniform quantized element types: comparison, printing and storage ranges.
//
// The parser (parse_types.cc) reads and checks the types; this file has
// what the parser and the quantized builders share.
#include "compiler/frontend/stablehlo/quant_type.h"

#include "absl/strings/str_cat.h"
#include "compiler/support/check.h"

namespace aotc::shlo {

int64_t StorageTypeMin(PrimitiveType type) {
  AOTC_CHECK(IsInteger(type), "storage types are integers");
  if (IsUnsignedInt(type)) return 0;
  return -(int64_t{1} << (BitWidth(type) - 1));
}

int64_t StorageTypeMax(PrimitiveType type) {
  AOTC_CHECK(IsInteger(type), "storage types are integers");
  const int bits = BitWidth(type) - (IsSignedInt(type) ? 1 : 0);
  // u64 does not fit; quantized storage is at most 32 bits (the spec's C1
  // asks for fewer bits than the expressed float's, at most 64).
  if (bits >= 63) return INT64_MAX;
  return (int64_t{1} << bits) - 1;
}

std::string MlirName(PrimitiveType type) {
  const std::string name(PrimitiveTypeName(type));
  if (IsSignedInt(type)) return "i" + name.substr(1);
  if (IsUnsignedInt(type)) return "ui" + name.substr(1);
  return name;
}

bool QuantType::SameParameters(const QuantType& o) const {
  return storage == o.storage && expressed == o.expressed &&
         storage_min == o.storage_min && storage_max == o.storage_max &&
         scales == o.scales && zero_points == o.zero_points;
}

std::string QuantType::ToString() const {
  std::string s =
      absl::StrCat("!quant.uniform<", MlirName(storage));
  if (storage_min != StorageTypeMin(storage) ||
      storage_max != StorageTypeMax(storage)) {
    absl::StrAppend(&s, "<", storage_min, ":", storage_max, ">");
  }
  absl::StrAppend(&s, ":", MlirName(expressed));
  if (axis.has_value()) absl::StrAppend(&s, ":", *axis);
  absl::StrAppend(&s, ", ", per_axis() ? "{" : "");
  for (size_t i = 0; i < scales.size(); ++i) {
    absl::StrAppend(&s, i > 0 ? "," : "", scales[i], ":", zero_points[i]);
  }
  absl::StrAppend(&s, per_axis() ? "}>" : ">");
  return s;
}

}  // namespace aotc::shlo
