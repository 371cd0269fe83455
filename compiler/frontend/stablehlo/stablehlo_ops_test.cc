// Tests of the StableHLO front end's operations: the pretty and the generic
// form of an operation give the same IR, region operations become called
// computations of the right signature, the IR contract (function names,
// tuple roots, calls, check custom calls), located errors, and evaluation of
// a small JAX-style program to numbers computed by hand.
#include <string>

#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/load_module.h"
#include "compiler/frontend/stablehlo/stablehlo_parser.h"
#include "compiler/ir/printer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<Module> Load(const std::string& text) {
  absl::StatusOr<std::unique_ptr<Module>> m =
      LoadModuleFromString(text, "test.mlir");
  EXPECT_TRUE(m.ok()) << m.status().message() << "\n" << text;
  if (!m.ok()) return nullptr;
  return std::move(*m);
}

std::string LoadError(const std::string& text) {
  absl::StatusOr<std::unique_ptr<Module>> m =
      LoadModuleFromString(text, "bad.mlir");
  EXPECT_FALSE(m.ok());
  return m.ok() ? "" : std::string(m.status().message());
}

std::string Main(const std::string& args, const std::string& result,
                 const std::string& body) {
  return "module @m {\n  func.func public @main(" + args + ") -> " + result +
         " {\n" + body + "\n    return %r : " + result + "\n  }\n}\n";
}

struct FormPair {
  const char* name;
  const char* args;
  const char* result;
  const char* pretty;
  const char* generic;
};

// Each pair is one operation written both ways, as MLIR prints them.
const FormPair kPairs[] = {
    {"add", "%a: tensor<2xf32>, %b: tensor<2xf32>", "tensor<2xf32>",
     "%r = stablehlo.add %a, %b : tensor<2xf32>",
     "%r = \"stablehlo.add\"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> "
     "tensor<2xf32>"},
    {"compare", "%a: tensor<2xf32>, %b: tensor<2xf32>", "tensor<2xi1>",
     "%r = stablehlo.compare  LT, %a, %b,  TOTALORDER : (tensor<2xf32>, "
     "tensor<2xf32>) -> tensor<2xi1>",
     "%r = \"stablehlo.compare\"(%a, %b) <{comparison_direction = "
     "#stablehlo<comparison_direction LT>, compare_type = "
     "#stablehlo<comparison_type TOTALORDER>}> : (tensor<2xf32>, "
     "tensor<2xf32>) -> tensor<2xi1>"},
    {"broadcast_in_dim", "%a: tensor<3xf32>", "tensor<2x3xf32>",
     "%r = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> "
     "tensor<2x3xf32>",
     "%r = \"stablehlo.broadcast_in_dim\"(%a) <{broadcast_dimensions = "
     "array<i64: 1>}> : (tensor<3xf32>) -> tensor<2x3xf32>"},
    {"slice", "%a: tensor<4x5xf32>", "tensor<2x2xf32>",
     "%r = stablehlo.slice %a [0:2, 1:5:2] : (tensor<4x5xf32>) -> "
     "tensor<2x2xf32>",
     "%r = \"stablehlo.slice\"(%a) <{start_indices = array<i64: 0, 1>, "
     "limit_indices = array<i64: 2, 5>, strides = array<i64: 1, 2>}> : "
     "(tensor<4x5xf32>) -> tensor<2x2xf32>"},
    {"transpose", "%a: tensor<2x3xf32>", "tensor<3x2xf32>",
     "%r = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> "
     "tensor<3x2xf32>",
     "%r = \"stablehlo.transpose\"(%a) <{permutation = array<i64: 1, 0>}> : "
     "(tensor<2x3xf32>) -> tensor<3x2xf32>"},
    {"concatenate", "%a: tensor<2xf32>, %b: tensor<3xf32>", "tensor<5xf32>",
     "%r = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2xf32>, "
     "tensor<3xf32>) -> tensor<5xf32>",
     "%r = \"stablehlo.concatenate\"(%a, %b) <{dimension = 0 : i64}> : "
     "(tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>"},
    {"iota", "", "tensor<4xi32>", "%r = stablehlo.iota dim = 0 : tensor<4xi32>",
     "%r = \"stablehlo.iota\"() <{iota_dimension = 0 : i64}> : () -> "
     "tensor<4xi32>"},
    {"pad", "%a: tensor<2xf32>, %b: tensor<f32>", "tensor<6xf32>",
     "%r = stablehlo.pad %a, %b, low = [1], high = [2], interior = [1] : "
     "(tensor<2xf32>, tensor<f32>) -> tensor<6xf32>",
     "%r = \"stablehlo.pad\"(%a, %b) <{edge_padding_low = array<i64: 1>, "
     "edge_padding_high = array<i64: 2>, interior_padding = array<i64: 1>}> "
     ": (tensor<2xf32>, tensor<f32>) -> tensor<6xf32>"},
    {"dot_general", "%a: tensor<2x3xf32>, %b: tensor<3x4xf32>",
     "tensor<2x4xf32>",
     "%r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], "
     "precision = [DEFAULT, HIGHEST] : (tensor<2x3xf32>, tensor<3x4xf32>) -> "
     "tensor<2x4xf32>",
     "%r = \"stablehlo.dot_general\"(%a, %b) <{dot_dimension_numbers = "
     "#stablehlo.dot<lhs_contracting_dimensions = [1], "
     "rhs_contracting_dimensions = [0]>, precision_config = "
     "[#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]}> : "
     "(tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>"},
    {"dynamic_slice", "%a: tensor<5xf32>, %i: tensor<i32>", "tensor<2xf32>",
     "%r = stablehlo.dynamic_slice %a, %i, sizes = [2] : (tensor<5xf32>, "
     "tensor<i32>) -> tensor<2xf32>",
     "%r = \"stablehlo.dynamic_slice\"(%a, %i) <{slice_sizes = array<i64: "
     "2>}> : (tensor<5xf32>, tensor<i32>) -> tensor<2xf32>"},
    {"reduce", "%a: tensor<2x3xf32>, %z: tensor<f32>", "tensor<2xf32>",
     "%r = stablehlo.reduce(%a init: %z) applies stablehlo.add across "
     "dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>",
     "%r = \"stablehlo.reduce\"(%a, %z) <{dimensions = array<i64: 1>}> ({\n"
     "    ^bb0(%p0: tensor<f32>, %p1: tensor<f32>):\n"
     "      %add = stablehlo.add %p0, %p1 : tensor<f32>\n"
     "      stablehlo.return %add : tensor<f32>\n"
     "    }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>"},
    {"reduce_precision", "%a: tensor<2xf32>", "tensor<2xf32>",
     "%r = stablehlo.reduce_precision %a, format = e5m10 : tensor<2xf32>",
     "%r = \"stablehlo.reduce_precision\"(%a) <{exponent_bits = 5 : i32, "
     "mantissa_bits = 10 : i32}> : (tensor<2xf32>) -> tensor<2xf32>"},
    {"convolution", "%a: tensor<1x4x1xf32>, %k: tensor<2x1x1xf32>",
     "tensor<1x2x1xf32>",
     "%r = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, "
     "o]->[b, 0, f], window = {stride = [2], pad = [[0, 0]], rhs_dilate = "
     "[1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
     "(tensor<1x4x1xf32>, tensor<2x1x1xf32>) -> tensor<1x2x1xf32>",
     "%r = \"stablehlo.convolution\"(%a, %k) <{batch_group_count = 1 : i64, "
     "dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, "
     "feature_group_count = 1 : i64, padding = dense<0> : tensor<1x2xi64>, "
     "rhs_dilation = array<i64: 1>, window_strides = array<i64: 2>}> : "
     "(tensor<1x4x1xf32>, tensor<2x1x1xf32>) -> tensor<1x2x1xf32>"},
};

TEST(StableHloFormsTest, PrettyAndGenericFormsGiveTheSameIr) {
  for (const FormPair& p : kPairs) {
    SCOPED_TRACE(p.name);
    auto pretty = Load(Main(p.args, p.result, std::string("    ") + p.pretty));
    auto generic =
        Load(Main(p.args, p.result, std::string("    ") + p.generic));
    ASSERT_NE(pretty, nullptr);
    ASSERT_NE(generic, nullptr);
    EXPECT_EQ(PrintComputation(*pretty->entry()),
              PrintComputation(*generic->entry()));
  }
}

TEST(StableHloFormsTest, AttributesReachTheInstruction) {
  auto slice = Load(Main(kPairs[3].args, kPairs[3].result,
                         std::string("    ") + kPairs[3].pretty));
  ASSERT_NE(slice, nullptr);
  const Instruction* s = slice->entry()->root();
  ASSERT_EQ(s->opcode(), Opcode::kSlice);
  EXPECT_EQ(s->attrs().slice[1], (SliceDim{1, 5, 2}));
  auto cmp = Load(Main(kPairs[1].args, kPairs[1].result,
                       std::string("    ") + kPairs[1].pretty));
  ASSERT_NE(cmp, nullptr);
  EXPECT_EQ(cmp->entry()->root()->attrs().comparison_direction,
            ComparisonDirection::kLt);
  EXPECT_EQ(cmp->entry()->root()->attrs().comparison_type,
            ComparisonType::kTotalOrder);
  auto dot = Load(Main(kPairs[8].args, kPairs[8].result,
                       std::string("    ") + kPairs[8].pretty));
  ASSERT_NE(dot, nullptr);
  EXPECT_EQ(dot->entry()->root()->attrs().operand_precision,
            (std::vector<std::string>{"default", "highest"}));
  auto conv = Load(Main(kPairs[12].args, kPairs[12].result,
                        std::string("    ") + kPairs[12].pretty));
  ASSERT_NE(conv, nullptr);
  const InstructionAttributes& c = conv->entry()->root()->attrs();
  ASSERT_EQ(c.window.size(), 1u);
  EXPECT_EQ(c.window[0].size, 2);  // the kernel's spatial size
  EXPECT_EQ(c.window[0].stride, 2);
  EXPECT_EQ(c.conv_dnums.input_feature, 2);
  EXPECT_EQ(c.conv_dnums.kernel_output_feature, 2);
}

TEST(StableHloFormsTest, DotIsADotGeneralOverTheInnerDimensions) {
  auto dot =
      Load(Main("%a: tensor<2x3xf32>, %b: tensor<3x4xf32>", "tensor<2x4xf32>",
                "    %r = stablehlo.dot %a, %b, precision = [DEFAULT, "
                "HIGHEST] : (tensor<2x3xf32>, tensor<3x4xf32>) -> "
                "tensor<2x4xf32>"));
  auto general = Load(Main(kPairs[8].args, kPairs[8].result,
                           std::string("    ") + kPairs[8].pretty));
  ASSERT_NE(dot, nullptr);
  ASSERT_NE(general, nullptr);
  EXPECT_EQ(PrintComputation(*dot->entry()),
            PrintComputation(*general->entry()));
}

TEST(StableHloFormsTest, BroadcastOfSizeOneDimensionsReshapesFirst) {
  // HLO broadcast cannot stretch a size-1 dimension; StableHLO can.
  auto m = Load(Main("%a: tensor<1x3xf32>", "tensor<2x3xf32>",
                     "    %r = stablehlo.broadcast_in_dim %a, dims = [0, 1] : "
                     "(tensor<1x3xf32>) -> tensor<2x3xf32>"));
  ASSERT_NE(m, nullptr);
  const Instruction* b = m->entry()->root();
  ASSERT_EQ(b->opcode(), Opcode::kBroadcast);
  EXPECT_EQ(b->attrs().dimensions, (std::vector<int64_t>{1}));
  EXPECT_EQ(b->operand(0)->opcode(), Opcode::kReshape);
  EXPECT_EQ(b->operand(0)->shape().ToString(false), "f32[3]");
}

// --- Regions.

TEST(StableHloRegionsTest, MultiOperandReduceWithPrettyReducer) {
  auto m = Load(Main(
      "%a: tensor<3xf32>, %b: tensor<3xi32>, %x: tensor<f32>, %y: tensor<i32>",
      "tensor<f32>",
      "    %0:2 = stablehlo.reduce(%a init: %x), (%b init: %y) across "
      "dimensions = [0] : (tensor<3xf32>, tensor<3xi32>, tensor<f32>, "
      "tensor<i32>) -> (tensor<f32>, tensor<i32>)\n"
      "     reducer(%p: tensor<f32>, %q: tensor<f32>) (%s: tensor<i32>, %t: "
      "tensor<i32>)  {\n"
      "      %1 = stablehlo.maximum %p, %q : tensor<f32>\n"
      "      %2 = stablehlo.add %s, %t : tensor<i32>\n"
      "      stablehlo.return %1, %2 : tensor<f32>, tensor<i32>\n"
      "    }\n"
      "    %r = stablehlo.add %0#0, %0#0 : tensor<f32>"));
  ASSERT_NE(m, nullptr);
  const Instruction* gte = m->entry()->root()->operand(0);
  ASSERT_EQ(gte->opcode(), Opcode::kGetTupleElement);
  const Instruction* reduce = gte->operand(0);
  ASSERT_EQ(reduce->opcode(), Opcode::kReduce);
  EXPECT_EQ(reduce->operand_count(), 4);
  const Computation* reducer = reduce->to_apply();
  // Block arguments: every lhs, then every rhs: %p, %s, %q, %t.
  EXPECT_EQ(reducer->parameter(0)->name(), "p");
  EXPECT_EQ(reducer->parameter(1)->name(), "s");
  EXPECT_EQ(reducer->parameter(2)->name(), "q");
  EXPECT_EQ(reducer->parameter(3)->name(), "t");
  EXPECT_EQ(reducer->root()->opcode(), Opcode::kTuple);
}

TEST(StableHloRegionsTest, ScatterSortAndWindowRegions) {
  auto m = Load(Main(
      "%a: tensor<4xf32>, %i: tensor<1x1xi32>, %u: tensor<1xf32>, %z: "
      "tensor<f32>",
      "tensor<2xf32>",
      "    %0 = \"stablehlo.scatter\"(%a, %i, %u) <{scatter_dimension_numbers "
      "= #stablehlo.scatter<inserted_window_dims = [0], "
      "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, "
      "indices_are_sorted = true}> ({\n"
      "    ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
      "      %s = stablehlo.add %x, %y : tensor<f32>\n"
      "      stablehlo.return %s : tensor<f32>\n"
      "    }) : (tensor<4xf32>, tensor<1x1xi32>, tensor<1xf32>) -> "
      "tensor<4xf32>\n"
      "    %1 = \"stablehlo.sort\"(%0) <{dimension = 0 : i64, is_stable = "
      "true}> ({\n"
      "    ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
      "      %c = stablehlo.compare  LT, %x, %y,  FLOAT : (tensor<f32>, "
      "tensor<f32>) -> tensor<i1>\n"
      "      stablehlo.return %c : tensor<i1>\n"
      "    }) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    %r = \"stablehlo.reduce_window\"(%1, %z) <{window_dimensions = "
      "array<i64: 2>, window_strides = array<i64: 2>, padding = dense<0> : "
      "tensor<1x2xi64>}> ({\n"
      "    ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
      "      %s = stablehlo.maximum %x, %y : tensor<f32>\n"
      "      stablehlo.return %s : tensor<f32>\n"
      "    }) : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>"));
  ASSERT_NE(m, nullptr);
  const Instruction* window = m->entry()->root();
  ASSERT_EQ(window->opcode(), Opcode::kReduceWindow);
  EXPECT_EQ(window->attrs().window[0].stride, 2);
  const Instruction* sort = window->operand(0);
  ASSERT_EQ(sort->opcode(), Opcode::kSort);
  EXPECT_TRUE(sort->attrs().is_stable);
  EXPECT_EQ(sort->to_apply()->root()->opcode(), Opcode::kCompare);
  const Instruction* scatter = sort->operand(0);
  ASSERT_EQ(scatter->opcode(), Opcode::kScatter);
  EXPECT_TRUE(scatter->attrs().indices_are_sorted);
  EXPECT_EQ(scatter->attrs().scatter_dnums.index_vector_dim, 1);
  EXPECT_EQ(scatter->attrs().scatter_dnums.inserted_window_dims,
            (std::vector<int64_t>{0}));
  // Region computations are named after their function.
  EXPECT_THAT(scatter->to_apply()->name(), HasSubstr("main.scatter"));
}

// A loop adding %step (defined outside the loop) to a counter until it
// reaches 10.
constexpr char kWhileModule[] = R"(module @m {
  func.func public @main(%n: tensor<i32>) -> (tensor<i32>, tensor<f32>) {
    %step = stablehlo.constant dense<3> : tensor<i32>
    %f = stablehlo.constant dense<1.5> : tensor<f32>
    %0:2 = stablehlo.while(%iterArg = %n, %iterArg_0 = %f) : tensor<i32>, tensor<f32>
     cond {
      %c10 = stablehlo.constant dense<10> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c10,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = stablehlo.add %iterArg, %step : tensor<i32>
      %2 = stablehlo.add %iterArg_0, %iterArg_0 : tensor<f32>
      stablehlo.return %1, %2 : tensor<i32>, tensor<f32>
    }
    return %0#0, %0#1 : tensor<i32>, tensor<f32>
  }
}
)";

TEST(StableHloRegionsTest, WhileCarriesATupleAndCapturedValues) {
  auto m = Load(kWhileModule);
  ASSERT_NE(m, nullptr);
  const Instruction* root = m->entry()->root();
  ASSERT_EQ(root->opcode(), Opcode::kTuple);
  const Instruction* w = root->operand(0)->operand(0);
  ASSERT_EQ(w->opcode(), Opcode::kWhile);
  // (counter, value, captured %step).
  EXPECT_EQ(w->shape().ToString(false), "(s32[], f32[], s32[])");
  EXPECT_EQ(w->operand(0)->opcode(), Opcode::kTuple);
  EXPECT_EQ(w->operand(0)->operand(2)->name(), "step");
  EXPECT_EQ(w->while_body()->root()->operand_count(), 3);

  // From 0: 0, 3, 6, 9, 12 (four iterations); 1.5 doubles four times: 24.
  Literal n(Shape::Scalar(PrimitiveType::kS32));
  n.Set<int32_t>(0, 0);
  absl::StatusOr<Literal> result = EvaluateModule(*m, {n});
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->tuple_elements()[0].Get<int32_t>(0), 12);
  EXPECT_EQ(result->tuple_elements()[1].Get<float>(0), 24.0f);
}

// if and case branches use %x from the enclosing function.
constexpr char kConditionalModule[] = R"(module @m {
  func.func public @main(%p: tensor<i1>, %i: tensor<i32>, %x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
    %0 = "stablehlo.if"(%p) ({
      %one = stablehlo.constant dense<1.0> : tensor<f32>
      %1 = stablehlo.add %x, %one : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }, {
      %1 = stablehlo.multiply %x, %x : tensor<f32>
      "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<i1>) -> tensor<f32>
    %2 = "stablehlo.case"(%i) ({
      stablehlo.return %x : tensor<f32>
    }, {
      %3 = stablehlo.negate %x : tensor<f32>
      stablehlo.return %3 : tensor<f32>
    }, {
      %c = stablehlo.constant dense<7.0> : tensor<f32>
      stablehlo.return %c : tensor<f32>
    }) : (tensor<i32>) -> tensor<f32>
    return %0, %2 : tensor<f32>, tensor<f32>
  }
}
)";

TEST(StableHloRegionsTest, IfAndCaseBecomeConditionals) {
  auto m = Load(kConditionalModule);
  ASSERT_NE(m, nullptr);
  const Instruction* if_op = m->entry()->root()->operand(0)->operand(0);
  ASSERT_EQ(if_op->opcode(), Opcode::kConditional);
  EXPECT_EQ(if_op->called_computations().size(), 2u);
  // Each branch takes the tuple of the values it uses: (x) or ().
  EXPECT_EQ(if_op->operand(1)->shape().ToString(false), "(f32[])");
  const Instruction* case_op = m->entry()->root()->operand(1)->operand(0);
  ASSERT_EQ(case_op->opcode(), Opcode::kConditional);
  EXPECT_EQ(case_op->operand_count(), 4);
  EXPECT_EQ(case_op->operand(3)->shape().ToString(false), "()");

  auto run = [&](bool p, int32_t i, float x) {
    Literal lp(Shape::Scalar(PrimitiveType::kPred));
    lp.mutable_raw()[0] = p ? 1 : 0;
    Literal li(Shape::Scalar(PrimitiveType::kS32));
    li.Set<int32_t>(0, i);
    Literal lx(Shape::Scalar(PrimitiveType::kF32));
    lx.Set<float>(0, x);
    absl::StatusOr<Literal> r = EvaluateModule(*m, {lp, li, lx});
    EXPECT_TRUE(r.ok()) << r.status().message();
    return std::make_pair(r->tuple_elements()[0].Get<float>(0),
                          r->tuple_elements()[1].Get<float>(0));
  };
  // true: 3 + 1; case 1: -3.  false: 3 * 3; case 2: 7.
  EXPECT_EQ(run(true, 1, 3.0f), std::make_pair(4.0f, -3.0f));
  EXPECT_EQ(run(false, 2, 3.0f), std::make_pair(9.0f, 7.0f));
  EXPECT_EQ(run(false, 0, 3.0f), std::make_pair(9.0f, 3.0f));
}

TEST(StableHloRegionsTest, OtherRegionsMayNotCaptureValues) {
  const std::string error =
      LoadError(Main("%a: tensor<3xf32>, %z: tensor<f32>", "tensor<f32>",
                     "    %r = \"stablehlo.reduce\"(%a, %z) <{dimensions = "
                     "array<i64: 0>}> ({\n"
                     "    ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
                     "      %s = stablehlo.add %p, %z : tensor<f32>\n"
                     "      stablehlo.return %s : tensor<f32>\n"
                     "    }) : (tensor<3xf32>, tensor<f32>) -> tensor<f32>"));
  EXPECT_THAT(error, HasSubstr("bad.mlir:5:30: error: value '%z' is defined "
                               "outside this region"));
}

// --- The IR contract.

constexpr char kContractModule[] = R"(// RUN: a comment first
module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%x: tensor<2xf32> {mhlo.layout_mode = "default"}) -> (tensor<2xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0:2 = call @pair(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
    %1 = func.call @twice(%0#1) : (tensor<2xf32>) -> tensor<2xf32>
    stablehlo.custom_call @check.expect_close(%1, %0#0) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    return %1 : tensor<2xf32>
  }
  func.func private @pair(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
    %n = stablehlo.negate %a : tensor<2xf32>
    return %a, %n : tensor<2xf32>, tensor<2xf32>
  }
  func.func private @twice(%a: tensor<2xf32>) -> tensor<2xf32> {
    %0 = stablehlo.add %a, %a : tensor<2xf32>
    func.return %0 : tensor<2xf32>
  }
}
)";

TEST(StableHloContractTest, FunctionsCallsAndChecks) {
  absl::StatusOr<InputKind> kind = DetectInputKind(kContractModule, "x");
  ASSERT_TRUE(kind.ok());
  EXPECT_EQ(*kind, InputKind::kStableHlo);
  auto m = Load(kContractModule);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->name(), "main");
  // Callees come before their callers.
  ASSERT_EQ(m->computations().size(), 3u);
  EXPECT_EQ(m->computations().back()->name(), "main");
  const Computation* pair = m->FindComputation("pair");
  ASSERT_NE(pair, nullptr);
  EXPECT_EQ(pair->root()->opcode(), Opcode::kTuple);
  EXPECT_EQ(m->FindComputation("twice")->root()->opcode(), Opcode::kAdd);

  const Computation& main = *m->entry();
  EXPECT_EQ(main.parameter(0)->name(), "x");
  const Instruction* check = nullptr;
  for (const auto& inst : main.instructions()) {
    if (inst->opcode() == Opcode::kCustomCall) check = inst.get();
  }
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->attrs().custom_call_target, "check.expect_close");
  EXPECT_EQ(check->shape().ToString(false), "()");
  ASSERT_NE(check->FindRawAttribute("custom_call_has_side_effect"), nullptr);
  EXPECT_EQ(*check->FindRawAttribute("custom_call_has_side_effect"), "true");
  // operand 0 is the call of @twice, operand 1 element 0 of the @pair call.
  EXPECT_EQ(check->operand(0)->opcode(), Opcode::kCall);
  EXPECT_EQ(check->operand(0)->to_apply()->name(), "twice");
  const Instruction* gte = check->operand(1);
  ASSERT_EQ(gte->opcode(), Opcode::kGetTupleElement);
  EXPECT_EQ(gte->tuple_index(), 0);
  EXPECT_EQ(gte->operand(0)->opcode(), Opcode::kCall);
  EXPECT_EQ(gte->operand(0)->shape().ToString(false), "(f32[2], f32[2])");
  EXPECT_EQ(main.root()->opcode(), Opcode::kCall);
}

TEST(StableHloContractTest, GenericCallNamesItsCalleeInAnAttribute) {
  auto m = Load(
      "func.func private @id(%a: tensor<f32>) -> tensor<f32> {\n"
      "  return %a : tensor<f32>\n}\n"
      "func.func public @main(%a: tensor<f32>) -> tensor<f32> {\n"
      "  %0 = \"func.call\"(%a) {callee = @id} : (tensor<f32>) -> "
      "tensor<f32>\n"
      "  \"func.return\"(%0) : (tensor<f32>) -> ()\n}\n");
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->entry()->root()->opcode(), Opcode::kCall);
  EXPECT_EQ(m->entry()->root()->to_apply()->name(), "id");
}

TEST(StableHloContractTest, EntryIsTheOnlyPublicFunctionWithoutMain) {
  auto m = Load(
      "func.func private @helper(%a: tensor<f32>) -> tensor<f32> {\n"
      "  return %a : tensor<f32>\n}\n"
      "func.func public @run(%a: tensor<f32>) -> () {\n  return\n}\n");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->name(), "run");
  EXPECT_EQ(m->entry()->root()->opcode(), Opcode::kTuple);
  EXPECT_EQ(m->entry()->root()->operand_count(), 0);
}

TEST(StableHloContractTest, DebugLocationsAreSkipped) {
  // What jax.jit(f).lower(x).as_text(debug_info=True) adds.
  auto m = Load(R"(#loc1 = loc("x")
module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<2xf32> loc("x")) -> (tensor<2xf32> {jax.result_info = ""}) {
    %0:2 = stablehlo.optimization_barrier %arg0, %arg0 : tensor<2xf32>, tensor<2xf32> loc(#loc3)
    %1 = stablehlo.sine %0#1 : tensor<2xf32> loc(#loc3)
    return %1 : tensor<2xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("/tmp/x.py":3:9 to :20)
#loc3 = loc("jit(f)/sin"(#loc2))
)");
  ASSERT_NE(m, nullptr);
  const Instruction* sine = m->entry()->root();
  ASSERT_EQ(sine->opcode(), Opcode::kSin);
  EXPECT_EQ(sine->location().line, 5);
  EXPECT_EQ(sine->location().column, 5);
  const Instruction* gte = sine->operand(0);
  ASSERT_EQ(gte->opcode(), Opcode::kGetTupleElement);
  EXPECT_EQ(gte->tuple_index(), 1);
  EXPECT_EQ(gte->operand(0)->opcode(), Opcode::kOptimizationBarrier);
}

// --- Errors.

TEST(StableHloErrorsTest, LocatedWithTheSourceLineAndACaret) {
  EXPECT_EQ(LoadError(Main("%a: tensor<f32>", "tensor<f32>",
                           "    %r = stablehlo.frobnicate %a : tensor<f32>")),
            "bad.mlir:3:10: error: unsupported StableHLO operation "
            "'stablehlo.frobnicate'\n"
            "    %r = stablehlo.frobnicate %a : tensor<f32>\n"
            "         ^");
  EXPECT_THAT(LoadError(Main("%a: tensor<f32>", "tensor<f32>",
                             "    %r = stablehlo.add %a, %b : tensor<f32>")),
              HasSubstr("bad.mlir:3:28: error: value '%b' is not defined"));
  EXPECT_THAT(LoadError(Main("%a: tensor<f32>", "tensor<f32>",
                             "    %r = stablehlo.add %a, %a tensor<f32>")),
              HasSubstr("bad.mlir:3:31: error: expected ':' before the types, "
                        "found 'tensor'"));
  EXPECT_THAT(LoadError("module {\n  func.func @f() -> () {\n    return\n  "
                        "}\n  func.func @g() -> () {\n    call @h() : () -> "
                        "()\n    return\n  }\n}\n"),
              HasSubstr("bad.mlir:6:10: error: function '@h' is not defined"));
}

TEST(StableHloErrorsTest, ShapeMismatchesAreVerifierErrorsAtTheLine) {
  // add of f32[2] and f32[3]: the verifier reports the instruction's line.
  EXPECT_THAT(
      LoadError(Main("%a: tensor<2xf32>, %b: tensor<3xf32>", "tensor<2xf32>",
                     "    %r = \"stablehlo.add\"(%a, %b) : "
                     "(tensor<2xf32>, tensor<3xf32>) -> "
                     "tensor<2xf32>")),
      HasSubstr("bad.mlir:3:5: error:"));
}

TEST(StableHloErrorsTest, TruncatedInputNeverCrashes) {
  const std::string text = kWhileModule;
  for (size_t n = 0; n < text.size(); n += 7) {
    (void)ParseStableHlo(text.substr(0, n), "cut.mlir");
  }
}

// --- Evaluation.

TEST(StableHloEvalTest, JaxStyleProgramGivesHandComputedNumbers) {
  // f(x, w) = sum over rows of relu(x @ w) + 1, JAX style.
  auto m = Load(R"(module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<2x2xf32>, %arg1: tensor<2x3xf32>) -> (tensor<3xf32> {jax.result_info = ""}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %2 = stablehlo.maximum %0, %1 : tensor<2x3xf32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<3xf32>
    %4 = stablehlo.add %3, %cst_0 : tensor<3xf32>
    return %4 : tensor<3xf32>
  }
}
)");
  ASSERT_NE(m, nullptr);
  Literal x(Shape::Array(PrimitiveType::kF32, {2, 2}));
  Literal w(Shape::Array(PrimitiveType::kF32, {2, 3}));
  const float xs[] = {1, 2, -1, 0};
  const float ws[] = {1, 0, -1, 2, 1, 1};
  for (int i = 0; i < 4; ++i) x.Set<float>(i, xs[i]);
  for (int i = 0; i < 6; ++i) w.Set<float>(i, ws[i]);
  // x @ w = [[1+4, 0+2, -1+2], [-1, 0, 1]] = [[5, 2, 1], [-1, 0, 1]];
  // relu, column sums: [5, 2, 2]; plus one: [6, 3, 3].
  absl::StatusOr<Literal> result = EvaluateModule(*m, {x, w});
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->Get<float>(0), 6.0f);
  EXPECT_EQ(result->Get<float>(1), 3.0f);
  EXPECT_EQ(result->Get<float>(2), 3.0f);
}

// --- Lowerings: the new operations become existing opcodes.

// How many instructions of `opcode` the entry computation has.
int CountOf(const Module& m, Opcode opcode) {
  int n = 0;
  for (const auto& inst : m.entry()->instructions()) {
    n += inst->opcode() == opcode ? 1 : 0;
  }
  return n;
}

// uniform_quantize is divide, add, clamp, round-nearest-even and a convert
// to the storage type (s8), whose shape is the entry's result; dequantize
// converts, subtracts and multiplies. The parameters are s8 arrays.
TEST(StableHloLoweringTest, QuantizationBecomesFloatArithmetic) {
  auto m = Load(R"(func.func @main(%x: tensor<4xf32>, %q: tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> (tensor<4x!quant.uniform<i8:f32, 0.1:-3>>, tensor<4xf32>) {
  %r = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.1:-3>>
  %d = stablehlo.uniform_dequantize %q : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4xf32>
  return %r, %d : tensor<4x!quant.uniform<i8:f32, 0.1:-3>>, tensor<4xf32>
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->parameter(1)->shape().ToString(false), "s8[4]");
  EXPECT_EQ(m->entry()->root()->shape().ToString(false), "(s8[4], f32[4])");
  EXPECT_EQ(CountOf(*m, Opcode::kDivide), 1);
  EXPECT_EQ(CountOf(*m, Opcode::kClamp), 1);
  EXPECT_EQ(CountOf(*m, Opcode::kRoundNearestEven), 1);
  EXPECT_EQ(CountOf(*m, Opcode::kSubtract), 1);
  EXPECT_EQ(CountOf(*m, Opcode::kMultiply), 1);
}

// chlo.scan is a while whose body calls the scan's region; chlo.ragged_dot
// is one dot, selects for the group masks and a reduce over the groups.
TEST(StableHloLoweringTest, ScanIsAWhileAndRaggedDotADotWithMasks) {
  auto scan = Load(R"(func.func @main(%x: tensor<4xi32>, %c: tensor<i32>) -> tensor<4xi32> {
  %r:2 = chlo.scan(%x) inits(%c) dimension=0 {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s, %s : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  return %r#0 : tensor<4xi32>
}
)");
  ASSERT_NE(scan, nullptr);
  EXPECT_EQ(CountOf(*scan, Opcode::kWhile), 1);
  auto ragged = Load(R"(func.func @main(%l: tensor<4x2xf32>, %r: tensor<2x2x3xf32>, %g: tensor<2xi32>) -> tensor<4x3xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>} : (tensor<4x2xf32>, tensor<2x2x3xf32>, tensor<2xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
)");
  ASSERT_NE(ragged, nullptr);
  EXPECT_EQ(CountOf(*ragged, Opcode::kDot), 1);
  EXPECT_EQ(CountOf(*ragged, Opcode::kReduce), 2);  // group starts, groups
  EXPECT_EQ(ragged->entry()->root()->opcode(), Opcode::kReduce);
  EXPECT_EQ(ragged->entry()->root()->shape().ToString(false), "f32[4,3]");
}

// stablehlo.composite, pretty and generic: a call of the decomposition that
// keeps the composite's name, version and attributes (as XLA's
// `call ..., is_composite=true`), evaluated through the decomposition:
// a + 2b with a = (1, 2), b = (10, 20) is (21, 42), twice over (21 + 20,
// 42 + 40) = (41, 82).
TEST(StableHloCompositeTest, IsACallOfItsDecompositionThatKeepsWhatItWas) {
  auto m = Load(R"(module @m {
  func.func public @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
    %0 = stablehlo.composite "my.scaled_add" %a, %b {composite_attributes = {scale = 2.000000e+00 : f32, note = "x}"}, decomposition = @scaled_add, version = 3 : i32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %1 = "stablehlo.composite"(%0, %b) <{decomposition = @scaled_add, name = "my.scaled_add"}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    return %1 : tensor<2xf32>
  }
  func.func private @scaled_add(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
    %c = stablehlo.constant dense<2.000000e+00> : tensor<2xf32>
    %0 = stablehlo.multiply %y, %c : tensor<2xf32>
    %1 = stablehlo.add %x, %0 : tensor<2xf32>
    return %1 : tensor<2xf32>
  }
})");
  ASSERT_NE(m, nullptr);
  const Instruction* outer = m->entry()->root();
  ASSERT_EQ(outer->opcode(), Opcode::kCall);
  EXPECT_EQ(outer->to_apply()->name(), "scaled_add");
  const Instruction* inner = outer->operand(0);
  ASSERT_EQ(inner->opcode(), Opcode::kCall);
  ASSERT_NE(inner->FindRawAttribute("is_composite"), nullptr);
  EXPECT_EQ(*inner->FindRawAttribute("is_composite"), "true");
  ASSERT_NE(inner->FindRawAttribute("frontend_attributes"), nullptr);
  EXPECT_EQ(*inner->FindRawAttribute("frontend_attributes"),
            R"({composite.attributes="{scale = 2.000000e+00 : f32, note = \"x}\"}",)"
            R"(composite.name="my.scaled_add",composite.version="3"})");
  EXPECT_EQ(*outer->FindRawAttribute("frontend_attributes"),
            R"({composite.attributes="{}",composite.name="my.scaled_add",)"
            R"(composite.version="0"})");
  Literal a(Shape::Array(PrimitiveType::kF32, {2}));
  a.Set<float>(0, 1);
  a.Set<float>(1, 2);
  Literal b(Shape::Array(PrimitiveType::kF32, {2}));
  b.Set<float>(0, 10);
  b.Set<float>(1, 20);
  absl::StatusOr<Literal> r = EvaluateModule(*m, {a, b});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->Get<float>(0), 41.0f);
  EXPECT_EQ(r->Get<float>(1), 82.0f);
  EXPECT_THAT(LoadError(R"(module @m {
  func.func public @main(%a: tensor<2xf32>) -> tensor<2xf32> {
    %0 = stablehlo.composite "my.op" %a {version = 1 : i32} : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
})"),
              HasSubstr("bad.mlir:3:10: error: composite needs a decomposition"));
}

}  // namespace
}  // namespace aotc
