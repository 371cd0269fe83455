// Pieces of the HloModuleProto importer: proto shapes, literals, attributes
// and the verbatim text forms of attributes aotc does not interpret.
//
// Every function returns errors as InvalidArgument with a bare message (no
// location); proto_importer.cc prefixes the instruction or computation and
// the file. Nothing here recurses without a depth bound: tuple shapes and
// tuple literals stop at kMaxShapeNesting, shardings at kMaxShardingNesting.
#ifndef AOTC_COMPILER_FRONTEND_PROTO_PROTO_CONVERT_H_
#define AOTC_COMPILER_FRONTEND_PROTO_PROTO_CONVERT_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/frontend/proto/hlo_subset.pb.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/shape.h"

namespace aotc::proto_import {

using RawAttributes = std::vector<std::pair<std::string, std::string>>;

// ---- proto_shape_literal.cc ----

// A validated Shape (ValidateShape) with its layout; dynamic dimensions and
// unknown element type numbers are refused.
absl::StatusOr<Shape> ShapeFromProto(const xla::ShapeProto& proto);

// The layout text after ':' (tiles, element size, memory space...), in the
// order XLA prints it, e.g. "T(8,128)(2,1)E(4)S(1)"; empty for a plain
// dimension permutation.
absl::StatusOr<std::string> LayoutExtensionFromProto(
    const xla::LayoutProto& proto);

// The value of a constant whose instruction has shape `shape`. The proto's
// data is in the physical order of the proto literal's own layout; the result
// is in aotc's logical row-major order. Sizes are checked before anything is
// allocated.
absl::StatusOr<Literal> LiteralFromProto(const xla::LiteralProto& proto,
                                         const Shape& shape);

// ---- proto_attributes.cc ----

// Fills the interpreted attributes of `opcode` from the proto (the fields
// listed in InstructionAttributes), mapping proto3 defaults to aotc's.
absl::Status AttributesFromProto(const xla::HloInstructionProto& proto,
                                 Opcode opcode, InstructionAttributes* attrs);

// XLA's protos always name a compare's type; its text leaves out the
// default for the operand type (FLOAT for floating point and complex, SIGNED
// for signed, UNSIGNED for unsigned integers and pred). Resets such a type to
// kUnset, as the text parser leaves it.
void DropDefaultComparisonType(PrimitiveType operand_type,
                               InstructionAttributes* attrs);

OpMetadata MetadataFromProto(const xla::OpMetadata& proto);

// The uninterpreted attributes as the text parser keeps them (name, raw
// value text), in XLA's printing order. `control_predecessors` are the names
// of the instructions listed in control_predecessor_ids.
absl::StatusOr<RawAttributes> RawAttributesFromProto(
    const xla::HloInstructionProto& proto, Opcode opcode,
    const std::vector<std::string>& control_predecessors);

// `{key="value",...}` sorted by key; values that are `{...}` dicts unquoted.
std::string FrontendAttributesText(const xla::FrontendAttributes& proto);

// ---- proto_header.cc ----

// The module header attributes (is_scheduled, input_output_alias,
// buffer_donor, entry_computation_layout, frontend_attributes) in XLA's
// printing order.
absl::StatusOr<RawAttributes> HeaderAttributesFromProto(
    const xla::HloModuleProto& proto);

// The FileNames / FunctionNames / FileLocations / StackFrames tables as text;
// empty when the proto has none.
std::string StackFrameTablesFromProto(const xla::StackFrameIndexProto& proto);

// `"text"` with C escapes, as HLO text writes strings.
std::string QuoteString(std::string_view text);

}  // namespace aotc::proto_import

#endif  // AOTC_COMPILER_FRONTEND_PROTO_PROTO_CONVERT_H_
