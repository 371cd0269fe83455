// Test-only IR -> HloModuleProto exporter (see export_for_test.h).
#include "compiler/frontend/proto/testing/export_for_test.h"

#include <complex>
#include <cstring>
#include <map>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "compiler/frontend/proto/testing/export_text_forms.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::testing {
namespace {

absl::Status Unsupported(std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("cannot export ", Sv(what)));
}

// Calls f(physical_index, logical_index) in physical order.
template <typename F>
void ForEachPhysical(const Shape& shape, F&& f) {
  const int64_t count = shape.ElementCount();
  const std::vector<int64_t>& dims = shape.dimensions();
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t physical = 0; physical < count; ++physical) {
    int64_t logical = 0;
    for (size_t d = 0; d < dims.size(); ++d)
      logical = logical * dims[d] + index[d];
    f(physical, logical);
    for (int64_t d : shape.layout().minor_to_major) {
      if (++index[d] < dims[d]) break;
      index[d] = 0;
    }
  }
}

// The bytes field of `proto` holding one-byte elements of type t.
std::string* OneByteField(xla::LiteralProto* p, PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kS1:
      return p->mutable_s1s();
    case PrimitiveType::kS2:
      return p->mutable_s2s();
    case PrimitiveType::kS4:
      return p->mutable_s4s();
    case PrimitiveType::kS8:
      return p->mutable_s8s();
    case PrimitiveType::kU1:
      return p->mutable_u1s();
    case PrimitiveType::kU2:
      return p->mutable_u2s();
    case PrimitiveType::kU4:
      return p->mutable_u4s();
    case PrimitiveType::kU8:
      return p->mutable_u8s();
    case PrimitiveType::kF4E2M1FN:
      return p->mutable_f4e2m1fns();
    case PrimitiveType::kF8E3M4:
      return p->mutable_f8e3m4s();
    case PrimitiveType::kF8E4M3B11FNUZ:
      return p->mutable_f8e4m3b11fnuzs();
    case PrimitiveType::kF8E4M3FN:
      return p->mutable_f8e4m3fns();
    case PrimitiveType::kF8E4M3FNUZ:
      return p->mutable_f8e4m3fnuzs();
    case PrimitiveType::kF8E4M3:
      return p->mutable_f8e4m3s();
    case PrimitiveType::kF8E5M2FNUZ:
      return p->mutable_f8e5m2fnuzs();
    case PrimitiveType::kF8E5M2:
      return p->mutable_f8e5m2s();
    case PrimitiveType::kF8E8M0FNU:
      return p->mutable_f8e8m0fnus();
    case PrimitiveType::kF6E3M2FN:
      return p->mutable_f6e3m2fns();
    case PrimitiveType::kF6E2M3FN:
      return p->mutable_f6e2m3fns();
    case PrimitiveType::kS16:
      return p->mutable_s16s();
    case PrimitiveType::kU16:
      return p->mutable_u16s();
    case PrimitiveType::kF16:
      return p->mutable_f16s();
    case PrimitiveType::kBF16:
      return p->mutable_bf16s();
    default:
      return nullptr;
  }
}

template <typename T, typename Field>
void AppendValues(const Literal& lit, Field* field) {
  absl::Span<const T> data = lit.data<T>();
  ForEachPhysical(lit.shape(),
                  [&](int64_t, int64_t l) { field->Add(data[l]); });
}

template <typename T, typename Field>
void AppendComplex(const Literal& lit, Field* field) {
  absl::Span<const std::complex<T>> data = lit.data<std::complex<T>>();
  ForEachPhysical(lit.shape(), [&](int64_t, int64_t l) {
    field->Add(data[l].real());
    field->Add(data[l].imag());
  });
}

absl::Status ExportArrayData(const Literal& lit, xla::LiteralProto* p) {
  const PrimitiveType t = lit.shape().element_type();
  if (std::string* bytes = OneByteField(p, t)) {
    const int width = StorageBytes(t);
    bytes->resize(lit.raw_size());
    ForEachPhysical(lit.shape(), [&](int64_t phys, int64_t l) {
      // Two-byte elements are written little-endian, as XLA does.
      uint16_t v = lit.raw()[l * width];
      if (width == 2) std::memcpy(&v, lit.raw() + l * width, 2);
      for (int b = 0; b < width; ++b) {
        (*bytes)[phys * width + b] = static_cast<char>((v >> (8 * b)) & 0xff);
      }
    });
    return absl::OkStatus();
  }
  switch (t) {
    case PrimitiveType::kPred:
      AppendValues<bool>(lit, p->mutable_preds());
      break;
    case PrimitiveType::kS32:
      AppendValues<int32_t>(lit, p->mutable_s32s());
      break;
    case PrimitiveType::kS64:
      AppendValues<int64_t>(lit, p->mutable_s64s());
      break;
    case PrimitiveType::kU32:
      AppendValues<uint32_t>(lit, p->mutable_u32s());
      break;
    case PrimitiveType::kU64:
      AppendValues<uint64_t>(lit, p->mutable_u64s());
      break;
    case PrimitiveType::kF32:
      AppendValues<float>(lit, p->mutable_f32s());
      break;
    case PrimitiveType::kF64:
      AppendValues<double>(lit, p->mutable_f64s());
      break;
    case PrimitiveType::kC64:
      AppendComplex<float>(lit, p->mutable_c64s());
      break;
    case PrimitiveType::kC128:
      AppendComplex<double>(lit, p->mutable_c128s());
      break;
    default:
      return Unsupported(
          absl::StrCat("literal of type ", Sv(PrimitiveTypeName(t))));
  }
  return absl::OkStatus();
}

absl::Status ExportMetadata(const OpMetadata& m, xla::OpMetadata* p) {
  p->set_op_type(m.op_type);
  p->set_op_name(m.op_name);
  p->set_source_file(m.source_file);
  p->set_source_line(static_cast<int32_t>(m.source_line));
  for (const auto& [key, value] : m.other) {
    int64_t number = 0;
    const bool is_int = absl::SimpleAtoi(value, &number);
    if (key == "source_end_line" && is_int) {
      p->set_source_end_line(number);
    } else if (key == "source_column" && is_int) {
      p->set_source_column(number);
    } else if (key == "source_end_column" && is_int) {
      p->set_source_end_column(number);
    } else if (key == "stack_frame_id" && is_int) {
      p->set_stack_frame_id(number);
    } else if (key == "deduplicated_name") {
      RETURN_IF_ERROR(ParseQuotedString(value, p->mutable_deduplicated_name()));
    } else if (key == "scheduling_name") {
      RETURN_IF_ERROR(ParseQuotedString(value, p->mutable_scheduling_name()));
    } else {
      return Unsupported(absl::StrCat("metadata ", key, "=", value));
    }
  }
  return absl::OkStatus();
}

constexpr std::string_view kAlgorithms[] = {
    "",
    "dot_any_f8_any_f8_f32",
    "dot_any_f8_any_f8_f32_fast_accum",
    "dot_f16_f16_f16",
    "dot_f16_f16_f32",
    "dot_bf16_bf16_bf16",
    "dot_bf16_bf16_f32",
    "dot_bf16_bf16_f32_x3",
    "dot_bf16_bf16_f32_x6",
    "dot_tf32_tf32_f32",
    "dot_tf32_tf32_f32_x3",
    "dot_f32_f32_f32",
    "dot_f64_f64_f64",
    "dot_bf16_bf16_f32_x9",
};

absl::Status ExportPrecision(const Instruction& inst, xla::PrecisionConfig* p) {
  const InstructionAttributes& a = inst.attrs();
  if (inst.opcode() == Opcode::kDot || inst.opcode() == Opcode::kConvolution) {
    // XLA writes one precision per operand, DEFAULT when the text has none.
    for (int i = 0; i < inst.operand_count(); ++i) p->add_operand_precision(0);
  }
  for (size_t i = 0; i < a.operand_precision.size(); ++i) {
    const std::string& name = a.operand_precision[i];
    int value = name == "default"   ? 0
                : name == "high"    ? 1
                : name == "highest" ? 2
                                    : -1;
    if (value < 0) return Unsupported(absl::StrCat("precision ", name));
    if (static_cast<int>(i) >= p->operand_precision_size())
      p->add_operand_precision(0);
    p->set_operand_precision(i, value);
  }
  for (size_t i = 0; i < std::size(kAlgorithms); ++i) {
    if (kAlgorithms[i] == a.algorithm) {
      p->set_algorithm(static_cast<int>(i));
      return absl::OkStatus();
    }
  }
  return Unsupported(absl::StrCat("algorithm ", a.algorithm));
}

void ExportAttributes(const Instruction& inst, xla::HloInstructionProto* p) {
  const InstructionAttributes& a = inst.attrs();
  if (inst.opcode() == Opcode::kParameter)
    p->set_parameter_number(a.parameter_number);
  if (inst.opcode() == Opcode::kGetTupleElement)
    p->set_tuple_index(a.tuple_index);
  if (inst.opcode() == Opcode::kCompare) {
    p->set_comparison_direction(
        std::string(ComparisonDirectionName(a.comparison_direction)));
    // XLA always names the type; the text leaves out the default.
    ComparisonType type = a.comparison_type;
    if (type == ComparisonType::kUnset && inst.operand_count() > 0) {
      const PrimitiveType t = inst.operand(0)->shape().element_type();
      type = IsFloat(t) || IsComplex(t) ? ComparisonType::kFloat
             : IsSignedInt(t)           ? ComparisonType::kSigned
                                        : ComparisonType::kUnsigned;
    }
    p->set_comparison_type(std::string(ComparisonTypeName(type)));
  }
  if (inst.opcode() == Opcode::kFusion) {
    p->set_fusion_kind(std::string(FusionKindName(a.fusion_kind)));
  }
  if (inst.opcode() == Opcode::kReducePrecision) {
    p->set_exponent_bits(static_cast<int32_t>(a.exponent_bits));
    p->set_mantissa_bits(static_cast<int32_t>(a.mantissa_bits));
  }
  if (inst.opcode() == Opcode::kConvolution) {
    p->set_feature_group_count(a.feature_group_count);
    p->set_batch_group_count(a.batch_group_count);
  }
  if (inst.opcode() == Opcode::kCustomCall) {
    p->set_custom_call_target(a.custom_call_target);
  }
  if (inst.opcode() == Opcode::kTopK) {
    if (a.k.has_value()) p->set_k(*a.k);
    p->set_largest(a.largest);
  }
  if (inst.opcode() == Opcode::kFft) {
    p->set_fft_type(static_cast<int>(a.fft_type));
    for (int64_t n : a.fft_length) p->add_fft_length(n);
  }
  if (inst.opcode() == Opcode::kTriangularSolve) {
    auto* o = p->mutable_triangular_solve_options();
    o->set_left_side(a.left_side);
    o->set_lower(a.lower);
    o->set_unit_diagonal(a.unit_diagonal);
    o->set_transpose_a(static_cast<int>(a.transpose_a) + 1);
  }
  if (inst.opcode() == Opcode::kCholesky) {
    p->mutable_cholesky_options()->set_lower(a.lower);
  }
  for (int64_t d : a.dimensions) p->add_dimensions(d);
  for (const SliceDim& s : a.slice) {
    auto* sd = p->add_slice_dimensions();
    sd->set_start(s.start);
    sd->set_limit(s.limit);
    sd->set_stride(s.stride);
  }
  for (const PaddingDim& d : a.padding) {
    auto* pd = p->mutable_padding_config()->add_dimensions();
    pd->set_edge_padding_low(d.low);
    pd->set_edge_padding_high(d.high);
    pd->set_interior_padding(d.interior);
  }
  for (const WindowDim& w : a.window) {
    auto* wd = p->mutable_window()->add_dimensions();
    wd->set_size(w.size);
    wd->set_stride(w.stride);
    wd->set_padding_low(w.pad_low);
    wd->set_padding_high(w.pad_high);
    wd->set_window_dilation(w.window_dilation);
    wd->set_base_dilation(w.base_dilation);
    wd->set_window_reversal(w.reversal);
  }
  if (inst.opcode() == Opcode::kConvolution) {
    const ConvolutionDimensionNumbers& c = a.conv_dnums;
    auto* cp = p->mutable_convolution_dimension_numbers();
    cp->set_input_batch_dimension(c.input_batch);
    cp->set_input_feature_dimension(c.input_feature);
    for (int64_t d : c.input_spatial) cp->add_input_spatial_dimensions(d);
    cp->set_kernel_input_feature_dimension(c.kernel_input_feature);
    cp->set_kernel_output_feature_dimension(c.kernel_output_feature);
    for (int64_t d : c.kernel_spatial) cp->add_kernel_spatial_dimensions(d);
    cp->set_output_batch_dimension(c.output_batch);
    cp->set_output_feature_dimension(c.output_feature);
    for (int64_t d : c.output_spatial) cp->add_output_spatial_dimensions(d);
  }
  auto* dp = p->mutable_dot_dimension_numbers();
  for (int64_t d : a.dot_dnums.lhs_contracting)
    dp->add_lhs_contracting_dimensions(d);
  for (int64_t d : a.dot_dnums.rhs_contracting)
    dp->add_rhs_contracting_dimensions(d);
  for (int64_t d : a.dot_dnums.lhs_batch) dp->add_lhs_batch_dimensions(d);
  for (int64_t d : a.dot_dnums.rhs_batch) dp->add_rhs_batch_dimensions(d);
  const GatherDimensionNumbers& g = a.gather_dnums;
  auto* gp = p->mutable_gather_dimension_numbers();
  for (int64_t d : g.offset_dims) gp->add_offset_dims(d);
  for (int64_t d : g.collapsed_slice_dims) gp->add_collapsed_slice_dims(d);
  for (int64_t d : g.start_index_map) gp->add_start_index_map(d);
  gp->set_index_vector_dim(g.index_vector_dim);
  for (int64_t d : g.operand_batching_dims) gp->add_operand_batching_dims(d);
  for (int64_t d : g.start_indices_batching_dims)
    gp->add_start_indices_batching_dims(d);
  for (int64_t d : a.slice_sizes) p->add_gather_slice_sizes(d);
  const ScatterDimensionNumbers& s = a.scatter_dnums;
  auto* sp = p->mutable_scatter_dimension_numbers();
  for (int64_t d : s.update_window_dims) sp->add_update_window_dims(d);
  for (int64_t d : s.inserted_window_dims) sp->add_inserted_window_dims(d);
  for (int64_t d : s.scatter_dims_to_operand_dims)
    sp->add_scatter_dims_to_operand_dims(d);
  sp->set_index_vector_dim(s.index_vector_dim);
  for (int64_t d : s.input_batching_dims) sp->add_input_batching_dims(d);
  for (int64_t d : s.scatter_indices_batching_dims)
    sp->add_scatter_indices_batching_dims(d);
  for (int64_t d : a.dynamic_slice_sizes) p->add_dynamic_slice_sizes(d);
  p->set_indices_are_sorted(a.indices_are_sorted);
  p->set_unique_indices(a.unique_indices);
  p->set_is_stable(a.is_stable);
}

absl::Status ExportRawAttribute(const std::string& key,
                                const std::string& value,
                                const std::map<std::string, int64_t>& ids,
                                xla::HloInstructionProto* p) {
  if (key == "sharding") return ParseSharding(value, p->mutable_sharding());
  if (key == "frontend_attributes") {
    return ParseFrontendAttributes(value, p->mutable_frontend_attributes());
  }
  if (key == "backend_config") {
    return ParseBackendConfig(value, p->mutable_backend_config());
  }
  if (key == "parameter_replication") {
    return ParseParameterReplication(value, p->mutable_parameter_replication());
  }
  if (key == "output_to_operand_aliasing") {
    return ParseOutputOperandAliasing(value, p);
  }
  if (key == "statistics")
    return ParseStatistics(value, p->mutable_statistics_viz());
  if (key == "result_accuracy") {
    return ParseResultAccuracy(value, p->mutable_result_accuracy());
  }
  if (key == "is_composite" && value == "true") {
    p->set_is_composite(true);
    return absl::OkStatus();
  }
  if (key == "custom_call_has_side_effect" && value == "true") {
    p->set_custom_call_has_side_effect(true);
    return absl::OkStatus();
  }
  if (key == "schedule" && value == "SCHEDULE_LATEST") {
    p->set_custom_call_schedule(1);
    return absl::OkStatus();
  }
  if (key == "schedule" && value == "SCHEDULE_EARLIEST") {
    p->set_custom_call_schedule(2);
    return absl::OkStatus();
  }
  if (key == "control-predecessors") {
    std::string list = value;
    for (char& c : list) {
      if (c == '{' || c == '}' || c == '%' || c == ',') c = ' ';
    }
    for (absl::string_view name :
         absl::StrSplit(list, ' ', absl::SkipEmpty())) {
      auto it = ids.find(std::string(name));
      if (it == ids.end())
        return Unsupported(absl::StrCat("control predecessor ", name));
      p->add_control_predecessor_ids(it->second);
    }
    return absl::OkStatus();
  }
  return Unsupported(absl::StrCat("attribute ", key, "=", value));
}

}  // namespace

absl::StatusOr<xla::ShapeProto> ExportShape(const Shape& shape) {
  xla::ShapeProto p;
  p.set_element_type(static_cast<int>(shape.element_type()));
  if (shape.IsTuple()) {
    for (const Shape& e : shape.tuple_shapes()) {
      ASSIGN_OR_RETURN(*p.add_tuple_shapes(), ExportShape(e));
    }
    return p;
  }
  if (!shape.IsArray()) return p;
  for (int64_t d : shape.dimensions()) p.add_dimensions(d);
  xla::LayoutProto* layout = p.mutable_layout();
  for (int64_t d : shape.layout().minor_to_major) layout->add_minor_to_major(d);
  if (!shape.layout().extension.empty()) {
    RETURN_IF_ERROR(ParseLayoutExtension(shape.layout().extension, layout));
  }
  return p;
}

absl::StatusOr<xla::LiteralProto> ExportLiteral(const Literal& literal) {
  xla::LiteralProto p;
  ASSIGN_OR_RETURN(*p.mutable_shape(), ExportShape(literal.shape()));
  if (literal.elided()) return Unsupported("elided literal");
  if (literal.IsTuple()) {
    for (const Literal& e : literal.tuple_elements()) {
      ASSIGN_OR_RETURN(*p.add_tuple_literals(), ExportLiteral(e));
    }
    return p;
  }
  RETURN_IF_ERROR(ExportArrayData(literal, &p));
  return p;
}

absl::StatusOr<xla::HloModuleProto> ExportModuleForTest(const Module& module) {
  xla::HloModuleProto proto;
  proto.set_name(module.name());
  proto.set_id(1);
  std::map<const Computation*, int64_t> computation_ids;
  // Ids are unique per module, as newer XLA writes them; computation ids
  // start high so that an accidental mix-up with instruction ids shows.
  int64_t next_instruction_id = 1;
  int64_t next_computation_id = 1000000;
  for (const auto& c : module.computations()) {
    const int64_t cid = next_computation_id++;
    computation_ids[c.get()] = cid;
    xla::HloComputationProto* cp = proto.add_computations();
    cp->set_name(c->name());
    cp->set_id(cid);
    cp->set_is_fusion_computation(c->is_fusion_computation());
    cp->set_execution_thread(
        c->execution_thread().empty() ? "main" : c->execution_thread());
    std::map<const Instruction*, int64_t> ids;
    std::map<std::string, int64_t> ids_by_name;
    for (const auto& inst : c->instructions()) {
      ids[inst.get()] = next_instruction_id;
      ids_by_name[inst->name()] = next_instruction_id++;
    }
    for (const auto& inst : c->instructions()) {
      xla::HloInstructionProto* p = cp->add_instructions();
      p->set_name(inst->name());
      p->set_opcode(std::string(OpcodeName(inst->opcode())));
      p->set_id(ids[inst.get()]);
      ASSIGN_OR_RETURN(*p->mutable_shape(), ExportShape(inst->shape()));
      for (const Instruction* op : inst->operands())
        p->add_operand_ids(ids[op]);
      std::vector<int64_t> called;
      for (const Computation* callee : inst->called_computations()) {
        called.push_back(computation_ids.at(callee));
      }
      if (inst->opcode() == Opcode::kWhile && called.size() == 2) {
        std::swap(called[0], called[1]);
      }
      for (int64_t id : called) p->add_called_computation_ids(id);
      ExportAttributes(*inst, p);
      RETURN_IF_ERROR(ExportPrecision(*inst, p->mutable_precision_config()));
      if (inst->attrs().operand_layout_constraints.has_value()) {
        p->set_constrain_layout(true);
        for (const Shape& s : *inst->attrs().operand_layout_constraints) {
          ASSIGN_OR_RETURN(*p->add_operand_shapes_with_layout(),
                           ExportShape(s));
        }
      }
      if (inst->opcode() == Opcode::kConstant) {
        ASSIGN_OR_RETURN(*p->mutable_literal(), ExportLiteral(inst->literal()));
      }
      RETURN_IF_ERROR(ExportMetadata(inst->metadata(), p->mutable_metadata()));
      for (const auto& [key, value] : inst->raw_attributes()) {
        absl::Status st = ExportRawAttribute(key, value, ids_by_name, p);
        if (!st.ok()) {
          return absl::InvalidArgumentError(
              absl::StrCat("instruction '", inst->name(), "': ", st.message()));
        }
      }
    }
    cp->set_root_id(ids.at(c->root()));
  }
  if (module.entry() != nullptr) {
    proto.set_entry_computation_name(module.entry()->name());
    proto.set_entry_computation_id(computation_ids.at(module.entry()));
  }
  for (const auto& [key, value] : module.header_attributes()) {
    absl::Status st;
    if (key == "entry_computation_layout") {
      st = ParseEntryLayout(value, proto.mutable_host_program_shape());
    } else if (key == "is_scheduled" && value == "true") {
      // The schedule's contents do not reach the text form; one sequence for
      // the entry marks the module as scheduled.
      auto& seq = (*proto.mutable_schedule()
                        ->mutable_sequences())[proto.entry_computation_id()];
      seq.add_instruction_ids(
          proto.computations(proto.computations_size() - 1).root_id());
    } else if (key == "input_output_alias") {
      st = ParseInputOutputAlias(value, proto.mutable_input_output_alias());
    } else if (key == "buffer_donor") {
      st = ParseBufferDonor(value, proto.mutable_buffer_donor());
    } else if (key == "frontend_attributes") {
      st = ParseFrontendAttributes(value, proto.mutable_frontend_attributes());
    } else {
      st = Unsupported(absl::StrCat("header attribute ", key, "=", value));
    }
    if (!st.ok()) return st;
  }
  if (!module.stack_frame_tables().empty()) {
    RETURN_IF_ERROR(ParseStackFrameTables(module.stack_frame_tables(),
                                          proto.mutable_stack_frame_index()));
  }
  return proto;
}

}  // namespace aotc::testing
