// Shapes: arrays with static dimensions and a layout, tuples, and tokens.
//
// aotc compiles static shapes only: the front ends refuse dynamic dimensions.
// A Shape built by a front end has passed ValidateShape, so its element count
// and byte size fit in int64 and ElementCount() never overflows.
#ifndef AOTC_COMPILER_IR_SHAPE_H_
#define AOTC_COMPILER_IR_SHAPE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "compiler/ir/primitive_type.h"

namespace aotc {

// Physical order of an array's dimensions. `minor_to_major[0]` is the
// dimension whose index varies fastest in memory. The default layout is
// row-major: {rank-1, ..., 1, 0}.
struct Layout {
  std::vector<int64_t> minor_to_major;
  // Text after ':' in a layout such as `{1,0:T(8,128)}` (tiles, memory space,
  // element size...). aotc keeps it verbatim for printing; a non-empty
  // extension means the layout is more than a dimension permutation.
  std::string extension;

  bool operator==(const Layout& o) const {
    return minor_to_major == o.minor_to_major && extension == o.extension;
  }
};

class Shape {
 public:
  // An invalid shape; IsValid() is false.
  Shape() = default;

  // An array with the default (row-major) layout.
  static Shape Array(PrimitiveType type, std::vector<int64_t> dims);
  static Shape ArrayWithLayout(PrimitiveType type, std::vector<int64_t> dims,
                               Layout layout);
  static Shape Scalar(PrimitiveType type) { return Array(type, {}); }
  static Shape Tuple(std::vector<Shape> elements);
  static Shape Token();

  bool IsValid() const { return type_ != PrimitiveType::kInvalid; }
  bool IsTuple() const { return type_ == PrimitiveType::kTuple; }
  bool IsToken() const { return type_ == PrimitiveType::kToken; }
  bool IsOpaque() const { return type_ == PrimitiveType::kOpaque; }
  bool IsArray() const { return IsArrayType(type_); }
  bool IsScalar() const { return IsArray() && dims_.empty(); }

  PrimitiveType element_type() const { return type_; }
  void set_element_type(PrimitiveType t) { type_ = t; }

  int rank() const { return static_cast<int>(dims_.size()); }
  const std::vector<int64_t>& dimensions() const { return dims_; }
  int64_t dimensions(int i) const { return dims_[i]; }

  const Layout& layout() const { return layout_; }
  Layout& mutable_layout() { return layout_; }
  // True when the layout is the row-major default with no extension.
  bool HasDefaultLayout() const;

  const std::vector<Shape>& tuple_shapes() const { return tuple_; }
  const Shape& tuple_shapes(int i) const { return tuple_[i]; }
  int tuple_size() const { return static_cast<int>(tuple_.size()); }

  // Number of elements of an array (1 for a scalar). Arrays only.
  int64_t ElementCount() const;
  // ElementCount() * StorageBytes(element type). Arrays only.
  int64_t ByteSize() const;

  // The array leaves of a (possibly nested) tuple, depth first; {this} for an
  // array.
  std::vector<const Shape*> Leaves() const;

  // "f32[2,3]{1,0}", "(f32[], s32[4]{0})", "token[]". Layouts are printed for
  // arrays of rank >= 1 unless print_layout is false.
  std::string ToString(bool print_layout = true) const;

  // Exact equality, including layouts.
  bool operator==(const Shape& o) const;
  bool operator!=(const Shape& o) const { return !(*this == o); }
  // Equal element types and dimensions (recursively for tuples), ignoring
  // layouts.
  bool Compatible(const Shape& o) const;
  // Equal dimensions, ignoring element types and layouts (arrays only).
  bool SameDimensions(const Shape& o) const { return dims_ == o.dims_; }

 private:
  PrimitiveType type_ = PrimitiveType::kInvalid;
  std::vector<int64_t> dims_;
  Layout layout_;
  std::vector<Shape> tuple_;
};

// Limits every shape must satisfy; checked by ValidateShape before anything
// is allocated for it.
inline constexpr int kMaxRank = 16;
inline constexpr int kMaxShapeNesting = 64;

// Checks a shape from outside (text or proto): non-negative dimensions, rank
// at most kMaxRank, tuple nesting at most kMaxShapeNesting, element count and
// byte size representable in int64, and a layout that is a permutation of the
// dimensions. Returns a message without location (the caller adds it).
absl::Status ValidateShape(const Shape& shape);

// Row-major layout {rank-1, ..., 0}.
std::vector<int64_t> DefaultMinorToMajor(int rank);

// Multiplies a and b into *out; false on int64 overflow or negative inputs.
bool CheckedMul(int64_t a, int64_t b, int64_t* out);
// Adds a and b into *out; false on int64 overflow.
bool CheckedAdd(int64_t a, int64_t b, int64_t* out);

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_SHAPE_H_
