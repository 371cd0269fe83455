// Instruction: one HLO operation in a Computation.
//
// One generic class for every opcode: opcode, name, shape, operands, users,
// called computations, a source location, metadata, and the attributes of
// the opcode. Attributes live in one plain struct (InstructionAttributes);
// the typed accessors below check that the opcode actually has the attribute.
// Attributes aotc does not interpret (backend_config, sharding,
// frontend_attributes, ...) are kept verbatim as text so that printing
// reproduces them.
#ifndef AOTC_COMPILER_IR_INSTRUCTION_H_
#define AOTC_COMPILER_IR_INSTRUCTION_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/ir/attributes.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/opcode.h"
#include "compiler/ir/shape.h"
#include "compiler/support/check.h"
#include "compiler/support/diagnostic.h"

namespace aotc {

class Computation;

// Every attribute any opcode may carry. Which opcode uses which field, and
// under which text key, is opcode_attributes.def; parameter_number
// (parameter) and literal (constant) are written in the operand position
// instead and are not in that table.
struct InstructionAttributes {
  int64_t parameter_number = -1;
  int64_t tuple_index = -1;
  std::vector<int64_t> dimensions;
  std::vector<SliceDim> slice;
  std::vector<PaddingDim> padding;
  std::vector<WindowDim> window;
  ConvolutionDimensionNumbers conv_dnums;
  int64_t feature_group_count = 1;
  int64_t batch_group_count = 1;
  DotDimensionNumbers dot_dnums;
  GatherDimensionNumbers gather_dnums;
  std::vector<int64_t> slice_sizes;          // gather
  ScatterDimensionNumbers scatter_dnums;
  std::vector<int64_t> dynamic_slice_sizes;  // dynamic-slice
  ComparisonDirection comparison_direction = ComparisonDirection::kEq;
  ComparisonType comparison_type = ComparisonType::kUnset;
  std::optional<Literal> literal;
  FusionKind fusion_kind = FusionKind::kLoop;
  int64_t exponent_bits = 0;
  int64_t mantissa_bits = 0;
  std::string custom_call_target;
  std::optional<std::vector<Shape>> operand_layout_constraints;
  bool indices_are_sorted = false;
  bool unique_indices = false;
  bool is_stable = false;
  std::vector<std::string> operand_precision;  // "default", "high", ...
  std::string algorithm;                       // e.g. "dot_bf16_bf16_f32"
  std::optional<int64_t> k;  // topk; empty when the text gave no `k=`
  bool largest = true;       // topk; XLA's default when `largest=` is absent
  FftType fft_type = FftType::kFft;
  std::vector<int64_t> fft_length;  // fft: transformed sizes, outermost first
  bool left_side = false;           // triangular-solve
  bool lower = false;               // triangular-solve, cholesky
  bool unit_diagonal = false;       // triangular-solve
  TransposeKind transpose_a = TransposeKind::kNoTranspose;
};

class Instruction {
 public:
  static std::unique_ptr<Instruction> Create(Opcode opcode, std::string name,
                                             Shape shape,
                                             std::vector<Instruction*> operands,
                                             Location location = {});
  ~Instruction();
  Instruction(const Instruction&) = delete;
  Instruction& operator=(const Instruction&) = delete;

  Opcode opcode() const { return opcode_; }
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  const Shape& shape() const { return shape_; }
  Shape& mutable_shape() { return shape_; }

  const std::vector<Instruction*>& operands() const { return operands_; }
  Instruction* operand(int i) const { return operands_[i]; }
  int operand_count() const { return static_cast<int>(operands_.size()); }
  // Replaces operand i, keeping user lists consistent.
  void ReplaceOperand(int i, Instruction* new_operand);
  // Users in the order they were added; an instruction using this one twice
  // appears once.
  const std::vector<Instruction*>& users() const { return users_; }
  // Makes every user of this instruction use `replacement` instead.
  void ReplaceAllUsesWith(Instruction* replacement);
  // Removes operand i, shifting the later ones down, keeping user lists
  // consistent.
  void RemoveOperand(int i);
  // Clears the operand list (removing this from the operands' users); used
  // when an instruction is deleted.
  void DropAllOperands();

  // Called computations, in the order of the text form:
  //   while: {condition, body}; conditional: the branches (for a pred
  //   conditional {true, false}); select-and-scatter: {select, scatter};
  //   call/fusion/map/reduce/reduce-window/scatter/sort: {to_apply or calls};
  //   custom-call: called_computations.
  const std::vector<Computation*>& called_computations() const {
    return called_;
  }
  void set_called_computations(std::vector<Computation*> c) {
    called_ = std::move(c);
  }
  // The single computation of to_apply= / calls= opcodes.
  Computation* to_apply() const;
  Computation* while_condition() const;
  Computation* while_body() const;
  Computation* fused_computation() const;

  Computation* parent() const { return parent_; }
  void set_parent(Computation* c) { parent_ = c; }

  const Location& location() const { return location_; }
  void set_location(Location loc) { location_ = std::move(loc); }
  const OpMetadata& metadata() const { return metadata_; }
  OpMetadata& mutable_metadata() { return metadata_; }

  const InstructionAttributes& attrs() const { return attrs_; }
  InstructionAttributes& mutable_attrs() { return attrs_; }

  // Attributes kept verbatim, in source order: name and raw value text,
  // e.g. {"backend_config", "{\"x\":1}"}, {"sharding", "{replicated}"}.
  const std::vector<std::pair<std::string, std::string>>& raw_attributes()
      const {
    return raw_attributes_;
  }
  std::vector<std::pair<std::string, std::string>>& mutable_raw_attributes() {
    return raw_attributes_;
  }
  // The raw value of attribute `key`, or nullptr.
  const std::string* FindRawAttribute(std::string_view key) const;

  // Checked accessors.
  int64_t parameter_number() const;
  int64_t tuple_index() const;
  const Literal& literal() const;
  ComparisonDirection comparison_direction() const;
  int64_t iota_dimension() const;

  // Checked accessors of the attributes opcode_attributes.def lists: each
  // checks that the table gives the opcode an attribute stored in the field
  // (dimensions() also serves iota, whose iota_dimension lives there).
  const std::vector<int64_t>& dimensions() const;
  const std::vector<SliceDim>& slice() const;
  const std::vector<PaddingDim>& padding() const;
  const std::vector<WindowDim>& window() const;
  const ConvolutionDimensionNumbers& conv_dnums() const;
  int64_t feature_group_count() const;
  int64_t batch_group_count() const;
  const DotDimensionNumbers& dot_dnums() const;
  const GatherDimensionNumbers& gather_dnums() const;
  const std::vector<int64_t>& slice_sizes() const;
  const ScatterDimensionNumbers& scatter_dnums() const;
  const std::vector<int64_t>& dynamic_slice_sizes() const;
  ComparisonType comparison_type() const;
  FusionKind fusion_kind() const;
  int64_t exponent_bits() const;
  int64_t mantissa_bits() const;
  const std::string& custom_call_target() const;
  const std::optional<std::vector<Shape>>& operand_layout_constraints() const;
  bool indices_are_sorted() const;
  bool unique_indices() const;
  bool is_stable() const;
  const std::vector<std::string>& operand_precision() const;
  const std::string& algorithm() const;
  const std::optional<int64_t>& k() const;
  bool largest() const;
  FftType fft_type() const;
  const std::vector<int64_t>& fft_length() const;
  bool left_side() const;
  bool lower() const;
  bool unit_diagonal() const;
  TransposeKind transpose_a() const;

  bool IsRoot() const;

 private:
  Instruction(Opcode opcode, std::string name, Shape shape, Location location);
  void AddUser(Instruction* user);
  // Fails unless the attribute table gives opcode_ an attribute stored in
  // the `size` bytes at `field` (a member of attrs_).
  void CheckModels(const void* field, size_t size, const char* what) const;
  void RemoveUser(Instruction* user);

  Opcode opcode_;
  std::string name_;
  Shape shape_;
  std::vector<Instruction*> operands_;
  std::vector<Instruction*> users_;
  std::vector<Computation*> called_;
  Computation* parent_ = nullptr;
  Location location_;
  OpMetadata metadata_;
  InstructionAttributes attrs_;
  std::vector<std::pair<std::string, std::string>> raw_attributes_;
};

// The located error of code generation and the evaluator for an opcode they
// do not implement for element type `type`: "opcode 'x' is not defined for
// element type t", followed by the class opcode.def gives when `type` is
// outside it.
absl::Status NotDefinedFor(const Instruction& inst, PrimitiveType type);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_INSTRUCTION_H_
