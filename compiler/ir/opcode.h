// HLO opcodes and their properties, generated from opcode.def.
//
// Passes ask these predicates ("is it elementwise?", "is it commutative?")
// instead of switching over opcodes; adding an opcode or changing a property
// is a one-line edit of opcode.def.
#ifndef AOTC_COMPILER_IR_OPCODE_H_
#define AOTC_COMPILER_IR_OPCODE_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "compiler/ir/primitive_type.h"

namespace aotc {

enum class Opcode : uint8_t {
#define AOTC_OPCODE(e, text, arity, props, types, calls) e,
#include "compiler/ir/opcode.def"
#undef AOTC_OPCODE
};

inline constexpr int kVariadic = -1;

// Property flags of opcode.def (one letter each there).
enum OpProperty : uint32_t {
  kPropElementwise = 1u << 0,     // E
  kPropCommutative = 1u << 1,     // C
  kPropAssociative = 1u << 2,     // A
  kPropMovement = 1u << 3,        // M
  kPropTranscendental = 1u << 4,  // T
  kPropSideEffect = 1u << 5,      // S
  kPropCallsComputations = 1u << 6,  // K
  kPropCollective = 1u << 7,      // X
  kPropEvaluable = 1u << 8,       // V
  kPropElementalForm = 1u << 9,   // G
  kPropHeavy = 1u << 10,          // H
  kPropLoopMember = 1u << 11,     // L
};

// The element types an opcode's operands may have (opcode.def's types
// column).
enum class ElementTypeClass : uint8_t {
  kAny,             // Any
  kFloat,           // Fp
  kFloatOrComplex,  // FpC
  kInteger,         // Int
  kPredOrInteger,   // PredInt
};

int NumOpcodes();
std::string_view OpcodeName(Opcode op);
std::optional<Opcode> OpcodeFromName(std::string_view name);
// Fixed operand count, or kVariadic.
int OpcodeArity(Opcode op);
uint32_t OpcodeProperties(Opcode op);
ElementTypeClass OpcodeElementTypes(Opcode op);
// True when `type` is in `op`'s element-type class.
bool OpcodeAcceptsElementType(Opcode op, PrimitiveType type);
// The class for error messages: "a floating-point type", "pred or an
// integer type", ...
std::string_view ElementTypeClassText(ElementTypeClass c);
// How many computations `op` calls, or kVariadic when the instruction
// decides (conditional, custom-call); 0 exactly when !CallsComputations(op).
int OpcodeCalledComputationCount(Opcode op);

inline bool HasProperty(Opcode op, OpProperty p) {
  return (OpcodeProperties(op) & p) != 0;
}
inline bool IsElementwise(Opcode op) {
  return HasProperty(op, kPropElementwise);
}
inline bool IsElementwiseUnary(Opcode op) {
  return IsElementwise(op) && OpcodeArity(op) == 1;
}
inline bool IsElementwiseBinary(Opcode op) {
  return IsElementwise(op) && OpcodeArity(op) == 2;
}
inline bool IsElementwiseTernary(Opcode op) {
  return IsElementwise(op) && OpcodeArity(op) == 3;
}
inline bool IsCommutative(Opcode op) {
  return HasProperty(op, kPropCommutative);
}
inline bool IsAssociative(Opcode op) {
  return HasProperty(op, kPropAssociative);
}
inline bool IsMovement(Opcode op) { return HasProperty(op, kPropMovement); }
inline bool IsTranscendental(Opcode op) {
  return HasProperty(op, kPropTranscendental);
}
// Expensive per element: a fused loop must not compute it twice.
inline bool IsHeavy(Opcode op) { return HasProperty(op, kPropHeavy); }
inline bool HasSideEffect(Opcode op) {
  return HasProperty(op, kPropSideEffect);
}
inline bool CallsComputations(Opcode op) {
  return HasProperty(op, kPropCallsComputations);
}
inline bool IsCollective(Opcode op) { return HasProperty(op, kPropCollective); }
// True for opcodes aotc's reference evaluator implements.
inline bool IsEvaluable(Opcode op) { return HasProperty(op, kPropEvaluable); }
// Computed in a fused loop element by element: the elementwise opcodes and
// those marked L. The fusion pass adds the per-instance exceptions.
inline bool IsLoopMember(Opcode op) {
  return IsElementwise(op) || HasProperty(op, kPropLoopMember);
}

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_OPCODE_H_
