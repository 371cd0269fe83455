// Tests of the checks the reduction, sort and linear-algebra kernels make
// themselves, on IR built directly (bypassing the parser and verifier, as a
// buggy pass or hostile attributes would), and of the window geometry
// against a brute-force enumeration.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/evaluator/kernel_util.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/shape.h"
#include "compiler/support/diagnostic.h"
#include "gtest/gtest.h"

namespace aotc::eval {
namespace {

Location TestLocation() {
  auto file = std::make_shared<SourceFile>();
  file->name = "k.hlo";
  return Location{file, 3, 5};
}

Shape F32(std::vector<int64_t> dims) {
  return Shape::Array(PrimitiveType::kF32, std::move(dims));
}

// An instruction whose operands are parameters of the given shapes, plus the
// literals evaluated for them (zeros).
struct Harness {
  std::vector<std::unique_ptr<Instruction>> params;
  std::vector<Literal> values;
  std::unique_ptr<Instruction> inst;
  std::vector<const Literal*> operands;

  Harness(Opcode opcode, Shape shape, std::vector<Shape> operand_shapes) {
    std::vector<Instruction*> ops;
    for (size_t i = 0; i < operand_shapes.size(); ++i) {
      params.push_back(Instruction::Create(
          Opcode::kParameter, "p" + std::to_string(i), operand_shapes[i], {}));
      ops.push_back(params.back().get());
      values.emplace_back(operand_shapes[i]);
    }
    for (const Literal& v : values) operands.push_back(&v);
    inst = Instruction::Create(opcode, "op", std::move(shape), ops,
                               TestLocation());
  }
  ~Harness() { inst->DropAllOperands(); }
};

// A called computation that must never run in these tests.
absl::StatusOr<Literal> NoCall(const Computation&, Operands) {
  return absl::InternalError("the kernel should have failed before calling");
}

// A scalar computation `name` with two f32 parameters.
std::unique_ptr<Computation> BinaryF32(const std::string& name) {
  auto comp = std::make_unique<Computation>(name);
  for (int i = 0; i < 2; ++i) {
    auto p = Instruction::Create(Opcode::kParameter, "x" + std::to_string(i),
                                 Shape::Scalar(PrimitiveType::kF32), {});
    p->mutable_attrs().parameter_number = i;
    comp->AddInstruction(std::move(p));
  }
  comp->set_root(comp->instructions().back().get());
  return comp;
}

std::string Message(const absl::StatusOr<Literal>& r) {
  return r.ok() ? "ok" : std::string(r.status().message());
}

TEST(KernelChecksTest, ReduceDimensionOutOfRange) {
  Harness h(Opcode::kReduce, F32({2}), {F32({2, 3}), F32({})});
  h.inst->mutable_attrs().dimensions = {2};
  EXPECT_EQ(Message(EvalReduction(*h.inst, h.operands, NoCall)),
            "k.hlo:3:5: error: dimensions names dimension 2, out of range for "
            "rank 2");
}

TEST(KernelChecksTest, ReduceResultShapeMismatch) {
  Harness h(Opcode::kReduce, F32({2}), {F32({2, 3}), F32({})});
  h.inst->mutable_attrs().dimensions = {0};
  EXPECT_EQ(Message(EvalReduction(*h.inst, h.operands, NoCall)),
            "k.hlo:3:5: error: result has shape f32[2], expected f32[3]");
}

TEST(KernelChecksTest, ReducerReturningTheWrongTypeIsAnError) {
  Harness h(Opcode::kReduce, F32({}), {F32({2}), F32({})});
  h.inst->mutable_attrs().dimensions = {0};
  std::unique_ptr<Computation> add = BinaryF32("add");
  h.inst->set_called_computations({add.get()});
  auto returns_s32 = [](const Computation&,
                        Operands) -> absl::StatusOr<Literal> {
    return Literal(Shape::Scalar(PrimitiveType::kS32));
  };
  EXPECT_EQ(Message(EvalReduction(*h.inst, h.operands, returns_s32)),
            "k.hlo:3:5: error: to_apply computation 'add' returned s32[], "
            "expected f32[]");
}

TEST(KernelChecksTest, ReducerWithWrongArity) {
  Harness h(Opcode::kReduce, F32({}), {F32({2}), F32({})});
  h.inst->mutable_attrs().dimensions = {0};
  auto unary = std::make_unique<Computation>("neg");
  auto p = Instruction::Create(Opcode::kParameter, "x",
                               Shape::Scalar(PrimitiveType::kF32), {});
  p->mutable_attrs().parameter_number = 0;
  unary->set_root(unary->AddInstruction(std::move(p)));
  h.inst->set_called_computations({unary.get()});
  EXPECT_EQ(Message(EvalReduction(*h.inst, h.operands, NoCall)),
            "k.hlo:3:5: error: to_apply computation 'neg' has 1 parameters, "
            "expected 2");
}

TEST(KernelChecksTest, ReduceWindowHugeWindowIsRefused) {
  Harness h(Opcode::kReduceWindow, F32({1}), {F32({4}), F32({})});
  WindowDim w;
  w.size = int64_t{1} << 62;
  h.inst->mutable_attrs().window = {w};
  EXPECT_EQ(Message(EvalReduction(*h.inst, h.operands, NoCall)),
            "k.hlo:3:5: error: window dimension 0 is too large to evaluate");
}

TEST(KernelChecksTest, ReduceWindowZeroStrideIsRefused) {
  Harness h(Opcode::kReduceWindow, F32({3}), {F32({4}), F32({})});
  WindowDim w;
  w.size = 2;
  w.stride = 0;
  h.inst->mutable_attrs().window = {w};
  EXPECT_EQ(Message(EvalReduction(*h.inst, h.operands, NoCall)),
            "k.hlo:3:5: error: window dimension 0 has stride 0, expected a "
            "positive value");
}

TEST(KernelChecksTest, ReduceWindowMissingWindowDimensions) {
  Harness h(Opcode::kReduceWindow, F32({4}), {F32({4}), F32({})});
  EXPECT_EQ(Message(EvalReduction(*h.inst, h.operands, NoCall)),
            "k.hlo:3:5: error: window has 0 dimensions, expected 1");
}

TEST(KernelChecksTest, SortDimensionOutOfRange) {
  Harness h(Opcode::kSort, F32({4}), {F32({4})});
  h.inst->mutable_attrs().dimensions = {1};
  EXPECT_EQ(Message(EvalReduction(*h.inst, h.operands, NoCall)),
            "k.hlo:3:5: error: sort needs one dimension in [0, 1), got {1}");
}

TEST(KernelChecksTest, UnsupportedCustomCallTarget) {
  Harness h(Opcode::kCustomCall, F32({4}), {F32({4})});
  h.inst->mutable_attrs().custom_call_target = "MyKernel";
  EXPECT_EQ(Message(EvalCustomCall(*h.inst, h.operands, NoCall)),
            "k.hlo:3:5: error: custom-call target 'MyKernel' is not supported "
            "by the reference evaluator, which cannot run external functions");
}

TEST(KernelChecksTest, DotContractingSizeMismatch) {
  Harness h(Opcode::kDot, F32({2, 2}), {F32({2, 3}), F32({4, 2})});
  h.inst->mutable_attrs().dot_dnums.lhs_contracting = {1};
  h.inst->mutable_attrs().dot_dnums.rhs_contracting = {0};
  EXPECT_EQ(Message(EvalLinalg(*h.inst, h.operands)),
            "k.hlo:3:5: error: dot pairs lhs dimension 1 of size 3 with rhs "
            "dimension 0 of size 4");
}

TEST(KernelChecksTest, DotRepeatedDimension) {
  Harness h(Opcode::kDot, F32({}), {F32({3, 3}), F32({3, 3})});
  h.inst->mutable_attrs().dot_dnums.lhs_contracting = {1, 1};
  h.inst->mutable_attrs().dot_dnums.rhs_contracting = {0, 1};
  EXPECT_EQ(Message(EvalLinalg(*h.inst, h.operands)),
            "k.hlo:3:5: error: lhs batch and contracting dimensions repeats "
            "dimension 1");
}

TEST(KernelChecksTest, ConvolutionFeatureGroupMismatch) {
  Harness h(Opcode::kConvolution, F32({1, 2, 2}),
            {F32({1, 3, 3}), F32({2, 1, 2})});
  ConvolutionDimensionNumbers& dn = h.inst->mutable_attrs().conv_dnums;
  dn = {0, 1, {2}, 1, 0, {2}, 0, 1, {2}};
  WindowDim w;
  w.size = 2;
  h.inst->mutable_attrs().window = {w};
  h.inst->mutable_attrs().feature_group_count = 2;
  EXPECT_EQ(Message(EvalLinalg(*h.inst, h.operands)),
            "k.hlo:3:5: error: feature_group_count 2 does not fit 3 input "
            "features, 1 kernel input features and 2 kernel output features");
}

TEST(KernelChecksTest, ConvolutionDimLabelOutOfRange) {
  Harness h(Opcode::kConvolution, F32({1, 1, 2}),
            {F32({1, 1, 3}), F32({1, 1, 2})});
  ConvolutionDimensionNumbers& dn = h.inst->mutable_attrs().conv_dnums;
  dn = {0, 1, {7}, 1, 0, {2}, 0, 1, {2}};
  WindowDim w;
  w.size = 2;
  h.inst->mutable_attrs().window = {w};
  EXPECT_EQ(Message(EvalLinalg(*h.inst, h.operands)),
            "k.hlo:3:5: error: input dim_labels names dimension 7, out of "
            "range for rank 3");
}

// Brute force: every window position, checked against the padded and
// dilated operand directly.
std::vector<WindowTap> BruteForceTaps(const WindowAxis& a, int64_t o) {
  std::vector<WindowTap> taps;
  const int64_t dilated =
      a.base_size == 0 ? 0 : (a.base_size - 1) * a.base_dilation + 1;
  for (int64_t w = 0; w < a.size; ++w) {
    const int64_t p = o * a.stride + w * a.window_dilation - a.pad_low;
    if (p < 0 || p >= dilated || p % a.base_dilation != 0) continue;
    taps.push_back({w, p / a.base_dilation});
  }
  return taps;
}

TEST(WindowAxisTest, TapsMatchBruteForce) {
  Harness h(Opcode::kReduceWindow, F32({1}), {F32({1}), F32({})});
  int checked = 0;
  for (int64_t base : {0, 1, 2, 5})
    for (int64_t size : {1, 2, 3, 7})
      for (int64_t stride : {1, 2, 3})
        for (int64_t pad_low : {-2, 0, 1, 3})
          for (int64_t pad_high : {-1, 0, 2})
            for (int64_t wd : {1, 2, 3})
              for (int64_t bd : {1, 2, 3}) {
                WindowDim w;
                w.size = size;
                w.stride = stride;
                w.pad_low = pad_low;
                w.pad_high = pad_high;
                w.window_dilation = wd;
                w.base_dilation = bd;
                auto axes = MakeWindowAxes(*h.inst, {w}, {base});
                ASSERT_TRUE(axes.ok()) << axes.status();
                const WindowAxis& a = (*axes)[0];
                const int64_t dilated = base == 0 ? 0 : (base - 1) * bd + 1;
                const int64_t padded = dilated + pad_low + pad_high;
                const int64_t span = (size - 1) * wd + 1;
                EXPECT_EQ(a.output_size,
                          padded < span ? 0 : (padded - span) / stride + 1);
                std::vector<WindowTap> taps;
                for (int64_t o = 0; o < a.output_size; ++o) {
                  a.Taps(o, &taps);
                  std::vector<WindowTap> expected = BruteForceTaps(a, o);
                  ASSERT_EQ(taps.size(), expected.size());
                  for (size_t i = 0; i < taps.size(); ++i) {
                    EXPECT_EQ(taps[i].window, expected[i].window);
                    EXPECT_EQ(taps[i].operand, expected[i].operand);
                  }
                  ++checked;
                }
              }
  EXPECT_GT(checked, 1000);
}

TEST(WindowAxisTest, HugeWindowOverSmallOperandIsCheap) {
  // Operand of 3 elements dilated by 2^40: elements at padded positions 0,
  // 2^40 and 2^41. A window of size 2^41 + 1 covers all three once; the taps
  // come from walking the 3 operand elements, not 2^41 window positions.
  Harness h(Opcode::kReduceWindow, F32({1}), {F32({1}), F32({})});
  WindowDim w;
  w.size = (int64_t{1} << 41) + 1;
  w.base_dilation = int64_t{1} << 40;
  auto axes = MakeWindowAxes(*h.inst, {w}, {3});
  ASSERT_TRUE(axes.ok()) << axes.status();
  ASSERT_EQ((*axes)[0].output_size, 1);
  std::vector<WindowTap> taps;
  (*axes)[0].Taps(0, &taps);
  ASSERT_EQ(taps.size(), 3u);
  EXPECT_EQ(taps[0].window, 0);
  EXPECT_EQ(taps[1].window, int64_t{1} << 40);
  EXPECT_EQ(taps[2].window, int64_t{1} << 41);
  EXPECT_EQ(taps[2].operand, 2);
}

}  // namespace
}  // namespace aotc::eval
