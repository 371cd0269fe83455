// Reference evaluator kernels for data movement: broadcast, reshape,
// transpose, slice, concatenate, pad, reverse, iota, copy and bitcast, and
// the dispatch of EvalMovement (dynamic-slice and dynamic-update-slice live
// in dynamic_slice.cc).
//
// The kernels are type agnostic: they move StorageBytes(type) raw bytes per
// element, so every array type moves alike (only iota computes values).
// Literal data is logical row-major, so only bitcast looks at layouts. Each
// kernel checks its attributes against the operand and result shapes before
// it touches an element: attributes that slipped past the verifier give a
// located error, never an out-of-bounds access.
#include <algorithm>
#include <complex>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "compiler/evaluator/index_util.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/evaluator/movement_internal.h"
#include "compiler/ir/native_type.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::eval {
namespace {

using Dims = absl::Span<const int64_t>;

int64_t ElementBytes(const Shape& shape) {
  return StorageBytes(shape.element_type());
}

// One array operand and an array result of the same element type.
absl::Status CheckUnaryMovement(const Instruction& inst, Operands operands) {
  RETURN_IF_ERROR(CheckOperandCount(inst, operands, 1));
  RETURN_IF_ERROR(CheckArrayOperand(inst, operands, 0));
  RETURN_IF_ERROR(CheckArrayResult(inst));
  return CheckElementType(inst, "result", inst.shape().element_type(),
                          operands[0]->shape().element_type());
}

// `perm` is a permutation of 0..rank-1.
bool IsPermutation(Dims perm, int rank) {
  if (static_cast<int64_t>(perm.size()) != rank) return false;
  std::vector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p]) return false;
    seen[p] = true;
  }
  return true;
}

absl::StatusOr<Literal> Broadcast(const Instruction& inst, Operands operands) {
  RETURN_IF_ERROR(CheckUnaryMovement(inst, operands));
  const Shape& in = operands[0]->shape();
  const Shape& out_shape = inst.shape();
  const std::vector<int64_t>& map = inst.dimensions();
  if (static_cast<int64_t>(map.size()) != in.rank()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("broadcast dimensions ", BracedList(map),
                                " have ", map.size(),
                                " entries for an operand of rank ", in.rank()));
  }
  std::vector<bool> used(out_shape.rank(), false);
  std::vector<int64_t> in_strides = RowMajorStrides(in.dimensions());
  // A result dimension the operand does not map to repeats the operand
  // (stride 0).
  std::vector<int64_t> strides(out_shape.rank(), 0);
  for (int i = 0; i < in.rank(); ++i) {
    int64_t d = map[i];
    if (d < 0 || d >= out_shape.rank() || used[d]) {
      return ErrorAt(inst.location(),
                     absl::StrCat("broadcast dimensions ", BracedList(map),
                                  " are not distinct dimensions of the rank-",
                                  out_shape.rank(), " result"));
    }
    used[d] = true;
    if (in.dimensions(i) != out_shape.dimensions(d)) {
      return ErrorAt(inst.location(),
                     absl::StrCat("operand dimension ", i, " has size ",
                                  in.dimensions(i), " but result dimension ", d,
                                  " has size ", out_shape.dimensions(d)));
    }
    strides[d] = in_strides[i];
  }
  Literal out(out_shape);
  GatherStrided(operands[0]->raw(), 0, out_shape.dimensions(), strides,
                ElementBytes(out_shape), out.mutable_raw());
  return out;
}

absl::StatusOr<Literal> Reshape(const Instruction& inst, Operands operands) {
  RETURN_IF_ERROR(CheckUnaryMovement(inst, operands));
  const Literal& in = *operands[0];
  if (in.element_count() != inst.shape().ElementCount()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("reshape of ", in.shape().ToString(false),
                                " to ", inst.shape().ToString(false),
                                " changes the element count"));
  }
  Literal out(inst.shape());
  CopyRawData(in, out);
  return out;
}

absl::StatusOr<Literal> Transpose(const Instruction& inst, Operands operands) {
  RETURN_IF_ERROR(CheckUnaryMovement(inst, operands));
  const Shape& in = operands[0]->shape();
  const std::vector<int64_t>& perm = inst.dimensions();
  if (!IsPermutation(perm, in.rank())) {
    return ErrorAt(inst.location(),
                   absl::StrCat("transpose dimensions ", BracedList(perm),
                                " are not a permutation of the operand's ",
                                in.rank(), " dimensions"));
  }
  std::vector<int64_t> expected(in.rank());
  std::vector<int64_t> in_strides = RowMajorStrides(in.dimensions());
  std::vector<int64_t> strides(in.rank());
  for (int i = 0; i < in.rank(); ++i) {
    expected[i] = in.dimensions(perm[i]);
    strides[i] = in_strides[perm[i]];
  }
  RETURN_IF_ERROR(
      CheckDimensions(inst, "result", inst.shape().dimensions(), expected));
  Literal out(inst.shape());
  GatherStrided(operands[0]->raw(), 0, expected, strides, ElementBytes(in),
                out.mutable_raw());
  return out;
}

absl::StatusOr<Literal> Slice(const Instruction& inst, Operands operands) {
  RETURN_IF_ERROR(CheckUnaryMovement(inst, operands));
  const Shape& in = operands[0]->shape();
  const std::vector<SliceDim>& slice = inst.slice();
  if (static_cast<int64_t>(slice.size()) != in.rank()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("slice has ", slice.size(),
                                " ranges for an operand of rank ", in.rank()));
  }
  std::vector<int64_t> in_strides = RowMajorStrides(in.dimensions());
  std::vector<int64_t> expected(in.rank());
  std::vector<int64_t> strides(in.rank());
  int64_t offset = 0;
  for (int i = 0; i < in.rank(); ++i) {
    const SliceDim& s = slice[i];
    if (s.stride < 1) {
      return ErrorAt(inst.location(),
                     absl::StrCat("slice stride ", s.stride, " in dimension ",
                                  i, " is not positive"));
    }
    if (s.start < 0 || s.start > s.limit || s.limit > in.dimensions(i)) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("slice [", s.start, ":", s.limit, "] in dimension ", i,
                       " does not lie within [0:", in.dimensions(i), "]"));
    }
    int64_t span = s.limit - s.start;
    expected[i] = span / s.stride + (span % s.stride != 0 ? 1 : 0);
    // A stride beyond the span selects only the start element; capping it
    // keeps the element stride within the array (and within int64).
    strides[i] = in_strides[i] * std::min(s.stride, std::max<int64_t>(span, 1));
    offset += s.start * in_strides[i];
  }
  RETURN_IF_ERROR(
      CheckDimensions(inst, "result", inst.shape().dimensions(), expected));
  Literal out(inst.shape());
  GatherStrided(operands[0]->raw(), offset, expected, strides, ElementBytes(in),
                out.mutable_raw());
  return out;
}

absl::StatusOr<Literal> Concatenate(const Instruction& inst,
                                    Operands operands) {
  if (operands.empty()) {
    return ErrorAt(inst.location(), "concatenate has no operands");
  }
  RETURN_IF_ERROR(CheckArrayResult(inst));
  const Shape& out_shape = inst.shape();
  const std::vector<int64_t>& dims = inst.dimensions();
  if (dims.size() != 1 || dims[0] < 0 || dims[0] >= out_shape.rank()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("concatenate dimensions ", BracedList(dims),
                                " do not name one dimension of the rank-",
                                out_shape.rank(), " result"));
  }
  const int64_t d = dims[0];
  int64_t total = 0;
  for (int i = 0; i < static_cast<int>(operands.size()); ++i) {
    RETURN_IF_ERROR(CheckArrayOperand(inst, operands, i));
    const Shape& in = operands[i]->shape();
    RETURN_IF_ERROR(CheckElementType(inst, absl::StrCat("operand ", i),
                                     in.element_type(),
                                     out_shape.element_type()));
    std::vector<int64_t> expected = out_shape.dimensions();
    expected[d] = in.rank() == out_shape.rank() ? in.dimensions(d) : 0;
    RETURN_IF_ERROR(CheckDimensions(inst, absl::StrCat("operand ", i),
                                    in.dimensions(), expected));
    if (!CheckedAdd(total, in.dimensions(d), &total)) {
      return ErrorAt(inst.location(),
                     absl::StrCat("concatenated size of dimension ", d,
                                  " overflows 64 bits"));
    }
  }
  if (total != out_shape.dimensions(d)) {
    return ErrorAt(inst.location(),
                   absl::StrCat("operands have ", total,
                                " elements in total along dimension ", d,
                                ", the result has ", out_shape.dimensions(d)));
  }
  Literal out(out_shape);
  std::vector<int64_t> out_strides = RowMajorStrides(out_shape.dimensions());
  int64_t position = 0;
  for (const Literal* in : operands) {
    ScatterStrided(in->raw(), in->shape().dimensions(),
                   position * out_strides[d], out_strides,
                   ElementBytes(out_shape), out.mutable_raw());
    position += in->shape().dimensions(d);
  }
  return out;
}

// The size of one padded dimension, or false on int64 overflow.
bool PaddedSize(int64_t size, const PaddingDim& p, int64_t* out) {
  int64_t core = 0;
  if (size > 0) {
    int64_t step;
    if (!CheckedAdd(p.interior, 1, &step) ||
        !CheckedMul(size - 1, step, &core) || !CheckedAdd(core, 1, &core)) {
      return false;
    }
  }
  return CheckedAdd(core, p.low, &core) && CheckedAdd(core, p.high, out);
}

// The scalar `value` as element type `to`. Only floating-point types may
// differ: like XLA's shape inference, pad accepts a padding value of another
// floating-point precision; it is converted with one rounding.
absl::StatusOr<Literal> PaddingValue(const Instruction& inst,
                                     const Literal& value, PrimitiveType to) {
  PrimitiveType from = value.shape().element_type();
  if (from == to) return value;
  if (!IsFloat(from) || !IsFloat(to) || !IsComputableType(from) ||
      !IsComputableType(to)) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("operand 1 has element type ", Sv(PrimitiveTypeName(from)),
                     ", expected ", Sv(PrimitiveTypeName(to))));
  }
  double v = 0;
  DispatchComputableType(from, [&]<PrimitiveType P>() {
    using T = NativeType<P>;
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      v = static_cast<float>(value.data<T>()[0]);
    } else if constexpr (std::is_floating_point_v<T>) {
      v = value.data<T>()[0];
    }
  });
  Literal out(Shape::Scalar(to));
  DispatchComputableType(to, [&]<PrimitiveType P>() {
    using T = NativeType<P>;
    if constexpr (std::is_same_v<T, Half>) {
      out.mutable_data<T>()[0] = Half::FromBits(DoubleToHalf(v));
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      out.mutable_data<T>()[0] = BFloat16::FromBits(DoubleToBFloat16(v));
    } else if constexpr (std::is_floating_point_v<T>) {
      out.mutable_data<T>()[0] = static_cast<T>(v);
    }
  });
  return out;
}

absl::StatusOr<Literal> Pad(const Instruction& inst, Operands operands) {
  RETURN_IF_ERROR(CheckOperandCount(inst, operands, 2));
  RETURN_IF_ERROR(CheckArrayOperand(inst, operands, 0));
  RETURN_IF_ERROR(CheckArrayOperand(inst, operands, 1));
  RETURN_IF_ERROR(CheckArrayResult(inst));
  const Shape& in = operands[0]->shape();
  const Shape& out_shape = inst.shape();
  RETURN_IF_ERROR(CheckElementType(inst, "result", out_shape.element_type(),
                                   in.element_type()));
  RETURN_IF_ERROR(CheckDimensions(inst, "operand 1",
                                  operands[1]->shape().dimensions(), {}));
  ASSIGN_OR_RETURN(Literal pad_value,
                   PaddingValue(inst, *operands[1], in.element_type()));
  const std::vector<PaddingDim>& padding = inst.padding();
  if (static_cast<int64_t>(padding.size()) != in.rank()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("padding has ", padding.size(),
                                " entries for an operand of rank ", in.rank()));
  }
  std::vector<int64_t> expected(in.rank());
  for (int i = 0; i < in.rank(); ++i) {
    if (padding[i].interior < 0) {
      return ErrorAt(inst.location(),
                     absl::StrCat("interior padding ", padding[i].interior,
                                  " in dimension ", i, " is negative"));
    }
    if (!PaddedSize(in.dimensions(i), padding[i], &expected[i])) {
      return ErrorAt(inst.location(), absl::StrCat("padded size of dimension ",
                                                   i, " overflows 64 bits"));
    }
  }
  RETURN_IF_ERROR(
      CheckDimensions(inst, "result", out_shape.dimensions(), expected));

  Literal out(out_shape);
  const int64_t bytes = ElementBytes(out_shape);
  for (int64_t o = 0; o < out.element_count(); ++o) {
    std::memcpy(out.mutable_raw() + o * bytes, pad_value.raw(), bytes);
  }
  // Operand element idx lands at low + idx * (interior + 1) in each
  // dimension; negative low/high crop, so some elements land outside.
  std::vector<int64_t> out_strides = RowMajorStrides(out_shape.dimensions());
  const uint8_t* src = operands[0]->raw();
  int64_t s = 0;
  ForEachIndex(in.dimensions(), [&](Dims index) {
    int64_t to = 0;
    bool inside = true;
    for (int i = 0; i < in.rank() && inside; ++i) {
      // index[i] * (interior + 1) <= (size - 1) * (interior + 1) fits, as
      // PaddedSize showed.
      int64_t pos;
      inside = CheckedAdd(padding[i].low, index[i] * (padding[i].interior + 1),
                          &pos) &&
               pos >= 0 && pos < out_shape.dimensions(i);
      if (inside) to += pos * out_strides[i];
    }
    if (inside)
      std::memcpy(out.mutable_raw() + to * bytes, src + s * bytes, bytes);
    ++s;
  });
  return out;
}

absl::StatusOr<Literal> Reverse(const Instruction& inst, Operands operands) {
  RETURN_IF_ERROR(CheckUnaryMovement(inst, operands));
  const Shape& in = operands[0]->shape();
  RETURN_IF_ERROR(CheckDimensions(inst, "result", inst.shape().dimensions(),
                                  in.dimensions()));
  const std::vector<int64_t>& dims = inst.dimensions();
  std::vector<int64_t> strides = RowMajorStrides(in.dimensions());
  std::vector<bool> reversed(in.rank(), false);
  int64_t offset = 0;
  for (int64_t d : dims) {
    if (d < 0 || d >= in.rank() || reversed[d]) {
      return ErrorAt(inst.location(),
                     absl::StrCat("reverse dimensions ", BracedList(dims),
                                  " are not distinct dimensions of the rank-",
                                  in.rank(), " operand"));
    }
    reversed[d] = true;
    // Result index i reads operand index size - 1 - i.
    offset += (in.dimensions(d) - 1) * strides[d];
    strides[d] = -strides[d];
  }
  Literal out(inst.shape());
  GatherStrided(operands[0]->raw(), offset, in.dimensions(), strides,
                ElementBytes(in), out.mutable_raw());
  return out;
}

// The iota value i in element type T: exact conversion of the integer i
// with a single rounding for floating-point types; complex types get it as
// the real part.
template <typename T>
T IotaValue(int64_t i) {
  if constexpr (std::is_same_v<T, Half>) {
    return Half::FromBits(DoubleToHalf(static_cast<double>(i)));
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return BFloat16::FromBits(DoubleToBFloat16(static_cast<double>(i)));
  } else if constexpr (std::is_same_v<T, std::complex<float>> ||
                       std::is_same_v<T, std::complex<double>>) {
    return T(static_cast<typename T::value_type>(i), 0);
  } else {
    return static_cast<T>(i);
  }
}

absl::StatusOr<Literal> Iota(const Instruction& inst, Operands operands) {
  RETURN_IF_ERROR(CheckOperandCount(inst, operands, 0));
  RETURN_IF_ERROR(CheckArrayResult(inst));
  const Shape& shape = inst.shape();
  const std::vector<int64_t>& dims = inst.dimensions();
  if (dims.size() != 1 || dims[0] < 0 || dims[0] >= shape.rank()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("iota dimension ", BracedList(dims),
                                " does not name one dimension of the rank-",
                                shape.rank(), " result"));
  }
  PrimitiveType type = shape.element_type();
  if (type == PrimitiveType::kPred || !IsComputableType(type)) {
    return ErrorAt(inst.location(), absl::StrCat("iota of element type ",
                                                 Sv(PrimitiveTypeName(type)),
                                                 " is not supported"));
  }
  const int64_t d = dims[0];
  Literal out(shape);
  DispatchComputableType(type, [&]<PrimitiveType P>() {
    using T = NativeType<P>;
    if constexpr (!std::is_same_v<T, bool>) {
      absl::Span<T> data = out.mutable_data<T>();
      int64_t o = 0;
      ForEachIndex(shape.dimensions(),
                   [&](Dims index) { data[o++] = IotaValue<T>(index[d]); });
    }
  });
  return out;
}

absl::StatusOr<Literal> Copy(const Instruction& inst, Operands operands) {
  RETURN_IF_ERROR(CheckOperandCount(inst, operands, 1));
  if (operands[0]->IsTuple()) {
    if (!operands[0]->shape().Compatible(inst.shape())) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("copy of ", operands[0]->shape().ToString(false),
                       " has result shape ", inst.shape().ToString(false)));
    }
    return *operands[0];
  }
  RETURN_IF_ERROR(CheckUnaryMovement(inst, operands));
  RETURN_IF_ERROR(CheckDimensions(inst, "result", inst.shape().dimensions(),
                                  operands[0]->shape().dimensions()));
  Literal out(inst.shape());
  CopyRawData(*operands[0], out);
  return out;
}

// The dimensions of `shape` from major to minor under `layout`, or an empty
// optional when the layout is not a permutation of the dimensions.
std::optional<std::vector<int64_t>> MajorToMinor(const Layout& layout,
                                                 int rank) {
  if (!IsPermutation(layout.minor_to_major, rank)) return std::nullopt;
  return std::vector<int64_t>(layout.minor_to_major.rbegin(),
                              layout.minor_to_major.rend());
}

// bitcast keeps the bytes of the physical buffer. With default (row-major)
// layouts on both sides that is a reshape of the logical data; with other
// layouts the elements are reordered: operand logical -> operand physical
// order -> the same bytes read as the result's physical order -> result
// logical. Layout extensions (tiling, memory space) are not modelled: only
// the dimension order of minor_to_major counts.
absl::StatusOr<Literal> Bitcast(const Instruction& inst, Operands operands) {
  RETURN_IF_ERROR(CheckOperandCount(inst, operands, 1));
  RETURN_IF_ERROR(CheckArrayOperand(inst, operands, 0));
  RETURN_IF_ERROR(CheckArrayResult(inst));
  const Literal& in = *operands[0];
  const Shape& out_shape = inst.shape();
  if (in.raw_size() != out_shape.ByteSize() &&
      (!inst.operand(0)->shape().layout().extension.empty() ||
       !out_shape.layout().extension.empty())) {
    // Tiled buffers are padded to whole tiles, so such a bitcast is legal in
    // XLA; its meaning depends on the tiling, which aotc does not model.
    return ErrorAt(inst.location(),
                   absl::StrCat("bitcast of ", in.shape().ToString(), " to ",
                                out_shape.ToString(),
                                " between tiled layouts is not supported"));
  }
  if (in.raw_size() != out_shape.ByteSize()) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("bitcast of ", in.shape().ToString(false), " to ",
                     out_shape.ToString(false), " changes the byte size"));
  }
  const Shape& in_decl = inst.operand(0)->shape();
  if (!in_decl.IsArray() || in_decl.rank() != in.shape().rank()) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("operand 0 is declared ", in_decl.ToString(false),
                     " but has value ", in.shape().ToString(false)));
  }
  std::optional<std::vector<int64_t>> in_order =
      MajorToMinor(in_decl.layout(), in_decl.rank());
  std::optional<std::vector<int64_t>> out_order =
      MajorToMinor(out_shape.layout(), out_shape.rank());
  if (!in_order || !out_order) {
    return ErrorAt(inst.location(),
                   "bitcast layout is not a permutation of "
                   "the dimensions");
  }
  Literal out(out_shape);
  std::vector<uint8_t> physical(in.raw_size());
  // Operand logical -> physical: a transpose to major-to-minor order.
  std::vector<int64_t> in_strides = RowMajorStrides(in.shape().dimensions());
  std::vector<int64_t> phys_in_dims(in.shape().rank());
  std::vector<int64_t> phys_in_strides(in.shape().rank());
  for (int k = 0; k < in.shape().rank(); ++k) {
    phys_in_dims[k] = in.shape().dimensions((*in_order)[k]);
    phys_in_strides[k] = in_strides[(*in_order)[k]];
  }
  GatherStrided(in.raw(), 0, phys_in_dims, phys_in_strides,
                ElementBytes(in.shape()), physical.data());
  // Result physical -> logical: result logical dimension (*out_order)[k] is
  // physical dimension k.
  std::vector<int64_t> phys_out_dims(out_shape.rank());
  for (int k = 0; k < out_shape.rank(); ++k) {
    phys_out_dims[k] = out_shape.dimensions((*out_order)[k]);
  }
  std::vector<int64_t> phys_out_strides = RowMajorStrides(phys_out_dims);
  std::vector<int64_t> strides(out_shape.rank());
  for (int k = 0; k < out_shape.rank(); ++k) {
    strides[(*out_order)[k]] = phys_out_strides[k];
  }
  GatherStrided(physical.data(), 0, out_shape.dimensions(), strides,
                ElementBytes(out_shape), out.mutable_raw());
  return out;
}

}  // namespace

absl::StatusOr<Literal> EvalMovement(const Instruction& inst,
                                     Operands operands) {
  switch (inst.opcode()) {
    case Opcode::kBroadcast:
      return Broadcast(inst, operands);
    case Opcode::kReshape:
      return Reshape(inst, operands);
    case Opcode::kTranspose:
      return Transpose(inst, operands);
    case Opcode::kSlice:
      return Slice(inst, operands);
    case Opcode::kConcatenate:
      return Concatenate(inst, operands);
    case Opcode::kPad:
      return Pad(inst, operands);
    case Opcode::kReverse:
      return Reverse(inst, operands);
    case Opcode::kIota:
      return Iota(inst, operands);
    case Opcode::kCopy:
      return Copy(inst, operands);
    case Opcode::kBitcast:
      return Bitcast(inst, operands);
    case Opcode::kDynamicSlice:
      return EvalDynamicSlice(inst, operands);
    case Opcode::kDynamicUpdateSlice:
      return EvalDynamicUpdateSlice(inst, operands);
    default:
      return ErrorAt(inst.location(),
                     absl::StrCat(Sv(OpcodeName(inst.opcode())),
                                  " is not a data-movement opcode"));
  }
}

}  // namespace aotc::eval
