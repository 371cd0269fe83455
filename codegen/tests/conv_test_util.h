// Random convolution forms for the convolution tests: dim_labels orders and
// the dimensions they name, layouts, and windows with their output sizes.
#ifndef AOTC_CODEGEN_TESTS_CONV_TEST_UTIL_H_
#define AOTC_CODEGEN_TESTS_CONV_TEST_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace aotc::codegen::testing {

// One of `v`, uniformly.
inline int64_t Pick(std::mt19937& rng, const std::vector<int64_t>& v) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}

// The labels a, b and one digit per spatial dimension in a random order:
// labels[k] names dimension k.
inline std::string ShuffledLabels(char a, char b, int spatial,
                                  std::mt19937& rng) {
  std::string l = {a, b};
  for (int i = 0; i < spatial; ++i) l.push_back(static_cast<char>('0' + i));
  std::shuffle(l.begin(), l.end(), rng);
  return l;
}

// The dimensions `labels` name: 'b' and 'i' have a_size, 'f' and 'o'
// b_size, digit d spatial_sizes[d].
inline std::vector<int64_t> LabelDims(
    const std::string& labels, int64_t a_size, int64_t b_size,
    const std::vector<int64_t>& spatial_sizes) {
  std::vector<int64_t> d;
  for (char c : labels) {
    if (c >= '0' && c <= '9') {
      d.push_back(spatial_sizes[c - '0']);
    } else {
      d.push_back(c == 'b' || c == 'i' ? a_size : b_size);
    }
  }
  return d;
}

// "[d0,d1,...]{minor,...,major}" for `dims` and `minor_to_major`.
inline std::string ShapeText(const std::vector<int64_t>& dims,
                             const std::vector<int64_t>& minor_to_major) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]{",
                      absl::StrJoin(minor_to_major, ","), "}");
}

// A random layout of `rank` dimensions whose most minor one is `minor`
// (any when it is -1) and, when `not_minor` >= 0, whose most minor one is
// not `not_minor`.
inline std::vector<int64_t> RandomLayout(size_t rank, int64_t minor,
                                         int64_t not_minor, std::mt19937& rng) {
  std::vector<int64_t> m2m(rank);
  for (size_t d = 0; d < rank; ++d) m2m[d] = static_cast<int64_t>(d);
  std::shuffle(m2m.begin(), m2m.end(), rng);
  if (minor >= 0) {
    std::iter_swap(m2m.begin(), std::find(m2m.begin(), m2m.end(), minor));
  }
  if (not_minor >= 0 && m2m[0] == not_minor) std::swap(m2m[0], m2m[1]);
  return m2m;
}

// A random window over `spatial` dimensions without input dilation:
// input size in_size(i), kernel size 1, 2, 3 or 5, stride from `strides`,
// low and high padding from `pads` (cut so that the padded size is at
// least 0), kernel dilation 1 or 2, reversal or not.
struct RandomWindow {
  std::vector<int64_t> in_sizes, win_sizes, out_sizes;
  std::vector<int64_t> strides, pad_lo, pad_hi;
  std::string text;  // "window={size=... rhs_reversal=...}"
};
inline RandomWindow MakeRandomWindow(std::mt19937& rng, int spatial,
                                     const std::function<int64_t(int)>& in_size,
                                     const std::vector<int64_t>& pads,
                                     const std::vector<int64_t>& strides = {1, 1, 2, 3}) {
  RandomWindow w;
  std::vector<std::string> size_t_, stride_t, pad_t, rhs_d, rev_t;
  for (int i = 0; i < spatial; ++i) {
    const int64_t in = in_size(i);
    const int64_t size = Pick(rng, {1, 2, 3, 5});
    const int64_t stride = Pick(rng, strides);
    const int64_t rd = Pick(rng, {1, 1, 2});
    const int64_t lo = Pick(rng, pads);
    int64_t hi = Pick(rng, pads);
    if (in + lo + hi < 0) hi = -in - lo;  // a padded size of 0
    const int64_t padded = in + lo + hi;
    const int64_t window = (size - 1) * rd + 1;
    w.in_sizes.push_back(in);
    w.win_sizes.push_back(size);
    w.out_sizes.push_back(padded < window ? 0 : (padded - window) / stride + 1);
    w.strides.push_back(stride);
    w.pad_lo.push_back(lo);
    w.pad_hi.push_back(hi);
    size_t_.push_back(absl::StrCat(size));
    stride_t.push_back(absl::StrCat(stride));
    pad_t.push_back(absl::StrCat(lo, "_", hi));
    rhs_d.push_back(absl::StrCat(rd));
    rev_t.push_back(Pick(rng, {0, 1}) == 1 ? "1" : "0");
  }
  w.text = absl::StrCat("window={size=", absl::StrJoin(size_t_, "x"),
                        " stride=", absl::StrJoin(stride_t, "x"),
                        " pad=", absl::StrJoin(pad_t, "x"),
                        " rhs_dilate=", absl::StrJoin(rhs_d, "x"),
                        " rhs_reversal=", absl::StrJoin(rev_t, "x"), "}");
  return w;
}

}  // namespace aotc::codegen::testing

#endif  // AOTC_CODEGEN_TESTS_CONV_TEST_UTIL_H_
