// `aotc inspect MODEL`: parse, verify and print a model with a summary;
// with --after PASS the module after that optimization pass, with --fusion,
// --memory, --strategies and --dot the reports of the optimized module.
//
// --strategies answers "which loops will compile write for this?" from the
// strategies' own planning (codegen/strategy.h) on the host's target, so
// the golden tests of a strategy check that it fired without reading IR.
#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "codegen/backend/target_machine.h"
#include "codegen/compile.h"
#include "codegen/strategies/external_call.h"
#include "codegen/strategy.h"
#include "compiler/analysis/buffer_assignment.h"
#include "compiler/analysis/composite.h"
#include "compiler/analysis/fusion_report.h"
#include "compiler/frontend/load_module.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/pipelines.h"
#include "compiler/support/file_io.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"
#include "llvm/Target/TargetMachine.h"
#include "tools/commands.h"

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

namespace {

// The target the strategies plan for: this host, as `aotc compile` without
// target flags sees it. Which strategy applies never depends on the target
// (only tiles and scratch do), so the report is the same on every machine.
absl::StatusOr<codegen::TargetInfo> HostTarget(bool strict_fp) {
  codegen::CompileOptions options;
  options.strict_fp = strict_fp;
  ASSIGN_OR_RETURN(const codegen::ResolvedTarget resolved,
                   codegen::ResolveTarget(options.target_triple, options.cpu,
                                          options.features));
  ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> tm,
                   codegen::CreateTargetMachine(resolved, options.pic,
                                                options.opt_level));
  return codegen::PlanningTarget(*tm, options);
}

// How the line of a while, conditional or call names the computations it
// runs as functions of their own: "condition c, body b", "branches t, f",
// "calls f".
std::string CalleesNote(const Instruction& inst, ValueKind kind) {
  if (kind == ValueKind::kWhile) {
    return absl::StrCat("condition ", inst.while_condition()->name(),
                        ", body ", inst.while_body()->name());
  }
  std::vector<std::string> names;
  for (const Computation* c : inst.called_computations()) {
    names.push_back(c->name());
  }
  return absl::StrCat(kind == ValueKind::kCall ? "calls " : "branches ",
                      absl::StrJoin(names, ", "));
}

// An external call's function, and the composite it stands for when it was
// one (--composite-kernel): "composite my.gelu -> my_gelu".
std::string ExternalCallNote(const Instruction& inst) {
  const std::string& target = inst.custom_call_target();
  if (const std::string* fa = inst.FindRawAttribute("frontend_attributes")) {
    if (auto entries = ParseFrontendAttributes(*fa); entries.ok()) {
      for (const auto& [key, value] : *entries) {
        if (key == "composite.name") {
          return absl::StrCat("composite ", value, " -> ", target);
        }
      }
    }
  }
  return target;
}

// A fusion's region as --fusion names it: "kOutput: dot+bias+relu".
std::string RegionNote(const FusionRegion& r) {
  return absl::StrCat(Sv(FusionKindName(r.kind)),
                      r.multi_output ? ", multi-output" : "",
                      r.pattern.empty() ? "" : ": ", r.pattern);
}

// One heading per computation that runs as a buffer function (the entry
// first, then the computations it runs, in the order they are met), then
// one line per instruction of its schedule that compile writes code for:
// the strategy that computes it, or the control flow it runs. Parameters,
// array constants and values that alias their operand's bytes need no code
// and are left out.
absl::StatusOr<std::string> StrategyReport(const Module& module,
                                           const codegen::TargetInfo& target) {
  std::map<std::pair<std::string, std::string>, std::string> regions;
  for (const FusionRegion& r : FusionRegions(module)) {
    regions[{r.computation, r.name}] = RegionNote(r);
  }
  std::string out;
  std::deque<const Computation*> pending = {module.entry()};
  std::set<const Computation*> seen = {module.entry()};
  while (!pending.empty()) {
    const Computation& comp = *pending.front();
    pending.pop_front();
    absl::StrAppend(&out, "strategies of ", comp.name(), ":\n");
    for (const Instruction* inst : AssignBuffers(comp).schedule) {
      const ValueKind kind = ClassifyValue(*inst);
      const bool control = kind == ValueKind::kWhile ||
                           kind == ValueKind::kConditional ||
                           kind == ValueKind::kCall;
      if (kind != ValueKind::kOwned && !control) continue;
      std::string what, note;
      if (control) {
        what = std::string(OpcodeName(inst->opcode()));
        note = CalleesNote(*inst, kind);
        for (const Computation* c : inst->called_computations()) {
          if (seen.insert(c).second) pending.push_back(c);
        }
      } else {
        ASSIGN_OR_RETURN(const codegen::StrategyPlan plan,
                         codegen::PlanInstruction(*inst, target));
        what = std::string(plan.name);
        auto region = regions.find({comp.name(), inst->name()});
        if (region != regions.end()) note = region->second;
        if (codegen::IsExternalCustomCall(*inst)) note = ExternalCallNote(*inst);
      }
      absl::StrAppend(&out, "  %", inst->name(), " = ",
                      inst->shape().ToString(false), " ",
                      Sv(OpcodeName(inst->opcode())), "(...): ", what);
      if (!note.empty()) absl::StrAppend(&out, "  (", note, ")");
      absl::StrAppend(&out, "\n");
    }
  }
  return out;
}

}  // namespace

int RunInspect(const InspectOptions& options) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      LoadModuleFromFile(options.model);
  if (!module.ok()) return ReportError(module.status());
  const bool optimize = !options.after.empty() || options.fusion ||
                        options.memory || options.strategies ||
                        !options.dot.empty() ||
                        options.passes.print_ir_after_all ||
                        options.passes.pass_timing;
  if (!options.after.empty()) {
    if (absl::Status st = CheckPassName(options.after); !st.ok()) {
      std::fprintf(stderr, "aotc: error: --after: %s\n",
                   std::string(st.message()).c_str());
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
      o.composite_kernels = flags.composite_kernels;
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
    // The plan compile makes, scratch included, on this host; a model
    // compile refuses still gets its values' plan.
    const Computation& entry = *(*module)->entry();
    const absl::Status supported = codegen::CheckSupported(**module);
    absl::StatusOr<codegen::TargetInfo> target =
        supported.ok() ? HostTarget(options.passes.strict_fp)
                       : absl::StatusOr<codegen::TargetInfo>(supported);
    const absl::StatusOr<BufferPlan> plan =
        target.ok() ? codegen::PlanBuffersWithScratch(entry, *target)
                    : absl::StatusOr<BufferPlan>(target.status());
    std::printf("buffer plan of %s:\n%s", entry.name().c_str(),
                BufferPlanToString(plan.ok() ? *plan : AssignBuffers(entry))
                    .c_str());
    if (!plan.ok()) {
      std::printf("(values only, no scratch: %s)\n",
                  std::string(plan.status().message()).c_str());
    }
  }
  if (options.strategies) {
    // A model compile refuses gets compile's error, not a partial report.
    if (absl::Status st = codegen::CheckSupported(**module); !st.ok()) {
      return ReportError(st);
    }
    absl::StatusOr<codegen::TargetInfo> target =
        HostTarget(options.passes.strict_fp);
    if (!target.ok()) return ReportError(target.status());
    absl::StatusOr<std::string> report = StrategyReport(**module, *target);
    if (!report.ok()) return ReportError(report.status());
    std::printf("%s", report->c_str());
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
