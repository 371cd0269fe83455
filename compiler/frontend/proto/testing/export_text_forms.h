// Test-only readers of the raw attribute texts aotc keeps verbatim
// (sharding, frontend_attributes, entry_computation_layout, ...), turning
// them into the proto fields XLA would have written. Used by the test
// exporter; written independently of the importer's printers so that the
// round trip checks one against the other.
#ifndef AOTC_COMPILER_FRONTEND_PROTO_TESTING_EXPORT_TEXT_FORMS_H_
#define AOTC_COMPILER_FRONTEND_PROTO_TESTING_EXPORT_TEXT_FORMS_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "compiler/frontend/proto/hlo_subset.pb.h"

namespace aotc::testing {

// `f32[2,3]{0,1:T(8,128)}`, `(s32[], f32[4]{0})`, `token[]`; `/*...*/`
// comments are skipped.
absl::Status ParseShapeText(std::string_view text, xla::ShapeProto* out);
// The part after ':' of a layout.
absl::Status ParseLayoutExtension(std::string_view text, xla::LayoutProto* out);
// `{(shape, ...)->shape}`.
absl::Status ParseEntryLayout(std::string_view text,
                              xla::ProgramShapeProto* out);
absl::Status ParseSharding(std::string_view text, xla::OpSharding* out);
absl::Status ParseFrontendAttributes(std::string_view text,
                                     xla::FrontendAttributes* out);
// `{...}` as is, or a quoted string unescaped.
absl::Status ParseBackendConfig(std::string_view text, std::string* out);
absl::Status ParseParameterReplication(std::string_view text,
                                       xla::ParameterReplication* out);
absl::Status ParseOutputOperandAliasing(std::string_view text,
                                        xla::HloInstructionProto* out);
absl::Status ParseStatistics(std::string_view text, xla::StatisticsViz* out);
absl::Status ParseResultAccuracy(std::string_view text,
                                 xla::ResultAccuracy* out);
absl::Status ParseInputOutputAlias(std::string_view text,
                                   xla::HloInputOutputAliasProto* out);
absl::Status ParseBufferDonor(std::string_view text,
                              xla::HloBufferDonorProto* out);
absl::Status ParseStackFrameTables(std::string_view text,
                                   xla::StackFrameIndexProto* out);
// A quoted string's contents, unescaped.
absl::Status ParseQuotedString(std::string_view text, std::string* out);

}  // namespace aotc::testing

#endif  // AOTC_COMPILER_FRONTEND_PROTO_TESTING_EXPORT_TEXT_FORMS_H_
