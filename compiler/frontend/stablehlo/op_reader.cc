// OpReader: attribute access for the operation builders (op_reader.h).
#include "compiler/frontend/stablehlo/op_reader.h"

#include <cctype>

#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {

absl::StatusOr<std::vector<int64_t>> IntsOf(const Attr& a, std::string_view key,
                                            const Location& loc) {
  switch (a.kind) {
    case Attr::Kind::kArray:
      return a.ints;
    case Attr::Kind::kInt:
    case Attr::Kind::kBool:
      return std::vector<int64_t>{a.i};
    case Attr::Kind::kList: {
      std::vector<int64_t> v;
      for (const Attr& e : a.list) {
        if (e.kind != Attr::Kind::kInt && e.kind != Attr::Kind::kBool) break;
        v.push_back(e.i);
      }
      if (v.size() == a.list.size()) return v;
      break;
    }
    case Attr::Kind::kDense: {
      const Literal& l = *a.literal;
      const PrimitiveType t = l.shape().element_type();
      if (!IsInteger(t) && t != PrimitiveType::kPred) break;
      const int bytes = StorageBytes(t);
      std::vector<int64_t> v;
      for (int64_t i = 0; i < l.element_count(); ++i) {
        uint64_t bits = 0;
        for (int b = 0; b < bytes; ++b) {
          bits |= uint64_t{l.raw()[i * bytes + b]} << (8 * b);
        }
        if (IsSignedInt(t) && bytes < 8 && (bits >> (8 * bytes - 1)) & 1) {
          bits |= ~uint64_t{0} << (8 * bytes);
        }
        v.push_back(static_cast<int64_t>(bits));
      }
      return v;
    }
    default:
      break;
  }
  return ErrorAt(loc, absl::StrCat("attribute '", Sv(key),
                                   "' must be a list of integers"));
}

absl::Status OpReader::Ints(std::string_view key, std::vector<int64_t>* out,
                            bool required) const {
  const Attr* a = Find(key);
  if (a == nullptr) {
    if (!required) return absl::OkStatus();
    return Error(
        absl::StrCat("'", op_.name, "' needs attribute '", Sv(key), "'"));
  }
  ASSIGN_OR_RETURN(*out, IntsOf(*a, key, At(a->tok)));
  return absl::OkStatus();
}

absl::Status OpReader::OneInt(std::string_view key, int64_t* out,
                              bool required) const {
  std::vector<int64_t> v;
  RETURN_IF_ERROR(Ints(key, &v, required));
  if (v.empty()) return absl::OkStatus();
  if (v.size() != 1) {
    return Error(absl::StrCat("attribute '", Sv(key), "' must be one integer"));
  }
  *out = v[0];
  return absl::OkStatus();
}

bool OpReader::Flag(std::string_view key) const {
  const Attr* a = Find(key);
  return a != nullptr && (a->kind == Attr::Kind::kUnit ||
                          (a->kind == Attr::Kind::kBool && a->i != 0));
}

absl::Status OpReader::Regions(size_t n) const {
  if (op_.regions.size() == n) return absl::OkStatus();
  return Error(absl::StrCat("'", op_.name, "' needs ", n, " regions, found ",
                            op_.regions.size()));
}

absl::Status OpReader::Operands(size_t n) const {
  if (op_.operands.size() == n) return absl::OkStatus();
  return Error(absl::StrCat("'", op_.name, "' takes ", n, " operands, found ",
                            op_.operands.size()));
}

absl::Status OpReader::Precision(InstructionAttributes* attrs) const {
  const Attr* a = Find("precision_config");
  if (a == nullptr) return absl::OkStatus();
  if (a->kind != Attr::Kind::kList) {
    return ErrorAt(At(a->tok), "precision_config must be a list");
  }
  for (const Attr& p : a->list) {
    std::string lower;
    for (char c : p.s) lower.push_back(static_cast<char>(std::tolower(c)));
    attrs->operand_precision.push_back(lower);
  }
  return absl::OkStatus();
}

absl::Status OpReader::Window(const std::vector<int64_t>& sizes,
                              std::string_view strides_key,
                              std::string_view base_key,
                              std::string_view window_key,
                              std::vector<WindowDim>* out) const {
  const size_t rank = sizes.size();
  std::vector<int64_t> strides, base, dilation, reversal, pads;
  RETURN_IF_ERROR(Ints(strides_key, &strides, false));
  RETURN_IF_ERROR(Ints(base_key, &base, false));
  RETURN_IF_ERROR(Ints(window_key, &dilation, false));
  RETURN_IF_ERROR(Ints("window_reversal", &reversal, false));
  if (const Attr* p = Find("padding")) {
    if (p->kind == Attr::Kind::kList) {
      for (const Attr& pair : p->list) {
        ASSIGN_OR_RETURN(std::vector<int64_t> v,
                         IntsOf(pair, "padding", At(p->tok)));
        if (v.size() != 2) {
          return ErrorAt(At(p->tok), "padding needs [low, high] pairs");
        }
        pads.insert(pads.end(), v.begin(), v.end());
      }
    } else {
      ASSIGN_OR_RETURN(pads, IntsOf(*p, "padding", At(p->tok)));
    }
  }
  for (const auto* v : {&strides, &base, &dilation, &reversal}) {
    if (!v->empty() && v->size() != rank) {
      return Error(absl::StrCat("window attributes of '", op_.name,
                                "' have different ranks"));
    }
  }
  if (!pads.empty() && pads.size() != 2 * rank) {
    return Error("padding needs [low, high] per dimension");
  }
  out->assign(rank, WindowDim{});
  for (size_t i = 0; i < rank; ++i) {
    WindowDim& w = (*out)[i];
    w.size = sizes[i];
    if (!strides.empty()) w.stride = strides[i];
    if (!base.empty()) w.base_dilation = base[i];
    if (!dilation.empty()) w.window_dilation = dilation[i];
    if (!reversal.empty()) w.reversal = reversal[i] != 0;
    if (!pads.empty()) {
      w.pad_low = pads[2 * i];
      w.pad_high = pads[2 * i + 1];
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<const Attr*> OpReader::Dnums(std::string_view key) const {
  const Attr* a = Find(key);
  if (a == nullptr || a->kind != Attr::Kind::kDict) {
    return Error(absl::StrCat("'", op_.name, "' needs ", Sv(key)));
  }
  return a;
}

absl::Status OpReader::Field(const Attr& dict, std::string_view key,
                             std::vector<int64_t>* out) const {
  for (const NamedAttr& f : dict.dict) {
    if (f.name != key) continue;
    ASSIGN_OR_RETURN(*out, IntsOf(f.value, key, At(f.value.tok)));
  }
  return absl::OkStatus();
}

absl::Status OpReader::FieldInt(const Attr& dict, std::string_view key,
                                int64_t* out) const {
  std::vector<int64_t> v;
  RETURN_IF_ERROR(Field(dict, key, &v));
  if (v.size() > 1) return ErrorAt(At(dict.tok), "expected one integer");
  if (v.size() == 1) *out = v[0];
  return absl::OkStatus();
}

}  // namespace aotc::shlo
