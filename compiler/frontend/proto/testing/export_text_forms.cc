// Test-only readers of raw attribute texts into proto fields.
//
// A small cursor over the text; every reader consumes its whole input or
// fails with a message naming what it expected.
#include "compiler/frontend/proto/testing/export_text_forms.h"

#include <cctype>
#include <cstdlib>
#include <limits>

#include "absl/strings/escaping.h"
#include "compiler/ir/primitive_type.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::testing {
namespace {

class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  void SkipSpace() {
    while (pos_ < text_.size()) {
      if (std::isspace(static_cast<unsigned char>(text_[pos_]))) {
        ++pos_;
      } else if (text_.substr(pos_, 2) == "/*") {
        size_t end = text_.find("*/", pos_ + 2);
        pos_ = end == std::string_view::npos ? text_.size() : end + 2;
      } else {
        return;
      }
    }
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ == text_.size();
  }
  bool Peek(std::string_view s) {
    SkipSpace();
    return text_.substr(pos_, s.size()) == s;
  }
  bool TryConsume(std::string_view s) {
    if (!Peek(s)) return false;
    pos_ += s.size();
    return true;
  }
  absl::Status Expect(std::string_view s) {
    if (TryConsume(s)) return absl::OkStatus();
    return Fail(absl::StrCat("expected '", Sv(s), "'"));
  }
  absl::Status Fail(std::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat(Sv(what), " at offset ", pos_, " of '", Sv(text_), "'"));
  }
  // Letters, digits and `_.-`.
  std::string Word() {
    SkipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
            text_[pos_] == '_' || text_[pos_] == '.' || text_[pos_] == '-')) {
      ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }
  absl::StatusOr<int64_t> Int() {
    std::string w = Word();
    char* end = nullptr;
    int64_t v = std::strtoll(w.c_str(), &end, 10);
    if (w.empty() || *end != '\0') return Fail("expected an integer");
    return v;
  }
  absl::StatusOr<double> Double() {
    std::string w = Word();
    char* end = nullptr;
    double v = std::strtod(w.c_str(), &end);
    if (w.empty() || *end != '\0') return Fail("expected a number");
    return v;
  }
  absl::StatusOr<std::string> Quoted() {
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] != '"')
      return Fail("expected a string");
    size_t start = ++pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      pos_ += text_[pos_] == '\\' ? 2 : 1;
    }
    if (pos_ >= text_.size()) return Fail("unterminated string");
    std::string out;
    if (!absl::CUnescape(Sv(text_.substr(start, pos_ - start)), &out)) {
      return Fail("bad escape");
    }
    ++pos_;
    return out;
  }
  // `{1,2}` or `{}`.
  template <typename Add>
  absl::Status IntList(Add add) {
    RETURN_IF_ERROR(Expect("{"));
    if (TryConsume("}")) return absl::OkStatus();
    do {
      ASSIGN_OR_RETURN(int64_t v, Int());
      add(v);
    } while (TryConsume(","));
    return Expect("}");
  }
  std::string_view Rest() {
    SkipSpace();
    return text_.substr(pos_);
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

absl::Status EndOf(Cursor& c) {
  return c.AtEnd() ? absl::OkStatus() : c.Fail("unexpected text");
}

absl::Status ParseShapeAt(Cursor& c, xla::ShapeProto* out);

absl::Status ParseLayoutBody(Cursor& c, xla::LayoutProto* out) {
  // After `{`: minor_to_major, then an optional `:` extension, then `}`.
  if (!c.Peek(":") && !c.Peek("}")) {
    do {
      ASSIGN_OR_RETURN(int64_t d, c.Int());
      out->add_minor_to_major(d);
    } while (c.TryConsume(","));
  }
  if (c.TryConsume(":")) {
    while (!c.Peek("}")) {
      if (c.TryConsume("T")) {
        while (c.TryConsume("(")) {
          xla::TileProto* tile = out->add_tiles();
          do {
            if (c.TryConsume("*")) {
              tile->add_dimensions(std::numeric_limits<int64_t>::min());
              continue;
            }
            ASSIGN_OR_RETURN(int64_t d, c.Int());
            tile->add_dimensions(d);
          } while (c.TryConsume(","));
          RETURN_IF_ERROR(c.Expect(")"));
        }
        continue;
      }
      auto number = [&](auto set) -> absl::Status {
        RETURN_IF_ERROR(c.Expect("("));
        ASSIGN_OR_RETURN(int64_t v, c.Int());
        set(v);
        return c.Expect(")");
      };
      auto type = [&](auto set) -> absl::Status {
        RETURN_IF_ERROR(c.Expect("("));
        std::optional<PrimitiveType> t = PrimitiveTypeFromName(c.Word());
        if (!t) return c.Fail("expected a type");
        set(static_cast<int>(*t));
        return c.Expect(")");
      };
      if (c.TryConsume("E")) {
        RETURN_IF_ERROR(
            number([&](int64_t v) { out->set_element_size_in_bits(v); }));
      } else if (c.TryConsume("S")) {
        RETURN_IF_ERROR(number([&](int64_t v) { out->set_memory_space(v); }));
      } else if (c.TryConsume("L")) {
        RETURN_IF_ERROR(number([&](int64_t v) {
          out->set_tail_padding_alignment_in_elements(v);
        }));
      } else if (c.TryConsume("M")) {
        RETURN_IF_ERROR(number([&](int64_t v) {
          out->set_dynamic_shape_metadata_prefix_bytes(v);
        }));
      } else if (c.TryConsume("#")) {
        RETURN_IF_ERROR(type([&](int t) { out->set_index_primitive_type(t); }));
      } else if (c.TryConsume("*")) {
        RETURN_IF_ERROR(
            type([&](int t) { out->set_pointer_primitive_type(t); }));
      } else if (c.TryConsume("D")) {
        RETURN_IF_ERROR(c.Expect("("));
        do {
          std::string letter = c.Word();
          static constexpr std::string_view kLetters[] = {"D", "C", "S", "H"};
          int found = -1;
          for (int i = 0; i < 4; ++i) {
            if (letter == kLetters[i]) found = i;
          }
          if (found < 0) return c.Fail("expected a dimension level type");
          out->add_dim_level_types(found);
        } while (c.TryConsume(","));
        RETURN_IF_ERROR(c.Expect(")"));
      } else {
        return c.Fail("unknown layout extension");
      }
    }
  }
  return c.Expect("}");
}

absl::Status ParseShapeAt(Cursor& c, xla::ShapeProto* out) {
  if (c.TryConsume("(")) {
    out->set_element_type(static_cast<int>(PrimitiveType::kTuple));
    if (c.TryConsume(")")) return absl::OkStatus();
    do {
      RETURN_IF_ERROR(ParseShapeAt(c, out->add_tuple_shapes()));
    } while (c.TryConsume(","));
    return c.Expect(")");
  }
  std::optional<PrimitiveType> type = PrimitiveTypeFromName(c.Word());
  if (!type) return c.Fail("expected an element type");
  out->set_element_type(static_cast<int>(*type));
  RETURN_IF_ERROR(c.Expect("["));
  if (!c.Peek("]")) {
    do {
      ASSIGN_OR_RETURN(int64_t d, c.Int());
      out->add_dimensions(d);
    } while (c.TryConsume(","));
  }
  RETURN_IF_ERROR(c.Expect("]"));
  if (!IsArrayType(*type)) return absl::OkStatus();
  xla::LayoutProto* layout = out->mutable_layout();
  if (c.TryConsume("{")) return ParseLayoutBody(c, layout);
  for (int i = out->dimensions_size() - 1; i >= 0; --i) {
    layout->add_minor_to_major(i);
  }
  return absl::OkStatus();
}

std::string_view kShardingKeywords[] = {"replicated", "maximal", "tuple",
                                        "other",      "manual",  "unknown",
                                        "unreduced"};

int ShardingKeyword(std::string_view word) {
  for (int i = 0; i < 7; ++i) {
    if (word == kShardingKeywords[i]) return i;
  }
  return -1;
}

absl::Status ParseShardingAt(Cursor& c, xla::OpSharding* out) {
  RETURN_IF_ERROR(c.Expect("{"));
  if (c.Peek("{")) {
    out->set_type(2);
    do {
      RETURN_IF_ERROR(ParseShardingAt(c, out->add_tuple_shardings()));
    } while (c.TryConsume(","));
    return c.Expect("}");
  }
  if (c.TryConsume("devices=")) {
    out->set_type(3);
    RETURN_IF_ERROR(c.Expect("["));
    do {
      ASSIGN_OR_RETURN(int64_t d, c.Int());
      out->add_tile_assignment_dimensions(d);
    } while (c.TryConsume(","));
    RETURN_IF_ERROR(c.Expect("]"));
    if (c.TryConsume("<=[")) {
      do {
        ASSIGN_OR_RETURN(int64_t d, c.Int());
        out->add_iota_reshape_dims(d);
      } while (c.TryConsume(","));
      RETURN_IF_ERROR(c.Expect("]"));
      if (c.TryConsume("T(")) {
        do {
          ASSIGN_OR_RETURN(int64_t d, c.Int());
          out->add_iota_transpose_perm(static_cast<int>(d));
        } while (c.TryConsume(","));
        RETURN_IF_ERROR(c.Expect(")"));
      }
    } else {
      do {
        ASSIGN_OR_RETURN(int64_t d, c.Int());
        out->add_tile_assignment_devices(d);
      } while (c.TryConsume(","));
    }
    while (!c.Peek("}")) {
      if (c.TryConsume("last_tile_dim_replicate")) {
        out->set_replicate_on_last_tile_dim(true);
      } else if (c.TryConsume("last_tile_dims={")) {
        do {
          int t = ShardingKeyword(c.Word());
          if (t < 0) return c.Fail("expected a sharding type");
          out->add_last_tile_dims(t);
        } while (c.TryConsume(","));
        RETURN_IF_ERROR(c.Expect("}"));
      } else {
        return c.Fail("unknown sharding option");
      }
    }
    return c.Expect("}");
  }
  std::string word = c.Word();
  if (word == "maximal") {
    out->set_type(1);
    RETURN_IF_ERROR(c.Expect("device="));
    ASSIGN_OR_RETURN(int64_t d, c.Int());
    out->add_tile_assignment_devices(d);
    return c.Expect("}");
  }
  int type = ShardingKeyword(word);
  if (type < 0 || type == 1 || type == 2 || type == 3) {
    return c.Fail("unknown sharding");
  }
  out->set_type(type);
  return c.Expect("}");
}

// `{a,b}` shape index into a repeated field.
template <typename Field>
absl::Status ShapeIndex(Cursor& c, Field* field) {
  return c.IntList([&](int64_t v) { field->Add(v); });
}

}  // namespace

absl::Status ParseShapeText(std::string_view text, xla::ShapeProto* out) {
  Cursor c(text);
  RETURN_IF_ERROR(ParseShapeAt(c, out));
  return EndOf(c);
}

absl::Status ParseLayoutExtension(std::string_view text,
                                  xla::LayoutProto* out) {
  std::string braced = absl::StrCat(":", Sv(text), "}");
  Cursor c(braced);
  RETURN_IF_ERROR(ParseLayoutBody(c, out));
  return EndOf(c);
}

absl::Status ParseEntryLayout(std::string_view text,
                              xla::ProgramShapeProto* out) {
  Cursor c(text);
  RETURN_IF_ERROR(c.Expect("{"));
  RETURN_IF_ERROR(c.Expect("("));
  if (!c.TryConsume(")")) {
    do {
      RETURN_IF_ERROR(ParseShapeAt(c, out->add_parameters()));
    } while (c.TryConsume(","));
    RETURN_IF_ERROR(c.Expect(")"));
  }
  RETURN_IF_ERROR(c.Expect("->"));
  RETURN_IF_ERROR(ParseShapeAt(c, out->mutable_result()));
  RETURN_IF_ERROR(c.Expect("}"));
  return EndOf(c);
}

absl::Status ParseSharding(std::string_view text, xla::OpSharding* out) {
  Cursor c(text);
  RETURN_IF_ERROR(ParseShardingAt(c, out));
  return EndOf(c);
}

absl::Status ParseFrontendAttributes(std::string_view text,
                                     xla::FrontendAttributes* out) {
  Cursor c(text);
  RETURN_IF_ERROR(c.Expect("{"));
  if (c.TryConsume("}")) return EndOf(c);
  do {
    auto* entry = out->add_map();
    entry->set_key(c.Word());
    RETURN_IF_ERROR(c.Expect("="));
    ASSIGN_OR_RETURN(std::string value, c.Quoted());
    entry->set_value(value);
  } while (c.TryConsume(","));
  RETURN_IF_ERROR(c.Expect("}"));
  return EndOf(c);
}

absl::Status ParseBackendConfig(std::string_view text, std::string* out) {
  if (!text.empty() && text.front() == '"') return ParseQuotedString(text, out);
  *out = std::string(text);
  return absl::OkStatus();
}

absl::Status ParseQuotedString(std::string_view text, std::string* out) {
  Cursor c(text);
  ASSIGN_OR_RETURN(*out, c.Quoted());
  return EndOf(c);
}

absl::Status ParseParameterReplication(std::string_view text,
                                       xla::ParameterReplication* out) {
  Cursor c(text);
  RETURN_IF_ERROR(c.Expect("{"));
  do {
    std::string w = c.Word();
    if (w != "true" && w != "false") return c.Fail("expected true or false");
    out->add_replicated_at_leaf_buffers(w == "true");
  } while (c.TryConsume(","));
  RETURN_IF_ERROR(c.Expect("}"));
  return EndOf(c);
}

absl::Status ParseOutputOperandAliasing(std::string_view text,
                                        xla::HloInstructionProto* out) {
  Cursor c(text);
  RETURN_IF_ERROR(c.Expect("{"));
  if (c.TryConsume("}")) return EndOf(c);
  do {
    xla::OutputOperandAliasing* a = out->add_output_operand_aliasing();
    RETURN_IF_ERROR(ShapeIndex(c, a->mutable_output_shape_index()));
    RETURN_IF_ERROR(c.Expect(":"));
    RETURN_IF_ERROR(c.Expect("("));
    ASSIGN_OR_RETURN(int64_t operand, c.Int());
    a->set_operand_index(operand);
    RETURN_IF_ERROR(c.Expect(","));
    RETURN_IF_ERROR(ShapeIndex(c, a->mutable_operand_shape_index()));
    RETURN_IF_ERROR(c.Expect(")"));
  } while (c.TryConsume(","));
  RETURN_IF_ERROR(c.Expect("}"));
  return EndOf(c);
}

absl::Status ParseStatistics(std::string_view text, xla::StatisticsViz* out) {
  Cursor c(text);
  RETURN_IF_ERROR(c.Expect("{"));
  RETURN_IF_ERROR(c.Expect("visualizing_index="));
  ASSIGN_OR_RETURN(int64_t index, c.Int());
  out->set_stat_index_to_visualize(index);
  while (c.TryConsume(",")) {
    xla::Statistic* s = out->add_statistics();
    s->set_stat_name(c.Word());
    RETURN_IF_ERROR(c.Expect("="));
    ASSIGN_OR_RETURN(double v, c.Double());
    s->set_stat_val(v);
  }
  RETURN_IF_ERROR(c.Expect("}"));
  return EndOf(c);
}

absl::Status ParseResultAccuracy(std::string_view text,
                                 xla::ResultAccuracy* out) {
  Cursor c(text);
  RETURN_IF_ERROR(c.Expect("{"));
  if (c.TryConsume("mode=")) {
    std::string mode = c.Word();
    if (mode != "highest" && mode != "HIGHEST") return c.Fail("unknown mode");
    out->set_mode(1);
  } else {
    RETURN_IF_ERROR(c.Expect("tolerance={"));
    auto* t = out->mutable_tolerance();
    RETURN_IF_ERROR(c.Expect("atol="));
    ASSIGN_OR_RETURN(double atol, c.Double());
    RETURN_IF_ERROR(c.Expect(","));
    RETURN_IF_ERROR(c.Expect("rtol="));
    ASSIGN_OR_RETURN(double rtol, c.Double());
    RETURN_IF_ERROR(c.Expect(","));
    RETURN_IF_ERROR(c.Expect("ulps="));
    ASSIGN_OR_RETURN(int64_t ulps, c.Int());
    t->set_atol(atol);
    t->set_rtol(rtol);
    t->set_ulps(ulps);
    RETURN_IF_ERROR(c.Expect("}"));
  }
  RETURN_IF_ERROR(c.Expect("}"));
  return EndOf(c);
}

absl::Status ParseInputOutputAlias(std::string_view text,
                                   xla::HloInputOutputAliasProto* out) {
  Cursor c(text);
  RETURN_IF_ERROR(c.Expect("{"));
  if (c.TryConsume("}")) return EndOf(c);
  do {
    auto* e = out->add_entries();
    RETURN_IF_ERROR(ShapeIndex(c, e->mutable_output_shape_index()));
    RETURN_IF_ERROR(c.Expect(":"));
    RETURN_IF_ERROR(c.Expect("("));
    ASSIGN_OR_RETURN(int64_t param, c.Int());
    e->set_parameter_number(param);
    RETURN_IF_ERROR(c.Expect(","));
    RETURN_IF_ERROR(ShapeIndex(c, e->mutable_parameter_shape_index()));
    if (c.TryConsume(",")) {
      std::string kind = c.Word();
      if (kind == "may-alias") {
        e->set_kind(1);
      } else if (kind == "must-alias") {
        e->set_kind(2);
      } else {
        return c.Fail("unknown alias kind");
      }
    }
    RETURN_IF_ERROR(c.Expect(")"));
  } while (c.TryConsume(","));
  RETURN_IF_ERROR(c.Expect("}"));
  return EndOf(c);
}

absl::Status ParseBufferDonor(std::string_view text,
                              xla::HloBufferDonorProto* out) {
  Cursor c(text);
  RETURN_IF_ERROR(c.Expect("{"));
  if (c.TryConsume("}")) return EndOf(c);
  do {
    auto* e = out->add_entries();
    RETURN_IF_ERROR(c.Expect("("));
    ASSIGN_OR_RETURN(int64_t param, c.Int());
    e->set_parameter_number(param);
    RETURN_IF_ERROR(c.Expect(","));
    RETURN_IF_ERROR(ShapeIndex(c, e->mutable_parameter_shape_index()));
    RETURN_IF_ERROR(c.Expect(")"));
  } while (c.TryConsume(","));
  RETURN_IF_ERROR(c.Expect("}"));
  return EndOf(c);
}

absl::Status ParseStackFrameTables(std::string_view text,
                                   xla::StackFrameIndexProto* out) {
  Cursor c(text);
  // Each table is a title then `id value` rows with ids 1, 2, ...
  auto rows = [&](auto read_row) -> absl::Status {
    for (int64_t expected = 1;; ++expected) {
      c.SkipSpace();
      if (c.AtEnd() || !std::isdigit(static_cast<unsigned char>(c.Rest()[0]))) {
        return absl::OkStatus();
      }
      ASSIGN_OR_RETURN(int64_t id, c.Int());
      if (id != expected) return c.Fail("stack frame table ids out of order");
      RETURN_IF_ERROR(read_row());
    }
  };
  auto field = [&](std::string_view name) -> absl::StatusOr<int64_t> {
    RETURN_IF_ERROR(c.Expect(name));
    RETURN_IF_ERROR(c.Expect("="));
    return c.Int();
  };
  while (!c.AtEnd()) {
    std::string title = c.Word();
    if (title == "FileNames" || title == "FunctionNames") {
      auto* names = title == "FileNames" ? out->mutable_file_names()
                                         : out->mutable_function_names();
      RETURN_IF_ERROR(rows([&]() -> absl::Status {
        ASSIGN_OR_RETURN(std::string name, c.Quoted());
        names->Add(std::move(name));
        return absl::OkStatus();
      }));
    } else if (title == "FileLocations") {
      RETURN_IF_ERROR(rows([&]() -> absl::Status {
        auto* l = out->add_file_locations();
        RETURN_IF_ERROR(c.Expect("{"));
        ASSIGN_OR_RETURN(int64_t file, field("file_name_id"));
        ASSIGN_OR_RETURN(int64_t function, field("function_name_id"));
        ASSIGN_OR_RETURN(int64_t line, field("line"));
        ASSIGN_OR_RETURN(int64_t end_line, field("end_line"));
        ASSIGN_OR_RETURN(int64_t column, field("column"));
        ASSIGN_OR_RETURN(int64_t end_column, field("end_column"));
        l->set_file_name_id(file);
        l->set_function_name_id(function);
        l->set_line(line);
        l->set_end_line(end_line);
        l->set_column(column);
        l->set_end_column(end_column);
        return c.Expect("}");
      }));
    } else if (title == "StackFrames") {
      RETURN_IF_ERROR(rows([&]() -> absl::Status {
        auto* f = out->add_stack_frames();
        RETURN_IF_ERROR(c.Expect("{"));
        ASSIGN_OR_RETURN(int64_t location, field("file_location_id"));
        ASSIGN_OR_RETURN(int64_t parent, field("parent_frame_id"));
        f->set_file_location_id(location);
        f->set_parent_frame_id(parent);
        return c.Expect("}");
      }));
    } else {
      return c.Fail("unknown stack frame table");
    }
  }
  return absl::OkStatus();
}

}  // namespace aotc::testing
