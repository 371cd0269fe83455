// Computation: a list of instructions in definition order with one root.
//
// The computation owns its instructions. Definition order is a topological
// order (operands before users), as in HLO text.
#ifndef AOTC_COMPILER_IR_COMPUTATION_H_
#define AOTC_COMPILER_IR_COMPUTATION_H_

#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/instruction.h"

namespace aotc {

class Module;

class Computation {
 public:
  explicit Computation(std::string name, Location location = {})
      : name_(std::move(name)), location_(std::move(location)) {}

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  const Location& location() const { return location_; }

  // Appends an instruction; returns it.
  Instruction* AddInstruction(std::unique_ptr<Instruction> inst);
  // Removes an instruction that has no users and is not the root.
  void RemoveInstruction(Instruction* inst);
  // Removes several such instructions in one sweep (linear, not quadratic);
  // their operand edges are dropped first, so they may use each other.
  void RemoveInstructions(const std::vector<Instruction*>& insts);
  // Restores definition order after rewrites appended instructions: a
  // stable topological order (operands before users) that keeps the current
  // relative order wherever the operands allow it.
  void SortTopologically();

  const std::vector<std::unique_ptr<Instruction>>& instructions() const {
    return instructions_;
  }
  int instruction_count() const {
    return static_cast<int>(instructions_.size());
  }

  Instruction* root() const { return root_; }
  void set_root(Instruction* root) { root_ = root; }

  // Parameter instructions ordered by parameter number (valid once the
  // verifier has checked the numbering; before that, in definition order).
  std::vector<Instruction*> parameters() const;
  int num_parameters() const;
  // The parameter with number i, or nullptr.
  Instruction* parameter(int64_t i) const;

  Instruction* FindInstruction(std::string_view name) const;

  Module* parent() const { return parent_; }
  void set_parent(Module* m) { parent_ = m; }

  bool is_fusion_computation() const { return is_fusion_; }
  void set_is_fusion_computation(bool f) { is_fusion_ = f; }
  // `execution_thread="..."` after the closing brace; empty when absent.
  const std::string& execution_thread() const { return execution_thread_; }
  void set_execution_thread(std::string t) { execution_thread_ = std::move(t); }

 private:
  std::string name_;
  Location location_;
  std::vector<std::unique_ptr<Instruction>> instructions_;
  Instruction* root_ = nullptr;
  Module* parent_ = nullptr;
  bool is_fusion_ = false;
  std::string execution_thread_;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_COMPUTATION_H_
