// BuildSignature: the entry computation's parameters and root -> the named,
// typed buffers of the compiled model's C interface.
//
// Results are named before arguments because their names are fixed by
// position; argument names then yield to them in NameAllocator.
#include "codegen/header/signature.h"

#include <set>
#include <utility>

#include "compiler/ir/input_output_alias.h"
#include "compiler/ir/minifloat.h"
#include "compiler/ir/narrow_type.h"
#include "compiler/ir/shape.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::codegen {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

bool ConsumePrefix(std::string_view* s, std::string_view prefix) {
  if (!StartsWith(*s, prefix)) return false;
  s->remove_prefix(prefix.size());
  return true;
}

// int8_t ... uint_fast64_t: the fixed-width typedefs of <stdint.h>.
bool IsStdintTypedef(std::string_view s) {
  ConsumePrefix(&s, "u");
  if (!ConsumePrefix(&s, "int")) return false;
  if (!ConsumePrefix(&s, "_least")) ConsumePrefix(&s, "_fast");
  return s == "8_t" || s == "16_t" || s == "32_t" || s == "64_t";
}

// Limit and constant macros of <stdint.h> (INT32_MAX, SIZE_MAX, UINT8_C...):
// upper case and ending in _MAX, _MIN or _C.
bool IsStdintMacro(std::string_view s) {
  for (char c : s) {
    if (c >= 'a' && c <= 'z') return false;
  }
  return EndsWith(s, "_MAX") || EndsWith(s, "_MIN") || EndsWith(s, "_C");
}

// Names the generated header cannot use for a tensor: they are a parameter
// of NAME_run ("temp"), or a type or macro the included standard headers
// define, which a parameter name would shadow or be replaced by.
bool IsTakenByTheHeader(std::string_view s) {
  static constexpr std::string_view kTaken[] = {
      "temp",     "std",       "NULL",        "offsetof",
      "size_t",   "ptrdiff_t", "max_align_t", "nullptr_t",
      "intptr_t", "uintptr_t", "intmax_t",    "uintmax_t",
  };
  for (std::string_view t : kTaken) {
    if (s == t) return true;
  }
  return IsStdintTypedef(s) || IsStdintMacro(s);
}

// "ARG12", "RESULT0": the upper-case spelling of a position, which names the
// per-index macros NAME_ARG12_BYTES...
bool IsIndexSpelling(std::string_view upper) {
  if (!ConsumePrefix(&upper, "ARG") && !ConsumePrefix(&upper, "RESULT")) {
    return false;
  }
  if (upper.empty()) return false;
  for (char c : upper) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Hands out tensor names that stay distinct in every spelling the header
// derives from them: the name itself (C parameters, C++ setters), its upper
// case (macros) and its CamelCase (C++ constants).
class NameAllocator {
 public:
  // Claims `candidate`, or the first of candidate_1, candidate_2, ... that is
  // usable. `index_name` is the tensor's own position spelling ("arg0").
  // Terminates: each refused suffix collides with one of finitely many
  // claimed names.
  std::string Claim(const std::string& candidate, std::string_view index_name) {
    if (TryClaim(candidate, index_name)) return candidate;
    for (int k = 1;; ++k) {
      std::string name = absl::StrCat(candidate, "_", k);
      if (TryClaim(name, index_name)) return name;
    }
  }

 private:
  bool TryClaim(const std::string& name, std::string_view index_name) {
    if (!IsValidCIdentifier(name) || HasReservedUnderscores(name) ||
        IsTakenByTheHeader(name)) {
      return false;
    }
    std::string upper = UpperCase(name);
    // NAME_TEMP_BYTES and NAME_CONSTANTS_BYTES are the model's own.
    if (upper == "TEMP" || upper == "CONSTANTS") return false;
    if (IsIndexSpelling(upper) && upper != UpperCase(index_name)) return false;
    std::string camel = CamelCase(name);
    if (upper_.count(upper) > 0 || camel_.count(camel) > 0) return false;
    upper_.insert(std::move(upper));
    camel_.insert(std::move(camel));
    return true;
  }

  std::set<std::string> upper_;
  std::set<std::string> camel_;
};

// An op_name that is a plain identifier, as JAX writes argument names (a
// keyword counts: the allocator then adds a suffix).
bool IsIdentifierLike(std::string_view s) {
  return IsValidCIdentifier(s) || IsCOrCppKeyword(s);
}

bool StartsWithLetter(std::string_view s) {
  return !s.empty() &&
         ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'));
}

// The base name of a parameter whose first argument is at `position`,
// before de-duplication.
std::string ParameterBaseName(const Instruction& param, int position) {
  const std::string& op_name = param.metadata().op_name;
  if (IsIdentifierLike(op_name)) {
    std::string name = SanitizeIdentifier(op_name);
    if (StartsWithLetter(name)) return name;
  }
  std::string name = SanitizeIdentifier(param.name());
  if (StartsWithLetter(name)) return name;
  return IndexName(false, position);
}

// One leaf of a parameter's shape: its tuple indices and its shape.
struct ShapeLeaf {
  std::vector<int64_t> path;
  const Shape* shape;
};

// The leaves of `shape` depth first, with their tuple indices (one leaf with
// an empty path for a non-tuple).
void CollectLeaves(const Shape& shape, std::vector<int64_t>* path,
                   std::vector<ShapeLeaf>* out) {
  if (!shape.IsTuple()) {
    out->push_back({*path, &shape});
    return;
  }
  for (int i = 0; i < shape.tuple_size(); ++i) {
    path->push_back(i);
    CollectLeaves(shape.tuple_shapes(i), path, out);
    path->pop_back();
  }
}

// "{1,0}": a leaf path as the header comment and errors print it.
std::string LeafText(const std::vector<int64_t>& path) {
  return absl::StrCat("{", absl::StrJoin(path, ","), "}");
}

absl::Status ValidateModelName(std::string_view name) {
  if (IsCOrCppKeyword(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("model name '", Sv(name), "' is a C or C++ keyword"));
  }
  if (!IsValidCIdentifier(name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "model name '", Sv(name), "' is not a valid C identifier"));
  }
  if (HasReservedUnderscores(name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "model name '", Sv(name),
        "' starts or ends with '_' or contains '__', which C and C++ "
        "reserve"));
  }
  return absl::OkStatus();
}

absl::Status ValidateNamespace(std::string_view ns) {
  if (ns.empty()) return absl::OkStatus();
  std::string_view rest = ns;
  bool first = true;
  while (true) {
    size_t sep = rest.find("::");
    std::string_view part = rest.substr(0, sep);
    bool ok = IsValidCIdentifier(part) && !HasReservedUnderscores(part) &&
              !(first && part == "std");
    if (!ok) {
      return absl::InvalidArgumentError(absl::StrCat(
          "invalid C++ namespace '", Sv(ns),
          "': expected identifiers separated by '::', not keywords, not "
          "starting with std, without '__' or a leading or trailing '_'"));
    }
    if (sep == std::string_view::npos) return absl::OkStatus();
    rest.remove_prefix(sep + 2);
    first = false;
  }
}

// Checks that `shape` can be a buffer of the C interface and describes it.
// `what` names the buffer in errors ("parameter 'p'").
absl::StatusOr<TensorInfo> DescribeBuffer(const Shape& shape,
                                          const Location& loc,
                                          std::string_view what) {
  if (!shape.IsArray()) {
    return ErrorAt(loc,
                   absl::StrCat(Sv(what), " has shape ", shape.ToString(false),
                                "; compiled models take and return "
                                "arrays only"));
  }
  if (!CTypeName(shape.element_type()).has_value()) {
    return ErrorAt(loc,
                   absl::StrCat(Sv(what), " has element type ",
                                Sv(PrimitiveTypeName(shape.element_type())),
                                ", which has no C type"));
  }
  std::vector<int64_t> minor_to_major = shape.layout().minor_to_major;
  if (minor_to_major.empty())
    minor_to_major = DefaultMinorToMajor(shape.rank());
  if (!shape.layout().extension.empty() ||
      static_cast<int>(minor_to_major.size()) != shape.rank()) {
    std::string layout =
        absl::StrCat("{", absl::StrJoin(shape.layout().minor_to_major, ","));
    if (!shape.layout().extension.empty()) {
      absl::StrAppend(&layout, ":", shape.layout().extension);
    }
    return ErrorAt(loc, absl::StrCat(Sv(what), " has layout ", layout,
                                     "}; only dimension permutations are "
                                     "supported"));
  }
  TensorInfo info;
  info.type = shape.element_type();
  info.dims = shape.dimensions();
  info.minor_to_major = std::move(minor_to_major);
  info.element_count = shape.ElementCount();
  info.byte_size = shape.ByteSize();
  return info;
}

}  // namespace

std::optional<std::string_view> CTypeName(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kPred:
    case PrimitiveType::kU8:
      return "uint8_t";
    case PrimitiveType::kS8:
      return "int8_t";
    case PrimitiveType::kS16:
      return "int16_t";
    case PrimitiveType::kS32:
      return "int32_t";
    case PrimitiveType::kS64:
      return "int64_t";
    case PrimitiveType::kU16:
    case PrimitiveType::kF16:
    case PrimitiveType::kBF16:
      return "uint16_t";
    case PrimitiveType::kU32:
      return "uint32_t";
    case PrimitiveType::kU64:
      return "uint64_t";
    case PrimitiveType::kF32:
    case PrimitiveType::kC64:  // (re, im) pairs: 2 floats per element
      return "float";
    case PrimitiveType::kF64:
    case PrimitiveType::kC128:  // (re, im) pairs: 2 doubles per element
      return "double";
    default:
      // Narrow types: one element per byte (compiler/ir/narrow_type.h).
      if (IsSubByteInt(type)) {
        return IsSignedInt(type) ? "int8_t" : "uint8_t";
      }
      if (IsMinifloat(type)) return "uint8_t";
      return std::nullopt;
  }
}

std::string IndexName(bool is_result, int index) {
  return absl::StrCat(is_result ? "result" : "arg", index);
}

absl::StatusOr<ModelSignature> BuildSignature(const Module& module,
                                              std::string name,
                                              std::string cpp_namespace) {
  RETURN_IF_ERROR(ValidateModelName(name));
  RETURN_IF_ERROR(ValidateNamespace(cpp_namespace));
  const Computation* entry = module.entry();
  if (entry == nullptr || entry->root() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("module '", module.name(), "' has no entry computation"));
  }
  ModelSignature sig;
  sig.name = std::move(name);
  sig.cpp_namespace = std::move(cpp_namespace);
  NameAllocator names;

  // Results first: their names are fixed by position, so arguments yield.
  const Instruction* root = entry->root();
  std::vector<const Shape*> leaves = root->shape().Leaves();
  for (int i = 0; i < static_cast<int>(leaves.size()); ++i) {
    ASSIGN_OR_RETURN(TensorInfo info,
                     DescribeBuffer(*leaves[i], root->location(),
                                    absl::StrCat("result ", i,
                                                 " of the entry computation")));
    info.name = names.Claim(IndexName(true, i), IndexName(true, i));
    sig.results.push_back(std::move(info));
  }

  // Arguments: the leaves of each parameter in turn. For array-only
  // modules this is one argument per parameter, named by the base name.
  std::vector<Instruction*> params = entry->parameters();
  sig.num_parameters = static_cast<int>(params.size());
  std::vector<std::string> signature_parts;
  for (int i = 0; i < static_cast<int>(params.size()); ++i) {
    const Instruction& param = *params[i];
    const bool is_tuple = param.shape().IsTuple();
    sig.tuple_parameters |= is_tuple;
    std::vector<ShapeLeaf> leaves;
    std::vector<int64_t> path;
    CollectLeaves(param.shape(), &path, &leaves);
    const int first = static_cast<int>(sig.args.size());
    const std::string base = ParameterBaseName(param, first);
    for (const ShapeLeaf& leaf : leaves) {
      const int position = static_cast<int>(sig.args.size());
      std::string what = absl::StrCat("parameter '", param.name(), "'");
      if (is_tuple) {
        what = absl::StrCat("leaf ", LeafText(leaf.path), " of ", what);
      }
      ASSIGN_OR_RETURN(TensorInfo info,
                       DescribeBuffer(*leaf.shape, param.location(), what));
      std::string candidate = base;
      if (is_tuple) {
        absl::StrAppend(&candidate, "_", absl::StrJoin(leaf.path, "_"));
      }
      info.name = names.Claim(candidate, IndexName(false, position));
      info.hlo_name = param.name();
      info.parameter = i;
      info.leaf = leaf.path;
      signature_parts.push_back(
          absl::StrCat(info.name, ": ", leaf.shape->ToString(false)));
      sig.args.push_back(std::move(info));
    }
  }
  sig.hlo_signature = absl::StrCat("(", absl::StrJoin(signature_parts, ", "),
                                   ") -> ", root->shape().ToString(false));
  ASSIGN_OR_RETURN(const std::vector<InputOutputAlias> aliases,
                   InputOutputAliases(module));
  const std::vector<int> donated = DonatedArgumentPerResult(module, aliases);
  for (size_t r = 0; r < donated.size() && r < sig.results.size(); ++r) {
    if (donated[r] < 0) continue;
    sig.results[r].aliased = donated[r];
    sig.args[donated[r]].aliased = static_cast<int>(r);
  }
  return sig;
}

}  // namespace aotc::codegen
