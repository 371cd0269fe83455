// Literal: a value of a Shape, as carried by `constant` instructions and
// passed to and from the reference evaluator.
//
// Array data is stored densely in *logical row-major order* whatever the
// shape's layout says: element (i0, ..., in) sits at the row-major linear
// index. Layouts matter only where bytes cross a boundary (codegen buffers,
// proto literals); the importers convert. Each element occupies
// StorageBytes(type) bytes (one byte for sub-byte types; raw bits for f16,
// bf16 and the f8 family).
#ifndef AOTC_COMPILER_IR_LITERAL_H_
#define AOTC_COMPILER_IR_LITERAL_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "compiler/ir/shape.h"
#include "compiler/support/check.h"

namespace aotc {

class Literal {
 public:
  Literal() = default;
  // A zero-filled literal of a validated shape (tuples recursively).
  explicit Literal(const Shape& shape);
  // A literal whose value is unknown: the `{...}` of elided constants. Its
  // data is empty; evaluation and codegen refuse it.
  static Literal Elided(const Shape& shape);

  const Shape& shape() const { return shape_; }
  bool elided() const { return elided_; }
  bool IsTuple() const { return shape_.IsTuple(); }

  // Array data, `ElementCount() * StorageBytes(type)` bytes.
  const uint8_t* raw() const { return data_.data(); }
  uint8_t* mutable_raw() { return data_.data(); }
  int64_t raw_size() const { return static_cast<int64_t>(data_.size()); }
  int64_t element_count() const { return shape_.ElementCount(); }

  // Typed view of array data; T must be the NativeType of the element type
  // (or a same-sized raw type for bit-level access).
  template <typename T>
  absl::Span<const T> data() const {
    AOTC_CHECK(sizeof(T) == static_cast<size_t>(StorageBytes(shape_.element_type())),
               "literal accessed with a type of the wrong size");
    return absl::Span<const T>(reinterpret_cast<const T*>(data_.data()),
                               data_.size() / sizeof(T));
  }
  template <typename T>
  absl::Span<T> mutable_data() {
    AOTC_CHECK(sizeof(T) == static_cast<size_t>(StorageBytes(shape_.element_type())),
               "literal accessed with a type of the wrong size");
    return absl::Span<T>(reinterpret_cast<T*>(data_.data()),
                         data_.size() / sizeof(T));
  }
  template <typename T>
  T Get(int64_t linear_index) const {
    return data<T>()[linear_index];
  }
  template <typename T>
  void Set(int64_t linear_index, T value) {
    mutable_data<T>()[linear_index] = value;
  }

  const std::vector<Literal>& tuple_elements() const { return tuple_; }
  std::vector<Literal>& mutable_tuple_elements() { return tuple_; }
  static Literal MakeTuple(std::vector<Literal> elements);
  // The array leaves of a (possibly nested) tuple, depth first; {this} for
  // an array (the literal counterpart of Shape::Leaves).
  std::vector<const Literal*> Leaves() const;

  // Bitwise equality of shapes (ignoring layout) and data.
  bool BitwiseEquals(const Literal& o) const;

 private:
  Shape shape_;
  std::vector<uint8_t> data_;
  std::vector<Literal> tuple_;
  bool elided_ = false;
};

// Row-major strides of `dims` in elements.
std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dims);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_LITERAL_H_
