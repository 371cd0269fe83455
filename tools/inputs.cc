// Input binding and seeded random inputs.
#include "tools/inputs.h"

#include <complex>
#include <random>
#include <type_traits>

#include "compiler/ir/minifloat.h"
#include "compiler/ir/narrow_type.h"
#include "compiler/ir/native_type.h"
#include "compiler/support/file_io.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"
#include "tools/npy.h"

namespace aotc {
namespace {

// Uniform double in [0, 1) from the top 53 bits; std:: distributions are
// not specified bit-exactly, this is.
double Unit(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

template <typename T>
struct IsStdComplex : std::false_type {};
template <typename R>
struct IsStdComplex<std::complex<R>> : std::true_type {};

template <PrimitiveType P>
void Fill(Literal& lit, std::mt19937_64& rng) {
  using T = NativeType<P>;
  absl::Span<T> data = lit.mutable_data<T>();
  for (T& v : data) {
    if constexpr (P == PrimitiveType::kPred) {
      v = (rng() >> 63) != 0;
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      v = static_cast<T>(static_cast<int64_t>(rng() >> 60) - 8);
    } else if constexpr (std::is_integral_v<T>) {
      v = static_cast<T>(rng() >> 60);
    } else if constexpr (IsStdComplex<T>::value) {
      using R = typename T::value_type;
      R re = static_cast<R>(2 * Unit(rng) - 1);
      R im = static_cast<R>(2 * Unit(rng) - 1);
      v = T(re, im);
    } else {
      v = T(2 * Unit(rng) - 1);
    }
  }
}

std::string ParameterLabel(const Instruction& p) {
  return absl::StrCat("parameter '", p.name(), "' (number ",
                      p.parameter_number(), ")");
}

// Narrow types (one byte each): sub-byte integers over their whole range,
// minifloats from [-1, 1) rounded (f8e8m0fnu, which has no negative values
// and no zero, from (0, 2]).
void FillNarrow(Literal& lit, std::mt19937_64& rng) {
  const PrimitiveType t = lit.shape().element_type();
  uint8_t* data = lit.mutable_raw();
  for (int64_t i = 0; i < lit.element_count(); ++i) {
    if (IsSubByteInt(t)) {
      data[i] = WrapSubByteInt(t, static_cast<int64_t>(rng() >> 60));
    } else if (GetMinifloatFormat(t).has_sign) {
      data[i] = DoubleToMinifloat(t, 2 * Unit(rng) - 1);
    } else {
      data[i] = DoubleToMinifloat(t, 2 - 2 * Unit(rng));
    }
  }
}

}  // namespace

Literal RandomLiteral(const Shape& shape, uint64_t seed, uint64_t stream) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + stream);
  Literal lit(shape);
  if (shape.IsArray() && IsNarrowType(shape.element_type())) {
    FillNarrow(lit, rng);
  } else if (shape.IsArray()) {
    DispatchComputableType(shape.element_type(),
                           [&]<PrimitiveType P>() { Fill<P>(lit, rng); });
  }
  return lit;
}

absl::StatusOr<std::vector<Literal>> BindInputs(const Computation& entry,
                                                const InputOptions& options) {
  std::vector<Instruction*> params = entry.parameters();
  std::vector<std::string> files(params.size());

  if (options.positional.size() > params.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.positional.size(), " positional inputs given, but the model has ",
        params.size(), " parameters"));
  }
  for (size_t i = 0; i < options.positional.size(); ++i) {
    files[i] = options.positional[i];
  }
  for (const std::string& spec : options.named) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--input expects NAME=FILE, got '", spec, "'"));
    }
    std::string name = spec.substr(0, eq);
    if (name[0] == '%') name.erase(0, 1);
    int index = -1;
    for (size_t i = 0; i < params.size(); ++i) {
      if (params[i]->name() == name ||
          std::to_string(params[i]->parameter_number()) == name) {
        index = static_cast<int>(i);
        break;
      }
    }
    if (index < 0) {
      std::vector<std::string> names;
      for (const Instruction* p : params) names.push_back(p->name());
      return absl::InvalidArgumentError(absl::StrCat(
          "--input names '", name, "', but the parameters are: ",
          names.empty() ? "(none)" : absl::StrJoin(names, ", ")));
    }
    if (!files[index].empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          ParameterLabel(*params[index]), " is given twice"));
    }
    files[index] = spec.substr(eq + 1);
  }

  std::vector<Literal> args;
  args.reserve(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const Instruction& p = *params[i];
    const Shape& shape = p.shape();
    if (!files[i].empty()) {
      if (!shape.IsArray()) {
        return absl::InvalidArgumentError(absl::StrCat(
            ParameterLabel(p), " has tuple shape ", shape.ToString(false),
            "; .npy inputs feed array parameters only"));
      }
      ASSIGN_OR_RETURN(std::string bytes, ReadFile(files[i]));
      ASSIGN_OR_RETURN(Literal lit,
                       ReadNpyFor(bytes, files[i], shape, ParameterLabel(p)));
      args.push_back(std::move(lit));
      continue;
    }
    if (!options.random_seed) {
      return absl::InvalidArgumentError(absl::StrCat(
          "no input for ", ParameterLabel(p), " ", shape.ToString(false),
          "; give --input ", p.name(), "=FILE.npy or --random-inputs SEED"));
    }
    for (const Shape* leaf : shape.Leaves()) {
      if (leaf->IsArray() && !IsComputableType(leaf->element_type()) &&
          !IsNarrowType(leaf->element_type())) {
        return absl::InvalidArgumentError(absl::StrCat(
            "cannot make random values of unsupported element type ",
            Sv(PrimitiveTypeName(leaf->element_type())), " for ", ParameterLabel(p)));
      }
    }
    if (shape.IsArray()) {
      args.push_back(RandomLiteral(shape, *options.random_seed, i));
      continue;
    }
    // Tuple parameters: fill each leaf from its own stream.
    Literal lit(shape);
    uint64_t stream = i << 32;
    std::vector<Literal*> stack = {&lit};
    while (!stack.empty()) {
      Literal* l = stack.back();
      stack.pop_back();
      if (l->IsTuple()) {
        for (Literal& e : l->mutable_tuple_elements()) stack.push_back(&e);
      } else if (l->shape().IsArray()) {
        *l = RandomLiteral(l->shape(), *options.random_seed, stream++);
      }
    }
    args.push_back(std::move(lit));
  }
  return args;
}

}  // namespace aotc
