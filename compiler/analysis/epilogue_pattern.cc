// Recognition of product epilogues (see epilogue_pattern.h).
#include "compiler/analysis/epilogue_pattern.h"

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "absl/strings/str_join.h"
#include "compiler/ir/native_type.h"

namespace aotc {
namespace {

bool IsProduct(const Instruction& inst) {
  return inst.opcode() == Opcode::kDot || inst.opcode() == Opcode::kConvolution;
}

// The value of a scalar float constant, or of a broadcast of one.
std::optional<double> ScalarConstant(const Instruction& inst) {
  const Instruction* c = &inst;
  while (c->opcode() == Opcode::kBroadcast || c->opcode() == Opcode::kConvert ||
         c->opcode() == Opcode::kReshape) {
    c = c->operand(0);
  }
  if (c->opcode() != Opcode::kConstant || !c->shape().IsArray() ||
      c->shape().ElementCount() != 1 || c->literal().elided()) {
    return std::nullopt;
  }
  const Literal& l = c->literal();
  switch (c->shape().element_type()) {
    case PrimitiveType::kF64:
      return l.Get<double>(0);
    case PrimitiveType::kF32:
      return l.Get<float>(0);
    case PrimitiveType::kF16:
      return static_cast<float>(l.Get<NativeType<PrimitiveType::kF16>>(0));
    case PrimitiveType::kBF16:
      return static_cast<float>(l.Get<NativeType<PrimitiveType::kBF16>>(0));
    default:
      return std::nullopt;
  }
}

// Whether `v` depends on `product` (is it, or reads it through operands).
bool DependsOn(const Instruction* v, const Instruction* product,
               std::map<const Instruction*, bool>& memo) {
  if (v == product) return true;
  auto it = memo.find(v);
  if (it != memo.end()) return it->second;
  bool result = false;
  for (const Instruction* o : v->operands()) {
    if (DependsOn(o, product, memo)) {
      result = true;
      break;
    }
  }
  memo[v] = result;
  return result;
}

// The dimension of the product's result that holds its features.
int64_t FeatureDimension(const Instruction& product) {
  if (product.opcode() == Opcode::kConvolution) {
    return product.conv_dnums().output_feature;
  }
  return product.shape().rank() - 1;
}

// `other`, added to or multiplied with the product's value, is a per-feature
// vector: a broadcast whose operand varies along the feature dimension only
// (f32[C] to dimension {feature}, or f32[1,C] to {batch, feature} with a
// batch of 1).
bool IsPerFeature(const Instruction& other, int64_t feature) {
  if (other.opcode() != Opcode::kBroadcast) return false;
  const Shape& in = other.operand(0)->shape();
  const std::vector<int64_t>& dims = other.dimensions();
  bool maps_feature = false;
  for (int64_t i = 0; i < in.rank(); ++i) {
    if (dims[i] == feature) {
      maps_feature = true;
    } else if (in.dimensions(i) != 1) {
      return false;
    }
  }
  return maps_feature;
}

// The value of `root` as a function of `x` alone (scalar constants aside),
// at `at`; nullopt when some instruction between them reads anything else
// or is not a scalar function this recognizes.
std::optional<double> Evaluate(const Instruction* v, const Instruction* x,
                               double at,
                               std::map<const Instruction*, double>& memo) {
  if (v == x) return at;
  auto it = memo.find(v);
  if (it != memo.end()) return it->second;
  if (std::optional<double> c = ScalarConstant(*v)) return *c;
  std::vector<double> a;
  for (const Instruction* o : v->operands()) {
    std::optional<double> value = Evaluate(o, x, at, memo);
    if (!value.has_value()) return std::nullopt;
    a.push_back(*value);
  }
  std::optional<double> r;
  switch (v->opcode()) {
    case Opcode::kAdd: r = a[0] + a[1]; break;
    case Opcode::kSubtract: r = a[0] - a[1]; break;
    case Opcode::kMultiply: r = a[0] * a[1]; break;
    case Opcode::kDivide: r = a[0] / a[1]; break;
    case Opcode::kMaximum: r = std::max(a[0], a[1]); break;
    case Opcode::kMinimum: r = std::min(a[0], a[1]); break;
    case Opcode::kClamp: r = std::min(std::max(a[1], a[0]), a[2]); break;
    case Opcode::kNegate: r = -a[0]; break;
    case Opcode::kErf: r = std::erf(a[0]); break;
    case Opcode::kTanh: r = std::tanh(a[0]); break;
    case Opcode::kExp: r = std::exp(a[0]); break;
    case Opcode::kLogistic: r = 1 / (1 + std::exp(-a[0])); break;
    case Opcode::kPower: r = std::pow(a[0], a[1]); break;
    case Opcode::kSqrt: r = std::sqrt(a[0]); break;
    case Opcode::kRsqrt: r = 1 / std::sqrt(a[0]); break;
    case Opcode::kConvert:
    case Opcode::kBroadcast:
    case Opcode::kReshape:
    case Opcode::kCopy:
      if (a.size() == 1) r = a[0];
      break;
    default:
      break;
  }
  if (r.has_value()) memo[v] = *r;
  return r;
}

struct Activation {
  const char* name;
  std::function<double(double)> f;
  // The function can only be this activation if the instructions include
  // one of these: tanh-GELU and erf-GELU differ by less than the tolerance
  // bf16 constants need, so the erf or the tanh tells them apart.
  std::set<Opcode> needs;
};

const std::vector<Activation>& Activations() {
  static const std::vector<Activation>* const kActivations = [] {
    auto sigmoid = [](double x) { return 1 / (1 + std::exp(-x)); };
    const std::set<Opcode> max_min = {Opcode::kMaximum, Opcode::kMinimum,
                                      Opcode::kClamp};
    const std::set<Opcode> exp = {Opcode::kLogistic, Opcode::kExp};
    return new std::vector<Activation>{
        {"relu", [](double x) { return std::max(x, 0.0); }, max_min},
        {"relu6", [](double x) { return std::min(std::max(x, 0.0), 6.0); },
         max_min},
        {"gelu_erf",
         [](double x) { return x * 0.5 * (1 + std::erf(x / std::sqrt(2.0))); },
         {Opcode::kErf}},
        {"gelu_tanh",
         [](double x) {
           return 0.5 * x *
                  (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
         },
         {Opcode::kTanh}},
        {"sigmoid", sigmoid, exp},
        {"silu", [sigmoid](double x) { return x * sigmoid(x); }, exp},
        {"tanh", [](double x) { return std::tanh(x); }, {Opcode::kTanh}},
    };
  }();
  return *kActivations;
}

// The activation computing `root` from `x`, or "epilogue".
std::string NameActivation(const Instruction* root, const Instruction* x) {
  static const double kSamples[] = {-3.1, -1.7, -0.9, -0.35, 0.2, 0.8, 1.6, 3.3, 7.5};
  std::vector<double> values;
  std::set<Opcode> opcodes;
  for (double at : kSamples) {
    std::map<const Instruction*, double> memo;
    std::optional<double> v = Evaluate(root, x, at, memo);
    if (!v.has_value() || !std::isfinite(*v)) return "epilogue";
    values.push_back(*v);
    for (const auto& [inst, value] : memo) opcodes.insert(inst->opcode());
  }
  for (const Activation& a : Activations()) {
    bool all = false;
    for (Opcode op : a.needs) all = all || opcodes.count(op) > 0;
    for (size_t i = 0; all && i < values.size(); ++i) {
      const double want = a.f(kSamples[i]);
      all = std::abs(values[i] - want) <= 2e-3 * std::max(1.0, std::abs(want));
    }
    if (all) return a.name;
  }
  return "epilogue";
}

}  // namespace

std::string DescribeProductEpilogue(const Computation& fused) {
  const Instruction* product = nullptr;
  for (const auto& inst : fused.instructions()) {
    if (!IsProduct(*inst)) continue;
    if (product != nullptr) return "";
    product = inst.get();
  }
  if (product == nullptr) return "";
  std::vector<std::string> parts = {
      product->opcode() == Opcode::kDot ? "dot" : "conv"};
  const int64_t feature = FeatureDimension(*product);
  std::map<const Instruction*, bool> depends;
  // The linear layers: the product's value through adds and multiplies by
  // values that do not depend on it, while it has a single user.
  const Instruction* x = product;
  while (x != fused.root() && x->users().size() == 1) {
    const Instruction* u = x->users()[0];
    if (u->opcode() != Opcode::kAdd && u->opcode() != Opcode::kMultiply &&
        u->opcode() != Opcode::kSubtract) {
      break;
    }
    const Instruction* other = u->operand(u->operand(0) == x ? 1 : 0);
    if (u->operand(0) == u->operand(1) || DependsOn(other, product, depends)) {
      break;
    }
    if (u->opcode() == Opcode::kMultiply) {
      parts.push_back("scale");
    } else {
      parts.push_back(IsPerFeature(*other, feature) ? "bias" : "residual");
    }
    x = u;
  }
  if (x != fused.root()) parts.push_back(NameActivation(fused.root(), x));
  return absl::StrJoin(parts, "+");
}

}  // namespace aotc
