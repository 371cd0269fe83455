// Writes the seed corpora of the fuzz targets.
//
//   aotc_fuzz_seeds OUT_DIR HLO_FILE...
//
// OUT_DIR/hlo_text: the HLO text files themselves; OUT_DIR/stablehlo: the
// StableHLO (.mlir) files among the inputs; OUT_DIR/hlo_proto: each
// file that parses, exported to a binary HloModuleProto by the test exporter;
// OUT_DIR/npy: .npy files of every element type the reader knows, written by
// WriteNpy, plus the variants only other writers produce (big-endian data,
// fortran_order, format versions 2.0 and 3.0, a 2-byte void dtype). Inputs
// larger than kMaxSeedBytes are skipped: big seeds slow every execution and
// the corpus holds small modules of the same operations.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "compiler/frontend/proto/testing/export_for_test.h"
#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/support/file_io.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"
#include "tools/npy.h"

namespace aotc {
namespace {

constexpr size_t kMaxSeedBytes = 32 * 1024;

absl::Status WriteSeed(const std::filesystem::path& dir, const std::string& name,
                       std::string_view bytes) {
  return WriteFileAtomically((dir / name).string(), bytes);
}

// Text seeds and their proto exports; returns how many of each were written.
absl::Status WriteModuleSeeds(const std::filesystem::path& out,
                              const std::vector<std::string>& files,
                              int* texts, int* protos) {
  for (const std::string& file : files) {
    ASSIGN_OR_RETURN(std::string text, ReadFile(file));
    if (text.size() > kMaxSeedBytes) continue;
    const std::string stem = std::filesystem::path(file).stem().string();
    if (std::filesystem::path(file).extension() == ".mlir") {
      RETURN_IF_ERROR(WriteSeed(out / "stablehlo", stem + ".mlir", text));
      continue;
    }
    RETURN_IF_ERROR(WriteSeed(out / "hlo_text", stem + ".hlo", text));
    ++*texts;
    absl::StatusOr<std::unique_ptr<Module>> module = ParseHloText(text, file);
    if (!module.ok()) continue;
    absl::StatusOr<xla::HloModuleProto> proto =
        testing::ExportModuleForTest(**module);
    if (!proto.ok()) continue;
    const std::string bytes = proto->SerializeAsString();
    if (bytes.size() > kMaxSeedBytes) continue;
    RETURN_IF_ERROR(WriteSeed(out / "hlo_proto", stem + ".pb", bytes));
    ++*protos;
  }
  return absl::OkStatus();
}

// A .npy file with a hand-written header, padded as numpy pads it.
std::string RawNpy(int major, std::string dict, std::string_view data) {
  const size_t length_bytes = major == 1 ? 2 : 4;
  const size_t total = 8 + length_bytes + dict.size() + 1;
  dict.append((total + 63) / 64 * 64 - total, ' ');
  dict.push_back('\n');
  std::string out = "\x93NUMPY";
  out.push_back(static_cast<char>(major));
  out.push_back('\0');
  for (size_t i = 0; i < length_bytes; ++i) {
    out.push_back(static_cast<char>((dict.size() >> (8 * i)) & 0xff));
  }
  return out + dict + std::string(data);
}

absl::Status WriteNpySeeds(const std::filesystem::path& dir, int* count) {
  const struct {
    PrimitiveType type;
    std::vector<int64_t> dims;
  } arrays[] = {
      {PrimitiveType::kF32, {2, 3}}, {PrimitiveType::kF64, {4}},
      {PrimitiveType::kF16, {3}},    {PrimitiveType::kBF16, {2}},
      {PrimitiveType::kS8, {5}},     {PrimitiveType::kS16, {2, 2}},
      {PrimitiveType::kS32, {}},     {PrimitiveType::kS64, {1, 2, 1}},
      {PrimitiveType::kU8, {4}},     {PrimitiveType::kU16, {2}},
      {PrimitiveType::kU32, {3}},    {PrimitiveType::kU64, {0, 3}},
      {PrimitiveType::kPred, {2, 2}}, {PrimitiveType::kC64, {2}},
      {PrimitiveType::kC128, {1}},
  };
  for (const auto& a : arrays) {
    Literal literal(Shape::Array(a.type, a.dims));
    // Small distinct bytes; pred needs 0 or 1.
    for (int64_t i = 0; i < literal.raw_size(); ++i) {
      literal.mutable_raw()[i] =
          static_cast<uint8_t>(a.type == PrimitiveType::kPred ? i % 2 : i * 7);
    }
    ASSIGN_OR_RETURN(std::string bytes, WriteNpy(literal));
    RETURN_IF_ERROR(WriteSeed(
        dir, absl::StrCat(Sv(PrimitiveTypeName(a.type)), "_", a.dims.size(), ".npy"),
        bytes));
    ++*count;
  }
  const std::string six_floats(24, '\x01');
  const struct {
    const char* name;
    std::string bytes;
  } raw[] = {
      {"fortran_f32.npy",
       RawNpy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
              six_floats)},
      {"big_endian_i4.npy",
       RawNpy(1, "{'descr': '>i4', 'fortran_order': False, 'shape': (3, 2), }",
              six_floats)},
      {"big_endian_c8.npy",
       RawNpy(1, "{'descr': '>c8', 'fortran_order': False, 'shape': (3,), }",
              six_floats)},
      {"version2.npy",
       RawNpy(2, "{'descr': '<u2', 'fortran_order': False, 'shape': (12,), }",
              six_floats)},
      {"version3.npy",
       RawNpy(3, "{\"descr\": \"<i8\", \"fortran_order\": False, \"shape\": (3L,)}",
              six_floats)},
      {"void2.npy",
       RawNpy(1, "{'descr': '|V2', 'fortran_order': False, 'shape': (4, 3), }",
              six_floats)},
  };
  for (const auto& r : raw) {
    RETURN_IF_ERROR(WriteSeed(dir, r.name, r.bytes));
    ++*count;
  }
  return absl::OkStatus();
}

absl::Status Run(const std::filesystem::path& out,
                 const std::vector<std::string>& files) {
  for (const char* sub : {"hlo_text", "hlo_proto", "npy", "stablehlo"}) {
    RETURN_IF_ERROR(EnsureDirectory((out / sub).string()));
  }
  int texts = 0, protos = 0, npys = 0;
  RETURN_IF_ERROR(WriteModuleSeeds(out, files, &texts, &protos));
  RETURN_IF_ERROR(WriteNpySeeds(out / "npy", &npys));
  std::printf("aotc_fuzz_seeds: %d text, %d proto, %d npy seeds in %s\n", texts,
              protos, npys, out.string().c_str());
  return absl::OkStatus();
}

}  // namespace
}  // namespace aotc

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: aotc_fuzz_seeds OUT_DIR HLO_OR_MLIR_FILE...\n");
    return 2;
  }
  absl::Status status =
      aotc::Run(argv[1], std::vector<std::string>(argv + 2, argv + argc));
  if (!status.ok()) {
    std::fprintf(stderr, "%s\n", std::string(status.message()).c_str());
    return 1;
  }
  return 0;
}
