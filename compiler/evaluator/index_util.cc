// Index iteration, index-value reading and shared operand checks of the
// evaluator's data-movement kernels.
#include "compiler/evaluator/index_util.h"

#include <cstring>
#include <limits>

#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::eval {

bool HasZeroDimension(absl::Span<const int64_t> dims) {
  for (int64_t d : dims) {
    if (d == 0) return true;
  }
  return false;
}

bool NextIndex(absl::Span<const int64_t> dims, absl::Span<int64_t> index) {
  for (int i = static_cast<int>(dims.size()) - 1; i >= 0; --i) {
    if (++index[i] < dims[i]) return true;
    index[i] = 0;
  }
  return false;
}

void GatherStrided(const uint8_t* src, int64_t offset,
                   absl::Span<const int64_t> dst_dims,
                   absl::Span<const int64_t> strides, int64_t bytes,
                   uint8_t* dst) {
  int64_t o = 0;
  ForEachIndex(dst_dims, [&](absl::Span<const int64_t> index) {
    int64_t from = offset + LinearIndex(index, strides);
    std::memcpy(dst + o * bytes, src + from * bytes, bytes);
    ++o;
  });
}

void ScatterStrided(const uint8_t* src, absl::Span<const int64_t> src_dims,
                    int64_t offset, absl::Span<const int64_t> strides,
                    int64_t bytes, uint8_t* dst) {
  int64_t s = 0;
  ForEachIndex(src_dims, [&](absl::Span<const int64_t> index) {
    int64_t to = offset + LinearIndex(index, strides);
    std::memcpy(dst + to * bytes, src + s * bytes, bytes);
    ++s;
  });
}

void CopyRawData(const Literal& from, Literal& to) {
  AOTC_CHECK(from.raw_size() == to.raw_size(), "CopyRawData size mismatch");
  if (from.raw_size() == 0) return;
  std::memcpy(to.mutable_raw(), from.raw(), from.raw_size());
}

int64_t LinearIndex(absl::Span<const int64_t> index,
                    absl::Span<const int64_t> strides) {
  int64_t linear = 0;
  for (size_t i = 0; i < index.size(); ++i) linear += index[i] * strides[i];
  return linear;
}

bool IsIndexType(PrimitiveType t) {
  return IsInteger(t) && IsComputableType(t);
}

int64_t ReadIndexValue(const Literal& literal, int64_t linear) {
  const uint8_t* p =
      literal.raw() + linear * StorageBytes(literal.shape().element_type());
  auto load = [p]<typename T>() {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  };
  switch (literal.shape().element_type()) {
    case PrimitiveType::kS8:
      return load.operator()<int8_t>();
    case PrimitiveType::kS16:
      return load.operator()<int16_t>();
    case PrimitiveType::kS32:
      return load.operator()<int32_t>();
    case PrimitiveType::kS64:
      return load.operator()<int64_t>();
    case PrimitiveType::kU8:
      return load.operator()<uint8_t>();
    case PrimitiveType::kU16:
      return load.operator()<uint16_t>();
    case PrimitiveType::kU32:
      return load.operator()<uint32_t>();
    case PrimitiveType::kU64: {
      uint64_t v = load.operator()<uint64_t>();
      constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
      return static_cast<int64_t>(v > kMax ? kMax : v);
    }
    default:
      AOTC_CHECK(false,
                 "ReadIndexValue on a literal that is not an index array");
      return 0;
  }
}

absl::Status CheckOperandCount(const Instruction& inst,
                               absl::Span<const Literal* const> operands,
                               int count) {
  if (static_cast<int64_t>(operands.size()) == count) return absl::OkStatus();
  return ErrorAt(inst.location(),
                 absl::StrCat(Sv(OpcodeName(inst.opcode())), " has ",
                              operands.size(), " operands, expected ", count));
}

absl::Status CheckArrayOperand(const Instruction& inst,
                               absl::Span<const Literal* const> operands,
                               int i) {
  const Literal& lit = *operands[i];
  if (lit.elided()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("operand ", i, " has no value"));
  }
  if (!lit.shape().IsArray()) {
    return ErrorAt(inst.location(), absl::StrCat("operand ", i, " has shape ",
                                                 lit.shape().ToString(false),
                                                 ", expected an array"));
  }
  if (lit.raw_size() != lit.shape().ByteSize()) {
    return ErrorAt(inst.location(),
                   absl::StrCat("operand ", i, " holds ", lit.raw_size(),
                                " bytes, expected ", lit.shape().ByteSize()));
  }
  return absl::OkStatus();
}

absl::Status CheckScalarIndexOperand(const Instruction& inst,
                                     absl::Span<const Literal* const> operands,
                                     int i) {
  RETURN_IF_ERROR(CheckArrayOperand(inst, operands, i));
  const Shape& shape = operands[i]->shape();
  if (shape.IsScalar() && IsIndexType(shape.element_type())) {
    return absl::OkStatus();
  }
  return ErrorAt(inst.location(), absl::StrCat("operand ", i, " has shape ",
                                               shape.ToString(false),
                                               ", expected an integer scalar"));
}

absl::Status CheckArrayResult(const Instruction& inst) {
  if (inst.shape().IsArray()) return absl::OkStatus();
  return ErrorAt(inst.location(),
                 absl::StrCat("result shape ", inst.shape().ToString(false),
                              " is not an array"));
}

absl::Status CheckElementType(const Instruction& inst, std::string_view what,
                              PrimitiveType actual, PrimitiveType expected) {
  if (actual == expected) return absl::OkStatus();
  return ErrorAt(inst.location(),
                 absl::StrCat(Sv(what), " has element type ",
                              Sv(PrimitiveTypeName(actual)), ", expected ",
                              Sv(PrimitiveTypeName(expected))));
}

absl::Status CheckDimensions(const Instruction& inst, std::string_view what,
                             absl::Span<const int64_t> actual,
                             absl::Span<const int64_t> expected) {
  if (actual == expected) return absl::OkStatus();
  return ErrorAt(
      inst.location(),
      absl::StrCat(Sv(what), " has dimensions [", absl::StrJoin(actual, ","),
                   "], expected [", absl::StrJoin(expected, ","), "]"));
}

}  // namespace aotc::eval
