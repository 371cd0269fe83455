// Test-only IR -> HloModuleProto exporter.
//
// Writes the proto XLA would write for a module: ids, operand and called
// computation ids (while as {body, condition}), literals in the physical
// order of their layout, attributes in their proto fields, and the raw
// attributes aotc keeps verbatim parsed back into their fields. Used to check
// that importing the export of a parsed module gives the same module.
// Attributes with no field in aotc's proto subset are an error naming them.
#ifndef AOTC_COMPILER_FRONTEND_PROTO_TESTING_EXPORT_FOR_TEST_H_
#define AOTC_COMPILER_FRONTEND_PROTO_TESTING_EXPORT_FOR_TEST_H_

#include "absl/status/statusor.h"
#include "compiler/frontend/proto/hlo_subset.pb.h"
#include "compiler/ir/module.h"

namespace aotc::testing {

absl::StatusOr<xla::HloModuleProto> ExportModuleForTest(const Module& module);

// Pieces, for tests that build protos by hand.
absl::StatusOr<xla::ShapeProto> ExportShape(const Shape& shape);
absl::StatusOr<xla::LiteralProto> ExportLiteral(const Literal& literal);

}  // namespace aotc::testing

#endif  // AOTC_COMPILER_FRONTEND_PROTO_TESTING_EXPORT_FOR_TEST_H_
