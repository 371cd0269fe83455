// Data-dependent indexing (bench/models/):
//
//   embedding_gather/...  512 rows of a f32[32768,1024] table picked by s32
//                         ids (an embedding lookup)
//   scatter_add/...       65536 rows of f32[65536,64] updates added into a
//                         copy of a f32[65536,64] operand at s32 ids (with
//                         duplicates, as a gradient of a lookup has)
//
// each as aotc (default flags), hand_loop (what one would write in C++:
// memcpy of each picked row; a copy of the operand, then each update row
// added into its row) and roofline (the least memory traffic the operation
// needs as one streaming pass: for the gather the hand loop itself, for the
// scatter out[i] = operand[i] + updates[i], which reads and writes the same
// bytes without the indexing). The bytes per iteration are that traffic.
// Results are checked against the same arithmetic in double before timing.
#include <cstdint>
#include <cstring>
#include <vector>

#include "bench_util.h"
#include "embedding_gather.h"
#include "scatter_add.h"

namespace aotc::bench {
namespace {

constexpr int64_t kVocab = 32768;
constexpr int64_t kWidth = 1024;
constexpr int64_t kLookups = 512;
constexpr int64_t kScatterRows = 65536;
constexpr int64_t kScatterWidth = 64;

static_assert(EMBEDDING_GATHER_TABLE_ELEMENTS == kVocab * kWidth &&
                  EMBEDDING_GATHER_IDS_ELEMENTS == kLookups &&
                  SCATTER_ADD_OPERAND_ELEMENTS == kScatterRows * kScatterWidth,
              "embedding_gather.hlo or scatter_add.hlo has unexpected shapes");

// Ids from a fixed-seed generator, in [0, bound).
std::vector<int32_t> Ids(int64_t count, int64_t bound, uint64_t seed) {
  const AlignedFloats u = UniformFloats(count, seed, 0.0f, 1.0f);
  std::vector<int32_t> ids(count);
  for (int64_t i = 0; i < count; ++i) {
    ids[i] = static_cast<int32_t>(u[i] * static_cast<float>(bound)) %
             static_cast<int32_t>(bound);
  }
  return ids;
}

struct GatherData {
  AlignedFloats table;
  std::vector<int32_t> ids;
  std::vector<double> want;
};

const GatherData& Gather() {
  static const GatherData data = [] {
    GatherData d;
    d.table = UniformFloats(kVocab * kWidth, 21, -1.0f, 1.0f);
    d.ids = Ids(kLookups, kVocab, 22);
    d.want.resize(kLookups * kWidth);
    for (int64_t i = 0; i < kLookups; ++i) {
      for (int64_t j = 0; j < kWidth; ++j) {
        d.want[i * kWidth + j] = d.table[d.ids[i] * kWidth + j];
      }
    }
    return d;
  }();
  return data;
}

constexpr int64_t kGatherBytes = 2 * kLookups * kWidth * int64_t{sizeof(float)};

void GatherAotc(benchmark::State& state) {
  const GatherData& d = Gather();
  AlignedFloats out(kLookups * kWidth);
  auto temp = AllocateTemp(EMBEDDING_GATHER_TEMP_BYTES);
  TimeArrayResult(state, "embedding_gather aotc", d.want, out, kGatherBytes, [&] {
    return embedding_gather_run(d.table.data(), d.ids.data(), out.data(),
                                temp.get());
  });
}

void GatherRoofline(benchmark::State& state) {
  const GatherData& d = Gather();
  AlignedFloats out(kLookups * kWidth);
  TimeArrayResult(state, "embedding_gather roofline", d.want, out, kGatherBytes,
                  [&] {
                    ParallelFor(kLookups, 64, [&](int64_t begin, int64_t end) {
                      for (int64_t i = begin; i < end; ++i) {
                        std::memcpy(out.data() + i * kWidth,
                                    d.table.data() + d.ids[i] * kWidth,
                                    kWidth * sizeof(float));
                      }
                    });
                    return 0;
                  });
}

struct ScatterData {
  AlignedFloats operand;
  std::vector<int32_t> ids;
  AlignedFloats updates;
  std::vector<double> want;
  std::vector<double> streamed;  // operand + updates, element by element
};

const ScatterData& Scatter() {
  static const ScatterData data = [] {
    ScatterData d;
    const int64_t n = kScatterRows * kScatterWidth;
    d.operand = UniformFloats(n, 31, -1.0f, 1.0f);
    d.ids = Ids(kScatterRows, kScatterRows, 32);
    d.updates = UniformFloats(n, 33, -1.0f, 1.0f);
    d.want.assign(d.operand.data(), d.operand.data() + n);
    d.streamed.resize(n);
    for (int64_t i = 0; i < n; ++i) {
      d.streamed[i] = static_cast<double>(d.operand[i]) + d.updates[i];
    }
    for (int64_t i = 0; i < kScatterRows; ++i) {
      for (int64_t j = 0; j < kScatterWidth; ++j) {
        d.want[d.ids[i] * kScatterWidth + j] += d.updates[i * kScatterWidth + j];
      }
    }
    return d;
  }();
  return data;
}

// Read the operand and the updates, write the output.
constexpr int64_t kScatterBytes =
    3 * kScatterRows * kScatterWidth * int64_t{sizeof(float)};

void ScatterAotc(benchmark::State& state) {
  const ScatterData& d = Scatter();
  AlignedFloats out(kScatterRows * kScatterWidth);
  auto temp = AllocateTemp(SCATTER_ADD_TEMP_BYTES);
  TimeArrayResult(state, "scatter_add aotc", d.want, out, kScatterBytes, [&] {
    return scatter_add_run(d.operand.data(), d.ids.data(), d.updates.data(),
                           out.data(), temp.get());
  });
}

void ScatterHandLoop(benchmark::State& state) {
  const ScatterData& d = Scatter();
  AlignedFloats out(kScatterRows * kScatterWidth);
  TimeArrayResult(state, "scatter_add hand_loop", d.want, out, kScatterBytes, [&] {
    std::memcpy(out.data(), d.operand.data(), out.size() * sizeof(float));
    for (int64_t i = 0; i < kScatterRows; ++i) {
      float* row = out.data() + d.ids[i] * kScatterWidth;
      const float* update = d.updates.data() + i * kScatterWidth;
      for (int64_t j = 0; j < kScatterWidth; ++j) row[j] += update[j];
    }
    return 0;
  });
}

void ScatterRoofline(benchmark::State& state) {
  const ScatterData& d = Scatter();
  AlignedFloats out(kScatterRows * kScatterWidth);
  TimeArrayResult(state, "scatter_add roofline", d.streamed, out, kScatterBytes,
                  [&] {
                    const float* a = d.operand.data();
                    const float* b = d.updates.data();
                    float* o = out.data();
                    ParallelFor(kScatterRows, 1024, [&](int64_t begin, int64_t end) {
                      for (int64_t i = begin * kScatterWidth;
                           i < end * kScatterWidth; ++i) {
                        o[i] = a[i] + b[i];
                      }
                    });
                    return 0;
                  });
}

[[maybe_unused]] const bool registered = [] {
  Register("embedding_gather/aotc", GatherAotc);
  Register("embedding_gather/roofline", GatherRoofline);
  Register("scatter_add/aotc", ScatterAotc);
  Register("scatter_add/hand_loop", ScatterHandLoop);
  Register("scatter_add/roofline", ScatterRoofline);
  return true;
}();

}  // namespace
}  // namespace aotc::bench
