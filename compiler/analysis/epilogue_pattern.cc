// Recognition of product epilogues (see epilogue_pattern.h).
#include "compiler/analysis/epilogue_pattern.h"

#include <cmath>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/analysis/op_facts.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/ir/module.h"
#include "compiler/ir/native_type.h"

namespace aotc {
namespace {

// The scalar functions activations are written with: an epilogue made of
// anything else is named "epilogue", however it evaluates. Every value is
// computed in f64 (pred for comparisons), whatever its type in the module.
// Compare and select are how exporters expand functions piecewise: JAX
// writes erfc, and so the exact GELU, as polynomials chosen by |x|.
bool IsActivationOp(Opcode op) {
  switch (op) {
    case Opcode::kAdd:
    case Opcode::kSubtract:
    case Opcode::kMultiply:
    case Opcode::kDivide:
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kClamp:
    case Opcode::kNegate:
    case Opcode::kAbs:
    case Opcode::kCompare:
    case Opcode::kSelect:
    case Opcode::kErf:
    case Opcode::kTanh:
    case Opcode::kExp:
    case Opcode::kLogistic:
    case Opcode::kPower:
    case Opcode::kSqrt:
    case Opcode::kRsqrt:
      return true;
    default:
      return false;
  }
}

bool IsProduct(const Instruction& inst) {
  return inst.opcode() == Opcode::kDot || inst.opcode() == Opcode::kConvolution;
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

// The sample points the activations are told apart at.
constexpr double kSamples[] = {-3.1, -1.7, -0.9, -0.35, 0.2,
                               0.8,  1.6,  3.3,  7.5};
constexpr int64_t kSampleCount = std::size(kSamples);

// Builds, in a module of its own, the function computing `root` from `x`
// alone (scalar constants aside) on an f64 vector of the samples: each
// element-wise instruction between them becomes the same instruction on
// f64 (pred for comparisons) vectors, and broadcasts, reshapes, converts
// and copies, which carry one value on, become that value (converted
// between pred and f64 where the types differ). Records the
// opcodes it passed through; returns false when an instruction reads
// anything else or is none of these.
class SampleFunction {
 public:
  explicit SampleFunction(const Instruction* x)
      : x_(x), module_("epilogue"), comp_(nullptr) {
    comp_ = module_.AddComputation(std::make_unique<Computation>("f"));
    module_.set_entry(comp_);
    auto p = Instruction::Create(Opcode::kParameter, "x", VectorOf(kF64), {});
    p->mutable_attrs().parameter_number = 0;
    samples_ = comp_->AddInstruction(std::move(p));
  }

  bool Build(const Instruction* root) {
    Instruction* r = Translate(root);
    if (r == nullptr) return false;
    comp_->set_root(r);
    return true;
  }

  const Module& module() const { return module_; }
  const std::set<Opcode>& opcodes() const { return opcodes_; }

 private:
  static constexpr PrimitiveType kF64 = PrimitiveType::kF64;

  static Shape VectorOf(PrimitiveType type) {
    return Shape::Array(type, {kSampleCount});
  }

  Instruction* Add(Opcode op, PrimitiveType type,
                   std::vector<Instruction*> operands) {
    return comp_->AddInstruction(Instruction::Create(
        op, absl::StrCat("v", ++count_), VectorOf(type), std::move(operands)));
  }

  Instruction* Constant(double value) {
    Literal literal(Shape::Scalar(kF64));
    literal.Set<double>(0, value);
    auto c = Instruction::Create(Opcode::kConstant, absl::StrCat("v", ++count_),
                                 Shape::Scalar(kF64), {});
    c->mutable_attrs().literal = std::move(literal);
    Instruction* scalar = comp_->AddInstruction(std::move(c));
    return Add(Opcode::kBroadcast, kF64, {scalar});
  }

  Instruction* Translate(const Instruction* v) {
    if (v == x_) return samples_;
    if (auto it = done_.find(v); it != done_.end()) return it->second;
    if (std::optional<double> c = ScalarFloatConstant(*v)) return Constant(*c);
    const Opcode op = v->opcode();
    const bool carries = op == Opcode::kBroadcast || op == Opcode::kReshape ||
                         op == Opcode::kConvert || op == Opcode::kCopy;
    if (!carries && !IsActivationOp(op)) return nullptr;
    if (carries && v->operand_count() != 1) return nullptr;
    std::vector<Instruction*> operands;
    for (const Instruction* o : v->operands()) {
      Instruction* t = Translate(o);
      if (t == nullptr) return nullptr;
      operands.push_back(t);
    }
    opcodes_.insert(op);
    const PrimitiveType type = v->shape().element_type() == PrimitiveType::kPred
                                   ? PrimitiveType::kPred
                                   : kF64;
    // Every value is f64 or pred here, so a broadcast, reshape, convert or
    // copy carries its operand's value on, converted when it turns a pred
    // into a number or back.
    Instruction* r = operands[0];
    if (!carries) {
      r = Add(op, op == Opcode::kCompare ? PrimitiveType::kPred : kF64,
              std::move(operands));
      r->mutable_attrs() = v->attrs();
    } else if (r->shape().element_type() != type) {
      r = Add(Opcode::kConvert, type, {r});
    }
    done_[v] = r;
    return r;
  }

  const Instruction* x_;
  Module module_;
  Computation* comp_;
  Instruction* samples_;
  std::map<const Instruction*, Instruction*> done_;
  std::set<Opcode> opcodes_;
  int count_ = 0;
};

struct Activation {
  const char* name;
  std::function<double(double)> f;
  // Within the tolerance bf16 constants need, the function can only be
  // this activation if the instructions include one of these: tanh-GELU
  // and erf-GELU differ by less than that, so the erf or the tanh tells
  // them apart.
  std::set<Opcode> needs;
};

// How far from an activation the function may be at a sample, relative to
// max(1, |value|): with one of the activation's own operations, bf16's
// rounding of the constants (2^-9); with any operations, f32's rounding
// of the constants and of a polynomial expansion (JAX's erfc is within
// 1e-7). tanh-GELU is 3.7e-4 away from erf-GELU at -3.1, far beyond the
// second bound.
constexpr double kWithOwnOperation = 2e-3;
constexpr double kWithAnyOperations = 1e-5;

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
                  (1 +
                   std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
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
  SampleFunction function(x);
  if (!function.Build(root)) return "epilogue";
  Literal samples(Shape::Array(PrimitiveType::kF64, {kSampleCount}));
  for (int64_t i = 0; i < kSampleCount; ++i) {
    samples.Set<double>(i, kSamples[i]);
  }
  absl::StatusOr<Literal> result =
      EvaluateModule(function.module(), {std::move(samples)});
  if (!result.ok()) return "epilogue";
  std::vector<double> values;
  for (int64_t i = 0; i < kSampleCount; ++i) {
    const double v = result->Get<double>(i);
    if (!std::isfinite(v)) return "epilogue";
    values.push_back(v);
  }
  const std::set<Opcode>& opcodes = function.opcodes();
  for (const Activation& a : Activations()) {
    bool own = false;
    for (Opcode op : a.needs) own = own || opcodes.count(op) > 0;
    const double tolerance = own ? kWithOwnOperation : kWithAnyOperations;
    bool all = true;
    for (size_t i = 0; all && i < values.size(); ++i) {
      const double want = a.f(kSamples[i]);
      all = std::abs(values[i] - want) <=
            tolerance * std::max(1.0, std::abs(want));
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
  std::vector<std::string> parts = {product->opcode() == Opcode::kDot ? "dot"
                                                                      : "conv"};
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
