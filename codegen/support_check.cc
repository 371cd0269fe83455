// What code generation supports (CheckSupported in compile.h), derived from
// the codegen strategies (strategy.h): an instruction of a computation that
// runs as a buffer function is supported when it aliases, calls, or some
// strategy plans it; an instruction of a computation inlined into loops
// (fused computations, reducers, comparators) when it has an element-wise
// form.
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/compile.h"
#include "codegen/emit/ir_types.h"
#include "codegen/strategy.h"
#include "compiler/analysis/buffer_assignment.h"
#include "compiler/analysis/op_facts.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::codegen {
namespace {

absl::Status CheckTypes(const Instruction& inst) {
  std::vector<const Shape*> shapes = inst.shape().Leaves();
  for (const Instruction* o : inst.operands()) {
    for (const Shape* s : o->shape().Leaves()) shapes.push_back(s);
  }
  for (const Shape* s : shapes) {
    if (s->IsToken()) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("'", inst.name(),
                       "' carries a token: code generation supports tokens "
                       "only as operands and results of custom-calls, "
                       "after-all and add-dependency, which the "
                       "token-elimination pass removes, not returned, "
                       "passed in, or carried through a tuple, call or "
                       "loop"));
    }
    if (!s->IsArray()) {
      return ErrorAt(inst.location(),
                     absl::StrCat("values of type ", s->ToString(),
                                  " are not supported by code generation"));
    }
    if (!IsCodegenType(s->element_type())) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("element type ", Sv(PrimitiveTypeName(s->element_type())),
                       " is not supported yet by code generation"));
    }
    if (!IsCodegenLayoutExtension(*s)) {
      return ErrorAt(inst.location(),
                     absl::StrCat("layout ", s->ToString(),
                                  " with tiling or memory-space attributes is "
                                  "not supported by code generation"));
    }
  }
  RETURN_IF_ERROR(CheckBitcastTypes(inst));
  return absl::OkStatus();
}

// Whether the computations `inst` calls run as buffer functions (the
// others are inlined into the loops of `inst`).
bool CallsBufferFunctions(const Instruction& inst) {
  const Opcode op = inst.opcode();
  return op == Opcode::kWhile || op == Opcode::kConditional ||
         op == Opcode::kCall;
}

absl::Status CheckInstruction(const Instruction& inst, bool inlined) {
  if (IsExpandedByTranscendentalExpander(inst)) {
    return ErrorAt(inst.location(),
                   absl::StrCat("'", Sv(OpcodeName(inst.opcode())),
                                "' must be rewritten by the "
                                "transcendental-expander pass (in the "
                                "optimization pipeline) before code "
                                "generation"));
  }
  if (!IsEvaluable(inst.opcode())) return PlanInstruction(inst).status();
  RETURN_IF_ERROR(CheckTypes(inst));
  if (inst.opcode() == Opcode::kParameter) return absl::OkStatus();
  if (inlined) {
    if (HasElementalForm(inst)) return absl::OkStatus();
    return ErrorAt(inst.location(),
                   absl::StrCat("'", Sv(OpcodeName(inst.opcode())),
                                "' is not supported yet by code generation "
                                "inside a fused or scalar computation"));
  }
  if (ClassifyValue(inst) != ValueKind::kOwned) return absl::OkStatus();
  return PlanInstruction(inst).status();
}

}  // namespace

absl::Status CheckSupported(const Module& module) {
  if (module.entry() == nullptr) {
    return absl::InvalidArgumentError("the module has no entry computation");
  }
  // Tuple parameters are passed leaf by leaf (docs/header.md); tokens and
  // opaque values, alone or inside a tuple, have no buffer to pass.
  for (const Instruction* p : module.entry()->parameters()) {
    for (const Shape* leaf : p->shape().Leaves()) {
      if (leaf->IsArray()) continue;
      return ErrorAt(
          p->location(),
          absl::StrCat("entry parameter of type ", p->shape().ToString(),
                       " is not supported: compiled models take arrays and "
                       "tuples of arrays"));
    }
  }
  // Computations reachable from the entry, each checked once, with whether
  // they are inlined into loops.
  std::set<std::pair<const Computation*, bool>> seen;
  std::vector<std::pair<const Computation*, bool>> stack = {
      {module.entry(), false}};
  while (!stack.empty()) {
    const auto [comp, inlined] = stack.back();
    stack.pop_back();
    if (!seen.insert({comp, inlined}).second) continue;
    for (const auto& inst : comp->instructions()) {
      RETURN_IF_ERROR(CheckInstruction(*inst, inlined));
      const bool callee_inlined = inlined || !CallsBufferFunctions(*inst);
      for (const Computation* c : inst->called_computations()) {
        stack.push_back({c, callee_inlined});
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace aotc::codegen
