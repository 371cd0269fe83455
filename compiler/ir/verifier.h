// Verifier: checks that a module is well formed before anything uses it.
//
// Checks every instruction's shape against shape inference (shape_inference.h)
// for its operands and attributes, operand counts against the opcode table,
// parameter numbering (0..n-1, no gaps or duplicates, matching the callers'
// operands), instruction names unique within each computation, unique
// computation names, that called computations exist with fitting signatures,
// that there are no call cycles, and that an entry computation exists. Runs
// after every front end and, in tests, after every pass.
#ifndef AOTC_COMPILER_IR_VERIFIER_H_
#define AOTC_COMPILER_IR_VERIFIER_H_

#include "absl/status/status.h"
#include "compiler/ir/module.h"

namespace aotc {

// OK, or InvalidArgument whose message holds one located error per failure
// (FormatError, see diagnostic.h), separated by newlines.
absl::Status VerifyModule(const Module& module);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_VERIFIER_H_
