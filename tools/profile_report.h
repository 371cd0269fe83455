// `aotc run --profile`: the profile counters of timed runs
// (codegen/emit/profile.h) as time per region, sorted, with each region's
// share, calls and achieved GFLOP/s or GB/s against the machine's bounds.
#ifndef AOTC_TOOLS_PROFILE_REPORT_H_
#define AOTC_TOOLS_PROFILE_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/header/signature.h"

namespace aotc {

struct ProfileRow {
  const codegen::ProfileRegion* region = nullptr;
  double seconds_per_run = 0;
  double share = 0;          // of the whole run's ticks, 0..1
  double calls_per_run = 0;
  double gflops = 0;         // achieved; 0 when the region has no products
  double gbytes_per_second = 0;
};

struct ProfileReport {
  int64_t runs = 0;
  double seconds_per_run = 0;
  double counter_hz = 0;   // ticks per second, from the wall time
  double region_share = 0; // of the run's ticks spent in some region
  std::vector<ProfileRow> rows;  // longest first; regions never run omitted
};

// The report of `runs` runs that took `wall_seconds` together, from the
// counters `counters` (2 * (regions + 1) values, as NAME_profile holds them)
// of `sig`'s regions. Ticks convert to seconds at the rate pair 0 (the whole
// runs) shows against the wall time.
ProfileReport BuildProfileReport(const codegen::ModelSignature& sig,
                                 const uint64_t* counters, int64_t runs,
                                 double wall_seconds);

// The report as text: a summary line, the bounds line (when the bounds are
// positive), then at most `max_rows` rows and a line for the rest.
std::string FormatProfileReport(const ProfileReport& report, int max_rows,
                                double peak_gflops, double bandwidth_gbps);

}  // namespace aotc

#endif  // AOTC_TOOLS_PROFILE_REPORT_H_
