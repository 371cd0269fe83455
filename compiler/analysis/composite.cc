// Reading a composite call's name, version and attributes (composite.h).
#include "compiler/analysis/composite.h"

#include <cctype>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

// A cursor over frontend_attributes text.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  void SkipSpace() {
    while (pos_ < text_.size() &&
           std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
  }
  bool At(char c) {
    SkipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool Consume(char c) {
    if (!At(c)) return false;
    ++pos_;
    return true;
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ == text_.size();
  }
  absl::Status Fail(std::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(
        "frontend_attributes: expected ", Sv(what), " at offset ", pos_,
        " of '", Sv(text_), "'"));
  }

  // A key: everything up to '=', trimmed.
  absl::StatusOr<std::string> Key() {
    SkipSpace();
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '=' && text_[pos_] != ',' &&
           text_[pos_] != '}') {
      ++pos_;
    }
    std::string_view key = text_.substr(start, pos_ - start);
    while (!key.empty() &&
           std::isspace(static_cast<unsigned char>(key.back()))) {
      key.remove_suffix(1);
    }
    if (key.empty()) return Fail("a key");
    return std::string(key);
  }

  // A quoted string (C escapes), a brace group as written, or a bare word.
  absl::StatusOr<std::string> Value() {
    SkipSpace();
    if (pos_ == text_.size()) return Fail("a value");
    if (text_[pos_] == '"') {
      const size_t start = ++pos_;
      while (pos_ < text_.size() && text_[pos_] != '"') {
        pos_ += text_[pos_] == '\\' ? 2 : 1;
      }
      if (pos_ >= text_.size()) return Fail("the closing '\"'");
      std::string out;
      if (!absl::CUnescape(Sv(text_.substr(start, pos_ - start)), &out)) {
        return Fail("a valid escape");
      }
      ++pos_;
      return out;
    }
    if (text_[pos_] == '{') {
      const size_t start = pos_;
      int depth = 0;
      bool in_string = false;
      for (; pos_ < text_.size(); ++pos_) {
        const char c = text_[pos_];
        if (in_string) {
          if (c == '\\') {
            ++pos_;
          } else if (c == '"') {
            in_string = false;
          }
        } else if (c == '"') {
          in_string = true;
        } else if (c == '{') {
          ++depth;
        } else if (c == '}' && --depth == 0) {
          ++pos_;
          return std::string(text_.substr(start, pos_ - start));
        }
      }
      return Fail("the closing '}'");
    }
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '}') {
      ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

absl::StatusOr<std::vector<std::pair<std::string, std::string>>>
ParseFrontendAttributes(std::string_view text) {
  Reader r(text);
  std::vector<std::pair<std::string, std::string>> entries;
  if (!r.Consume('{')) return r.Fail("'{'");
  if (!r.Consume('}')) {
    do {
      std::pair<std::string, std::string> entry;
      ASSIGN_OR_RETURN(entry.first, r.Key());
      if (!r.Consume('=')) return r.Fail("'='");
      ASSIGN_OR_RETURN(entry.second, r.Value());
      entries.push_back(std::move(entry));
    } while (r.Consume(','));
    if (!r.Consume('}')) return r.Fail("',' or '}'");
  }
  if (!r.AtEnd()) return r.Fail("the end");
  return entries;
}

absl::StatusOr<std::optional<CompositeInfo>> ReadComposite(
    const Instruction& inst) {
  if (inst.opcode() != Opcode::kCall) return std::nullopt;
  const std::string* flag = inst.FindRawAttribute("is_composite");
  if (flag == nullptr || *flag != "true") return std::nullopt;
  const std::string* raw = inst.FindRawAttribute("frontend_attributes");
  if (raw == nullptr) {
    return ErrorAt(inst.location(),
                   "composite call without frontend_attributes (it needs "
                   "composite.name)");
  }
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> entries =
      ParseFrontendAttributes(*raw);
  if (!entries.ok()) {
    return ErrorAt(inst.location(), std::string(entries.status().message()));
  }
  CompositeInfo info;
  info.attributes = "{}";
  bool named = false;
  for (const auto& [key, value] : *entries) {
    if (key == "composite.name") {
      info.name = value;
      named = true;
    } else if (key == "composite.attributes") {
      info.attributes = value;
    } else if (key == "composite.version") {
      if (!absl::SimpleAtoi(Sv(value), &info.version)) {
        return ErrorAt(inst.location(),
                       absl::StrCat("composite.version '", Sv(value),
                                    "' is not an integer"));
      }
    }
  }
  if (!named || info.name.empty()) {
    return ErrorAt(inst.location(), "composite call without composite.name");
  }
  return info;
}

}  // namespace aotc
