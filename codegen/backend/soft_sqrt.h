// Square roots for targets without hardware floats.
//
// LLVM lowers llvm.sqrt on a soft-float type to a call of the C library's
// sqrt / sqrtf, which a bare-metal program may not have (and which would be
// the one libm function a model object needs). ReplaceSoftFloatSqrt, run on
// the lowered module before optimization, replaces every scalar llvm.sqrt
// call of a type the target computes in software (TargetInfo) with a call
// of an internal function: Newton's iteration from an exponent-halving first
// guess, in the compiler runtime's soft-float arithmetic, within an ulp or
// two of the correctly rounded root (the tolerance of docs/cli.md covers
// it). Vector sqrt calls are left alone: soft-float targets get scalar code
// (TargetInfo::vector_bytes is 0).
#ifndef AOTC_CODEGEN_BACKEND_SOFT_SQRT_H_
#define AOTC_CODEGEN_BACKEND_SOFT_SQRT_H_

#include "codegen/backend/target_info.h"

namespace llvm {
class Module;
}

namespace aotc::codegen {

// Returns whether any call was replaced.
bool ReplaceSoftFloatSqrt(llvm::Module& m, const TargetInfo& target);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_BACKEND_SOFT_SQRT_H_
