// Row normalisations in decomposed form, as HLO text, for the tests of the
// norm matcher (norm_pattern_test.cc) and of the row-norm strategy
// (codegen/tests/norm_e2e_test.cc): RMSNorm, LayerNorm with a centred or a
// "fast" variance (E[x^2] - E[x]^2), an L2 normalisation; the square root
// written four ways; the mean as a divide or a multiply; JAX's keep-dims
// reshapes; bf16 inputs widened to f32; a residual before and an operation
// after; and the near misses the matcher must refuse.
#ifndef AOTC_COMPILER_ANALYSIS_NORM_TEST_UTIL_H_
#define AOTC_COMPILER_ANALYSIS_NORM_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace aotc::testing {

struct NormForm {
  enum Kind { kRms, kLayerCentred, kLayerFast, kL2 } kind = kRms;
  // How 1 / sqrt(v) is written: rsqrt(v); divide(1, sqrt(v)); x divided by
  // broadcast(sqrt(v)) at element level; power(v, -0.5).
  enum Root { kRsqrt, kOneOverSqrt, kDivideBySqrt, kPower } root = kRsqrt;
  std::vector<int64_t> rows = {4};  // the leading dimensions
  int64_t row = 8;                  // the last dimension, the row
  bool bf16 = false;        // x, scale and the result bf16, computed in f32
  bool mean_by_multiply = false;  // sum * (1 / n) rather than sum / n
  bool keep_dims = false;   // row values as [rows..., 1], as JAX keeps them
  bool scale = true;
  bool bias = true;         // layer norms only
  bool residual = false;    // x = x_in + r before the norm
  bool after = false;       // a negate and a maximum with 0 after it
  // Near misses.
  bool sum_over_columns = false;  // every reduce over dimension 0
  bool stats_out = false;         // the root is a tuple (out, 1 / sqrt(v))
  bool exp_before = false;        // x = exp(x_in): expensive, feeds the sums
  bool max_reducer = false;       // the sums' reducer is a maximum
};

inline std::string NormHlo(const NormForm& f) {
  const std::string t = f.bf16 ? "bf16" : "f32";
  std::vector<int64_t> dims = f.rows;
  dims.push_back(f.row);
  const int64_t last = static_cast<int64_t>(f.rows.size());
  const std::string sum_dim =
      f.sum_over_columns ? "0" : absl::StrCat(last);
  std::vector<int64_t> row_dims = f.rows;
  if (f.sum_over_columns) {
    row_dims = dims;
    row_dims.erase(row_dims.begin());
  }
  std::vector<int64_t> stat_dims = row_dims;
  if (f.keep_dims) stat_dims.push_back(1);
  auto shape = [](const std::string& type, const std::vector<int64_t>& d) {
    return absl::StrCat(type, "[", absl::StrJoin(d, ","), "]");
  };
  const std::string x_shape = shape("f32", dims);
  const std::string r_shape = shape("f32", row_dims);
  const std::string s_shape = shape("f32", stat_dims);
  std::string bdims;  // a row value (as reduced) broadcast into x's shape
  {
    std::vector<int64_t> to;
    for (int64_t i = 0; i < static_cast<int64_t>(row_dims.size()); ++i) {
      to.push_back(f.sum_over_columns ? i + 1 : i);
    }
    bdims = absl::StrJoin(to, ",");
  }
  std::string out;
  absl::StrAppend(&out, "HloModule norm\n\nsum {\n  a = f32[] parameter(0)\n",
                  "  b = f32[] parameter(1)\n  ROOT s = f32[] ",
                  f.max_reducer ? "maximum" : "add", "(a, b)\n}\n\n",
                  "ENTRY main {\n");
  int param = 0;
  absl::StrAppend(&out, "  x.in = ", shape(t, dims), " parameter(", param++,
                  ")\n");
  std::string x = "x.in";
  if (f.bf16) {
    absl::StrAppend(&out, "  x.wide = ", x_shape, " convert(x.in)\n");
    x = "x.wide";
  }
  if (f.residual) {
    absl::StrAppend(&out, "  res = ", x_shape, " parameter(", param++,
                    ")\n  x.res = ", x_shape, " add(", x, ", res)\n");
    x = "x.res";
  }
  if (f.exp_before) {
    absl::StrAppend(&out, "  x.exp = ", x_shape, " exponential(", x, ")\n");
    x = "x.exp";
  }
  const std::string n = absl::StrCat(
      f.sum_over_columns ? dims[0] : f.row);
  absl::StrAppend(&out, "  zero = f32[] constant(0)\n",
                  "  n = f32[] constant(",
                  f.mean_by_multiply
                      ? absl::StrCat(1.0 / std::stod(n)) : n,
                  ")\n", "  n.b = ", s_shape, " broadcast(n), dimensions={}\n",
                  "  eps = f32[] constant(1e-06)\n", "  eps.b = ", s_shape,
                  " broadcast(eps), dimensions={}\n");
  // sum(v) over the row into a row value `name` (keep-dims: reshaped).
  auto reduce = [&](const std::string& name, const std::string& v) {
    absl::StrAppend(&out, "  ", name, ".r = ", r_shape, " reduce(", v,
                    ", zero), dimensions={", sum_dim, "}, to_apply=sum\n",
                    "  ", name, " = ", s_shape, " reshape(", name, ".r)\n");
  };
  auto mean = [&](const std::string& name, const std::string& sum) {
    absl::StrAppend(&out, "  ", name, " = ", s_shape, " ",
                    f.mean_by_multiply ? "multiply" : "divide", "(", sum,
                    ", n.b)\n");
  };
  // A row value broadcast into x's shape (keep-dims: reshaped back first).
  auto bcast = [&](const std::string& name, const std::string& v) {
    std::string from = v;
    if (f.keep_dims) {
      from = name + ".flat";
      absl::StrAppend(&out, "  ", from, " = ", r_shape, " reshape(", v, ")\n");
    }
    absl::StrAppend(&out, "  ", name, " = ", x_shape, " broadcast(", from,
                    "), dimensions={", bdims, "}\n");
  };
  std::string centred = x;  // what is scaled by 1 / sqrt(v)
  std::string var;
  switch (f.kind) {
    case NormForm::kRms:
    case NormForm::kL2:
      absl::StrAppend(&out, "  sq = ", x_shape, " multiply(", x, ", ", x, ")\n");
      reduce("ss", "sq");
      if (f.kind == NormForm::kRms) {
        mean("var", "ss");
        var = "var";
      } else {
        var = "ss";
      }
      break;
    case NormForm::kLayerCentred:
      reduce("s", x);
      mean("m", "s");
      bcast("m.b", "m");
      absl::StrAppend(&out, "  c = ", x_shape, " subtract(", x, ", m.b)\n",
                      "  sq = ", x_shape, " multiply(c, c)\n");
      reduce("ss", "sq");
      mean("var", "ss");
      centred = "c";
      var = "var";
      break;
    case NormForm::kLayerFast:
      reduce("s", x);
      mean("m", "s");
      absl::StrAppend(&out, "  sq = ", x_shape, " multiply(", x, ", ", x, ")\n");
      reduce("ss", "sq");
      mean("msq", "ss");
      absl::StrAppend(&out, "  m2 = ", s_shape, " multiply(m, m)\n",
                      "  var = ", s_shape, " subtract(msq, m2)\n");
      bcast("m.b", "m");
      absl::StrAppend(&out, "  c = ", x_shape, " subtract(", x, ", m.b)\n");
      centred = "c";
      var = "var";
      break;
  }
  absl::StrAppend(&out, "  v = ", s_shape, " add(", var, ", eps.b)\n");
  std::string y;
  switch (f.root) {
    case NormForm::kRsqrt:
      absl::StrAppend(&out, "  inv = ", s_shape, " rsqrt(v)\n");
      break;
    case NormForm::kOneOverSqrt:
      absl::StrAppend(&out, "  sd = ", s_shape, " sqrt(v)\n", "  one = f32[] ",
                      "constant(1)\n  one.b = ", s_shape,
                      " broadcast(one), dimensions={}\n", "  inv = ", s_shape,
                      " divide(one.b, sd)\n");
      break;
    case NormForm::kDivideBySqrt:
      absl::StrAppend(&out, "  inv = ", s_shape, " sqrt(v)\n");
      break;
    case NormForm::kPower:
      absl::StrAppend(&out, "  half = f32[] constant(-0.5)\n  half.b = ",
                      s_shape, " broadcast(half), dimensions={}\n", "  inv = ",
                      s_shape, " power(v, half.b)\n");
      break;
  }
  bcast("inv.b", "inv");
  absl::StrAppend(&out, "  y = ", x_shape, " ",
                  f.root == NormForm::kDivideBySqrt ? "divide" : "multiply",
                  "(", centred, ", inv.b)\n");
  y = "y";
  const std::string col = absl::StrCat("f32[", f.row, "]");
  const std::string col_b = absl::StrCat("dimensions={", last, "}");
  if (f.scale) {
    absl::StrAppend(&out, "  w = ", t, "[", f.row, "] parameter(", param++,
                    ")\n");
    std::string w = "w";
    if (f.bf16) {
      absl::StrAppend(&out, "  w.wide = ", col, " convert(w)\n");
      w = "w.wide";
    }
    absl::StrAppend(&out, "  w.b = ", x_shape, " broadcast(", w, "), ", col_b,
                    "\n  y.w = ", x_shape, " multiply(", y, ", w.b)\n");
    y = "y.w";
  }
  if (f.bias && (f.kind == NormForm::kLayerCentred ||
                 f.kind == NormForm::kLayerFast)) {
    absl::StrAppend(&out, "  bias = f32[", f.row, "] parameter(", param++,
                    ")\n  bias.b = ", x_shape, " broadcast(bias), ", col_b,
                    "\n  y.b = ", x_shape, " add(", y, ", bias.b)\n");
    y = "y.b";
  }
  if (f.after) {
    absl::StrAppend(&out, "  y.neg = ", x_shape, " negate(", y, ")\n",
                    "  zero.b = ", x_shape, " broadcast(zero), dimensions={}\n",
                    "  y.max = ", x_shape, " maximum(y.neg, zero.b)\n");
    y = "y.max";
  }
  if (f.bf16) {
    absl::StrAppend(&out, "  y.narrow = ", shape("bf16", dims), " convert(",
                    y, ")\n");
    y = "y.narrow";
  }
  if (f.stats_out) {
    absl::StrAppend(&out, "  ROOT out = (", shape(t, dims), ", ", s_shape,
                    ") tuple(", y, ", inv)\n}\n");
    return out;
  }
  // The last value is the root.
  const size_t at = out.rfind(absl::StrCat("\n  ", y, " = "));
  out.insert(at + 3, "ROOT ");
  absl::StrAppend(&out, "}\n");
  return out;
}

}  // namespace aotc::testing

#endif  // AOTC_COMPILER_ANALYSIS_NORM_TEST_UTIL_H_
