// StableHLO parser: operations on uniform quantized tensors (quant_type.h),
// lowered into integer and float HLO instructions as the StableHLO spec
// defines them:
//
//   dequantize(x) = (convert(x) - zero_point) * scale
//   quantize(x)   = convert(round_nearest_even(clamp(storage_min,
//                       x / scale + zero_point, storage_max)))
//
// with scale, zero point and range converted to the expressed type, per
// tensor or broadcast along the quantization dimension. The spec subtracts
// the zero point in the storage type; here both are converted first, which
// is the same value wherever the storage subtraction does not overflow
// (storage of at most 16 bits is exact in every expressed type aotc takes).
//
// Each operation follows one rule of kQuantRules: element-wise arithmetic,
// dot_general and convolution dequantize their quantized operands, compute
// in the expressed type and quantize the result if it is quantized (the
// spec's dequantize_op_quantize, and its hybrid form with float operands);
// movement operations work on the storage values, their operands and
// result quantized alike; reduce, sort, scatter and the window operations
// move storage values and leave the arithmetic to their regions, whose
// arguments are quantized too; calls, control flow and tuples pass values
// through.
// Every other operation on a quantized value is refused with a located
// error.
#include <algorithm>
#include <set>
#include <utility>

#include "compiler/frontend/stablehlo/op_builders.h"
#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/frontend/stablehlo/quant_type.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {
namespace {

enum class QuantRule {
  kDequantizeOpQuantize,  // compute in the expressed type
  kStorage,               // move the storage values
  kPassThrough,           // calls, control flow, tuples
  kRegions,               // on storage, the regions compute on quantized values
  kOwn,                   // uniform_quantize, uniform_dequantize
};

struct QuantRuleEntry {
  std::string_view name;  // without "stablehlo."
  QuantRule rule;
};

// The StableHLO operations that take quantized tensors, by rule.
constexpr QuantRuleEntry kQuantRules[] = {
    {"abs", QuantRule::kDequantizeOpQuantize},
    {"add", QuantRule::kDequantizeOpQuantize},
    {"atan2", QuantRule::kDequantizeOpQuantize},
    {"bitcast_convert", QuantRule::kPassThrough},
    {"broadcast_in_dim", QuantRule::kStorage},
    {"call", QuantRule::kPassThrough},
    {"case", QuantRule::kPassThrough},
    {"cbrt", QuantRule::kDequantizeOpQuantize},
    {"ceil", QuantRule::kDequantizeOpQuantize},
    {"clamp", QuantRule::kDequantizeOpQuantize},
    {"compare", QuantRule::kDequantizeOpQuantize},
    {"composite", QuantRule::kPassThrough},
    {"concatenate", QuantRule::kStorage},
    {"constant", QuantRule::kStorage},
    {"convolution", QuantRule::kDequantizeOpQuantize},
    {"cosine", QuantRule::kDequantizeOpQuantize},
    {"custom_call", QuantRule::kPassThrough},
    {"divide", QuantRule::kDequantizeOpQuantize},
    {"dot", QuantRule::kDequantizeOpQuantize},
    {"dot_general", QuantRule::kDequantizeOpQuantize},
    {"dynamic_slice", QuantRule::kStorage},
    {"dynamic_update_slice", QuantRule::kStorage},
    {"exponential", QuantRule::kDequantizeOpQuantize},
    {"exponential_minus_one", QuantRule::kDequantizeOpQuantize},
    {"floor", QuantRule::kDequantizeOpQuantize},
    {"gather", QuantRule::kStorage},
    {"get_tuple_element", QuantRule::kPassThrough},
    {"if", QuantRule::kPassThrough},
    {"log", QuantRule::kDequantizeOpQuantize},
    {"log_plus_one", QuantRule::kDequantizeOpQuantize},
    {"logistic", QuantRule::kDequantizeOpQuantize},
    {"map", QuantRule::kRegions},
    {"maximum", QuantRule::kDequantizeOpQuantize},
    {"minimum", QuantRule::kDequantizeOpQuantize},
    {"multiply", QuantRule::kDequantizeOpQuantize},
    {"negate", QuantRule::kDequantizeOpQuantize},
    {"optimization_barrier", QuantRule::kPassThrough},
    {"pad", QuantRule::kStorage},
    {"power", QuantRule::kDequantizeOpQuantize},
    {"reduce", QuantRule::kRegions},
    {"reduce_precision", QuantRule::kDequantizeOpQuantize},
    {"reduce_window", QuantRule::kRegions},
    {"remainder", QuantRule::kDequantizeOpQuantize},
    {"reshape", QuantRule::kStorage},
    {"reverse", QuantRule::kStorage},
    {"round_nearest_afz", QuantRule::kDequantizeOpQuantize},
    {"round_nearest_even", QuantRule::kDequantizeOpQuantize},
    {"rsqrt", QuantRule::kDequantizeOpQuantize},
    {"scatter", QuantRule::kRegions},
    {"select", QuantRule::kStorage},
    {"select_and_scatter", QuantRule::kRegions},
    {"sign", QuantRule::kDequantizeOpQuantize},
    {"sine", QuantRule::kDequantizeOpQuantize},
    {"slice", QuantRule::kStorage},
    {"sqrt", QuantRule::kDequantizeOpQuantize},
    {"sort", QuantRule::kRegions},
    {"subtract", QuantRule::kDequantizeOpQuantize},
    {"tan", QuantRule::kDequantizeOpQuantize},
    {"tanh", QuantRule::kDequantizeOpQuantize},
    {"transpose", QuantRule::kStorage},
    {"tuple", QuantRule::kPassThrough},
    {"uniform_dequantize", QuantRule::kOwn},
    {"uniform_quantize", QuantRule::kOwn},
    {"while", QuantRule::kPassThrough},
};

const QuantRuleEntry* FindQuantRule(std::string_view name) {
  for (const QuantRuleEntry& e : kQuantRules) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// Whether a movement operation may give `result` for an operand of type
// `operand`: per tensor, the same parameters; per axis (whose slices a
// movement reorders or repeats), the same storage and expressed types and
// range, and only (scale, zero point) pairs the operand has.
bool StorageCompatible(const QuantType& operand, const QuantType& result) {
  if (!operand.per_axis() && !result.per_axis()) {
    return operand.SameParameters(result);
  }
  if (operand.storage != result.storage ||
      operand.expressed != result.expressed ||
      operand.storage_min != result.storage_min ||
      operand.storage_max != result.storage_max) {
    return false;
  }
  std::set<std::pair<double, int64_t>> pairs;
  for (size_t i = 0; i < operand.scales.size(); ++i) {
    pairs.insert({operand.scales[i], operand.zero_points[i]});
  }
  for (size_t i = 0; i < result.scales.size(); ++i) {
    if (pairs.count({result.scales[i], result.zero_points[i]}) == 0) {
      return false;
    }
  }
  return true;
}

// Emits the arithmetic of quantization into the operation's computation,
// at its location.
class QuantEmitter {
 public:
  explicit QuantEmitter(OpBuild& b) : b_(b) {}

  // (convert(x) - zero_point) * scale, in q.expressed.
  Instruction* Dequantize(Instruction* x, const QuantType& q) {
    const Shape shape = WithType(x->shape(), q.expressed);
    Instruction* xf = Emit(Opcode::kConvert, shape, {x});
    Instruction* centred =
        Emit(Opcode::kSubtract, shape, {xf, ZeroPoints(q, shape)});
    return Emit(Opcode::kMultiply, shape, {centred, Scales(q, shape)});
  }

  // The spec's quantize of a float tensor into q's storage type.
  Instruction* Quantize(Instruction* x, const QuantType& q) {
    const Shape shape = WithType(x->shape(), q.expressed);
    if (x->shape().element_type() != q.expressed) {
      x = Emit(Opcode::kConvert, shape, {x});
    }
    Instruction* scaled = Emit(Opcode::kDivide, shape, {x, Scales(q, shape)});
    Instruction* shifted =
        Emit(Opcode::kAdd, shape, {scaled, ZeroPoints(q, shape)});
    Instruction* clamped = Emit(
        Opcode::kClamp, shape,
        {Splat(static_cast<double>(q.storage_min), shape), shifted,
         Splat(static_cast<double>(q.storage_max), shape)});
    Instruction* rounded = Emit(Opcode::kRoundNearestEven, shape, {clamped});
    return Emit(Opcode::kConvert, WithType(shape, q.storage), {rounded});
  }

 private:
  static Shape WithType(Shape s, PrimitiveType t) {
    s.set_element_type(t);
    return s;
  }

  Instruction* Emit(Opcode opcode, Shape shape, std::vector<Instruction*> v) {
    return b_.EmitNamed(opcode, absl::StrCat("quant.", Sv(OpcodeName(opcode))),
                        std::move(shape), std::move(v));
  }

  // `values` (one, or one per slice of q's axis) as f64, converted to
  // `shape`'s element type once and broadcast to it.
  Instruction* Parameters(const std::vector<double>& values,
                          const QuantType& q, const Shape& shape) {
    const int64_t n = static_cast<int64_t>(values.size());
    const bool per_axis = q.per_axis();
    const Shape wide = per_axis ? Shape::Array(PrimitiveType::kF64, {n})
                                : Shape::Scalar(PrimitiveType::kF64);
    Literal literal(wide);
    for (int64_t i = 0; i < n; ++i) {
      literal.mutable_data<double>()[i] = values[static_cast<size_t>(i)];
    }
    Instruction* c = Emit(Opcode::kConstant, wide, {});
    c->mutable_attrs().literal = std::move(literal);
    Instruction* narrow = Emit(
        Opcode::kConvert, WithType(wide, shape.element_type()), {c});
    Instruction* broadcast = Emit(Opcode::kBroadcast, shape, {narrow});
    if (per_axis) broadcast->mutable_attrs().dimensions = {*q.axis};
    return broadcast;
  }

  Instruction* Scales(const QuantType& q, const Shape& shape) {
    return Parameters(q.scales, q, shape);
  }
  Instruction* ZeroPoints(const QuantType& q, const Shape& shape) {
    std::vector<double> zps(q.zero_points.begin(), q.zero_points.end());
    return Parameters(zps, q, shape);
  }
  Instruction* Splat(double value, const Shape& shape) {
    QuantType scalar;
    return Parameters({value}, scalar, shape);
  }

  OpBuild& b_;
};

}  // namespace

bool Parser::HasQuantizedValues(const OpState& op) const {
  if (!op.result_quants.empty()) return true;
  return std::any_of(op.operands.begin(), op.operands.end(),
                     [&](const Instruction* v) { return quant_of_.count(v); });
}

const QuantType* Parser::QuantOf(const Instruction* v) const {
  auto it = quant_of_.find(v);
  return it == quant_of_.end() ? nullptr : &it->second;
}

absl::StatusOr<Instruction*> OpBuilders::Quantized(OpBuild& b,
                                                   OpBuilder build) {
  const QuantRuleEntry* rule = FindQuantRule(b.name);
  if (rule == nullptr) {
    return b.parser.ErrorAt(
        b.op.name_tok, absl::StrCat("quantized operands or results of '",
                                    b.op.name, "' are not supported"));
  }
  if (rule->rule == QuantRule::kOwn || rule->rule == QuantRule::kPassThrough) {
    return build(b);
  }
  if (rule->rule == QuantRule::kRegions) {
    // The storage values move as they are; each step of the region (a
    // reducer, a comparator) dequantizes, computes and quantizes, as the
    // spec applies the body to quantized values. A region written as an
    // operation name (`applies stablehlo.add`) would add the storage
    // integers instead, so its arguments must be quantized too.
    for (const Computation* region : b.op.regions) {
      const std::vector<Instruction*> params = region->parameters();
      if (std::none_of(params.begin(), params.end(), [&](Instruction* p) {
            return b.parser.QuantOf(p) != nullptr;
          })) {
        return b.parser.ErrorAt(
            b.op.name_tok,
            absl::StrCat("the region of quantized '", b.op.name,
                         "' must take quantized arguments; write it out "
                         "instead of naming an operation"));
      }
    }
    return build(b);
  }
  const QuantType* result =
      b.op.result_quants.empty() || !b.op.result_quants[0].has_value()
          ? nullptr
          : &*b.op.result_quants[0];
  if (rule->rule == QuantRule::kStorage) {
    for (size_t i = 0; i < b.op.operands.size(); ++i) {
      const QuantType* q = b.parser.QuantOf(b.op.operands[i]);
      if (q == nullptr) continue;
      if (result == nullptr || !StorageCompatible(*q, *result)) {
        return b.parser.ErrorAt(
            b.op.name_tok,
            absl::StrCat("mismatched quantization: operand ", i, " of '",
                         b.op.name, "' is ", q->ToString(), ", its result ",
                         result == nullptr ? "is not quantized"
                                           : result->ToString()));
      }
    }
    return build(b);
  }
  // Dequantize, compute in the expressed type, quantize.
  if (b.op.result_types.size() != 1) {
    return b.parser.ErrorAt(b.op.name_tok,
                            "a quantized operation has one result");
  }
  QuantEmitter emit(b);
  std::optional<PrimitiveType> compute;
  for (size_t i = 0; i < b.op.operands.size(); ++i) {
    Instruction*& v = b.op.operands[i];
    const QuantType* q = b.parser.QuantOf(v);
    if (q != nullptr) {
      v = emit.Dequantize(v, *q);
    } else if (!v->shape().IsArray() ||
               !IsRealFloat(v->shape().element_type())) {
      return b.parser.ErrorAt(
          b.op.operand_toks.size() > i ? b.op.operand_toks[i] : b.op.name_tok,
          absl::StrCat("operand ", i, " of quantized '", b.op.name,
                       "' is neither quantized nor a float tensor"));
    }
    const PrimitiveType t = v->shape().element_type();
    if (compute.has_value() && *compute != t) {
      return b.parser.ErrorAt(
          b.op.name_tok,
          absl::StrCat("mismatched quantization: the operands of '", b.op.name,
                       "' are expressed in ", Sv(PrimitiveTypeName(*compute)),
                       " and ", Sv(PrimitiveTypeName(t))));
    }
    compute = t;
  }
  if (result != nullptr) {
    if (compute.has_value() && *compute != result->expressed) {
      return b.parser.ErrorAt(
          b.op.name_tok,
          absl::StrCat("mismatched quantization: the result of '", b.op.name,
                       "' is expressed in ",
                       Sv(PrimitiveTypeName(result->expressed)),
                       ", its operands in ",
                       Sv(PrimitiveTypeName(*compute))));
    }
    b.shape.set_element_type(result->expressed);
    b.op.result_types[0] = b.shape;
  }
  ASSIGN_OR_RETURN(Instruction * value, build(b));
  if (result == nullptr) return value;
  return emit.Quantize(value, *result);
}

absl::StatusOr<Instruction*> OpBuilders::UniformQuantize(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(1));
  if (b.op.result_quants.empty() || !b.op.result_quants[0].has_value()) {
    return b.parser.ErrorAt(b.op.name_tok,
                            "uniform_quantize needs a quantized result type");
  }
  QuantEmitter emit(b);
  Instruction* x = b.op.operands[0];
  if (const QuantType* q = b.parser.QuantOf(x)) {
    x = emit.Dequantize(x, *q);  // requantization
  } else if (!x->shape().IsArray() || !IsRealFloat(x->shape().element_type())) {
    return b.parser.ErrorAt(b.op.name_tok,
                            "uniform_quantize takes a float or a quantized "
                            "tensor");
  }
  return emit.Quantize(x, *b.op.result_quants[0]);
}

absl::StatusOr<Instruction*> OpBuilders::UniformDequantize(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(1));
  const QuantType* q = b.parser.QuantOf(b.op.operands[0]);
  if (q == nullptr) {
    return b.parser.ErrorAt(b.op.name_tok,
                            "uniform_dequantize takes a quantized tensor");
  }
  if (!b.shape.IsArray() || b.shape.element_type() != q->expressed) {
    return b.parser.ErrorAt(
        b.op.name_tok,
        absl::StrCat("mismatched quantization: uniform_dequantize of ",
                     q->ToString(), " gives ",
                     Sv(PrimitiveTypeName(q->expressed)), " elements"));
  }
  QuantEmitter emit(b);
  return emit.Dequantize(b.op.operands[0], *q);
}

}  // namespace aotc::shlo
