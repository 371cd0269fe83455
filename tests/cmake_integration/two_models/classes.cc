// The C++ side of the two-model test: both generated classes, in the same
// namespace, with AllocateBuffers() providing temp and the results.
#include <cstdio>

#include "affine.h"
#include "sum_squares.h"

extern "C" int RunWithClasses();

int RunWithClasses() {
  const float x4[models::Affine::kXElements] = {0.0f, 1.0f, -1.5f, 10.0f};
  models::Affine affine;
  affine.set_x(x4);
  const float x23[models::SumSquares::kXElements] = {-1, 0, 1, 2, -2, 0.5f};
  models::SumSquares sum_squares;
  sum_squares.set_x(x23);
  if (affine.AllocateBuffers() != 0 || sum_squares.AllocateBuffers() != 0 ||
      affine.Run() != 0 || sum_squares.Run() != 0) {
    std::printf("C++ classes: a call failed\n");
    return 1;
  }
  const float* y = affine.result0();
  float sum = *sum_squares.result0();
  std::printf("Affine: %g %g %g %g\nSumSquares: %g\n", y[0], y[1], y[2], y[3],
              sum);
  bool ok = y[0] == 1.0f && y[1] == 3.0f && y[2] == -2.0f && y[3] == 21.0f &&
            sum == 10.25f;
  std::printf("C++ classes: %s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
