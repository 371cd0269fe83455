// Profile counters compiled into a model (CompileOptions::profile, `aotc
// compile --profile`, `aotc run --profile`).
//
// Every instruction that writes buffers of its own (a fused region, a
// product, a reduction...) becomes a region: the code reads a tick counter
// before and after the region's loops and adds the difference and one call
// to the region's pair of counters. The counters are one external array,
//   uint64_t NAME_profile[2 * (NAME_PROFILE_REGIONS + 1)],
// pairs of (ticks, calls): pair 0 is the whole NAME_run call, pair k + 1
// region k; NAME_profile_names[k] names pair k ("NAME_run", then
// "instruction (strategy)"). A region's loops split over threads are timed
// on the calling thread around the whole split, so its ticks are wall time. Regions of
// a while body or a called computation count every execution. The ticks are
// the target's cycle or steady counter: rdtsc on x86-64 (constant rate on
// current cores), CNTVCT_EL0 on AArch64; other targets call
// `uint64_t aotc_profile_ticks(void)`, which the program defines (a
// firmware's timer). Their rate is unknown to the object: a reader converts
// with the wall time of the whole runs (pair 0), as `aotc run --profile`
// does.
//
// The counters are plain loads and stores, not atomics: calls of a
// profiled model from several threads at once may lose counts.
#ifndef AOTC_CODEGEN_EMIT_PROFILE_H_
#define AOTC_CODEGEN_EMIT_PROFILE_H_

#include <string>
#include <vector>

#include "codegen/header/signature.h"
#include "compiler/ir/instruction.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace aotc::codegen {

// What a region moves and computes, estimated from its HLO: the bytes of
// its operands and results, each read or written once (the least traffic
// the region can have), and the multiply-adds of the products and
// convolutions it contains, counted as 2 floating-point operations each.
// Element-wise arithmetic is not counted as FLOPs: such regions are bounded
// by their bytes.
struct RegionCost {
  double flops = 0;
  double bytes = 0;
};
RegionCost EstimateCost(const Instruction& inst);

class ProfileCounters {
 public:
  // Counters of the module `m`, named `name`_profile.
  ProfileCounters(llvm::Module& m, const std::string& name);

  // Registers the region of `inst`, planned with strategy `strategy`; returns
  // its pair's index (1, 2, ...).
  int AddRegion(const Instruction& inst, std::string_view strategy);

  // The current tick count, at the builder's insertion point.
  llvm::Value* Now(llvm::IRBuilderBase& b);
  // Adds the ticks since `start` (a Now() value) and one call to pair `pair`
  // (0: the whole run).
  void Add(llvm::IRBuilderBase& b, int pair, llvm::Value* start);

  // Defines the counter array, sized for the regions added so far, and the
  // names array; call once, after the last region's code is emitted.
  void Finish();

  const std::vector<ProfileRegion>& regions() const { return regions_; }

 private:
  llvm::Module& module_;
  std::string symbol_;
  std::string run_symbol_;
  // Uses of the array point here until Finish() defines it.
  llvm::GlobalVariable* placeholder_;
  std::vector<ProfileRegion> regions_;
};

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_EMIT_PROFILE_H_
