// Limits on what a module may declare, checked as the module is read (before
// anything is allocated for it) and reported with a location. Together with
// kMaxRank and kMaxShapeNesting (shape.h) and the lexer's kMaxRawNesting
// they bound the memory and stack any input can make aotc use.
#ifndef AOTC_COMPILER_IR_LIMITS_H_
#define AOTC_COMPILER_IR_LIMITS_H_

#include <cstdint>

namespace aotc {

// Instructions in one module, all computations together (the front ends
// stop reading at the first one beyond).
inline constexpr int64_t kMaxInstructions = int64_t{1} << 20;

// Length of the longest chain of calls (while, conditional, call, fusion,
// to_apply...) from any computation: the verifier rejects deeper modules,
// so that nothing that walks the call graph recursively runs out of stack.
inline constexpr int kMaxComputationNesting = 128;

// The largest single array, in bytes, a shape may describe: 16 GiB unless
// SetMaxBufferBytes changed it (`aotc --max-buffer-bytes`). ValidateShape
// checks it, so a huge constant or parameter is refused before anything is
// allocated for it.
inline constexpr int64_t kDefaultMaxBufferBytes = int64_t{16} << 30;
int64_t MaxBufferBytes();
// `bytes` must be positive.
void SetMaxBufferBytes(int64_t bytes);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_LIMITS_H_
