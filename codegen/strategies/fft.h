// The "fft" strategy (strategy.h): the fft opcode, every type and 1 to 3
// transformed dimensions, as successive 1-D passes over the lines of a
// working copy in complex double (scratch), rounded to the result type at
// the end:
//
//   work = operand (FFT, IFFT, IRFFT) | rfft of each innermost line (RFFT)
//   for each transformed dimension still to do, each line along it:
//     line = the line; transform it in place; write it back (IFFT: / n)
//   result = work (IRFFT: the real inverse of each innermost line)
//
// A line of n = 2^k is transformed by the iterative radix-2 FFT: the
// bit-reversal permutation, then k butterfly stages reading a table of
// exp(-2 pi i j / n) (the inverse reads it conjugated). Any other n goes
// through Bluestein's chirp-z identity, j k = (j^2 + k^2 - (k - j)^2) / 2,
// as a cyclic convolution of length m = 2^k >= 2n - 1 made of two radix-2
// transforms of m; the chirp and the transform of its conjugate (divided
// by m) are constants. Every constant is computed at compile time in long
// double and stored as a table, so run time calls no library: O(n log n)
// per line for every n. IRFFT extends each innermost line by conjugate
// symmetry and keeps the real part, so the imaginary parts of X[0] and
// X[n/2] are ignored, as the evaluator's sum ignores them. Not split over
// threads.
#ifndef AOTC_CODEGEN_STRATEGIES_FFT_H_
#define AOTC_CODEGEN_STRATEGIES_FFT_H_

#include <optional>

#include "codegen/strategy.h"

namespace aotc::codegen {

std::optional<StrategyPlan> PlanFft(const Instruction &inst);

} // namespace aotc::codegen

#endif // AOTC_CODEGEN_STRATEGIES_FFT_H_
