// Helpers the gemm strategy's end-to-end tests share: the strategy an
// instruction is planned with, the evaluator's numbers bit for bit under
// --strict-fp, and convolutions that must run on the gemm and match the
// evaluator.
#ifndef AOTC_CODEGEN_TESTS_GEMM_TEST_UTIL_H_
#define AOTC_CODEGEN_TESTS_GEMM_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

#include "codegen/strategy.h"
#include "codegen/tests/codegen_test_util.h"
#include "tools/inputs.h"

namespace aotc::codegen::testing {

// The strategy of the entry's root, optionally after the optimization
// pipeline; an error's message when planning fails.
inline std::string PlanName(std::string_view hlo, bool optimize = false) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  if (!module.ok()) return std::string(module.status().message());
  if (optimize) {
    auto s = OptimizeModule(**module, {});
    if (!s.ok()) return std::string(s.status().message());
  }
  auto plan = PlanInstruction(*(*module)->entry()->root());
  if (!plan.ok()) return std::string(plan.status().message());
  return std::string(plan->name);
}

// Compiled with --strict-fp, the evaluator's numbers bit for bit on
// seeded inputs.
inline void ExpectStrictFpBitForBit(const std::string& hlo, int seed) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<Literal> args;
  const Computation& entry = *(*module)->entry();
  for (size_t i = 0; i < entry.parameters().size(); ++i) {
    args.push_back(RandomLiteral(entry.parameters()[i]->shape(), seed, i));
  }
  auto expected = EvaluateModule(**module, args);
  ASSERT_TRUE(expected.ok()) << expected.status();
  CompileOptions options;
  options.name = "m";
  options.strict_fp = true;
  auto compiled = CompileModule(**module, options);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  auto loaded = LoadedModel::Load(*compiled);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  auto r = (*loaded)->Run(args);
  ASSERT_TRUE(r.ok()) << r.status();
  const Comparison c = CompareLiterals((*r)[0], *expected->Leaves()[0], {0, 0});
  EXPECT_TRUE(c.ok()) << c.mismatches << " mismatches; first "
                      << c.first_mismatch;
}

struct ConvCase {
  std::string name;
  std::string hlo;
};

// Each case is planned by the gemm after the optimization pipeline and
// matches the evaluator: at -O0 and -O2 as read, and optimized with its
// units run in reverse order on a pool (ThreadedReverseHook).
inline void ExpectGemmConvolutionsMatch(const std::vector<ConvCase>& cases) {
  for (const ConvCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto module = LoadModuleFromString(c.hlo, "test.hlo");
    ASSERT_TRUE(module.ok()) << module.status();
    EXPECT_EQ(PlanName(c.hlo, /*optimize=*/true), "gemm");
    std::vector<Literal> args;
    const Computation& entry = *(*module)->entry();
    for (size_t i = 0; i < entry.parameters().size(); ++i) {
      args.push_back(RandomLiteral(entry.parameters()[i]->shape(), 13, i));
    }
    ExpectMatchesEvaluator(c.hlo, args);
    auto expected = EvaluateModule(**module, args);
    ASSERT_TRUE(expected.ok()) << expected.status();
    const PrimitiveType type = expected->Leaves()[0]->shape().element_type();
    HookLog log;
    aotc_set_parallel_for(&ThreadedReverseHook, &log);
    auto fused = CompileAndRun(c.hlo, args, 2, /*optimize=*/true);
    aotc_set_parallel_for(nullptr, nullptr);
    ASSERT_TRUE(fused.ok()) << fused.status();
    const Comparison cmp = CompareLiterals((*fused)[0], *expected->Leaves()[0],
                                           DefaultTolerance(type));
    EXPECT_TRUE(cmp.ok()) << cmp.first_mismatch;
  }
}

// The HLO text of a constant HWIO kernel of 3x3 taps, `in` input and `out`
// output features: k[ky,kx,c,o] = (ky + 2 kx + 3 c + o) % modulus - modulus / 2.
inline std::string KernelLiteralText(int in, int out, int modulus) {
  std::string text = "{";
  for (int ky = 0; ky < 3; ++ky) {
    absl::StrAppend(&text, ky ? ", {" : "{");
    for (int kx = 0; kx < 3; ++kx) {
      absl::StrAppend(&text, kx ? ", {" : "{");
      for (int c = 0; c < in; ++c) {
        absl::StrAppend(&text, c ? ", {" : "{");
        for (int o = 0; o < out; ++o) {
          absl::StrAppend(&text, o ? ", " : "",
                          (ky + 2 * kx + 3 * c + o) % modulus - modulus / 2);
        }
        absl::StrAppend(&text, "}");
      }
      absl::StrAppend(&text, "}");
    }
    absl::StrAppend(&text, "}");
  }
  absl::StrAppend(&text, "}");
  return text;
}

// Each module (its one parameter an f32 input of the given dimensions, its
// kernel a constant) is planned by the gemm with no prologue, the kernel
// packed at compile time, and matches the evaluator.
inline void ExpectKernelsPackedAtCompileTime(
    const std::vector<std::pair<const std::string*, std::vector<int64_t>>>& cases) {
  for (const auto& [text, input] : cases) {
    auto module = LoadModuleFromString(*text, "test.hlo");
    ASSERT_TRUE(module.ok()) << module.status();
    auto plan = PlanInstruction(*(*module)->entry()->root());
    ASSERT_TRUE(plan.ok()) << plan.status();
    EXPECT_EQ(plan->name, "gemm");
    EXPECT_FALSE(plan->prologue);
    ExpectMatchesEvaluator(
        *text, {RandomLiteral(Shape::Array(PrimitiveType::kF32, input), 17, 0)});
  }
}

}  // namespace aotc::codegen::testing

#endif  // AOTC_CODEGEN_TESTS_GEMM_TEST_UTIL_H_
