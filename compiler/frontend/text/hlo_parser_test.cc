// Tests of the HLO text parser: module structure, computations, operands,
// shapes and every modeled attribute, checked field by field in the IR.
#include "compiler/frontend/text/hlo_parser.h"

#include <gtest/gtest.h>

#include <string>

#include "compiler/ir/printer.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

std::unique_ptr<Module> Parse(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> m = ParseHloText(text, "test.hlo");
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::move(*m) : nullptr;
}

const Instruction* Find(const Module& m, std::string_view name) {
  for (const auto& c : m.computations()) {
    if (const Instruction* i = c->FindInstruction(name)) return i;
  }
  ADD_FAILURE() << "no instruction " << name;
  return nullptr;
}

// Parses one ENTRY computation with the given body.
std::unique_ptr<Module> ParseBody(std::string_view body) {
  return Parse(absl::StrCat("HloModule m\n\nENTRY e {\n", Sv(body), "\n}\n"));
}

constexpr char kAdd[] = R"(
add {
  add_lhs = f32[] parameter(0)
  add_rhs = f32[] parameter(1)
  ROOT add_sum = f32[] add(add_lhs, add_rhs)
}
)";

TEST(HloParserTest, HeaderAttributesAreKeptVerbatim) {
  auto m = Parse(
      R"(HloModule jit_f.1, is_scheduled=true, entry_computation_layout={(f32[2]{0}, /*index=1*/s32[])->f32[2]{0}}, input_output_alias={ {0}: (0, {}, may-alias) }, frontend_attributes={a="b,c"}

ENTRY main {
  ROOT p = f32[2] parameter(0)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->name(), "jit_f.1");
  std::vector<std::pair<std::string, std::string>> expected = {
      {"is_scheduled", "true"},
      {"entry_computation_layout",
       "{(f32[2]{0}, /*index=1*/s32[])->f32[2]{0}}"},
      {"input_output_alias", "{ {0}: (0, {}, may-alias) }"},
      {"frontend_attributes", "{a=\"b,c\"}"}};
  EXPECT_EQ(m->header_attributes(), expected);
  EXPECT_TRUE(m->stack_frame_tables().empty());
}

TEST(HloParserTest, StackFrameTablesAreKeptVerbatim) {
  auto m = Parse(R"(HloModule m

FileNames
1 "a.py"

FunctionNames
1 "f"

FileLocations
1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=2 end_column=9}

StackFrames
1 {file_location_id=1 parent_frame_id=0}

ENTRY e {
  ROOT p = f32[] parameter(0), metadata={op_name="x" stack_frame_id=1}
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->stack_frame_tables(),
            "FileNames\n1 \"a.py\"\n\nFunctionNames\n1 \"f\"\n\nFileLocations\n"
            "1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=2 "
            "end_column=9}\n\nStackFrames\n1 {file_location_id=1 "
            "parent_frame_id=0}");
  const Instruction* p = Find(*m, "p");
  EXPECT_EQ(p->metadata().op_name, "x");
  std::vector<std::pair<std::string, std::string>> other = {
      {"stack_frame_id", "1"}};
  EXPECT_EQ(p->metadata().other, other);
}

TEST(HloParserTest, ComputationsEntryRootAndLocations) {
  auto m = Parse(std::string("HloModule m\n") + kAdd + R"(
ENTRY %main (x: f32[4], y: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %y = f32[4]{0} parameter(1)
  ROOT %r = f32[4]{0} add(f32[4]{0} %x, /*index=1*/ y)
  %after = f32[4] negate(x)
}, execution_thread="main"
)");
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->computations().size(), 2u);
  const Computation* add = m->computations()[0].get();
  const Computation* main = m->computations()[1].get();
  EXPECT_EQ(add->name(), "add");
  EXPECT_EQ(add->root()->name(), "add_sum");  // ROOT
  EXPECT_EQ(m->entry(), main);
  EXPECT_EQ(main->root()->name(), "r");  // ROOT, not the last instruction
  EXPECT_EQ(main->execution_thread(), "main");
  EXPECT_EQ(main->location().line, 9);
  EXPECT_EQ(main->location().column, 7);
  const Instruction* r = Find(*m, "r");
  EXPECT_EQ(r->location().line, 12);
  EXPECT_EQ(r->location().column, 8);
  EXPECT_EQ(r->location().file->name, "test.hlo");
  ASSERT_EQ(r->operand_count(), 2);
  EXPECT_EQ(r->operand(0)->name(), "x");
  EXPECT_EQ(r->operand(1)->name(), "y");
  EXPECT_EQ(Find(*m, "x")->parameter_number(), 0);
  EXPECT_EQ(Find(*m, "y")->parameter_number(), 1);
}

TEST(HloParserTest, WithoutEntryTheLastComputationIsTheEntry) {
  auto m = Parse(std::string(kAdd) + R"(
main {
  p = f32[] parameter(0)
  n = f32[] negate(p)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->name(), "main");
  EXPECT_EQ(m->name(), "main");  // no header: named after the entry
  EXPECT_EQ(m->entry()->root()->name(), "n");  // no ROOT: the last one
}

TEST(HloParserTest, EveryOpcodeIsAccepted) {
  for (int i = 0; i < NumOpcodes(); ++i) {
    Opcode op = static_cast<Opcode>(i);
    if (op == Opcode::kParameter || op == Opcode::kConstant) continue;
    std::string body =
        absl::StrCat("  p = f32[] parameter(0)\n  ROOT x = f32[] ",
                     Sv(OpcodeName(op)), "(p)");
    auto m = ParseBody(body);
    ASSERT_NE(m, nullptr) << OpcodeName(op);
    EXPECT_EQ(m->entry()->root()->opcode(), op);
  }
}

TEST(HloParserTest, Shapes) {
  auto m = ParseBody(R"(
  a = f32[2,3] parameter(0)
  b = bf16[2,3]{0,1} parameter(1)
  c = s4[8,128]{1,0:T(8,128)(2,1)E(4)} parameter(2)
  d = (f32[], (s32[1]{0}, pred[]), token[]) parameter(3)
  e = f32[]{:T(256)} parameter(4)
  f = () parameter(5))");
  ASSERT_NE(m, nullptr);
  const Shape& a = Find(*m, "a")->shape();
  EXPECT_EQ(a.element_type(), PrimitiveType::kF32);
  EXPECT_EQ(a.dimensions(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(a.layout().minor_to_major, (std::vector<int64_t>{1, 0}));
  const Shape& b = Find(*m, "b")->shape();
  EXPECT_EQ(b.element_type(), PrimitiveType::kBF16);
  EXPECT_EQ(b.layout().minor_to_major, (std::vector<int64_t>{0, 1}));
  const Shape& c = Find(*m, "c")->shape();
  EXPECT_EQ(c.layout().minor_to_major, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(c.layout().extension, "T(8,128)(2,1)E(4)");
  const Shape& d = Find(*m, "d")->shape();
  ASSERT_TRUE(d.IsTuple());
  ASSERT_EQ(d.tuple_size(), 3);
  EXPECT_TRUE(d.tuple_shapes(0).IsScalar());
  EXPECT_TRUE(d.tuple_shapes(1).IsTuple());
  EXPECT_EQ(d.tuple_shapes(1).tuple_shapes(0).dimensions(),
            (std::vector<int64_t>{1}));
  EXPECT_TRUE(d.tuple_shapes(2).IsToken());
  EXPECT_EQ(Find(*m, "e")->shape().layout().extension, "T(256)");
  EXPECT_EQ(Find(*m, "f")->shape().tuple_size(), 0);
}

TEST(HloParserTest, ShapeOmittedIsInferred) {
  auto m = ParseBody(R"(
  p = f32[2,3] parameter(0)
  ROOT n = negate(p))");
  ASSERT_NE(m, nullptr);
  const Shape& n = Find(*m, "n")->shape();
  EXPECT_EQ(n.element_type(), PrimitiveType::kF32);
  EXPECT_EQ(n.dimensions(), (std::vector<int64_t>{2, 3}));
}

TEST(HloParserTest, ShapeInferenceErrorsAreLocatedAtTheInstruction) {
  auto m = ParseHloText(R"(HloModule m
ENTRY e {
  p = f32[2] parameter(0)
  q = f32[3] parameter(1)
  ROOT a = add(p, q)
})",
                        "test.hlo");
  ASSERT_FALSE(m.ok());
  // The message itself comes from shape inference.
  EXPECT_EQ(std::string(m.status().message()).rfind("test.hlo:5:8: error: ", 0),
            0u)
      << m.status().message();
  EXPECT_NE(std::string(m.status().message())
                .find("\n  ROOT a = add(p, q)\n       ^"),
            std::string::npos)
      << m.status().message();
}

TEST(HloParserTest, DimensionsAndSimpleAttributes) {
  auto m = Parse(std::string("HloModule m\n") + kAdd + R"(
ENTRY e {
  p = f32[2,3] parameter(0)
  z = f32[] constant(0)
  t = (f32[2,3], f32[]) tuple(p, z)
  g = f32[] get-tuple-element(t), index=1
  b = f32[4,2,3] broadcast(p), dimensions={1,2}
  tr = f32[3,2] transpose(p), dimensions={1,0}
  r = f32[2] reduce(p, z), dimensions={1}, to_apply=add
  rv = f32[2,3] reverse(p), dimensions={0}
  c = f32[4,3] concatenate(p, p), dimensions={0}
  i = s32[5,3] iota(), iota_dimension=1
  sl = f32[1,2] slice(p), slice={[0:1], [0:3:2]}
  pd = f32[5,8] pad(p, z), padding=0_1x2_3_1
  ds = f32[1,2] dynamic-slice(p, i, i), dynamic_slice_sizes={1,2}
  cmp = pred[2,3] compare(p, p), direction=LT, type=TOTALORDER
  cmp2 = pred[2,3] compare(p, p), direction=GE
  rp = f32[2,3] reduce-precision(p), exponent_bits=5, mantissa_bits=10
  m = f32[2,3] map(p, p), dimensions={0,1}, to_apply=add
})");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Find(*m, "g")->tuple_index(), 1);
  EXPECT_EQ(Find(*m, "b")->attrs().dimensions, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(Find(*m, "tr")->attrs().dimensions, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(Find(*m, "r")->attrs().dimensions, (std::vector<int64_t>{1}));
  EXPECT_EQ(Find(*m, "r")->to_apply()->name(), "add");
  EXPECT_EQ(Find(*m, "rv")->attrs().dimensions, (std::vector<int64_t>{0}));
  EXPECT_EQ(Find(*m, "c")->attrs().dimensions, (std::vector<int64_t>{0}));
  EXPECT_EQ(Find(*m, "i")->iota_dimension(), 1);
  std::vector<SliceDim> slice = {{0, 1, 1}, {0, 3, 2}};
  EXPECT_EQ(Find(*m, "sl")->attrs().slice, slice);
  std::vector<PaddingDim> padding = {{0, 1, 0}, {2, 3, 1}};
  EXPECT_EQ(Find(*m, "pd")->attrs().padding, padding);
  EXPECT_EQ(Find(*m, "ds")->attrs().dynamic_slice_sizes,
            (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(Find(*m, "cmp")->comparison_direction(), ComparisonDirection::kLt);
  EXPECT_EQ(Find(*m, "cmp")->attrs().comparison_type,
            ComparisonType::kTotalOrder);
  EXPECT_EQ(Find(*m, "cmp2")->comparison_direction(), ComparisonDirection::kGe);
  EXPECT_EQ(Find(*m, "cmp2")->attrs().comparison_type, ComparisonType::kUnset);
  EXPECT_EQ(Find(*m, "rp")->attrs().exponent_bits, 5);
  EXPECT_EQ(Find(*m, "rp")->attrs().mantissa_bits, 10);
  EXPECT_EQ(Find(*m, "m")->attrs().dimensions, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(Find(*m, "m")->to_apply()->name(), "add");
}

TEST(HloParserTest, ConvolutionAndWindows) {
  auto m = Parse(std::string("HloModule m\n") + kAdd + R"(
ENTRY e {
  x = f32[1,5,5,2] parameter(0)
  k = f32[3,3,2,4] parameter(1)
  z = f32[] constant(0)
  cv = f32[1,3,3,4] convolution(x, k), window={size=3x3 stride=2x1 pad=1_1x0_2 lhs_dilate=1x2 rhs_dilate=3x1 rhs_reversal=0x1}, dim_labels=b01f_01io->b01f, feature_group_count=2, batch_group_count=3, operand_precision={high,default}, algorithm=dot_bf16_bf16_f32
  cv1 = f32[1,4] convolution(x, k), dim_labels=bf_io->bf
  rw = f32[1,5,5,2] reduce-window(x, z), window={size=1x3x3x1 pad=0_0x1_1x1_1x0_0}, to_apply=add
  rw0 = f32[] reduce-window(z, z), window={}, to_apply=add
})");
  ASSERT_NE(m, nullptr);
  const InstructionAttributes& cv = Find(*m, "cv")->attrs();
  ASSERT_EQ(cv.window.size(), 2u);
  WindowDim w0;
  w0.size = 3;
  w0.stride = 2;
  w0.pad_low = 1;
  w0.pad_high = 1;
  w0.base_dilation = 1;
  w0.window_dilation = 3;
  w0.reversal = false;
  WindowDim w1;
  w1.size = 3;
  w1.stride = 1;
  w1.pad_low = 0;
  w1.pad_high = 2;
  w1.base_dilation = 2;
  w1.window_dilation = 1;
  w1.reversal = true;
  EXPECT_EQ(cv.window[0], w0);
  EXPECT_EQ(cv.window[1], w1);
  ConvolutionDimensionNumbers d;
  d.input_batch = 0;
  d.input_feature = 3;
  d.input_spatial = {1, 2};
  d.kernel_input_feature = 2;
  d.kernel_output_feature = 3;
  d.kernel_spatial = {0, 1};
  d.output_batch = 0;
  d.output_feature = 3;
  d.output_spatial = {1, 2};
  EXPECT_EQ(cv.conv_dnums, d);
  EXPECT_EQ(cv.feature_group_count, 2);
  EXPECT_EQ(cv.batch_group_count, 3);
  EXPECT_EQ(cv.operand_precision,
            (std::vector<std::string>{"high", "default"}));
  EXPECT_EQ(cv.algorithm, "dot_bf16_bf16_f32");

  const InstructionAttributes& cv1 = Find(*m, "cv1")->attrs();
  EXPECT_TRUE(cv1.window.empty());
  EXPECT_EQ(cv1.conv_dnums.input_batch, 0);
  EXPECT_EQ(cv1.conv_dnums.input_feature, 1);
  EXPECT_EQ(cv1.conv_dnums.kernel_input_feature, 0);
  EXPECT_EQ(cv1.conv_dnums.kernel_output_feature, 1);
  EXPECT_TRUE(cv1.conv_dnums.output_spatial.empty());
  EXPECT_EQ(cv1.feature_group_count, 1);

  const InstructionAttributes& rw = Find(*m, "rw")->attrs();
  ASSERT_EQ(rw.window.size(), 4u);
  EXPECT_EQ(rw.window[1].size, 3);
  EXPECT_EQ(rw.window[1].pad_low, 1);
  EXPECT_EQ(rw.window[3].pad_high, 0);
  EXPECT_EQ(rw.window[2].stride, 1);
  EXPECT_TRUE(Find(*m, "rw0")->attrs().window.empty());
}

TEST(HloParserTest, DotGatherScatter) {
  auto m = Parse(std::string("HloModule m\n") + kAdd + R"(
ENTRY e {
  a = f32[2,3,4] parameter(0)
  b = f32[2,4,5] parameter(1)
  dot = f32[2,3,5] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}, operand_precision={highest,highest}
  idx = s32[2,1] parameter(2)
  g = f32[2,3,4] gather(a, idx), offset_dims={1,2}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3,4}, indices_are_sorted=true, operand_batching_dims={}, start_indices_batching_dims={}
  upd = f32[2,3,4] parameter(3)
  s = f32[2,3,4] scatter(a, idx, upd), update_window_dims={1,2}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, input_batching_dims={}, scatter_indices_batching_dims={}, indices_are_sorted=false, unique_indices=true, to_apply=add
})");
  ASSERT_NE(m, nullptr);
  const InstructionAttributes& dot = Find(*m, "dot")->attrs();
  DotDimensionNumbers dd;
  dd.lhs_batch = {0};
  dd.lhs_contracting = {2};
  dd.rhs_batch = {0};
  dd.rhs_contracting = {1};
  EXPECT_EQ(dot.dot_dnums, dd);
  EXPECT_EQ(dot.operand_precision,
            (std::vector<std::string>{"highest", "highest"}));
  const InstructionAttributes& g = Find(*m, "g")->attrs();
  GatherDimensionNumbers gd;
  gd.offset_dims = {1, 2};
  gd.collapsed_slice_dims = {0};
  gd.start_index_map = {0};
  gd.index_vector_dim = 1;
  EXPECT_EQ(g.gather_dnums, gd);
  EXPECT_EQ(g.slice_sizes, (std::vector<int64_t>{1, 3, 4}));
  EXPECT_TRUE(g.indices_are_sorted);
  const Instruction* s = Find(*m, "s");
  ScatterDimensionNumbers sd;
  sd.update_window_dims = {1, 2};
  sd.inserted_window_dims = {0};
  sd.scatter_dims_to_operand_dims = {0};
  sd.index_vector_dim = 1;
  EXPECT_EQ(s->attrs().scatter_dnums, sd);
  EXPECT_FALSE(s->attrs().indices_are_sorted);
  EXPECT_TRUE(s->attrs().unique_indices);
  EXPECT_EQ(s->to_apply()->name(), "add");
}

TEST(HloParserTest, CalledComputationsInDocumentedOrder) {
  auto m = Parse(std::string("HloModule m\n") + kAdd + R"(
cond {
  cp = s32[] parameter(0)
  ROOT lt = pred[] compare(cp, cp), direction=LT
}
body {
  ROOT bp = s32[] parameter(0)
}
ge {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT c = pred[] compare(x, y), direction=GE
}
fused {
  fp = f32[4] parameter(0)
  ROOT fn = f32[4] negate(fp)
}
cmp {
  l = f32[] parameter(0)
  r = f32[] parameter(1)
  ROOT lt = pred[] compare(l, r), direction=LT
}
ENTRY e {
  i = s32[] parameter(0)
  w = s32[] while(i), condition=cond, body=body
  pr = pred[] parameter(1)
  c1 = s32[] conditional(pr, i, i), true_computation=body, false_computation=body
  c2 = s32[] conditional(i, i, i, i), branch_computations={body, %body, body}
  v = f32[4] parameter(2)
  z = f32[] constant(0)
  sas = f32[4] select-and-scatter(v, v, z), window={size=2}, select=ge, scatter=add
  f = f32[4] fusion(v), kind=kLoop, calls=fused
  f2 = f32[4] fusion(v), kind=kOutput, calls=fused
  srt = f32[4] sort(v), dimensions={0}, is_stable=true, to_apply=cmp
  cc = f32[4] custom-call(v), custom_call_target="my\"target", called_computations={fused, add}, operand_layout_constraints={f32[4]{0}}
  cl = f32[] call(z, z), to_apply=add
})");
  ASSERT_NE(m, nullptr);
  auto names = [](const Instruction* inst) {
    std::vector<std::string> out;
    for (const Computation* c : inst->called_computations())
      out.push_back(c->name());
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(names(Find(*m, "w")), (V{"cond", "body"}));
  EXPECT_EQ(Find(*m, "w")->while_condition()->name(), "cond");
  EXPECT_EQ(Find(*m, "w")->while_body()->name(), "body");
  EXPECT_EQ(names(Find(*m, "c1")), (V{"body", "body"}));
  EXPECT_EQ(names(Find(*m, "c2")), (V{"body", "body", "body"}));
  EXPECT_EQ(names(Find(*m, "sas")), (V{"ge", "add"}));
  EXPECT_EQ(Find(*m, "f")->fused_computation()->name(), "fused");
  EXPECT_EQ(Find(*m, "f")->attrs().fusion_kind, FusionKind::kLoop);
  EXPECT_EQ(Find(*m, "f2")->attrs().fusion_kind, FusionKind::kOutput);
  EXPECT_EQ(names(Find(*m, "srt")), (V{"cmp"}));
  EXPECT_TRUE(Find(*m, "srt")->attrs().is_stable);
  EXPECT_EQ(Find(*m, "srt")->attrs().dimensions, (std::vector<int64_t>{0}));
  const Instruction* cc = Find(*m, "cc");
  EXPECT_EQ(names(cc), (V{"fused", "add"}));
  EXPECT_EQ(cc->attrs().custom_call_target, "my\"target");
  ASSERT_TRUE(cc->attrs().operand_layout_constraints.has_value());
  ASSERT_EQ(cc->attrs().operand_layout_constraints->size(), 1u);
  EXPECT_EQ((*cc->attrs().operand_layout_constraints)[0].dimensions(),
            (std::vector<int64_t>{4}));
  EXPECT_EQ(names(Find(*m, "cl")), (V{"add"}));
}

TEST(HloParserTest, MetadataAndRawAttributes) {
  auto m = ParseBody(R"(
  p = f32[4] parameter(0), parameter_replication={false}, sharding={replicated}
  ROOT n = f32[4] negate(p), metadata={op_type="Neg" op_name="jit(f)/neg\n" source_file="/a/b.py" source_line=12 source_end_line=13 profile_type={1}}, backend_config={"k": "v, w", "n": [1, {"x": 2}]}, frontend_attributes={_xla="1"}, result_accuracy={tolerance={atol=1.0,rtol=0,ulps=10}}, control-predecessors={p}, custom_flag=true)");
  ASSERT_NE(m, nullptr);
  const Instruction* p = Find(*m, "p");
  std::vector<std::pair<std::string, std::string>> p_raw = {
      {"parameter_replication", "{false}"}, {"sharding", "{replicated}"}};
  EXPECT_EQ(p->raw_attributes(), p_raw);
  const Instruction* n = Find(*m, "n");
  EXPECT_EQ(n->metadata().op_type, "Neg");
  EXPECT_EQ(n->metadata().op_name, "jit(f)/neg\n");
  EXPECT_EQ(n->metadata().source_file, "/a/b.py");
  EXPECT_EQ(n->metadata().source_line, 12);
  std::vector<std::pair<std::string, std::string>> other = {
      {"source_end_line", "13"}, {"profile_type", "{1}"}};
  EXPECT_EQ(n->metadata().other, other);
  std::vector<std::pair<std::string, std::string>> n_raw = {
      {"backend_config", R"({"k": "v, w", "n": [1, {"x": 2}]})"},
      {"frontend_attributes", R"({_xla="1"})"},
      {"result_accuracy", "{tolerance={atol=1.0,rtol=0,ulps=10}}"},
      {"control-predecessors", "{p}"},
      {"custom_flag", "true"}};
  EXPECT_EQ(n->raw_attributes(), n_raw);
  EXPECT_EQ(*n->FindRawAttribute("custom_flag"), "true");
}

TEST(HloParserTest, ModeledKeysOnOtherOpcodesStayRaw) {
  auto m = ParseBody(R"(
  p = f32[4] parameter(0)
  ROOT ag = f32[8] all-gather(p), dimensions={0}, replica_groups={{0,1}}, index=3)");
  ASSERT_NE(m, nullptr);
  const Instruction* ag = Find(*m, "ag");
  EXPECT_TRUE(ag->attrs().dimensions.empty());
  std::vector<std::pair<std::string, std::string>> raw = {
      {"dimensions", "{0}"}, {"replica_groups", "{{0,1}}"}, {"index", "3"}};
  EXPECT_EQ(ag->raw_attributes(), raw);
}

TEST(HloParserTest, ModeledKeyOfAnotherOpcodeStaysRaw) {
  // window= is modeled for reduce-window, not reduce; is_stable= for sort,
  // not for reduce either. Both stay raw on reduce and print back verbatim.
  auto ok = Parse(absl::StrCat("HloModule m\n", kAdd, R"(
ENTRY e {
  p = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(p, z), dimensions={0}, window={size=2}, is_stable=true, to_apply=add
}
)"));
  ASSERT_NE(ok, nullptr);
  const Instruction* r = Find(*ok, "r");
  EXPECT_EQ(r->dimensions(), std::vector<int64_t>{0});
  EXPECT_TRUE(r->attrs().window.empty());
  EXPECT_FALSE(r->attrs().is_stable);
  std::vector<std::pair<std::string, std::string>> raw = {
      {"window", "{size=2}"}, {"is_stable", "true"}};
  EXPECT_EQ(r->raw_attributes(), raw);
  EXPECT_NE(PrintModule(*ok).find(
                "dimensions={0}, to_apply=%add, window={size=2}, "
                "is_stable=true"),
            std::string::npos)
      << PrintModule(*ok);
}

TEST(HloParserTest, NamesScopedPerComputation) {
  // Two computations may both call a parameter `p` (as XLA dumps do).
  auto m = Parse(R"(HloModule m
a {
  p = f32[] parameter(0)
}
ENTRY b {
  p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply=a
})");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->root()->operand(0)->parent(), m->entry());
}

}  // namespace
}  // namespace aotc
