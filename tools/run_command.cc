// `aotc run MODEL [inputs]`: compile a model for this host, link the object
// in memory (codegen/jit/jit_runner.h) and run it; optionally check it against
// the reference evaluator and time it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "aotc/runtime.h"
#include "codegen/header/c_names.h"
#include "codegen/jit/jit_runner.h"
#include "codegen/jit/probes.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/load_module.h"
#include "compiler/support/file_io.h"
#include "compiler/support/status_macros.h"
#include "llvm/Support/DynamicLibrary.h"
#include "tools/commands.h"
#include "tools/compare.h"
#include "tools/npy.h"
#include "tools/profile_report.h"
#include "tools/thread_pool.h"

namespace aotc {
namespace {

// Regions `aotc run --profile` lists; the rest are summed in one line.
constexpr int kProfileRows = 30;

// The evaluator's answer for --check: the oracle mode, values with error
// budgets; under --strict-fp, whose code sums in the plain mode's order,
// with sequential sums.
absl::StatusOr<OracleValue> Expected(const Module& module,
                                     const std::vector<Literal>& args,
                                     int64_t max_work, bool strict_fp) {
  EvaluateOptions eval_options;
  eval_options.max_work = max_work;
  eval_options.wide_sums = !strict_fp;
  return EvaluateOracle(module, args, eval_options);
}

// Prints `line` (what was compared), then ": ok" or ": MISMATCH ..." with
// the first differing element. Returns c.ok().
bool PrintVerdict(const Comparison& c, std::string line) {
  absl::StrAppend(&line, ": ");
  if (c.ok()) {
    absl::StrAppend(&line, "ok");
    // NaN matches NaN: say how much of the agreement that is.
    if (c.both_nan > 0) {
      absl::StrAppend(&line, " (", c.both_nan, " of ", c.elements,
                      " elements NaN on both sides)");
    }
  } else {
    absl::StrAppend(&line, "MISMATCH in ", c.mismatches, " of ", c.elements,
                    " elements; first ", c.first_mismatch);
  }
  std::printf("%s\n", line.c_str());
  return c.ok();
}

// Compares every result with Expected(); prints one line per result.
// Returns false on any mismatch.
bool Check(const Module& module, const std::vector<Literal>& args,
           const std::vector<Literal>& results, int64_t max_work,
           bool strict_fp, absl::Status* error) {
  absl::StatusOr<OracleValue> expected =
      Expected(module, args, max_work, strict_fp);
  if (!expected.ok()) {
    *error = expected.status();
    return false;
  }
  const std::vector<const Literal*> leaves = expected->value.Leaves();
  bool ok = true;
  for (size_t k = 0; k < results.size(); ++k) {
    const PrimitiveType type = results[k].shape().element_type();
    const Tolerance tol = DefaultTolerance(type);
    const Literal& bound = expected->bounds[k];
    const Comparison c = CompareLiterals(results[k], *leaves[k], tol, &bound);
    double max_budget = 0;
    for (double b : bound.data<double>()) {
      if (std::isfinite(b)) max_budget = std::max(max_budget, b);
    }
    std::string line = absl::StrCat(
        "check result", k, ": max abs error ", c.max_abs_error,
        ", max rel error ", c.max_rel_error, ", error budget up to ",
        max_budget, " (at most ", absl::StrFormat("%.3g", c.max_error_ratio),
        " of it)");
    if (c.by_tolerance > 0) {
      absl::StrAppend(&line, " (", c.by_tolerance, " of ", c.elements,
                      " elements without a budget: tolerance abs ", tol.abs,
                      " + rel ", tol.rel, ")");
    }
    if (c.infinite_budget > 0) {
      absl::StrAppend(&line, " (", c.infinite_budget,
                      " of them with an infinite budget)");
    }
    ok = PrintVerdict(c, line) && ok;
  }
  return ok;
}

// Compares every result with its --expect file; prints one line per result.
// Returns false on any mismatch (or sets *error: a file that cannot be read
// or does not fit its result).
bool CheckExpected(const std::vector<Literal>& results,
                   const std::vector<std::string>& files, absl::Status* error) {
  if (files.size() != results.size()) {
    *error = absl::InvalidArgumentError(
        absl::StrCat("--expect gives ", files.size(), " file(s), but the model "
                     "has ", results.size(), " result(s)"));
    return false;
  }
  bool ok = true;
  for (size_t k = 0; k < results.size(); ++k) {
    absl::StatusOr<std::string> bytes = ReadFile(files[k]);
    if (!bytes.ok()) {
      *error = bytes.status();
      return false;
    }
    absl::StatusOr<Literal> expected =
        ReadNpyFor(*bytes, files[k], results[k].shape(),
                   absl::StrCat("result ", k));
    if (!expected.ok()) {
      *error = expected.status();
      return false;
    }
    const Tolerance tol = DefaultTolerance(results[k].shape().element_type());
    const Comparison c = CompareLiterals(results[k], *expected, tol);
    std::string line = absl::StrCat(
        "expect result", k, " (", files[k], "): max abs error ",
        c.max_abs_error, ", max rel error ", c.max_rel_error,
        " (tolerance abs ", tol.abs, " + rel ", tol.rel, ", at most ",
        absl::StrFormat("%.3g", c.max_error_ratio), " of it)");
    ok = PrintVerdict(c, line) && ok;
  }
  return ok;
}

}  // namespace

int RunRun(const RunCommandOptions& options) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      LoadModuleFromFile(options.model);
  if (!module.ok()) return ReportError(module.status());
  // The reference evaluator runs the module as read, so --check also
  // checks the optimization passes.
  absl::StatusOr<std::unique_ptr<Module>> optimized =
      LoadModuleFromFile(options.model);
  if (!optimized.ok()) return ReportError(optimized.status());
  if (int code = OptimizeForCodegen(**optimized, options.passes); code != 0) {
    return code;
  }
  codegen::CompileOptions copts;
  copts.name = codegen::ModelNameFromPath(options.model);
  copts.opt_level = options.opt_level;
  copts.strict_fp = options.passes.strict_fp;
  copts.l1_cache_bytes = options.l1_cache_bytes;
  copts.l2_cache_bytes = options.l2_cache_bytes;
  copts.profile = options.profile;
  absl::StatusOr<codegen::CompiledModel> compiled =
      codegen::CompileModule(**optimized, copts);
  if (!compiled.ok()) return ReportError(compiled.status());
  // Inputs are bound after compiling: a model that does not compile fails
  // before any (possibly large) input is read or generated.
  absl::StatusOr<std::vector<Literal>> args =
      BindInputs(*(*module)->entry(), options.inputs);
  if (!args.ok()) return ReportError(args.status());
  // Loaded globally, so the linker finds their functions in this process.
  for (const std::string& library : options.libraries) {
    std::string error;
    if (llvm::sys::DynamicLibrary::LoadLibraryPermanently(library.c_str(),
                                                          &error)) {
      return ReportError(absl::InvalidArgumentError(
          absl::StrCat("cannot load library '", library, "': ", error)));
    }
  }
  absl::StatusOr<std::unique_ptr<codegen::LoadedModel>> loaded =
      codegen::LoadedModel::Load(*compiled);
  if (!loaded.ok()) return ReportError(loaded.status());
  absl::StatusOr<std::unique_ptr<codegen::LoadedModel::Session>> session =
      (*loaded)->Prepare(*args);
  if (!session.ok()) return ReportError(session.status());
  // The pool serves every run below, the first and the timed ones.
  std::unique_ptr<ThreadPool> pool;
  if (options.threads > 1) {
    pool = std::make_unique<ThreadPool>(options.threads);
    aotc_set_parallel_for(&ThreadPool::Hook, pool.get());
  }
  struct UninstallHook {
    bool installed;
    ~UninstallHook() {
      if (installed) aotc_set_parallel_for(nullptr, nullptr);
    }
  } uninstall{pool != nullptr};
  const int status = (*session)->Run();
  if (status != 0) {
    return ReportError(absl::InternalError(
        absl::StrCat("the compiled model returned status ", status, ": ",
                     aotc_status_message(status))));
  }
  const std::vector<Literal> results = (*session)->Results();

  std::vector<const Literal*> leaves;
  for (const Literal& r : results) leaves.push_back(&r);
  if (int code = ReportResults(leaves, options.output_dir); code != 0) {
    return code;
  }

  // The timed runs: --bench N of them, or one for --profile alone. The
  // profile counts only these, not the first run's page faults.
  const int64_t timed = options.bench > 0 ? options.bench : options.profile;
  uint64_t* counters = (*loaded)->profile_counters();
  const size_t counter_count =
      2 * ((*loaded)->signature().profile_regions.size() + 1);
  if (counters != nullptr) std::fill(counters, counters + counter_count, 0);
  std::vector<double> ms;
  for (int64_t i = 0; i < timed; ++i) {
    const auto start = std::chrono::steady_clock::now();
    (*session)->Run();
    const auto end = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  if (options.bench > 0) {
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    std::printf("bench: %lld runs, min %.3f ms, median %.3f ms\n",
                static_cast<long long>(options.bench), sorted.front(),
                sorted[sorted.size() / 2]);
  }
  if (options.profile && counters != nullptr) {
    double wall_ms = 0;
    for (double t : ms) wall_ms += t;
    const ProfileReport report = BuildProfileReport(
        (*loaded)->signature(), counters, timed, wall_ms / 1e3);
    // The bounds are measured after the runs, on this thread alone.
    absl::StatusOr<double> peak = codegen::MeasureFmaPeakGflops();
    if (!peak.ok()) return ReportError(peak.status());
    const double bandwidth = codegen::MeasureReadBandwidthGBps();
    std::printf("%s", FormatProfileReport(report, kProfileRows, *peak,
                                          bandwidth).c_str());
  }

  bool differ = false;
  if (!options.expect.empty()) {
    absl::Status error;
    if (!CheckExpected(results, options.expect, &error)) {
      if (!error.ok()) return ReportError(error);
      std::fprintf(stderr, "aotc: error: results differ from the --expect "
                           "files beyond the tolerance\n");
      differ = true;
    }
  }
  if (options.check) {
    absl::Status error;
    if (!Check(**module, *args, results, options.max_work,
               options.passes.strict_fp, &error)) {
      if (!error.ok()) return ReportError(error);
      std::fprintf(stderr, "aotc: error: results differ from the reference "
                           "evaluator beyond the error budget\n");
      differ = true;
    }
  }
  return differ ? 1 : 0;
}

}  // namespace aotc
