// Shape inference: the result shape of an instruction from its opcode,
// operand shapes, attributes and called computations.
//
// Used by the verifier (declared shape must agree) and by the text parser
// for instructions written without a result shape. The inferred shape has
// the default layout; callers compare with Shape::Compatible.
#ifndef AOTC_COMPILER_IR_SHAPE_INFERENCE_H_
#define AOTC_COMPILER_IR_SHAPE_INFERENCE_H_

#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"

namespace aotc {

// The shape `inst` must have, or an error message without location (the
// caller locates it) explaining which operand or attribute is inconsistent,
// e.g. "operand 1 has shape f32[4], expected f32[8]". Opcodes whose result
// cannot be inferred from the IR (parameter, constant, custom-call, ...)
// return inst.shape() unchanged.
absl::StatusOr<Shape> InferShape(const Instruction& inst);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_SHAPE_INFERENCE_H_
