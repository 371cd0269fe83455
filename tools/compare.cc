// Result comparison within error budgets and per-type tolerances (see
// compare.h).
#include "tools/compare.h"

#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/minifloat.h"
#include "compiler/ir/narrow_type.h"
#include "compiler/ir/native_type.h"
#include "compiler/support/check.h"

namespace aotc {
namespace {

template <typename C>
double AsDouble(C v) {
  if constexpr (std::is_same_v<C, Half> || std::is_same_v<C, BFloat16>) {
    return static_cast<double>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<C, bool>) {
    return v ? 1.0 : 0.0;
  } else {
    return static_cast<double>(v);
  }
}


constexpr double kNoBudget = std::numeric_limits<double>::quiet_NaN();

// Whether x (computed) matches y (expected) within `budget` (NaN: the
// tolerance instead); updates c's error maxima.
bool Matches(Comparison& c, double x, double y, Tolerance tolerance,
             double budget) {
  bool match;
  if (std::isinf(budget)) {
    // The budget's first-order propagation lost track (a pole inside the
    // operands' uncertainty, or budgets grown past the values through many
    // layers): accepting anything would be a blind spot, so the per-type
    // tolerance judges, as where there is no budget.
    ++c.infinite_budget;
    budget = kNoBudget;
  }
  if (std::isnan(x) || std::isnan(y)) {
    match = std::isnan(x) && std::isnan(y);
    if (match) ++c.both_nan;
  } else if (std::isinf(x) || std::isinf(y)) {
    match = x == y;
  } else {
    ++c.finite;
    const double abs_error = std::fabs(x - y);
    const double rel_error = y == 0 ? abs_error : abs_error / std::fabs(y);
    c.max_abs_error = std::max(c.max_abs_error, abs_error);
    c.max_rel_error = std::max(c.max_rel_error, rel_error);
    double allowed = budget;
    if (std::isnan(budget)) {
      ++c.by_tolerance;
      allowed = tolerance.abs + tolerance.rel * std::fabs(y);
    }
    match = abs_error <= allowed;
    double ratio = abs_error == 0 ? 0 : std::numeric_limits<double>::infinity();
    if (allowed > 0) ratio = abs_error / allowed;
    c.max_error_ratio = std::max(c.max_error_ratio, ratio);
  }
  return match;
}

// Compares element i (x computed, y expected) into c.
void Check(Comparison& c, const Shape& shape, int64_t i, double x, double y,
           Tolerance tolerance, double budget = kNoBudget) {
  if (Matches(c, x, y, tolerance, budget)) return;
  if (c.mismatches == 0) {
    c.first_mismatch = absl::StrCat("element ", IndexText(shape, i), ": got ",
                                    x, ", expected ", y);
  }
  ++c.mismatches;
}

// Integers compare in their own type: through double, 64-bit
// values beyond 2^53 that differ could round to the same double.
template <typename C>
void CheckExact(Comparison& c, const Shape& shape, int64_t i, C x, C y) {
  if (x == y) return;
  if (c.mismatches == 0) {
    c.first_mismatch = absl::StrCat("element ", IndexText(shape, i), ": got ",
                                    x, ", expected ", y);
  }
  ++c.mismatches;
}

// A complex element matches when both parts do, each within the element's
// budget (or the tolerance of the part's type).
template <typename R>
void CheckComplex(Comparison& c, const Shape& shape, int64_t i,
                  std::complex<R> x, std::complex<R> y, Tolerance tolerance,
                  double budget) {
  const bool re = Matches(c, x.real(), y.real(), tolerance, budget);
  const bool im = Matches(c, x.imag(), y.imag(), tolerance, budget);
  if (re && im) return;
  if (c.mismatches == 0) {
    c.first_mismatch =
        absl::StrCat("element ", IndexText(shape, i), ": got (", x.real(), ", ",
                     x.imag(), "), expected (", y.real(), ", ", y.imag(), ")");
  }
  ++c.mismatches;
}

}  // namespace

std::string IndexText(const Shape& shape, int64_t linear) {
  std::vector<int64_t> index(shape.rank());
  for (int d = shape.rank() - 1; d >= 0; --d) {
    index[d] = linear % shape.dimensions(d);
    linear /= shape.dimensions(d);
  }
  return absl::StrCat("[", absl::StrJoin(index, ","), "]");
}

Tolerance DefaultTolerance(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kF64:
    case PrimitiveType::kC128:
      return {1e-9, 1e-9};
    case PrimitiveType::kF32:
    case PrimitiveType::kC64:
      return {1e-5, 1e-4};
    case PrimitiveType::kF16:
      return {1e-3, 1e-2};
    case PrimitiveType::kBF16:
      return {1e-2, 4e-2};
    default:
      break;
  }
  if (IsMinifloat(type)) {
    // One unit in the last place: a result computed in f32 by a different
    // (equally accurate) method may round to the neighbouring value.
    const MinifloatFormat& f = GetMinifloatFormat(type);
    const double smallest = std::ldexp(1.0, 1 - f.bias - f.mantissa_bits);
    return {smallest, std::ldexp(1.0, -f.mantissa_bits)};
  }
  return {0, 0};
}

Comparison CompareLiterals(const Literal& actual, const Literal& expected,
                           Tolerance tolerance, const Literal* budget) {
  AOTC_CHECK(actual.shape().Compatible(expected.shape()),
             "comparing literals of different shapes");
  AOTC_CHECK(budget == nullptr ||
                 (budget->shape().element_type() == PrimitiveType::kF64 &&
                  budget->shape().SameDimensions(expected.shape())),
             "a budget must be an f64 array of the compared dimensions");
  auto budget_of = [&](int64_t i) {
    return budget != nullptr ? budget->Get<double>(i) : kNoBudget;
  };
  Comparison c;
  c.elements = expected.element_count();
  const PrimitiveType type = expected.shape().element_type();
  if (IsNarrowType(type)) {
    // Decoded from the low bits, so any high bits a writer leaves do not
    // count.
    for (int64_t i = 0; i < c.elements; ++i) {
      Check(c, expected.shape(), i, NarrowToDouble(type, actual.raw()[i]),
            NarrowToDouble(type, expected.raw()[i]), tolerance, budget_of(i));
    }
    return c;
  }
  if (type == PrimitiveType::kPred) {
    // A pred byte is true when nonzero: bitcast-convert from s8 stores the
    // source byte itself, the evaluator 1. Read as bytes, never as bool
    // (any value but 0 and 1 in a bool is undefined behaviour).
    auto a = actual.data<uint8_t>();
    auto e = expected.data<uint8_t>();
    for (int64_t i = 0; i < c.elements; ++i) {
      CheckExact<int>(c, expected.shape(), i, a[i] != 0, e[i] != 0);
    }
    return c;
  }
  DispatchComputableType(type, [&]<PrimitiveType P>() {
    using C = NativeType<P>;
    auto a = actual.data<C>();
    auto e = expected.data<C>();
    for (int64_t i = 0; i < c.elements; ++i) {
      if constexpr (std::is_same_v<C, std::complex<float>> ||
                    std::is_same_v<C, std::complex<double>>) {
        CheckComplex(c, expected.shape(), i, a[i], e[i], tolerance,
                     budget_of(i));
      } else if constexpr (std::is_integral_v<C>) {
        CheckExact(c, expected.shape(), i, a[i], e[i]);
      } else {
        Check(c, expected.shape(), i, AsDouble(a[i]), AsDouble(e[i]),
              tolerance, budget_of(i));
      }
    }
  });
  return c;
}

}  // namespace aotc
