// What fusion did, in numbers a person can check: each fused region's kind,
// the pattern of a product's epilogue, the instructions it absorbed, the bytes it reads and writes, and the bytes
// the same instructions would move unfused; plus a Graphviz view with one
// cluster per region.
#ifndef AOTC_COMPILER_ANALYSIS_FUSION_REPORT_H_
#define AOTC_COMPILER_ANALYSIS_FUSION_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/module.h"

namespace aotc {

struct FusionRegion {
  std::string computation;  // where the fusion instruction is
  std::string name;         // the fusion instruction
  FusionKind kind = FusionKind::kLoop;
  bool multi_output = false;  // a tuple of results (sibling reductions)
  // A dot or convolution's epilogue by name (DescribeProductEpilogue),
  // e.g. "dot+bias+gelu_tanh"; empty for other fusions.
  std::string pattern;
  std::vector<std::string> absorbed;  // fused instructions, in order
  int64_t bytes_read = 0;     // the fusion's array operands
  int64_t bytes_written = 0;  // its array results
  // Unfused, every absorbed instruction other than a scalar constant
  // writes its result and reads its operands once.
  int64_t unfused_bytes = 0;
  int64_t saved_bytes() const {
    return unfused_bytes - bytes_read - bytes_written;
  }
};

// The fusion instructions of every computation that is not itself fused.
std::vector<FusionRegion> FusionRegions(const Module& module);

// One block per region, then the totals.
std::string FusionReportToString(const std::vector<FusionRegion>& regions);

// `comp` as a Graphviz digraph: fusion instructions become clusters of the
// instructions they absorbed.
std::string ComputationToDot(const Computation& comp);

}  // namespace aotc

#endif  // AOTC_COMPILER_ANALYSIS_FUSION_REPORT_H_
