// Profile reports of `aotc run --profile` (see profile_report.h).
#include "tools/profile_report.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace aotc {

ProfileReport BuildProfileReport(const codegen::ModelSignature& sig,
                                 const uint64_t* counters, int64_t runs,
                                 double wall_seconds) {
  ProfileReport report;
  report.runs = runs;
  if (runs <= 0 || wall_seconds <= 0) return report;
  report.seconds_per_run = wall_seconds / static_cast<double>(runs);
  const double total_ticks = static_cast<double>(counters[0]);
  if (total_ticks <= 0) return report;
  report.counter_hz = total_ticks / wall_seconds;
  double region_ticks = 0;
  for (size_t k = 0; k < sig.profile_regions.size(); ++k) {
    const double ticks = static_cast<double>(counters[2 * (k + 1)]);
    const double calls = static_cast<double>(counters[2 * (k + 1) + 1]);
    if (calls == 0) continue;
    region_ticks += ticks;
    ProfileRow row;
    row.region = &sig.profile_regions[k];
    const double seconds = ticks / report.counter_hz;
    row.seconds_per_run = seconds / static_cast<double>(runs);
    row.share = ticks / total_ticks;
    row.calls_per_run = calls / static_cast<double>(runs);
    if (seconds > 0) {
      row.gflops = row.region->flops * calls / seconds / 1e9;
      row.gbytes_per_second = row.region->bytes * calls / seconds / 1e9;
    }
    report.rows.push_back(row);
  }
  report.region_share = region_ticks / total_ticks;
  std::stable_sort(report.rows.begin(), report.rows.end(),
                   [](const ProfileRow& a, const ProfileRow& b) {
                     return a.seconds_per_run > b.seconds_per_run;
                   });
  return report;
}

std::string FormatProfileReport(const ProfileReport& report, int max_rows,
                                double peak_gflops, double bandwidth_gbps) {
  std::string out = absl::StrFormat(
      "profile: %d run(s), %.3f ms per run, counters at %.3f GHz; %.1f%% of "
      "the time in %d region(s)\n",
      report.runs, report.seconds_per_run * 1e3, report.counter_hz / 1e9,
      report.region_share * 100, static_cast<int>(report.rows.size()));
  if (peak_gflops > 0 && bandwidth_gbps > 0) {
    absl::StrAppendFormat(
        &out,
        "bounds (one thread, measured now): FMA peak %.1f GFLOP/s, read "
        "bandwidth %.1f GB/s\n",
        peak_gflops, bandwidth_gbps);
  }
  absl::StrAppend(&out,
                  "  rank    ms/run       %   cum %  calls/run  GFLOP/s  "
                  "of peak    GB/s   of bw  strategy        region\n");
  double cumulative = 0;
  const int shown = std::min<int>(max_rows, report.rows.size());
  for (int i = 0; i < shown; ++i) {
    const ProfileRow& r = report.rows[i];
    cumulative += r.share;
    std::string flops = "        -        -";
    if (r.region->flops > 0) {
      flops = absl::StrFormat("%9.2f", r.gflops);
      absl::StrAppend(&flops,
                      peak_gflops > 0
                          ? absl::StrFormat("%9.2f", r.gflops / peak_gflops)
                          : "        -");
    }
    const std::string bw =
        bandwidth_gbps > 0
            ? absl::StrFormat("%8.2f", r.gbytes_per_second / bandwidth_gbps)
            : "       -";
    absl::StrAppendFormat(&out,
                          "  %4d %9.3f %6.1f%% %6.1f%% %10.6g%s %7.2f%s  "
                          "%-15s %s (%s)\n",
                          i + 1, r.seconds_per_run * 1e3, r.share * 100,
                          cumulative * 100, r.calls_per_run, flops,
                          r.gbytes_per_second, bw, r.region->strategy,
                          r.region->name, r.region->computation);
  }
  if (shown < static_cast<int>(report.rows.size())) {
    double rest = 0;
    for (size_t i = shown; i < report.rows.size(); ++i) {
      rest += report.rows[i].share;
    }
    absl::StrAppendFormat(&out, "  ... %d more region(s): %.1f%%\n",
                          static_cast<int>(report.rows.size()) - shown,
                          rest * 100);
  }
  return out;
}

}  // namespace aotc
