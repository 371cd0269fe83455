// HLO text of attention, softmax(scale * Q K^T [causal]) V, in the
// decomposed form exporters write, for the matcher's, the pass's and the
// strategy's tests: one shape of it with switches for the forms and for
// near misses that must not be recognised.
#ifndef AOTC_COMPILER_ANALYSIS_ATTENTION_TEST_UTIL_H_
#define AOTC_COMPILER_ANALYSIS_ATTENTION_TEST_UTIL_H_

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace aotc::testing {

struct AttentionForm {
  int64_t heads = 2, queries = 16, keys = 16, head = 8, value = 8;
  std::string type = "f32";  // of Q, K, V, the scores and the output
  bool causal = false;
  bool divide_scale = false;     // x / 8 rather than x * 0.125
  bool reciprocal = false;       // E * (1 / L) rather than E / L
  // Near misses.
  bool sum_over_queries = false; // L sums over the queries, M over the keys
  bool scale_parameter = false;  // the scale is a fourth parameter
  bool anti_causal = false;      // keeps key >= query
  bool contract_queries = false; // P V contracts the queries
};

// [heads, queries, keys] scores; Q [heads, queries, head], K [heads, keys,
// head], V [heads, keys, value]; the sums in f32 (converted around) when
// `type` is narrower.
inline std::string AttentionHlo(const AttentionForm& f) {
  const std::string t = f.type;
  const bool narrow = t != "f32";
  auto dims = [](std::initializer_list<int64_t> d) {
    std::string out = "[";
    const char* sep = "";
    for (int64_t x : d) {
      absl::StrAppend(&out, sep, x);
      sep = ",";
    }
    return out + "]";
  };
  const std::string sc = dims({f.heads, f.queries, f.keys});
  const std::string row = dims({f.heads, f.queries});
  std::string text = absl::StrCat(
      "HloModule attention\n\n"
      "max_", t, " {\n  a = ", t, "[] parameter(0)\n  b = ", t,
      "[] parameter(1)\n  ROOT m = ", t, "[] maximum(a, b)\n}\n\n"
      "add_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(a, b)\n}\n\n"
      "ENTRY main {\n"
      "  q = ", t, dims({f.heads, f.queries, f.head}), " parameter(0)\n"
      "  k = ", t, dims({f.heads, f.keys, f.head}), " parameter(1)\n"
      "  v = ", t, dims({f.heads, f.keys, f.value}), " parameter(2)\n"
      "  s = ", t, sc, " dot(q, k), lhs_batch_dims={0}, lhs_contracting_dims={2}, "
      "rhs_batch_dims={0}, rhs_contracting_dims={2}\n");
  if (f.scale_parameter) {
    absl::StrAppend(&text, "  c = ", t, "[] parameter(3)\n");
  } else {
    absl::StrAppend(&text, "  c = ", t, "[] constant(", f.divide_scale ? "8" : "0.125",
                    ")\n");
  }
  absl::StrAppend(&text, "  cb = ", t, sc, " broadcast(c), dimensions={}\n",
                  "  x0 = ", t, sc, " ", f.divide_scale ? "divide" : "multiply",
                  "(s, cb)\n");
  std::string x = "x0";
  if (f.causal || f.anti_causal) {
    absl::StrAppend(
        &text, "  iq = s32", sc, " iota(), iota_dimension=1\n",
        "  ik = s32", sc, " iota(), iota_dimension=2\n",
        "  keep = pred", sc, " compare(iq, ik), direction=", f.anti_causal ? "LE" : "GE",
        "\n  fill = ", t, "[] constant(-inf)\n  fb = ", t, sc,
        " broadcast(fill), dimensions={}\n  x = ", t, sc, " select(keep, x0, fb)\n");
    x = "x";
  }
  absl::StrAppend(
      &text, "  ninf = ", t, "[] constant(-inf)\n",
      "  m = ", t, row, " reduce(", x, ", ninf), dimensions={2}, to_apply=max_", t, "\n",
      "  mb = ", t, sc, " broadcast(m), dimensions={0,1}\n",
      "  d = ", t, sc, " subtract(", x, ", mb)\n",
      "  e = ", t, sc, " exponential(d)\n");
  std::string e_sum = "e";
  if (narrow) {
    absl::StrAppend(&text, "  ef = f32", sc, " convert(e)\n");
    e_sum = "ef";
  }
  const std::string sum_row =
      f.sum_over_queries ? dims({f.heads, f.keys}) : row;
  absl::StrAppend(&text, "  zero = f32[] constant(0)\n",
                  "  l = f32", sum_row, " reduce(", e_sum, ", zero), dimensions={",
                  f.sum_over_queries ? "1" : "2", "}, to_apply=add_f32\n");
  std::string l = "l";
  if (narrow) {
    absl::StrAppend(&text, "  ln = ", t, sum_row, " convert(l)\n");
    l = "ln";
  }
  const std::string l_dims = f.sum_over_queries ? "{0,2}" : "{0,1}";
  if (f.reciprocal) {
    absl::StrAppend(&text, "  one = ", t, "[] constant(1)\n  ob = ", t, sum_row,
                    " broadcast(one), dimensions={}\n  r = ", t, sum_row,
                    " divide(ob, ", l, ")\n  rb = ", t, sc, " broadcast(r), dimensions=",
                    l_dims, "\n  p = ", t, sc, " multiply(e, rb)\n");
  } else {
    absl::StrAppend(&text, "  lb = ", t, sc, " broadcast(", l, "), dimensions=", l_dims,
                    "\n  p = ", t, sc, " divide(e, lb)\n");
  }
  if (f.contract_queries) {
    // Contracts P's queries with V's keys (queries == keys).
    absl::StrAppend(&text, "  ROOT o = ", t, dims({f.heads, f.keys, f.value}),
                    " dot(p, v), lhs_batch_dims={0}, lhs_contracting_dims={1}, "
                    "rhs_batch_dims={0}, rhs_contracting_dims={1}\n}\n");
  } else {
    absl::StrAppend(&text, "  ROOT o = ", t, dims({f.heads, f.queries, f.value}),
                    " dot(p, v), lhs_batch_dims={0}, lhs_contracting_dims={2}, "
                    "rhs_batch_dims={0}, rhs_contracting_dims={1}\n}\n");
  }
  return text;
}

}  // namespace aotc::testing

#endif  // AOTC_COMPILER_ANALYSIS_ATTENTION_TEST_UTIL_H_
