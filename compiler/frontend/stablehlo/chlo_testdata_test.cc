// The CHLO lowering on the StableHLO test data (shared/stablehlo-testdata):
// every file whose only operation is one element-wise CHLO op gives inputs
// and the values JAX expects; the lowering, run by the evaluator and
// compiled, must meet the file's own check (expect_close: within 3 ulps;
// expect_almost_eq: within 1e-3), except where the file's own value is off
// the exact one (computed here with the C++ library in long double) and
// ours is within one ulp of it. The files are read directly: this test
// needs no StableHLO parser, only the hex constants of @inputs and
// @expected. Skipped when the test data is not there.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/tests/codegen_test_util.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/stablehlo/chlo_lowering.h"
#include "compiler/ir/printer.h"

namespace aotc {
namespace {

using P = PrimitiveType;

const std::string kTestdataDir =
    std::string(AOTC_CORPUS_DIR) + "/../stablehlo-testdata";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::optional<P> TypeFromMlir(std::string_view t) {
  if (t == "f16") return P::kF16;
  if (t == "bf16") return P::kBF16;
  if (t == "f32") return P::kF32;
  if (t == "f64") return P::kF64;
  return std::nullopt;
}

// The hex-encoded dense constants (`dense<"0x...">`) between `from` and the
// next `return`, as literals of `shape` (a splat has one element's bytes).
std::vector<Literal> HexConstants(const std::string& text,
                                  std::string_view from, const Shape& shape) {
  std::vector<Literal> out;
  size_t pos = text.find(from);
  const size_t end = text.find("return", pos);
  const int bytes = StorageBytes(shape.element_type());
  while (pos != std::string::npos) {
    pos = text.find("dense<\"0x", pos);
    if (pos == std::string::npos || pos > end) break;
    pos += 9;
    const size_t close = text.find('"', pos);
    const std::string hex = text.substr(pos, close - pos);
    std::vector<uint8_t> raw;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
      raw.push_back(
          static_cast<uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    }
    Literal lit(shape);
    const size_t total = static_cast<size_t>(shape.ElementCount()) * bytes;
    for (size_t i = 0; i < total; ++i) {
      lit.mutable_raw()[i] = raw.size() == total ? raw[i] : raw[i % bytes];
    }
    out.push_back(std::move(lit));
    pos = close;
  }
  return out;
}

// The position of a float's bits on a line where consecutive floats are
// one apart (sign-magnitude folded into two's complement).
int64_t OrderedBits(const uint8_t* p, int bytes) {
  uint64_t bits = 0;
  std::memcpy(&bits, p, bytes);
  const uint64_t sign = uint64_t{1} << (bytes * 8 - 1);
  const int64_t magnitude = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) ? -magnitude : magnitude;
}

double AsDouble(const uint8_t* p, P type) {
  switch (type) {
    case P::kF16: {
      uint16_t b;
      std::memcpy(&b, p, 2);
      return HalfToFloat(b);
    }
    case P::kBF16: {
      uint16_t b;
      std::memcpy(&b, p, 2);
      return BFloat16ToFloat(b);
    }
    case P::kF32: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    default: {
      double d;
      std::memcpy(&d, p, 8);
      return d;
    }
  }
}

// The C++ library's function for the ops that have one, in long double.
std::function<long double(long double)> LibraryFunction(std::string_view op) {
  if (op == "sinh") return [](long double x) { return std::sinh(x); };
  if (op == "cosh") return [](long double x) { return std::cosh(x); };
  if (op == "tan") return [](long double x) { return std::tan(x); };
  if (op == "erf") return [](long double x) { return std::erf(x); };
  if (op == "erfc") return [](long double x) { return std::erfc(x); };
  if (op == "lgamma") return [](long double x) { return std::lgamma(x); };
  return nullptr;
}

// Whether `g` is within one step of type `type` of the exact value `exact`.
bool WithinOneUlp(const uint8_t* g, long double exact, P type) {
  const int bytes = StorageBytes(type);
  Literal rounded(Shape::Scalar(type));
  switch (type) {
    case P::kF16:
      rounded.Set(0, Half(static_cast<float>(exact)));
      break;
    case P::kBF16:
      rounded.Set(0, BFloat16(static_cast<float>(exact)));
      break;
    case P::kF32:
      rounded.Set(0, static_cast<float>(exact));
      break;
    default:
      rounded.Set(0, static_cast<double>(exact));
      break;
  }
  return std::llabs(OrderedBits(g, bytes) -
                    OrderedBits(rounded.raw(), bytes)) <= 1;
}

// How many elements of `got` miss `want` under the file's check. Where the
// file's value is itself off (checked against the C++ library in long
// double) and `got` is within one ulp of the exact value, the element
// counts in `file_off` instead.
int Mismatches(const Literal& got, const Literal& want, const Literal& input,
               const std::function<long double(long double)>& exact, bool close,
               const std::string& what, int* file_off) {
  const P type = want.shape().element_type();
  const int bytes = StorageBytes(type);
  int bad = 0;
  for (int64_t i = 0; i < want.element_count(); ++i) {
    const uint8_t* g = got.raw() + i * bytes;
    const uint8_t* w = want.raw() + i * bytes;
    const double gd = AsDouble(g, type), wd = AsDouble(w, type);
    bool ok;
    if (std::isnan(gd) || std::isnan(wd)) {
      ok = std::isnan(gd) && std::isnan(wd);
    } else if (close) {
      ok = std::llabs(OrderedBits(g, bytes) - OrderedBits(w, bytes)) <= 3;
    } else {
      ok = gd == wd || std::fabs(gd - wd) <= 1e-3;
    }
    if (!ok && exact != nullptr) {
      const long double e = exact(AsDouble(input.raw() + i * bytes, type));
      if (WithinOneUlp(g, e, type) && !WithinOneUlp(w, e, type)) {
        ++*file_off;
        continue;
      }
    }
    if (!ok && ++bad <= 3) {
      ADD_FAILURE() << what << " element " << i << ": got " << gd
                    << ", expected " << wd;
    }
  }
  return bad;
}

struct Case {
  std::string file, op, check;
  P type;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  std::ifstream index(kTestdataDir + "/INDEX.tsv");
  std::string line;
  while (std::getline(index, line)) {
    std::vector<std::string> col;
    std::stringstream s(line);
    for (std::string c; std::getline(s, c, '\t');) col.push_back(c);
    if (col.size() < 4 || col[1].rfind("chlo.", 0) != 0 ||
        col[1].find(',') != std::string::npos || col[1] == "chlo.top_k") {
      continue;
    }
    std::optional<P> type = TypeFromMlir(col[3]);
    if (!type) continue;
    cases.push_back({col[0], "", col[2], *type});
  }
  return cases;
}

TEST(ChloTestdataTest, LoweringMeetsTheFilesChecks) {
  const std::vector<Case> cases = Cases();
  if (cases.empty()) GTEST_SKIP() << "no test data at " << kTestdataDir;
  int files = 0, failed_files = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string text = ReadFile(kTestdataDir + "/" + c.file);
    const size_t at = text.find("chlo.");
    ASSERT_NE(at, std::string::npos);
    const size_t name_end = text.find_first_of(" (", at);
    const std::string op_name = text.substr(at + 5, name_end - at - 5);
    // The shape: the first tensor type of @main's result.
    const size_t t0 = text.find("tensor<", text.find("@main"));
    const std::string tensor = text.substr(t0 + 7, text.find('>', t0) - t0 - 7);
    std::vector<int64_t> dims;
    std::stringstream ds(tensor);
    std::string part, elem;
    while (std::getline(ds, part, 'x')) {
      if (!part.empty() && std::isdigit(part[0]))
        dims.push_back(std::stoll(part));
      else
        elem = part;
    }
    const Shape shape = Shape::Array(c.type, dims);
    std::vector<Literal> inputs =
        HexConstants(text, "func.func private @inputs", shape);
    std::vector<Literal> expected =
        HexConstants(text, "func.func private @expected", shape);
    if (inputs.empty() || expected.size() != 1) continue;  // decimal constants

    Module module("m");
    auto entry = std::make_unique<Computation>("e");
    ChloOp op;
    op.name = op_name;
    for (size_t i = 0; i < inputs.size(); ++i) {
      auto p = Instruction::Create(Opcode::kParameter, "p" + std::to_string(i),
                                   shape, {});
      p->mutable_attrs().parameter_number = static_cast<int64_t>(i);
      op.operands.push_back(entry->AddInstruction(std::move(p)));
    }
    op.result_shape = shape;
    absl::StatusOr<Instruction*> root = LowerChloOp(op, *entry);
    ASSERT_TRUE(root.ok()) << root.status();
    entry->set_root(*root);
    module.set_entry(module.AddComputation(std::move(entry)));
    ++files;
    const bool close = c.check == "expect_close";
    auto evaluated = EvaluateModule(module, inputs);
    ASSERT_TRUE(evaluated.ok()) << evaluated.status();
    const auto exact = inputs.size() == 1 ? LibraryFunction(op_name) : nullptr;
    int file_off = 0, ignored = 0;
    const int eval_bad = Mismatches(*evaluated, expected[0], inputs[0], exact,
                                    close, "evaluator", &file_off);
    auto compiled = codegen::testing::CompileAndRun(PrintModule(module), inputs,
                                                    2, /*optimize=*/true);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    const int jit_bad = Mismatches((*compiled)[0], expected[0], inputs[0],
                                   exact, close, "compiled", &ignored);
    if (eval_bad + jit_bad > 0) ++failed_files;
    std::printf(
        "%-52s %-11s %-16s %d mismatches evaluated, %d compiled, of %lld; "
        "%d expected values off the exact value\n",
        c.file.c_str(), op_name.c_str(), c.check.c_str(), eval_bad, jit_bad,
        static_cast<long long>(shape.ElementCount()), file_off);
  }
  std::printf("%d files, %d with mismatches\n", files, failed_files);
}

// An MLIR tensor type ("5x3xf32") as a shape; any element type top_k's
// files use.
std::optional<Shape> ShapeFromMlir(const std::string& tensor) {
  static const std::pair<std::string_view, P> kTypes[] = {
      {"f16", P::kF16}, {"bf16", P::kBF16}, {"f32", P::kF32},
      {"f64", P::kF64}, {"i1", P::kPred},   {"i8", P::kS8},
      {"i16", P::kS16}, {"i32", P::kS32},   {"i64", P::kS64},
      {"ui8", P::kU8},  {"ui16", P::kU16},  {"ui32", P::kU32},
      {"ui64", P::kU64}};
  std::vector<int64_t> dims;
  std::stringstream ds(tensor);
  std::string part, elem;
  while (std::getline(ds, part, 'x')) {
    if (!part.empty() && std::isdigit(part[0])) {
      dims.push_back(std::stoll(part));
    } else {
      elem = part;
    }
  }
  for (const auto& [name, type] : kTypes) {
    if (name == elem) return Shape::Array(type, dims);
  }
  return std::nullopt;
}

// A decimal dense constant (`dense<[[1.5, -2], ...]>`, true / false for
// i1) as a literal of `shape`.
Literal DecimalConstant(const std::string& body, const Shape& shape) {
  std::vector<double> values;
  for (size_t i = 0; i < body.size();) {
    if (body.compare(i, 4, "true") == 0) {
      values.push_back(1), i += 4;
    } else if (body.compare(i, 5, "false") == 0) {
      values.push_back(0), i += 5;
    } else if (std::isdigit(body[i]) || body[i] == '-' || body[i] == '+') {
      size_t used = 0;
      values.push_back(std::stod(body.substr(i), &used));
      i += used;
    } else {
      ++i;
    }
  }
  Literal lit(shape);
  const int64_t n = shape.ElementCount();
  for (int64_t k = 0; k < n; ++k) {
    const double v = values.size() == 1 ? values[0] : values.at(k);
    switch (shape.element_type()) {
      case P::kF16:
        lit.Set(k, Half(static_cast<float>(v)));
        break;
      case P::kBF16:
        lit.Set(k, BFloat16(static_cast<float>(v)));
        break;
      case P::kF32:
        lit.Set(k, static_cast<float>(v));
        break;
      case P::kF64:
        lit.Set(k, v);
        break;
      case P::kPred:
        lit.Set(k, static_cast<uint8_t>(v != 0));
        break;
      case P::kS8:
        lit.Set(k, static_cast<int8_t>(v));
        break;
      case P::kS16:
        lit.Set(k, static_cast<int16_t>(v));
        break;
      case P::kS32:
        lit.Set(k, static_cast<int32_t>(v));
        break;
      case P::kS64:
        lit.Set(k, static_cast<int64_t>(v));
        break;
      case P::kU8:
        lit.Set(k, static_cast<uint8_t>(v));
        break;
      case P::kU16:
        lit.Set(k, static_cast<uint16_t>(v));
        break;
      case P::kU32:
        lit.Set(k, static_cast<uint32_t>(v));
        break;
      default:
        lit.Set(k, static_cast<uint64_t>(v));
        break;
    }
  }
  return lit;
}

// The decimal constants of the function starting at `from`, with their types.
std::vector<Literal> DecimalConstants(const std::string& text,
                                      std::string_view from) {
  std::vector<Literal> out;
  size_t pos = text.find(from);
  const size_t end = text.find("return", pos);
  while (true) {
    pos = text.find("dense<", pos);
    if (pos == std::string::npos || pos > end) break;
    const size_t close = text.find("> : tensor<", pos);
    const size_t t0 = close + 11;
    const std::optional<Shape> shape =
        ShapeFromMlir(text.substr(t0, text.find('>', t0) - t0));
    if (!shape) return {};
    out.push_back(
        DecimalConstant(text.substr(pos + 6, close - pos - 6), *shape));
    pos = close;
  }
  return out;
}

TEST(ChloTestdataTest, TopKMatchesTheFiles) {
  // The files' values and indices must be equal (expect_eq): same order,
  // same ties.
  int files = 0;
  for (const char* name :
       {"top_k_bfloat16_5_3_chlo.mlir", "top_k_bool_5_3_chlo.mlir",
        "top_k_float16_5_3_chlo.mlir", "top_k_float32_5_3_chlo.mlir",
        "top_k_int16_5_3_chlo.mlir", "top_k_int32_5_3_chlo.mlir",
        "top_k_int32_6_chlo.mlir", "top_k_int64_5_3_chlo.mlir",
        "top_k_int8_5_3_chlo.mlir", "top_k_uint16_5_3_chlo.mlir",
        "top_k_uint32_5_3_chlo.mlir", "top_k_uint8_5_3_chlo.mlir"}) {
    const std::string text = ReadFile(kTestdataDir + "/" + name);
    if (text.empty()) continue;
    SCOPED_TRACE(name);
    std::vector<Literal> inputs =
        DecimalConstants(text, "func.func private @inputs");
    std::vector<Literal> expected =
        DecimalConstants(text, "func.func private @expected");
    ASSERT_EQ(inputs.size(), 1u);
    ASSERT_EQ(expected.size(), 2u);
    const size_t k_at = text.find("k = ");
    ASSERT_NE(k_at, std::string::npos);
    Module module("m");
    auto entry = std::make_unique<Computation>("e");
    auto p =
        Instruction::Create(Opcode::kParameter, "p0", inputs[0].shape(), {});
    p->mutable_attrs().parameter_number = 0;
    ChloOp op;
    op.name = "top_k";
    op.operands.push_back(entry->AddInstruction(std::move(p)));
    op.result_shape = Shape::Tuple({expected[0].shape(), expected[1].shape()});
    op.k = std::stoll(text.substr(k_at + 4));
    absl::StatusOr<Instruction*> root = LowerChloOp(op, *entry);
    ASSERT_TRUE(root.ok()) << root.status();
    entry->set_root(*root);
    module.set_entry(module.AddComputation(std::move(entry)));
    ++files;
    auto evaluated = EvaluateModule(module, inputs);
    ASSERT_TRUE(evaluated.ok()) << evaluated.status();
    auto compiled = codegen::testing::CompileAndRun(PrintModule(module), inputs,
                                                    2, /*optimize=*/true);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    for (int r = 0; r < 2; ++r) {
      EXPECT_TRUE(evaluated->tuple_elements()[r].BitwiseEquals(expected[r]))
          << "evaluated result " << r;
      EXPECT_TRUE((*compiled)[r].BitwiseEquals(expected[r]))
          << "compiled result " << r;
    }
  }
  if (files == 0) GTEST_SKIP() << "no test data at " << kTestdataDir;
  std::printf("top_k: %d files\n", files);
}

}  // namespace
}  // namespace aotc
