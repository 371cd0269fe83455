// Helpers shared by the data-movement kernel tests (movement_test.cc,
// gather_scatter_test.cc): running HLO text through the evaluator, building
// literals, reading results, and building instructions by hand for
// attributes that the parser or verifier would reject.
#ifndef AOTC_COMPILER_EVALUATOR_MOVEMENT_TEST_UTIL_H_
#define AOTC_COMPILER_EVALUATOR_MOVEMENT_TEST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/load_module.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/support/check.h"
#include "compiler/support/status_macros.h"
#include "gtest/gtest.h"

namespace aotc::eval::testing {

// Loads (parses and verifies) `hlo` and evaluates its entry on `args`.
inline absl::StatusOr<Literal> RunHlo(std::string_view hlo,
                                      const std::vector<Literal>& args = {}) {
  ASSIGN_OR_RETURN(std::unique_ptr<Module> module,
                   LoadModuleFromString(hlo, "test.hlo"));
  return EvaluateModule(*module, args);
}

// RunHlo that reports an error as a test failure and then returns an empty
// literal (whose Values() are empty), so that one bad case does not stop the
// remaining expectations.
inline Literal Eval(std::string_view hlo,
                    const std::vector<Literal>& args = {}) {
  absl::StatusOr<Literal> result = RunHlo(hlo, args);
  EXPECT_TRUE(result.ok()) << result.status();
  if (!result.ok()) return Literal();
  return *std::move(result);
}

inline std::vector<int64_t> Dims(const Literal& lit) {
  return lit.shape().dimensions();
}

// An array literal of `type` (whose native type is T, or a same-sized raw
// type such as uint16_t for f16 bits) holding `values` in row-major order.
template <typename T>
Literal MakeArray(PrimitiveType type, std::vector<int64_t> dims,
                  const std::vector<T>& values) {
  Literal lit(Shape::Array(type, std::move(dims)));
  absl::Span<T> data = lit.mutable_data<T>();
  AOTC_CHECK(data.size() == values.size(), "value count differs from shape");
  for (size_t i = 0; i < values.size(); ++i) data[i] = values[i];
  return lit;
}

template <typename T>
Literal MakeScalar(PrimitiveType type, T value) {
  return MakeArray<T>(type, {}, {value});
}

// The elements of an array literal in row-major order; a test failure (and
// no elements) when the literal does not hold elements of T's size, e.g. the
// empty literal a failed evaluation leaves behind.
template <typename T>
std::vector<T> Values(const Literal& lit) {
  if (!lit.shape().IsArray() ||
      StorageBytes(lit.shape().element_type()) != sizeof(T)) {
    ADD_FAILURE() << "literal " << lit.shape().ToString() << " read as "
                  << sizeof(T) << "-byte elements";
    return {};
  }
  absl::Span<const T> data = lit.data<T>();
  return std::vector<T>(data.begin(), data.end());
}

// One instruction fed by parameters, built without the parser so that tests
// can give it any attributes. Evaluate it by calling a kernel directly.
class HandBuilt {
 public:
  HandBuilt(Opcode opcode, Shape shape, const std::vector<Shape>& operands) {
    std::vector<Instruction*> raw;
    for (size_t i = 0; i < operands.size(); ++i) {
      params_.push_back(Instruction::Create(
          Opcode::kParameter, "p" + std::to_string(i), operands[i], {}));
      raw.push_back(params_.back().get());
    }
    inst_ = Instruction::Create(opcode, "op", std::move(shape), raw);
  }
  Instruction& inst() { return *inst_; }
  InstructionAttributes& attrs() { return inst_->mutable_attrs(); }
  // Gives the instruction an (empty) called computation, e.g. for scatter.
  void AddCalledComputation() {
    called_ = std::make_unique<Computation>("combiner");
    inst_->set_called_computations({called_.get()});
  }

 private:
  // Declared before inst_ so that the operands outlive their user.
  std::vector<std::unique_ptr<Instruction>> params_;
  std::unique_ptr<Instruction> inst_;
  std::unique_ptr<Computation> called_;
};

// The message a kernel reports for a hand-built instruction (which has no
// source location).
inline std::string UnlocatedError(std::string_view message) {
  return "<unknown>: error: " + std::string(message);
}

}  // namespace aotc::eval::testing

#endif  // AOTC_COMPILER_EVALUATOR_MOVEMENT_TEST_UTIL_H_
