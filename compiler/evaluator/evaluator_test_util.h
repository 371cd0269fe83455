// Test utilities for the evaluator: literals built from typed values, typed
// reads of results, and evaluation of HLO text (whole modules, or one
// instruction applied to parameters).
#ifndef AOTC_COMPILER_EVALUATOR_EVALUATOR_TEST_UTIL_H_
#define AOTC_COMPILER_EVALUATOR_EVALUATOR_TEST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/native_type.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"
#include "gtest/gtest.h"

// Asserts that a StatusOr is OK and moves its value into `lhs`.
#define AOTC_ASSERT_OK_AND_ASSIGN(lhs, expr)                                \
  AOTC_ASSERT_OK_AND_ASSIGN_IMPL(AOTC_CONCAT(aotc_test_or_, __LINE__), lhs, \
                                 expr)
#define AOTC_ASSERT_OK_AND_ASSIGN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                   \
  ASSERT_TRUE(tmp.ok()) << tmp.status();               \
  lhs = std::move(*tmp)

namespace aotc::testing {

// An array literal of type P with the given dimensions and row-major values.
template <PrimitiveType P>
Literal MakeArray(std::vector<int64_t> dims,
                  const std::vector<NativeType<P>>& values) {
  Literal literal(Shape::Array(P, std::move(dims)));
  auto data = literal.mutable_data<NativeType<P>>();
  for (size_t i = 0; i < values.size() && i < data.size(); ++i) {
    data[i] = values[i];
  }
  return literal;
}

// A rank-1 literal.
template <PrimitiveType P>
Literal Vec(const std::vector<NativeType<P>>& values) {
  return MakeArray<P>({static_cast<int64_t>(values.size())}, values);
}

// A scalar literal.
template <PrimitiveType P>
Literal Scalar(NativeType<P> value) {
  return MakeArray<P>({}, {value});
}

// Rank-1 f16 / bf16 literals from floats (rounded to nearest even).
template <PrimitiveType P>
Literal HalfVec(const std::vector<float>& values) {
  std::vector<NativeType<P>> converted;
  for (float v : values) converted.push_back(NativeType<P>(v));
  return Vec<P>(converted);
}

// The elements of an array literal of type P.
template <PrimitiveType P>
std::vector<NativeType<P>> Values(const Literal& literal) {
  auto data = literal.data<NativeType<P>>();
  return std::vector<NativeType<P>>(data.begin(), data.end());
}

// The elements of an f16 / bf16 literal as floats.
template <PrimitiveType P>
std::vector<float> HalfValues(const Literal& literal) {
  std::vector<float> out;
  for (auto v : literal.data<NativeType<P>>()) {
    out.push_back(static_cast<float>(v));
  }
  return out;
}

// Parses HLO text (not verified, so tests do not depend on the verifier).
inline absl::StatusOr<std::unique_ptr<Module>> Parse(std::string_view text) {
  return ParseHloText(text, "test.hlo");
}

// Parses and evaluates a module.
inline absl::StatusOr<Literal> EvalText(std::string_view text,
                                        std::vector<Literal> args = {}) {
  ASSIGN_OR_RETURN(std::unique_ptr<Module> module, Parse(text));
  return EvaluateModule(*module, args);
}

// The text of a module whose entry applies `op` to one parameter per
// argument:
//   ENTRY e { p0 = <shape> parameter(0) ... ROOT r = <result> op(p0, ...)attrs
//   }
inline std::string OpModule(std::string_view result_shape, std::string_view op,
                            const std::vector<Literal>& args,
                            std::string_view attrs = "") {
  std::string text = "HloModule m\n\nENTRY e {\n";
  std::vector<std::string> names;
  for (size_t i = 0; i < args.size(); ++i) {
    names.push_back(absl::StrCat("p", i));
    absl::StrAppend(&text, "  p", i, " = ", args[i].shape().ToString(),
                    " parameter(", i, ")\n");
  }
  absl::StrAppend(&text, "  ROOT r = ", Sv(result_shape), " ", Sv(op), "(",
                  absl::StrJoin(names, ", "), ")", Sv(attrs), "\n}\n");
  return text;
}

// Evaluates `op` on `args` (see OpModule).
inline absl::StatusOr<Literal> EvalOp(std::string_view result_shape,
                                      std::string_view op,
                                      std::vector<Literal> args,
                                      std::string_view attrs = "") {
  const std::string text = OpModule(result_shape, op, args, attrs);
  return EvalText(text, std::move(args));
}

// The instruction named `name` in any computation of `module`, or null.
inline const Instruction* FindInstruction(const Module& module,
                                          std::string_view name) {
  for (const auto& comp : module.computations()) {
    if (const Instruction* inst = comp->FindInstruction(name)) return inst;
  }
  return nullptr;
}

// Expects that evaluating `text` on `args` fails with exactly `message`,
// located at the instruction named `at`.
inline void ExpectEvalError(std::string_view text, std::vector<Literal> args,
                            std::string_view at, std::string_view message) {
  auto module = Parse(text);
  ASSERT_TRUE(module.ok()) << module.status();
  const Instruction* inst = FindInstruction(**module, at);
  ASSERT_NE(inst, nullptr) << "no instruction named " << at;
  absl::StatusOr<Literal> result = EvaluateModule(**module, args);
  ASSERT_FALSE(result.ok()) << "evaluation unexpectedly succeeded";
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(result.status().message()),
            FormatError(inst->location(), message));
}

}  // namespace aotc::testing

#endif  // AOTC_COMPILER_EVALUATOR_EVALUATOR_TEST_UTIL_H_
