// HloModuleProto -> aotc IR: parsing the bytes, ordering computations,
// resolving ids and building instructions.
//
// Ids: computations are found by HloComputationProto.id; an instruction's
// operands must be instructions of the same computation that come earlier
// in its list (XLA writes computations in post order), so the instruction
// list is already the definition order aotc keeps. Computations are emitted
// callees first; a proto that lists them otherwise is reordered, and a call
// cycle is an error. All errors are "file: error: ..." with the instruction
// or computation named in the message.
#include "compiler/frontend/proto/proto_importer.h"

#include <algorithm>
#include <climits>
#include <map>
#include <unordered_map>

#include "compiler/frontend/proto/proto_convert.h"
#include "compiler/frontend/proto/wire_scan.h"
#include "compiler/ir/limits.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"
#include "google/protobuf/io/coded_stream.h"

namespace aotc {
namespace {

using proto_import::RawAttributes;

// Deep enough for the deepest shapes and literals aotc accepts (tuple
// nesting kMaxShapeNesting plus the enclosing module, computation and
// instruction), shallow enough that parsing cannot exhaust the stack.
constexpr int kProtoRecursionLimit = kMaxShapeNesting + 36;

std::string StatusText(const absl::Status& status) {
  return std::string(status.message());
}

template <typename Message>
bool ParseBytes(std::string_view bytes, Message* message) {
  google::protobuf::io::CodedInputStream input(
      reinterpret_cast<const uint8_t*>(bytes.data()),
      static_cast<int>(bytes.size()));
  input.SetRecursionLimit(kProtoRecursionLimit);
  input.SetTotalBytesLimit(INT_MAX);
  return message->ParseFromCodedStream(&input) && input.ConsumedEntireMessage();
}

// Accepts a serialized HloProto (whose field 1 is the module) as well as an
// HloModuleProto; the wire structure tells which (see wire_scan.h).
bool ParseModule(std::string_view bytes, xla::HloModuleProto* module) {
  if (ClassifyHloProtoBytes(bytes) == ProtoKind::kHloProto) {
    xla::HloProto wrapper;
    if (!ParseBytes(bytes, &wrapper)) return false;
    *module = std::move(*wrapper.mutable_hlo_module());
    return true;
  }
  return ParseBytes(bytes, module);
}

class Importer {
 public:
  Importer(const xla::HloModuleProto& proto, std::string_view filename)
      : proto_(proto),
        file_(std::make_shared<SourceFile>(
            SourceFile{std::string(filename), ""})),
        file_location_{file_, 0, 0} {}

  absl::StatusOr<std::unique_ptr<Module>> Run();

 private:
  absl::Status Error(std::string_view message) const {
    return ErrorAt(file_location_, message);
  }
  absl::Status InstructionError(const xla::HloInstructionProto& inst,
                                std::string_view message) const {
    return Error(
        absl::StrCat("instruction '", inst.name(), "': ", Sv(message)));
  }

  absl::Status IndexComputations();
  absl::StatusOr<std::vector<int>> CalleesFirstOrder() const;
  absl::Status BuildComputation(const xla::HloComputationProto& proto);
  absl::StatusOr<std::unique_ptr<Instruction>> BuildInstruction(
      const xla::HloInstructionProto& proto,
      const std::unordered_map<int64_t, Instruction*>& defined,
      const std::unordered_map<int64_t, const xla::HloInstructionProto*>& all,
      const xla::HloComputationProto& computation);
  absl::StatusOr<std::vector<Computation*>> CalledComputations(
      const xla::HloInstructionProto& proto, Opcode opcode) const;
  Location LocationOf(const xla::OpMetadata& metadata);
  absl::Status SetEntry();

  const xla::HloModuleProto& proto_;
  std::shared_ptr<const SourceFile> file_;
  Location file_location_;
  std::unique_ptr<Module> module_;
  // Computation id -> index in proto_.computations().
  std::unordered_map<int64_t, int> computation_index_;
  // Computation id -> the built computation (callees are built first).
  std::unordered_map<int64_t, Computation*> built_;
  // Source files named by metadata, shared by the locations that name them.
  std::map<std::string, std::shared_ptr<const SourceFile>> metadata_files_;
};

absl::Status Importer::IndexComputations() {
  int64_t instructions = 0;
  for (const xla::HloComputationProto& c : proto_.computations()) {
    instructions += c.instructions_size();
  }
  if (instructions > kMaxInstructions) {
    return Error(absl::StrCat("the module has ", instructions,
                              " instructions, more than the limit of ",
                              kMaxInstructions));
  }
  for (int i = 0; i < proto_.computations_size(); ++i) {
    const xla::HloComputationProto& c = proto_.computations(i);
    if (c.name().empty()) {
      return Error(
          absl::StrCat("computation with id ", c.id(), " has no name"));
    }
    if (!computation_index_.emplace(c.id(), i).second) {
      return Error(
          absl::StrCat("computation '", c.name(), "' reuses id ", c.id()));
    }
  }
  return absl::OkStatus();
}

// Depth-first post order over the call graph, starting from the computations
// in proto order: the identity when the proto already lists callees first.
// Iterative, so deep call chains cannot overflow the stack.
absl::StatusOr<std::vector<int>> Importer::CalleesFirstOrder() const {
  enum class Mark { kNew, kOpen, kDone };
  const int n = proto_.computations_size();
  std::vector<Mark> mark(n, Mark::kNew);
  std::vector<int> order;
  order.reserve(n);
  // Callee indices of each computation, in call order.
  std::vector<std::vector<int>> callees(n);
  for (int i = 0; i < n; ++i) {
    for (const xla::HloInstructionProto& inst :
         proto_.computations(i).instructions()) {
      for (int64_t id : inst.called_computation_ids()) {
        auto it = computation_index_.find(id);
        if (it == computation_index_.end()) {
          return Error(absl::StrCat("instruction '", inst.name(),
                                    "': called computation id ", id,
                                    " does not exist"));
        }
        callees[i].push_back(it->second);
      }
    }
  }
  struct Frame {
    int computation;
    size_t next_callee;
  };
  for (int root = 0; root < n; ++root) {
    if (mark[root] != Mark::kNew) continue;
    std::vector<Frame> stack = {{root, 0}};
    mark[root] = Mark::kOpen;
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next_callee == callees[top.computation].size()) {
        mark[top.computation] = Mark::kDone;
        order.push_back(top.computation);
        stack.pop_back();
        continue;
      }
      const int callee = callees[top.computation][top.next_callee++];
      if (mark[callee] == Mark::kOpen) {
        return Error(absl::StrCat("computation '",
                                  proto_.computations(callee).name(),
                                  "' calls itself through a cycle"));
      }
      if (mark[callee] == Mark::kNew) {
        mark[callee] = Mark::kOpen;
        stack.push_back({callee, 0});
      }
    }
  }
  return order;
}

Location Importer::LocationOf(const xla::OpMetadata& metadata) {
  if (metadata.source_file().empty()) return file_location_;
  std::shared_ptr<const SourceFile>& file =
      metadata_files_[metadata.source_file()];
  if (!file) {
    file = std::make_shared<SourceFile>(SourceFile{metadata.source_file(), ""});
  }
  return Location{file, std::max(0, metadata.source_line()), 0};
}

absl::StatusOr<std::vector<Computation*>> Importer::CalledComputations(
    const xla::HloInstructionProto& proto, Opcode opcode) const {
  std::vector<Computation*> called;
  for (int64_t id : proto.called_computation_ids()) {
    auto it = built_.find(id);
    AOTC_CHECK(it != built_.end(), "callee not built before its caller");
    called.push_back(it->second);
  }
  if (opcode == Opcode::kWhile) {
    if (called.size() != 2) {
      return InstructionError(
          proto, absl::StrCat("while calls ", called.size(),
                              " computations, expected 2 (body, condition)"));
    }
    // XLA lists {body, condition}; aotc keeps the text order.
    std::swap(called[0], called[1]);
  }
  return called;
}

absl::StatusOr<std::unique_ptr<Instruction>> Importer::BuildInstruction(
    const xla::HloInstructionProto& proto,
    const std::unordered_map<int64_t, Instruction*>& defined,
    const std::unordered_map<int64_t, const xla::HloInstructionProto*>& all,
    const xla::HloComputationProto& computation) {
  std::optional<Opcode> opcode = OpcodeFromName(proto.opcode());
  if (!opcode.has_value()) {
    return InstructionError(
        proto, absl::StrCat("unknown opcode '", proto.opcode(), "'"));
  }
  if (!proto.has_shape()) return InstructionError(proto, "has no shape");
  absl::StatusOr<Shape> shape = proto_import::ShapeFromProto(proto.shape());
  if (!shape.ok()) return InstructionError(proto, StatusText(shape.status()));

  std::vector<Instruction*> operands;
  operands.reserve(proto.operand_ids_size());
  for (int64_t id : proto.operand_ids()) {
    auto it = defined.find(id);
    if (it == defined.end()) {
      return InstructionError(
          proto, absl::StrCat("operand id ", id,
                              " does not name an earlier instruction of "
                              "computation '",
                              computation.name(), "'"));
    }
    operands.push_back(it->second);
  }
  std::unique_ptr<Instruction> inst =
      Instruction::Create(*opcode, proto.name(), *std::move(shape),
                          std::move(operands), LocationOf(proto.metadata()));

  absl::Status st =
      proto_import::AttributesFromProto(proto, *opcode, &inst->mutable_attrs());
  if (!st.ok()) return InstructionError(proto, StatusText(st));
  if (*opcode == Opcode::kCompare && inst->operand_count() > 0) {
    proto_import::DropDefaultComparisonType(
        inst->operand(0)->shape().element_type(), &inst->mutable_attrs());
  }
  if (*opcode == Opcode::kConstant) {
    if (!proto.has_literal())
      return InstructionError(proto, "constant has no literal");
    absl::StatusOr<Literal> literal =
        proto_import::LiteralFromProto(proto.literal(), inst->shape());
    if (!literal.ok())
      return InstructionError(proto, StatusText(literal.status()));
    inst->mutable_attrs().literal = *std::move(literal);
  }
  inst->mutable_metadata() = proto_import::MetadataFromProto(proto.metadata());

  std::vector<std::string> control_predecessors;
  for (int64_t id : proto.control_predecessor_ids()) {
    auto it = all.find(id);
    if (it == all.end()) {
      return InstructionError(
          proto, absl::StrCat("control predecessor id ", id,
                              " does not name an instruction of computation '",
                              computation.name(), "'"));
    }
    control_predecessors.push_back(it->second->name());
  }
  absl::StatusOr<RawAttributes> raw = proto_import::RawAttributesFromProto(
      proto, *opcode, control_predecessors);
  if (!raw.ok()) return InstructionError(proto, StatusText(raw.status()));
  inst->mutable_raw_attributes() = *std::move(raw);

  ASSIGN_OR_RETURN(std::vector<Computation*> called,
                   CalledComputations(proto, *opcode));
  if (*opcode == Opcode::kFusion) {
    for (Computation* c : called) c->set_is_fusion_computation(true);
  }
  inst->set_called_computations(std::move(called));
  return inst;
}

absl::Status Importer::BuildComputation(const xla::HloComputationProto& proto) {
  auto computation =
      std::make_unique<Computation>(proto.name(), file_location_);
  computation->set_is_fusion_computation(proto.is_fusion_computation());
  // XLA names the default thread "main" and its text omits it.
  if (proto.execution_thread() != "main") {
    computation->set_execution_thread(proto.execution_thread());
  }
  std::unordered_map<int64_t, const xla::HloInstructionProto*> all;
  for (const xla::HloInstructionProto& inst : proto.instructions()) {
    if (inst.name().empty()) {
      return Error(absl::StrCat("computation '", proto.name(),
                                "': instruction with id ", inst.id(),
                                " has no name"));
    }
    if (!all.emplace(inst.id(), &inst).second) {
      return InstructionError(inst, absl::StrCat("reuses id ", inst.id()));
    }
  }
  if (proto.instructions_size() == 0) {
    return Error(
        absl::StrCat("computation '", proto.name(), "' has no instructions"));
  }
  std::unordered_map<int64_t, Instruction*> defined;
  for (const xla::HloInstructionProto& inst_proto : proto.instructions()) {
    ASSIGN_OR_RETURN(std::unique_ptr<Instruction> inst,
                     BuildInstruction(inst_proto, defined, all, proto));
    defined[inst_proto.id()] = computation->AddInstruction(std::move(inst));
  }
  auto root = defined.find(proto.root_id());
  if (root == defined.end()) {
    return Error(absl::StrCat("computation '", proto.name(), "': root id ",
                              proto.root_id(),
                              " does not name one of its "
                              "instructions"));
  }
  computation->set_root(root->second);
  built_[proto.id()] = module_->AddComputation(std::move(computation));
  return absl::OkStatus();
}

// The entry is the computation with entry_computation_id, else the one named
// entry_computation_name; a proto that sets neither gets its last
// computation, as HLO text without ENTRY does.
absl::Status Importer::SetEntry() {
  if (auto it = built_.find(proto_.entry_computation_id());
      it != built_.end()) {
    module_->set_entry(it->second);
    return absl::OkStatus();
  }
  if (!proto_.entry_computation_name().empty()) {
    Computation* entry =
        module_->FindComputation(proto_.entry_computation_name());
    if (entry == nullptr) {
      return Error(absl::StrCat("entry computation '",
                                proto_.entry_computation_name(),
                                "' does not exist"));
    }
    module_->set_entry(entry);
    return absl::OkStatus();
  }
  if (proto_.entry_computation_id() != 0) {
    return Error(absl::StrCat("entry computation id ",
                              proto_.entry_computation_id(),
                              " does not exist"));
  }
  const int last = proto_.computations_size() - 1;
  module_->set_entry(built_.at(proto_.computations(last).id()));
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Module>> Importer::Run() {
  if (proto_.computations_size() == 0) {
    return Error("HloModuleProto has no computations");
  }
  RETURN_IF_ERROR(IndexComputations());
  ASSIGN_OR_RETURN(std::vector<int> order, CalleesFirstOrder());
  module_ = std::make_unique<Module>(proto_.name());
  module_->set_source(file_);
  for (int index : order) {
    RETURN_IF_ERROR(BuildComputation(proto_.computations(index)));
  }
  RETURN_IF_ERROR(SetEntry());
  if (module_->name().empty()) module_->set_name(module_->entry()->name());
  absl::StatusOr<RawAttributes> header =
      proto_import::HeaderAttributesFromProto(proto_);
  if (!header.ok()) {
    return Error(absl::StrCat("module header: ", StatusText(header.status())));
  }
  module_->mutable_header_attributes() = *std::move(header);
  module_->set_stack_frame_tables(
      proto_import::StackFrameTablesFromProto(proto_.stack_frame_index()));
  return std::move(module_);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Module>> ImportHloProto(
    std::string_view bytes, std::string_view filename) {
  Location file_location{
      std::make_shared<SourceFile>(SourceFile{std::string(filename), ""}), 0,
      0};
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return ErrorAt(file_location,
                   "HloModuleProto larger than 2 GiB is not supported");
  }
  xla::HloModuleProto proto;
  if (!ParseModule(bytes, &proto)) {
    return ErrorAt(file_location, "failed to parse HloModuleProto");
  }
  return Importer(proto, filename).Run();
}

}  // namespace aotc
