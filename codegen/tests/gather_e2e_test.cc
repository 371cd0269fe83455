// End-to-end tests of gather: compiled as an element generator, alone and
// fused with its producers and consumers. Each dimension-numbers form has
// expected values worked out by hand in the comments and is also compared
// with the reference evaluator; extreme start indices must clamp, and the
// models run in buffers that end at guard pages (jit_runner.h), so a read
// outside the operand faults instead of passing. The corpus modules that
// gather are compared with the evaluator too.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "codegen/tests/codegen_test_util.h"
#include "compiler/support/file_io.h"
#include "tests/corpus/corpus_compare.h"
#include "tests/corpus/corpus_files.h"
#include "tools/inputs.h"

namespace aotc::codegen {
namespace {

using P = PrimitiveType;
using testing::CompileAndRun;
using testing::ExpectMatchesEvaluator;
using testing::MakeArray;
using testing::Values;
using testing::Vec;

// t[i][j] = 10 i + j over f32[rows, cols].
Literal Table(int rows, int cols) {
  std::vector<float> t(rows * cols);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) t[i * cols + j] = 10.0f * i + j;
  }
  return MakeArray<P::kF32>({rows, cols}, t);
}

// Runs `hlo` as read and through the optimization pipeline (fusion
// included) and checks the result of each against `want` and against the
// evaluator; then compares -O0 and -O2 builds as read with the evaluator.
template <PrimitiveType T>
void RunBoth(const std::string& hlo, const std::vector<Literal>& args,
             const std::vector<NativeType<T>>& want) {
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto expected = EvaluateModule(**module, args);
  ASSERT_TRUE(expected.ok()) << expected.status();
  for (bool optimize : {false, true}) {
    SCOPED_TRACE(optimize ? "optimized" : "as read");
    auto results = CompileAndRun(hlo, args, 2, optimize);
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_EQ(results->size(), 1u);
    EXPECT_EQ(Values<T>((*results)[0]), want);
    const Comparison c =
        CompareLiterals((*results)[0], *expected, DefaultTolerance(T));
    EXPECT_TRUE(c.ok()) << c.mismatches << " mismatches with the evaluator; "
                        << "first " << c.first_mismatch;
  }
  ExpectMatchesEvaluator(hlo, args);
}

// An embedding lookup: rows of a f32[5,3] table picked by s32[4] ids, the
// index vector dimension implicit (index_vector_dim = rank of the ids).
constexpr char kEmbedding[] = R"(
HloModule m
ENTRY e {
  table = f32[5,3] parameter(0)
  ids = IDS[4] parameter(1)
  ROOT g = f32[4,3] gather(table, ids), offset_dims={1},
      collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1,
      slice_sizes={1,3}
})";

std::string Embedding(const std::string& index_type) {
  std::string hlo = kEmbedding;
  hlo.replace(hlo.find("IDS"), 3, index_type);
  return hlo;
}

TEST(GatherE2eTest, EmbeddingLookup) {
  // Rows 3, 0, 4, 1 of t[i][j] = 10 i + j.
  RunBoth<P::kF32>(Embedding("s32"), {Table(5, 3), Vec<P::kS32>({3, 0, 4, 1})},
                   {30, 31, 32, 0, 1, 2, 40, 41, 42, 10, 11, 12});
}

TEST(GatherE2eTest, FusedEmbeddingPlusAddNeedsNoBuffer) {
  // Rows 3, 0, 4, 1 plus pos[i][j] = 100 i:
  // 30 31 32 | 100 101 102 | 240 241 242 | 310 311 312.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  table = f32[5,3] parameter(0)
  ids = s32[4] parameter(1)
  g = f32[4,3] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0},
      start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}
  pos = f32[4,3] parameter(2)
  ROOT a = f32[4,3] add(g, pos)
})";
  std::vector<float> pos(12);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 3; ++j) pos[i * 3 + j] = 100.0f * i;
  }
  const std::vector<Literal> args = {Table(5, 3), Vec<P::kS32>({3, 0, 4, 1}),
                                     MakeArray<P::kF32>({4, 3}, pos)};
  RunBoth<P::kF32>(hlo, args,
                   {30, 31, 32, 100, 101, 102, 240, 241, 242, 310, 311, 312});

  // The optimized module is one fusion holding the gather and the add...
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  ASSERT_TRUE(OptimizeModule(**module, {}).ok());
  const Instruction* root = (*module)->entry()->root();
  ASSERT_EQ(root->opcode(), Opcode::kFusion);
  std::vector<Opcode> fused;
  for (const auto& inst : root->fused_computation()->instructions()) {
    if (inst->opcode() != Opcode::kParameter) fused.push_back(inst->opcode());
  }
  EXPECT_EQ(fused, (std::vector<Opcode>{Opcode::kGather, Opcode::kAdd}));
  // ...written straight into the result: no scratch at all, where the
  // unfused gather needs a buffer for its 12 floats.
  CompileOptions options;
  options.name = "m";
  auto compiled = CompileModule(**module, options);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  EXPECT_EQ(compiled->signature.temp_bytes, 0);
  auto unfused = testing::CompileText(hlo, 2, /*optimize=*/false);
  ASSERT_TRUE(unfused.ok()) << unfused.status();
  EXPECT_GE(unfused->signature.temp_bytes, 48);
}

TEST(GatherE2eTest, FusedEmbeddingRowsSplitAcrossThreads) {
  // 512 rows of 64 from a 1000-row table, plus 1: 32768 elements, enough
  // work for a parallel loop even at one unit per element, whose chunks the
  // hook runs on their own threads, last first. Row k reads table row
  // (37 k) % 1000, whose elements are 1000 r + j, so
  // out[k][j] = 1000 ((37 k) % 1000) + j + 1 (exact in f32).
  const std::string hlo = R"(
HloModule m
ENTRY e {
  table = f32[1000,64] parameter(0)
  ids = s32[512] parameter(1)
  g = f32[512,64] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0},
      start_index_map={0}, index_vector_dim=1, slice_sizes={1,64}
  one = f32[] constant(1)
  ones = f32[512,64] broadcast(one), dimensions={}
  ROOT a = f32[512,64] add(g, ones)
})";
  std::vector<float> table(1000 * 64);
  for (int r = 0; r < 1000; ++r) {
    for (int j = 0; j < 64; ++j) table[r * 64 + j] = 1000.0f * r + j;
  }
  std::vector<int32_t> ids(512);
  std::vector<float> want(512 * 64);
  for (int k = 0; k < 512; ++k) {
    ids[k] = (37 * k) % 1000;
    for (int j = 0; j < 64; ++j) want[k * 64 + j] = 1000.0f * ids[k] + j + 1;
  }
  testing::HookLog log;
  aotc_set_parallel_for(&testing::ThreadedReverseHook, &log);
  auto results = CompileAndRun(
      hlo, {MakeArray<P::kF32>({1000, 64}, table), Vec<P::kS32>(ids)}, 2,
      /*optimize=*/true);
  aotc_set_parallel_for(nullptr, nullptr);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(Values<P::kF32>((*results)[0]), want);
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(log.iterations, 512);
}

TEST(GatherE2eTest, PointGatherWithExplicitIndexVectorDim) {
  // x[i][j] = 10 i + j over s32[3,4]. The indices s32[2,3] hold the index
  // vectors in dimension 0: the points are the columns (2,3), (0,1),
  // (1,0), so the values are 23, 1, 10.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = s32[3,4] parameter(0)
  idx = s32[2,3] parameter(1)
  ROOT g = s32[3] gather(x, idx), offset_dims={}, collapsed_slice_dims={0,1},
      start_index_map={0,1}, index_vector_dim=0, slice_sizes={1,1}
})";
  RunBoth<P::kS32>(
      hlo,
      {MakeArray<P::kS32>({3, 4}, {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}),
       MakeArray<P::kS32>({2, 3}, {2, 0, 1, 3, 1, 0})},
      {23, 1, 10});
}

TEST(GatherE2eTest, OffsetDimsAroundTheBatchDim) {
  // Windows of 2x2 of t[i][j] = 10 i + j over f32[2,4], starting at column
  // idx[b] clamped to [0, 4 - 2]: idx = {1, 3} starts at columns 1 and 2.
  // The result is [a][b][c] = t[a][start_b + c] with offset dims 0 and 2
  // around the batch dim 1:
  //   a=0: b=0: 1 2, b=1: 2 3;  a=1: b=0: 11 12, b=1: 12 13.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  t = f32[2,4] parameter(0)
  idx = s32[2] parameter(1)
  ROOT g = f32[2,2,2] gather(t, idx), offset_dims={0,2},
      collapsed_slice_dims={}, start_index_map={1}, index_vector_dim=1,
      slice_sizes={2,2}
})";
  RunBoth<P::kF32>(hlo, {Table(2, 4), Vec<P::kS32>({1, 3})},
                   {1, 2, 2, 3, 11, 12, 12, 13});
}

TEST(GatherE2eTest, BatchingDims) {
  // x[b][i][j] = 100 b + 10 i + j over f32[2,3,4]; batch b of the indices
  // s32[2,2] picks rows of x[b]: out[b][p][j] = x[b][idx[b][p]][j] with
  // idx = {{2, 0}, {1, -5}} (-5 clamps to 0):
  //   b=0: 20..23, 0..3;  b=1: 110..113, 100..103.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[2,3,4] parameter(0)
  idx = s32[2,2] parameter(1)
  ROOT g = f32[2,2,4] gather(x, idx), offset_dims={2},
      collapsed_slice_dims={1}, start_index_map={1},
      operand_batching_dims={0}, start_indices_batching_dims={0},
      index_vector_dim=2, slice_sizes={1,1,4}
})";
  std::vector<float> x(24);
  for (int b = 0; b < 2; ++b) {
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 4; ++j)
        x[b * 12 + i * 4 + j] = 100.0f * b + 10 * i + j;
    }
  }
  RunBoth<P::kF32>(
      hlo,
      {MakeArray<P::kF32>({2, 3, 4}, x),
       MakeArray<P::kS32>({2, 2}, {2, 0, 1, -5})},
      {20, 21, 22, 23, 0, 1, 2, 3, 110, 111, 112, 113, 100, 101, 102, 103});
}

TEST(GatherE2eTest, IndicesBatchingDimAfterTheIndexVectorDim) {
  // The same lookup with the indices transposed to s32[2,2] = [p][b] and the
  // index vector dim in front, as s32[1,2,2] = [v][p][b]: batching dim 2 of
  // the indices pairs with operand dim 0, and the result keeps the batch
  // dims in the order of the indices: out[p][b][j] = x[b][idx[0][p][b]][j].
  // idx[0] = {{2, 1}, {0, -5}}:
  //   p=0: b=0: 20..23, b=1: 110..113;  p=1: b=0: 0..3, b=1: 100..103.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[2,3,4] parameter(0)
  idx = s32[1,2,2] parameter(1)
  ROOT g = f32[2,2,4] gather(x, idx), offset_dims={2},
      collapsed_slice_dims={1}, start_index_map={1},
      operand_batching_dims={0}, start_indices_batching_dims={2},
      index_vector_dim=0, slice_sizes={1,1,4}
})";
  std::vector<float> x(24);
  for (int b = 0; b < 2; ++b) {
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 4; ++j)
        x[b * 12 + i * 4 + j] = 100.0f * b + 10 * i + j;
    }
  }
  RunBoth<P::kF32>(
      hlo,
      {MakeArray<P::kF32>({2, 3, 4}, x),
       MakeArray<P::kS32>({1, 2, 2}, {2, 1, 0, -5})},
      {20, 21, 22, 23, 110, 111, 112, 113, 0, 1, 2, 3, 100, 101, 102, 103});
}

TEST(GatherE2eTest, ExtremeStartsClampIntoTheOperand) {
  // Windows of 2x3 of -(10 i + j) over f32[8,6]; starts clamp to
  // [0, 8 - 2] x [0, 6 - 3]:
  //   (INT_MAX, INT_MIN) -> (6, 0): -60 -61 -62 -70 -71 -72
  //   (INT_MIN, INT_MAX) -> (0, 3): -3 -4 -5 -13 -14 -15
  //   (-1, 7)            -> (0, 3): the same.
  // Fused, the negate is computed at the clamped positions only.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  x = f32[8,6] parameter(0)
  idx = s32[3,2] parameter(1)
  n = f32[8,6] negate(x)
  ROOT g = f32[3,2,3] gather(n, idx), offset_dims={1,2},
      collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1,
      slice_sizes={2,3}
})";
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  RunBoth<P::kF32>(hlo,
                   {Table(8, 6), MakeArray<P::kS32>(
                                     {3, 2}, {kMax, kMin, kMin, kMax, -1, 7})},
                   {-60, -61, -62, -70, -71, -72, -3, -4, -5, -13, -14, -15, -3,
                    -4, -5, -13, -14, -15});
}

TEST(GatherE2eTest, S64Indices) {
  // INT64_MIN -> row 0, 4 -> row 4, INT64_MAX -> row 4 (5 - 1), 2 -> row 2.
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  RunBoth<P::kF32>(Embedding("s64"),
                   {Table(5, 3), Vec<P::kS64>({kMin, 4, kMax, 2})},
                   {0, 1, 2, 40, 41, 42, 40, 41, 42, 20, 21, 22});
}

TEST(GatherE2eTest, U8Indices) {
  // Unsigned: 255 is past the last row and clamps to 4 (read as signed it
  // would be -1 and clamp to 0); 1 -> row 1, 0 -> row 0, 200 -> row 4.
  RunBoth<P::kF32>(Embedding("u8"),
                   {Table(5, 3), Vec<P::kU8>({255, 1, 0, 200})},
                   {40, 41, 42, 10, 11, 12, 0, 1, 2, 40, 41, 42});
}

TEST(GatherE2eTest, U64IndicesAboveInt64Max) {
  // 2^64 - 1 and 2^63 are past the last row (the evaluator saturates them
  // at INT64_MAX): both read row 4; 3 -> row 3.
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  RunBoth<P::kF32>(Embedding("u64"),
                   {Table(5, 3), Vec<P::kU64>({kMax, uint64_t{1} << 63, 3, 0})},
                   {40, 41, 42, 40, 41, 42, 30, 31, 32, 0, 1, 2});
}

// The verifier refuses such a module; code generation, which may be handed
// one that was never verified, refuses it too, at the gather, rather than
// read past its buffers.
TEST(GatherE2eTest, InconsistentDimensionNumbersGiveALocatedError) {
  const char* hlo = R"(HloModule m
ENTRY e {
  t = f32[5,3] parameter(0)
  ids = s32[4] parameter(1)
  ROOT g = f32[4,3] gather(t, ids), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={1,3}
})";
  EXPECT_EQ(testing::UnverifiedCompileError(hlo),
            "test.hlo:5:8: error: gather: start_index_map={0,1} does not "
            "match index vectors of 1 components");
}

// Every corpus module with a gather is compiled through the optimization
// pipeline, run on seeded inputs and compared with the evaluator running it
// as read. Modules that code generation refuses for another operation, or
// whose values would not fit in memory, are skipped with the reason.
TEST(GatherE2eTest, CorpusGatherModulesMatchTheEvaluator) {
  // convert_operand_folder_1, gather_operation_1..6 and hlo_evaluator_1.
  constexpr int kExpectedCompared = 8;
  const CorpusSubset subset = CompareCorpusModulesUsing({"gather"});
  EXPECT_THAT(subset.failures, ::testing::IsEmpty());
  EXPECT_GE(subset.matched, kExpectedCompared);
}

}  // namespace
}  // namespace aotc::codegen
