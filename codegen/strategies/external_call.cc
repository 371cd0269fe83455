// The external-call strategy (see external_call.h): the checks on
// the target and the call with its pointer arrays and opaque string.
#include "codegen/strategies/external_call.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "aotc/runtime.h"
#include "codegen/emit/ir_array.h"
#include "codegen/header/c_names.h"
#include "compiler/ir/custom_call_targets.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// The runtime's symbols all start with this; a target may not.
constexpr std::string_view kRuntimePrefix = "aotc_";

// The C library functions compiled code calls (LLVM lowers copies and fills
// to them); a target of the same name would replace them.
constexpr std::string_view kLibcFunctions[] = {"memcpy", "memmove", "memset"};

bool IsLibcFunction(std::string_view name) {
  for (std::string_view f : kLibcFunctions) {
    if (name == f) return true;
  }
  return false;
}

absl::Status TargetError(const Instruction& inst, std::string_view why) {
  return ErrorAt(inst.location(),
                 absl::StrCat("custom-call target '",
                              inst.custom_call_target(), "' ", Sv(why)));
}

// A stack array of the leaves' base pointers.
Value* PointerArray(llvm::IRBuilderBase& b, const std::vector<IrArray>& leaves,
                    const char* name) {
  llvm::Type* type =
      llvm::ArrayType::get(b.getPtrTy(), std::max<size_t>(leaves.size(), 1));
  llvm::AllocaInst* a = EntryAlloca(b, type, name);
  for (size_t k = 0; k < leaves.size(); ++k) {
    b.CreateStore(leaves[k].base(),
                  b.CreateConstInBoundsGEP2_64(type, a, 0, k));
  }
  return a;
}

// The declaration of `name` with the external-call type; an error when the
// module already has a different function of that name.
absl::StatusOr<llvm::Function*> DeclareExternal(ModuleContext& mc,
                                                const Instruction& inst) {
  const std::string& name = inst.custom_call_target();
  if (name == absl::StrCat(mc.prefix(), "_run") ||
      name == absl::StrCat(mc.prefix(), "_run_packed")) {
    return TargetError(inst, "is an entry point of the compiled model itself");
  }
  llvm::LLVMContext& ctx = mc.context();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* size = mc.module().getDataLayout().getIntPtrType(ctx);
  auto* type = llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx),
                                       {ptr, ptr, ptr, size}, false);
  llvm::Function* f = mc.module().getFunction(name);
  if (f != nullptr) {
    if (!f->isDeclaration() || f->getFunctionType() != type) {
      return TargetError(inst, "clashes with a symbol of the compiled model");
    }
    return f;
  }
  f = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name,
                             mc.module());
  f->addFnAttr(llvm::Attribute::NoUnwind);
  mc.AddExternalFunction(name);
  return f;
}

// The layout operand k must have in memory: its constraint in
// `operand_layout_constraints`, or null when there is none.
const Shape* ConstrainedOperand(const Instruction& inst, size_t k) {
  const auto& constraints = inst.operand_layout_constraints();
  if (!constraints.has_value() || k >= constraints->size()) return nullptr;
  return &(*constraints)[k];
}

// Whether operand k is copied into scratch in its constrained layout first.
bool NeedsRelayout(const Instruction& inst, size_t k) {
  const Shape* constrained = ConstrainedOperand(inst, k);
  return constrained != nullptr &&
         constrained->layout().minor_to_major !=
             inst.operand(k)->shape().layout().minor_to_major;
}

}  // namespace

bool IsExternalCustomCall(const Instruction& inst) {
  return inst.opcode() == Opcode::kCustomCall &&
         !IsBuiltinCustomCallTarget(inst.custom_call_target());
}

absl::StatusOr<std::string> ExternalCallOpaque(const Instruction& inst) {
  const std::string* raw = inst.FindRawAttribute("opaque");
  if (raw == nullptr) raw = inst.FindRawAttribute("backend_config");
  if (raw == nullptr) return std::string();
  // A quoted string carries C escapes; a `{...}` dict is its own text.
  if (raw->size() < 2 || raw->front() != '"' || raw->back() != '"') {
    return *raw;
  }
  std::string text;
  if (!absl::CUnescape(Sv(std::string_view(*raw).substr(1, raw->size() - 2)),
                       &text)) {
    return TargetError(inst, "has an opaque string with an invalid escape");
  }
  return text;
}

absl::Status CheckExternalCall(const Instruction& inst) {
  const std::string& target = inst.custom_call_target();
  if (std::string_view kind = DeviceOnlyTargetKind(target); !kind.empty()) {
    return TargetError(inst, absl::StrCat("is ", Sv(kind),
                                          ", which cannot run in "
                                          "ahead-of-time compiled host code"));
  }
  if (!IsValidCIdentifier(target)) {
    return TargetError(inst,
                       "is not a C identifier (or is a C or C++ keyword), so "
                       "it cannot name an external function");
  }
  if (target.starts_with(kRuntimePrefix)) {
    return TargetError(inst, "uses the prefix 'aotc_' of the aotc runtime");
  }
  if (IsLibcFunction(target)) {
    return TargetError(inst,
                       "is a C library function that compiled code calls");
  }
  if (!inst.called_computations().empty()) {
    return TargetError(inst,
                       "calls computations, which an external function "
                       "cannot run");
  }
  if (const auto& constraints = inst.operand_layout_constraints();
      constraints.has_value()) {
    if (constraints->size() != static_cast<size_t>(inst.operand_count())) {
      return TargetError(inst, absl::StrCat("has ", constraints->size(),
                                            " operand layout constraints for ",
                                            inst.operand_count(), " operands"));
    }
    for (size_t k = 0; k < constraints->size(); ++k) {
      const Shape& operand = inst.operand(k)->shape();
      if (!operand.IsArray() || !(*constraints)[k].IsArray() ||
          !operand.Compatible((*constraints)[k])) {
        return TargetError(inst,
                           absl::StrCat("constrains operand ", k, " of shape ",
                                        operand.ToString(), " to ",
                                        (*constraints)[k].ToString()));
      }
    }
  }
  if (inst.FindRawAttribute("output_to_operand_aliasing") != nullptr) {
    return TargetError(inst,
                       "has output_to_operand_aliasing, which external "
                       "calls do not support");
  }
  return ExternalCallOpaque(inst).status();
}

std::optional<StrategyPlan> PlanExternalCall(const Instruction& inst) {
  if (!IsExternalCustomCall(inst) || !CheckExternalCall(inst).ok()) {
    return std::nullopt;
  }
  StrategyPlan plan;
  plan.may_fail = true;
  // Operands in another layout than their constraint are copied into
  // scratch, one buffer each, in the constrained layout.
  for (size_t k = 0; k < static_cast<size_t>(inst.operand_count()); ++k) {
    if (NeedsRelayout(inst, k)) {
      plan.scratch_bytes += AlignUp(ConstrainedOperand(inst, k)->ByteSize());
    }
  }
  plan.emit = [](const LoopArgs& a) -> absl::Status {
    ASSIGN_OR_RETURN(llvm::Function * f, DeclareExternal(a.mc, a.inst));
    ASSIGN_OR_RETURN(std::string opaque, ExternalCallOpaque(a.inst));
    llvm::IRBuilderBase& b = a.b;
    std::vector<IrArray> inputs;
    int64_t scratch_offset = 0;
    for (size_t k = 0; k < a.ins->size(); ++k) {
      if (!NeedsRelayout(a.inst, k)) {
        inputs.insert(inputs.end(), (*a.ins)[k].begin(), (*a.ins)[k].end());
        continue;
      }
      const Shape& constrained = *ConstrainedOperand(a.inst, k);
      IrArray copy(b.CreateInBoundsGEP(b.getInt8Ty(), a.scratch,
                                       b.getInt64(scratch_offset)),
                   &constrained);
      scratch_offset += AlignUp(constrained.ByteSize());
      RETURN_IF_ERROR(EmitArrayLoop(
          b, constrained, absl::StrCat(a.inst.name(), ".relayout"),
          [&](const Index& index) -> absl::Status {
            ASSIGN_OR_RETURN(Value * v, a.ops[k][0](index));
            copy.Write(b, index, v);
            return absl::OkStatus();
          }));
      inputs.push_back(copy);
    }
    Value* outputs_array = PointerArray(b, a.out, "outputs");
    Value* inputs_array = PointerArray(b, inputs, "inputs");
    Value* text = b.CreateGlobalString(
        opaque, absl::StrCat(a.inst.name(), ".opaque"), 0, &a.mc.module());
    llvm::Type* size = f->getFunctionType()->getParamType(3);
    Value* status =
        b.CreateCall(f, {outputs_array, inputs_array, text,
                         llvm::ConstantInt::get(size, opaque.size())});
    a.fail_if(b.CreateICmpNE(status, b.getInt32(0)), AOTC_ERROR_CUSTOM_CALL);
    return absl::OkStatus();
  };
  return plan;
}

}  // namespace aotc::codegen
