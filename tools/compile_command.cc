// `aotc compile MODEL -o DIR`: compile a model into DIR/NAME.o, NAME.h and
// NAME.json (and, on request, NAME.ll and NAME.s).
//
// Everything is produced in memory first; files are written only when the
// whole compilation succeeded, as one set (every temporary file complete
// before any is renamed over its target), so a failed compile leaves the
// previous outputs untouched and never a half-written file.
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "codegen/compile.h"
#include "codegen/header/c_names.h"
#include "compiler/frontend/load_module.h"
#include "compiler/support/file_io.h"
#include "tools/commands.h"

namespace aotc {
int RunCompile(const CompileCommandOptions& options) {
  codegen::CompileOptions copts = options.codegen;
  bool want_obj = false, want_header = false, want_json = false;
  for (absl::string_view kind : absl::StrSplit(options.emit, ',')) {
    if (kind == "obj") {
      want_obj = true;
    } else if (kind == "header") {
      want_header = true;
    } else if (kind == "json") {
      want_json = true;
    } else if (kind == "llvm") {
      copts.emit_llvm = true;
    } else if (kind == "asm") {
      copts.emit_asm = true;
    } else {
      std::fprintf(stderr,
                   "aotc: error: unknown --emit kind '%s' (expected obj, "
                   "header, json, llvm or asm)\n",
                   std::string(kind).c_str());
      return 2;
    }
  }
  absl::StatusOr<std::unique_ptr<Module>> module =
      LoadModuleFromFile(options.model);
  if (!module.ok()) return ReportError(module.status());
  if (copts.name.empty()) copts.name = codegen::ModelNameFromPath(options.model);
  if (int code = OptimizeForCodegen(**module, options.passes); code != 0) {
    return code;
  }
  absl::StatusOr<codegen::CompiledModel> compiled =
      codegen::CompileModule(**module, copts);
  if (!compiled.ok()) return ReportError(compiled.status());
  if (options.passes.pass_timing) {
    double total = 0;
    for (const auto& [stage, seconds] : compiled->stage_seconds) total += seconds;
    std::fprintf(stderr, "code generation timing (total %.3f ms):\n",
                 total * 1e3);
    for (const auto& [stage, seconds] : compiled->stage_seconds) {
      std::fprintf(stderr, "  %-27s %9.3f ms\n", stage.c_str(), seconds * 1e3);
      if (stage != "optimize and generate code") continue;
      // The parallel stage: its steps' CPU time, summed over partitions.
      std::fprintf(stderr, "    %d partitions on %d threads, CPU time:\n",
                   compiled->partitions, compiled->compile_threads);
      for (const auto& [step, step_seconds] : compiled->thread_seconds) {
        std::fprintf(stderr, "    %-25s %9.3f ms\n", step.c_str(),
                     step_seconds * 1e3);
      }
    }
  }

  std::vector<std::pair<std::string, const std::string*>> files;
  const std::string base = absl::StrCat(options.output_dir, "/", copts.name);
  if (want_obj) files.push_back({base + ".o", &compiled->object});
  if (want_header) files.push_back({base + ".h", &compiled->header});
  if (want_json) files.push_back({base + ".json", &compiled->json});
  if (copts.emit_llvm) files.push_back({base + ".ll", &compiled->llvm_ir});
  if (copts.emit_asm) files.push_back({base + ".s", &compiled->assembly});
  if (absl::Status st = EnsureDirectory(options.output_dir); !st.ok()) {
    return ReportError(st);
  }
  std::vector<std::pair<std::string, std::string_view>> to_write;
  for (const auto& [path, contents] : files) to_write.push_back({path, *contents});
  if (absl::Status st = WriteFilesAtomically(to_write); !st.ok()) {
    return ReportError(st);
  }
  std::printf("compiled %s for %s (%s): %zu arguments, %zu results, %lld "
              "temp bytes\n",
              copts.name.c_str(), compiled->signature.target_triple.c_str(),
              compiled->signature.cpu.c_str(), compiled->signature.args.size(),
              compiled->signature.results.size(),
              static_cast<long long>(compiled->signature.temp_bytes));
  const codegen::Footprint& f = compiled->signature.footprint;
  std::printf("  footprint: .text %lld bytes, .rodata %lld bytes, .data %lld "
              "bytes, .bss %lld bytes, temp %lld bytes\n",
              static_cast<long long>(f.text_bytes),
              static_cast<long long>(f.rodata_bytes),
              static_cast<long long>(f.data_bytes),
              static_cast<long long>(f.bss_bytes),
              static_cast<long long>(compiled->signature.temp_bytes));
  if (!f.constants_section.empty()) {
    std::printf("  constants: %lld bytes in section %s\n",
                static_cast<long long>(f.constants_section_bytes),
                f.constants_section.c_str());
  }
  for (const auto& [path, contents] : files) {
    std::printf("  wrote %s (%zu bytes)\n", path.c_str(), contents->size());
  }
  return 0;
}

}  // namespace aotc
