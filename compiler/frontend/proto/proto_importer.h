// HloModuleProto importer: XLA's binary protobuf -> aotc IR.
//
// Reads the wire format through aotc's own hlo_subset.proto, which declares
// only the messages and fields aotc needs, with XLA's field numbers. Builds
// the same IR as the text parser. Locations come from each instruction's
// metadata (source_file:source_line) when present, else the proto file name.
// The result is not verified; LoadModule runs the verifier.
#ifndef AOTC_COMPILER_FRONTEND_PROTO_PROTO_IMPORTER_H_
#define AOTC_COMPILER_FRONTEND_PROTO_PROTO_IMPORTER_H_

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "compiler/ir/module.h"

namespace aotc {

absl::StatusOr<std::unique_ptr<Module>> ImportHloProto(
    std::string_view bytes, std::string_view filename);

}  // namespace aotc

#endif  // AOTC_COMPILER_FRONTEND_PROTO_PROTO_IMPORTER_H_
