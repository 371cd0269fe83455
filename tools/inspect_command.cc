// `aotc inspect MODEL`: parse, verify and print a model with a summary;
// with --after PASS the module after that optimization pass, with --fusion,
// --memory and --dot the reports of the optimized module.
#include "compiler/analysis/buffer_assignment.h"
#include "compiler/analysis/fusion_report.h"
#include "compiler/frontend/load_module.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/pipelines.h"
#include "compiler/support/file_io.h"
#include "compiler/support/strings.h"
#include "tools/commands.h"

#include <algorithm>
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
  const bool optimize = !options.after.empty() || options.fusion ||
                        options.memory || !options.dot.empty() ||
                        options.passes.print_ir_after_all ||
                        options.passes.pass_timing;
  if (!options.after.empty()) {
    const std::vector<std::string> names = OptimizationPassNames();
    if (std::find(names.begin(), names.end(), options.after) == names.end()) {
      std::fprintf(stderr, "aotc: error: --after: unknown pass '%s' (passes: %s)\n",
                   options.after.c_str(), absl::StrJoin(names, ", ").c_str());
      return 2;
    }
  }
  // The module as read, or after --after's pass; the reports and the
  // pipeline's own output (--print-ir-after-all, --pass-timing) come from
  // the whole pipeline.
  std::string text;
  if (optimize) {
    const PassFlags& flags = options.passes;
    if (int code = OptimizeForCodegen(**module, flags); code != 0) return code;
    // Print after the named pass: run the pipeline again on a fresh copy up
    // to that pass (cheap, and keeps OptimizeForCodegen simple).
    if (!options.after.empty()) {
      absl::StatusOr<std::unique_ptr<Module>> fresh =
          LoadModuleFromFile(options.model);
      if (!fresh.ok()) return ReportError(fresh.status());
      OptimizeOptions o;
      o.fusion = !flags.no_fusion;
      o.strict_fp = flags.strict_fp;
      o.disabled.insert(flags.disabled.begin(), flags.disabled.end());
      bool seen = false;
      o.after_pass = [&](std::string_view pass, bool, const Module& mm) {
        if (pass == options.after && !seen) {
          text = PrintModule(mm);
          seen = true;
        }
      };
      if (absl::Status st = OptimizeModule(**fresh, o).status(); !st.ok()) {
        return ReportError(st);
      }
      if (!seen) {
        std::fprintf(stderr,
                     "aotc: error: --after: pass '%s' did not run (disabled)\n",
                     options.after.c_str());
        return 2;
      }
    }
  } else {
    text = PrintModule(**module);
  }
  if (!text.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (text.back() != '\n') std::fputc('\n', stdout);
    std::printf("\n");
  }
  if (options.fusion) {
    std::printf("%s", FusionReportToString(FusionRegions(**module)).c_str());
  }
  if (options.memory) {
    std::printf("buffer plan of %s:\n%s", (*module)->entry()->name().c_str(),
                BufferPlanToString(AssignBuffers(*(*module)->entry())).c_str());
  }
  if (!options.dot.empty()) {
    if (absl::Status st = WriteFileAtomically(
            options.dot, ComputationToDot(*(*module)->entry()));
        !st.ok()) {
      return ReportError(st);
    }
    std::printf("wrote %s\n", options.dot.c_str());
  }
  std::printf("%s\n", ModuleSummary(**module).c_str());
  return 0;
}

}  // namespace aotc
