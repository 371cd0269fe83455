// Reading and checking `input_output_alias` (see input_output_alias.h).
#include "compiler/ir/input_output_alias.h"

#include <cctype>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/module.h"
#include "compiler/support/diagnostic.h"

namespace aotc {
namespace {

// A small scanner over the attribute text.
class AliasScanner {
 public:
  explicit AliasScanner(std::string_view text) : text_(text) {}

  absl::StatusOr<std::vector<InputOutputAlias>> Parse() {
    std::vector<InputOutputAlias> aliases;
    if (!Eat('{')) return Error("expected '{'");
    if (Eat('}')) return Finish(std::move(aliases));
    do {
      InputOutputAlias a;
      if (absl::Status s = Index(&a.output_index); !s.ok()) return s;
      if (!Eat(':')) return Error("expected ':'");
      if (!Eat('(')) return Error("expected '('");
      if (!Number(&a.parameter)) return Error("expected a parameter number");
      if (!Eat(',')) return Error("expected ','");
      if (absl::Status s = Index(&a.parameter_index); !s.ok()) return s;
      if (Eat(',')) {
        SkipSpace();
        if (text_.substr(pos_, 10) == "must-alias") {
          a.must_alias = true;
          pos_ += 10;
        } else if (text_.substr(pos_, 9) == "may-alias") {
          pos_ += 9;
        } else {
          return Error("expected 'may-alias' or 'must-alias'");
        }
      }
      if (!Eat(')')) return Error("expected ')'");
      aliases.push_back(std::move(a));
    } while (Eat(','));
    if (!Eat('}')) return Error("expected '}' or ','");
    return Finish(std::move(aliases));
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() &&
           std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
  }
  bool Eat(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool Number(int64_t* out) {
    SkipSpace();
    const size_t start = pos_;
    int64_t v = 0;
    while (pos_ < text_.size() &&
           std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      if (v > (int64_t{1} << 40)) return false;
      v = v * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    *out = v;
    return pos_ > start;
  }
  // "{}" or "{1, 0}".
  absl::Status Index(std::vector<int64_t>* out) {
    if (!Eat('{')) return Error("expected '{' starting a shape index");
    if (Eat('}')) return absl::OkStatus();
    do {
      int64_t v;
      if (!Number(&v)) return Error("expected a tuple index");
      out->push_back(v);
    } while (Eat(','));
    if (!Eat('}')) return Error("expected '}' ending a shape index");
    return absl::OkStatus();
  }
  absl::StatusOr<std::vector<InputOutputAlias>> Finish(
      std::vector<InputOutputAlias> aliases) {
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text after the aliases");
    return aliases;
  }
  absl::Status Error(std::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("input_output_alias: ", std::string(what), " at offset ",
                     pos_, " of '", std::string(text_), "'"));
  }

  std::string_view text_;
  size_t pos_ = 0;
};

std::string IndexText(const std::vector<int64_t>& index) {
  return absl::StrCat("{", absl::StrJoin(index, ","), "}");
}

// The shape at `index` inside `shape`, or null when the index leaves it.
const Shape* ShapeAt(const Shape& shape, const std::vector<int64_t>& index) {
  const Shape* s = &shape;
  for (int64_t i : index) {
    if (!s->IsTuple() || i < 0 || i >= s->tuple_size()) return nullptr;
    s = &s->tuple_shapes(static_cast<int>(i));
  }
  return s;
}

// The depth-first array-leaf number of the leaf at `index` in `shape`.
int LeafNumber(const Shape& shape, const std::vector<int64_t>& index) {
  int number = 0;
  const Shape* s = &shape;
  for (int64_t i : index) {
    for (int64_t k = 0; k < i; ++k) {
      number += static_cast<int>(
          s->tuple_shapes(static_cast<int>(k)).Leaves().size());
    }
    s = &s->tuple_shapes(static_cast<int>(i));
  }
  return number;
}

}  // namespace

std::vector<int> DonatedArgumentPerResult(
    const Module& module, const std::vector<InputOutputAlias>& aliases) {
  const Computation& entry = *module.entry();
  std::vector<int> result(entry.root()->shape().Leaves().size(), -1);
  for (const InputOutputAlias& a : aliases) {
    int arg = 0;
    for (int64_t p = 0; p < a.parameter; ++p) {
      arg += static_cast<int>(entry.parameter(p)->shape().Leaves().size());
    }
    arg += LeafNumber(entry.parameter(a.parameter)->shape(), a.parameter_index);
    result[LeafNumber(entry.root()->shape(), a.output_index)] = arg;
  }
  return result;
}

absl::StatusOr<std::vector<InputOutputAlias>> ParseInputOutputAliasText(
    std::string_view text) {
  return AliasScanner(text).Parse();
}

absl::StatusOr<std::vector<InputOutputAlias>> InputOutputAliases(
    const Module& module) {
  const std::string* text = module.FindHeaderAttribute("input_output_alias");
  if (text == nullptr) return std::vector<InputOutputAlias>{};
  const Location where{module.source(), 1, 1};
  absl::StatusOr<std::vector<InputOutputAlias>> aliases =
      ParseInputOutputAliasText(*text);
  if (!aliases.ok())
    return ErrorAt(where, std::string(aliases.status().message()));
  const Computation* entry = module.entry();
  if (entry == nullptr)
    return ErrorAt(where, "input_output_alias without an entry computation");
  std::set<std::vector<int64_t>> outputs;
  std::set<std::pair<int64_t, std::vector<int64_t>>> params;
  for (const InputOutputAlias& a : *aliases) {
    const std::string what = absl::StrCat(
        "input_output_alias: output ", IndexText(a.output_index),
        " -> parameter ", a.parameter, " ", IndexText(a.parameter_index));
    const Shape* out = ShapeAt(entry->root()->shape(), a.output_index);
    if (out == nullptr || !out->IsArray()) {
      return ErrorAt(
          where,
          absl::StrCat(what, ": the output index names no array of the result ",
                       entry->root()->shape().ToString()));
    }
    if (a.parameter >= entry->num_parameters()) {
      return ErrorAt(where,
                     absl::StrCat(what, ": the entry computation has ",
                                  entry->num_parameters(), " parameters"));
    }
    const Shape& param_shape = entry->parameter(a.parameter)->shape();
    const Shape* in = ShapeAt(param_shape, a.parameter_index);
    if (in == nullptr || !in->IsArray()) {
      return ErrorAt(
          where, absl::StrCat(what, ": the parameter index names no array of ",
                              param_shape.ToString()));
    }
    if (in->ByteSize() != out->ByteSize()) {
      return ErrorAt(
          where, absl::StrCat(what, ": ", out->ToString(), " (",
                              out->ByteSize(), " bytes) cannot live in ",
                              in->ToString(), " (", in->ByteSize(), " bytes)"));
    }
    if (!outputs.insert(a.output_index).second) {
      return ErrorAt(where,
                     absl::StrCat(what, ": the output is aliased twice"));
    }
    if (!params.insert({a.parameter, a.parameter_index}).second) {
      return ErrorAt(where,
                     absl::StrCat(what, ": the parameter is donated twice"));
    }
  }
  return aliases;
}

}  // namespace aotc
