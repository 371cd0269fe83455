// Literal storage.
#include "compiler/ir/literal.h"

namespace aotc {

Literal::Literal(const Shape& shape) : shape_(shape) {
  if (shape.IsTuple()) {
    tuple_.reserve(shape.tuple_size());
    for (const Shape& e : shape.tuple_shapes()) tuple_.emplace_back(e);
    return;
  }
  if (shape.IsArray()) data_.assign(static_cast<size_t>(shape.ByteSize()), 0);
}

Literal Literal::Elided(const Shape& shape) {
  Literal l;
  l.shape_ = shape;
  l.elided_ = true;
  return l;
}

Literal Literal::MakeTuple(std::vector<Literal> elements) {
  std::vector<Shape> shapes;
  shapes.reserve(elements.size());
  for (const Literal& e : elements) shapes.push_back(e.shape());
  Literal l;
  l.shape_ = Shape::Tuple(std::move(shapes));
  l.tuple_ = std::move(elements);
  return l;
}

std::vector<const Literal*> Literal::Leaves() const {
  std::vector<const Literal*> leaves;
  std::vector<const Literal*> stack = {this};
  while (!stack.empty()) {
    const Literal* l = stack.back();
    stack.pop_back();
    if (!l->IsTuple()) {
      leaves.push_back(l);
      continue;
    }
    for (auto it = l->tuple_.rbegin(); it != l->tuple_.rend(); ++it) {
      stack.push_back(&*it);
    }
  }
  return leaves;
}

bool Literal::BitwiseEquals(const Literal& o) const {
  if (!shape_.Compatible(o.shape_) || elided_ != o.elided_) return false;
  if (data_ != o.data_ || tuple_.size() != o.tuple_.size()) return false;
  for (size_t i = 0; i < tuple_.size(); ++i) {
    if (!tuple_[i].BitwiseEquals(o.tuple_[i])) return false;
  }
  return true;
}

std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * dims[i + 1];
  }
  return strides;
}

}  // namespace aotc
