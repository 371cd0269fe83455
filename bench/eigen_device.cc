// The Eigen thread pool behind EigenAssign().
#include "eigen_device.h"

namespace aotc::bench {

const Eigen::ThreadPoolDevice& EigenPoolDevice() {
  static Eigen::ThreadPool pool(2);
  static const Eigen::ThreadPoolDevice device(&pool, 2);
  return device;
}

}  // namespace aotc::bench
