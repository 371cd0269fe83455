// HloInstructionProto attribute fields -> InstructionAttributes, OpMetadata
// and the raw attribute text the HLO text parser would have kept.
//
// Raw attributes are spelled the way XLA's printer spells them, so that a
// module read from a proto prints like the same module read from XLA's text
// dump. Proto3 leaves unset numbers at 0; where HLO's default is another
// value (feature_group_count, batch_group_count) 0 means that default.
// Which opcode has which attribute comes from opcode_attributes.def.
#include <algorithm>

#include "absl/strings/escaping.h"
#include "compiler/frontend/proto/proto_convert.h"
#include "compiler/ir/opcode_attributes.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::proto_import {
namespace {

absl::Status Invalid(std::string message) {
  return absl::InvalidArgumentError(std::move(message));
}

template <typename Field>
std::vector<int64_t> Ints(const Field& field) {
  return std::vector<int64_t>(field.begin(), field.end());
}

// "{1,2}" as XLA prints shape indices and int lists.
template <typename Field>
std::string Braced(const Field& field) {
  return absl::StrCat("{", absl::StrJoin(field, ","), "}");
}

std::string_view PrecisionName(int precision) {
  switch (precision) {
    case 0:
      return "default";
    case 1:
      return "high";
    case 2:
      return "highest";
    default:
      return "";
  }
}

// PrecisionConfig.Algorithm values in enum order, lower case without "ALG_".
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

absl::Status PrecisionFromProto(const xla::PrecisionConfig& proto,
                                InstructionAttributes* attrs) {
  bool all_default = true;
  std::vector<std::string> names;
  for (int p : proto.operand_precision()) {
    std::string_view name = PrecisionName(p);
    if (name.empty()) return Invalid(absl::StrCat("unknown precision ", p));
    all_default = all_default && p == 0;
    names.emplace_back(name);
  }
  // XLA writes one DEFAULT per operand; its text form omits them then.
  if (!all_default) attrs->operand_precision = std::move(names);
  const int algorithm = proto.algorithm();
  if (algorithm < 0 || algorithm >= static_cast<int>(std::size(kAlgorithms))) {
    return Invalid(absl::StrCat("unknown dot algorithm ", algorithm));
  }
  attrs->algorithm = std::string(kAlgorithms[algorithm]);
  return absl::OkStatus();
}

// True when `text` is one `{...}` with balanced braces outside strings: XLA
// then prints it unquoted (backend_config, frontend attribute values).
bool LexesAsJsonDict(std::string_view text) {
  if (text.empty() || text.front() != '{') return false;
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      if (--depth == 0) return i + 1 == text.size();
    }
  }
  return false;
}

// OpSharding.Type values.
enum ShardingType {
  kReplicated = 0,
  kMaximal = 1,
  kTuple = 2,
  kOther = 3,
  kManual = 4,
  kUnknown = 5,
  kUnreduced = 6,
};

constexpr int kMaxShardingNesting = 64;

std::string_view ShardingTypeKeyword(int type) {
  switch (type) {
    case kReplicated:
      return "replicated";
    case kManual:
      return "manual";
    case kUnknown:
      return "unknown";
    case kUnreduced:
      return "unreduced";
    default:
      return "";
  }
}

absl::StatusOr<std::string> ShardingText(const xla::OpSharding& proto,
                                         int depth) {
  if (depth > kMaxShardingNesting) {
    return Invalid(absl::StrCat("tuple shardings nested deeper than ",
                                kMaxShardingNesting, " levels"));
  }
  const int type = proto.type();
  if (std::string_view keyword = ShardingTypeKeyword(type); !keyword.empty()) {
    return absl::StrCat("{", Sv(keyword), "}");
  }
  if (type == kMaximal) {
    if (proto.tile_assignment_devices_size() != 1) {
      return Invalid("maximal sharding needs exactly one device");
    }
    return absl::StrCat("{maximal device=", proto.tile_assignment_devices(0),
                        "}");
  }
  if (type == kTuple) {
    std::vector<std::string> elements;
    for (const xla::OpSharding& e : proto.tuple_shardings()) {
      ASSIGN_OR_RETURN(std::string text, ShardingText(e, depth + 1));
      elements.push_back(std::move(text));
    }
    return absl::StrCat("{", absl::StrJoin(elements, ", "), "}");
  }
  if (type != kOther)
    return Invalid(absl::StrCat("unknown sharding type ", type));
  std::string text =
      absl::StrCat("{devices=[",
                   absl::StrJoin(proto.tile_assignment_dimensions(), ","), "]");
  if (proto.iota_reshape_dims_size() > 0) {
    absl::StrAppend(&text, "<=[", absl::StrJoin(proto.iota_reshape_dims(), ","),
                    "]");
    bool identity = true;
    for (int i = 0; i < proto.iota_transpose_perm_size(); ++i) {
      identity = identity && proto.iota_transpose_perm(i) == i;
    }
    if (!identity) {
      absl::StrAppend(&text, "T(",
                      absl::StrJoin(proto.iota_transpose_perm(), ","), ")");
    }
  } else {
    absl::StrAppend(&text, absl::StrJoin(proto.tile_assignment_devices(), ","));
  }
  if (proto.replicate_on_last_tile_dim()) text += " last_tile_dim_replicate";
  if (proto.last_tile_dims_size() > 0) {
    std::vector<std::string> types;
    for (int t : proto.last_tile_dims()) {
      std::string_view keyword = ShardingTypeKeyword(t);
      if (keyword.empty()) {
        return Invalid(absl::StrCat("unknown sharding type ", t));
      }
      types.emplace_back(keyword);
    }
    absl::StrAppend(&text, " last_tile_dims={", absl::StrJoin(types, ", "),
                    "}");
  }
  return text + "}";
}

std::string OutputOperandAliasingText(
    const google::protobuf::RepeatedPtrField<xla::OutputOperandAliasing>& p) {
  std::vector<std::string> entries;
  for (const xla::OutputOperandAliasing& a : p) {
    entries.push_back(absl::StrCat(Braced(a.output_shape_index()), ": (",
                                   a.operand_index(), ", ",
                                   Braced(a.operand_shape_index()), ")"));
  }
  return absl::StrCat("{", absl::StrJoin(entries, ", "), "}");
}

std::string StatisticsText(const xla::StatisticsViz& proto) {
  std::string text =
      absl::StrCat("{visualizing_index=", proto.stat_index_to_visualize());
  for (const xla::Statistic& s : proto.statistics()) {
    absl::StrAppend(&text, ",", s.stat_name(), "=", s.stat_val());
  }
  return text + "}";
}

absl::StatusOr<std::string> ResultAccuracyText(const xla::ResultAccuracy& p) {
  if (p.has_tolerance()) {
    const xla::ResultAccuracy::Tolerance& t = p.tolerance();
    return absl::StrCat("{tolerance={atol=", t.atol(), ",rtol=", t.rtol(),
                        ",ulps=", t.ulps(), "}}");
  }
  if (p.mode() == 1) return std::string("{mode=highest}");
  return Invalid(absl::StrCat("unknown result accuracy mode ", p.mode()));
}

std::string_view CustomCallScheduleName(int schedule) {
  switch (schedule) {
    case 1:
      return "SCHEDULE_LATEST";
    case 2:
      return "SCHEDULE_EARLIEST";
    default:
      return "";
  }
}

std::string_view ApiVersionName(int version) {
  switch (version) {
    case 2:
      return "API_VERSION_STATUS_RETURNING";
    case 3:
      return "API_VERSION_STATUS_RETURNING_UNIFIED";
    case 4:
      return "API_VERSION_TYPED_FFI";
    default:
      return "";
  }
}

std::string_view ProfileTypeName(int type) {
  switch (type) {
    case 1:
      return "WINDOW";
    case 2:
      return "FLAG";
    case 3:
      return "INTEGER";
    default:
      return "INVALID";
  }
}

// The value XLA's printer gives a backend_config: the text itself when it
// is a JSON-like dict, else a quoted, escaped string.
std::string BackendConfigText(const std::string& config) {
  return LexesAsJsonDict(config) ? config : QuoteString(config);
}

}  // namespace

std::string FrontendAttributesText(const xla::FrontendAttributes& proto) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (const auto& entry : proto.map()) {
    entries.emplace_back(entry.key(), entry.value());
  }
  std::sort(entries.begin(), entries.end());
  std::vector<std::string> parts;
  for (const auto& [key, value] : entries) {
    parts.push_back(LexesAsJsonDict(value)
                        ? absl::StrCat(key, "=", value)
                        : absl::StrCat(key, "=", QuoteString(value)));
  }
  return absl::StrCat("{", absl::StrJoin(parts, ","), "}");
}

std::string QuoteString(std::string_view text) {
  return absl::StrCat("\"", absl::CEscape(Sv(text)), "\"");
}

// Where the proto keeps the attributes of opcode_attributes.def that are read
// only for the opcodes the table gives them (by text key); the dimension
// numbers and lists after them are read for every opcode, as protos of
// opcodes that do not use them leave them empty.
using ProtoHook = absl::Status (*)(const xla::HloInstructionProto& p,
                                   AttributeField field);

template <typename T>
T& As(AttributeField field) {
  return *std::get<T*>(field);
}

// `name` looked up with `from_name`: "unknown <what> 'x'" when it names
// nothing.
template <typename T>
absl::Status EnumFromName(std::optional<T> (*from_name)(std::string_view),
                          const std::string& name, std::string_view what,
                          T* out) {
  std::optional<T> value = from_name(name);
  if (!value.has_value()) {
    return Invalid(absl::StrCat("unknown ", Sv(what), " '", name, "'"));
  }
  *out = *value;
  return absl::OkStatus();
}

const std::pair<std::string_view, ProtoHook> kProtoHooks[] = {
    {"index",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       As<int64_t>(f) = p.tuple_index();
       return absl::OkStatus();
     }},
    {"direction",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       return EnumFromName(ComparisonDirectionFromName,
                           p.comparison_direction(), "comparison direction",
                           &As<ComparisonDirection>(f));
     }},
    {"type",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       if (p.comparison_type().empty()) return absl::OkStatus();
       return EnumFromName(ComparisonTypeFromName, p.comparison_type(),
                           "comparison type", &As<ComparisonType>(f));
     }},
    {"kind",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       return EnumFromName(FusionKindFromName, p.fusion_kind(), "fusion kind",
                           &As<FusionKind>(f));
     }},
    {"k",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       As<std::optional<int64_t>>(f) = p.k();
       return absl::OkStatus();
     }},
    // proto3 has no presence: an unset `largest` reads as false, as in
    // XLA's HloInstruction::CreateFromProto.
    {"largest",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       As<bool>(f) = p.largest();
       return absl::OkStatus();
     }},
    {"fft_type",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       if (p.fft_type() < 0 || p.fft_type() > 3) {
         return Invalid(absl::StrCat("unknown fft type ", p.fft_type()));
       }
       As<FftType>(f) = static_cast<FftType>(p.fft_type());
       return absl::OkStatus();
     }},
    {"fft_length",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       As<std::vector<int64_t>>(f) = Ints(p.fft_length());
       return absl::OkStatus();
     }},
    {"left_side",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       As<bool>(f) = p.triangular_solve_options().left_side();
       return absl::OkStatus();
     }},
    // cholesky keeps `lower` in cholesky_options, triangular-solve in
    // triangular_solve_options.
    {"lower",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       As<bool>(f) = p.opcode() == "cholesky"
                         ? p.cholesky_options().lower()
                         : p.triangular_solve_options().lower();
       return absl::OkStatus();
     }},
    {"unit_diagonal",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       As<bool>(f) = p.triangular_solve_options().unit_diagonal();
       return absl::OkStatus();
     }},
    // The proto's Transpose counts from TRANSPOSE_INVALID = 0.
    {"transpose_a",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       const int32_t t = p.triangular_solve_options().transpose_a();
       if (t < 1 || t > 3) {
         return Invalid(absl::StrCat("invalid transpose_a ", t,
                                     " in triangular_solve_options"));
       }
       As<TransposeKind>(f) = static_cast<TransposeKind>(t - 1);
       return absl::OkStatus();
     }},
    {"exponent_bits",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       As<int64_t>(f) = p.exponent_bits();
       return absl::OkStatus();
     }},
    {"mantissa_bits",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       As<int64_t>(f) = p.mantissa_bits();
       return absl::OkStatus();
     }},
    {"custom_call_target",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       As<std::string>(f) = p.custom_call_target();
       return absl::OkStatus();
     }},
    {"operand_layout_constraints",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       if (!p.constrain_layout() && p.operand_shapes_with_layout_size() == 0) {
         return absl::OkStatus();
       }
       std::vector<Shape> shapes;
       for (const xla::ShapeProto& s : p.operand_shapes_with_layout()) {
         ASSIGN_OR_RETURN(Shape shape, ShapeFromProto(s));
         shapes.push_back(std::move(shape));
       }
       As<std::optional<std::vector<Shape>>>(f) = std::move(shapes);
       return absl::OkStatus();
     }},
    {"feature_group_count",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       As<int64_t>(f) =
           p.feature_group_count() == 0 ? 1 : p.feature_group_count();
       return absl::OkStatus();
     }},
    {"batch_group_count",
     [](const xla::HloInstructionProto& p, AttributeField f) {
       As<int64_t>(f) = p.batch_group_count() == 0 ? 1 : p.batch_group_count();
       return absl::OkStatus();
     }},
};

absl::Status AttributesFromProto(const xla::HloInstructionProto& p,
                                 Opcode opcode, InstructionAttributes* attrs) {
  // A parameter's number is its operand, not a table attribute.
  if (opcode == Opcode::kParameter) {
    attrs->parameter_number = p.parameter_number();
  }
  for (const AttributeSpec* spec : OpcodeAttributes(opcode)) {
    for (const auto& [key, hook] : kProtoHooks) {
      if (key == spec->key) RETURN_IF_ERROR(hook(p, spec->field(*attrs)));
    }
  }
  // The remaining fields are empty in protos of opcodes that do not use them.
  attrs->dimensions = Ints(p.dimensions());
  for (const auto& s : p.slice_dimensions()) {
    attrs->slice.push_back(SliceDim{s.start(), s.limit(), s.stride()});
  }
  for (const auto& d : p.padding_config().dimensions()) {
    attrs->padding.push_back(PaddingDim{
        d.edge_padding_low(), d.edge_padding_high(), d.interior_padding()});
  }
  for (const xla::WindowDimension& w : p.window().dimensions()) {
    attrs->window.push_back(WindowDim{w.size(), w.stride(), w.padding_low(),
                                      w.padding_high(), w.window_dilation(),
                                      w.base_dilation(), w.window_reversal()});
  }
  const xla::ConvolutionDimensionNumbers& c = p.convolution_dimension_numbers();
  attrs->conv_dnums = ConvolutionDimensionNumbers{
      c.input_batch_dimension(),           c.input_feature_dimension(),
      Ints(c.input_spatial_dimensions()),  c.kernel_input_feature_dimension(),
      c.kernel_output_feature_dimension(), Ints(c.kernel_spatial_dimensions()),
      c.output_batch_dimension(),          c.output_feature_dimension(),
      Ints(c.output_spatial_dimensions())};
  const xla::DotDimensionNumbers& d = p.dot_dimension_numbers();
  attrs->dot_dnums = DotDimensionNumbers{Ints(d.lhs_contracting_dimensions()),
                                         Ints(d.rhs_contracting_dimensions()),
                                         Ints(d.lhs_batch_dimensions()),
                                         Ints(d.rhs_batch_dimensions())};
  const xla::GatherDimensionNumbers& g = p.gather_dimension_numbers();
  attrs->gather_dnums = GatherDimensionNumbers{
      Ints(g.offset_dims()),           Ints(g.collapsed_slice_dims()),
      Ints(g.start_index_map()),       g.index_vector_dim(),
      Ints(g.operand_batching_dims()), Ints(g.start_indices_batching_dims())};
  attrs->slice_sizes = Ints(p.gather_slice_sizes());
  const xla::ScatterDimensionNumbers& s = p.scatter_dimension_numbers();
  attrs->scatter_dnums =
      ScatterDimensionNumbers{Ints(s.update_window_dims()),
                              Ints(s.inserted_window_dims()),
                              Ints(s.scatter_dims_to_operand_dims()),
                              s.index_vector_dim(),
                              Ints(s.input_batching_dims()),
                              Ints(s.scatter_indices_batching_dims())};
  attrs->dynamic_slice_sizes = Ints(p.dynamic_slice_sizes());
  attrs->indices_are_sorted = p.indices_are_sorted();
  attrs->unique_indices = p.unique_indices();
  attrs->is_stable = p.is_stable();
  return PrecisionFromProto(p.precision_config(), attrs);
}

void DropDefaultComparisonType(PrimitiveType operand_type,
                               InstructionAttributes* attrs) {
  ComparisonType default_type = ComparisonType::kUnsigned;
  if (IsFloat(operand_type) || IsComplex(operand_type)) {
    default_type = ComparisonType::kFloat;
  } else if (IsSignedInt(operand_type)) {
    default_type = ComparisonType::kSigned;
  }
  if (attrs->comparison_type == default_type) {
    attrs->comparison_type = ComparisonType::kUnset;
  }
}

OpMetadata MetadataFromProto(const xla::OpMetadata& p) {
  OpMetadata m;
  m.op_type = p.op_type();
  m.op_name = p.op_name();
  m.source_file = p.source_file();
  m.source_line = p.source_line();
  auto add = [&](std::string key, std::string value) {
    m.other.emplace_back(std::move(key), std::move(value));
  };
  if (p.source_end_line() != 0) {
    add("source_end_line", absl::StrCat(p.source_end_line()));
  }
  if (p.source_column() != 0)
    add("source_column", absl::StrCat(p.source_column()));
  if (p.source_end_column() != 0) {
    add("source_end_column", absl::StrCat(p.source_end_column()));
  }
  if (p.profile_type_size() > 0) {
    std::vector<std::string> names;
    for (int t : p.profile_type()) names.emplace_back(ProfileTypeName(t));
    add("profile_type", absl::StrCat("{", absl::StrJoin(names, ","), "}"));
  }
  if (!p.deduplicated_name().empty()) {
    add("deduplicated_name", QuoteString(p.deduplicated_name()));
  }
  if (!p.scheduling_name().empty()) {
    add("scheduling_name", QuoteString(p.scheduling_name()));
  }
  if (p.stack_frame_id() != 0) {
    add("stack_frame_id", absl::StrCat(p.stack_frame_id()));
  }
  return m;
}

absl::StatusOr<RawAttributes> RawAttributesFromProto(
    const xla::HloInstructionProto& p, Opcode opcode,
    const std::vector<std::string>& control_predecessors) {
  RawAttributes raw;
  if (p.output_operand_aliasing_size() > 0) {
    raw.emplace_back("output_to_operand_aliasing",
                     OutputOperandAliasingText(p.output_operand_aliasing()));
  }
  if (p.custom_call_has_side_effect()) {
    raw.emplace_back("custom_call_has_side_effect", "true");
  }
  if (std::string_view s = CustomCallScheduleName(p.custom_call_schedule());
      !s.empty()) {
    raw.emplace_back("schedule", std::string(s));
  }
  if (std::string_view v = ApiVersionName(p.custom_call_api_version());
      !v.empty()) {
    raw.emplace_back("api_version", std::string(v));
  }
  if (p.has_parameter_replication()) {
    std::vector<std::string> flags;
    for (bool b : p.parameter_replication().replicated_at_leaf_buffers()) {
      flags.emplace_back(b ? "true" : "false");
    }
    raw.emplace_back("parameter_replication",
                     absl::StrCat("{", absl::StrJoin(flags, ","), "}"));
  }
  if (p.is_composite()) raw.emplace_back("is_composite", "true");
  if (p.has_sharding()) {
    ASSIGN_OR_RETURN(std::string sharding, ShardingText(p.sharding(), 0));
    raw.emplace_back("sharding", std::move(sharding));
  }
  if (p.frontend_attributes().map_size() > 0) {
    raw.emplace_back("frontend_attributes",
                     FrontendAttributesText(p.frontend_attributes()));
  }
  if (!control_predecessors.empty()) {
    std::vector<std::string> names;
    for (const std::string& n : control_predecessors) names.push_back("%" + n);
    raw.emplace_back("control-predecessors",
                     absl::StrCat("{", absl::StrJoin(names, ", "), "}"));
  }
  if (p.statistics_viz().statistics_size() > 0) {
    raw.emplace_back("statistics", StatisticsText(p.statistics_viz()));
  }
  if (p.has_result_accuracy() && (p.result_accuracy().has_tolerance() ||
                                  p.result_accuracy().mode() != 0)) {
    ASSIGN_OR_RETURN(std::string accuracy,
                     ResultAccuracyText(p.result_accuracy()));
    raw.emplace_back("result_accuracy", std::move(accuracy));
  }
  if (!p.backend_config().empty()) {
    raw.emplace_back("backend_config", BackendConfigText(p.backend_config()));
  }
  return raw;
}

}  // namespace aotc::proto_import
