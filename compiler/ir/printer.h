// Printer: IR -> HLO text that the text parser reads back to an identical
// module (print -> parse -> print is the identity on the printed text).
//
// The output follows XLA's printer: `HloModule name, attrs...`, computations
// callees first, `ENTRY` on the entry, `ROOT` on roots, `%name = shape
// opcode(operands), attributes`. Array shapes always carry their layout.
#ifndef AOTC_COMPILER_IR_PRINTER_H_
#define AOTC_COMPILER_IR_PRINTER_H_

#include <string>

#include "compiler/ir/module.h"

namespace aotc {

std::string PrintModule(const Module& module);
std::string PrintComputation(const Computation& computation);
// One instruction without indentation or ROOT, e.g.
//   %add.1 = f32[4]{0} add(%x, %y), metadata={op_name="add"}
std::string PrintInstruction(const Instruction& inst);
// The literal text as it appears inside `constant(...)`.
std::string LiteralToString(const Literal& literal);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_PRINTER_H_
