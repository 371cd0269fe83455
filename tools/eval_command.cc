// `aotc eval MODEL [inputs]`: run the reference evaluator and report or save
// the results.
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

void Leaves(const Literal& lit, std::vector<const Literal*>* out) {
  if (!lit.IsTuple()) {
    out->push_back(&lit);
    return;
  }
  for (const Literal& e : lit.tuple_elements()) Leaves(e, out);
}

int Fail(const absl::Status& status) {
  std::fprintf(stderr, "%s\n", std::string(status.message()).c_str());
  return 1;
}

}  // namespace

int RunEval(const EvalOptions& options) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      LoadModuleFromFile(options.model);
  if (!module.ok()) return Fail(module.status());
  absl::StatusOr<std::vector<Literal>> args =
      BindInputs(*(*module)->entry(), options.inputs);
  if (!args.ok()) return Fail(args.status());
  EvaluateOptions eval_options;
  eval_options.max_work = options.max_work;
  absl::StatusOr<Literal> result = EvaluateModule(**module, *args, eval_options);
  if (!result.ok()) return Fail(result.status());

  std::vector<const Literal*> leaves;
  Leaves(*result, &leaves);
  if (!options.output_dir.empty()) {
    if (absl::Status st = EnsureDirectory(options.output_dir); !st.ok()) {
      return Fail(st);
    }
  }
  for (size_t i = 0; i < leaves.size(); ++i) {
    const Literal& leaf = *leaves[i];
    std::string line = absl::StrCat("result", i, ": ", leaf.shape().ToString(false));
    if (leaf.shape().IsArray() && leaf.element_count() <= kPrintLimit) {
      absl::StrAppend(&line, " ", LiteralToString(leaf));
    }
    if (!options.output_dir.empty()) {
      std::string path = absl::StrCat(options.output_dir, "/result", i, ".npy");
      absl::StatusOr<std::string> bytes = WriteNpy(leaf);
      if (!bytes.ok()) return Fail(bytes.status());
      if (absl::Status st = WriteFileAtomically(path, *bytes); !st.ok()) {
        return Fail(st);
      }
      absl::StrAppend(&line, " -> ", path);
    }
    std::printf("%s\n", line.c_str());
  }
  return 0;
}

}  // namespace aotc
