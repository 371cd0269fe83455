// `aotc eval MODEL [inputs]`: run the reference evaluator and report or save
// the results. The error and result reporting shared with `aotc run` and
// `aotc compile` lives here too.
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/load_module.h"
#include "compiler/ir/printer.h"
#include "compiler/support/file_io.h"
#include "compiler/support/strings.h"
#include "tools/commands.h"
#include "tools/npy.h"

namespace aotc {
namespace {

// Results with at most this many elements are printed in full.
constexpr int64_t kPrintLimit = 64;

}  // namespace

int ReportError(const absl::Status& status) {
  // Errors about a file or a source location already say where they come
  // from ("FILE: error: ...", "FILE:LINE:COL: error: ..."); any other
  // error is the tool's own.
  const std::string message(status.message());
  const std::string first_line = message.substr(0, message.find('\n'));
  const bool located = first_line.find(": error: ") != std::string::npos;
  std::fprintf(stderr, "%s%s\n", located ? "" : "aotc: error: ",
               message.c_str());
  return 1;
}

int ReportResults(const std::vector<const Literal*>& results,
                  const std::string& output_dir) {
  if (!output_dir.empty()) {
    if (absl::Status st = EnsureDirectory(output_dir); !st.ok()) {
      return ReportError(st);
    }
  }
  // Every .npy is encoded first and the files are written as one set, so
  // an error leaves the previous results untouched.
  std::vector<std::string> lines, paths, bytes;
  for (size_t i = 0; i < results.size(); ++i) {
    const Literal& leaf = *results[i];
    std::string line =
        absl::StrCat("result", i, ": ", leaf.shape().ToString(false));
    if (leaf.shape().IsArray() && leaf.element_count() <= kPrintLimit) {
      absl::StrAppend(&line, " ", LiteralToString(leaf));
    }
    if (!output_dir.empty()) {
      std::string path = absl::StrCat(output_dir, "/result", i, ".npy");
      absl::StatusOr<std::string> npy = WriteNpy(leaf);
      if (!npy.ok()) return ReportError(npy.status());
      absl::StrAppend(&line, " -> ", path);
      paths.push_back(std::move(path));
      bytes.push_back(*std::move(npy));
    }
    lines.push_back(std::move(line));
  }
  std::vector<std::pair<std::string, std::string_view>> files;
  for (size_t i = 0; i < paths.size(); ++i) files.push_back({paths[i], bytes[i]});
  if (absl::Status st = WriteFilesAtomically(files); !st.ok()) {
    return ReportError(st);
  }
  for (const std::string& line : lines) std::printf("%s\n", line.c_str());
  return 0;
}

int RunEval(const EvalOptions& options) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      LoadModuleFromFile(options.model);
  if (!module.ok()) return ReportError(module.status());
  absl::StatusOr<std::vector<Literal>> args =
      BindInputs(*(*module)->entry(), options.inputs);
  if (!args.ok()) return ReportError(args.status());
  EvaluateOptions eval_options;
  eval_options.max_work = options.max_work;
  absl::StatusOr<Literal> result = EvaluateModule(**module, *args, eval_options);
  if (!result.ok()) return ReportError(result.status());
  return ReportResults(result->Leaves(), options.output_dir);
}

}  // namespace aotc
