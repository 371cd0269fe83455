// EvalTriangularSolve and EvalCholesky: textbook substitution and the
// Cholesky-Banachiewicz factorization, in long double.
//
// triangular-solve solves op(a) x = b (left_side) or x op(a) = b for each
// batch matrix, op(a) being a, its transpose or its conjugate transpose.
// Only the triangle of a that `lower` names is read, and with
// unit_diagonal not its diagonal either (taken as 1). The rows (left side)
// or columns (right side) of x are found one at a time by forward or back
// substitution, whichever order op(a)'s triangle allows.
//
// cholesky factors a Hermitian positive-definite a as l l^H (lower) or
// u^H u (upper, u = l^H), reading only that triangle of a (the imaginary
// part of the diagonal is ignored); the other triangle of the result is
// zero. When a pivot is not positive (a is not positive definite, or holds
// a NaN), the whole matrix of that batch element is NaN, as XLA gives.
// Compiled code computes in double; these kernels in long double are its
// oracle.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
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

std::vector<Wide> Load(const Literal &x) {
  std::vector<Wide> out;
  out.reserve(x.element_count());
  DispatchComputableType(x.shape().element_type(), [&]<PrimitiveType P>() {
    if constexpr (P == PrimitiveType::kF32 || P == PrimitiveType::kF64 ||
                  P == PrimitiveType::kC64 || P == PrimitiveType::kC128) {
      for (const auto &v : x.data<NativeType<P>>())
        out.push_back(Wide(v));
    }
  });
  return out;
}

Literal Store(const Shape &shape, const std::vector<Wide> &values) {
  Literal out(shape);
  DispatchComputableType(shape.element_type(), [&]<PrimitiveType P>() {
    using T = NativeType<P>;
    auto data = out.mutable_data<T>();
    if constexpr (P == PrimitiveType::kF32 || P == PrimitiveType::kF64) {
      for (size_t i = 0; i < values.size(); ++i) {
        data[i] = static_cast<T>(values[i].real());
      }
    } else if constexpr (P == PrimitiveType::kC64 ||
                         P == PrimitiveType::kC128) {
      using Part = typename T::value_type;
      for (size_t i = 0; i < values.size(); ++i) {
        data[i] = T(static_cast<Part>(values[i].real()),
                    static_cast<Part>(values[i].imag()));
      }
    }
  });
  return out;
}

absl::Status CheckShape(const Instruction &inst, Operands operands) {
  RETURN_IF_ERROR(CheckArrayOperands(inst, operands));
  absl::StatusOr<Shape> expected = InferShape(inst);
  if (!expected.ok()) {
    return ErrorAt(inst.location(), std::string(expected.status().message()));
  }
  if (!inst.shape().IsArray() || !inst.shape().SameDimensions(*expected) ||
      inst.shape().element_type() != expected->element_type()) {
    return ErrorAt(inst.location(),
                   absl::StrCat(Sv(OpcodeName(inst.opcode())),
                                " result has shape ",
                                inst.shape().ToString(false), ", expected ",
                                expected->ToString(false)));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!operands[i]->shape().SameDimensions(inst.operand(i)->shape())) {
      return ErrorAt(inst.location(),
                     absl::StrCat("operand ", i, " has shape ",
                                  operands[i]->shape().ToString(false)));
    }
  }
  return absl::OkStatus();
}

// op(a)[i][k] of one batch matrix of order n at `a`, or 0 outside the
// triangle `lower` names (never read by the substitutions below).
class OpA {
public:
  OpA(const Wide *a, int64_t n, TransposeKind t) : a_(a), n_(n), t_(t) {}
  Wide operator()(int64_t i, int64_t k) const {
    switch (t_) {
    case TransposeKind::kNoTranspose:
      return a_[i * n_ + k];
    case TransposeKind::kTranspose:
      return a_[k * n_ + i];
    case TransposeKind::kAdjoint:
      return std::conj(a_[k * n_ + i]);
    }
    return 0;
  }

private:
  const Wide *a_;
  int64_t n_;
  TransposeKind t_;
};

} // namespace

absl::StatusOr<Literal> EvalTriangularSolve(const Instruction &inst,
                                            Operands operands) {
  RETURN_IF_ERROR(CheckShape(inst, operands));
  const Shape &bs = operands[1]->shape();
  const int r = bs.rank();
  const int64_t m = bs.dimensions(r - 2), n = bs.dimensions(r - 1);
  const int64_t k = inst.left_side() ? m : n;
  const int64_t batches = m * n == 0 ? 0 : bs.ElementCount() / (m * n);
  std::vector<Wide> a = Load(*operands[0]);
  std::vector<Wide> x = Load(*operands[1]);
  // op(a) is lower triangular when a is lower and not transposed, or upper
  // and transposed.
  const bool op_lower =
      inst.lower() == (inst.transpose_a() == TransposeKind::kNoTranspose);
  const bool unit = inst.unit_diagonal();
  for (int64_t batch = 0; batch < batches; ++batch) {
    const OpA op(&a[batch * k * k], k, inst.transpose_a());
    Wide *xb = &x[batch * m * n];
    if (inst.left_side()) {
      // Row i of x from rows already found: those before it when op(a) is
      // lower (forward), after it when upper (back substitution).
      for (int64_t s = 0; s < m; ++s) {
        const int64_t i = op_lower ? s : m - 1 - s;
        for (int64_t j = 0; j < n; ++j) {
          Wide v = xb[i * n + j];
          for (int64_t t = 0; t < s; ++t) {
            const int64_t q = op_lower ? t : m - 1 - t;
            v -= op(i, q) * xb[q * n + j];
          }
          xb[i * n + j] = unit ? v : v / op(i, i);
        }
      }
    } else {
      // Column j of x: sum_q x[., q] op(a)[q][j] = b[., j], so columns
      // before j when op(a) is upper, after it when lower.
      for (int64_t s = 0; s < n; ++s) {
        const int64_t j = op_lower ? n - 1 - s : s;
        for (int64_t i = 0; i < m; ++i) {
          Wide v = xb[i * n + j];
          for (int64_t t = 0; t < s; ++t) {
            const int64_t q = op_lower ? n - 1 - t : t;
            v -= xb[i * n + q] * op(q, j);
          }
          xb[i * n + j] = unit ? v : v / op(j, j);
        }
      }
    }
  }
  return Store(inst.shape(), x);
}

absl::StatusOr<Literal> EvalCholesky(const Instruction &inst,
                                     Operands operands) {
  RETURN_IF_ERROR(CheckShape(inst, operands));
  const Shape &s = operands[0]->shape();
  const int64_t n = s.dimensions(s.rank() - 1);
  const int64_t batches = n == 0 ? 0 : s.ElementCount() / (n * n);
  const std::vector<Wide> a = Load(*operands[0]);
  std::vector<Wide> out(a.size(), Wide(0));
  const bool lower = inst.lower();
  for (int64_t batch = 0; batch < batches; ++batch) {
    const Wide *ab = &a[batch * n * n];
    // The lower triangle of the Hermitian matrix, read from the triangle
    // `lower` names.
    auto at = [&](int64_t i, int64_t j) {
      return lower ? ab[i * n + j] : std::conj(ab[j * n + i]);
    };
    std::vector<Wide> l(n * n, Wide(0));
    bool ok = true;
    for (int64_t i = 0; i < n && ok; ++i) {
      for (int64_t j = 0; j <= i; ++j) {
        Wide v = at(i, j);
        for (int64_t q = 0; q < j; ++q)
          v -= l[i * n + q] * std::conj(l[j * n + q]);
        if (i == j) {
          const long double pivot = v.real();
          if (!(pivot > 0)) {
            ok = false;
            break;
          }
          l[i * n + i] = std::sqrt(pivot);
        } else {
          l[i * n + j] = v / l[j * n + j];
        }
      }
    }
    Wide *ob = &out[batch * n * n];
    const long double nan = std::numeric_limits<long double>::quiet_NaN();
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j <= i; ++j) {
        const Wide v = ok ? l[i * n + j] : Wide(nan, nan);
        if (lower) {
          ob[i * n + j] = v;
        } else {
          ob[j * n + i] = std::conj(v);
        }
      }
      if (!ok) {
        for (int64_t j = i + 1; j < n; ++j) {
          ob[lower ? i * n + j : j * n + i] = Wide(nan, nan);
        }
      }
    }
  }
  return Store(inst.shape(), out);
}

} // namespace aotc::eval
