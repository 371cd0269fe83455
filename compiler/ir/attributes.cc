// Name tables of attribute enums.
#include "compiler/ir/attributes.h"

#include <array>

namespace aotc {
namespace {

template <typename E, size_t N>
std::optional<E> Lookup(const std::array<std::string_view, N>& names,
                        std::string_view name) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<E>(i);
  }
  return std::nullopt;
}

constexpr std::array<std::string_view, 6> kDirections = {"EQ", "NE", "LT",
                                                         "LE", "GT", "GE"};
constexpr std::array<std::string_view, 5> kCompareTypes = {
    "", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"};
constexpr std::array<std::string_view, 4> kFusionKinds = {"kLoop", "kInput",
                                                          "kOutput", "kCustom"};
constexpr std::array<std::string_view, 4> kFftTypes = {"FFT", "IFFT", "RFFT",
                                                       "IRFFT"};
constexpr std::array<std::string_view, 3> kTransposeKinds = {
    "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"};

}  // namespace

std::string_view ComparisonDirectionName(ComparisonDirection d) {
  return kDirections[static_cast<int>(d)];
}
std::optional<ComparisonDirection> ComparisonDirectionFromName(
    std::string_view name) {
  return Lookup<ComparisonDirection>(kDirections, name);
}
std::string_view ComparisonTypeName(ComparisonType t) {
  return kCompareTypes[static_cast<int>(t)];
}
std::optional<ComparisonType> ComparisonTypeFromName(std::string_view name) {
  if (name.empty()) return std::nullopt;
  return Lookup<ComparisonType>(kCompareTypes, name);
}
std::string_view FusionKindName(FusionKind k) {
  return kFusionKinds[static_cast<int>(k)];
}
std::optional<FusionKind> FusionKindFromName(std::string_view name) {
  return Lookup<FusionKind>(kFusionKinds, name);
}
std::string_view FftTypeName(FftType t) {
  return kFftTypes[static_cast<int>(t)];
}
std::optional<FftType> FftTypeFromName(std::string_view name) {
  return Lookup<FftType>(kFftTypes, name);
}
std::string_view TransposeKindName(TransposeKind t) {
  return kTransposeKinds[static_cast<int>(t)];
}
std::optional<TransposeKind> TransposeKindFromName(std::string_view name) {
  return Lookup<TransposeKind>(kTransposeKinds, name);
}

}  // namespace aotc
