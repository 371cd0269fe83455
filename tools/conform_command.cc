// `aotc conform [--evaluator] FILE|DIR...`: runs self-checking programs
// (tools/conform.h) and reports one line per file, then a summary.
//
// Each file runs in a child process of its own, several at a time: a file
// that crashes the compiler or its compiled code, or runs past the time
// limit, is reported as a failure of that file and the others go on. The
// parent stays single-threaded (children are forked) and prints the lines
// in the order the files were given.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tools/commands.h"
#include "tools/conform.h"

namespace aotc {
namespace {

// Files as given; a directory stands for its *.mlir, *.hlo and *.pb files,
// sorted by name.
bool ExpandFiles(const std::vector<std::string>& args,
                 std::vector<std::string>* files) {
  for (const std::string& arg : args) {
    std::error_code ec;
    if (!std::filesystem::is_directory(arg, ec)) {
      files->push_back(arg);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(arg, ec)) {
      const std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() &&
          (ext == ".mlir" || ext == ".hlo" || ext == ".pb")) {
        found.push_back(entry.path().string());
      }
    }
    if (ec) {
      std::fprintf(stderr, "aotc: error: cannot list '%s': %s\n", arg.c_str(),
                   ec.message().c_str());
      return false;
    }
    std::sort(found.begin(), found.end());
    files->insert(files->end(), found.begin(), found.end());
  }
  return true;
}

// The child's side: runs one file and writes the outcome letter and the
// detail to `fd`.
[[noreturn]] void RunChild(const std::string& path, bool evaluator, int fd) {
  const ConformResult r = ConformFile(path, evaluator);
  const char letter = r.outcome == ConformOutcome::kPass   ? 'P'
                      : r.outcome == ConformOutcome::kFail ? 'F'
                                                           : 'U';
  std::string message(1, letter);
  message += r.detail;
  size_t done = 0;
  while (done < message.size()) {
    const ssize_t n = write(fd, message.data() + done, message.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  // No static destructors: the parent owns the process's shared state.
  _exit(0);
}

struct Running {
  pid_t pid;
  int fd;
  size_t index;
  std::string output;
  std::chrono::steady_clock::time_point start;
  bool timed_out = false;
};

// Turns a finished child's output and exit status into a result.
ConformResult Finish(const Running& r, int status, double timeout_s) {
  if (r.timed_out) {
    return {ConformOutcome::kFail,
            absl::StrCat("timed out after ", timeout_s, " s")};
  }
  if (WIFSIGNALED(status)) {
    return {ConformOutcome::kFail,
            absl::StrCat("crashed with signal ", WTERMSIG(status), " (",
                         strsignal(WTERMSIG(status)), ")")};
  }
  if (r.output.empty()) {
    return {ConformOutcome::kFail,
            absl::StrCat("exited with status ",
                         WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                         " without a result")};
  }
  const char letter = r.output[0];
  const ConformOutcome outcome = letter == 'P'   ? ConformOutcome::kPass
                                 : letter == 'U' ? ConformOutcome::kUnsupported
                                                 : ConformOutcome::kFail;
  return {outcome, r.output.substr(1)};
}

}  // namespace

int RunConform(const ConformOptions& options) {
  std::vector<std::string> files;
  if (!ExpandFiles(options.files, &files)) return 1;
  if (files.empty()) {
    std::fprintf(stderr, "aotc: error: conform: no files given\n");
    return 2;
  }
  const size_t jobs = static_cast<size_t>(std::max(1, options.jobs));
  std::vector<std::optional<ConformResult>> results(files.size());
  std::vector<Running> running;
  size_t next_start = 0, next_print = 0;
  int passed = 0, failed = 0, unsupported = 0;
  std::fflush(stdout);
  std::fflush(stderr);
  while (next_print < files.size()) {
    while (running.size() < jobs && next_start < files.size()) {
      int fds[2];
      if (pipe(fds) != 0) {
        std::fprintf(stderr, "aotc: error: pipe: %s\n", std::strerror(errno));
        return 1;
      }
      const pid_t pid = fork();
      if (pid < 0) {
        std::fprintf(stderr, "aotc: error: fork: %s\n", std::strerror(errno));
        return 1;
      }
      if (pid == 0) {
        close(fds[0]);
        RunChild(files[next_start], options.evaluator, fds[1]);
      }
      close(fds[1]);
      running.push_back({pid, fds[0], next_start, "",
                         std::chrono::steady_clock::now(), false});
      ++next_start;
    }
    // Read what the children wrote; a closed pipe means the child is done.
    std::vector<pollfd> polls;
    for (const Running& r : running) polls.push_back({r.fd, POLLIN, 0});
    if (!polls.empty()) poll(polls.data(), polls.size(), 200);
    for (size_t k = 0; k < running.size();) {
      Running& r = running[k];
      bool done = false;
      if (polls[k].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buffer[4096];
        const ssize_t n = read(r.fd, buffer, sizeof(buffer));
        if (n > 0) {
          r.output.append(buffer, static_cast<size_t>(n));
        } else if (n == 0 || errno != EINTR) {
          done = true;
        }
      }
      const double elapsed = std::chrono::duration<double>(
                                 std::chrono::steady_clock::now() - r.start)
                                 .count();
      if (!done && options.timeout_seconds > 0 &&
          elapsed > options.timeout_seconds) {
        kill(r.pid, SIGKILL);
        r.timed_out = true;
        done = true;
      }
      if (!done) {
        ++k;
        continue;
      }
      close(r.fd);
      int status = 0;
      while (waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
      }
      results[r.index] = Finish(r, status, options.timeout_seconds);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
      polls.erase(polls.begin() + static_cast<std::ptrdiff_t>(k));
    }
    while (next_print < files.size() && results[next_print].has_value()) {
      const ConformResult& r = *results[next_print];
      std::printf("%s\n", ConformLine(files[next_print], r).c_str());
      std::fflush(stdout);
      switch (r.outcome) {
        case ConformOutcome::kPass:
          ++passed;
          break;
        case ConformOutcome::kFail:
          ++failed;
          break;
        case ConformOutcome::kUnsupported:
          ++unsupported;
          break;
      }
      ++next_print;
    }
  }
  std::printf("conform: %d passed, %d failed, %d unsupported of %zu\n", passed,
              failed, unsupported, files.size());
  return failed > 0 ? 1 : 0;
}

}  // namespace aotc
