// The module verifier: structural checks plus a shape-inference check of
// every instruction, collecting every failure instead of stopping at the
// first.
//
// Checks run in three passes so that no check reads something an earlier
// check found broken: (1) module-level facts (entry, names, the header's
// entry_computation_layout) and every declared shape;
// (2) per computation: root, parameter numbering, operands, called
// computations, and shape inference for instructions whose operands are
// sound; (3) call cycles, by an iterative depth-first search so that deep
// call chains from hostile input cannot exhaust the stack.
#include "compiler/ir/verifier.h"


#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/ir/input_output_alias.h"
#include "compiler/ir/limits.h"
#include "compiler/ir/shape_inference.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

std::string ShapeText(const Shape& shape) { return shape.ToString(false); }

// Shape text with comments, whitespace and layouts removed, so that
// "(f32[2]{0}, /*index=1*/s32[])" and "(f32[2], s32[])" compare equal.
std::string WithoutLayouts(std::string_view text) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (text.substr(i, 2) == "/*") {
      size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 2;
      continue;
    }
    if (c == '{' && !out.empty() && out.back() == ']') {
      int depth = 0;
      for (; i < text.size(); ++i) {
        if (text[i] == '{') ++depth;
        if (text[i] == '}' && --depth == 0) break;
      }
      ++i;
      continue;
    }
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') out.push_back(c);
    ++i;
  }
  return out;
}

// Splits "(a,(b,c),d)" into {"a", "(b,c)", "d"}; nullopt when `text` is not
// a parenthesized list.
std::optional<std::vector<std::string>> SplitShapeList(std::string_view text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') {
    return std::nullopt;
  }
  std::vector<std::string> items;
  std::string_view inner = text.substr(1, text.size() - 2);
  if (inner.empty()) return items;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < inner.size(); ++i) {
    if (inner[i] == '(' || inner[i] == '[') ++depth;
    if (inner[i] == ')' || inner[i] == ']') --depth;
    if (inner[i] == ',' && depth == 0) {
      items.emplace_back(inner.substr(start, i - start));
      start = i + 1;
    }
  }
  items.emplace_back(inner.substr(start));
  return items;
}

class Verifier {
 public:
  explicit Verifier(const Module& module) : module_(module) {}

  absl::Status Run() {
    CheckModule();
    CheckEntryLayout();
    for (const auto& comp : module_.computations()) {
      CheckComputation(*comp);
    }
    CheckCallCycles();
    // Donation refers to the entry's parameters and root: checked once
    // those are known to be sound.
    if (errors_.empty()) {
      absl::StatusOr<std::vector<InputOutputAlias>> aliases =
          InputOutputAliases(module_);
      if (!aliases.ok()) return aliases.status();
    }
    if (errors_.empty()) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrJoin(errors_, "\n"));
  }

 private:
  void Error(const Location& loc, std::string_view message) {
    errors_.push_back(FormatError(loc, message));
  }

  Location ModuleLocation() const { return Location{module_.source(), 0, 0}; }

  // Entry, unique names, and which declared shapes are usable at all.
  void CheckModule() {
    for (const auto& comp : module_.computations()) {
      in_module_.insert(comp.get());
    }
    if (module_.entry() == nullptr) {
      Error(ModuleLocation(), absl::StrCat("module '", module_.name(),
                                           "' has no entry computation"));
    } else if (!in_module_.contains(module_.entry())) {
      Error(ModuleLocation(),
            absl::StrCat("entry computation '", module_.entry()->name(),
                         "' is not a computation of module '", module_.name(),
                         "'"));
    }
    std::unordered_set<std::string> computation_names;
    for (const auto& comp : module_.computations()) {
      if (!computation_names.insert(comp->name()).second) {
        Error(comp->location(), absl::StrCat("computation name '", comp->name(),
                                             "' is already used"));
      }
      // HLO text scopes instruction names by computation (XLA's own dumps
      // reuse `param` or `tuple` in every loop body), so uniqueness is
      // required per computation only.
      std::unordered_set<std::string> instruction_names;
      for (const auto& inst : comp->instructions()) {
        if (!instruction_names.insert(inst->name()).second) {
          Error(inst->location(),
                absl::StrCat("instruction name '", inst->name(),
                             "' is already used in computation '", comp->name(),
                             "'"));
        }
        CheckDeclaredShape(*inst);
      }
    }
  }

  // The header's entry_computation_layout, when present, must list the
  // entry's parameter and result shapes (layouts are not compared).
  void CheckEntryLayout() {
    const std::string* layout =
        module_.FindHeaderAttribute("entry_computation_layout");
    const Computation* entry = module_.entry();
    if (layout == nullptr || entry == nullptr || !in_module_.contains(entry)) {
      return;
    }
    std::string text = WithoutLayouts(*layout);
    if (text.size() >= 2 && text.front() == '{' && text.back() == '}') {
      text = text.substr(1, text.size() - 2);
    }
    size_t arrow = text.rfind("->");
    std::optional<std::vector<std::string>> params;
    if (arrow != std::string::npos) {
      params = SplitShapeList(std::string_view(text).substr(0, arrow));
    }
    if (!params.has_value()) {
      Error(entry->location(), absl::StrCat("entry_computation_layout ",
                                            *layout, " is not a signature"));
      return;
    }
    std::vector<Instruction*> entry_params = entry->parameters();
    if (params->size() != entry_params.size()) {
      Error(entry->location(),
            absl::StrCat("entry_computation_layout lists ", params->size(),
                         " parameters, but entry computation '", entry->name(),
                         "' has ", entry_params.size()));
      return;
    }
    for (size_t i = 0; i < params->size(); ++i) {
      std::string actual = WithoutLayouts(ShapeText(entry_params[i]->shape()));
      if ((*params)[i] != actual) {
        Error(entry_params[i]->location(),
              absl::StrCat("entry_computation_layout gives parameter ", i,
                           " shape ", (*params)[i], ", but it has shape ",
                           actual));
      }
    }
    std::string result = text.substr(arrow + 2);
    if (entry->root() != nullptr &&
        result != WithoutLayouts(ShapeText(entry->root()->shape()))) {
      Error(entry->root()->location(),
            absl::StrCat("entry_computation_layout gives the result shape ",
                         result, ", but the entry root has shape ",
                         WithoutLayouts(ShapeText(entry->root()->shape()))));
    }
  }

  void CheckDeclaredShape(const Instruction& inst) {
    absl::Status st = inst.shape().IsValid()
                          ? ValidateShape(inst.shape())
                          : absl::InvalidArgumentError("shape is missing");
    if (st.ok()) return;
    Error(inst.location(), absl::StrCat("invalid shape: ", st.message()));
    bad_shape_.insert(&inst);
  }

  void CheckComputation(const Computation& comp) {
    if (comp.root() == nullptr) {
      Error(comp.location(), absl::StrCat("computation '", comp.name(),
                                          "' has no root instruction"));
    } else if (comp.root()->parent() != &comp) {
      Error(comp.location(),
            absl::StrCat("root '", comp.root()->name(), "' of computation '",
                         comp.name(), "' is not one of its instructions"));
    }
    CheckParameterNumbers(comp);
    std::unordered_set<const Instruction*> defined;
    for (const auto& inst : comp.instructions()) {
      CheckInstruction(comp, *inst, defined);
      defined.insert(inst.get());
    }
  }

  // Parameter numbers must be 0..n-1, each used once.
  void CheckParameterNumbers(const Computation& comp) {
    int n = comp.num_parameters();
    std::vector<const Instruction*> seen(n, nullptr);
    for (const auto& inst : comp.instructions()) {
      if (inst->opcode() != Opcode::kParameter) continue;
      int64_t number = inst->attrs().parameter_number;
      if (number < 0 || number >= n) {
        Error(inst->location(),
              absl::StrCat("parameter number ", number,
                           " is out of range: "
                           "computation '",
                           comp.name(), "' has ", n,
                           n == 1 ? " parameter" : " parameters",
                           ", numbered from 0"));
        continue;
      }
      if (seen[number] != nullptr) {
        Error(inst->location(),
              absl::StrCat("parameter number ", number, " is already used by '",
                           seen[number]->name(), "'"));
        continue;
      }
      seen[number] = inst.get();
    }
  }

  void CheckInstruction(const Computation& comp, const Instruction& inst,
                        const std::unordered_set<const Instruction*>& defined) {
    bool sound = !bad_shape_.contains(&inst);
    int arity = OpcodeArity(inst.opcode());
    if (arity != kVariadic && inst.operand_count() != arity) {
      Error(inst.location(),
            absl::StrCat(Sv(OpcodeName(inst.opcode())), " takes ", arity,
                         arity == 1 ? " operand" : " operands", ", got ",
                         inst.operand_count()));
      sound = false;
    }
    for (int i = 0; i < inst.operand_count(); ++i) {
      const Instruction* op = inst.operand(i);
      if (!defined.contains(op)) {
        std::string where =
            op->parent() == &comp
                ? std::string("is not defined before its use")
                : absl::StrCat("is not an instruction of computation '",
                               comp.name(), "'");
        Error(inst.location(),
              absl::StrCat("operand ", i, " '", op->name(), "' ", where));
        sound = false;
      } else if (bad_shape_.contains(op)) {
        sound = false;
      }
    }
    if (!CheckCalledComputations(inst)) sound = false;
    if (inst.opcode() == Opcode::kConstant) CheckConstant(inst);
    if (!sound) return;
    absl::StatusOr<Shape> inferred = InferShape(inst);
    if (!inferred.ok()) {
      Error(inst.location(), std::string(inferred.status().message()));
      return;
    }
    if (!inferred->Compatible(inst.shape())) {
      Error(inst.location(),
            absl::StrCat("declared shape ", ShapeText(inst.shape()),
                         " does not match inferred shape ",
                         ShapeText(*inferred)));
    }
  }

  // Called computations must belong to this module; opcodes that call
  // nothing (opcode.def's calls column is 0) must have none. The count of the
  // others and the signatures are checked by shape inference. Returns false
  // when inference must be skipped.
  bool CheckCalledComputations(const Instruction& inst) {
    const std::vector<Computation*>& called = inst.called_computations();
    if (OpcodeCalledComputationCount(inst.opcode()) == 0 && !called.empty()) {
      Error(inst.location(),
            absl::StrCat(Sv(OpcodeName(inst.opcode())), " calls ",
                         called.size(), " computations, expected none"));
      return false;
    }
    bool ok = true;
    for (const Computation* c : called) {
      if (c == nullptr) {
        Error(inst.location(), "called computation is missing");
        ok = false;
      } else if (!in_module_.contains(c)) {
        Error(inst.location(),
              absl::StrCat("called computation '", c->name(),
                           "' is not a computation of module '", module_.name(),
                           "'"));
        ok = false;
      }
    }
    return ok;
  }

  void CheckConstant(const Instruction& inst) {
    if (!inst.attrs().literal.has_value()) {
      Error(inst.location(), "constant has no literal");
      return;
    }
    const Shape& literal = inst.attrs().literal->shape();
    if (!literal.Compatible(inst.shape())) {
      Error(inst.location(),
            absl::StrCat("constant literal has shape ", ShapeText(literal),
                         ", expected ", ShapeText(inst.shape())));
    }
  }

  // Reports every back edge of the call graph as a cycle, located at the
  // instruction that closes it.
  // Also measures, once there is no cycle, the longest call chain below each
  // computation (1 for one that calls nothing) and reports the first
  // computation found to exceed kMaxComputationNesting, at the call that
  // makes it too deep.
  void CheckCallCycles() {
    enum class State { kNew, kOnPath, kDone };
    std::unordered_map<const Computation*, State> state;
    std::unordered_map<const Computation*, int> depth;
    bool cycle = false;
    const Instruction* too_deep = nullptr;
    int too_deep_depth = 0;
    struct Frame {
      const Computation* comp;
      size_t inst = 0;
      size_t callee = 0;
    };
    for (const auto& start : module_.computations()) {
      if (state[start.get()] != State::kNew) continue;
      std::vector<Frame> path = {{start.get()}};
      state[start.get()] = State::kOnPath;
      while (!path.empty()) {
        Frame& f = path.back();
        const auto& insts = f.comp->instructions();
        if (f.inst >= insts.size()) {
          state[f.comp] = State::kDone;
          int d = 1;
          const Instruction* deepest = nullptr;
          for (const auto& inst : insts) {
            for (const Computation* c : inst->called_computations()) {
              auto it = depth.find(c);
              if (it != depth.end() && it->second + 1 > d) {
                d = it->second + 1;
                deepest = inst.get();
              }
            }
          }
          depth[f.comp] = d;
          if (d > kMaxComputationNesting && too_deep == nullptr) {
            too_deep = deepest;
            too_deep_depth = d;
          }
          path.pop_back();
          continue;
        }
        const Instruction& inst = *insts[f.inst];
        if (f.callee >= inst.called_computations().size()) {
          ++f.inst;
          f.callee = 0;
          continue;
        }
        const Computation* callee = inst.called_computations()[f.callee++];
        if (callee == nullptr || !in_module_.contains(callee)) continue;
        State& s = state[callee];
        if (s == State::kOnPath) {
          ReportCycle(inst, path, callee);
          cycle = true;
        } else if (s == State::kNew) {
          s = State::kOnPath;
          path.push_back({callee});
        }
      }
    }
    if (!cycle && too_deep != nullptr) {
      Error(too_deep->location(),
            absl::StrCat("computations nest ", too_deep_depth,
                         " deep through this call, more than the limit of ",
                         kMaxComputationNesting));
    }
  }

  template <typename Path>
  void ReportCycle(const Instruction& inst, const Path& path,
                   const Computation* callee) {
    size_t first = 0;
    while (path[first].comp != callee) ++first;
    std::vector<std::string> names;
    for (size_t i = first; i < path.size(); ++i) {
      names.push_back(absl::StrCat("'", path[i].comp->name(), "'"));
    }
    names.push_back(absl::StrCat("'", callee->name(), "'"));
    // A cycle through thousands of computations is summarized.
    constexpr size_t kHead = 4;
    constexpr size_t kTail = 3;
    if (names.size() > kHead + kTail + 1) {
      size_t omitted = names.size() - kHead - kTail;
      names.erase(names.begin() + kHead, names.end() - kTail);
      names.insert(names.begin() + kHead, absl::StrCat("(", omitted, " more)"));
    }
    Error(inst.location(),
          absl::StrCat("call cycle ", absl::StrJoin(names, " -> ")));
  }

  const Module& module_;
  std::unordered_set<const Computation*> in_module_;
  std::unordered_set<const Instruction*> bad_shape_;
  std::vector<std::string> errors_;
};

}  // namespace

absl::Status VerifyModule(const Module& module) {
  return Verifier(module).Run();
}

}  // namespace aotc
