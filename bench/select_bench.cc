// Sorting and selection over one row of 2^20 f32 (bench/models/):
//
//   sort_1m/aotc       sort(x) with a LT comparator, aotc's merge sort
//   sort_1m/std_sort   a copy of x, then std::sort (the same work: aotc's
//                      model copies its operand into the result first)
//   top5_1m/aotc       topk(x), k=5: heap selection, O(n log k)
//
// The targets compare top5_1m/aotc with sort_1m/aotc (selection must beat
// a full sort by at least 5x) and sort_1m/aotc with sort_1m/std_sort. Each
// result is checked exactly before timing. Every 64th input is a zero, +0
// and -0 in turn, which the LT comparator takes as equal: aotc's sort is
// stable (docs/codegen.md), so its result must be std::stable_sort's bit
// for bit, the zeros' signs in their input order; std::sort is not stable,
// so its result is checked by value. One row has no parallel loop, so both
// thread counts run the same code.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "bench_util.h"
#include "sort_1m.h"
#include "top5_1m.h"

namespace aotc::bench {
namespace {

constexpr int64_t kCount = int64_t{1} << 20;
constexpr int kTop = 5;

static_assert(SORT_1M_X_ELEMENTS == kCount && TOP5_1M_X_ELEMENTS == kCount,
              "sort_1m.hlo or top5_1m.hlo has unexpected shapes");

struct SortData {
  AlignedFloats x;
  std::vector<float> ascending;  // std::stable_sort of x
};

const SortData& Data() {
  static const SortData data = [] {
    SortData d;
    d.x = UniformFloats(kCount, 11, -1000.0f, 1000.0f);
    for (int64_t i = 0; i < kCount; i += 64) {
      d.x[i] = (i / 64) % 2 == 0 ? 0.0f : -0.0f;
    }
    d.ascending.assign(d.x.data(), d.x.data() + kCount);
    std::stable_sort(d.ascending.begin(), d.ascending.end());
    return d;
  }();
  return data;
}

void SortAotc(benchmark::State& state) {
  const SortData& d = Data();
  AlignedFloats out(kCount);
  auto temp = AllocateTemp(SORT_1M_TEMP_BYTES);
  TimeCheckedResult(
      state, "sort_1m aotc", out, 2 * kCount * int64_t{sizeof(float)},
      [&](const float* got) {
        return CheckExact("sort_1m aotc", got, d.ascending, /*bits=*/true);
      },
      [&] { return sort_1m_run(d.x.data(), out.data(), temp.get()); });
}

void SortStd(benchmark::State& state) {
  const SortData& d = Data();
  AlignedFloats out(kCount);
  TimeCheckedResult(
      state, "sort_1m std_sort", out, 2 * kCount * int64_t{sizeof(float)},
      [&](const float* got) {
        return CheckExact("sort_1m std_sort", got, d.ascending,
                          /*bits=*/false);
      },
      [&] {
        std::copy(d.x.data(), d.x.data() + kCount, out.data());
        std::sort(out.data(), out.data() + kCount);
        return 0;
      });
}

void Top5Aotc(benchmark::State& state) {
  const SortData& d = Data();
  AlignedFloats values(kTop);
  std::vector<int32_t> indices(kTop, -1);
  auto temp = AllocateTemp(TOP5_1M_TEMP_BYTES);
  const std::vector<float> want(d.ascending.rbegin(),
                                d.ascending.rbegin() + kTop);
  TimeCheckedResult(
      state, "top5_1m aotc", values, kCount * int64_t{sizeof(float)},
      [&](const float* got) {
        return CheckExact("top5_1m aotc", got, want, /*bits=*/true);
      },
      [&] {
        return top5_1m_run(d.x.data(), values.data(), indices.data(),
                           temp.get());
      });
  // The indices must point at the values they came with.
  for (int j = 0; j < kTop; ++j) {
    if (indices[j] < 0 || indices[j] >= kCount ||
        d.x[indices[j]] != values[j]) {
      state.SkipWithError("top5_1m aotc: an index does not match its value");
      return;
    }
  }
}

[[maybe_unused]] const bool registered = [] {
  Register("sort_1m/aotc", SortAotc);
  Register("sort_1m/std_sort", SortStd);
  Register("top5_1m/aotc", Top5Aotc);
  return true;
}();

}  // namespace
}  // namespace aotc::bench
