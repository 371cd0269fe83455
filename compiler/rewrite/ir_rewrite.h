// Small IR rewriting tools shared by the passes, the front ends and code
// generation: cloning an instruction onto new operands, outlining
// instructions into a fused computation, fresh instruction and computation
// names, dependence between two instructions, and removing what nothing uses.
#ifndef AOTC_COMPILER_REWRITE_IR_REWRITE_H_
#define AOTC_COMPILER_REWRITE_IR_REWRITE_H_

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/analysis/side_effects.h"
#include "compiler/ir/module.h"

namespace aotc {

// A copy of `inst` (opcode, name, shape, attributes, called computations,
// metadata, location) whose operands are `operands`. Not yet in any
// computation.
std::unique_ptr<Instruction> CloneWithOperands(
    const Instruction& inst, std::vector<Instruction*> operands);

// Whether `to` is `from` or is computed from it, transitively through
// operands (iterative: deep chains do not exhaust the stack).
bool DependsOn(const Instruction* to, const Instruction* from);

// Hands out names not used by any instruction or computation of a module.
class NameUniquer {
 public:
  explicit NameUniquer(const Module& module);
  // For a computation that may not belong to a module yet (a front end
  // building it): the names of its module if it has one, else its own.
  explicit NameUniquer(const Computation& computation);
  // `prefix` itself if free, else prefix.1, prefix.2, ...
  std::string Unique(std::string_view prefix);

 private:
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, int> next_suffix_;
};

// A fused computation made of copies of some instructions, and the
// instructions from outside it that its parameters stand for (in order:
// parameter i is operands[i]), which a fusion of it takes as operands.
struct OutlinedComputation {
  Computation* computation = nullptr;
  std::vector<Instruction*> operands;
};

// Copies `members` (instructions of one computation, in definition order)
// into a new fusion computation called `prefix` (made unique), added to
// `module` before `before`, whose root is the copy of `root` and whose
// parameters (param_0, ... unless a member has that name) stand for the
// members' operands from outside, in the order they are first read.
OutlinedComputation OutlineIntoFusionComputation(
    Module& module, const Computation& before, NameUniquer& names,
    std::string_view prefix, const std::vector<const Instruction*>& members,
    const Instruction* root);

// Outlines `members` as above (computation `prefix`) and puts a fusion of
// kind kCustom called `name` (made unique) of it in `comp`, with `root`'s
// shape, location and metadata, in place of `root`: every use of `root`
// and the root of `comp` if it was. The members stay, now unused, for dead
// code removal; `comp` needs sorting topologically after. Returns the
// fusion.
Instruction* ReplaceByCustomFusion(Module& module, Computation& comp,
                                   NameUniquer& names, std::string_view name,
                                   std::string_view prefix,
                                   const std::vector<const Instruction*>& members,
                                   const Instruction* root);

// Removes the instructions of `comp` (which must belong to a module) that
// neither the root nor an instruction with a side effect depends on; a call
// or while whose callee has a side effect counts as one. Parameters always
// stay (they are the computation's signature). Returns whether anything was
// removed.
bool RemoveDeadInstructions(Computation& comp);
// The same with the module's side effects already computed (a pass that
// sweeps every computation computes them once).
bool RemoveDeadInstructions(Computation& comp, const SideEffects& effects);

// Removes every instruction of `candidates` (and, transitively, operands of
// removed instructions) that has no users, is not the root of `comp`, is not
// a parameter and has no side effect. The candidates are instructions a
// rewrite just took the users away from; they must all be alive and belong
// to `comp`. Returns whether anything was removed.
bool RemoveDeadFrom(Computation& comp, const SideEffects& effects,
                    std::vector<Instruction*> candidates);

// The computations that run as sequences of array operations: the entry and
// what its while, conditional and call instructions call, transitively (not
// reducers, comparators or fused computations).
std::vector<Computation*> SequentialComputations(Module& module);

// Removes computations that neither the entry nor any instruction of a
// kept computation calls. Returns whether anything was removed.
bool RemoveUnusedComputations(Module& module);

}  // namespace aotc

#endif  // AOTC_COMPILER_REWRITE_IR_REWRITE_H_
