// Recognizing HloModuleProto / HloProto bytes from their wire structure
// alone: tags and lengths are walked, nothing is parsed or allocated. Used to
// tell a binary proto from other input and to pick the message to parse.
#ifndef AOTC_COMPILER_FRONTEND_PROTO_WIRE_SCAN_H_
#define AOTC_COMPILER_FRONTEND_PROTO_WIRE_SCAN_H_

#include <string_view>

namespace aotc {

enum class ProtoKind {
  kNone,            // not well-formed wire format, or no computations
  kHloModuleProto,  // computations (field 3) at the top level
  kHloProto,        // field 1 holds a module with computations
};

// An HloModuleProto's field 1 is its name, which would need control bytes
// to look like a message with computations, so the wrapper test is safe to
// make first (an HloProto's buffer_assignment is field 3 too).
ProtoKind ClassifyHloProtoBytes(std::string_view bytes);

}  // namespace aotc

#endif  // AOTC_COMPILER_FRONTEND_PROTO_WIRE_SCAN_H_
