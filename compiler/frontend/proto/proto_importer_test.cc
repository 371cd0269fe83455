// Tests of the HloModuleProto importer: hand-built protos checked field by
// field and against the text parser, literals in physical order, raw
// attribute text forms, and located errors for malformed protos.
#include "compiler/frontend/proto/proto_importer.h"

#include <complex>
#include <cstring>

#include "compiler/frontend/proto/hlo_subset.pb.h"
#include "compiler/frontend/proto/testing/export_for_test.h"
#include "compiler/frontend/proto/testing/proto_builder.h"
#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/printer.h"
#include "compiler/support/float16.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ArrayShape;
using testing::F32;
using testing::ProtoBuilder;
using testing::TupleShape;

std::unique_ptr<Module> Import(const ProtoBuilder& b) {
  absl::StatusOr<std::unique_ptr<Module>> m = ImportHloProto(b.Bytes(), "m.pb");
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *std::move(m) : nullptr;
}

// The imported module prints exactly like the same module parsed from text.
void ExpectPrintsLikeText(const Module& imported, std::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> parsed = ParseHloText(text, "t.hlo");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(PrintModule(imported), PrintModule(**parsed));
}

TEST(ProtoImporterTest, ElementwiseAdd) {
  ProtoBuilder b("add_module");
  auto* c = b.Computation("main");
  auto* x = b.Parameter(c, "x", 0, F32({4}));
  auto* y = b.Parameter(c, "y", 1, F32({4}));
  b.Add(c, "sum", "add", F32({4}), {x, y});
  b.SetEntry(c);
  std::unique_ptr<Module> m = Import(b);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->name(), "add_module");
  ASSERT_EQ(m->computations().size(), 1u);
  const Computation* entry = m->entry();
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->name(), "main");
  ASSERT_EQ(entry->instruction_count(), 3);
  const Instruction* sum = entry->root();
  EXPECT_EQ(sum->name(), "sum");
  EXPECT_EQ(sum->opcode(), Opcode::kAdd);
  EXPECT_EQ(sum->shape(), Shape::Array(PrimitiveType::kF32, {4}));
  ASSERT_EQ(sum->operand_count(), 2);
  EXPECT_EQ(sum->operand(0)->name(), "x");
  EXPECT_EQ(sum->operand(1)->name(), "y");
  EXPECT_EQ(sum->operand(1)->parameter_number(), 1);
  // No metadata: the location is the proto file itself.
  EXPECT_EQ(sum->location().ToString(), "m.pb");
  ExpectPrintsLikeText(*m, R"(
HloModule add_module

ENTRY %main (x: f32[4], y: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %y = f32[4]{0} parameter(1)
  ROOT %sum = f32[4]{0} add(f32[4]{0} %x, f32[4]{0} %y)
}
)");
}

TEST(ProtoImporterTest, ColumnMajorConstantIsPermutedToLogicalOrder) {
  ProtoBuilder b("constant_module");
  auto* c = b.Computation("main");
  // f32[2,3]{0,1}: dimension 0 varies fastest in memory, so the physical
  // order of {{1,2,3},{4,5,6}} is 1,4,2,5,3,6.
  auto* k = b.Add(c, "k", "constant",
                  ArrayShape(PrimitiveType::kF32, {2, 3}, {0, 1}));
  *k->mutable_literal()->mutable_shape() =
      ArrayShape(PrimitiveType::kF32, {2, 3}, {0, 1});
  for (float v : {1.f, 4.f, 2.f, 5.f, 3.f, 6.f})
    k->mutable_literal()->add_f32s(v);
  b.SetEntry(c);
  std::unique_ptr<Module> m = Import(b);
  ASSERT_NE(m, nullptr);
  const Instruction* root = m->entry()->root();
  EXPECT_EQ(root->shape().layout().minor_to_major,
            (std::vector<int64_t>{0, 1}));
  absl::Span<const float> data = root->literal().data<float>();
  EXPECT_THAT(std::vector<float>(data.begin(), data.end()),
              ::testing::ElementsAre(1, 2, 3, 4, 5, 6));
  ExpectPrintsLikeText(*m, R"(
HloModule constant_module

ENTRY %main () -> f32[2,3] {
  ROOT %k = f32[2,3]{0,1} constant({ { 1, 2, 3 }, { 4, 5, 6 } })
}
)");
}

TEST(ProtoImporterTest, RowMajorRank3ConstantUsesLiteralLayout) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  // Instruction layout {2,1,0}, but the literal's data is written in its own
  // layout {1,2,0}: dimension 1 fastest, then 2, then 0. Logical element
  // (i,j,k) = 100i + 10j + k.
  auto* k =
      b.Add(c, "k", "constant", ArrayShape(PrimitiveType::kS32, {2, 2, 3}));
  *k->mutable_literal()->mutable_shape() =
      ArrayShape(PrimitiveType::kS32, {2, 2, 3}, {1, 2, 0});
  for (int i = 0; i < 2; ++i) {
    for (int kk = 0; kk < 3; ++kk) {
      for (int j = 0; j < 2; ++j)
        k->mutable_literal()->add_s32s(100 * i + 10 * j + kk);
    }
  }
  std::unique_ptr<Module> m = Import(b);
  ASSERT_NE(m, nullptr);
  absl::Span<const int32_t> data =
      m->entry()->root()->literal().data<int32_t>();
  EXPECT_THAT(std::vector<int32_t>(data.begin(), data.end()),
              ::testing::ElementsAre(0, 1, 2, 10, 11, 12, 100, 101, 102, 110,
                                     111, 112));
}

TEST(ProtoImporterTest, LiteralsOfManyTypes) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  auto constant = [&](const std::string& name, PrimitiveType t, int64_t n) {
    auto* k = b.Add(c, name, "constant", ArrayShape(t, {n}));
    *k->mutable_literal()->mutable_shape() = ArrayShape(t, {n});
    return k->mutable_literal();
  };
  xla::LiteralProto* preds = constant("p", PrimitiveType::kPred, 2);
  preds->add_preds(true);
  preds->add_preds(false);
  // s16 -2 = 0xfffe and 258 = 0x0102, little-endian.
  constant("s16", PrimitiveType::kS16, 2)
      ->set_s16s(std::string("\xfe\xff\x02\x01", 4));
  // f16 1.0 = 0x3c00, bf16 -2.0 = 0xc000.
  constant("f16", PrimitiveType::kF16, 1)->set_f16s(std::string("\x00\x3c", 2));
  constant("bf16", PrimitiveType::kBF16, 1)
      ->set_bf16s(std::string("\x00\xc0", 2));
  constant("s8", PrimitiveType::kS8, 2)->set_s8s(std::string("\x80\x7f", 2));
  // s4 one byte per element: 0x0f is -1, 0x07 is 7. u4 0x1f keeps 0xf.
  constant("s4", PrimitiveType::kS4, 2)->set_s4s(std::string("\x0f\x07", 2));
  constant("u4", PrimitiveType::kU4, 1)->set_u4s(std::string("\x1f", 1));
  xla::LiteralProto* c64 = constant("c64", PrimitiveType::kC64, 2);
  for (float v : {1.f, -1.f, 0.5f, 2.f}) c64->add_c64s(v);
  constant("u64", PrimitiveType::kU64, 1)->add_u64s(18446744073709551615ull);
  constant("f64", PrimitiveType::kF64, 1)->add_f64s(-0.25);
  constant("f8", PrimitiveType::kF8E4M3FN, 1)
      ->set_f8e4m3fns(std::string("\x38", 1));
  std::unique_ptr<Module> m = Import(b);
  ASSERT_NE(m, nullptr);
  const Computation* e = m->entry();
  auto lit = [&](const std::string& name) -> const Literal& {
    return e->FindInstruction(name)->literal();
  };
  EXPECT_EQ(lit("p").Get<bool>(0), true);
  EXPECT_EQ(lit("p").Get<bool>(1), false);
  EXPECT_EQ(lit("s16").Get<int16_t>(0), -2);
  EXPECT_EQ(lit("s16").Get<int16_t>(1), 258);
  EXPECT_EQ(lit("f16").Get<Half>(0).bits, 0x3c00);
  EXPECT_EQ(lit("bf16").Get<BFloat16>(0).bits, 0xc000);
  EXPECT_EQ(lit("s8").Get<int8_t>(0), -128);
  EXPECT_EQ(lit("s8").Get<int8_t>(1), 127);
  EXPECT_EQ(lit("s4").Get<int8_t>(0), -1);
  EXPECT_EQ(lit("s4").Get<int8_t>(1), 7);
  EXPECT_EQ(lit("u4").Get<uint8_t>(0), 0x0f);
  EXPECT_EQ(lit("c64").Get<std::complex<float>>(0), std::complex<float>(1, -1));
  EXPECT_EQ(lit("c64").Get<std::complex<float>>(1),
            std::complex<float>(0.5, 2));
  EXPECT_EQ(lit("u64").Get<uint64_t>(0), 18446744073709551615ull);
  EXPECT_EQ(lit("f64").Get<double>(0), -0.25);
  EXPECT_EQ(lit("f8").Get<uint8_t>(0), 0x38);
}

TEST(ProtoImporterTest, TupleConstantAndGetTupleElement) {
  ProtoBuilder b("tuple_module");
  auto* c = b.Computation("main");
  xla::ShapeProto tuple_shape =
      TupleShape({F32({2}), ArrayShape(PrimitiveType::kS32, {})});
  auto* k = b.Add(c, "k", "constant", tuple_shape);
  xla::LiteralProto* lit = k->mutable_literal();
  *lit->mutable_shape() = tuple_shape;
  xla::LiteralProto* e0 = lit->add_tuple_literals();
  *e0->mutable_shape() = F32({2});
  e0->add_f32s(1.5f);
  e0->add_f32s(-3);
  xla::LiteralProto* e1 = lit->add_tuple_literals();
  *e1->mutable_shape() = ArrayShape(PrimitiveType::kS32, {});
  e1->add_s32s(7);
  auto* gte = b.Add(c, "gte", "get-tuple-element", F32({2}), {k});
  gte->set_tuple_index(0);
  b.SetEntry(c);
  std::unique_ptr<Module> m = Import(b);
  ASSERT_NE(m, nullptr);
  const Instruction* root = m->entry()->root();
  EXPECT_EQ(root->tuple_index(), 0);
  const Literal& l = root->operand(0)->literal();
  ASSERT_EQ(l.tuple_elements().size(), 2u);
  EXPECT_EQ(l.tuple_elements()[0].Get<float>(1), -3.0f);
  EXPECT_EQ(l.tuple_elements()[1].Get<int32_t>(0), 7);
  ExpectPrintsLikeText(*m, R"(
HloModule tuple_module

ENTRY %main () -> f32[2] {
  %k = (f32[2]{0}, s32[]) constant(({1.5, -3}, 7))
  ROOT %gte = f32[2]{0} get-tuple-element((f32[2]{0}, s32[]) %k), index=0
}
)");
}

// A loop counting an s32 up to 10; the proto lists the body before the
// condition, as XLA does.
TEST(ProtoImporterTest, WhileConditionAndBody) {
  ProtoBuilder b("while_module");
  xla::ShapeProto s32 = ArrayShape(PrimitiveType::kS32, {});
  xla::ShapeProto pred = ArrayShape(PrimitiveType::kPred, {});
  auto* cond = b.Computation("cond");
  auto* cp = b.Parameter(cond, "cp", 0, s32);
  auto* ten = b.Add(cond, "ten", "constant", s32);
  *ten->mutable_literal()->mutable_shape() = s32;
  ten->mutable_literal()->add_s32s(10);
  auto* lt = b.Add(cond, "lt", "compare", pred, {cp, ten});
  lt->set_comparison_direction("LT");
  // XLA names the type; SIGNED is the default for s32, left out in text.
  lt->set_comparison_type("SIGNED");
  auto* body = b.Computation("body");
  auto* bp = b.Parameter(body, "bp", 0, s32);
  auto* one = b.Add(body, "one", "constant", s32);
  *one->mutable_literal()->mutable_shape() = s32;
  one->mutable_literal()->add_s32s(1);
  b.Add(body, "next", "add", s32, {bp, one});
  auto* main = b.Computation("main");
  auto* init = b.Parameter(main, "init", 0, s32);
  auto* loop = b.Add(main, "loop", "while", s32, {init});
  loop->add_called_computation_ids(body->id());
  loop->add_called_computation_ids(cond->id());
  b.SetEntry(main);
  std::unique_ptr<Module> m = Import(b);
  ASSERT_NE(m, nullptr);
  const Instruction* w = m->entry()->root();
  EXPECT_EQ(w->while_condition()->name(), "cond");
  EXPECT_EQ(w->while_body()->name(), "body");
  EXPECT_EQ(w->while_condition()->root()->comparison_direction(),
            ComparisonDirection::kLt);
  EXPECT_EQ(w->while_condition()->root()->attrs().comparison_type,
            ComparisonType::kUnset);
  ExpectPrintsLikeText(*m, R"(
HloModule while_module

%cond (cp: s32[]) -> pred[] {
  %cp = s32[] parameter(0)
  %ten = s32[] constant(10)
  ROOT %lt = pred[] compare(s32[] %cp, s32[] %ten), direction=LT
}

%body (bp: s32[]) -> s32[] {
  %bp = s32[] parameter(0)
  %one = s32[] constant(1)
  ROOT %next = s32[] add(s32[] %bp, s32[] %one)
}

ENTRY %main (init: s32[]) -> s32[] {
  %init = s32[] parameter(0)
  ROOT %loop = s32[] while(s32[] %init), condition=%cond, body=%body
}
)");
}

TEST(ProtoImporterTest, ReduceWithToApplyListedAfterItsCaller) {
  ProtoBuilder b("reduce_module");
  // The entry comes first in the proto; the importer puts callees first.
  auto* main = b.Computation("main");
  auto* add = b.Computation("add");
  auto* a = b.Parameter(add, "a", 0, F32({}));
  auto* bb = b.Parameter(add, "b", 1, F32({}));
  b.Add(add, "s", "add", F32({}), {a, bb});
  auto* x = b.Parameter(main, "x", 0, F32({2, 3}));
  auto* zero = b.Add(main, "zero", "constant", F32({}));
  *zero->mutable_literal()->mutable_shape() = F32({});
  zero->mutable_literal()->add_f32s(0);
  auto* r = b.Add(main, "r", "reduce", F32({2}), {x, zero});
  r->add_dimensions(1);
  r->add_called_computation_ids(add->id());
  b.SetEntry(main);
  std::unique_ptr<Module> m = Import(b);
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->computations().size(), 2u);
  EXPECT_EQ(m->computations()[0]->name(), "add");
  EXPECT_EQ(m->computations()[1]->name(), "main");
  const Instruction* root = m->entry()->root();
  EXPECT_EQ(root->attrs().dimensions, (std::vector<int64_t>{1}));
  EXPECT_EQ(root->to_apply()->name(), "add");
  ExpectPrintsLikeText(*m, R"(
HloModule reduce_module

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(f32[] %a, f32[] %b)
}

ENTRY %main (x: f32[2,3]) -> f32[2] {
  %x = f32[2,3]{1,0} parameter(0)
  %zero = f32[] constant(0)
  ROOT %r = f32[2]{0} reduce(f32[2,3]{1,0} %x, f32[] %zero), dimensions={1}, to_apply=%add
}
)");
}

TEST(ProtoImporterTest, DotDimensionNumbersAndPrecision) {
  ProtoBuilder b("dot_module");
  auto* c = b.Computation("main");
  auto* x = b.Parameter(c, "x", 0, F32({4, 2, 3}));
  auto* y = b.Parameter(c, "y", 1, F32({4, 3, 5}));
  auto* d = b.Add(c, "d", "dot", F32({4, 2, 5}), {x, y});
  auto* dn = d->mutable_dot_dimension_numbers();
  dn->add_lhs_batch_dimensions(0);
  dn->add_rhs_batch_dimensions(0);
  dn->add_lhs_contracting_dimensions(2);
  dn->add_rhs_contracting_dimensions(1);
  d->mutable_precision_config()->add_operand_precision(2);  // HIGHEST
  d->mutable_precision_config()->add_operand_precision(0);  // DEFAULT
  d->mutable_precision_config()->set_algorithm(6);  // ALG_DOT_BF16_BF16_F32
  std::unique_ptr<Module> m = Import(b);
  ASSERT_NE(m, nullptr);
  const InstructionAttributes& a = m->entry()->root()->attrs();
  EXPECT_EQ(a.dot_dnums.lhs_batch, (std::vector<int64_t>{0}));
  EXPECT_EQ(a.dot_dnums.rhs_batch, (std::vector<int64_t>{0}));
  EXPECT_EQ(a.dot_dnums.lhs_contracting, (std::vector<int64_t>{2}));
  EXPECT_EQ(a.dot_dnums.rhs_contracting, (std::vector<int64_t>{1}));
  EXPECT_EQ(a.operand_precision,
            (std::vector<std::string>{"highest", "default"}));
  EXPECT_EQ(a.algorithm, "dot_bf16_bf16_f32");
  ExpectPrintsLikeText(*m, R"(
HloModule dot_module

ENTRY %main (x: f32[4,2,3], y: f32[4,3,5]) -> f32[4,2,5] {
  %x = f32[4,2,3]{2,1,0} parameter(0)
  %y = f32[4,3,5]{2,1,0} parameter(1)
  ROOT %d = f32[4,2,5]{2,1,0} dot(f32[4,2,3]{2,1,0} %x, f32[4,3,5]{2,1,0} %y), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}, operand_precision={highest,default}, algorithm=dot_bf16_bf16_f32
}
)");
}

TEST(ProtoImporterTest, ConvolutionWindowAndDimensionNumbers) {
  ProtoBuilder b("conv_module");
  auto* c = b.Computation("main");
  auto* in = b.Parameter(c, "in", 0, F32({1, 5, 5, 2}));
  auto* k = b.Parameter(c, "k", 1, F32({3, 3, 2, 4}));
  auto* conv = b.Add(c, "conv", "convolution", F32({1, 3, 3, 4}), {in, k});
  for (int i = 0; i < 2; ++i) {
    auto* w = conv->mutable_window()->add_dimensions();
    w->set_size(3);
    w->set_stride(2);
    w->set_padding_low(1);
    w->set_padding_high(1);
    w->set_window_dilation(1);
    w->set_base_dilation(1);
  }
  auto* dn = conv->mutable_convolution_dimension_numbers();
  dn->set_input_batch_dimension(0);
  dn->set_input_feature_dimension(3);
  dn->add_input_spatial_dimensions(1);
  dn->add_input_spatial_dimensions(2);
  dn->set_kernel_input_feature_dimension(2);
  dn->set_kernel_output_feature_dimension(3);
  dn->add_kernel_spatial_dimensions(0);
  dn->add_kernel_spatial_dimensions(1);
  dn->set_output_batch_dimension(0);
  dn->set_output_feature_dimension(3);
  dn->add_output_spatial_dimensions(1);
  dn->add_output_spatial_dimensions(2);
  // feature_group_count and batch_group_count left at proto3's 0 mean 1.
  std::unique_ptr<Module> m = Import(b);
  ASSERT_NE(m, nullptr);
  const InstructionAttributes& a = m->entry()->root()->attrs();
  ASSERT_EQ(a.window.size(), 2u);
  EXPECT_EQ(a.window[1], (WindowDim{3, 2, 1, 1, 1, 1, false}));
  EXPECT_EQ(a.conv_dnums.input_feature, 3);
  EXPECT_EQ(a.conv_dnums.kernel_spatial, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(a.conv_dnums.output_spatial, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(a.feature_group_count, 1);
  EXPECT_EQ(a.batch_group_count, 1);
  ExpectPrintsLikeText(*m, R"(
HloModule conv_module

ENTRY %main (in: f32[1,5,5,2], k: f32[3,3,2,4]) -> f32[1,3,3,4] {
  %in = f32[1,5,5,2]{3,2,1,0} parameter(0)
  %k = f32[3,3,2,4]{3,2,1,0} parameter(1)
  ROOT %conv = f32[1,3,3,4]{3,2,1,0} convolution(f32[1,5,5,2]{3,2,1,0} %in, f32[3,3,2,4]{3,2,1,0} %k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
}
)");
}

TEST(ProtoImporterTest, Gather) {
  ProtoBuilder b("gather_module");
  auto* c = b.Computation("main");
  auto* op = b.Parameter(c, "operand", 0, F32({3, 3}));
  auto* idx =
      b.Parameter(c, "indices", 1, ArrayShape(PrimitiveType::kS32, {2}));
  auto* g = b.Add(c, "g", "gather", F32({2, 3}), {op, idx});
  auto* dn = g->mutable_gather_dimension_numbers();
  dn->add_offset_dims(1);
  dn->add_collapsed_slice_dims(0);
  dn->add_start_index_map(0);
  dn->set_index_vector_dim(1);
  g->add_gather_slice_sizes(1);
  g->add_gather_slice_sizes(3);
  g->set_indices_are_sorted(true);
  std::unique_ptr<Module> m = Import(b);
  ASSERT_NE(m, nullptr);
  const InstructionAttributes& a = m->entry()->root()->attrs();
  EXPECT_EQ(a.gather_dnums.offset_dims, (std::vector<int64_t>{1}));
  EXPECT_EQ(a.gather_dnums.collapsed_slice_dims, (std::vector<int64_t>{0}));
  EXPECT_EQ(a.gather_dnums.start_index_map, (std::vector<int64_t>{0}));
  EXPECT_EQ(a.gather_dnums.index_vector_dim, 1);
  EXPECT_EQ(a.slice_sizes, (std::vector<int64_t>{1, 3}));
  EXPECT_TRUE(a.indices_are_sorted);
  ExpectPrintsLikeText(*m, R"(
HloModule gather_module

ENTRY %main (operand: f32[3,3], indices: s32[2]) -> f32[2,3] {
  %operand = f32[3,3]{1,0} parameter(0)
  %indices = s32[2]{0} parameter(1)
  ROOT %g = f32[2,3]{1,0} gather(f32[3,3]{1,0} %operand, s32[2]{0} %indices), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}, indices_are_sorted=true
}
)");
}

TEST(ProtoImporterTest, MetadataGivesTheLocationAndRawAttributesTheirText) {
  ProtoBuilder b("attrs_module");
  auto* c = b.Computation("main");
  auto* x = b.Parameter(c, "x", 0, F32({2}));
  x->mutable_sharding()->set_type(0);  // REPLICATED
  x->mutable_parameter_replication()->add_replicated_at_leaf_buffers(false);
  auto* n = b.Add(c, "n", "negate", F32({2}), {x});
  n->mutable_metadata()->set_op_name("jit(f)/neg");
  n->mutable_metadata()->set_source_file("model.py");
  n->mutable_metadata()->set_source_line(12);
  n->mutable_metadata()->set_stack_frame_id(3);
  auto* attr = n->mutable_frontend_attributes()->add_map();
  attr->set_key("grad_x");
  attr->set_value("false");
  n->set_backend_config(R"({"flag":1})");
  auto* e = b.Add(c, "e", "exponential", F32({2}), {n});
  e->set_backend_config("plain \"text\"");
  e->mutable_sharding()->set_type(1);  // MAXIMAL
  e->mutable_sharding()->add_tile_assignment_devices(2);
  std::unique_ptr<Module> m = Import(b);
  ASSERT_NE(m, nullptr);
  const Instruction* neg = m->entry()->FindInstruction("n");
  EXPECT_EQ(neg->location().ToString(), "model.py:12");
  EXPECT_EQ(neg->metadata().op_name, "jit(f)/neg");
  EXPECT_EQ(neg->metadata().source_file, "model.py");
  EXPECT_EQ(neg->metadata().source_line, 12);
  using Raw = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(neg->metadata().other, (Raw{{"stack_frame_id", "3"}}));
  EXPECT_EQ(neg->raw_attributes(),
            (Raw{{"frontend_attributes", "{grad_x=\"false\"}"},
                 {"backend_config", "{\"flag\":1}"}}));
  EXPECT_EQ(m->entry()->FindInstruction("x")->raw_attributes(),
            (Raw{{"parameter_replication", "{false}"},
                 {"sharding", "{replicated}"}}));
  EXPECT_EQ(m->entry()->root()->raw_attributes(),
            (Raw{{"sharding", "{maximal device=2}"},
                 {"backend_config", "\"plain \\\"text\\\"\""}}));
}

TEST(ProtoImporterTest, CompareTypeKeptUnlessDefaultAndTopKAttributes) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  auto* x = b.Parameter(c, "x", 0, F32({4}));
  xla::ShapeProto pred = ArrayShape(PrimitiveType::kPred, {4});
  auto* total = b.Add(c, "total", "compare", pred, {x, x});
  total->set_comparison_direction("GE");
  total->set_comparison_type("TOTALORDER");
  auto* plain = b.Add(c, "plain", "compare", pred, {x, x});
  plain->set_comparison_direction("NE");
  plain->set_comparison_type("FLOAT");
  auto* top =
      b.Add(c, "top", "topk",
            TupleShape({F32({2}), ArrayShape(PrimitiveType::kS32, {2})}), {x});
  top->set_k(2);
  top->set_largest(true);
  // k=1 with `largest` unset: proto3 reads it as false, as XLA does.
  auto* bottom =
      b.Add(c, "bottom", "topk",
            TupleShape({F32({1}), ArrayShape(PrimitiveType::kS32, {1})}), {x});
  bottom->set_k(1);
  std::unique_ptr<Module> m = Import(b);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry()->FindInstruction("total")->attrs().comparison_type,
            ComparisonType::kTotalOrder);
  EXPECT_EQ(m->entry()->FindInstruction("plain")->attrs().comparison_type,
            ComparisonType::kUnset);
  const Instruction* t = m->entry()->FindInstruction("top");
  EXPECT_EQ(t->attrs().k, 2);
  EXPECT_TRUE(t->attrs().largest);
  EXPECT_TRUE(t->raw_attributes().empty());
  const Instruction* bot = m->entry()->FindInstruction("bottom");
  EXPECT_EQ(bot->attrs().k, 1);
  EXPECT_FALSE(bot->attrs().largest);
}

TEST(ProtoImporterTest, HeaderAttributesFromModuleFields) {
  ProtoBuilder b("header_module");
  auto* c = b.Computation("main");
  std::vector<const xla::HloInstructionProto*> params;
  xla::ProgramShapeProto* ps = b.proto().mutable_host_program_shape();
  for (int i = 0; i < 6; ++i) {
    params.push_back(b.Parameter(c, absl::StrCat("p", i), i, F32({2})));
    *ps->add_parameters() = F32({2});
  }
  b.Add(c, "t", "tuple", TupleShape({F32({2}), F32({2})}),
        {params[0], params[1]});
  *ps->mutable_result() = TupleShape({F32({2}), F32({2})});
  auto* alias = b.proto().mutable_input_output_alias()->add_entries();
  alias->add_output_shape_index(1);
  alias->set_parameter_number(2);
  alias->set_kind(2);
  (*b.proto().mutable_schedule()->mutable_sequences())[c->id()];
  std::unique_ptr<Module> m = Import(b);
  ASSERT_NE(m, nullptr);
  using Raw = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(m->header_attributes(),
            (Raw{{"is_scheduled", "true"},
                 {"input_output_alias", "{ {1}: (2, {}, must-alias) }"},
                 {"entry_computation_layout",
                  "{(f32[2]{0}, f32[2]{0}, f32[2]{0}, f32[2]{0}, f32[2]{0}, "
                  "/*index=5*/f32[2]{0})->(f32[2]{0}, f32[2]{0})}"}}));
}

TEST(ProtoImporterTest, HloProtoWrapperIsAccepted) {
  ProtoBuilder b("wrapped");
  auto* c = b.Computation("main");
  b.Parameter(c, "x", 0, F32({}));
  xla::HloProto wrapper;
  *wrapper.mutable_hlo_module() = b.proto();
  absl::StatusOr<std::unique_ptr<Module>> m =
      ImportHloProto(wrapper.SerializeAsString(), "w.pb");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ((*m)->name(), "wrapped");
  EXPECT_EQ((*m)->entry()->root()->name(), "x");
}

TEST(ProtoImporterTest, ExportThenImportKeepsLayoutExtensions) {
  absl::StatusOr<std::unique_ptr<Module>> parsed = ParseHloText(R"(
HloModule ext
ENTRY %main (p: s4[8,256]) -> s4[8,256] {
  ROOT %p = s4[8,256]{1,0:T(8,128)(2,1)E(4)S(1)} parameter(0)
}
)",
                                                                "ext.hlo");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  absl::StatusOr<xla::HloModuleProto> proto =
      testing::ExportModuleForTest(**parsed);
  ASSERT_TRUE(proto.ok()) << proto.status();
  const xla::LayoutProto& layout =
      proto->computations(0).instructions(0).shape().layout();
  ASSERT_EQ(layout.tiles_size(), 2);
  EXPECT_EQ(layout.element_size_in_bits(), 4);
  EXPECT_EQ(layout.memory_space(), 1);
  absl::StatusOr<std::unique_ptr<Module>> m =
      ImportHloProto(proto->SerializeAsString(), "ext.pb");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ((*m)->entry()->root()->shape().layout().extension,
            "T(8,128)(2,1)E(4)S(1)");
}

TEST(ProtoImporterTest, FftTriangularSolveAndCholeskyOptions) {
  constexpr char kText[] = R"(HloModule linalg
ENTRY e {
  x = c128[4,6] parameter(0)
  a = f64[3,3] parameter(1)
  b = f64[2,3] parameter(2)
  f = f64[4,10] fft(x), fft_type=IRFFT, fft_length={4,10}
  s = f64[2,3] triangular-solve(a, b), lower=true, unit_diagonal=true, transpose_a=TRANSPOSE
  c = f64[3,3] cholesky(a), lower=true
  ROOT t = (f64[4,10], f64[2,3], f64[3,3]) tuple(f, s, c)
})";
  absl::StatusOr<std::unique_ptr<Module>> parsed = ParseHloText(kText, "t.hlo");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  absl::StatusOr<xla::HloModuleProto> proto =
      testing::ExportModuleForTest(**parsed);
  ASSERT_TRUE(proto.ok()) << proto.status();
  // fft_type IRFFT is 3, transpose_a TRANSPOSE is 2 (0 is TRANSPOSE_INVALID).
  const auto& insts = proto->computations(0).instructions();
  EXPECT_EQ(insts[3].fft_type(), 3);
  EXPECT_EQ(insts[4].triangular_solve_options().transpose_a(), 2);
  EXPECT_TRUE(insts[5].cholesky_options().lower());
  absl::StatusOr<std::unique_ptr<Module>> m =
      ImportHloProto(proto->SerializeAsString(), "m.pb");
  ASSERT_TRUE(m.ok()) << m.status();
  ExpectPrintsLikeText(**m, kText);
  // An unset transpose_a is refused.
  proto->mutable_computations(0)
      ->mutable_instructions(4)
      ->mutable_triangular_solve_options()
      ->set_transpose_a(0);
  absl::StatusOr<std::unique_ptr<Module>> bad =
      ImportHloProto(proto->SerializeAsString(), "m.pb");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find("invalid transpose_a 0"),
            std::string::npos)
      << bad.status();
  // So is an fft_type beyond IRFFT.
  proto->mutable_computations(0)
      ->mutable_instructions(4)
      ->mutable_triangular_solve_options()
      ->set_transpose_a(1);
  proto->mutable_computations(0)->mutable_instructions(3)->set_fft_type(7);
  bad = ImportHloProto(proto->SerializeAsString(), "m.pb");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find("unknown fft type 7"),
            std::string::npos)
      << bad.status();
}

}  // namespace
}  // namespace aotc
