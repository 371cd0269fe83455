// Eigen's Tensor module for aotc_bench, with the thread count of the run.
//
// EigenAssign(dest, expr) evaluates a Tensor expression on the calling thread
// for a 1-thread run and on a ThreadPoolDevice of two threads otherwise, the
// Eigen counterpart of the hook UseThreads() installs for aotc. The target
// defines EIGEN_USE_THREADS for every file, as Eigen requires.
#ifndef AOTC_BENCH_EIGEN_DEVICE_H_
#define AOTC_BENCH_EIGEN_DEVICE_H_

#include <unsupported/Eigen/CXX11/Tensor>

#include "bench_util.h"

namespace aotc::bench {

// A device over a pool of two Eigen threads, created on first use.
const Eigen::ThreadPoolDevice& EigenPoolDevice();

template <typename Dest, typename Expr>
void EigenAssign(Dest& dest, const Expr& expr) {
  if (CurrentThreads() == 1) {
    dest = expr;
  } else {
    dest.device(EigenPoolDevice()) = expr;
  }
}

}  // namespace aotc::bench

#endif  // AOTC_BENCH_EIGEN_DEVICE_H_
