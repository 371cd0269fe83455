// Operand and signature checks, scalar call plumbing, the row-major index
// walker and window geometry shared by the evaluator's reduction, sort and
// linear-algebra kernels.
#include "compiler/evaluator/kernel_util.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "compiler/evaluator/linalg_internal.h"
#include "compiler/evaluator/narrow.h"
#include "compiler/ir/narrow_type.h"
#include "compiler/ir/native_type.h"
#include "compiler/ir/primitive_type.h"
#include "compiler/support/check.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::eval {
namespace {

// Every derived window quantity must stay below this bound so that sums of
// three of them still fit in int64.
constexpr __int128 kWindowLimit = static_cast<__int128>(1) << 60;

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t CeilDiv(int64_t a, int64_t b) { return -FloorDiv(-a, b); }

std::string ScalarTypesString(absl::Span<const PrimitiveType> types) {
  std::vector<std::string> parts;
  for (PrimitiveType t : types) {
    parts.push_back(absl::StrCat(Sv(PrimitiveTypeName(t)), "[]"));
  }
  if (parts.size() == 1) return parts[0];
  return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
}

bool IsScalarOf(const Shape& shape, PrimitiveType type) {
  return shape.IsScalar() && shape.element_type() == type;
}

}  // namespace

absl::Status CheckComputableType(const Instruction& inst, PrimitiveType type) {
  if (IsComputableType(type) || IsNarrowType(type)) return absl::OkStatus();
  return ErrorAt(inst.location(),
                 absl::StrCat("element type ", Sv(PrimitiveTypeName(type)),
                              " is not supported by the evaluator"));
}

absl::Status CheckArrayOperands(const Instruction& inst, Operands operands) {
  if (static_cast<int>(operands.size()) != inst.operand_count()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("expected ", inst.operand_count(),
                                " operand values, got ", operands.size()));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    const Literal& lit = *operands[i];
    if (lit.elided()) {
      return ErrorAt(inst.location(),
                     absl::StrCat("operand ", i, " is an elided constant"));
    }
    if (!lit.shape().IsArray()) {
      return ErrorAt(inst.location(), absl::StrCat("operand ", i, " has shape ",
                                                   lit.shape().ToString(),
                                                   ", expected an array"));
    }
    RETURN_IF_ERROR(CheckComputableType(inst, lit.shape().element_type()));
  }
  return absl::OkStatus();
}

std::vector<const Shape*> ResultArrays(const Shape& shape) {
  std::vector<const Shape*> arrays;
  if (!shape.IsTuple()) {
    arrays.push_back(&shape);
    return arrays;
  }
  for (const Shape& element : shape.tuple_shapes()) arrays.push_back(&element);
  return arrays;
}

absl::Status CheckResultArray(const Instruction& inst, std::string_view what,
                              const Shape& result, PrimitiveType type,
                              absl::Span<const int64_t> dims) {
  Shape expected =
      Shape::Array(type, std::vector<int64_t>(dims.begin(), dims.end()));
  if (result.IsArray() && result.element_type() == type &&
      absl::Span<const int64_t>(result.dimensions()) == dims) {
    return CheckComputableType(inst, type);
  }
  return ErrorAt(inst.location(),
                 absl::StrCat(Sv(what), " has shape ", result.ToString(false),
                              ", expected ", expected.ToString(false)));
}

absl::Status CheckDimensionList(const Instruction& inst, std::string_view what,
                                absl::Span<const int64_t> dims, int64_t rank) {
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank) {
      return ErrorAt(inst.location(),
                     absl::StrCat(Sv(what), " names dimension ", d,
                                  ", out of range for rank ", rank));
    }
    if (seen[d]) {
      return ErrorAt(inst.location(),
                     absl::StrCat(Sv(what), " repeats dimension ", d));
    }
    seen[d] = true;
  }
  return absl::OkStatus();
}

absl::StatusOr<const Computation*> ScalarComputation(
    const Instruction& inst, int index, std::string_view role,
    absl::Span<const PrimitiveType> param_types) {
  const auto& called = inst.called_computations();
  if (index >= static_cast<int>(called.size()) || called[index] == nullptr) {
    return ErrorAt(inst.location(),
                   absl::StrCat("missing ", Sv(role), " computation"));
  }
  const Computation& comp = *called[index];
  const int expected = static_cast<int>(param_types.size());
  if (comp.num_parameters() != expected) {
    return ErrorAt(inst.location(),
                   absl::StrCat(Sv(role), " computation '", comp.name(),
                                "' has ", comp.num_parameters(),
                                " parameters, expected ", expected));
  }
  for (int i = 0; i < expected; ++i) {
    const Instruction* param = comp.parameter(i);
    if (param == nullptr || !IsScalarOf(param->shape(), param_types[i])) {
      return ErrorAt(inst.location(),
                     absl::StrCat(Sv(role), " computation '", comp.name(),
                                  "' parameter ", i, " must be ",
                                  Sv(PrimitiveTypeName(param_types[i])), "[]"));
    }
  }
  return &comp;
}

ScalarArgs::ScalarArgs(absl::Span<const PrimitiveType> types) {
  literals_.reserve(types.size());
  for (PrimitiveType t : types) literals_.emplace_back(Shape::Scalar(t));
  // Pointers are taken after every literal exists: literals_ never grows.
  for (const Literal& lit : literals_) pointers_.push_back(&lit);
}

void ScalarArgs::Load(int i, const Literal& from, int64_t index) {
  Literal& to = literals_[i];
  const int64_t bytes = to.raw_size();
  AOTC_CHECK(from.shape().element_type() == to.shape().element_type(),
             "scalar argument loaded from an array of another type");
  AOTC_CHECK(index >= 0 && (index + 1) * bytes <= from.raw_size(),
             "scalar argument loaded from outside its array");
  std::memcpy(to.mutable_raw(), from.raw() + index * bytes, bytes);
}

void ScalarArgs::LoadScalar(int i, const Literal& from) { Load(i, from, 0); }

absl::StatusOr<Literal> CallScalar(const Instruction& inst, const CallFn& call,
                                   const Computation& computation,
                                   std::string_view role, Operands args,
                                   absl::Span<const PrimitiveType> types) {
  ASSIGN_OR_RETURN(Literal result, call(computation, args));
  bool ok;
  if (types.size() == 1 && !result.IsTuple()) {
    ok = !result.elided() && IsScalarOf(result.shape(), types[0]);
  } else {
    ok = result.IsTuple() && result.tuple_elements().size() == types.size();
    for (size_t i = 0; ok && i < types.size(); ++i) {
      const Literal& part = result.tuple_elements()[i];
      ok = !part.elided() && IsScalarOf(part.shape(), types[i]);
    }
  }
  if (ok) return result;
  return ErrorAt(inst.location(),
                 absl::StrCat(Sv(role), " computation '", computation.name(),
                              "' returned ", result.shape().ToString(false),
                              ", expected ", ScalarTypesString(types)));
}

const Literal& ScalarPart(const Literal& result, int i) {
  if (!result.IsTuple()) {
    AOTC_CHECK(i == 0, "scalar result has only part 0");
    return result;
  }
  return result.tuple_elements()[i];
}

bool PredValue(const Literal& result) {
  return ScalarPart(result, 0).raw()[0] != 0;
}

void CopyElement(const Literal& from, int64_t from_index, Literal& to,
                 int64_t to_index) {
  const int64_t bytes = StorageBytes(to.shape().element_type());
  AOTC_CHECK(from.shape().element_type() == to.shape().element_type(),
             "element copied between arrays of different types");
  AOTC_CHECK(from_index >= 0 && (from_index + 1) * bytes <= from.raw_size() &&
                 to_index >= 0 && (to_index + 1) * bytes <= to.raw_size(),
             "element copy out of bounds");
  std::memcpy(to.mutable_raw() + to_index * bytes,
              from.raw() + from_index * bytes, bytes);
}

void ConvertElementInto(const Literal& from, int64_t from_index, Literal& to,
                        int64_t to_index) {
  const PrimitiveType from_type = from.shape().element_type();
  const PrimitiveType to_type = to.shape().element_type();
  if (from_type == to_type) {
    CopyElement(from, from_index, to, to_index);
    return;
  }
  if (IsNarrowType(from_type) || IsNarrowType(to_type)) {
    ConvertNarrowElement(from, from_index, to, to_index);
    return;
  }
  const bool dispatched =
      DispatchComputableType(from_type, [&]<PrimitiveType F>() {
        const NativeType<F> value = from.data<NativeType<F>>()[from_index];
        const bool inner =
            DispatchComputableType(to_type, [&]<PrimitiveType T>() {
              to.mutable_data<NativeType<T>>()[to_index] =
                  linalg::ConvertElement<NativeType<F>, NativeType<T>>(value);
            });
        AOTC_CHECK(inner,
                   "conversion to a type the evaluator does not compute");
      });
  AOTC_CHECK(dispatched,
             "conversion from a type the evaluator does not compute");
}

IndexWalker::IndexWalker(std::vector<int64_t> dims,
                         std::vector<std::vector<int64_t>> strides)
    : dims_(std::move(dims)),
      strides_(std::move(strides)),
      index_(dims_.size(), 0),
      offsets_(strides_.size(), 0) {
  for (const auto& s : strides_) {
    AOTC_CHECK(s.size() == dims_.size(), "one stride per walked dimension");
  }
  done_ =
      std::any_of(dims_.begin(), dims_.end(), [](int64_t d) { return d <= 0; });
}

void IndexWalker::Next() {
  for (size_t d = dims_.size(); d-- > 0;) {
    if (++index_[d] < dims_[d]) {
      for (size_t k = 0; k < strides_.size(); ++k)
        offsets_[k] += strides_[k][d];
      return;
    }
    for (size_t k = 0; k < strides_.size(); ++k) {
      offsets_[k] -= (dims_[d] - 1) * strides_[k][d];
    }
    index_[d] = 0;
  }
  done_ = true;
}

void WindowAxis::Taps(int64_t o, std::vector<WindowTap>* taps) const {
  taps->clear();
  if (dilated_base == 0) return;
  // Padded position of window element w: start + w * window_dilation.
  const int64_t start = o * stride - pad_low;
  const int64_t w_lo = std::max<int64_t>(0, CeilDiv(-start, window_dilation));
  const int64_t w_hi = std::min<int64_t>(
      size - 1, FloorDiv(dilated_base - 1 - start, window_dilation));
  if (w_lo > w_hi) return;
  if (w_hi - w_lo < base_size) {
    for (int64_t w = w_lo; w <= w_hi; ++w) {
      const int64_t p = start + w * window_dilation;
      if (p % base_dilation == 0) taps->push_back({w, p / base_dilation});
    }
    return;
  }
  // More window positions than operand elements: walk the operand instead.
  const int64_t i_lo = CeilDiv(start + w_lo * window_dilation, base_dilation);
  const int64_t i_hi = FloorDiv(start + w_hi * window_dilation, base_dilation);
  for (int64_t i = i_lo; i <= i_hi; ++i) {
    const int64_t q = i * base_dilation - start;
    if (q % window_dilation == 0) taps->push_back({q / window_dilation, i});
  }
}

absl::StatusOr<std::vector<WindowAxis>> MakeWindowAxes(
    const Instruction& inst, absl::Span<const WindowDim> window,
    absl::Span<const int64_t> base_dims) {
  if (window.size() != base_dims.size()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("window has ", window.size(),
                                " dimensions, expected ", base_dims.size()));
  }
  std::vector<WindowAxis> axes;
  for (size_t d = 0; d < window.size(); ++d) {
    const WindowDim& w = window[d];
    auto bad = [&](std::string_view field, int64_t value) {
      return ErrorAt(inst.location(),
                     absl::StrCat("window dimension ", d, " has ", Sv(field),
                                  " ", value, ", expected a positive value"));
    };
    if (w.size <= 0) return bad("size", w.size);
    if (w.stride <= 0) return bad("stride", w.stride);
    if (w.window_dilation <= 0)
      return bad("window dilation", w.window_dilation);
    if (w.base_dilation <= 0) return bad("base dilation", w.base_dilation);
    using I128 = __int128;
    const I128 base = base_dims[d];
    const I128 dilated_base = base == 0 ? 0 : (base - 1) * w.base_dilation + 1;
    const I128 padded = dilated_base + w.pad_low + w.pad_high;
    const I128 dilated_window =
        static_cast<I128>(w.size - 1) * w.window_dilation + 1;
    auto too_big = [&](I128 v) {
      return v >= kWindowLimit || v <= -kWindowLimit;
    };
    if (too_big(dilated_base) || too_big(padded) || too_big(dilated_window) ||
        too_big(w.pad_low) || too_big(w.pad_high) || too_big(w.stride)) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("window dimension ", d, " is too large to evaluate"));
    }
    WindowAxis axis;
    axis.base_size = base_dims[d];
    axis.size = w.size;
    axis.stride = w.stride;
    axis.pad_low = w.pad_low;
    axis.pad_high = w.pad_high;
    axis.window_dilation = w.window_dilation;
    axis.base_dilation = w.base_dilation;
    axis.reversal = w.reversal;
    axis.dilated_base = static_cast<int64_t>(dilated_base);
    axis.output_size =
        padded < dilated_window
            ? 0
            : static_cast<int64_t>((padded - dilated_window) / w.stride + 1);
    axes.push_back(axis);
  }
  return axes;
}

}  // namespace aotc::eval
