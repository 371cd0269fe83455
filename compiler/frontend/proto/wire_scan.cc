// Top-level wire-format walk of HloModuleProto / HloProto bytes.
#include "compiler/frontend/proto/wire_scan.h"

#include <climits>
#include <cstdint>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/wire_format_lite.h"

namespace aotc {
namespace {

using google::protobuf::internal::WireFormatLite;

constexpr int kComputationsField = 3;

struct Scan {
  bool well_formed = false;
  bool has_computations = false;
  // The payload of the first length-delimited field 1.
  std::string_view field1;
};

Scan ScanFields(std::string_view bytes) {
  Scan scan;
  if (bytes.size() > static_cast<size_t>(INT_MAX)) return scan;
  google::protobuf::io::CodedInputStream input(
      reinterpret_cast<const uint8_t*>(bytes.data()),
      static_cast<int>(bytes.size()));
  bool seen_field1 = false;
  while (true) {
    const uint32_t tag = input.ReadTag();
    if (tag == 0) {
      scan.well_formed =
          input.CurrentPosition() == static_cast<int>(bytes.size());
      return scan;
    }
    const int field = WireFormatLite::GetTagFieldNumber(tag);
    if (field == 0) return scan;
    if (WireFormatLite::GetTagWireType(tag) !=
        WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      if (!WireFormatLite::SkipField(&input, tag)) return scan;
      continue;
    }
    uint32_t length = 0;
    if (!input.ReadVarint32(&length) || length > INT_MAX) return scan;
    const int start = input.CurrentPosition();
    if (!input.Skip(static_cast<int>(length))) return scan;
    if (field == kComputationsField) scan.has_computations = true;
    if (field == 1 && !seen_field1) {
      seen_field1 = true;
      scan.field1 = bytes.substr(start, length);
    }
  }
}

}  // namespace

ProtoKind ClassifyHloProtoBytes(std::string_view bytes) {
  const Scan top = ScanFields(bytes);
  if (!top.well_formed) return ProtoKind::kNone;
  if (!top.field1.empty()) {
    const Scan inner = ScanFields(top.field1);
    if (inner.well_formed && inner.has_computations)
      return ProtoKind::kHloProto;
  }
  return top.has_computations ? ProtoKind::kHloModuleProto : ProtoKind::kNone;
}

}  // namespace aotc
