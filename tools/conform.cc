// Self-checking programs as a conformance suite (see conform.h).
#include "tools/conform.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "codegen/compile.h"
#include "codegen/jit/jit_runner.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/load_module.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/minifloat.h"
#include "compiler/ir/narrow_type.h"
#include "compiler/ir/native_type.h"
#include "compiler/ir/primitive_type.h"
#include "compiler/ir/verifier.h"
#include "compiler/passes/dce.h"
#include "compiler/passes/pipelines.h"
#include "compiler/support/file_io.h"
#include "tools/compare.h"

namespace aotc {
namespace {

// ---------------------------------------------------------------------------
// Element comparison

// One real part of an element: its value and, for floats, its bits.
struct Part {
  double value = 0;
  uint64_t bits = 0;  // the part's bits, low `width` bits significant
  int width = 0;      // bit width of the part's type
};

uint64_t LoadBits(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  std::memcpy(&v, p, bytes);  // little-endian host, like the literal bytes
  return v;
}

// The value of a float part whose bits are `bits` in type `t`.
double FloatValue(PrimitiveType t, uint64_t bits) {
  switch (t) {
    case PrimitiveType::kF64: {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
    case PrimitiveType::kF32: {
      const uint32_t b = static_cast<uint32_t>(bits);
      float f;
      std::memcpy(&f, &b, 4);
      return f;
    }
    case PrimitiveType::kF16:
      return static_cast<float>(Half::FromBits(static_cast<uint16_t>(bits)));
    case PrimitiveType::kBF16:
      return static_cast<float>(
          BFloat16::FromBits(static_cast<uint16_t>(bits)));
    default:
      return NarrowToDouble(t, static_cast<uint8_t>(bits));
  }
}

// Distance in units in the last place between two non-NaN floats of the
// same type: the number of representable values between them, counting
// +0 and -0 as one.
uint64_t UlpDistance(const Part& a, const Part& b) {
  auto ordered = [](const Part& p) -> __int128 {
    const uint64_t sign = (p.bits >> (p.width - 1)) & 1;
    const uint64_t magnitude =
        p.bits &
        ((p.width == 64 ? ~uint64_t{0} : (uint64_t{1} << p.width) - 1) >> 1);
    return sign ? -static_cast<__int128>(magnitude)
                : static_cast<__int128>(magnitude);
  };
  const __int128 d = ordered(a) - ordered(b);
  const __int128 m = d < 0 ? -d : d;
  return m > static_cast<__int128>(UINT64_MAX) ? UINT64_MAX
                                               : static_cast<uint64_t>(m);
}

// Whether two float parts satisfy the check; `note` gets the distance.
bool PartsMatch(CheckKind kind, const Part& a, const Part& b,
                std::string* note) {
  const bool a_nan = std::isnan(a.value), b_nan = std::isnan(b.value);
  if (a_nan || b_nan) return a_nan && b_nan;
  if (a.value == b.value) return true;
  switch (kind) {
    case CheckKind::kExpectEq:
      return false;
    case CheckKind::kExpectClose: {
      const uint64_t ulps = UlpDistance(a, b);
      *note = absl::StrCat(" (", ulps, " ulps)");
      return ulps <= 3;
    }
    case CheckKind::kExpectAlmostEq: {
      const double diff = std::fabs(a.value - b.value);
      *note = absl::StrCat(" (difference ", diff, ")");
      return diff <= 1e-3;
    }
  }
  return false;
}

// Enough digits to tell neighbouring values of the part's type apart.
std::string ValueText(const Part& p) {
  const int digits = p.width == 64 ? 17 : p.width == 32 ? 9 : 5;
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%.*g", digits, p.value);
  return buffer;
}

std::string PartsText(const std::vector<Part>& parts) {
  if (parts.size() == 1) return ValueText(parts[0]);
  return absl::StrCat("(", ValueText(parts[0]), ", ", ValueText(parts[1]), ")");
}

}  // namespace

absl::StatusOr<CheckKind> ParseCheckKind(std::string_view target) {
  if (target == "check.expect_eq") return CheckKind::kExpectEq;
  if (target == "check.expect_close") return CheckKind::kExpectClose;
  if (target == "check.expect_almost_eq") return CheckKind::kExpectAlmostEq;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown check '", std::string(target),
                   "' (expected check.expect_eq, check.expect_close or "
                   "check.expect_almost_eq)"));
}

std::string_view CheckKindName(CheckKind kind) {
  switch (kind) {
    case CheckKind::kExpectEq:
      return "expect_eq";
    case CheckKind::kExpectClose:
      return "expect_close";
    case CheckKind::kExpectAlmostEq:
      return "expect_almost_eq";
  }
  return "?";
}

std::string ApplyCheck(CheckKind kind, const Literal& actual,
                       const Literal& expected) {
  if (actual.IsTuple() || expected.IsTuple()) {
    return "tuple values cannot be checked";
  }
  if (!actual.shape().Compatible(expected.shape())) {
    return absl::StrCat("shape ", actual.shape().ToString(),
                        " differs from the expected ",
                        expected.shape().ToString());
  }
  const PrimitiveType type = expected.shape().element_type();
  const int bytes = StorageBytes(type);
  const bool complex = IsComplex(type);
  const bool floating = IsFloat(type) || complex;
  const PrimitiveType part_type =
      type == PrimitiveType::kC64    ? PrimitiveType::kF32
      : type == PrimitiveType::kC128 ? PrimitiveType::kF64
                                     : type;
  const int part_bytes = complex ? bytes / 2 : bytes;
  auto parts_of = [&](const Literal& l, int64_t i) {
    std::vector<Part> parts;
    for (int p = 0; p < (complex ? 2 : 1); ++p) {
      Part part;
      part.width = BitWidth(part_type);
      part.bits = LoadBits(l.raw() + i * bytes + p * part_bytes, part_bytes);
      if (part.width < 64) part.bits &= (uint64_t{1} << part.width) - 1;
      part.value = FloatValue(part_type, part.bits);
      parts.push_back(part);
    }
    return parts;
  };
  const int64_t n = expected.element_count();
  int64_t differing = 0;
  std::string first;
  for (int64_t i = 0; i < n; ++i) {
    bool match = true;
    std::string note;
    std::string got, want;
    if (floating) {
      const std::vector<Part> a = parts_of(actual, i),
                              e = parts_of(expected, i);
      // The note (ulps, difference) of the first part that fails.
      for (size_t p = 0; p < a.size(); ++p) {
        std::string part_note;
        if (!PartsMatch(kind, a[p], e[p], &part_note)) {
          if (match) note = part_note;
          match = false;
        }
      }
      if (!match && differing == 0) {
        got = PartsText(a);
        want = PartsText(e);
      }
    } else {
      // Integers and pred: exact, on the significant bits.
      uint64_t a = LoadBits(actual.raw() + i * bytes, bytes);
      uint64_t e = LoadBits(expected.raw() + i * bytes, bytes);
      if (IsNarrowType(type)) {
        a = CanonicalNarrowBits(type, static_cast<uint8_t>(a));
        e = CanonicalNarrowBits(type, static_cast<uint8_t>(e));
      }
      match = a == e;
      if (!match && differing == 0) {
        auto text = [&](uint64_t bits) -> std::string {
          if (IsNarrowType(type)) {
            return absl::StrCat(
                SubByteIntValue(type, static_cast<uint8_t>(bits)));
          }
          if (type == PrimitiveType::kPred) return bits ? "true" : "false";
          if (IsSignedInt(type)) {
            const int shift = 64 - 8 * bytes;
            return absl::StrCat(static_cast<int64_t>(bits << shift) >> shift);
          }
          return absl::StrCat(bits);
        };
        got = text(a);
        want = text(e);
      }
    }
    if (match) continue;
    if (differing == 0) {
      first = absl::StrCat(IndexText(expected.shape(), i), ": got ", got,
                           ", expected ", want, note);
    }
    ++differing;
  }
  if (differing == 0) return "";
  return absl::StrCat(std::string(CheckKindName(kind)), ": ", differing, " of ",
                      n, " elements differ; first ", first);
}

namespace {

// ---------------------------------------------------------------------------
// Preparing a self-checking module

std::vector<Instruction*> FindChecks(const Computation& entry) {
  std::vector<Instruction*> checks;
  for (const auto& inst : entry.instructions()) {
    if (inst->opcode() == Opcode::kCustomCall &&
        absl::StartsWith(absl::string_view(inst->custom_call_target()),
                         "check.")) {
      checks.push_back(inst.get());
    }
  }
  return checks;
}

absl::Status ValidateChecks(const std::vector<Instruction*>& checks) {
  if (checks.empty()) {
    return absl::InvalidArgumentError(
        "no check.* custom-call in the entry computation: not a "
        "self-checking program");
  }
  for (const Instruction* c : checks) {
    if (c->operand_count() != 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          c->location().ToString(), ": ", c->custom_call_target(),
          " takes 2 operands, got ", c->operand_count()));
    }
  }
  return absl::OkStatus();
}

// Makes `values` the root of `entry` (a tuple when there are several),
// removes the checks, then every instruction the new root does not need.
absl::Status ReplaceRootAndDropChecks(Module& module,
                                      const std::vector<Instruction*>& checks,
                                      const std::vector<Instruction*>& values) {
  Computation& entry = *module.entry();
  Instruction* root = values[0];
  if (values.size() > 1) {
    std::vector<Shape> shapes;
    for (const Instruction* v : values) shapes.push_back(v->shape());
    root = entry.AddInstruction(
        Instruction::Create(Opcode::kTuple, "conform.results",
                            Shape::Tuple(std::move(shapes)), values));
  }
  entry.set_root(root);
  for (Instruction* c : checks) {
    c->DropAllOperands();
    entry.RemoveInstruction(c);
  }
  DeadCodeElimination dce;
  absl::StatusOr<bool> changed = dce.Run(module);
  if (!changed.ok()) return changed.status();
  entry.SortTopologically();
  return VerifyModule(module);
}

// The computation a self-checking program calls for its inputs.
constexpr std::string_view kInputsComputation = "inputs";

// Replaces the calls of @inputs() among the instructions `actual` values
// depend on with entry parameters; returns the values the calls returned,
// one literal per new parameter. Other parameterless calls stay: they are
// part of what the program computes, and compiled code must compute them.
absl::StatusOr<std::vector<Literal>> CallsToParameters(
    Computation& entry, const std::vector<Instruction*>& actual) {
  std::set<Instruction*> slice;
  std::vector<Instruction*> stack(actual.begin(), actual.end());
  while (!stack.empty()) {
    Instruction* inst = stack.back();
    stack.pop_back();
    if (!slice.insert(inst).second) continue;
    for (Instruction* o : inst->operands()) stack.push_back(o);
  }
  std::vector<Instruction*> calls;
  for (const auto& inst : entry.instructions()) {
    if (inst->opcode() == Opcode::kCall && inst->operand_count() == 0 &&
        inst->to_apply()->name() == kInputsComputation &&
        slice.count(inst.get()) > 0) {
      calls.push_back(inst.get());
    }
  }
  std::vector<Literal> inputs;
  int64_t number = entry.num_parameters();
  auto add_parameter = [&](const Shape& shape) {
    auto p = Instruction::Create(
        Opcode::kParameter, absl::StrCat("conform.input", number), shape, {});
    p->mutable_attrs().parameter_number = number++;
    return entry.AddInstruction(std::move(p));
  };
  for (Instruction* call : calls) {
    absl::StatusOr<Literal> value = EvaluateComputation(*call->to_apply(), {});
    if (!value.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot evaluate the input call ", call->name(), ": ",
                       value.status().message()));
    }
    if (!value->IsTuple()) {
      call->ReplaceAllUsesWith(add_parameter(value->shape()));
      inputs.push_back(std::move(*value));
      continue;
    }
    std::vector<Instruction*> parameters;
    for (const Literal& element : value->tuple_elements()) {
      if (element.IsTuple()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "the input call ", call->name(), " returns a nested tuple"));
      }
      parameters.push_back(add_parameter(element.shape()));
      inputs.push_back(element);
    }
    // Element reads take their parameter; any other use the whole tuple.
    bool other_uses = false;
    const std::vector<Instruction*> users = call->users();
    for (Instruction* user : users) {
      if (user->opcode() == Opcode::kGetTupleElement) {
        user->ReplaceAllUsesWith(parameters[user->tuple_index()]);
      } else {
        other_uses = true;
      }
    }
    if (other_uses) {
      Instruction* tuple = entry.AddInstruction(Instruction::Create(
          Opcode::kTuple, absl::StrCat(call->name(), ".inputs"), call->shape(),
          parameters));
      call->ReplaceAllUsesWith(tuple);
    }
  }
  return inputs;
}

}  // namespace

absl::StatusOr<ConformProgram> PrepareConformProgram(
    std::unique_ptr<Module> module, std::unique_ptr<Module> expected_copy) {
  ConformProgram program;
  // The expected values, from the module as written.
  {
    const std::vector<Instruction*> checks =
        FindChecks(*expected_copy->entry());
    if (absl::Status s = ValidateChecks(checks); !s.ok()) return s;
    std::vector<Instruction*> values;
    for (Instruction* c : checks) {
      absl::StatusOr<CheckKind> kind =
          ParseCheckKind(c->custom_call_target());
      if (!kind.ok()) return kind.status();
      program.checks.push_back({*kind, Literal()});
      values.push_back(c->operand(1));
    }
    if (expected_copy->entry()->num_parameters() != 0) {
      return absl::InvalidArgumentError(
          "the entry computation of a self-checking program takes no "
          "parameters");
    }
    if (absl::Status s =
            ReplaceRootAndDropChecks(*expected_copy, checks, values);
        !s.ok()) {
      return s;
    }
    absl::StatusOr<Literal> expected = EvaluateModule(*expected_copy, {});
    if (!expected.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot evaluate the expected values: ",
                       expected.status().message()));
    }
    for (size_t i = 0; i < program.checks.size(); ++i) {
      program.checks[i].expected =
          values.size() == 1 ? *expected : expected->tuple_elements()[i];
    }
  }
  // The program under test.
  const std::vector<Instruction*> checks = FindChecks(*module->entry());
  std::vector<Instruction*> actual;
  for (Instruction* c : checks) actual.push_back(c->operand(0));
  absl::StatusOr<std::vector<Literal>> inputs =
      CallsToParameters(*module->entry(), actual);
  if (!inputs.ok()) return inputs.status();
  program.inputs = std::move(*inputs);
  // The checks now read the parameters where they read the calls.
  for (size_t i = 0; i < checks.size(); ++i) actual[i] = checks[i]->operand(0);
  if (absl::Status s = ReplaceRootAndDropChecks(*module, checks, actual);
      !s.ok()) {
    return s;
  }
  program.module = std::move(module);
  return program;
}

namespace {

// Whether an error says that something is not supported (as opposed to
// wrong): such files are reported UNSUPPORTED. docs/conformance.md lists
// the reasons.
bool IsUnsupportedError(const absl::Status& status) {
  const absl::string_view m = status.message();
  return absl::IsUnimplemented(status) ||
         absl::StrContains(m, "not supported") ||
         absl::StrContains(m, "unsupported");
}

ConformResult Fail(std::string detail) {
  return {ConformOutcome::kFail, std::move(detail)};
}

ConformResult FromError(const absl::Status& status) {
  std::string message(status.message());
  // The first line only: located errors quote the source line below it.
  if (size_t nl = message.find('\n'); nl != std::string::npos) {
    message.resize(nl);
  }
  if (IsUnsupportedError(status)) {
    return {ConformOutcome::kUnsupported, std::move(message)};
  }
  return Fail(std::move(message));
}

absl::StatusOr<std::vector<Literal>> RunCompiled(const ConformProgram& program,
                                                 const std::string& path) {
  OptimizeOptions optimize;
  absl::StatusOr<std::vector<PassTiming>> timings =
      OptimizeModule(*program.module, optimize);
  if (!timings.ok()) return timings.status();
  codegen::CompileOptions options;
  options.name = codegen::ModelNameFromPath(path);
  absl::StatusOr<codegen::CompiledModel> compiled =
      codegen::CompileModule(*program.module, options);
  if (!compiled.ok()) return compiled.status();
  absl::StatusOr<std::unique_ptr<codegen::LoadedModel>> loaded =
      codegen::LoadedModel::Load(*compiled);
  if (!loaded.ok()) return loaded.status();
  return (*loaded)->Run(program.inputs);
}

absl::StatusOr<std::vector<Literal>> RunEvaluator(
    const ConformProgram& program) {
  absl::StatusOr<Literal> result =
      EvaluateModule(*program.module, program.inputs);
  if (!result.ok()) return result.status();
  std::vector<Literal> results;
  if (program.checks.size() == 1) {
    results.push_back(std::move(*result));
  } else {
    for (Literal& element : result->mutable_tuple_elements()) {
      results.push_back(std::move(element));
    }
  }
  return results;
}

// "" when every compiled result is within the error budget of the
// evaluator's, else what differs.
std::string BeyondBudget(const std::vector<Literal>& results,
                         const OracleValue& oracle) {
  const std::vector<const Literal*> leaves = oracle.value.Leaves();
  if (leaves.size() != results.size()) return "";  // checks counted above
  for (size_t k = 0; k < results.size(); ++k) {
    if (!results[k].shape().Compatible(leaves[k]->shape())) continue;
    const Comparison c = CompareLiterals(
        results[k], *leaves[k],
        DefaultTolerance(leaves[k]->shape().element_type()),
        &oracle.bounds[k]);
    if (!c.ok()) {
      return absl::StrCat("value ", k,
                          " differs from the reference evaluator beyond the "
                          "error budget in ",
                          c.mismatches, " of ", c.elements, " elements; first ",
                          c.first_mismatch);
    }
  }
  return "";
}

}  // namespace

ConformResult ConformFile(const std::string& path, bool use_evaluator) {
  // Read once, parsed twice: one copy runs, the other gives the expected
  // values.
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return FromError(text.status());
  absl::StatusOr<std::unique_ptr<Module>> module =
      LoadModuleFromString(*text, path);
  if (!module.ok()) return FromError(module.status());
  absl::StatusOr<std::unique_ptr<Module>> copy =
      LoadModuleFromString(*text, path);
  if (!copy.ok()) return FromError(copy.status());
  absl::StatusOr<ConformProgram> program =
      PrepareConformProgram(std::move(*module), std::move(*copy));
  if (!program.ok()) return FromError(program.status());
  // The oracle's values, before the pipeline rewrites the module to compile
  // it; its errors count after the compiler's.
  absl::StatusOr<OracleValue> oracle = absl::UnknownError("not evaluated");
  if (!use_evaluator) {
    oracle = EvaluateOracle(*program->module, program->inputs);
  }
  absl::StatusOr<std::vector<Literal>> results =
      use_evaluator ? RunEvaluator(*program) : RunCompiled(*program, path);
  if (!results.ok()) return FromError(results.status());
  if (!use_evaluator && !oracle.ok()) {
    return FromError(absl::Status(
        oracle.status().code(),
        absl::StrCat("the reference evaluator: ", oracle.status().message())));
  }
  if (results->size() != program->checks.size()) {
    return Fail(absl::StrCat("the program returned ", results->size(),
                             " values for ", program->checks.size(),
                             " checks"));
  }
  for (size_t i = 0; i < results->size(); ++i) {
    const ConformProgram::Check& check = program->checks[i];
    std::string differs = ApplyCheck(check.kind, (*results)[i], check.expected);
    if (!differs.empty()) {
      if (program->checks.size() > 1) {
        differs = absl::StrCat("check ", i, " ", differs);
      }
      return Fail(std::move(differs));
    }
  }
  if (oracle.ok()) {
    std::string differs = BeyondBudget(*results, *oracle);
    if (!differs.empty()) return Fail(std::move(differs));
  }
  return {ConformOutcome::kPass, ""};
}

std::string ConformLine(const std::string& path, const ConformResult& result) {
  switch (result.outcome) {
    case ConformOutcome::kPass:
      return absl::StrCat("PASS ", path);
    case ConformOutcome::kFail:
      return absl::StrCat("FAIL ", path, ": ", result.detail);
    case ConformOutcome::kUnsupported:
      return absl::StrCat("UNSUPPORTED ", path, ": ", result.detail);
  }
  return "";
}

}  // namespace aotc
