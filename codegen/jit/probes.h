// This machine's bounds, measured where a model runs (`aotc run --profile`):
// the multiply-add peak of one core and the read bandwidth of one thread.
// The compiled code is what they compare with, so the peak is measured with
// code compiled by the same LLVM for the same CPU, at its widest vector.
#ifndef AOTC_CODEGEN_JIT_PROBES_H_
#define AOTC_CODEGEN_JIT_PROBES_H_

#include "absl/status/statusor.h"

namespace aotc::codegen {

// GFLOP/s of independent chains of vector fused multiply-adds (2 FLOPs per
// lane), the best of a few short runs on the calling thread: twelve chains
// of the target's widest f32 vector, enough to cover the FMA latency on
// current x86-64 and AArch64 cores.
absl::StatusOr<double> MeasureFmaPeakGflops();

// GB/s of one thread summing a buffer much larger than the caches, the best
// of a few passes.
double MeasureReadBandwidthGBps();

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_JIT_PROBES_H_
