// HLO text parser: the `, key=value` attributes after an instruction.
//
// Three kinds: attributes aotc models (InstructionAttributes fields, for the
// opcodes opcode_attributes.def lists; the table's kind says how to read the
// value), computation references (resolved to Computation*), and everything
// else, kept verbatim as raw text in source order. A modeled key on an
// opcode that does not use it is kept raw too, so nothing is lost and the
// printer reproduces it.
#include <variant>

#include "compiler/frontend/text/parser.h"
#include "compiler/ir/opcode_attributes.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

// Fills batch/feature/spatial positions from one part of `b01f_01io->b01f`.
bool ParseLabels(std::string_view labels, char first, char second,
                 int64_t* first_dim, int64_t* second_dim,
                 std::vector<int64_t>* spatial) {
  if (labels.size() < 2) return false;
  const size_t num_spatial = labels.size() - 2;
  *first_dim = -1;
  *second_dim = -1;
  spatial->assign(num_spatial, -1);
  for (size_t i = 0; i < labels.size(); ++i) {
    const char c = labels[i];
    const int64_t pos = static_cast<int64_t>(i);
    if (c == first && *first_dim < 0) {
      *first_dim = pos;
    } else if (c == second && *second_dim < 0) {
      *second_dim = pos;
    } else if (c >= '0' && c <= '9' &&
               static_cast<size_t>(c - '0') < num_spatial &&
               (*spatial)[c - '0'] < 0) {
      (*spatial)[c - '0'] = pos;
    } else {
      return false;
    }
  }
  return *first_dim >= 0 && *second_dim >= 0;
}

}  // namespace

absl::Status HloParser::ParseAttribute(PendingInstruction* p) {
  if (!tok_.Is(TokenKind::kName) || tok_.HasPercent()) {
    return Expected("an attribute name");
  }
  const Token key_token = tok_;
  const std::string_view key = tok_.text;
  for (std::string_view seen : p->seen) {
    if (seen == key) {
      return ErrorAt(key_token,
                     absl::StrCat("attribute '", Sv(key), "' is given twice"));
    }
  }
  p->seen.push_back(key);
  Advance();
  RETURN_IF_ERROR(Expect(TokenKind::kEqual));
  bool handled = false;
  RETURN_IF_ERROR(ParseModeledAttribute(key, p, &handled));
  if (handled) return absl::OkStatus();
  RETURN_IF_ERROR(ParseCalledAttribute(key, p, &handled));
  if (handled) return absl::OkStatus();
  if (key == "metadata") return ParseMetadata(&p->metadata);
  ASSIGN_OR_RETURN(std::string value, ReadRawValue());
  p->raw_attributes.emplace_back(std::string(key), std::move(value));
  return absl::OkStatus();
}

absl::Status HloParser::ParseModeledAttribute(std::string_view key,
                                              PendingInstruction* p,
                                              bool* handled) {
  const AttributeSpec* spec = FindAttribute(p->opcode, key);
  *handled = spec != nullptr;
  if (spec == nullptr) return absl::OkStatus();
  const AttributeField field = spec->field(p->attrs);
  // A name token looked up with `from_name`: "unknown <what> 'x'" when it
  // names nothing.
  auto ParseEnumName = [&]<typename T>(
                           std::optional<T> (*from_name)(std::string_view),
                           std::string_view expected, std::string_view what,
                           T* out) -> absl::Status {
    if (!tok_.Is(TokenKind::kName)) return Expected(expected);
    std::optional<T> value = from_name(tok_.text);
    if (!value.has_value()) {
      return ErrorAt(tok_, absl::StrCat("unknown ", Sv(what), " '",
                                        Sv(tok_.text), "'"));
    }
    *out = *value;
    Advance();
    return absl::OkStatus();
  };
  switch (spec->kind) {
    case AttributeKind::kInt: {
      ASSIGN_OR_RETURN(*std::get<int64_t*>(field), ParseInt64());
      return absl::OkStatus();
    }
    case AttributeKind::kOptInt: {
      ASSIGN_OR_RETURN(*std::get<std::optional<int64_t>*>(field), ParseInt64());
      return absl::OkStatus();
    }
    case AttributeKind::kIotaDim: {
      ASSIGN_OR_RETURN(int64_t d, ParseInt64());
      *std::get<std::vector<int64_t>*>(field) = {d};
      return absl::OkStatus();
    }
    case AttributeKind::kIntList: {
      ASSIGN_OR_RETURN(*std::get<std::vector<int64_t>*>(field), ParseIntList());
      return absl::OkStatus();
    }
    case AttributeKind::kBool: {
      ASSIGN_OR_RETURN(*std::get<bool*>(field), ParseBool());
      return absl::OkStatus();
    }
    case AttributeKind::kSlice:
      return ParseSlice(std::get<std::vector<SliceDim>*>(field));
    case AttributeKind::kPadding:
      return ParsePadding(std::get<std::vector<PaddingDim>*>(field));
    case AttributeKind::kWindow:
      return ParseWindow(std::get<std::vector<WindowDim>*>(field));
    case AttributeKind::kDimLabels:
      return ParseDimLabels(std::get<ConvolutionDimensionNumbers*>(field));
    case AttributeKind::kNameList: {
      ASSIGN_OR_RETURN(std::vector<Token> names, ParseNameList());
      std::vector<std::string>* list =
          std::get<std::vector<std::string>*>(field);
      list->clear();
      for (const Token& t : names) list->emplace_back(t.text);
      return absl::OkStatus();
    }
    case AttributeKind::kName:
      if (!tok_.Is(TokenKind::kName)) return Expected("an algorithm name");
      *std::get<std::string*>(field) = std::string(tok_.text);
      Advance();
      return absl::OkStatus();
    case AttributeKind::kString: {
      ASSIGN_OR_RETURN(*std::get<std::string*>(field), ParseString());
      return absl::OkStatus();
    }
    case AttributeKind::kDirection:
      return ParseEnumName(ComparisonDirectionFromName, "a name",
                           "comparison direction",
                           std::get<ComparisonDirection*>(field));
    case AttributeKind::kCmpType:
      return ParseEnumName(ComparisonTypeFromName, "a name", "comparison type",
                           std::get<ComparisonType*>(field));
    case AttributeKind::kFusionKind:
      return ParseEnumName(FusionKindFromName, "a fusion kind", "fusion kind",
                           std::get<FusionKind*>(field));
    case AttributeKind::kFftType:
      return ParseEnumName(FftTypeFromName, "an fft type", "fft type",
                           std::get<FftType*>(field));
    case AttributeKind::kTranspose:
      return ParseEnumName(TransposeKindFromName, "a transpose kind",
                           "transpose kind", std::get<TransposeKind*>(field));
    case AttributeKind::kShapeList: {
      RETURN_IF_ERROR(Expect(TokenKind::kLbrace));
      std::vector<Shape> shapes;
      if (!tok_.Is(TokenKind::kRbrace)) {
        while (true) {
          ASSIGN_OR_RETURN(Shape s, ParseShape());
          shapes.push_back(std::move(s));
          if (!tok_.Is(TokenKind::kComma)) break;
          Advance();
        }
      }
      RETURN_IF_ERROR(Expect(TokenKind::kRbrace));
      *std::get<std::optional<std::vector<Shape>>*>(field) = std::move(shapes);
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

absl::Status HloParser::ParseCalledAttribute(std::string_view key,
                                             PendingInstruction* p,
                                             bool* handled) {
  *handled = true;
  const std::pair<std::string_view, Computation**> single[] = {
      {"to_apply", &p->to_apply},
      {"calls", &p->calls},
      {"condition", &p->condition},
      {"body", &p->body},
      {"true_computation", &p->true_computation},
      {"false_computation", &p->false_computation},
      {"select", &p->select},
      {"scatter", &p->scatter},
  };
  for (const auto& [name, slot] : single) {
    if (key != name) continue;
    ASSIGN_OR_RETURN(*slot, ParseComputationRef());
    return absl::OkStatus();
  }
  std::vector<Computation*>* list = nullptr;
  if (key == "branch_computations") list = &p->branch_computations;
  if (key == "called_computations") list = &p->called_computations;
  if (list == nullptr) {
    *handled = false;
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(Expect(TokenKind::kLbrace));
  if (!tok_.Is(TokenKind::kRbrace)) {
    while (true) {
      ASSIGN_OR_RETURN(Computation * c, ParseComputationRef());
      list->push_back(c);
      if (!tok_.Is(TokenKind::kComma)) break;
      Advance();
    }
  }
  return Expect(TokenKind::kRbrace);
}

absl::Status HloParser::ParseMetadata(OpMetadata* metadata) {
  RETURN_IF_ERROR(Expect(TokenKind::kLbrace));
  while (!tok_.Is(TokenKind::kRbrace)) {
    if (!tok_.Is(TokenKind::kName) || tok_.HasPercent()) {
      return Expected("a metadata attribute or '}'");
    }
    const std::string_view key = tok_.text;
    Advance();
    RETURN_IF_ERROR(Expect(TokenKind::kEqual));
    if (key == "op_type") {
      ASSIGN_OR_RETURN(metadata->op_type, ParseString());
    } else if (key == "op_name") {
      ASSIGN_OR_RETURN(metadata->op_name, ParseString());
    } else if (key == "source_file") {
      ASSIGN_OR_RETURN(metadata->source_file, ParseString());
    } else if (key == "source_line") {
      ASSIGN_OR_RETURN(metadata->source_line, ParseInt64());
    } else {
      ASSIGN_OR_RETURN(std::string value, ReadRawValue());
      metadata->other.emplace_back(std::string(key), std::move(value));
    }
    if (tok_.Is(TokenKind::kComma)) Advance();
  }
  Advance();
  return absl::OkStatus();
}

absl::Status HloParser::ParseWindow(std::vector<WindowDim>* window) {
  RETURN_IF_ERROR(Expect(TokenKind::kLbrace));
  struct Component {
    std::string_view key;
    Token token;
    std::vector<int64_t> values;            // size, stride, dilations, reversal
    std::vector<std::vector<int64_t>> pad;  // pad
    bool present = false;
  };
  constexpr std::string_view kKeys[] = {
      "size", "stride", "pad", "lhs_dilate", "rhs_dilate", "rhs_reversal"};
  Component parts[6];
  for (int i = 0; i < 6; ++i) parts[i].key = kKeys[i];
  while (!tok_.Is(TokenKind::kRbrace)) {
    if (!tok_.Is(TokenKind::kName))
      return Expected("a window attribute or '}'");
    Component* part = nullptr;
    for (Component& c : parts) {
      if (c.key == tok_.text) part = &c;
    }
    if (part == nullptr) {
      return ErrorAt(
          tok_, absl::StrCat("unknown window attribute '", Sv(tok_.text), "'"));
    }
    part->token = tok_;
    part->present = true;
    Advance();
    RETURN_IF_ERROR(Expect(TokenKind::kEqual));
    bool ok;
    if (part->key == "pad") {
      if (!tok_.Is(TokenKind::kPad)) return Expected("padding like 1_1x1_1");
      ok = SplitPad(tok_.text, &part->pad);
      for (const auto& dim : part->pad) {
        if (ok && dim.size() != 2) {
          return ErrorAt(tok_, "window padding must be low_high per dimension");
        }
      }
    } else if (tok_.Is(TokenKind::kDxD) || tok_.Is(TokenKind::kInt)) {
      ok = SplitDxD(tok_.text, &part->values);
    } else {
      return Expected("a size like 3x3");
    }
    if (!ok) {
      return ErrorAt(tok_, absl::StrCat("integer in ", DescribeToken(tok_),
                                        " is out of range"));
    }
    Advance();
    if (tok_.Is(TokenKind::kComma)) Advance();
  }
  Advance();
  window->clear();
  const Component& size = parts[0];
  if (!size.present) {
    for (const Component& c : parts) {
      if (c.present) return ErrorAt(c.token, "window has no size");
    }
    return absl::OkStatus();
  }
  const size_t rank = size.values.size();
  for (const Component& c : parts) {
    size_t n = c.key == "pad" ? c.pad.size() : c.values.size();
    if (c.present && n != rank) {
      return ErrorAt(c.token, absl::StrCat("window ", Sv(c.key), " has ", n,
                                           " dimensions, size has ", rank));
    }
  }
  window->resize(rank);
  for (size_t i = 0; i < rank; ++i) {
    WindowDim& w = (*window)[i];
    w.size = size.values[i];
    if (parts[1].present) w.stride = parts[1].values[i];
    if (parts[2].present) {
      w.pad_low = parts[2].pad[i][0];
      w.pad_high = parts[2].pad[i][1];
    }
    if (parts[3].present) w.base_dilation = parts[3].values[i];
    if (parts[4].present) w.window_dilation = parts[4].values[i];
    if (parts[5].present) w.reversal = parts[5].values[i] != 0;
  }
  return absl::OkStatus();
}

absl::Status HloParser::ParseSlice(std::vector<SliceDim>* slice) {
  RETURN_IF_ERROR(Expect(TokenKind::kLbrace));
  slice->clear();
  if (!tok_.Is(TokenKind::kRbrace)) {
    while (true) {
      SliceDim dim;
      RETURN_IF_ERROR(Expect(TokenKind::kLsquare));
      ASSIGN_OR_RETURN(dim.start, ParseInt64());
      RETURN_IF_ERROR(Expect(TokenKind::kColon));
      ASSIGN_OR_RETURN(dim.limit, ParseInt64());
      if (tok_.Is(TokenKind::kColon)) {
        Advance();
        ASSIGN_OR_RETURN(dim.stride, ParseInt64());
      }
      RETURN_IF_ERROR(Expect(TokenKind::kRsquare));
      slice->push_back(dim);
      if (!tok_.Is(TokenKind::kComma)) break;
      Advance();
    }
  }
  return Expect(TokenKind::kRbrace);
}

absl::Status HloParser::ParsePadding(std::vector<PaddingDim>* padding) {
  padding->clear();
  // A rank-0 pad has an empty padding value.
  if (tok_.Is(TokenKind::kComma) || tok_.Is(TokenKind::kRbrace) ||
      tok_.Is(TokenKind::kEof)) {
    return absl::OkStatus();
  }
  if (!tok_.Is(TokenKind::kPad)) return Expected("padding like 0_1x2_2_1");
  std::vector<std::vector<int64_t>> dims;
  if (!SplitPad(tok_.text, &dims)) {
    return ErrorAt(tok_, absl::StrCat("integer in ", DescribeToken(tok_),
                                      " is out of range"));
  }
  for (const std::vector<int64_t>& d : dims) {
    padding->push_back(PaddingDim{d[0], d[1], d.size() > 2 ? d[2] : 0});
  }
  Advance();
  return absl::OkStatus();
}

absl::Status HloParser::ParseDimLabels(ConvolutionDimensionNumbers* dnums) {
  if (!tok_.Is(TokenKind::kDimLabels)) {
    return Expected("dimension labels like b01f_01io->b01f");
  }
  const std::string_view text = tok_.text;
  const size_t underscore = text.find('_');
  const size_t arrow = text.find("->");
  const std::string_view lhs = text.substr(0, underscore);
  const std::string_view rhs =
      text.substr(underscore + 1, arrow - underscore - 1);
  const std::string_view out = text.substr(arrow + 2);
  bool ok =
      ParseLabels(lhs, 'b', 'f', &dnums->input_batch, &dnums->input_feature,
                  &dnums->input_spatial) &&
      ParseLabels(rhs, 'i', 'o', &dnums->kernel_input_feature,
                  &dnums->kernel_output_feature, &dnums->kernel_spatial) &&
      ParseLabels(out, 'b', 'f', &dnums->output_batch, &dnums->output_feature,
                  &dnums->output_spatial) &&
      dnums->input_spatial.size() == dnums->kernel_spatial.size() &&
      dnums->input_spatial.size() == dnums->output_spatial.size();
  if (!ok) {
    return ErrorAt(
        tok_, absl::StrCat("invalid dimension labels ", DescribeToken(tok_)));
  }
  Advance();
  return absl::OkStatus();
}

}  // namespace aotc
