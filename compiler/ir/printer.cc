// IR -> HLO text in the form the text parser reads back.
//
// Canonical form: array shapes always carry their layout; modeled attributes
// come first in the order of opcode_attributes.def, then the called
// computations, then the raw attributes in their stored order, then
// metadata. Defaults XLA's printer also leaves out (stride 1, group count 1,
// false flags, empty windows: the table's `Set` entries) are omitted. Floats
// print as the shortest decimal that converts back to the same bits (f16,
// bf16 and the minifloats print their exact value as the shortest float),
// with inf, -inf, nan, -nan and nan(0x...) for non-canonical NaN payloads.
#include "compiler/ir/printer.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "compiler/ir/minifloat.h"
#include "compiler/ir/opcode_attributes.h"
#include "compiler/support/float16.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

void AppendShape(std::string* out, const Shape& shape) {
  if (shape.IsTuple()) {
    out->push_back('(');
    for (int i = 0; i < shape.tuple_size(); ++i) {
      if (i > 0) out->append(", ");
      AppendShape(out, shape.tuple_shapes(i));
    }
    out->push_back(')');
    return;
  }
  if (!shape.IsArray()) {
    out->append(shape.ToString());
    return;
  }
  absl::StrAppend(out, Sv(PrimitiveTypeName(shape.element_type())), "[",
                  absl::StrJoin(shape.dimensions(), ","), "]");
  const Layout& layout = shape.layout();
  if (shape.rank() == 0 && layout.extension.empty()) return;
  absl::StrAppend(out, "{", absl::StrJoin(layout.minor_to_major, ","));
  if (!layout.extension.empty()) absl::StrAppend(out, ":", layout.extension);
  out->push_back('}');
}

std::string ShapeText(const Shape& shape) {
  std::string s;
  AppendShape(&s, shape);
  return s;
}

std::string Quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out.append("\\\"");
        continue;
      case '\\':
        out.append("\\\\");
        continue;
      case '\n':
        out.append("\\n");
        continue;
      case '\t':
        out.append("\\t");
        continue;
      case '\r':
        out.append("\\r");
        continue;
      default:
        break;
    }
    if (u < 0x20 || u == 0x7f) {
      absl::StrAppendFormat(&out, "\\%03o", u);
      continue;
    }
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

template <typename T>
void AppendShortest(std::string* out, T value) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  out->append(buf, ptr);
}

// NaN text for a NaN whose mantissa field is `payload`: the canonical quiet
// NaN (top mantissa bit only) prints without a payload.
void AppendNan(std::string* out, bool negative, uint64_t payload,
               int mantissa_bits) {
  if (negative) out->push_back('-');
  out->append("nan");
  if (mantissa_bits > 0 && payload != uint64_t{1} << (mantissa_bits - 1)) {
    absl::StrAppendFormat(out, "(0x%x)", payload);
  }
}

void AppendIeee(std::string* out, PrimitiveType t, uint64_t bits) {
  int width = BitWidth(t);
  int mantissa_bits = t == PrimitiveType::kF16    ? 10
                      : t == PrimitiveType::kBF16 ? 7
                      : t == PrimitiveType::kF32  ? 23
                                                  : 52;
  const uint64_t mantissa = bits & ((uint64_t{1} << mantissa_bits) - 1);
  const uint64_t exp_mask = (uint64_t{1} << (width - 1 - mantissa_bits)) - 1;
  const uint64_t exponent = (bits >> mantissa_bits) & exp_mask;
  const bool negative = ((bits >> (width - 1)) & 1) != 0;
  if (exponent == exp_mask) {
    if (mantissa == 0) {
      out->append(negative ? "-inf" : "inf");
      return;
    }
    AppendNan(out, negative, mantissa, mantissa_bits);
    return;
  }
  switch (t) {
    case PrimitiveType::kF16:
      AppendShortest(out, HalfToFloat(static_cast<uint16_t>(bits)));
      return;
    case PrimitiveType::kBF16:
      AppendShortest(out, BFloat16ToFloat(static_cast<uint16_t>(bits)));
      return;
    case PrimitiveType::kF32: {
      uint32_t b = static_cast<uint32_t>(bits);
      float f;
      std::memcpy(&f, &b, 4);
      AppendShortest(out, f);
      return;
    }
    default: {
      double d;
      std::memcpy(&d, &bits, 8);
      AppendShortest(out, d);
      return;
    }
  }
}

void AppendMinifloat(std::string* out, PrimitiveType t, uint8_t bits) {
  const MinifloatFormat& f = GetMinifloatFormat(t);
  const double value = MinifloatToDouble(t, bits);
  const int sign_shift = f.exponent_bits + f.mantissa_bits;
  const bool negative = f.has_sign && ((bits >> sign_shift) & 1) != 0;
  if (std::isnan(value)) {
    if (f.nan == MinifloatNan::kIeee) {
      AppendNan(out, negative, bits & ((1u << f.mantissa_bits) - 1),
                f.mantissa_bits);
    } else {
      // A single NaN pattern (per sign): no payload to show.
      AppendNan(out, negative && f.nan == MinifloatNan::kAllOnes, 0, 0);
    }
    return;
  }
  if (std::isinf(value)) {
    out->append(value < 0 ? "-inf" : "inf");
    return;
  }
  // Every minifloat value is exactly a float.
  AppendShortest(out, static_cast<float>(value));
}

void AppendFloatBits(std::string* out, PrimitiveType t, uint64_t bits) {
  if (IsMinifloat(t)) {
    AppendMinifloat(out, t, static_cast<uint8_t>(bits));
  } else {
    AppendIeee(out, t, bits);
  }
}

uint64_t ReadBits(const uint8_t* p, int bytes) {
  switch (bytes) {
    case 1:
      return *p;
    case 2: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 4: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}

void AppendElement(std::string* out, PrimitiveType t, const uint8_t* p) {
  const int bytes = StorageBytes(t);
  const uint64_t bits = ReadBits(p, bytes);
  switch (KindOf(t)) {
    case TypeKind::kPred:
      out->append(bits != 0 ? "true" : "false");
      return;
    case TypeKind::kSigned: {
      // Sign-extend from the logical width (sub-byte types use one byte).
      int shift = 64 - BitWidth(t);
      absl::StrAppend(out, static_cast<int64_t>(bits << shift) >> shift);
      return;
    }
    case TypeKind::kUnsigned: {
      int width = BitWidth(t);
      absl::StrAppend(out,
                      width == 64 ? bits : bits & ((uint64_t{1} << width) - 1));
      return;
    }
    case TypeKind::kFloat:
      AppendFloatBits(out, t, bits);
      return;
    case TypeKind::kComplex: {
      PrimitiveType part =
          t == PrimitiveType::kC64 ? PrimitiveType::kF32 : PrimitiveType::kF64;
      int half = bytes / 2;
      out->push_back('(');
      AppendFloatBits(out, part, ReadBits(p, half));
      out->append(", ");
      AppendFloatBits(out, part, ReadBits(p + half, half));
      out->push_back(')');
      return;
    }
    case TypeKind::kOther:
      break;
  }
  out->append("?");
}

// Appends dimension `level` of an array literal starting at element *index.
void AppendLevel(std::string* out, const Literal& literal, int level,
                 int64_t* index) {
  const Shape& shape = literal.shape();
  const int64_t n = shape.dimensions(level);
  if (n == 0) {
    out->append("{}");
    return;
  }
  const bool innermost = level + 1 == shape.rank();
  const PrimitiveType t = shape.element_type();
  const int bytes = StorageBytes(t);
  out->append(innermost ? "{" : "{ ");
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0) out->append(", ");
    if (innermost) {
      AppendElement(out, t, literal.raw() + *index * bytes);
      ++*index;
    } else {
      AppendLevel(out, literal, level + 1, index);
    }
  }
  out->append(innermost ? "}" : " }");
}

void AppendLiteral(std::string* out, const Literal& literal) {
  if (literal.elided()) {
    out->append("{...}");
    return;
  }
  const Shape& shape = literal.shape();
  if (shape.IsTuple()) {
    out->push_back('(');
    for (size_t i = 0; i < literal.tuple_elements().size(); ++i) {
      if (i > 0) out->append(", ");
      AppendLiteral(out, literal.tuple_elements()[i]);
    }
    out->push_back(')');
    return;
  }
  if (!shape.IsArray()) {
    out->append("{...}");
    return;
  }
  if (shape.rank() == 0) {
    AppendElement(out, shape.element_type(), literal.raw());
    return;
  }
  int64_t index = 0;
  AppendLevel(out, literal, 0, &index);
}

std::string IntList(const std::vector<int64_t>& v) {
  return absl::StrCat("{", absl::StrJoin(v, ","), "}");
}

// Adds `key=v0xv1x...` of one window field, unless every dimension has the
// default text `dflt` (an empty `dflt` means always).
template <typename F>
void AddWindowPart(std::vector<std::string>* parts,
                   const std::vector<WindowDim>& window, std::string_view key,
                   std::string_view dflt, F field) {
  std::vector<std::string> values;
  bool needed = dflt.empty();
  for (const WindowDim& w : window) {
    values.push_back(absl::StrCat(field(w)));
    needed |= values.back() != dflt;
  }
  if (needed)
    parts->push_back(absl::StrCat(Sv(key), "=", absl::StrJoin(values, "x")));
}

std::string WindowText(const std::vector<WindowDim>& window) {
  std::vector<std::string> parts;
  AddWindowPart(&parts, window, "size", "",
                [](const WindowDim& w) { return w.size; });
  AddWindowPart(&parts, window, "stride", "1",
                [](const WindowDim& w) { return w.stride; });
  AddWindowPart(&parts, window, "pad", "0_0", [](const WindowDim& w) {
    return absl::StrCat(w.pad_low, "_", w.pad_high);
  });
  AddWindowPart(&parts, window, "lhs_dilate", "1",
                [](const WindowDim& w) { return w.base_dilation; });
  AddWindowPart(&parts, window, "rhs_dilate", "1",
                [](const WindowDim& w) { return w.window_dilation; });
  AddWindowPart(&parts, window, "rhs_reversal", "0",
                [](const WindowDim& w) { return w.reversal ? 1 : 0; });
  return absl::StrCat("{", absl::StrJoin(parts, " "), "}");
}

std::string PaddingText(const std::vector<PaddingDim>& padding) {
  bool interior = false;
  for (const PaddingDim& p : padding) interior |= p.interior != 0;
  std::string s;
  for (size_t i = 0; i < padding.size(); ++i) {
    if (i > 0) s.push_back('x');
    absl::StrAppend(&s, padding[i].low, "_", padding[i].high);
    if (interior) absl::StrAppend(&s, "_", padding[i].interior);
  }
  return s;
}

// One part of `b01f_01io->b01f`; positions out of range stay '?'.
std::string Labels(int64_t first_dim, char first, int64_t second_dim,
                   char second, const std::vector<int64_t>& spatial) {
  const int64_t rank = static_cast<int64_t>(spatial.size()) + 2;
  std::string s(rank, '?');
  auto put = [&](int64_t pos, char c) {
    if (pos >= 0 && pos < rank) s[pos] = c;
  };
  put(first_dim, first);
  put(second_dim, second);
  for (size_t k = 0; k < spatial.size() && k < 10; ++k) {
    put(spatial[k], static_cast<char>('0' + k));
  }
  return s;
}

std::string DimLabelsText(const ConvolutionDimensionNumbers& d) {
  return absl::StrCat(
      Labels(d.input_batch, 'b', d.input_feature, 'f', d.input_spatial), "_",
      Labels(d.kernel_input_feature, 'i', d.kernel_output_feature, 'o',
             d.kernel_spatial),
      "->",
      Labels(d.output_batch, 'b', d.output_feature, 'f', d.output_spatial));
}

std::string ComputationList(const std::vector<Computation*>& called) {
  std::vector<std::string> names;
  for (const Computation* c : called) names.push_back("%" + c->name());
  return absl::StrCat("{", absl::StrJoin(names, ", "), "}");
}

std::string MetadataText(const OpMetadata& m) {
  std::vector<std::string> parts;
  if (!m.op_type.empty()) parts.push_back("op_type=" + Quoted(m.op_type));
  if (!m.op_name.empty()) parts.push_back("op_name=" + Quoted(m.op_name));
  if (!m.source_file.empty())
    parts.push_back("source_file=" + Quoted(m.source_file));
  if (m.source_line != 0)
    parts.push_back(absl::StrCat("source_line=", m.source_line));
  for (const auto& [key, value] : m.other) parts.push_back(key + "=" + value);
  return absl::StrCat("{", absl::StrJoin(parts, " "), "}");
}

bool IsPredScalar(const Instruction& inst) {
  const Shape& s = inst.shape();
  return s.IsArray() && s.rank() == 0 &&
         s.element_type() == PrimitiveType::kPred;
}

class AttributePrinter {
 public:
  explicit AttributePrinter(std::string* out) : out_(out) {}
  void Add(std::string_view key, std::string_view value) {
    absl::StrAppend(out_, ", ", Sv(key), "=", Sv(value));
  }
  void Add(std::string_view key, int64_t value) {
    absl::StrAppend(out_, ", ", Sv(key), "=", value);
  }
  void List(std::string_view key, const std::vector<int64_t>& v) {
    Add(key, IntList(v));
  }

 private:
  std::string* out_;
};

std::string SliceText(const std::vector<SliceDim>& slice) {
  std::vector<std::string> dims;
  for (const SliceDim& d : slice) {
    dims.push_back(d.stride == 1 ? absl::StrCat("[", d.start, ":", d.limit, "]")
                                 : absl::StrCat("[", d.start, ":", d.limit, ":",
                                                d.stride, "]"));
  }
  return absl::StrCat("{", absl::StrJoin(dims, ", "), "}");
}

std::string ShapeListText(const std::vector<Shape>& shapes) {
  std::vector<std::string> texts;
  for (const Shape& s : shapes) texts.push_back(ShapeText(s));
  return absl::StrCat("{", absl::StrJoin(texts, ", "), "}");
}

// One attribute of opcode_attributes.def, written as its kind says.
void AppendModeledAttribute(AttributePrinter& p, const AttributeSpec& spec,
                            const InstructionAttributes& a) {
  // The field function only forms a pointer; nothing is written.
  const AttributeField field =
      spec.field(const_cast<InstructionAttributes&>(a));
  const std::string_view key = spec.key;
  switch (spec.kind) {
    case AttributeKind::kInt:
      return p.Add(key, *std::get<int64_t*>(field));
    case AttributeKind::kOptInt:
      if (const auto& v = *std::get<std::optional<int64_t>*>(field)) {
        p.Add(key, *v);
      }
      return;
    case AttributeKind::kIotaDim:
      if (const auto& v = *std::get<std::vector<int64_t>*>(field); !v.empty()) {
        p.Add(key, v[0]);
      }
      return;
    case AttributeKind::kIntList:
      return p.List(key, *std::get<std::vector<int64_t>*>(field));
    case AttributeKind::kBool:
      return p.Add(key, *std::get<bool*>(field) ? "true" : "false");
    case AttributeKind::kSlice:
      return p.Add(key, SliceText(*std::get<std::vector<SliceDim>*>(field)));
    case AttributeKind::kPadding:
      return p.Add(key,
                   PaddingText(*std::get<std::vector<PaddingDim>*>(field)));
    case AttributeKind::kWindow:
      return p.Add(key, WindowText(*std::get<std::vector<WindowDim>*>(field)));
    case AttributeKind::kDimLabels:
      return p.Add(
          key, DimLabelsText(*std::get<ConvolutionDimensionNumbers*>(field)));
    case AttributeKind::kNameList:
      return p.Add(
          key,
          absl::StrCat(
              "{",
              absl::StrJoin(*std::get<std::vector<std::string>*>(field), ","),
              "}"));
    case AttributeKind::kName:
      return p.Add(key, *std::get<std::string*>(field));
    case AttributeKind::kString:
      return p.Add(key, Quoted(*std::get<std::string*>(field)));
    case AttributeKind::kDirection:
      return p.Add(
          key, ComparisonDirectionName(*std::get<ComparisonDirection*>(field)));
    case AttributeKind::kCmpType:
      return p.Add(key, ComparisonTypeName(*std::get<ComparisonType*>(field)));
    case AttributeKind::kFusionKind:
      return p.Add(key, FusionKindName(*std::get<FusionKind*>(field)));
    case AttributeKind::kFftType:
      return p.Add(key, FftTypeName(*std::get<FftType*>(field)));
    case AttributeKind::kTranspose:
      return p.Add(key, TransposeKindName(*std::get<TransposeKind*>(field)));
    case AttributeKind::kShapeList:
      if (const auto& v =
              *std::get<std::optional<std::vector<Shape>>*>(field)) {
        p.Add(key, ShapeListText(*v));
      }
      return;
  }
}

// The opcode's modeled attributes in table order; `Set` ones only when they
// differ from the default.
void AppendModeledAttributes(AttributePrinter& p, const Instruction& inst) {
  for (const AttributeSpec* spec : OpcodeAttributes(inst.opcode())) {
    if (spec->print == AttributePrint::kSet &&
        AttributeIsDefault(*spec, inst.attrs())) {
      continue;
    }
    AppendModeledAttribute(p, *spec, inst.attrs());
  }
}

void AppendCalledComputations(AttributePrinter& p, const Instruction& inst) {
  using O = Opcode;
  const std::vector<Computation*>& called = inst.called_computations();
  if (called.empty()) return;
  auto name = [](const Computation* c) { return "%" + c->name(); };
  const O op = inst.opcode();
  if (called.size() == 2 && op == O::kWhile) {
    p.Add("condition", name(called[0]));
    p.Add("body", name(called[1]));
    return;
  }
  if (op == O::kConditional) {
    if (called.size() == 2 && inst.operand_count() > 0 &&
        IsPredScalar(*inst.operand(0))) {
      p.Add("true_computation", name(called[0]));
      p.Add("false_computation", name(called[1]));
      return;
    }
    p.Add("branch_computations", ComputationList(called));
    return;
  }
  if (called.size() == 2 && op == O::kSelectAndScatter) {
    p.Add("select", name(called[0]));
    p.Add("scatter", name(called[1]));
    return;
  }
  if (called.size() == 1 && op != O::kCustomCall) {
    bool uses_calls = op == O::kFusion || op == O::kAsyncStart ||
                      op == O::kAsyncUpdate || op == O::kAsyncDone;
    p.Add(uses_calls ? "calls" : "to_apply", name(called[0]));
    return;
  }
  p.Add("called_computations", ComputationList(called));
}

void AppendInstructionAttributes(std::string* out, const Instruction& inst) {
  AttributePrinter p(out);
  AppendModeledAttributes(p, inst);
  AppendCalledComputations(p, inst);
  for (const auto& [key, value] : inst.raw_attributes()) p.Add(key, value);
  if (!inst.metadata().empty())
    p.Add("metadata", MetadataText(inst.metadata()));
}

}  // namespace

std::string LiteralToString(const Literal& literal) {
  std::string out;
  AppendLiteral(&out, literal);
  return out;
}

std::string PrintInstruction(const Instruction& inst) {
  std::string out = absl::StrCat("%", inst.name(), " = ");
  AppendShape(&out, inst.shape());
  absl::StrAppend(&out, " ", Sv(OpcodeName(inst.opcode())), "(");
  if (inst.opcode() == Opcode::kParameter) {
    absl::StrAppend(&out, inst.attrs().parameter_number);
  } else if (inst.opcode() == Opcode::kConstant && inst.attrs().literal) {
    AppendLiteral(&out, *inst.attrs().literal);
  } else {
    for (int i = 0; i < inst.operand_count(); ++i) {
      if (i > 0) out.append(", ");
      absl::StrAppend(&out, "%", inst.operand(i)->name());
    }
  }
  out.push_back(')');
  AppendInstructionAttributes(&out, inst);
  return out;
}

std::string PrintComputation(const Computation& computation) {
  std::string out;
  const Module* module = computation.parent();
  if (module != nullptr && module->entry() == &computation) out = "ENTRY ";
  absl::StrAppend(&out, "%", computation.name(), " (");
  std::vector<Instruction*> params = computation.parameters();
  for (size_t i = 0; i < params.size(); ++i) {
    if (i > 0) out.append(", ");
    absl::StrAppend(&out, params[i]->name(), ": ");
    AppendShape(&out, params[i]->shape());
  }
  out.append(") -> ");
  if (computation.root() != nullptr)
    AppendShape(&out, computation.root()->shape());
  out.append(" {\n");
  for (const auto& inst : computation.instructions()) {
    out.append(inst.get() == computation.root() ? "  ROOT " : "  ");
    out.append(PrintInstruction(*inst));
    out.push_back('\n');
  }
  out.push_back('}');
  if (!computation.execution_thread().empty()) {
    absl::StrAppend(
        &out, ", execution_thread=", Quoted(computation.execution_thread()));
  }
  return out;
}

std::string PrintModule(const Module& module) {
  std::string out = absl::StrCat("HloModule ", module.name());
  for (const auto& [key, value] : module.header_attributes()) {
    absl::StrAppend(&out, ", ", key, "=", value);
  }
  out.push_back('\n');
  if (!module.stack_frame_tables().empty()) {
    absl::StrAppend(&out, "\n", module.stack_frame_tables(), "\n");
  }
  for (const auto& computation : module.computations()) {
    absl::StrAppend(&out, "\n", PrintComputation(*computation), "\n");
  }
  return out;
}

}  // namespace aotc
