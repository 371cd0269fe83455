// Shape inference for fft, triangular-solve and cholesky.
//
// All three work on the trailing dimensions of their operands and keep the
// leading ones as batch dimensions. fft transforms the last 1 to 3
// dimensions (fft_length lists their sizes, outermost first): FFT and IFFT
// map complex to the same complex shape, RFFT maps f32 / f64 to c64 / c128
// with the last dimension cut to n/2+1 (0 for n = 0), IRFFT is its
// inverse. triangular-solve takes a [..., k, k] and b [..., m, n] with k = m
// when left_side (op(a) x = b) and k = n otherwise (x op(a) = b); its result
// has b's shape. cholesky maps [..., n, n] to itself.
#include "compiler/ir/shape_inference_internal.h"
#include "compiler/support/status_macros.h"

namespace aotc::shape_internal {
namespace {

std::vector<int64_t> Trailing(const Shape &s, size_t n) {
  return std::vector<int64_t>(s.dimensions().end() - n, s.dimensions().end());
}

int64_t HalfSpectrum(int64_t n) { return n == 0 ? 0 : n / 2 + 1; }

absl::Status ExpectComplexOrFloat(const Shape &s, int i, bool complex,
                                  std::string_view what) {
  const PrimitiveType t = s.element_type();
  const bool ok = complex
                      ? IsComplex(t)
                      : (t == PrimitiveType::kF32 || t == PrimitiveType::kF64);
  if (ok)
    return absl::OkStatus();
  return ShapeError("operand ", i, " has shape ", ShapeText(s), ", expected ",
                    complex ? "c64 or c128" : "f32 or f64", " for ", Sv(what));
}

// A batch of square matrices [..., n, n] of a floating-point or complex
// type: operand i of `inst`.
absl::StatusOr<const Shape *> SquareMatrices(const Instruction &inst, int i) {
  ASSIGN_OR_RETURN(const Shape *s, ArrayOperand(inst, i));
  const PrimitiveType t = s->element_type();
  if (!IsFloat(t) && !IsComplex(t)) {
    return ShapeError("operand ", i, " has shape ", ShapeText(*s),
                      ", expected a floating-point or complex type");
  }
  if (s->rank() < 2 ||
      s->dimensions(s->rank() - 1) != s->dimensions(s->rank() - 2)) {
    return ShapeError("operand ", i, " has shape ", ShapeText(*s),
                      ", expected square matrices [..., n, n]");
  }
  return s;
}

} // namespace

absl::StatusOr<Shape> InferFftShape(const Instruction &inst) {
  ASSIGN_OR_RETURN(const Shape *x, ArrayOperand(inst, 0));
  const std::vector<int64_t> &len = inst.fft_length();
  if (len.empty() || len.size() > 3) {
    return ShapeError("fft_length has ", len.size(),
                      " entries, expected 1, 2 or 3");
  }
  for (int64_t n : len) {
    if (n < 0)
      return ShapeError("fft_length ", DimsText(len), " is negative");
  }
  if (static_cast<size_t>(x->rank()) < len.size()) {
    return ShapeError("operand 0 has shape ", ShapeText(*x), ", expected rank ",
                      len.size(), " or more for fft_length ", DimsText(len));
  }
  const FftType type = inst.fft_type();
  const std::string_view name = FftTypeName(type);
  RETURN_IF_ERROR(ExpectComplexOrFloat(*x, 0, type != FftType::kRfft, name));
  std::vector<int64_t> expected = len;
  if (type == FftType::kIrfft)
    expected.back() = HalfSpectrum(len.back());
  if (Trailing(*x, len.size()) != expected) {
    return ShapeError("operand 0 has shape ", ShapeText(*x), ", expected ",
                      DimsText(expected), " as its last dimensions for ",
                      Sv(name), " with fft_length ", DimsText(len));
  }
  std::vector<int64_t> dims = x->dimensions();
  PrimitiveType t = x->element_type();
  switch (type) {
  case FftType::kFft:
  case FftType::kIfft:
    break;
  case FftType::kRfft:
    dims.back() = HalfSpectrum(len.back());
    t = t == PrimitiveType::kF32 ? PrimitiveType::kC64 : PrimitiveType::kC128;
    break;
  case FftType::kIrfft:
    dims.back() = len.back();
    t = t == PrimitiveType::kC64 ? PrimitiveType::kF32 : PrimitiveType::kF64;
    break;
  }
  return Shape::Array(t, dims);
}

absl::StatusOr<Shape> InferTriangularSolveShape(const Instruction &inst) {
  ASSIGN_OR_RETURN(const Shape *a, SquareMatrices(inst, 0));
  ASSIGN_OR_RETURN(const Shape *b, ArrayOperand(inst, 1));
  if (b->element_type() != a->element_type() || b->rank() != a->rank()) {
    return ShapeError("operand 1 has shape ", ShapeText(*b),
                      ", expected the element type and rank of operand 0 ",
                      ShapeText(*a));
  }
  const int r = a->rank();
  for (int d = 0; d < r - 2; ++d) {
    if (a->dimensions(d) != b->dimensions(d)) {
      return ShapeError("operand 1 has shape ", ShapeText(*b),
                        ", expected the batch dimensions of operand 0 ",
                        ShapeText(*a));
    }
  }
  const int solved = inst.left_side() ? r - 2 : r - 1;
  if (b->dimensions(solved) != a->dimensions(r - 1)) {
    return ShapeError("operand 1 has shape ", ShapeText(*b), ", expected size ",
                      a->dimensions(r - 1), " in dimension ", solved, " for ",
                      inst.left_side() ? "left_side=true" : "left_side=false");
  }
  return Shape::Array(b->element_type(), b->dimensions());
}

absl::StatusOr<Shape> InferCholeskyShape(const Instruction &inst) {
  ASSIGN_OR_RETURN(const Shape *a, SquareMatrices(inst, 0));
  return Shape::Array(a->element_type(), a->dimensions());
}

} // namespace aotc::shape_internal
