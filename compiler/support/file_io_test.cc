#include "compiler/support/file_io.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace aotc {
namespace {

std::string TempDir() {
  std::string tmpl = std::filesystem::temp_directory_path() / "aotc_io_XXXXXX";
  char* made = ::mkdtemp(tmpl.data());
  EXPECT_NE(made, nullptr);
  return tmpl;
}

TEST(FileIoTest, ReadErrorsNameThePath) {
  std::string dir = TempDir();
  EXPECT_EQ(ReadFile(dir + "/missing.hlo").status().message(),
            dir + "/missing.hlo: error: no such file");
  EXPECT_EQ(ReadFile(dir).status().message(),
            dir + ": error: is a directory, expected a file");
}

TEST(FileIoTest, AtomicWriteReplacesAndLeavesNoTemporary) {
  std::string dir = TempDir();
  std::string path = dir + "/out.bin";
  ASSERT_TRUE(WriteFileAtomically(path, "first").ok());
  ASSERT_TRUE(WriteFileAtomically(path, std::string("se\0cond", 7)).ok());
  auto back = ReadFile(path);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, std::string("se\0cond", 7));
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 1);
}

TEST(FileIoTest, FailedWriteKeepsPreviousContents) {
  std::string dir = TempDir();
  std::string path = dir + "/keep.txt";
  ASSERT_TRUE(WriteFileAtomically(path, "old").ok());
  // A directory where the temporary file would go cannot be written into
  // when it is read-only (root ignores permissions, so use a missing parent).
  absl::Status st = WriteFileAtomically(dir + "/no/such/dir/x", "new");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(*ReadFile(path), "old");
}

TEST(FileIoTest, EnsureDirectory) {
  std::string dir = TempDir();
  EXPECT_TRUE(EnsureDirectory(dir + "/a/b").ok());
  EXPECT_TRUE(std::filesystem::is_directory(dir + "/a/b"));
  ASSERT_TRUE(WriteFileAtomically(dir + "/f", "x").ok());
  EXPECT_EQ(EnsureDirectory(dir + "/f").message(),
            dir + "/f: error: exists and is not a directory");
}

}  // namespace
}  // namespace aotc
