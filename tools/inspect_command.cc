// `aotc inspect MODEL`: parse, verify and print a model with a summary.
#include "compiler/frontend/load_module.h"
#include "compiler/ir/printer.h"
#include "compiler/support/strings.h"
#include "tools/commands.h"

#include <cstdio>

namespace aotc {

std::string ModuleSummary(const Module& module) {
  const Computation& entry = *module.entry();
  std::vector<std::string> params;
  for (const Instruction* p : entry.parameters()) {
    params.push_back(absl::StrCat(p->name(), " ", p->shape().ToString(false)));
  }
  int64_t constant_bytes = 0;
  for (const auto& comp : module.computations()) {
    for (const auto& inst : comp->instructions()) {
      if (inst->opcode() != Opcode::kConstant) continue;
      for (const Shape* leaf : inst->shape().Leaves()) {
        if (leaf->IsArray()) constant_bytes += leaf->ByteSize();
      }
    }
  }
  return absl::StrCat(
      "module ", module.name(), ": ", module.instruction_count(),
      " instructions in ", module.computations().size(), " computations; ",
      "parameters: ", params.empty() ? "(none)" : absl::StrJoin(params, ", "),
      "; result: ", entry.root()->shape().ToString(false),
      "; constants: ", constant_bytes, " bytes");
}

int RunInspect(const InspectOptions& options) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      LoadModuleFromFile(options.model);
  if (!module.ok()) return ReportError(module.status());
  std::string text = PrintModule(**module);
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (!text.empty() && text.back() != '\n') std::fputc('\n', stdout);
  std::printf("\n%s\n", ModuleSummary(**module).c_str());
  return 0;
}

}  // namespace aotc
