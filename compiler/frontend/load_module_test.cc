// Tests of model loading: kind detection from the bytes, file errors, and
// loading both kinds end to end.
#include "compiler/frontend/load_module.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/frontend/proto/testing/export_for_test.h"
#include "compiler/frontend/proto/testing/proto_builder.h"
#include "compiler/support/strings.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::F32;
using testing::ProtoBuilder;

constexpr std::string_view kText = R"(HloModule m

ENTRY %main (x: f32[2]) -> f32[2] {
  %x = f32[2]{0} parameter(0)
  ROOT %n = f32[2]{0} negate(f32[2]{0} %x)
}
)";

// The proto form of kText.
std::string ProtoBytes() {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  auto* x = b.Parameter(c, "x", 0, F32({2}));
  b.Add(c, "n", "negate", F32({2}), {x});
  b.SetEntry(c);
  return b.Bytes();
}

absl::StatusOr<InputKind> Detect(std::string_view contents) {
  return DetectInputKind(contents, "in");
}

std::string DetectError(std::string_view contents) {
  absl::StatusOr<InputKind> kind = Detect(contents);
  EXPECT_FALSE(kind.ok());
  return kind.ok() ? "" : std::string(kind.status().message());
}

TEST(DetectInputKindTest, TextWithHeader) {
  EXPECT_EQ(*Detect(kText), InputKind::kHloText);
}

TEST(DetectInputKindTest, TextAfterCommentsAndWhitespace) {
  EXPECT_EQ(
      *Detect("\n  // a model\n/* generated\n by jax */\t\r\nHloModule m"),
      InputKind::kHloText);
}

TEST(DetectInputKindTest, TextWithoutHeader) {
  EXPECT_EQ(*Detect("ENTRY %main () -> f32[] {}"), InputKind::kHloText);
  EXPECT_EQ(*Detect("%add (a: f32[]) -> f32[] {}"), InputKind::kHloText);
  EXPECT_EQ(*Detect("main {\n}"), InputKind::kHloText);
}

TEST(DetectInputKindTest, BinaryHloModuleProto) {
  EXPECT_EQ(*Detect(ProtoBytes()), InputKind::kHloProto);
}

TEST(DetectInputKindTest, BinaryHloProtoWrapper) {
  xla::HloProto wrapper;
  ASSERT_TRUE(wrapper.mutable_hlo_module()->ParseFromString(ProtoBytes()));
  EXPECT_EQ(*Detect(wrapper.SerializeAsString()), InputKind::kHloProto);
}

TEST(DetectInputKindTest, Garbage) {
  EXPECT_EQ(DetectError(std::string("\x01\x02\xff\xfe garbage", 12)),
            "in: error: input is not HLO text, StableHLO text or an HloModuleProto");
  // Printable, but neither HLO nor a proto with computations.
  EXPECT_EQ(DetectError("hello world"),
            "in: error: input is not HLO text, StableHLO text or an HloModuleProto");
  // A proto cut in the middle of a field.
  const std::string bytes = ProtoBytes();
  EXPECT_EQ(DetectError(bytes.substr(0, bytes.size() - 3)),
            "in: error: input is not HLO text, StableHLO text or an HloModuleProto");
}

TEST(DetectInputKindTest, Empty) {
  EXPECT_EQ(DetectError(""), "in: error: input is empty");
  EXPECT_EQ(DetectError("  \n// nothing here\n"), "in: error: input is empty");
}

class LoadModuleFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("aotc_load_module_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, std::string_view contents) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << contents;
    return path;
  }

  std::filesystem::path dir_;
};

TEST_F(LoadModuleFileTest, MissingFile) {
  const std::string path = (dir_ / "missing.hlo").string();
  absl::StatusOr<std::unique_ptr<Module>> m = LoadModuleFromFile(path);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(),
            path + ": error: no such file");
}

TEST_F(LoadModuleFileTest, Directory) {
  absl::StatusOr<std::unique_ptr<Module>> m = LoadModuleFromFile(dir_.string());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(),
            dir_.string() + ": error: is a directory, expected a file");
}

TEST_F(LoadModuleFileTest, EmptyFile) {
  const std::string path = Write("empty.pb", "");
  absl::StatusOr<std::unique_ptr<Module>> m = LoadModuleFromFile(path);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), path + ": error: input is empty");
}

TEST_F(LoadModuleFileTest, GarbageFile) {
  const std::string path = Write("model.hlo", std::string("\x00\x01\x02", 3));
  absl::StatusOr<std::unique_ptr<Module>> m = LoadModuleFromFile(path);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(),
            path + ": error: input is not HLO text, StableHLO text or an HloModuleProto");
}

// The kind comes from the contents: a proto named .hlo and text named .pb
// both load.
TEST_F(LoadModuleFileTest, LoadsBothKindsWhateverTheExtension) {
  absl::StatusOr<std::unique_ptr<Module>> from_proto =
      LoadModuleFromFile(Write("model.hlo", ProtoBytes()));
  ASSERT_TRUE(from_proto.ok()) << from_proto.status();
  absl::StatusOr<std::unique_ptr<Module>> from_text =
      LoadModuleFromFile(Write("model.pb", kText));
  ASSERT_TRUE(from_text.ok()) << from_text.status();
  for (const Module* m : {from_proto->get(), from_text->get()}) {
    EXPECT_EQ(m->name(), "m");
    ASSERT_NE(m->entry(), nullptr);
    EXPECT_EQ(m->entry()->root()->opcode(), Opcode::kNegate);
    EXPECT_EQ(m->entry()->root()->operand(0)->name(), "x");
  }
}

TEST_F(LoadModuleFileTest, ProtoErrorsNameTheFile) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  b.Add(c, "x", "frobnicate", F32({}));
  const std::string path = Write("bad.pb", b.Bytes());
  absl::StatusOr<std::unique_ptr<Module>> m = LoadModuleFromFile(path);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(),
            path + ": error: instruction 'x': unknown opcode 'frobnicate'");
}

// Every corpus module that loads from text (parse and verify; whether all do
// is the text front end's and the verifier's test) also loads from its
// exported proto: detected as a proto, imported and verified.
TEST(LoadModuleCorpusTest, CorpusModulesLoadAsProtoWheneverTheyLoadAsText) {
  std::vector<std::string> failures;
  int loaded_from_text = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(AOTC_CORPUS_DIR)) {
    if (entry.path().extension() != ".hlo") continue;
    const std::string name = entry.path().filename().string();
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    absl::StatusOr<std::unique_ptr<Module>> from_text =
        LoadModuleFromString(text.str(), name);
    if (!from_text.ok()) continue;
    ++loaded_from_text;
    absl::StatusOr<xla::HloModuleProto> proto =
        testing::ExportModuleForTest(**from_text);
    if (!proto.ok()) continue;  // attributes outside the proto subset
    absl::StatusOr<std::unique_ptr<Module>> from_proto =
        LoadModuleFromString(proto->SerializeAsString(), name + ".pb");
    if (!from_proto.ok()) {
      failures.push_back(
          absl::StrCat(name, ": ", from_proto.status().message()));
    }
  }
  EXPECT_GT(loaded_from_text, 0);
  EXPECT_TRUE(failures.empty())
      << failures.size() << " corpus modules fail to load as protos:\n"
      << absl::StrJoin(failures, "\n");
}

}  // namespace
}  // namespace aotc
