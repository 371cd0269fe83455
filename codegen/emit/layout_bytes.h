// Moving array data between aotc's literals, which are always logical
// row-major, and the physical layout a shape's minor_to_major describes
// (what compiled code reads and writes).
#ifndef AOTC_CODEGEN_EMIT_LAYOUT_BYTES_H_
#define AOTC_CODEGEN_EMIT_LAYOUT_BYTES_H_

#include <string>

#include "compiler/ir/literal.h"

namespace aotc::codegen {

// The array literal's bytes in the physical order of `shape`'s layout
// (`shape` has the literal's dimensions and element type).
std::string PhysicalBytes(const Literal& literal, const Shape& shape);

// The literal of `shape` whose physical bytes are `bytes`
// (shape.ByteSize() of them).
Literal LiteralFromPhysical(const Shape& shape, const void* bytes);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_EMIT_LAYOUT_BYTES_H_
