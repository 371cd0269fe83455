// Round trip of the whole HLO corpus through the proto format: every module
// is parsed from text, exported to an HloModuleProto by the test exporter,
// serialized, imported back, and must print exactly as the parsed module.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/escaping.h"
#include "compiler/frontend/proto/proto_importer.h"
#include "compiler/frontend/proto/testing/export_for_test.h"
#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/printer.h"
#include "compiler/support/strings.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

// Header attributes that XLA keeps in the module config rather than in
// HloModuleProto, or whose HloModuleProto field is outside aotc's subset:
// a proto cannot carry them here, so they are removed from the parsed module
// before comparing.
constexpr std::string_view kHeaderAttributesWithoutField[] = {
    "allow_spmd_sharding_propagation_to_parameters",
    "allow_spmd_sharding_propagation_to_output",
    "replica_count",
    "num_partitions",
    "debug_attributes",
};

// Instruction attributes whose proto fields are outside aotc's subset.
constexpr std::string_view kAttributesOutsideTheSubset[] = {"origin"};

// Hand-written spellings in the corpus that XLA's printer (and so the import
// of a proto) writes differently: {key, as written, as printed}.
struct Respelling {
  std::string_view key;
  std::string_view written;
  std::string_view printed;
};
constexpr Respelling kRespellings[] = {
    {"result_accuracy", "{tolerance={atol=1.0,rtol=0,ulps=10}}",
     "{tolerance={atol=1,rtol=0,ulps=10}}"},
};

template <typename Pairs, size_t N>
void EraseKeys(Pairs& pairs, const std::string_view (&keys)[N]) {
  pairs.erase(std::remove_if(pairs.begin(), pairs.end(),
                             [&](const auto& kv) {
                               return std::find(std::begin(keys),
                                                std::end(keys),
                                                kv.first) != std::end(keys);
                             }),
              pairs.end());
}

// A proto keeps a backend_config as its string only; XLA's printer writes a
// string that is a `{...}` dict unquoted, whichever way the text spelled it.
void UnquoteDictBackendConfig(std::string& value) {
  if (value.size() < 2 || value.front() != '"') return;
  std::string unescaped;
  if (!absl::CUnescape(Sv(std::string_view(value).substr(1, value.size() - 2)),
                       &unescaped)) {
    return;
  }
  if (!unescaped.empty() && unescaped.front() == '{' &&
      unescaped.back() == '}') {
    value = unescaped;
  }
}

// An entry_computation_layout spaced as XLA prints it: ", " between shapes,
// no other spaces. The proto keeps the shapes, not the spelling.
std::string CanonicalEntryLayoutSpacing(std::string_view value) {
  std::string compact;
  for (size_t i = 0; i < value.size(); ++i) {
    if (value.substr(i, 2) == "/*") {
      const size_t end = value.find("*/", i);
      compact += value.substr(i, end + 2 - i);
      i = end + 1;
    } else if (!std::isspace(static_cast<unsigned char>(value[i]))) {
      compact += value[i];
    }
  }
  std::string out;
  for (size_t i = 0; i < compact.size(); ++i) {
    out += compact[i];
    const bool ends_shape =
        i > 0 && (compact[i - 1] == '}' || compact[i - 1] == ']' ||
                  compact[i - 1] == ')');
    if (compact[i] == ',' && ends_shape) out += ' ';
  }
  return out;
}

// XLA's printer leaves out a comparison type that is the default for the
// operands (FLOAT for floats, SIGNED for signed integers...), as in
// `compare(s32 a, s32 b), type=SIGNED`.
void DropDefaultCompareType(Instruction& inst) {
  const PrimitiveType t = inst.operand(0)->shape().element_type();
  const ComparisonType default_type =
      IsFloat(t) || IsComplex(t) ? ComparisonType::kFloat
      : IsSignedInt(t)           ? ComparisonType::kSigned
                                 : ComparisonType::kUnsigned;
  if (inst.attrs().comparison_type == default_type) {
    inst.mutable_attrs().comparison_type = ComparisonType::kUnset;
  }
}

// Brings the parsed module to what a proto can say: attributes without a
// proto field removed, values spelled as XLA prints them.
void ToProtoExpressibleForm(Module& module) {
  EraseKeys(module.mutable_header_attributes(), kHeaderAttributesWithoutField);
  for (auto& [key, value] : module.mutable_header_attributes()) {
    if (key == "entry_computation_layout") {
      value = CanonicalEntryLayoutSpacing(value);
    }
  }
  for (const auto& c : module.computations()) {
    for (const auto& inst : c->instructions()) {
      if (inst->opcode() == Opcode::kCompare) DropDefaultCompareType(*inst);
      EraseKeys(inst->mutable_raw_attributes(), kAttributesOutsideTheSubset);
      for (auto& [key, value] : inst->mutable_raw_attributes()) {
        if (key == "backend_config") UnquoteDictBackendConfig(value);
        for (const Respelling& r : kRespellings) {
          if (key == r.key && value == r.written) value = r.printed;
        }
      }
    }
  }
}

// The first line where two printed modules differ, for the failure message.
std::string FirstDifference(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, la));
    const bool more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_a && !more_b) return "identical";
    if (!more_a || !more_b || la != lb) {
      return absl::StrCat("line ", line, ":\n    text:  ", la,
                          "\n    proto: ", lb);
    }
  }
}

// Empty when the file survives the round trip, else why not.
std::string RoundTrip(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const std::string name = path.filename().string();
  absl::StatusOr<std::unique_ptr<Module>> parsed =
      ParseHloText(text.str(), name);
  if (!parsed.ok())
    return absl::StrCat("text parse failed: ", parsed.status().message());
  ToProtoExpressibleForm(**parsed);
  absl::StatusOr<xla::HloModuleProto> proto =
      testing::ExportModuleForTest(**parsed);
  if (!proto.ok())
    return absl::StrCat("export failed: ", proto.status().message());
  absl::StatusOr<std::unique_ptr<Module>> imported =
      ImportHloProto(proto->SerializeAsString(), name + ".pb");
  if (!imported.ok()) {
    return absl::StrCat("import failed: ", imported.status().message());
  }
  const std::string want = PrintModule(**parsed);
  const std::string got = PrintModule(**imported);
  if (want == got) return "";
  return absl::StrCat("printed modules differ at ", FirstDifference(want, got));
}

TEST(ProtoCorpusTest, EveryCorpusModuleSurvivesExportAndImport) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(AOTC_CORPUS_DIR)) {
    if (entry.path().extension() == ".hlo") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 200u) << "corpus not found in " << AOTC_CORPUS_DIR;
  std::vector<std::string> failures;
  for (const auto& path : files) {
    std::string why = RoundTrip(path);
    if (!why.empty()) {
      failures.push_back(absl::StrCat(path.filename().string(), ": ", why));
    }
  }
  EXPECT_TRUE(failures.empty())
      << failures.size() << " of " << files.size()
      << " corpus modules fail the proto round trip:\n"
      << absl::StrJoin(failures, "\n");
}

}  // namespace
}  // namespace aotc
