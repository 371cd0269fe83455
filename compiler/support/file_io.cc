// File reading and atomic writing on POSIX.
#include "compiler/support/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "compiler/support/strings.h"

namespace aotc {
namespace {

absl::Status FileError(const std::string& path, std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat(path, ": error: ", Sv(what)));
}

std::string ErrnoText() { return std::strerror(errno); }

// The largest input aotc reads into memory; model files beyond this are
// refused rather than exhausting memory.
constexpr off_t kMaxInputBytes = off_t{4} << 30;

}  // namespace

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return FileError(path, "no such file");
    return FileError(path, absl::StrCat("cannot read: ", ErrnoText()));
  }
  if (S_ISDIR(st.st_mode)) {
    return FileError(path, "is a directory, expected a file");
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return FileError(path, absl::StrCat("cannot read: ", ErrnoText()));
  std::string contents;
  if (S_ISREG(st.st_mode)) {
    if (st.st_size > kMaxInputBytes) {
      ::close(fd);
      return FileError(path, absl::StrCat("file of ", st.st_size,
                                          " bytes exceeds the 4 GiB input limit"));
    }
    contents.reserve(static_cast<size_t>(st.st_size));
  }
  char buf[1 << 16];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      std::string err = ErrnoText();
      ::close(fd);
      return FileError(path, absl::StrCat("cannot read: ", err));
    }
    if (static_cast<off_t>(contents.size()) + n > kMaxInputBytes) {
      ::close(fd);
      return FileError(path, "input exceeds the 4 GiB limit");
    }
    contents.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return contents;
}

namespace {

// Writes `contents` to a temporary file beside `path` (fsync'ed) and returns
// its name; nothing is left behind on failure.
absl::StatusOr<std::string> Stage(const std::string& path,
                                  std::string_view contents) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return FileError(path, "is a directory, cannot write a file there");
  }
  std::string tmp = absl::StrCat(path, ".tmp.", ::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return FileError(path, absl::StrCat("cannot write: ", ErrnoText()));
  }
  size_t done = 0;
  while (done < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::string err = ErrnoText();
      ::close(fd);
      ::unlink(tmp.c_str());
      return FileError(path, absl::StrCat("cannot write: ", err));
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    std::string err = ErrnoText();
    ::unlink(tmp.c_str());
    return FileError(path, absl::StrCat("cannot write: ", err));
  }
  return tmp;
}

}  // namespace

absl::Status WriteFileAtomically(const std::string& path,
                                 std::string_view contents) {
  return WriteFilesAtomically({{path, contents}});
}

absl::Status WriteFilesAtomically(
    const std::vector<std::pair<std::string, std::string_view>>& files) {
  std::vector<std::string> staged;
  for (const auto& [path, contents] : files) {
    absl::StatusOr<std::string> tmp = Stage(path, contents);
    if (!tmp.ok()) {
      for (const std::string& t : staged) ::unlink(t.c_str());
      return tmp.status();
    }
    staged.push_back(*std::move(tmp));
  }
  for (size_t k = 0; k < files.size(); ++k) {
    if (::rename(staged[k].c_str(), files[k].first.c_str()) != 0) {
      std::string err = ErrnoText();
      for (size_t r = k; r < staged.size(); ++r) ::unlink(staged[r].c_str());
      return FileError(files[k].first, absl::StrCat("cannot write: ", err));
    }
  }
  return absl::OkStatus();
}

absl::Status EnsureDirectory(const std::string& dir) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec)) {
    if (std::filesystem::is_directory(dir, ec)) return absl::OkStatus();
    return FileError(dir, "exists and is not a directory");
  }
  std::filesystem::create_directories(dir, ec);
  if (ec) return FileError(dir, absl::StrCat("cannot create directory: ", ec.message()));
  return absl::OkStatus();
}

}  // namespace aotc
