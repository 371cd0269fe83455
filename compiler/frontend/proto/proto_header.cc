// HloModuleProto module-level fields -> the module header attributes and
// stack-frame tables of the text form, spelled as XLA's printer spells them.
#include "compiler/frontend/proto/proto_convert.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::proto_import {
namespace {

// "{1,2}" as XLA prints shape indices.
template <typename Field>
std::string Braced(const Field& field) {
  return absl::StrCat("{", absl::StrJoin(field, ","), "}");
}

// XLA writes MAY_ALIAS or MUST_ALIAS and prints either; an unset kind (a
// hand-written proto) prints none, like text that names no kind.
std::string_view AliasKindText(int kind) {
  switch (kind) {
    case 1:
      return ", may-alias";
    case 2:
      return ", must-alias";
    default:
      return "";
  }
}

// "{ {0}: (1, {}, must-alias) }".
std::string InputOutputAliasText(const xla::HloInputOutputAliasProto& proto) {
  std::vector<std::string> entries;
  for (const auto& e : proto.entries()) {
    entries.push_back(absl::StrCat(
        Braced(e.output_shape_index()), ": (", e.parameter_number(), ", ",
        Braced(e.parameter_shape_index()), Sv(AliasKindText(e.kind())), ")"));
  }
  return absl::StrCat("{ ", absl::StrJoin(entries, ", "), " }");
}

std::string BufferDonorText(const xla::HloBufferDonorProto& proto) {
  std::vector<std::string> entries;
  for (const auto& e : proto.entries()) {
    entries.push_back(absl::StrCat("(", e.parameter_number(), ", ",
                                   Braced(e.parameter_shape_index()), ")"));
  }
  return absl::StrCat("{ ", absl::StrJoin(entries, ", "), " }");
}

// Shapes joined by ", " with the `/*index=N*/` marker XLA's printer puts
// before every fifth element of a tuple (and of the parameter list).
void AppendShapeList(const std::vector<Shape>& shapes, std::string* out);

void AppendLayoutShape(const Shape& shape, std::string* out) {
  if (!shape.IsTuple()) {
    *out += shape.ToString();
    return;
  }
  *out += "(";
  AppendShapeList(shape.tuple_shapes(), out);
  *out += ")";
}

void AppendShapeList(const std::vector<Shape>& shapes, std::string* out) {
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i > 0) *out += ", ";
    if (i > 0 && i % 5 == 0) absl::StrAppend(out, "/*index=", i, "*/");
    AppendLayoutShape(shapes[i], out);
  }
}

// "{(f32[2]{0}, ...)->f32[]}" as XLA prints entry_computation_layout.
absl::StatusOr<std::string> EntryLayoutText(
    const xla::ProgramShapeProto& proto) {
  std::vector<Shape> parameters;
  for (const xla::ShapeProto& p : proto.parameters()) {
    ASSIGN_OR_RETURN(Shape shape, ShapeFromProto(p));
    parameters.push_back(std::move(shape));
  }
  ASSIGN_OR_RETURN(Shape result, ShapeFromProto(proto.result()));
  std::string text = "{(";
  AppendShapeList(parameters, &text);
  text += ")->";
  AppendLayoutShape(result, &text);
  return text + "}";
}

}  // namespace

absl::StatusOr<RawAttributes> HeaderAttributesFromProto(
    const xla::HloModuleProto& p) {
  RawAttributes raw;
  if (p.has_schedule()) raw.emplace_back("is_scheduled", "true");
  if (p.input_output_alias().entries_size() > 0) {
    raw.emplace_back("input_output_alias",
                     InputOutputAliasText(p.input_output_alias()));
  }
  if (p.buffer_donor().entries_size() > 0) {
    raw.emplace_back("buffer_donor", BufferDonorText(p.buffer_donor()));
  }
  if (p.has_host_program_shape()) {
    ASSIGN_OR_RETURN(std::string layout,
                     EntryLayoutText(p.host_program_shape()));
    raw.emplace_back("entry_computation_layout", std::move(layout));
  }
  if (p.frontend_attributes().map_size() > 0) {
    raw.emplace_back("frontend_attributes",
                     FrontendAttributesText(p.frontend_attributes()));
  }
  return raw;
}

std::string StackFrameTablesFromProto(const xla::StackFrameIndexProto& p) {
  std::vector<std::string> tables;
  auto strings_table = [&](std::string_view title, const auto& names) {
    if (names.empty()) return;
    std::string t(title);
    for (int i = 0; i < names.size(); ++i) {
      absl::StrAppend(&t, "\n", i + 1, " ", QuoteString(names[i]));
    }
    tables.push_back(std::move(t));
  };
  strings_table("FileNames", p.file_names());
  strings_table("FunctionNames", p.function_names());
  if (p.file_locations_size() > 0) {
    std::string t = "FileLocations";
    for (int i = 0; i < p.file_locations_size(); ++i) {
      const auto& l = p.file_locations(i);
      absl::StrAppend(&t, "\n", i + 1, " {file_name_id=", l.file_name_id(),
                      " function_name_id=", l.function_name_id(),
                      " line=", l.line(), " end_line=", l.end_line(),
                      " column=", l.column(), " end_column=", l.end_column(),
                      "}");
    }
    tables.push_back(std::move(t));
  }
  if (p.stack_frames_size() > 0) {
    std::string t = "StackFrames";
    for (int i = 0; i < p.stack_frames_size(); ++i) {
      const auto& f = p.stack_frames(i);
      absl::StrAppend(&t, "\n", i + 1,
                      " {file_location_id=", f.file_location_id(),
                      " parent_frame_id=", f.parent_frame_id(), "}");
    }
    tables.push_back(std::move(t));
  }
  return absl::StrJoin(tables, "\n\n");
}

}  // namespace aotc::proto_import
