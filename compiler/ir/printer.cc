// Scaffold: implemented with the text parser.
#include "compiler/ir/printer.h"
namespace aotc {
std::string PrintModule(const Module&) { return ""; }
std::string PrintComputation(const Computation&) { return ""; }
std::string PrintInstruction(const Instruction&) { return ""; }
std::string LiteralToString(const Literal&) { return ""; }
}  // namespace aotc
