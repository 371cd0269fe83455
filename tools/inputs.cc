// Input binding and seeded random inputs.
//
// Binding works on array leaves: an array parameter is one leaf (path {}),
// a tuple parameter has one leaf per array inside it, in depth-first
// tuple-index order (path {1, 0} is element 0 of element 1). Files are
// matched to leaves first, from --input specs and positional files; then
// every leaf is read from its file, or filled with random values, or
// reported missing.
#include "tools/inputs.h"

#include <complex>
#include <map>
#include <optional>
#include <random>
#include <string_view>
#include <type_traits>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
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

using LeafPath = std::vector<int64_t>;

std::string ParameterLabel(const Instruction& p) {
  return absl::StrCat("parameter '", p.name(), "' (number ",
                      p.parameter_number(), ")");
}

// "p.1.0": how --input names a leaf; just "p" for an array parameter.
std::string LeafName(const Instruction& p, const LeafPath& path) {
  std::string name = p.name();
  for (int64_t i : path) absl::StrAppend(&name, ".", i);
  return name;
}

// What errors call a leaf: the parameter itself when it is an array.
std::string LeafLabel(const Instruction& p, const LeafPath& path) {
  if (path.empty()) return ParameterLabel(p);
  return absl::StrCat("leaf ", LeafName(p, path), " of ", ParameterLabel(p));
}

// The array leaves of `shape` with their paths, depth first in tuple-index
// order (the order positional inputs take).
void CollectLeaves(const Shape& shape, LeafPath& path,
                   std::vector<std::pair<LeafPath, const Shape*>>& out) {
  if (shape.IsArray()) {
    out.push_back({path, &shape});
    return;
  }
  if (!shape.IsTuple()) return;  // tokens hold no data
  for (int i = 0; i < shape.tuple_size(); ++i) {
    path.push_back(i);
    CollectLeaves(shape.tuple_shapes(i), path, out);
    path.pop_back();
  }
}

std::vector<std::pair<LeafPath, const Shape*>> ArrayLeaves(const Shape& shape) {
  std::vector<std::pair<LeafPath, const Shape*>> leaves;
  LeafPath path;
  CollectLeaves(shape, path, leaves);
  return leaves;
}

std::string LeafNames(const Instruction& p) {
  std::vector<std::string> names;
  for (const auto& [path, shape] : ArrayLeaves(p.shape())) {
    names.push_back(LeafName(p, path));
  }
  return names.empty() ? std::string("(none)") : absl::StrJoin(names, ", ");
}

// The shape at `path` inside `shape`, or null when there is none.
const Shape* ShapeAt(const Shape& shape, const LeafPath& path) {
  const Shape* s = &shape;
  for (int64_t i : path) {
    if (!s->IsTuple() || i < 0 || i >= s->tuple_size()) return nullptr;
    s = &s->tuple_shapes(static_cast<int>(i));
  }
  return s;
}

// Whether `name` is parameter `p`'s instruction name or number.
bool NamesParameter(std::string_view name, const Instruction& p) {
  return name == p.name() || name == std::to_string(p.parameter_number());
}

// "1.0" -> {1, 0}; nullopt unless every part is a non-negative integer.
std::optional<LeafPath> ParsePath(std::string_view text) {
  LeafPath path;
  for (absl::string_view part : absl::StrSplit(Sv(text), '.')) {
    int64_t i = 0;
    if (part.empty() || part[0] == '-' || part[0] == '+' ||
        !absl::SimpleAtoi(part, &i)) {
      return std::nullopt;
    }
    path.push_back(i);
  }
  return path;
}

struct LeafRef {
  size_t param = 0;
  LeafPath path;
};

// Resolves the NAME of `--input NAME=FILE`: a parameter's name or number,
// optionally followed by a leaf path (`p.1.0`). Instruction names may
// contain dots themselves (`Arg_0.1`), so the whole name is tried first,
// then ever shorter prefixes ending before a dot; the first that names a
// parameter with an array at the rest of the path wins.
absl::StatusOr<LeafRef> ResolveName(std::string_view name,
                                    const std::vector<Instruction*>& params) {
  std::optional<absl::Status> first_error;
  for (size_t end = name.size(); end != std::string_view::npos && end > 0;
       end = name.rfind('.', end - 1)) {
    const std::string_view base = name.substr(0, end);
    LeafPath path;
    if (end < name.size()) {
      std::optional<LeafPath> parsed = ParsePath(name.substr(end + 1));
      if (!parsed.has_value()) continue;
      path = *std::move(parsed);
    }
    for (size_t i = 0; i < params.size(); ++i) {
      const Instruction& p = *params[i];
      if (!NamesParameter(base, p)) continue;
      const Shape* at = ShapeAt(p.shape(), path);
      if (at != nullptr && at->IsArray()) return LeafRef{i, std::move(path)};
      if (first_error.has_value()) continue;
      if (at == nullptr) {
        first_error = absl::InvalidArgumentError(absl::StrCat(
            "--input names '", Sv(name), "', but ", ParameterLabel(p),
            " of shape ", p.shape().ToString(false),
            " has no such leaf; its leaves are: ", LeafNames(p)));
      } else {
        first_error = absl::InvalidArgumentError(
            absl::StrCat("--input names '", Sv(name), "', which is a tuple ",
                         at->ToString(false), " in ", ParameterLabel(p),
                         "; .npy files feed array leaves: ", LeafNames(p)));
      }
    }
  }
  if (first_error.has_value()) return *first_error;
  std::vector<std::string> names;
  for (const Instruction* p : params) names.push_back(p->name());
  return absl::InvalidArgumentError(
      absl::StrCat("--input names '", Sv(name), "', but the parameters are: ",
                   names.empty() ? "(none)" : absl::StrJoin(names, ", ")));
}

absl::StatusOr<Literal> ReadLeaf(const std::string& file, const Shape& shape,
                                 const std::string& label) {
  ASSIGN_OR_RETURN(std::string bytes, ReadFile(file));
  return ReadNpyFor(bytes, file, shape, label);
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
  // The file bound to each leaf, per parameter, by path.
  std::vector<std::map<LeafPath, std::string>> files(params.size());

  // Positional files take the array leaves of all parameters in order.
  std::vector<LeafRef> order;
  bool has_tuples = false;
  for (size_t i = 0; i < params.size(); ++i) {
    has_tuples |= !params[i]->shape().IsArray();
    for (auto& [path, shape] : ArrayLeaves(params[i]->shape())) {
      order.push_back({i, std::move(path)});
    }
  }
  if (options.positional.size() > order.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.positional.size(),
        " positional inputs given, but the model has ", params.size(),
        " parameters",
        has_tuples ? absl::StrCat(" with ", order.size(), " array leaves")
                   : std::string()));
  }
  for (size_t i = 0; i < options.positional.size(); ++i) {
    files[order[i].param][order[i].path] = options.positional[i];
  }
  for (const std::string& spec : options.named) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--input expects NAME=FILE, got '", spec, "'"));
    }
    std::string_view name = std::string_view(spec).substr(0, eq);
    if (name[0] == '%') name.remove_prefix(1);
    ASSIGN_OR_RETURN(LeafRef ref, ResolveName(name, params));
    std::string& file = files[ref.param][ref.path];
    if (!file.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          LeafLabel(*params[ref.param], ref.path), " is given twice"));
    }
    file = spec.substr(eq + 1);
  }

  std::vector<Literal> args;
  args.reserve(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const Instruction& p = *params[i];
    const Shape& shape = p.shape();
    // Every leaf needs a file or random values; the first missing one, in
    // leaf order, is reported.
    for (const auto& [path, leaf] : ArrayLeaves(shape)) {
      if (files[i].contains(path)) continue;
      if (!options.random_seed) {
        return absl::InvalidArgumentError(absl::StrCat(
            "no input for ", LeafLabel(p, path), " ", leaf->ToString(false),
            "; give --input ", LeafName(p, path),
            "=FILE.npy or --random-inputs SEED"));
      }
      if (!IsComputableType(leaf->element_type()) &&
          !IsNarrowType(leaf->element_type())) {
        return absl::InvalidArgumentError(absl::StrCat(
            "cannot make random values of unsupported element type ",
            Sv(PrimitiveTypeName(leaf->element_type())), " for ",
            LeafLabel(p, path)));
      }
    }
    if (shape.IsArray()) {
      auto it = files[i].find(LeafPath{});
      if (it != files[i].end()) {
        ASSIGN_OR_RETURN(Literal lit,
                         ReadLeaf(it->second, shape, ParameterLabel(p)));
        args.push_back(std::move(lit));
      } else {
        args.push_back(RandomLiteral(shape, *options.random_seed, i));
      }
      continue;
    }
    // Tuple parameters: each random leaf from its own stream. Streams are
    // numbered in the order of this walk (last element first), whether or
    // not a leaf comes from a file, so binding one leaf does not change the
    // random values of the others.
    Literal lit(shape);
    uint64_t stream = i << 32;
    std::vector<std::pair<Literal*, LeafPath>> stack = {{&lit, {}}};
    while (!stack.empty()) {
      auto [l, path] = std::move(stack.back());
      stack.pop_back();
      if (l->IsTuple()) {
        std::vector<Literal>& elements = l->mutable_tuple_elements();
        for (size_t e = 0; e < elements.size(); ++e) {
          LeafPath child = path;
          child.push_back(static_cast<int64_t>(e));
          stack.push_back({&elements[e], std::move(child)});
        }
        continue;
      }
      if (!l->shape().IsArray()) continue;
      const uint64_t leaf_stream = stream++;
      auto it = files[i].find(path);
      if (it != files[i].end()) {
        ASSIGN_OR_RETURN(*l,
                         ReadLeaf(it->second, l->shape(), LeafLabel(p, path)));
      } else {
        *l = RandomLiteral(l->shape(), *options.random_seed, leaf_stream);
      }
    }
    args.push_back(std::move(lit));
  }
  return args;
}

}  // namespace aotc
