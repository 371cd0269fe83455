// Logical <-> physical element order (see layout_bytes.h).
#include "codegen/emit/layout_bytes.h"

#include <cstring>
#include <vector>

#include "codegen/emit/ir_array.h"

namespace aotc::codegen {
namespace {

// Calls fn(logical_index, physical_index) for every element of `shape`.
template <typename Fn>
void ForEachElement(const Shape& shape, Fn fn) {
  const std::vector<int64_t> strides = PhysicalStrides(shape);
  std::vector<int64_t> index(shape.rank(), 0);
  const int64_t n = shape.ElementCount();
  for (int64_t linear = 0; linear < n; ++linear) {
    int64_t offset = 0;
    for (int d = 0; d < shape.rank(); ++d) offset += index[d] * strides[d];
    fn(linear, offset);
    for (int d = shape.rank() - 1; d >= 0; --d) {
      if (++index[d] < shape.dimensions(d)) break;
      index[d] = 0;
    }
  }
}

}  // namespace

std::string PhysicalBytes(const Literal& literal, const Shape& shape) {
  const char* data = reinterpret_cast<const char*>(literal.raw());
  if (shape.HasDefaultLayout()) return std::string(data, literal.raw_size());
  const int64_t size = StorageBytes(shape.element_type());
  std::string physical(literal.raw_size(), '\0');
  ForEachElement(shape, [&](int64_t logical, int64_t offset) {
    std::memcpy(&physical[offset * size], data + logical * size, size);
  });
  return physical;
}

Literal LiteralFromPhysical(const Shape& shape, const void* bytes) {
  Literal literal(shape);
  const char* data = static_cast<const char*>(bytes);
  if (shape.HasDefaultLayout()) {
    if (literal.raw_size() > 0) {
      std::memcpy(literal.mutable_raw(), data, literal.raw_size());
    }
    return literal;
  }
  const int64_t size = StorageBytes(shape.element_type());
  char* out = reinterpret_cast<char*>(literal.mutable_raw());
  ForEachElement(shape, [&](int64_t logical, int64_t offset) {
    std::memcpy(out + logical * size, data + offset * size, size);
  });
  return literal;
}

}  // namespace aotc::codegen
