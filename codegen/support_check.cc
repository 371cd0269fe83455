// What code generation supports (CheckSupported in compile.h).
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/compile.h"
#include "codegen/ir_types.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::codegen {
namespace {

bool NotYet(Opcode op) {
  switch (op) {
    case Opcode::kConvolution:
    case Opcode::kGather:
    case Opcode::kScatter:
    case Opcode::kSelectAndScatter:
    case Opcode::kSort:
    case Opcode::kCustomCall:
      return true;
    default:
      return false;
  }
}

absl::Status CheckInstruction(const Instruction& inst) {
  const Opcode op = inst.opcode();
  if (!IsEvaluable(op) || NotYet(op)) {
    std::string what = absl::StrCat("'", Sv(OpcodeName(op)), "'");
    if (op == Opcode::kCustomCall) {
      absl::StrAppend(&what, " (", inst.attrs().custom_call_target, ")");
    }
    return ErrorAt(inst.location(),
                   absl::StrCat(what, " is not supported yet by code generation"));
  }
  std::vector<const Shape*> shapes = inst.shape().Leaves();
  for (const Instruction* o : inst.operands()) {
    for (const Shape* s : o->shape().Leaves()) shapes.push_back(s);
  }
  for (const Shape* s : shapes) {
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
  RETURN_IF_ERROR(CheckNarrowTypeUse(inst));
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckSupported(const Module& module) {
  if (module.entry() == nullptr) {
    return absl::InvalidArgumentError("the module has no entry computation");
  }
  for (const Instruction* p : module.entry()->parameters()) {
    if (!p->shape().IsArray()) {
      return ErrorAt(p->location(),
                     absl::StrCat("entry parameter of type ",
                                  p->shape().ToString(),
                                  " is not supported yet: compiled models "
                                  "take arrays"));
    }
  }
  // Computations reachable from the entry, each checked once.
  std::set<const Computation*> seen;
  std::vector<const Computation*> stack = {module.entry()};
  while (!stack.empty()) {
    const Computation* comp = stack.back();
    stack.pop_back();
    if (!seen.insert(comp).second) continue;
    for (const auto& inst : comp->instructions()) {
      RETURN_IF_ERROR(CheckInstruction(*inst));
      for (const Computation* c : inst->called_computations()) {
        stack.push_back(c);
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace aotc::codegen
