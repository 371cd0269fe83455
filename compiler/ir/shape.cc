// Shape construction, printing and validation.
#include "compiler/ir/shape.h"

#include <algorithm>
#include <atomic>

#include "compiler/ir/limits.h"
#include "compiler/support/strings.h"
#include "compiler/support/check.h"

namespace aotc {

std::vector<int64_t> DefaultMinorToMajor(int rank) {
  std::vector<int64_t> m2m(rank);
  for (int i = 0; i < rank; ++i) m2m[i] = rank - 1 - i;
  return m2m;
}

bool CheckedMul(int64_t a, int64_t b, int64_t* out) {
  if (a < 0 || b < 0) return false;
  return !__builtin_mul_overflow(a, b, out);
}

bool CheckedAdd(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_add_overflow(a, b, out);
}

Shape Shape::Array(PrimitiveType type, std::vector<int64_t> dims) {
  Layout layout{DefaultMinorToMajor(static_cast<int>(dims.size())), ""};
  return ArrayWithLayout(type, std::move(dims), std::move(layout));
}

Shape Shape::ArrayWithLayout(PrimitiveType type, std::vector<int64_t> dims,
                             Layout layout) {
  AOTC_CHECK(IsArrayType(type), "array shape needs an array element type");
  Shape s;
  s.type_ = type;
  s.dims_ = std::move(dims);
  s.layout_ = std::move(layout);
  return s;
}

Shape Shape::Tuple(std::vector<Shape> elements) {
  Shape s;
  s.type_ = PrimitiveType::kTuple;
  s.tuple_ = std::move(elements);
  return s;
}

Shape Shape::Token() {
  Shape s;
  s.type_ = PrimitiveType::kToken;
  return s;
}

bool Shape::HasDefaultLayout() const {
  return layout_.extension.empty() &&
         layout_.minor_to_major == DefaultMinorToMajor(rank());
}

int64_t Shape::ElementCount() const {
  AOTC_CHECK(IsArray(), "ElementCount of a non-array shape");
  int64_t n = 1;
  for (int64_t d : dims_) {
    AOTC_CHECK(CheckedMul(n, d, &n), "element count overflow in a shape that "
                                     "was not validated");
  }
  return n;
}

int64_t Shape::ByteSize() const {
  int64_t bytes = 0;
  AOTC_CHECK(CheckedMul(ElementCount(), StorageBytes(type_), &bytes),
             "byte size overflow in a shape that was not validated");
  return bytes;
}

std::vector<const Shape*> Shape::Leaves() const {
  std::vector<const Shape*> leaves;
  std::vector<const Shape*> stack = {this};
  while (!stack.empty()) {
    const Shape* s = stack.back();
    stack.pop_back();
    if (!s->IsTuple()) {
      leaves.push_back(s);
      continue;
    }
    for (auto it = s->tuple_.rbegin(); it != s->tuple_.rend(); ++it) {
      stack.push_back(&*it);
    }
  }
  return leaves;
}

std::string Shape::ToString(bool print_layout) const {
  if (IsTuple()) {
    std::string s = "(";
    for (int i = 0; i < tuple_size(); ++i) {
      if (i > 0) s += ", ";
      s += tuple_[i].ToString(print_layout);
    }
    return s + ")";
  }
  if (IsToken()) return "token[]";
  if (IsOpaque()) return "opaque[]";
  if (!IsValid()) return "<invalid>";
  std::string s =
      absl::StrCat(Sv(PrimitiveTypeName(type_)), "[", absl::StrJoin(dims_, ","), "]");
  if (print_layout && rank() > 0) {
    absl::StrAppend(&s, "{", absl::StrJoin(layout_.minor_to_major, ","));
    if (!layout_.extension.empty()) absl::StrAppend(&s, ":", layout_.extension);
    s += "}";
  }
  return s;
}

bool Shape::operator==(const Shape& o) const {
  return type_ == o.type_ && dims_ == o.dims_ && layout_ == o.layout_ &&
         tuple_ == o.tuple_;
}

bool Shape::Compatible(const Shape& o) const {
  if (type_ != o.type_) return false;
  if (!IsTuple()) return dims_ == o.dims_;
  if (tuple_.size() != o.tuple_.size()) return false;
  for (size_t i = 0; i < tuple_.size(); ++i) {
    if (!tuple_[i].Compatible(o.tuple_[i])) return false;
  }
  return true;
}

namespace {

absl::Status ValidateShapeAt(const Shape& shape, int depth) {
  if (depth > kMaxShapeNesting) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tuple shapes nested deeper than ", kMaxShapeNesting, " levels"));
  }
  if (shape.IsTuple()) {
    for (const Shape& e : shape.tuple_shapes()) {
      absl::Status st = ValidateShapeAt(e, depth + 1);
      if (!st.ok()) return st;
    }
    return absl::OkStatus();
  }
  if (!shape.IsArray()) return absl::OkStatus();
  if (shape.rank() > kMaxRank) {
    return absl::InvalidArgumentError(absl::StrCat(
        "rank ", shape.rank(), " exceeds the maximum rank ", kMaxRank));
  }
  int64_t n = 1;
  for (int64_t d : shape.dimensions()) {
    if (d < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("negative dimension ", d, " in shape"));
    }
    if (!CheckedMul(n, d, &n)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "shape ", shape.ToString(false), " has more elements than fit in 64 bits"));
    }
  }
  int64_t bytes;
  if (!CheckedMul(n, StorageBytes(shape.element_type()), &bytes)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "shape ", shape.ToString(false), " has a byte size that overflows 64 bits"));
  }
  if (bytes > MaxBufferBytes()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "shape ", shape.ToString(false), " needs ", bytes,
        " bytes, more than the limit of ", MaxBufferBytes(),
        " bytes for one buffer (--max-buffer-bytes)"));
  }
  const std::vector<int64_t>& m2m = shape.layout().minor_to_major;
  if (static_cast<int>(m2m.size()) != shape.rank()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "layout {", absl::StrJoin(m2m, ","), "} has ", m2m.size(),
        " entries for a shape of rank ", shape.rank()));
  }
  std::vector<bool> seen(shape.rank(), false);
  for (int64_t d : m2m) {
    if (d < 0 || d >= shape.rank() || seen[d]) {
      return absl::InvalidArgumentError(
          absl::StrCat("layout {", absl::StrJoin(m2m, ","),
                       "} is not a permutation of the dimensions"));
    }
    seen[d] = true;
  }
  return absl::OkStatus();
}

}  // namespace

namespace {
std::atomic<int64_t> max_buffer_bytes{kDefaultMaxBufferBytes};
}  // namespace

int64_t MaxBufferBytes() { return max_buffer_bytes.load(std::memory_order_relaxed); }

void SetMaxBufferBytes(int64_t bytes) {
  AOTC_CHECK(bytes > 0, "the buffer size limit must be positive");
  max_buffer_bytes.store(bytes, std::memory_order_relaxed);
}

absl::Status ValidateShape(const Shape& shape) {
  return ValidateShapeAt(shape, 0);
}

}  // namespace aotc
