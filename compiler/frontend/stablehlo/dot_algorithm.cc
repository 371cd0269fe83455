// StableHLO parser: the `algorithm` attribute of dot_general,
// `#stablehlo.dot_algorithm<lhs_precision_type = bf16, rhs_precision_type =
// bf16, accumulation_type = f32, lhs_component_count = 1,
// rhs_component_count = 1, num_primitive_operations = 1,
// allow_imprecise_accumulation = false>`.
//
// The spec lets an algorithm name the precision the operands are rounded to
// and the type the products are summed in. aotc honours the algorithms it
// can compute as named and refuses the others with a located error that
// names the algorithm:
//
//   - one component, one primitive operation, the same precision type p on
//     both sides among f16, bf16, f32 and f64 and accumulation in f32 or
//     f64 (no narrower than p): the operands are converted to p (rounded to
//     nearest even), the dot sums in the accumulation type, and the result
//     is converted to the result type;
//   - tf32 on both sides, one component: the operands are rounded to tf32
//     (reduce-precision to 8 exponent and 10 mantissa bits) and multiplied
//     and summed in f32;
//   - the bf16 x3, x6 and x9 forms (bf16 precision, 3, 6 or 9 components
//     and primitive operations, f32 accumulation), which emulate an f32
//     product: an f32 dot, which is at least as accurate;
//   - allow_imprecise_accumulation is accepted and ignored (aotc never
//     accumulates less precisely than it is asked to).
#include <optional>

#include "compiler/frontend/stablehlo/dot_algorithm.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {
namespace {

struct DotAlgorithm {
  std::string lhs, rhs, accumulation;  // type names as written
  int64_t lhs_components = 1;
  int64_t rhs_components = 1;
  int64_t primitive_operations = 1;

  std::string Describe() const {
    return absl::StrCat("<lhs_precision_type = ", lhs,
                        ", rhs_precision_type = ", rhs,
                        ", accumulation_type = ", accumulation,
                        ", lhs_component_count = ", lhs_components,
                        ", rhs_component_count = ", rhs_components,
                        ", num_primitive_operations = ", primitive_operations,
                        ">");
  }
};

// The type name of a field written as a type (`f32`) or a bare word
// (`tf32`, which aotc has no element type for).
std::string TypeName(const Attr& a) {
  if (a.kind == Attr::Kind::kType) return std::string(a.tok.text);
  return a.s;
}

std::optional<PrimitiveType> FloatType(std::string_view name) {
  if (name == "f16") return PrimitiveType::kF16;
  if (name == "bf16") return PrimitiveType::kBF16;
  if (name == "f32") return PrimitiveType::kF32;
  if (name == "f64") return PrimitiveType::kF64;
  return std::nullopt;
}

// What aotc computes for an algorithm: the operands rounded to `precision`
// (or to tf32), summed in `accumulation`.
struct Plan {
  PrimitiveType precision = PrimitiveType::kF32;
  bool tf32 = false;
  PrimitiveType accumulation = PrimitiveType::kF32;
};

std::optional<Plan> PlanFor(const DotAlgorithm& a) {
  if (a.lhs != a.rhs || a.lhs_components != a.rhs_components) {
    return std::nullopt;
  }
  const std::optional<PrimitiveType> acc = FloatType(a.accumulation);
  if (!acc.has_value() || (*acc != PrimitiveType::kF32 &&
                           *acc != PrimitiveType::kF64)) {
    return std::nullopt;
  }
  const int64_t n = a.lhs_components;
  if (a.lhs == "bf16" && *acc == PrimitiveType::kF32 &&
      (n == 3 || n == 6 || n == 9) && a.primitive_operations == n) {
    return Plan{PrimitiveType::kF32, false, PrimitiveType::kF32};
  }
  if (n != 1 && !(a.lhs == "tf32" && n == 3)) return std::nullopt;
  if (a.lhs == "tf32") {
    if (*acc != PrimitiveType::kF32) return std::nullopt;
    // tf32 x3 emulates f32 like bf16 x3.
    return Plan{PrimitiveType::kF32, n == 1, PrimitiveType::kF32};
  }
  if (a.primitive_operations != 1) return std::nullopt;
  const std::optional<PrimitiveType> p = FloatType(a.lhs);
  if (!p.has_value() || BitWidth(*p) > BitWidth(*acc)) return std::nullopt;
  return Plan{*p, false, *acc};
}

}  // namespace

absl::StatusOr<Instruction*> BuildDotWithAlgorithm(
    OpBuild& b, const Attr& algorithm,
    const std::function<absl::StatusOr<Instruction*>(OpBuild&)>& dot) {
  if (algorithm.kind != Attr::Kind::kDict) {
    return aotc::ErrorAt(b.reader.At(algorithm.tok),
                            "expected #stablehlo.dot_algorithm<...>");
  }
  DotAlgorithm a;
  for (const NamedAttr& f : algorithm.dict) {
    if (f.name == "lhs_precision_type") {
      a.lhs = TypeName(f.value);
    } else if (f.name == "rhs_precision_type") {
      a.rhs = TypeName(f.value);
    } else if (f.name == "accumulation_type") {
      a.accumulation = TypeName(f.value);
    } else if (f.name == "lhs_component_count") {
      RETURN_IF_ERROR(b.reader.FieldInt(algorithm, f.name, &a.lhs_components));
    } else if (f.name == "rhs_component_count") {
      RETURN_IF_ERROR(b.reader.FieldInt(algorithm, f.name, &a.rhs_components));
    } else if (f.name == "num_primitive_operations") {
      RETURN_IF_ERROR(
          b.reader.FieldInt(algorithm, f.name, &a.primitive_operations));
    } else if (f.name != "allow_imprecise_accumulation") {
      return aotc::ErrorAt(b.reader.At(f.value.tok),
                              absl::StrCat("unknown dot algorithm field '",
                                           f.name, "'"));
    }
  }
  const std::optional<Plan> plan = PlanFor(a);
  if (!plan.has_value()) {
    return aotc::ErrorAt(
        b.reader.At(algorithm.tok),
        absl::StrCat("dot algorithm ", a.Describe(), " is not supported"));
  }
  for (Instruction*& v : b.op.operands) {
    if (!v->shape().IsArray() || !IsRealFloat(v->shape().element_type())) {
      return aotc::ErrorAt(b.reader.At(algorithm.tok),
                              "a dot algorithm needs float operands");
    }
    Shape s = v->shape();
    s.set_element_type(plan->precision);
    if (v->shape().element_type() != plan->precision) {
      v = b.EmitNamed(Opcode::kConvert, "dot.operand", s, {v});
    }
    if (plan->tf32) {
      v = b.EmitNamed(Opcode::kReducePrecision, "dot.tf32", s, {v});
      v->mutable_attrs().exponent_bits = 8;
      v->mutable_attrs().mantissa_bits = 10;
    }
  }
  if (!b.shape.IsArray()) {
    return b.reader.Error("dot_general has one result");
  }
  const Shape result = b.shape;
  b.shape.set_element_type(plan->accumulation);
  ASSIGN_OR_RETURN(Instruction * product, dot(b));
  if (result.element_type() == plan->accumulation) return product;
  return b.EmitNamed(Opcode::kConvert, "dot.result", result, {product});
}

}  // namespace aotc::shlo
