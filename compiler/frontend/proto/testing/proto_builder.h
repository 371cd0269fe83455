// Test-only builders of HloModuleProtos written the way XLA writes them.
#ifndef AOTC_COMPILER_FRONTEND_PROTO_TESTING_PROTO_BUILDER_H_
#define AOTC_COMPILER_FRONTEND_PROTO_TESTING_PROTO_BUILDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/frontend/proto/hlo_subset.pb.h"
#include "compiler/ir/primitive_type.h"

namespace aotc::testing {

// An array shape; the layout is row-major unless minor_to_major is given.
inline xla::ShapeProto ArrayShape(PrimitiveType type, std::vector<int64_t> dims,
                                  std::vector<int64_t> minor_to_major = {}) {
  xla::ShapeProto s;
  s.set_element_type(static_cast<int>(type));
  for (int64_t d : dims) s.add_dimensions(d);
  xla::LayoutProto* layout = s.mutable_layout();
  if (minor_to_major.empty()) {
    for (int i = static_cast<int>(dims.size()) - 1; i >= 0; --i) {
      layout->add_minor_to_major(i);
    }
  }
  for (int64_t d : minor_to_major) layout->add_minor_to_major(d);
  return s;
}

inline xla::ShapeProto TupleShape(std::vector<xla::ShapeProto> elements) {
  xla::ShapeProto s;
  s.set_element_type(static_cast<int>(PrimitiveType::kTuple));
  for (auto& e : elements) *s.add_tuple_shapes() = e;
  return s;
}

inline xla::ShapeProto F32(std::vector<int64_t> dims) {
  return ArrayShape(PrimitiveType::kF32, std::move(dims));
}

// Builds an HloModuleProto the way XLA writes one: ids unique in the module,
// each computation's root the last instruction added unless set otherwise.
class ProtoBuilder {
 public:
  explicit ProtoBuilder(const std::string& name) { module_.set_name(name); }

  xla::HloComputationProto* Computation(const std::string& name) {
    xla::HloComputationProto* c = module_.add_computations();
    c->set_name(name);
    c->set_id(next_computation_id_++);
    return c;
  }
  xla::HloInstructionProto* Add(
      xla::HloComputationProto* c, const std::string& name,
      const std::string& opcode, const xla::ShapeProto& shape,
      std::vector<const xla::HloInstructionProto*> operands = {}) {
    xla::HloInstructionProto* inst = c->add_instructions();
    inst->set_name(name);
    inst->set_opcode(opcode);
    inst->set_id(next_id_++);
    *inst->mutable_shape() = shape;
    for (const auto* op : operands) inst->add_operand_ids(op->id());
    c->set_root_id(inst->id());
    return inst;
  }
  xla::HloInstructionProto* Parameter(xla::HloComputationProto* c,
                                      const std::string& name, int64_t number,
                                      const xla::ShapeProto& shape) {
    xla::HloInstructionProto* p = Add(c, name, "parameter", shape);
    p->set_parameter_number(number);
    return p;
  }
  void SetEntry(const xla::HloComputationProto* c) {
    module_.set_entry_computation_id(c->id());
    module_.set_entry_computation_name(c->name());
  }
  xla::HloModuleProto& proto() { return module_; }
  std::string Bytes() const { return module_.SerializeAsString(); }

 private:
  xla::HloModuleProto module_;
  int64_t next_id_ = 1;
  int64_t next_computation_id_ = 100;
};

}  // namespace aotc::testing

#endif  // AOTC_COMPILER_FRONTEND_PROTO_TESTING_PROTO_BUILDER_H_
