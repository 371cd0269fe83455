// `aotc opt MODEL [--passes=a,b,...]`: runs optimization passes on a model
// and prints the result as HLO text, so that one pass can be tried alone.
//
// The passes are those of the pipeline `compile` runs, by the names
// --pass-timing prints; without --passes, the whole pipeline. The verifier
// runs after every pass, as in `compile`. The output reads back: it is the
// printer's text of the module, without inspect's summary, so the golden
// tests of tests/passes/ pipe it into FileCheck.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "compiler/frontend/load_module.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/pipelines.h"
#include "compiler/support/file_io.h"
#include "tools/commands.h"

namespace aotc {

int RunOpt(const OptOptions& options) {
  // Pass names are checked before the model is read: a misspelt name is a
  // usage error whatever the model holds.
  for (const std::string& pass : options.passes.passes) {
    if (absl::Status st = CheckPassName(pass); !st.ok()) {
      std::fprintf(stderr, "aotc: error: --passes: %s\n",
                   std::string(st.message()).c_str());
      return 2;
    }
  }
  absl::StatusOr<std::unique_ptr<Module>> module =
      LoadModuleFromFile(options.model);
  if (!module.ok()) return ReportError(module.status());
  if (int code = OptimizeForCodegen(**module, options.passes); code != 0) {
    return code;
  }
  std::string text = PrintModule(**module);
  if (text.empty() || text.back() != '\n') text.push_back('\n');
  if (options.output.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  if (absl::Status st = WriteFileAtomically(options.output, text); !st.ok()) {
    return ReportError(st);
  }
  return 0;
}

}  // namespace aotc
