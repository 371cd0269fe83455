// EvalFft: the discrete Fourier transform by its defining sum.
//
// Each transformed dimension is one pass over every line along it, as
// StableHLO's spec defines the 2-D and 3-D transforms: FFT and IFFT on the
// innermost dimension first, RFFT the real transform on the innermost
// dimension and then complex ones outward, IRFFT the complex inverses
// inward and the real inverse on the innermost dimension last. A line of n
// is transformed by the direct O(n^2) sum
//
//   X[k] = sum_j x[j] exp(-+2 pi i j k / n)     (IFFT and IRFFT: / n)
//
// in long double with Neumaier's compensated summation, the twiddle of
// j k taken from the exact integer (j k mod n), so that the value is close
// to the exact transform whatever the length: the oracle for compiled
// code, which computes it another way (radix 2, Bluestein). IRFFT's line of
// n/2+1 is extended to n by conjugate symmetry, X[n-k] = conj(X[k]), and
// the real part of the inverse is the result: the imaginary parts of X[0]
// (and of X[n/2] for even n) contribute nothing to it, which is how they
// are ignored.
#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <vector>

#include "compiler/evaluator/kernel_util.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/ir/native_type.h"
#include "compiler/ir/shape_inference.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::eval {
namespace {

using Wide = std::complex<long double>;

// A sum of complex terms with each part's rounding error carried along.
class CompensatedSum {
public:
  void Add(Wide x) {
    Add1(x.real(), sum_re_, comp_re_);
    Add1(x.imag(), sum_im_, comp_im_);
  }
  Wide Value() const { return {sum_re_ + comp_re_, sum_im_ + comp_im_}; }

private:
  static void Add1(long double x, long double &sum, long double &comp) {
    const long double t = sum + x;
    comp += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  long double sum_re_ = 0, sum_im_ = 0, comp_re_ = 0, comp_im_ = 0;
};

// exp(sign 2 pi i r / n) for r in [0, n); the quarter turns (r / n a
// multiple of 1/4) are exact, where the cosine of a rounded pi/2 is not 0.
std::vector<Wide> Roots(int64_t n, int sign) {
  std::vector<Wide> w(n);
  for (int64_t r = 0; r < n; ++r) {
    if (r * 4 % n == 0) {
      switch (r * 4 / n) {
        case 0:
          w[r] = {1, 0};
          break;
        case 1:
          w[r] = {0, static_cast<long double>(sign)};
          break;
        case 2:
          w[r] = {-1, 0};
          break;
        default:
          w[r] = {0, static_cast<long double>(-sign)};
          break;
      }
      continue;
    }
    const long double angle = sign * 2 * std::numbers::pi_v<long double> *
                              static_cast<long double>(r) / n;
    w[r] = {std::cos(angle), std::sin(angle)};
  }
  return w;
}

// Row-major complex data of `dims`, transformed in place along `axis`.
void TransformAxis(std::vector<Wide> &data, const std::vector<int64_t> &dims,
                   int axis, bool inverse) {
  const int64_t n = dims[axis];
  if (n == 0 || data.empty())
    return;
  int64_t inner = 1;
  for (size_t d = axis + 1; d < dims.size(); ++d)
    inner *= dims[d];
  const int64_t outer = static_cast<int64_t>(data.size()) / (n * inner);
  const std::vector<Wide> w = Roots(n, inverse ? 1 : -1);
  std::vector<Wide> line(n);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t q = 0; q < inner; ++q) {
      Wide *x = &data[o * n * inner + q];
      for (int64_t j = 0; j < n; ++j)
        line[j] = x[j * inner];
      for (int64_t k = 0; k < n; ++k) {
        CompensatedSum s;
        for (int64_t j = 0; j < n; ++j) {
          // (j k) mod n without overflow: j, k < n <= 2^31 in practice;
          // the product is formed in 128 bits to be safe.
          const int64_t r =
              static_cast<int64_t>((static_cast<__int128>(j) * k) % n);
          s.Add(line[j] * w[r]);
        }
        x[k * inner] =
            inverse ? s.Value() / static_cast<long double>(n) : s.Value();
      }
    }
  }
}

template <typename T> std::vector<Wide> Load(const Literal &x) {
  std::vector<Wide> out;
  out.reserve(x.element_count());
  for (const T &v : x.data<T>())
    out.push_back(Wide(v));
  return out;
}

// IRFFT's innermost pass: lines of n/2+1 in `half` (dims `half_dims`) to
// real lines of n.
std::vector<long double> InverseRealAxis(const std::vector<Wide> &half,
                                         const std::vector<int64_t> &half_dims,
                                         int64_t n) {
  const int64_t h = half_dims.back();
  const int64_t lines = h == 0 ? 0 : static_cast<int64_t>(half.size()) / h;
  std::vector<long double> out(lines * n);
  const std::vector<Wide> w = Roots(n, 1);
  std::vector<Wide> full(n);
  for (int64_t l = 0; l < lines; ++l) {
    for (int64_t k = 0; k < n; ++k) {
      full[k] = k < h ? half[l * h + k] : std::conj(half[l * h + (n - k)]);
    }
    for (int64_t m = 0; m < n; ++m) {
      CompensatedSum s;
      for (int64_t k = 0; k < n; ++k) {
        s.Add(full[k] *
              w[static_cast<int64_t>((static_cast<__int128>(k) * m) % n)]);
      }
      out[l * n + m] = s.Value().real() / n;
    }
  }
  return out;
}

template <PrimitiveType R>
Literal Store(const Shape &shape, const std::vector<Wide> &values) {
  using T = NativeType<R>;
  using Part = typename T::value_type;
  Literal out(shape);
  auto data = out.mutable_data<T>();
  for (size_t i = 0; i < values.size(); ++i) {
    data[i] = T(static_cast<Part>(values[i].real()),
                static_cast<Part>(values[i].imag()));
  }
  return out;
}

} // namespace

absl::StatusOr<Literal> EvalFft(const Instruction &inst, Operands operands) {
  RETURN_IF_ERROR(CheckArrayOperands(inst, operands));
  absl::StatusOr<Shape> expected = InferShape(inst);
  if (!expected.ok()) {
    return ErrorAt(inst.location(), std::string(expected.status().message()));
  }
  const Shape &shape = inst.shape();
  const Literal &x = *operands[0];
  if (!shape.IsArray() || !shape.SameDimensions(*expected) ||
      shape.element_type() != expected->element_type() ||
      !x.shape().SameDimensions(inst.operand(0)->shape())) {
    return ErrorAt(inst.location(),
                   absl::StrCat("fft result has shape ", shape.ToString(false),
                                ", expected ", expected->ToString(false)));
  }
  const FftType type = inst.fft_type();
  const int rank = x.shape().rank();
  const int count = static_cast<int>(inst.fft_length().size());
  std::vector<Wide> data;
  switch (x.shape().element_type()) {
  case PrimitiveType::kF32:
    data = Load<float>(x);
    break;
  case PrimitiveType::kF64:
    data = Load<double>(x);
    break;
  case PrimitiveType::kC64:
    data = Load<std::complex<float>>(x);
    break;
  default:
    data = Load<std::complex<double>>(x);
    break;
  }
  std::vector<int64_t> dims = x.shape().dimensions();
  if (type == FftType::kRfft) {
    // The real transform is the complex one of the real line, truncated.
    TransformAxis(data, dims, rank - 1, /*inverse=*/false);
    const int64_t n = dims.back();
    const int64_t h = shape.dimensions().back();
    std::vector<Wide> cut;
    cut.reserve(shape.ElementCount());
    for (size_t l = 0; n > 0 && l < data.size() / n; ++l) {
      for (int64_t k = 0; k < h; ++k)
        cut.push_back(data[l * n + k]);
    }
    data = std::move(cut);
    dims.back() = h;
    for (int a = rank - 2; a >= rank - count; --a) {
      TransformAxis(data, dims, a, false);
    }
  } else if (type == FftType::kIrfft) {
    for (int a = rank - count; a <= rank - 2; ++a) {
      TransformAxis(data, dims, a, true);
    }
    std::vector<long double> real =
        InverseRealAxis(data, dims, shape.dimensions().back());
    Literal out(shape);
    if (shape.element_type() == PrimitiveType::kF32) {
      auto o = out.mutable_data<float>();
      for (size_t i = 0; i < real.size(); ++i)
        o[i] = real[i];
    } else {
      auto o = out.mutable_data<double>();
      for (size_t i = 0; i < real.size(); ++i)
        o[i] = real[i];
    }
    return out;
  } else {
    for (int a = rank - 1; a >= rank - count; --a) {
      TransformAxis(data, dims, a, type == FftType::kIfft);
    }
  }
  if (shape.element_type() == PrimitiveType::kC64) {
    return Store<PrimitiveType::kC64>(shape, data);
  }
  return Store<PrimitiveType::kC128>(shape, data);
}

} // namespace aotc::eval
