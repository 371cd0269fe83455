// `aotc eval MODEL [inputs]`: run the reference evaluator and report or save
// the results. The error and result reporting shared with `aotc run` and
// `aotc compile` lives here too.
#include <cstdio>

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
  std::fprintf(stderr, "%s\n", std::string(status.message()).c_str());
  return 1;
}

int ReportResults(const std::vector<const Literal*>& results,
                  const std::string& output_dir) {
  if (!output_dir.empty()) {
    if (absl::Status st = EnsureDirectory(output_dir); !st.ok()) {
      return ReportError(st);
    }
  }
  for (size_t i = 0; i < results.size(); ++i) {
    const Literal& leaf = *results[i];
    std::string line =
        absl::StrCat("result", i, ": ", leaf.shape().ToString(false));
    if (leaf.shape().IsArray() && leaf.element_count() <= kPrintLimit) {
      absl::StrAppend(&line, " ", LiteralToString(leaf));
    }
    if (!output_dir.empty()) {
      std::string path = absl::StrCat(output_dir, "/result", i, ".npy");
      absl::StatusOr<std::string> bytes = WriteNpy(leaf);
      if (!bytes.ok()) return ReportError(bytes.status());
      if (absl::Status st = WriteFileAtomically(path, *bytes); !st.ok()) {
        return ReportError(st);
      }
      absl::StrAppend(&line, " -> ", path);
    }
    std::printf("%s\n", line.c_str());
  }
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
