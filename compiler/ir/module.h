// Module: the computations of one HLO module and its entry.
//
// Computations are kept in definition order: callees before callers, as HLO
// text requires. Header attributes aotc does not interpret are kept verbatim.
#ifndef AOTC_COMPILER_IR_MODULE_H_
#define AOTC_COMPILER_IR_MODULE_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/computation.h"

namespace aotc {

class Module {
 public:
  explicit Module(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  Computation* AddComputation(std::unique_ptr<Computation> c);
  // Inserts `c` just before `before` (a callee goes before its callers).
  Computation* AddComputationBefore(std::unique_ptr<Computation> c,
                                    const Computation* before);
  // Removes a computation nothing calls any more (not the entry).
  void RemoveComputation(const Computation* c);
  const std::vector<std::unique_ptr<Computation>>& computations() const {
    return computations_;
  }
  Computation* FindComputation(std::string_view name) const;

  Computation* entry() const { return entry_; }
  void set_entry(Computation* c) { entry_ = c; }

  // Header attributes after `HloModule name,` in source order, e.g.
  // {"entry_computation_layout", "{(f32[2]{0})->f32[2]{0}}"},
  // {"is_scheduled", "true"}.
  const std::vector<std::pair<std::string, std::string>>& header_attributes()
      const {
    return header_attributes_;
  }
  std::vector<std::pair<std::string, std::string>>& mutable_header_attributes() {
    return header_attributes_;
  }
  const std::string* FindHeaderAttribute(std::string_view key) const;

  // The FileNames / FunctionNames / FileLocations / StackFrames tables of
  // newer dumps, verbatim (empty when absent).
  const std::string& stack_frame_tables() const { return stack_frame_tables_; }
  void set_stack_frame_tables(std::string t) {
    stack_frame_tables_ = std::move(t);
  }

  // The input this module was read from (for diagnostics); may be null.
  const std::shared_ptr<const SourceFile>& source() const { return source_; }
  void set_source(std::shared_ptr<const SourceFile> s) { source_ = std::move(s); }

  int64_t instruction_count() const;

 private:
  std::string name_;
  std::vector<std::unique_ptr<Computation>> computations_;
  Computation* entry_ = nullptr;
  std::vector<std::pair<std::string, std::string>> header_attributes_;
  std::string stack_frame_tables_;
  std::shared_ptr<const SourceFile> source_;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_MODULE_H_
