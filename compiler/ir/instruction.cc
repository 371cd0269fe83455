// Instruction construction, use lists and checked attribute accessors.
#include "compiler/ir/instruction.h"

#include <algorithm>

#include "compiler/ir/computation.h"
#include "compiler/ir/opcode_attributes.h"
#include "compiler/support/strings.h"

namespace aotc {

Instruction::Instruction(Opcode opcode, std::string name, Shape shape,
                         Location location)
    : opcode_(opcode),
      name_(std::move(name)),
      shape_(std::move(shape)),
      location_(std::move(location)) {}

Instruction::~Instruction() = default;

std::unique_ptr<Instruction> Instruction::Create(
    Opcode opcode, std::string name, Shape shape,
    std::vector<Instruction*> operands, Location location) {
  std::unique_ptr<Instruction> inst(new Instruction(
      opcode, std::move(name), std::move(shape), std::move(location)));
  inst->operands_ = std::move(operands);
  for (Instruction* op : inst->operands_) {
    AOTC_CHECK(op != nullptr, "null operand");
    op->AddUser(inst.get());
  }
  return inst;
}

void Instruction::AddUser(Instruction* user) {
  if (std::find(users_.begin(), users_.end(), user) == users_.end()) {
    users_.push_back(user);
  }
}

void Instruction::RemoveUser(Instruction* user) {
  // Only remove when `user` no longer refers to this instruction at all.
  if (std::find(user->operands_.begin(), user->operands_.end(), this) !=
      user->operands_.end()) {
    return;
  }
  users_.erase(std::remove(users_.begin(), users_.end(), user), users_.end());
}

void Instruction::ReplaceOperand(int i, Instruction* new_operand) {
  AOTC_CHECK(i >= 0 && i < operand_count(), "operand index out of range");
  AOTC_CHECK(new_operand != nullptr, "null operand");
  Instruction* old = operands_[i];
  operands_[i] = new_operand;
  old->RemoveUser(this);
  new_operand->AddUser(this);
}

void Instruction::RemoveOperand(int i) {
  AOTC_CHECK(i >= 0 && i < operand_count(), "operand index out of range");
  Instruction* old = operands_[i];
  operands_.erase(operands_.begin() + i);
  old->RemoveUser(this);
}

void Instruction::DropAllOperands() {
  std::vector<Instruction*> old = std::move(operands_);
  operands_.clear();
  for (Instruction* op : old) op->RemoveUser(this);
}

void Instruction::ReplaceAllUsesWith(Instruction* replacement) {
  AOTC_CHECK(replacement != this, "replacing an instruction with itself");
  std::vector<Instruction*> users = users_;
  for (Instruction* user : users) {
    for (int i = 0; i < user->operand_count(); ++i) {
      if (user->operands_[i] == this) user->ReplaceOperand(i, replacement);
    }
  }
  if (parent_ && parent_->root() == this) parent_->set_root(replacement);
}

namespace {
bool HasToApply(Opcode op) {
  switch (op) {
    case Opcode::kCall:
    case Opcode::kFusion:
    case Opcode::kMap:
    case Opcode::kReduce:
    case Opcode::kReduceWindow:
    case Opcode::kScatter:
    case Opcode::kSort:
    case Opcode::kAllReduce:
    case Opcode::kReduceScatter:
      return true;
    default:
      return false;
  }
}
}  // namespace

Computation* Instruction::to_apply() const {
  AOTC_CHECK(HasToApply(opcode_), "to_apply() on an opcode without one");
  AOTC_CHECK(called_.size() == 1, "to_apply() needs exactly one computation");
  return called_[0];
}

Computation* Instruction::while_condition() const {
  AOTC_CHECK(opcode_ == Opcode::kWhile && called_.size() == 2,
             "while_condition() on a non-while");
  return called_[0];
}

Computation* Instruction::while_body() const {
  AOTC_CHECK(opcode_ == Opcode::kWhile && called_.size() == 2,
             "while_body() on a non-while");
  return called_[1];
}

Computation* Instruction::fused_computation() const {
  AOTC_CHECK(opcode_ == Opcode::kFusion && called_.size() == 1,
             "fused_computation() on a non-fusion");
  return called_[0];
}

const std::string* Instruction::FindRawAttribute(std::string_view key) const {
  for (const auto& [k, v] : raw_attributes_) {
    if (k == key) return &v;
  }
  return nullptr;
}

int64_t Instruction::parameter_number() const {
  AOTC_CHECK(opcode_ == Opcode::kParameter, "parameter_number() on non-parameter");
  return attrs_.parameter_number;
}

int64_t Instruction::tuple_index() const {
  AOTC_CHECK(opcode_ == Opcode::kGetTupleElement,
             "tuple_index() on non-get-tuple-element");
  return attrs_.tuple_index;
}

const Literal& Instruction::literal() const {
  AOTC_CHECK(opcode_ == Opcode::kConstant && attrs_.literal.has_value(),
             "literal() on non-constant");
  return *attrs_.literal;
}

ComparisonDirection Instruction::comparison_direction() const {
  AOTC_CHECK(opcode_ == Opcode::kCompare, "comparison_direction() on non-compare");
  return attrs_.comparison_direction;
}

int64_t Instruction::iota_dimension() const {
  AOTC_CHECK(opcode_ == Opcode::kIota && attrs_.dimensions.size() == 1,
             "iota_dimension() on non-iota");
  return attrs_.dimensions[0];
}

void Instruction::CheckModels(const void* field, size_t size,
                              const char* what) const {
  const char* begin = static_cast<const char*>(field);
  for (const AttributeSpec* spec : OpcodeAttributes(opcode_)) {
    const void* stored =
        std::visit([](auto* p) -> const void* { return p; },
                   spec->field(const_cast<InstructionAttributes&>(attrs_)));
    const char* at = static_cast<const char*>(stored);
    if (at >= begin && at < begin + size) return;
  }
  AOTC_CHECK(false, what);
}

#define AOTC_CHECKED_ATTRIBUTE(type, member)                       \
  type Instruction::member() const {                               \
    CheckModels(&attrs_.member, sizeof(attrs_.member),             \
                #member "() on an opcode without that attribute"); \
    return attrs_.member;                                          \
  }
AOTC_CHECKED_ATTRIBUTE(const std::vector<int64_t>&, dimensions)
AOTC_CHECKED_ATTRIBUTE(const std::vector<SliceDim>&, slice)
AOTC_CHECKED_ATTRIBUTE(const std::vector<PaddingDim>&, padding)
AOTC_CHECKED_ATTRIBUTE(const std::vector<WindowDim>&, window)
AOTC_CHECKED_ATTRIBUTE(const ConvolutionDimensionNumbers&, conv_dnums)
AOTC_CHECKED_ATTRIBUTE(int64_t, feature_group_count)
AOTC_CHECKED_ATTRIBUTE(int64_t, batch_group_count)
AOTC_CHECKED_ATTRIBUTE(const DotDimensionNumbers&, dot_dnums)
AOTC_CHECKED_ATTRIBUTE(const GatherDimensionNumbers&, gather_dnums)
AOTC_CHECKED_ATTRIBUTE(const std::vector<int64_t>&, slice_sizes)
AOTC_CHECKED_ATTRIBUTE(const ScatterDimensionNumbers&, scatter_dnums)
AOTC_CHECKED_ATTRIBUTE(const std::vector<int64_t>&, dynamic_slice_sizes)
AOTC_CHECKED_ATTRIBUTE(ComparisonType, comparison_type)
AOTC_CHECKED_ATTRIBUTE(FusionKind, fusion_kind)
AOTC_CHECKED_ATTRIBUTE(int64_t, exponent_bits)
AOTC_CHECKED_ATTRIBUTE(int64_t, mantissa_bits)
AOTC_CHECKED_ATTRIBUTE(const std::string&, custom_call_target)
AOTC_CHECKED_ATTRIBUTE(const std::optional<std::vector<Shape>>&,
                       operand_layout_constraints)
AOTC_CHECKED_ATTRIBUTE(bool, indices_are_sorted)
AOTC_CHECKED_ATTRIBUTE(bool, unique_indices)
AOTC_CHECKED_ATTRIBUTE(bool, is_stable)
AOTC_CHECKED_ATTRIBUTE(const std::vector<std::string>&, operand_precision)
AOTC_CHECKED_ATTRIBUTE(const std::string&, algorithm)
AOTC_CHECKED_ATTRIBUTE(const std::optional<int64_t>&, k)
AOTC_CHECKED_ATTRIBUTE(bool, largest)
AOTC_CHECKED_ATTRIBUTE(FftType, fft_type)
AOTC_CHECKED_ATTRIBUTE(const std::vector<int64_t>&, fft_length)
AOTC_CHECKED_ATTRIBUTE(bool, left_side)
AOTC_CHECKED_ATTRIBUTE(bool, lower)
AOTC_CHECKED_ATTRIBUTE(bool, unit_diagonal)
AOTC_CHECKED_ATTRIBUTE(TransposeKind, transpose_a)
#undef AOTC_CHECKED_ATTRIBUTE

bool Instruction::IsRoot() const {
  return parent_ != nullptr && parent_->root() == this;
}

absl::Status NotDefinedFor(const Instruction& inst, PrimitiveType type) {
  const Opcode op = inst.opcode();
  std::string message = absl::StrCat("opcode '", Sv(OpcodeName(op)),
                                     "' is not defined for element type ",
                                     Sv(PrimitiveTypeName(type)));
  if (!OpcodeAcceptsElementType(op, type)) {
    absl::StrAppend(&message, "; it takes ",
                    Sv(ElementTypeClassText(OpcodeElementTypes(op))));
  }
  return ErrorAt(inst.location(), message);
}

}  // namespace aotc
