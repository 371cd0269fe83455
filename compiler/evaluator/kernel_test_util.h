// Test helpers for the evaluator's reduction, sort and linear-algebra kernel
// tests: literal builders, value extraction, and running HLO text through the
// loader (parser + verifier) and the evaluator.
#ifndef AOTC_COMPILER_EVALUATOR_KERNEL_TEST_UTIL_H_
#define AOTC_COMPILER_EVALUATOR_KERNEL_TEST_UTIL_H_

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/load_module.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/native_type.h"
#include "compiler/ir/shape.h"
#include "gtest/gtest.h"

namespace aotc::testing_util {

// An array literal of `type` holding `values` (row-major), stored as T.
template <typename T>
Literal Make(PrimitiveType type, std::vector<int64_t> dims,
             const std::vector<T>& values) {
  Literal lit(Shape::Array(type, std::move(dims)));
  auto data = lit.mutable_data<T>();
  EXPECT_EQ(data.size(), values.size()) << "literal built with a wrong count";
  for (size_t i = 0; i < values.size() && i < data.size(); ++i) {
    data[i] = values[i];
  }
  return lit;
}

inline Literal F32(std::vector<int64_t> dims,
                   const std::vector<float>& values) {
  return Make<float>(PrimitiveType::kF32, std::move(dims), values);
}

inline Literal S32(std::vector<int64_t> dims,
                   const std::vector<int32_t>& values) {
  return Make<int32_t>(PrimitiveType::kS32, std::move(dims), values);
}

// A bf16 or f16 literal from float values (each rounded to nearest even).
inline Literal Half16(PrimitiveType type, std::vector<int64_t> dims,
                      const std::vector<float>& values) {
  std::vector<uint16_t> bits;
  for (float v : values) {
    bits.push_back(type == PrimitiveType::kBF16 ? FloatToBFloat16(v)
                                                : FloatToHalf(v));
  }
  return Make<uint16_t>(type, std::move(dims), bits);
}

template <typename T>
std::vector<T> Values(const Literal& lit) {
  auto data = lit.data<T>();
  return std::vector<T>(data.begin(), data.end());
}

// The values of a bf16 or f16 literal as floats.
inline std::vector<float> Half16Values(const Literal& lit) {
  std::vector<float> out;
  for (uint16_t bits : Values<uint16_t>(lit)) {
    out.push_back(lit.shape().element_type() == PrimitiveType::kBF16
                      ? BFloat16ToFloat(bits)
                      : HalfToFloat(bits));
  }
  return out;
}

inline absl::StatusOr<Literal> Run(std::string_view hlo,
                                   std::vector<Literal> args) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  if (!module.ok()) return module.status();
  return EvaluateModule(**module, args);
}

// Runs a module that must load and evaluate successfully.
inline Literal MustRun(std::string_view hlo, std::vector<Literal> args) {
  absl::StatusOr<Literal> result = Run(hlo, std::move(args));
  EXPECT_TRUE(result.ok()) << result.status();
  if (!result.ok()) return Literal();
  return *std::move(result);
}

}  // namespace aotc::testing_util

#endif  // AOTC_COMPILER_EVALUATOR_KERNEL_TEST_UTIL_H_
