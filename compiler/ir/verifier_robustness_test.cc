// Verifier and shape-inference robustness: seeded random edits of the corpus
// modules (attributes set to extreme values, operands, callees, roots and
// shapes replaced) must produce InvalidArgument errors or OK, never a crash,
// an abort or a hang.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/limits.h"
#include "compiler/ir/shape_inference.h"
#include "compiler/ir/verifier.h"
#include "compiler/support/file_io.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}

  void Mutate(Module& module) {
    const auto& comps = module.computations();
    if (comps.empty()) return;
    Computation& comp = *comps[Pick(comps.size())];
    if (comp.instructions().empty()) return;
    Instruction& inst = *comp.instructions()[Pick(comp.instructions().size())];
    InstructionAttributes& a = inst.mutable_attrs();
    switch (Pick(16)) {
      case 0:
        EditList(a.dimensions);
        break;
      case 1:
        if (a.slice.empty()) a.slice.emplace_back();
        Edit(a.slice[Pick(a.slice.size())],
             {&SliceDim::start, &SliceDim::limit, &SliceDim::stride});
        break;
      case 2:
        if (a.padding.empty()) a.padding.emplace_back();
        Edit(a.padding[Pick(a.padding.size())],
             {&PaddingDim::low, &PaddingDim::high, &PaddingDim::interior});
        break;
      case 3:
        if (a.window.empty()) a.window.emplace_back();
        Edit(a.window[Pick(a.window.size())],
             {&WindowDim::size, &WindowDim::stride, &WindowDim::pad_low,
              &WindowDim::pad_high, &WindowDim::window_dilation,
              &WindowDim::base_dilation});
        break;
      case 4:
        EditConvolution(a);
        break;
      case 5:
        EditList(Pick(2) == 0 ? a.dot_dnums.lhs_contracting
                              : a.dot_dnums.rhs_batch);
        break;
      case 6:
        EditGather(a);
        break;
      case 7:
        EditScatter(a);
        break;
      case 8:
        EditList(a.dynamic_slice_sizes);
        break;
      case 9:
        a.tuple_index = Extreme();
        a.parameter_number = Extreme();
        a.exponent_bits = Extreme();
        break;
      case 10:
        if (inst.operand_count() > 0) {
          inst.ReplaceOperand(
              static_cast<int>(Pick(inst.operand_count())),
              comp.instructions()[Pick(comp.instructions().size())].get());
        }
        break;
      case 11: {
        std::vector<Computation*> called;
        for (size_t n = Pick(3); n > 0; --n) {
          called.push_back(comps[Pick(comps.size())].get());
        }
        inst.set_called_computations(std::move(called));
        break;
      }
      case 12:
        inst.mutable_shape() = RandomShape();
        break;
      case 13:
        comp.set_root(Pick(4) == 0 ? nullptr : &inst);
        break;
      case 14:
        module.set_entry(Pick(4) == 0 ? nullptr : &comp);
        break;
      default:
        a.feature_group_count = Extreme();
        a.batch_group_count = Extreme();
        break;
    }
  }

 private:
  size_t Pick(size_t n) { return static_cast<size_t>(rng_() % n); }

  int64_t Extreme() {
    static constexpr int64_t kValues[] = {-1,
                                          0,
                                          1,
                                          2,
                                          3,
                                          16,
                                          17,
                                          -4611686018427387904,
                                          4611686018427387904,
                                          std::numeric_limits<int64_t>::max(),
                                          std::numeric_limits<int64_t>::min()};
    return kValues[Pick(std::size(kValues))];
  }

  void EditList(std::vector<int64_t>& list) {
    if (list.empty() || Pick(3) == 0) {
      list.push_back(Extreme());
    } else {
      list[Pick(list.size())] = Extreme();
    }
  }

  template <typename T>
  void Edit(T& value, std::initializer_list<int64_t T::*> fields) {
    value.*(fields.begin()[Pick(fields.size())]) = Extreme();
  }

  void EditConvolution(InstructionAttributes& a) {
    ConvolutionDimensionNumbers& c = a.conv_dnums;
    switch (Pick(4)) {
      case 0:
        c.input_feature = Extreme();
        break;
      case 1:
        EditList(c.kernel_spatial);
        break;
      case 2:
        c.output_batch = Extreme();
        break;
      default:
        EditList(c.input_spatial);
        break;
    }
  }

  void EditGather(InstructionAttributes& a) {
    GatherDimensionNumbers& g = a.gather_dnums;
    switch (Pick(5)) {
      case 0:
        EditList(g.offset_dims);
        break;
      case 1:
        EditList(g.collapsed_slice_dims);
        break;
      case 2:
        EditList(g.operand_batching_dims);
        break;
      case 3:
        g.index_vector_dim = Extreme();
        break;
      default:
        EditList(a.slice_sizes);
        break;
    }
  }

  void EditScatter(InstructionAttributes& a) {
    ScatterDimensionNumbers& s = a.scatter_dnums;
    switch (Pick(4)) {
      case 0:
        EditList(s.update_window_dims);
        break;
      case 1:
        EditList(s.scatter_dims_to_operand_dims);
        break;
      case 2:
        EditList(s.scatter_indices_batching_dims);
        break;
      default:
        s.index_vector_dim = Extreme();
        break;
    }
  }

  Shape RandomShape() {
    switch (Pick(4)) {
      case 0:
        return Shape::Scalar(PrimitiveType::kF32);
      case 1:
        return Shape::Tuple({Shape::Scalar(PrimitiveType::kS32)});
      case 2:
        return Shape::Token();
      default:
        return Shape::Array(PrimitiveType::kBF16, {Extreme(), 2});
    }
  }

  std::mt19937_64 rng_;
};

TEST(VerifierRobustnessTest, RandomEditsOfCorpusModulesNeverCrash) {
  std::vector<std::string> paths;
  for (const auto& entry :
       std::filesystem::directory_iterator(AOTC_CORPUS_DIR)) {
    if (entry.path().extension() == ".hlo") {
      paths.push_back(entry.path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
  ASSERT_FALSE(paths.empty());
  uint64_t seed = 1;
  int rejected = 0;
  for (const std::string& path : paths) {
    absl::StatusOr<std::string> text = ReadFile(path);
    ASSERT_TRUE(text.ok()) << text.status().message();
    absl::StatusOr<std::unique_ptr<Module>> module = ParseHloText(*text, path);
    if (!module.ok()) continue;
    Mutator mutator(seed++);
    for (int round = 0; round < 12; ++round) {
      mutator.Mutate(**module);
      absl::Status st = VerifyModule(**module);
      if (!st.ok()) {
        ++rejected;
        ASSERT_EQ(st.code(), absl::StatusCode::kInvalidArgument)
            << path << ": " << st.message();
      }
      // Inference alone must also survive whatever the edits left behind.
      for (const auto& comp : (*module)->computations()) {
        for (const auto& inst : comp->instructions()) {
          absl::StatusOr<Shape> shape = InferShape(*inst);
          if (!shape.ok()) {
            ASSERT_EQ(shape.status().code(),
                      absl::StatusCode::kInvalidArgument);
          }
        }
      }
    }
  }
  // Most edits break something; the verifier must have noticed.
  EXPECT_GT(rejected, static_cast<int>(paths.size()));
}

TEST(VerifierRobustnessTest, DeepCallChainDoesNotExhaustTheStack) {
  // c0 <- c1 <- ... <- c19999 <- entry; then c0 is made to call c19999.
  constexpr int kDepth = 20000;
  std::string hlo =
      "HloModule deep\n\nc0 {\n  p0 = f32[] parameter(0)\n"
      "  ROOT r0 = f32[] negate(p0)\n}\n";
  for (int i = 1; i < kDepth; ++i) {
    absl::StrAppend(&hlo, "\nc", i, " {\n  p", i, " = f32[] parameter(0)\n",
                    "  ROOT r", i, " = f32[] call(p", i, "), to_apply=c", i - 1,
                    "\n}\n");
  }
  absl::StrAppend(&hlo, "\nENTRY e {\n  x = f32[] parameter(0)\n",
                  "  ROOT y = f32[] call(x), to_apply=c", kDepth - 1, "\n}\n");
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseHloText(hlo, "deep.hlo");
  ASSERT_TRUE(module.ok()) << module.status().message();
  // Too deep for kMaxComputationNesting: reported at the first call that
  // makes a chain of 129 (c128 calling c127; c_i's ROOT is on line
  // 10 + 5 (i - 1)).
  absl::Status deep = VerifyModule(**module);
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.message().substr(0, deep.message().find('\n')),
            "deep.hlo:645:8: error: computations nest 129 deep through this "
            "call, more than the limit of 128");
  Computation* c0 = (*module)->FindComputation("c0");
  c0->set_root(c0->AddInstruction(Instruction::Create(
      Opcode::kCall, "loop", Shape::Scalar(PrimitiveType::kF32),
      {c0->parameter(0)})));
  c0->root()->set_called_computations(
      {(*module)->FindComputation(absl::StrCat("c", kDepth - 1))});
  absl::Status st = VerifyModule(**module);
  ASSERT_FALSE(st.ok());
  // One cycle through all 20000 computations, reported once, found from
  // c0 (the first computation) and closed by c1's call of c0.
  EXPECT_EQ(st.message(),
            "deep.hlo:10:8: error: call cycle 'c0' -> 'c19999' -> 'c19998' -> "
            "'c19997' -> (19994 more) -> 'c2' -> 'c1' -> 'c0'\n"
            "  ROOT r1 = f32[] call(p1), to_apply=c0\n"
            "       ^");
}

// A chain of exactly kMaxComputationNesting computations (entry included)
// verifies; one more does not.
TEST(VerifierRobustnessTest, CallChainAtTheNestingLimit) {
  for (int depth : {kMaxComputationNesting, kMaxComputationNesting + 1}) {
    std::string hlo =
        "HloModule chain\n\nc0 {\n  p0 = f32[] parameter(0)\n"
        "  ROOT r0 = f32[] negate(p0)\n}\n";
    for (int i = 1; i < depth - 1; ++i) {
      absl::StrAppend(&hlo, "\nc", i, " {\n  p", i, " = f32[] parameter(0)\n",
                      "  ROOT r", i, " = f32[] call(p", i, "), to_apply=c",
                      i - 1, "\n}\n");
    }
    absl::StrAppend(&hlo, "\nENTRY e {\n  x = f32[] parameter(0)\n",
                    "  ROOT y = f32[] call(x), to_apply=c", depth - 2, "\n}\n");
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseHloText(hlo, "chain.hlo");
    ASSERT_TRUE(module.ok()) << module.status().message();
    absl::Status st = VerifyModule(**module);
    if (depth == kMaxComputationNesting) {
      EXPECT_TRUE(st.ok()) << st.message();
    } else {
      ASSERT_FALSE(st.ok());
      EXPECT_NE(st.message().find("computations nest 129 deep through this "
                                  "call, more than the limit of 128"),
                std::string::npos)
          << st.message();
      EXPECT_NE(st.message().find("ROOT y = f32[] call(x)"), std::string::npos)
          << st.message();
    }
  }
}

}  // namespace
}  // namespace aotc
