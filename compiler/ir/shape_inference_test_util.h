// HLO-text helpers shared by the shape-inference tests.
#ifndef AOTC_COMPILER_IR_SHAPE_INFERENCE_TEST_UTIL_H_
#define AOTC_COMPILER_IR_SHAPE_INFERENCE_TEST_UTIL_H_

#include <memory>
#include <string>

#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/shape_inference.h"
#include "compiler/support/strings.h"

namespace aotc::shape_test {

// Parses `hlo` and infers the shape of instruction `name`: the shape without
// layout, or "error: <message>".
inline std::string Infer(const std::string& hlo,
                         const std::string& name = "r") {
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseHloText(hlo, "test.hlo");
  if (!module.ok()) {
    return absl::StrCat("parse error: ", module.status().message());
  }
  for (const auto& comp : (*module)->computations()) {
    const Instruction* inst = comp->FindInstruction(name);
    if (inst == nullptr) continue;
    absl::StatusOr<Shape> shape = InferShape(*inst);
    if (!shape.ok()) return absl::StrCat("error: ", shape.status().message());
    return shape->ToString(false);
  }
  return "no instruction named " + name;
}

// An entry computation around `body` (instructions, the last one ROOT r).
inline std::string Entry(const std::string& body) {
  return "HloModule m\n\nENTRY e {\n" + body + "\n}\n";
}

inline constexpr char kAddF32[] = R"(
add {
  add.a = f32[] parameter(0)
  add.b = f32[] parameter(1)
  ROOT add.r = f32[] add(add.a, add.b)
}
)";

inline std::string WithAdd(const std::string& body) {
  return std::string("HloModule m\n") + kAddF32 + "\nENTRY e {\n" + body +
         "\n}\n";
}

}  // namespace aotc::shape_test

#endif  // AOTC_COMPILER_IR_SHAPE_INFERENCE_TEST_UTIL_H_
