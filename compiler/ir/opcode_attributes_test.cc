#include "compiler/ir/opcode_attributes.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include "compiler/ir/instruction.h"

namespace aotc {
namespace {

// The variant alternative each kind stores through, by hand from the kind
// list in opcode_attributes.def.
template <typename T>
bool Holds(const AttributeField& f) {
  return std::holds_alternative<T*>(f);
}

bool KindMatchesField(AttributeKind kind, const AttributeField& f) {
  switch (kind) {
    case AttributeKind::kInt:
      return Holds<int64_t>(f);
    case AttributeKind::kIntList:
    case AttributeKind::kIotaDim:
      return Holds<std::vector<int64_t>>(f);
    case AttributeKind::kBool:
      return Holds<bool>(f);
    case AttributeKind::kOptInt:
      return Holds<std::optional<int64_t>>(f);
    case AttributeKind::kSlice:
      return Holds<std::vector<SliceDim>>(f);
    case AttributeKind::kPadding:
      return Holds<std::vector<PaddingDim>>(f);
    case AttributeKind::kWindow:
      return Holds<std::vector<WindowDim>>(f);
    case AttributeKind::kDimLabels:
      return Holds<ConvolutionDimensionNumbers>(f);
    case AttributeKind::kNameList:
      return Holds<std::vector<std::string>>(f);
    case AttributeKind::kName:
    case AttributeKind::kString:
      return Holds<std::string>(f);
    case AttributeKind::kDirection:
      return Holds<ComparisonDirection>(f);
    case AttributeKind::kCmpType:
      return Holds<ComparisonType>(f);
    case AttributeKind::kFusionKind:
      return Holds<FusionKind>(f);
    case AttributeKind::kShapeList:
      return Holds<std::optional<std::vector<Shape>>>(f);
    case AttributeKind::kFftType:
      return Holds<FftType>(f);
    case AttributeKind::kTranspose:
      return Holds<TransposeKind>(f);
  }
  return false;
}

TEST(OpcodeAttributesTest, KeysAreUniquePerOpcodeAndKindsMatchFields) {
  InstructionAttributes attrs;
  std::set<std::pair<Opcode, std::string_view>> seen;
  for (const AttributeSpec& s : AllAttributeSpecs()) {
    EXPECT_TRUE(seen.insert({s.opcode, s.key}).second)
        << OpcodeName(s.opcode) << " lists " << s.key << " twice";
    EXPECT_TRUE(KindMatchesField(s.kind, s.field(attrs)))
        << OpcodeName(s.opcode) << " " << s.key;
    EXPECT_EQ(FindAttribute(s.opcode, s.key), &s);
  }
}

TEST(OpcodeAttributesTest, LookUpByOpcodeAndKey) {
  EXPECT_TRUE(HasAttribute(Opcode::kDot, "lhs_contracting_dims"));
  EXPECT_FALSE(HasAttribute(Opcode::kConvolution, "lhs_contracting_dims"));
  EXPECT_FALSE(HasAttribute(Opcode::kAllGather, "dimensions"));
  EXPECT_FALSE(HasAttribute(Opcode::kAdd, "dimensions"));
  // One key, two opcodes, two fields.
  InstructionAttributes a;
  const AttributeSpec* g = FindAttribute(Opcode::kGather, "index_vector_dim");
  const AttributeSpec* s = FindAttribute(Opcode::kScatter, "index_vector_dim");
  ASSERT_NE(g, nullptr);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(std::get<int64_t*>(g->field(a)), &a.gather_dnums.index_vector_dim);
  EXPECT_EQ(std::get<int64_t*>(s->field(a)),
            &a.scatter_dnums.index_vector_dim);
  // The printer's order for dot: batch before contracting, lhs before rhs,
  // then precision.
  std::vector<std::string_view> dot;
  for (const AttributeSpec* spec : OpcodeAttributes(Opcode::kDot)) {
    dot.push_back(spec->key);
  }
  const std::vector<std::string_view> expected = {
      "lhs_batch_dims",       "lhs_contracting_dims", "rhs_batch_dims",
      "rhs_contracting_dims", "operand_precision",    "algorithm"};
  EXPECT_EQ(dot, expected);
}

TEST(OpcodeAttributesTest, DefaultsAreThoseOfAFreshStruct) {
  InstructionAttributes a;
  const AttributeSpec* groups =
      FindAttribute(Opcode::kConvolution, "feature_group_count");
  ASSERT_NE(groups, nullptr);
  EXPECT_TRUE(AttributeIsDefault(*groups, a));  // 1
  a.feature_group_count = 2;
  EXPECT_FALSE(AttributeIsDefault(*groups, a));
  const AttributeSpec* k = FindAttribute(Opcode::kTopK, "k");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(AttributeIsDefault(*k, a));
  a.k = 0;  // set, even to zero
  EXPECT_FALSE(AttributeIsDefault(*k, a));
}

TEST(OpcodeAttributesTest, TypedAccessorsCheckTheTable) {
  Shape s = Shape::Array(PrimitiveType::kF32, {4});
  auto p = Instruction::Create(Opcode::kParameter, "p", s, {});
  auto t = Instruction::Create(Opcode::kTranspose, "t", s, {p.get()});
  t->mutable_attrs().dimensions = {0};
  EXPECT_EQ(t->dimensions(), std::vector<int64_t>{0});
  auto iota = Instruction::Create(Opcode::kIota, "i", s, {});
  iota->mutable_attrs().dimensions = {0};
  EXPECT_EQ(iota->dimensions(), std::vector<int64_t>{0});
  auto dot = Instruction::Create(Opcode::kDot, "d", s, {p.get(), p.get()});
  dot->mutable_attrs().dot_dnums.rhs_batch = {1};
  EXPECT_EQ(dot->dot_dnums().rhs_batch, std::vector<int64_t>{1});
  auto neg = Instruction::Create(Opcode::kNegate, "n", s, {p.get()});
  EXPECT_DEATH(neg->dimensions(), "dimensions\\(\\) on an opcode");
  EXPECT_DEATH(t->window(), "window\\(\\) on an opcode");
  EXPECT_DEATH(dot->gather_dnums(), "gather_dnums\\(\\) on an opcode");
  t->DropAllOperands();
  dot->DropAllOperands();
  neg->DropAllOperands();
}

}  // namespace
}  // namespace aotc
