#include "tools/profile_report.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"

namespace aotc {
namespace {

codegen::ModelSignature ThreeRegions() {
  codegen::ModelSignature sig;
  sig.name = "m";
  sig.profile = true;
  sig.profile_regions = {
      {"dot.1", "main", "gemm", 2e9, 1e8},
      {"fusion.2", "main", "element-loops", 0, 4e8},
      {"never", "body", "element-loops", 0, 1},
  };
  return sig;
}

TEST(ProfileReportTest, TicksBecomeSecondsAtTheWholeRunsRate) {
  const codegen::ModelSignature sig = ThreeRegions();
  // 2 runs, 1 s of wall time, 4e9 ticks: 4 GHz. dot.1: 1e9 ticks (0.25 s,
  // 0.125 s per run), once per run; fusion.2: 2e9 ticks (0.5 s), 3 calls
  // per run; "never" did not run.
  const uint64_t counters[] = {4'000'000'000, 2, 1'000'000'000, 2,
                               2'000'000'000, 6, 0, 0};
  const ProfileReport r = BuildProfileReport(sig, counters, 2, 1.0);
  EXPECT_DOUBLE_EQ(r.counter_hz, 4e9);
  EXPECT_DOUBLE_EQ(r.seconds_per_run, 0.5);
  EXPECT_DOUBLE_EQ(r.region_share, 0.75);
  ASSERT_EQ(r.rows.size(), 2u);
  // Longest first.
  EXPECT_EQ(r.rows[0].region->name, "fusion.2");
  EXPECT_DOUBLE_EQ(r.rows[0].seconds_per_run, 0.25);
  EXPECT_DOUBLE_EQ(r.rows[0].share, 0.5);
  EXPECT_DOUBLE_EQ(r.rows[0].calls_per_run, 3);
  // 6 calls x 4e8 bytes in 0.5 s.
  EXPECT_DOUBLE_EQ(r.rows[0].gbytes_per_second, 4.8);
  EXPECT_DOUBLE_EQ(r.rows[0].gflops, 0);
  EXPECT_EQ(r.rows[1].region->name, "dot.1");
  EXPECT_DOUBLE_EQ(r.rows[1].seconds_per_run, 0.125);
  // 2 calls x 2e9 FLOPs in 0.25 s.
  EXPECT_DOUBLE_EQ(r.rows[1].gflops, 16);
  EXPECT_DOUBLE_EQ(r.rows[1].gbytes_per_second, 0.8);
}

TEST(ProfileReportTest, TextListsRowsAgainstTheBoundsAndSumsTheRest) {
  const codegen::ModelSignature sig = ThreeRegions();
  const uint64_t counters[] = {4'000'000'000, 2, 1'000'000'000, 2,
                               2'000'000'000, 6, 0, 0};
  const ProfileReport r = BuildProfileReport(sig, counters, 2, 1.0);
  const std::string text = FormatProfileReport(r, 1, 32, 9.6);
  EXPECT_NE(text.find("2 run(s), 500.000 ms per run, counters at 4.000 GHz; "
                      "75.0% of the time in 2 region(s)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("FMA peak 32.0 GFLOP/s, read bandwidth 9.6 GB/s"),
            std::string::npos)
      << text;
  // fusion.2: 250 ms, 50%, 3 calls, no FLOPs, 4.8 GB/s = 0.5 of 9.6.
  EXPECT_NE(text.find("     1   250.000   50.0%   50.0%          3        -"
                      "        -    4.80    0.50  element-loops   fusion.2 "
                      "(main)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("dot.1"), std::string::npos) << text;
  EXPECT_NE(text.find("... 1 more region(s): 25.0%"), std::string::npos)
      << text;
}

TEST(ProfileReportTest, NoRunsGiveAnEmptyReport) {
  const codegen::ModelSignature sig = ThreeRegions();
  const uint64_t counters[8] = {};
  const ProfileReport r = BuildProfileReport(sig, counters, 0, 0);
  EXPECT_TRUE(r.rows.empty());
  EXPECT_EQ(r.counter_hz, 0);
}

}  // namespace
}  // namespace aotc
